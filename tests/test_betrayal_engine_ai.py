"""Betrayal: AI-only games always reach the haunt, within a bounded number of actions.

Three causes of endless AI games were found (3 players, seeds 50, 80 and 90 under the
old AI, after thousands of actions): an explorer held by Webs or Debris never tried to
break free; an explorer whose only way on was across a split room (the Chasm) never
made the crossing roll and walked back and forth beside it; and explorers with no room
to explore within reach wandered. ai.py now tries to break free, only ever steps closer
to a room it can explore from, makes a crossing roll it could pass, and rides the
Mystic Elevator when nothing is in reach. haunt_roll.stalled is the last safety net: it
never has to act in these games.
"""

from __future__ import annotations

import pytest

from bot.games.base import PlayerInfo
from bot.games.betrayal import GAME, ai, ai_ways, explore, haunt_roll, movement
from bot.games.betrayal.state import BetrayalState
from tests.test_betrayal_engine_helpers import (
    MISSY,
    OX,
    PETER,
    apply,
    at,
    choose,
    deck_top,
    dice,
    new_game,
    put,
    stack_top,
    tile,
)
from tests.test_betrayal_engine_traits import run_steps

__all__ = ["dice"]

CAP = 600  # actions: AI games end in 70 (median) to 150 (the longest of 400 seeds)


def ai_game(seed: int, count: int, cap: int = CAP) -> tuple[BetrayalState, int]:
    """An AI-only game played until the haunt begins (the haunt's own AI games are in
    the test_betrayal_haunt_* files)."""
    state, _ = GAME.setup([PlayerInfo(f"AI{i}", ai=True) for i in range(count)], seed, {})
    actions = 0
    while state.haunt is None and not GAME.is_over(state) and actions < cap:
        seat = GAME.to_act(state)
        assert seat is not None
        state, _ = GAME.apply(state, seat, GAME.ai_action(state, seat))
        actions += 1
    return state, actions


@pytest.mark.parametrize("seed", range(60))
def test_every_ai_only_game_reaches_the_haunt(seed: int) -> None:
    state, actions = ai_game(seed, 3 + seed % 4)
    assert state.haunt is not None, f"no haunt after {actions} actions"
    assert state.haunt.roll >= 0  # by the roll, not the net


@pytest.mark.parametrize("seed", [50, 80, 90])
def test_the_games_that_never_ended(seed: int) -> None:
    """Held by Webs for good (all three), stuck by the Chasm (50, 80), trapped in the
    basement (90): now each reaches the haunt."""
    state, actions = ai_game(seed, 3)
    assert state.haunt is not None and state.haunt.roll >= 0, actions


# ---------------------------------------------------------------- what the AI does

def ai_table(state: BetrayalState) -> BetrayalState:
    state.ai = [True] * len(state.ai)
    return state


@pytest.mark.parametrize("card", ["webs", "debris"])
def test_a_held_ai_tries_to_break_free(dice, card: str) -> None:  # type: ignore[no-untyped-def]
    state = ai_table(new_game())
    at(state, MISSY, "upper_landing")
    at(state, PETER, "upper_landing")
    dice.extend([0] * 6)
    deck_top(state, "event", card)
    state, _ = run_steps(state, [{"draw": {"deck": "event", "count": 1}}])
    assert state.explorers[OX].lasting == [card]
    for _ in range(3):  # Ox, Missy, Peter end their turns: back to Ox, held
        state, _ = apply(state, "end_turn")
    assert state.turn.seat == OX
    assert GAME.ai_action(state, OX).args == {"what": f"{card}-self"}


def chasm_house() -> BetrayalState:
    """The basement: the Landing closed in by one-door rooms but for the Chasm on its
    east; the only room left (the Larder) can go beyond the Chasm's far door. Ox stands
    by the Chasm's near (west) door."""
    state = ai_table(new_game())
    put(state, "storeroom", "basement", 0, -1, rotation=2)  # door S
    put(state, "stairs_from_basement", "basement", 0, 1, rotation=2)  # door N
    put(state, "pentagram_chamber", "basement", -1, 0)  # door E
    put(state, "chasm", "basement", 1, 0)  # doors E W
    state.stack, state.room_discard = ["larder"], []
    at(state, OX, "chasm", "W")
    at(state, MISSY, "upper_landing")
    at(state, PETER, "upper_landing")
    return state


def test_an_ai_makes_a_crossing_roll_when_it_is_the_only_way_on() -> None:
    """The old AI walked out of the Chasm and back for ever; now it tries the roll."""
    state = chasm_house()
    assert [a.label for a in ai_entries(state) if a.action.kind == "explore"] == [
        "Explore east (cross first: Speed 3+)"]
    assert GAME.ai_action(state, OX).kind == "explore"
    state.explorers[OX].tile = tile(state, "basement_landing")
    state.explorers[OX].side = None
    assert GAME.ai_action(state, OX).args == {"dir": "E"}  # into the Chasm: closer


