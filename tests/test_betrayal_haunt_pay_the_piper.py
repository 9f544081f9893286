"""Pay the Piper (haunt #3): seed 003's outline (rats; kill every rat, or the traitor
before the Pentagram Chamber; the traitor's 5 Sanity successes there) and our design
(data/betrayal/haunts/pay_the_piper.yaml)."""

from __future__ import annotations

import pytest

from bot.core.actions import Action
from bot.games.betrayal import GAME
from bot.games.betrayal.haunting import sides
from bot.games.betrayal.haunting.base import load_data
from bot.games.betrayal.haunting.plugins.pay_the_piper import CHAMBER, PayThePiper
from bot.games.betrayal.state import BetrayalState
from tests.betrayal_haunt_helpers import (
    answer_pending,
    begin,
    house,
    played,
)

KEY = "pay_the_piper"
PLUGIN = PayThePiper()


def _start(players: int = 4, seed: int = 1) -> tuple[BetrayalState, list]:  # type: ignore[type-arg]
    state, events = begin(house(players, seed), KEY)
    return answer_pending(state), events


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_setup_places_the_rats_around_the_traitor(players: int) -> None:
    state, _ = _start(players)
    rats = sides.monsters(state, "rat")
    assert len(rats) == PLUGIN.value(state, "rats")
    traitor = sides.traitor(state)
    assert traitor is not None
    home = state.explorers[traitor].tile
    from bot.games.betrayal.haunting import monsters

    around = {home, *monsters.neighbours(state, home)}
    assert {r.tile for r in rats} <= around
    assert state.tile_of(CHAMBER) is not None  # searched out if it was not in the house


def test_the_traitor_is_ox_bellows_or_else_the_lowest_sanity() -> None:
    state, _ = _start()
    traitor = sides.traitor(state)
    assert traitor is not None
    keys = [e.key for e in state.explorers]
    if "ox_bellows" in keys:
        assert keys[traitor] == "ox_bellows"


def _ritual_state(roll: int) -> tuple[BetrayalState, int]:
    state, _ = _start()
    traitor = sides.traitor(state)
    assert traitor is not None
    chamber = state.tile_of(CHAMBER)
    assert chamber is not None
    state.explorers[traitor].tile = chamber
    state.explorers[traitor].side = None
    state.turn.seat = traitor
    state.turn.moves = 0
    state.haunt.stage = "traitor"
    return state, traitor


@pytest.mark.parametrize(("total", "gained"), [(3, 1), (2, 0)])
def test_the_ritual_needs_the_target_on_a_sanity_roll(monkeypatch: pytest.MonkeyPatch,
                                                      total: int, gained: int) -> None:
    state, traitor = _ritual_state(total)
    options = [o.action for o in GAME.options(state, traitor)]
    ritual = Action("act", {"what": "ritual"})
    assert ritual in options
    monkeypatch.setattr("bot.games.betrayal.rolls.roll_betrayal",
                        lambda rng, n: [total] + [0] * (n - 1))
    after, events = GAME.apply(state, traitor, ritual)
    assert after.haunt.progress.get("successes", 0) == gained
    assert any("chants" in e.text for e in events if e.audience.is_public)
    assert ritual not in [o.action for o in GAME.options(after, traitor)]  # once a turn


def test_no_ritual_outside_the_chamber() -> None:
    state, traitor = _ritual_state(0)
    state.explorers[traitor].tile = 0
    assert Action("act", {"what": "ritual"}) not in [o.action for o in
                                                     GAME.options(state, traitor)]


def test_winners() -> None:
    state, _ = _start()
    assert PLUGIN.winner(state) is None
    state.haunt.progress["successes"] = PLUGIN.value(state, "successes")
    assert PLUGIN.winner(state) == ("traitor", PLUGIN.text("reason_ritual"))
    state.haunt.progress["successes"] = 0
    for rat in state.monsters:
        rat.alive = False
    assert PLUGIN.winner(state) == ("heroes", PLUGIN.text("reason_rats"))


def test_killing_the_traitor_wins_only_before_the_chamber() -> None:
    state, _ = _start()
    traitor = sides.traitor(state)
    assert traitor is not None
    state.explorers[traitor].alive = False
    assert PLUGIN.winner(state) == ("heroes", PLUGIN.text("reason_traitor"))
    state.haunt.progress["entered"] = True
    assert PLUGIN.winner(state) is None


def test_the_swarm_grows_each_round_while_the_traitor_lives() -> None:
    from bot.games.betrayal.context import Ctx

    state, _ = _start()
    before = len(sides.monsters(state, "rat"))
    state.haunt.round = 2
    PLUGIN.start_round(Ctx(state))
    assert len(sides.monsters(state, "rat")) == before + PLUGIN.value(state, "swarm")



def test_books_go_to_their_side_only() -> None:
    state, events = played(KEY, 1)
    traitor = sides.traitor(state)
    data = load_data(KEY)
    books = [e for e in events if e.kind == "book" and not e.audience.is_public]
    assert {e.audience.encode() for e in books} == {f"player:{traitor}", "team:heroes"}
    secret = [str(line) for line in data.books["traitor"]["rules"]]
    public_before_end = [e.text for e in events if e.audience.is_public
                         and e.kind not in ("book", "game_over", "haunt")]
    for line in secret:
        assert not any(line.split(":")[0] in text and line in text for text in public_before_end)
