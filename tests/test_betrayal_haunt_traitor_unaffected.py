"""Betrayal haunt: the house is the traitor's home, and cards that do no damage pass the
traitor by (sides.unaffected, cards/haunt_cards.reached; events.yaml `does_damage`).

Seed 003 (rules, "Haunt"), as written:

    這詭秘大宅仍是奸徒Traitor與怪物monster的家園，奸徒與怪物是完全不受一切不會引致損傷的
    考驗/卡片影響。

In our words: the house is still home to the traitor and the monsters, so no roll or
card that does no damage affects them at all. The next sentence lets a traitor who
draws an event choose to ignore it, or resolve it and bear all of it (tested in
test_betrayal_haunt_cards.py); here the card reaches the traitor from another's draw
(Rotten, Footsteps, Image in the Mirror) or through the token it left (Drip, Smoke,
the Blessing), and a card that does damage (Hideous Shriek) still hits the traitor.

Rigged states (tests/betrayal_haunt_rig.py): Jenny is the traitor; `fixed` scripts
the dice. Every hero rolls Sanity with 3 dice or more here, so 2s on every die
always make 5+; Jenny rolls 2 dice.
"""

from __future__ import annotations

import pytest

from bot.games.betrayal import content, effects, rolls
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.haunting import sides
from bot.games.betrayal.state import BetrayalState, Frame
from tests.betrayal_haunt_rig import (
    DARRIN,
    JENNY,
    LONGFELLOW,
    MISSY,
    choose,
    fixed,
    hold,
    place,
    rig_plugin,
    rigged,
    trait,
)
from tests.test_betrayal_engine_helpers import deck_top, put

__all__ = ["fixed", "rig_plugin"]

IGNORES = "ignores {card}: the house leaves its own alone"


def _name(state: BetrayalState, seat: int) -> str:
    return content.explorer(state.explorers[seat].key).name


def _draw(state: BetrayalState, card: str, seat: int) -> list[str]:
    """`seat` draws `card` from the event deck; the lines the channel hears."""
    deck_top(state, "event", card)
    ctx = Ctx(state)
    ctx.push([{"draw": {"deck": "event"}}], seat)
    effects.run(ctx)
    return [e.text for e in ctx.events]


def _traits(state: BetrayalState, seat: int) -> dict[str, int]:
    """Where the clips sit on the tracks (some tracks repeat a value: 2 -> 2)."""
    return dict(state.explorers[seat].traits)


def _answer_all(state: BetrayalState, lines: list[str]) -> BetrayalState:
    """Answer every choice left with its first label (a trait to lose, a damage split)."""
    for _ in range(20):
        if state.pending is None:
            return state
        state, more = choose(state, 0)
        lines += more
    raise AssertionError("choices never end")


def test_the_cards_that_do_no_damage_are_data() -> None:
    """Rotten and Footsteps say `does_damage: false`; Hideous Shriek deals damage."""
    assert not content.card("rotten").does_damage
    assert not content.card("footsteps").does_damage
    assert content.card("hideous_shriek").does_damage


def test_the_traitor_ignores_rotten_that_a_hero_draws(fixed: list[int]) -> None:
    state = rigged(DARRIN)
    before = {seat: _traits(state, seat) for seat in (MISSY, LONGFELLOW, JENNY, DARRIN)}
    fixed.extend([2] * 40)  # 5+: gain 1 Sanity, for whoever rolls
    lines = _draw(state, "rotten", DARRIN)
    assert state.pending is None
    rollers = [line for line in lines if " rolls Sanity: " in line]
    assert len(rollers) == 3 and not any(_name(state, JENNY) in r for r in rollers)
    assert f"{_name(state, JENNY)} {IGNORES.format(card='Rotten')}." in lines
    assert _traits(state, JENNY) == before[JENNY]  # not even the gain
    for hero in (MISSY, LONGFELLOW, DARRIN):  # a hero does not skip it
        assert trait(state, hero, "sanity") > before[hero]["sanity"], hero
    assert "rotten" in state.discards["event"]


def test_a_traitor_who_draws_rotten_and_resolves_it_rolls_too(fixed: list[int]) -> None:
    state = rigged(JENNY)
    before = _traits(state, JENNY)
    fixed.extend([2] * 40)  # Jenny's 2 dice: 4, so she loses 1 Might
    _draw(state, "rotten", JENNY)
    assert state.pending is not None and state.pending.labels == ["Resolve it", "Ignore it"]
    state, lines = choose(state, "Resolve it")  # seed 003: then it bears all of it
    assert not any("ignores" in line for line in lines)
    assert f"{_name(state, JENNY)} rolls Sanity: 2 2 = 4." in lines
    assert _traits(state, JENNY)["might"] == before["might"] - 1


