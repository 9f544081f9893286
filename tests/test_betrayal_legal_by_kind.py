"""A move is checked against the legal actions of its own kind only (actions.legal with
`kind`, as `perform` asks): that list must be exactly the full list's actions of that
kind, labels and order included, or a move the buttons offer could be refused (or one
they do not offer accepted). Held to it on random play, exploring and in haunts (the
monsters' stage and the attacks included).
"""

from __future__ import annotations

import random

import pytest

from bot.core.errors import IllegalAction
from bot.games.betrayal import GAME, actions
from bot.games.betrayal.haunting import monsters
from bot.games.betrayal.state import BetrayalState
from tests.betrayal_haunt_helpers import started
from tests.test_betrayal_house_plan import played_on, random_play

KINDS = (actions.MOVE, actions.EXPLORE, actions.USE, actions.TRADE, actions.DROP,
         actions.PICKUP, actions.ACT, actions.ATTACK, actions.END_TURN, monsters.M_MOVE,
         monsters.M_ATTACK, monsters.M_END, "choose", "no_such_kind")


def agrees_by_kind(state: BetrayalState, seat: int) -> set[str]:
    """Check each kind's list against the full one; the kinds the full list holds."""
    full = actions.legal(state, seat)
    for kind in KINDS:
        assert actions.legal(state, seat, kind) == [e for e in full if e.action.kind == kind]
    return {e.action.kind for e in full}


def haunt_play(key: str, seed: int, steps: int) -> list[BetrayalState]:
    """The states of a haunt where every pick is a random legal option."""
    return played_on(started(key, 4, seed)[0], random.Random(seed), steps)


def test_each_kind_lists_what_the_full_list_holds_while_exploring() -> None:
    kinds: set[str] = set()
    for seed in range(3):
        for state in random_play(seed, 200)[::3]:
            kinds |= agrees_by_kind(state, state.turn.seat)
    # the play reached the kinds a turn offers before the haunt
    assert {actions.MOVE, actions.EXPLORE, actions.END_TURN} <= kinds


@pytest.mark.parametrize("key", ["lets_kill_this_clown", "its_alive", "henry_on_the_hunt"])
def test_each_kind_lists_what_the_full_list_holds_in_a_haunt(key: str) -> None:
    kinds: set[str] = set()
    for state in haunt_play(key, 3, 120)[::2]:
        kinds |= agrees_by_kind(state, state.turn.seat)
    assert actions.END_TURN in kinds or monsters.M_END in kinds


def test_a_move_of_another_kind_is_still_refused() -> None:
    """The check by kind refuses what the full list would: an end of turn while a move
    is all that is asked is accepted, a move through a wall is not."""
    state = random_play(4, 40)[-1]
    seat = GAME.to_act(state)
    assert seat is not None and state.pending is None
    moves = {e.action.args.get("dir") for e in actions.legal(state, seat, actions.MOVE)}
    wall = next((d for d in "NESW" if d not in moves), None)
    assert wall is not None
    with pytest.raises(IllegalAction):
        GAME.apply(state, seat, actions.Action(actions.MOVE, {"dir": wall}))
    GAME.apply(state, seat, actions.Action(actions.END_TURN))
