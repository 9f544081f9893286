"""COME HOME TO EVIL's scenarios 1-3 against seed 000, sentence by sentence:
the defects found, each driven through the engine."""

from __future__ import annotations

import pytest

from bot.core.actions import Action
from bot.games.betrayal import GAME, traits
from bot.games.betrayal.haunting import combat, sides
from bot.games.betrayal.state import HEROES, BetrayalState, Monster
from bot.games.neibolt.scenarios import all_living_things_must_abide as al
from tests.betrayal_haunt_helpers import started
from tests.test_betrayal_engine_helpers import script_dice


@pytest.fixture
def dice(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    return script_dice(monkeypatch)


def faces(count: int, total: int) -> list[int]:
    """`count` dice showing `total` (0 to 2 a die)."""
    assert 0 <= total <= 2 * count
    found: list[int] = []
    for _ in range(count):
        found.append(max(0, min(2, total - sum(found))))
    return found


def beside_a_stunned_form() -> tuple[BetrayalState, int, Monster]:
    """All Living Things Must Abide at a hero's turn (hands emptied, so no card steps
    into the roll), the form stunned in the hero's room."""
    state = started(al.KEY, 4, 1)[0]
    assert state.haunt is not None and state.haunt.stage == HEROES and state.pending is None
    seat = state.turn.seat
    assert not sides.is_traitor(state, seat)
    state.explorers[seat].cards.clear()
    form = al.form(state)
    assert form is not None
    form.tile, form.stunned = state.explorers[seat].tile, True
    return state, seat, form


def test_a_tied_banishment_neither_banishes_the_form_nor_ends_the_turn(
        dice: list[int]) -> None:
    """Seed 000, Banish It's Form: "If you win the attack, remove the monster from the
    board ... If you lose the attack, you do not take any damage. End your turn." A tie
    is neither: seed 003, 擲得點數較多者擊中對方，相同點數則無人受傷 (the higher total
    hits; on equal totals no one is hurt). So the form stays, and the hero's turn goes
    on."""
    state, seat, form = beside_a_stunned_form()
    mine = traits.value(state, seat, "sanity")
    theirs = combat.monster_trait(state, form, "sanity") or 1
    total = min(mine, theirs)
    dice += faces(mine, total) + faces(theirs, total)
    new, events = GAME.apply(state, seat, Action("act", {"what": "banish"}))
    said = [e.text for e in events]
    assert dice == []
    assert new.haunt is not None and new.haunt.progress["left"] == 3
    still = al.form(new)
    assert still is not None and still.alive
    assert new.turn.seat == seat and new.pending is None  # the turn goes on
    assert new.explorers[seat].traits == state.explorers[seat].traits
    assert not any("the turn is over" in line for line in said)
    assert any("tie" in line.lower() for line in said)
    # "Once during your turn": it is not offered again this turn.
    assert "banish" not in [str(o.action.args.get("what")) for o in GAME.options(new, seat)
                            if o.action.kind == "act"]
