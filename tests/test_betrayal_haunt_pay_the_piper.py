"""Pay the Piper (haunt #3): seed 003's outline (rats; kill every rat, or the traitor
before the Pentagram Chamber; the traitor's 5 Sanity successes there) and our design
(data/betrayal/haunts/pay_the_piper.yaml)."""

from __future__ import annotations

import pytest

from bot.core.actions import Action
from bot.games.betrayal import GAME, content, movement
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.haunting import death, flow, monsters, sides
from bot.games.betrayal.haunting.base import load_data
from bot.games.betrayal.haunting.plugins.pay_the_piper import CHAMBER, PayThePiper
from bot.games.betrayal.state import BetrayalState
from tests.betrayal_haunt_helpers import (
    answer_pending,
    begin,
    house,
    played,
)
from tests.betrayal_haunt_rig import turn_of
from tests.test_betrayal_engine_helpers import script_dice

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


def _beside_the_chamber() -> tuple[BetrayalState, int]:
    """The traitor's turn, standing in a room next to the Pentagram Chamber with the
    Speed to walk in and out again; she has not entered it yet."""
    state, traitor = _ritual_state(0)
    chamber = state.tile_of(CHAMBER)
    assert chamber is not None and state.haunt is not None
    state.explorers[traitor].tile = monsters.neighbours(state, chamber)[0]
    state.haunt.progress.pop("entered", None)
    state.script.clear()
    state.pending = None
    explorer = state.explorers[traitor]
    explorer.traits["speed"] = len(content.explorer(explorer.key).traits["speed"].values) - 1
    return state, traitor


def _walk(state: BetrayalState, seat: int, to: int) -> BetrayalState:
    """Take the move option into `to`, answering what leaving sets off (a roll)."""
    room = state.tiles[to].room
    move = next(o.action for o in GAME.options(state, seat)
                if o.action.kind == "move" and content.room(room).name in o.label)
    state, _ = GAME.apply(state, seat, move)
    return answer_pending(state)


def test_a_traitor_who_walked_in_and_out_this_turn_has_entered_the_chamber(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Seed 003 (line 73): the heroes win by killing the traitor before she enters the
    Pentagram Chamber (殺光所有老鼠、或在叛徒進入五芒星堂前殺死它). She walks in, chants,
    walks out in the same turn and is then killed: too late, the heroes have not won."""
    script_dice(monkeypatch).extend([2] * 16)
    state, traitor = _beside_the_chamber()
    outside = state.explorers[traitor].tile
    chamber = state.tile_of(CHAMBER)
    assert chamber is not None
    state = _walk(state, traitor, chamber)
    assert state.haunt is not None and state.haunt.progress.get("entered")
    state, _ = GAME.apply(state, traitor, Action("act", {"what": "ritual"}))
    state = _walk(state, traitor, outside)
    assert state.at(traitor).room != CHAMBER
    ctx = Ctx(state)
    death.die(ctx, traitor)
    flow.settle(ctx)
    assert PLUGIN.winner(state) is None and not state.over


def test_a_traitor_moved_into_the_chamber_by_a_card_has_entered_it() -> None:
    """Seed 003 (line 73): 在叛徒進入五芒星堂前 -- entering counts however she gets in,
    a card's move too (noted at once, not at the end of her turn)."""
    state, traitor = _beside_the_chamber()
    chamber = state.tile_of(CHAMBER)
    assert chamber is not None
    turn_of(state, sides.heroes(state)[0])
    ctx = Ctx(state)
    movement.place_explorer(ctx, traitor, chamber, forced=True)
    assert state.haunt is not None and state.haunt.progress.get("entered")
    assert PLUGIN.text("entered", who=ctx.who(traitor)) in [e.text for e in ctx.events]


def test_the_swarm_grows_each_round_while_the_traitor_lives() -> None:
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
