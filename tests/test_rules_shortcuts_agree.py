"""The rules' shortcuts of issue 23's rules pass keep every answer as it was.

actions.py: "`legal(state, seat)` is the single source of truth: options() shows it
and apply() accepts exactly what it lists." A move is now checked against the moves
themselves, without their words (`perform`), the explorer's doors weighed with the
house looked up once (`explore.explorable`), and a door's Speed asked once
(`movement._moves`): each is held here to what it replaced, on random play exploring
and in haunts; in the monsters' turn a click's check, the AI and the turn's own end
read the monsters' deeds without their words (`actions.listed`, `monsters.deeds`),
held to the worded list. The state's copy and dump (bot/core/plain.py) make leaves and empty
containers without a call of their own: tests/test_plain_copy.py holds them to the
round trip; the edges of that shortcut are held here.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.core.plain import as_dicts, copy_plain
from bot.games.betrayal import GAME, actions, explore, movement
from bot.games.betrayal.haunting import actions as haunt_actions
from bot.games.betrayal.haunting import monsters
from bot.games.betrayal.house import DIRS
from bot.games.betrayal.state import BetrayalState
from tests.betrayal_haunt_helpers import started
from tests.test_betrayal_house_plan import played_on, random_play


def move_actions(state: BetrayalState, seat: int) -> list[Action]:
    """The moves the buttons offer (the full list's, words and all)."""
    return [e.action for e in actions.legal(state, seat) if e.action.kind == actions.MOVE]


def refusal(state: BetrayalState, seat: int, action: Action) -> str | None:
    """What apply says of `action` (None: it was played)."""
    try:
        GAME.apply(state, seat, action)
    except IllegalAction as refused:
        return str(refused)
    return None


def wrong_moves(state: BetrayalState, seat: int) -> list[Action]:
    """Moves no list holds: through each side (a wall, or a door with its args padded),
    down a link to the wrong room, by a link kind that is not there."""
    found = [Action(actions.MOVE, {"dir": d}) for d in DIRS]
    found += [Action(actions.MOVE, {"dir": d, "to": 0}) for d in DIRS]
    found += [Action(actions.MOVE, {"via": "stairs_up", "to": len(state.tiles) + 5}),
              Action(actions.MOVE, {"via": "no_such_link", "to": 0}),
              Action(actions.MOVE, {})]
    offered = move_actions(state, seat) if actions._own_turn(state, seat) else []
    return [a for a in found if a not in offered]


def checked(state: BetrayalState) -> bool:
    """The explorer's explorable sides as each side asked alone; each offered move
    played, and each other refused with `_refusal`'s reason. True when a move was
    offered."""
    seat = state.turn.seat
    assert explore.explorable(state, seat) == [
        d for d in DIRS if explore.can_explore(state, seat, d)]
    offered = move_actions(state, seat) if actions._own_turn(state, seat) else []
    for action in offered:
        assert refusal(state, seat, action) is None, action
    for action in wrong_moves(state, seat):
        said = refusal(state, seat, action)
        assert said is not None, action
        if actions._own_turn(state, seat):
            assert said == actions._refusal(state, seat, action)
    return bool(offered)


def test_moves_and_explorable_sides_agree_with_the_full_list_while_exploring() -> None:
    offered = 0
    for seed in range(2):
        for state in random_play(seed, 160)[::4]:
            if GAME.to_act(state) == state.turn.seat and state.pending is None:
                offered += checked(state)
    assert offered >= 20  # the play reached turns with moves to make


@pytest.mark.parametrize("key", ["lets_kill_this_clown", "henry_on_the_hunt"])
def test_moves_agree_with_the_full_list_in_a_haunt(key: str) -> None:
    """Opponents in the room slow a move (seed 003: each costs 1 more Speed to leave),
    the monsters' stage takes no explorer's move: the shortcut answers as the list."""
    stages = set()
    for state in played_on(started(key, 4, 3)[0], random.Random(3), 100)[::2]:
        if state.over or state.pending is not None:
            continue
        stages.add(haunt_actions.monster_stage(state))
        checked(state)
    assert False in stages


def test_a_move_refused_out_of_turn_and_while_a_choice_waits() -> None:
    """Not the explorer's turn, or a choice pending: no move is taken, as before."""
    states = random_play(5, 120)
    state = next(s for s in states if s.pending is None and move_actions(s, s.turn.seat))
    other = (state.turn.seat + 1) % len(state.players)
    move = move_actions(state, state.turn.seat)[0]
    with pytest.raises(IllegalAction):
        GAME.apply(state, other, move)
    waiting = next((s for s in states if s.pending is not None), None)
    assert waiting is not None
    assert not actions._own_turn(waiting, waiting.turn.seat)


def test_a_door_move_that_costs_speed_stops_at_the_limit() -> None:
    """Seed 003: each room entered costs 1 Speed; with the turn's Speed spent no door is
    offered, with one step left every door is (the one question asked once)."""
    state = next(s for s in random_play(1, 120)
                 if s.pending is None and movement.legal_moves(s, s.turn.seat)
                 and any(m.dir for m in movement.legal_moves(s, s.turn.seat)))
    seat = state.turn.seat
    limit = movement.speed_limit(state, seat)
    state.turn.moves = limit
    assert not any(m.dir for m in movement.legal_moves(state, seat))
    state.turn.moves = limit - 1
    doors = [m.dir for m in movement.legal_moves(state, seat) if m.dir]
    assert doors and doors == [d for d in DIRS if d in doors]


KINDS = (None, actions.MOVE, actions.EXPLORE, actions.ATTACK, actions.END_TURN,
         monsters.M_MOVE, monsters.M_ATTACK, monsters.M_END, "no_such_kind")


@pytest.mark.parametrize("key", ["pay_the_piper", "its_alive", "separate_nightmares"])
def test_the_monsters_deeds_are_the_worded_list_without_its_words(key: str) -> None:
    """The monsters' turn: each monster's steps and attacks, then their turn's end,
    in `legal`'s order; a seat not to act lists nothing either way."""
    staged = 0
    for state in played_on(started(key, 4, 2)[0], random.Random(2), 160):
        if state.over or state.pending is not None:
            continue
        seat = state.turn.seat
        if haunt_actions.monster_stage(state):
            staged += 1
            assert monsters.deeds(state) == [a for a, _ in monsters.legal(state)]
        for kind in KINDS:
            assert actions.listed(state, seat, kind) == [
                e.action for e in actions.legal(state, seat, kind)]
        other = (seat + 1) % len(state.players)
        assert actions.listed(state, other) == [e.action for e in actions.legal(state, other)]
    assert staged >= 3  # the play reached the monsters' turns


@dataclass
class Holder:
    name: str = "a"
    items: list[Any] = field(default_factory=list)
    flags: dict[str, Any] = field(default_factory=dict)
    rest: Any = None


def test_empty_containers_are_copied_fresh_and_odd_ones_still_refused() -> None:
    """The shortcut for an empty list or dict field still makes a new one (a copy that
    shared it would change the original when played on), and what is not plain data
    (an empty set too) is still refused, as the store would refuse it."""
    original = Holder()
    copied = copy_plain(original)
    assert copied == original
    assert copied.items is not original.items and copied.flags is not original.flags
    dumped = as_dicts(original)
    assert dumped == {"name": "a", "items": [], "flags": {}, "rest": None}
    assert dumped["items"] is not original.items and dumped["flags"] is not original.flags
    for odd in (set(), {1}, frozenset(), object()):
        with pytest.raises(TypeError):
            copy_plain(Holder(rest=odd))
        with pytest.raises(TypeError):
            as_dicts(Holder(rest=odd))