def test_an_ai_makes_no_crossing_roll_it_cannot_pass() -> None:
    """Sanity 6+ across the Catacombs on 1 die is never made: it ends its turn."""
    state = chasm_house()
    chasm = tile(state, "chasm")
    state.tiles[chasm].room = "catacombs"  # doors N S, Sanity 6+
    state.tiles[chasm].rotation = 1  # N S -> E W
    state.explorers[OX].traits["sanity"] = 0  # Ox's lowest Sanity: 2 dice at most 4
    state.explorers[OX].side = "W"
    assert GAME.ai_action(state, OX).kind == "end_turn"


def ai_entries(state: BetrayalState) -> list:  # type: ignore[type-arg]
    from bot.games.betrayal.actions import legal

    return legal(state, OX)


def _walk(ways: dict[int, list[int]], start: int, goals: set[int]) -> int | None:
    """Rooms walked from `start` to the nearest goal: a plain search forwards, to check
    the AI's own search backwards from the goals."""
    seen, todo = {start: 0}, [start]
    for room in todo:
        if room in goals:
            return seen[room]
        for nxt in ways[room]:
            if nxt not in seen:
                seen[nxt] = seen[room] + 1
                todo.append(nxt)
    return None


def test_an_ai_never_steps_away_from_the_nearest_room_to_explore() -> None:
    """Every move the AI makes, in whole games, brings it strictly closer to a room it
    can explore from (so it cannot walk back and forth); but for a walk out of a split
    room it could explore from only by a crossing roll that costs more, at its odds,
    than the walk to the next room to explore from (ai_ways.crossing_price)."""
    checked = 0
    for seed in range(8):
        state, _ = GAME.setup([PlayerInfo(f"AI{i}", ai=True) for i in range(4)], seed, {})
        while not state.over:
            seat = GAME.to_act(state)
            assert seat is not None
            action = GAME.ai_action(state, seat)
            if action.kind == "move" and state.phase == "explore":
                ways, goals = ai_ways.ways(state), explore.frontier(state)
                here = _walk(ways, state.explorers[seat].tile, goals)
                target = next(t for t, _, a in ai._moves(state, seat, ai.legal(state, seat))
                              if a == action)
                there = _walk(ways, target, goals)
                if here == 0 and there is not None:  # only across a split room from here
                    rolls = [ai_ways.crossing_price(state, seat, movement.crossing_for(
                        state, seat, str(e.action.args["dir"]))) for e in ai.legal(state, seat)
                        if e.action.kind == "explore"]
                    assert rolls and all(r is None or r > 1 + there for r in rolls)
                else:
                    assert here is None or (there is not None and there < here)
                checked += 1
            state, _ = GAME.apply(state, seat, action)
    assert checked > 50


# ---------------------------------------------------------------- the safety net

def _stalled(state: BetrayalState) -> BetrayalState:
    state.last_omen, state.last_omen_room = "spear", "abandoned_room"
    state.omens_drawn = 2
    state.quiet_turns = haunt_roll.STALL_ROUNDS * len(state.players) - 1
    return state


def test_a_stalled_ai_table_begins_the_haunt() -> None:
    state = _stalled(ai_table(new_game()))
    state, events = apply(state, "end_turn")
    assert state.phase == "haunt" and state.haunt is not None
    assert (state.haunt.omen, state.haunt.room, state.haunt.roll) == (
        "spear", "abandoned_room", -1)
    assert state.haunt.key == "its_alive"
    assert any("tires of waiting" in e for e in events)
    assert any("The chart gives haunt #2" in e for e in events)


def test_a_table_with_people_never_stalls() -> None:
    state = _stalled(new_game())  # no AI at all
    state, _ = apply(state, "end_turn")
    assert not state.over and state.quiet_turns == haunt_roll.STALL_ROUNDS * 3
    half = _stalled(new_game())
    half.ai = [True, True, False]
    half, _ = apply(half, "end_turn")
    assert not half.over


def test_a_room_found_or_an_omen_drawn_resets_the_count(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    state.quiet_turns = 7
    # A room with no card to draw: his turn goes on (a card would end his movement, and
    # with nothing left to do his turn would end by itself: docs/rulings.md, Turns 12).
    stack_top(state, "creaky_hallway")
    state, _ = apply(state, "explore", dir="N")
    while state.pending:
        state, _ = choose(state, 0)
    assert state.quiet_turns == 0
    state, _ = apply(state, "end_turn")
    assert state.quiet_turns == 1
    state.quiet_turns = 9
    deck_top(state, "omen", "spear")
    state, _ = run_steps(state, [{"draw": {"deck": "omen", "count": 1}}], MISSY)
    assert state.quiet_turns == 0 and state.last_omen == "spear"