def test_the_traitor_ignores_footsteps_everyone_loses(fixed: list[int]) -> None:
    """Footsteps' 0: every explorer loses 1 in a trait it picks; the traitor picks none."""
    state = rigged(DARRIN)
    before = {seat: _traits(state, seat) for seat in (MISSY, LONGFELLOW, JENNY, DARRIN)}
    fixed.append(0)
    lines = _draw(state, "footsteps", DARRIN)
    assert f"{_name(state, JENNY)} {IGNORES.format(card='Footsteps')}." in lines
    asked = []
    for _ in range(3):
        assert state.pending is not None
        asked.append(state.pending.seat)
        state, _ = choose(state, 0)
    assert state.pending is None
    assert asked == [DARRIN, MISSY, LONGFELLOW]  # clockwise from the drawer, no Jenny
    assert _traits(state, JENNY) == before[JENNY]
    for hero in asked:
        assert sum(_traits(state, hero).values()) == sum(before[hero].values()) - 1, hero


def _in_the_crypt(state: BetrayalState, *seats: int) -> None:
    """Footsteps rolls 2 dice in the Crypt: only then can it show 3 or 4."""
    crypt = put(state, "crypt", "basement", 9, 9)
    for seat in seats:
        state.explorers[seat].tile = crypt


def test_the_traitor_nearest_to_footsteps_is_untouched(fixed: list[int]) -> None:
    """4: you and the nearest explorer gain 1 Might. Jenny, the nearest, gains nothing."""
    state = rigged(DARRIN)
    _in_the_crypt(state, DARRIN, JENNY)
    jenny, darrin = _traits(state, JENNY), trait(state, DARRIN, "might")
    fixed.extend([2, 2])
    lines = _draw(state, "footsteps", DARRIN)
    assert state.pending is None
    assert f"{_name(state, JENNY)} {IGNORES.format(card='Footsteps')}." in lines
    assert _traits(state, JENNY) == jenny
    assert trait(state, DARRIN, "might") == darrin + 1


def test_a_hero_nearest_to_footsteps_gains(fixed: list[int]) -> None:
    state = rigged(DARRIN)
    _in_the_crypt(state, DARRIN, MISSY)
    might = trait(state, MISSY, "might")
    fixed.extend([2, 2])
    lines = _draw(state, "footsteps", DARRIN)
    assert not any("ignores" in line for line in lines)
    assert trait(state, MISSY, "might") == might + 1


def test_image_in_the_mirror_goes_round_past_the_traitor() -> None:
    """Longfellow has no item: the card goes left, past Jenny's, to Darrin's."""
    state = rigged(LONGFELLOW)
    hold(state, JENNY, "axe")
    hold(state, DARRIN, "rope")
    lines = _draw(state, "image_in_the_mirror_forward", LONGFELLOW)
    assert f"{_name(state, JENNY)} {IGNORES.format(card='Image in the Mirror')}." in lines
    assert state.explorers[JENNY].cards == ["axe"]
    assert state.explorers[DARRIN].cards == []  # sent back into the item deck


def test_a_card_that_does_damage_still_hits_the_traitor(fixed: list[int]) -> None:
    """Hideous Shriek: every explorer rolls Sanity; 0 brings 2 dice of mental damage."""
    state = rigged(DARRIN)
    place(state, "foyer", MISSY, LONGFELLOW, JENNY, DARRIN)
    mind = trait(state, JENNY, "sanity") + trait(state, JENNY, "knowledge")
    fixed.extend([0] * 20 + [2] * 20)  # every Sanity roll 0; then 2 dice of damage, 4
    lines = _draw(state, "hideous_shriek", DARRIN)
    state = _answer_all(state, lines)
    assert not any("ignores" in line for line in lines)
    assert any(line.startswith(f"{_name(state, JENNY)} rolls Sanity: ") for line in lines)
    assert trait(state, JENNY, "sanity") + trait(state, JENNY, "knowledge") < mind


@pytest.mark.parametrize("card, kind, delta", [
    ("drip_drip_drip", "drip", -1), ("smoke", "smoke", -2), ("a_moment_of_hope", "blessing", 1)])
def test_a_token_left_by_a_card_does_not_touch_the_traitors_rolls(
        card: str, kind: str, delta: int) -> None:
    """Drip, Smoke and the Blessing do no damage: the traitor rolls its full dice there."""
    state = rigged(DARRIN)
    foyer = place(state, "foyer", MISSY, JENNY)
    sanity = {"trait": "sanity"}

    def count(seat: int) -> int:
        return rolls.dice_for(state, Frame([], seat, "", "event"), sanity)

    bare = {seat: count(seat) for seat in (MISSY, JENNY)}
    state.tiles[foyer].tokens.append({"kind": kind, "card": card})
    assert count(JENNY) == bare[JENNY]
    assert count(MISSY) == bare[MISSY] + delta  # a hero's roll still changes


def test_only_the_traitor_in_a_running_haunt_is_spared() -> None:
    state = rigged(DARRIN)
    assert sides.unaffected(state, JENNY, "rotten", DARRIN)
    assert not sides.unaffected(state, JENNY, "rotten", JENNY)  # its own draw: it chose
    assert not sides.unaffected(state, MISSY, "rotten", DARRIN)
    assert not sides.unaffected(state, JENNY, "hideous_shriek", DARRIN)
    assert sides.unaffected(state, JENNY, "drip_drip_drip", None)  # a token: no drawer
    state.over = True
    assert not sides.unaffected(state, JENNY, "rotten", DARRIN)
