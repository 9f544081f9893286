"""IT: Evil Below: whole games of random legal play (out-of-turn actions included) keep
every invariant and always end in the win or one of the four losses."""

from __future__ import annotations

import contextlib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.core.rng import Rng
from bot.games.base import PlayerInfo
from bot.games.evilbelow import EvilBelowGame, content
from bot.games.evilbelow.state import LOSSES, WIN, EvilBelowState

GAME = EvilBelowGame()
# About three times the longest random game seen (random play took at most 174 actions
# over 300 seeded games, median 70), so a game that never ends fails in seconds.
STEP_CAP = 600
SETTINGS = settings(max_examples=30, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def check_invariants(state: EvilBelowState) -> None:
    board = content.board()
    # victims: every token in a circle, on the track or in the box, once
    tokens = [t for row in state.circles for t in row if t is not None]
    assert sorted(tokens + state.track + state.box) == list(range(board.victims))
    assert all(t < board.attack_tokens for t in state.box)
    assert all(t >= board.attack_tokens for t in state.track)
    assert len(state.track) <= board.influence_length
    # cards: the 49 totems and 13 attacks are each somewhere, once
    revealed = state.fight.revealed if state.fight else []
    hands = [c for h in state.heroes for c in h.hand]
    totems = state.totem_deck + state.totem_discard + hands + revealed + [
        c for c in state.fight_stack if not content.is_attack(c)]
    assert sorted(totems) == list(range(content.totem_count()))
    held = [state.held.card] if state.held else []
    attacks = state.attack_pile + held + [c for c in state.fight_stack if content.is_attack(c)]
    assert sorted(attacks) == content.attack_ids()
    weaknesses = [k for s in state.weakness_stacks for k in s] + state.weakness_done
    assert sorted(weaknesses) == sorted(content.weakness_keys())
    # dice, Bravery, Bikes
    assert len(state.dice) == len(state.dice_used) == 7
    assert all(0 <= h.bravery <= 5 for h in state.heroes)
    assert sum(state.bikes) + sum(h.bike for h in state.heroes) == 4
    assert 0 <= state.strength <= board.strength_length
    if state.over:
        assert state.result in (WIN, *LOSSES)
        assert GAME.to_act(state) is None
    else:
        seat = GAME.to_act(state)
        assert seat is not None and GAME.options(state, seat)


def random_game(seed: int, count: int) -> tuple[EvilBelowState, list[tuple[int, Action]]]:
    state, _ = GAME.setup([PlayerInfo(f"P{i}") for i in range(count)], seed,
                          {"youngest": seed % count})
    check_invariants(state)
    rng = Rng(seed * 7919 + count)
    played: list[tuple[int, Action]] = []
    for _ in range(STEP_CAP):
        if state.over:
            break
        actor = GAME.to_act(state)
        assert actor is not None
        seat = actor
        others = GAME.out_of_turn(state)
        if others and rng.below(4) == 0:
            seat = rng.choice(others)
        options = GAME.options(state, seat)
        assert options
        action = rng.choice(options).action
        state, _ = GAME.apply(state, seat, action)
        played.append((seat, action))
        check_invariants(state)
    return state, played


@SETTINGS
@given(seed=st.integers(0, 2**32), count=st.integers(2, 7))
def test_random_play_keeps_invariants_and_ends(seed: int, count: int) -> None:
    state, _ = random_game(seed, count)
    assert state.over, "the game did not end within the step cap"


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), count=st.integers(2, 7))
def test_same_seed_and_actions_replay_exactly(seed: int, count: int) -> None:
    state, played = random_game(seed, count)
    replay, _ = GAME.setup([PlayerInfo(f"P{i}") for i in range(count)], seed,
                           {"youngest": seed % count})
    for seat, action in played:
        replay, _ = GAME.apply(replay, seat, action)
        replay = GAME.load(GAME.dump(replay))  # survives a save and load each step
    assert GAME.dump(replay) == GAME.dump(state)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), count=st.integers(2, 7))
def test_a_refused_action_leaves_the_state_untouched(seed: int, count: int) -> None:
    state, _ = GAME.setup([PlayerInfo(f"P{i}") for i in range(count)], seed, {})
    before = GAME.dump(state)
    for seat in range(count):
        for action in (Action("end_turn"), Action("reveal"), Action("move", {"die": 0,
                                                                            "to": 9})):
            with contextlib.suppress(IllegalAction):
                GAME.apply(state, seat, action)
    assert GAME.dump(state) == before
