"""Cthulhu in the House: whole games of random legal play keep every invariant."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.core.actions import Action
from bot.core.rng import Rng
from bot.games.base import PlayerInfo
from bot.games.cthulhu import GAME
from bot.games.cthulhu.state import ABYSS, TELEPORT, CthulhuState

# Bounds per example, about three times the longest game seen, so that a game that
# would never end fails in seconds: random play took at most 520 actions over 1400
# seeded games (median about 210), AI games at most 102 over 100.
STEP_CAP = 1500
AI_STEP_CAP = 400

SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def players(n: int, ai: bool = False) -> list[PlayerInfo]:
    return [PlayerInfo(f"P{i}", ai=ai) for i in range(n)]


def check_invariants(state: CthulhuState) -> None:
    n = len(state.players)
    inside = state.remaining()
    assert len(state.location) == 12
    assert all(room is None or 0 <= room < 12 for room in state.location)
    assert len(state.removed) == len(set(state.removed))
    assert sorted(inside + state.removed) == list(range(12))
    assert all(state.location[c] is None for c in state.removed)
    assert state.over or len(inside) >= 2  # a rumble ends, and is rescored, at one
    on_board = Counter(k for kinds in state.room_portals for k in kinds)
    assert sum(on_board.values()) == 3 and len(state.reserve) == 3
    assert on_board + Counter(state.reserve) == Counter({ABYSS: 3, TELEPORT: 3})
    assert [len(pair) for pair in state.secrets] == [2] * n
    owned = [c for pair in state.secrets for c in pair]
    assert len(set(owned)) == len(owned) and all(0 <= c < 12 for c in owned)
    assert 0 <= state.turn < n and 0 <= state.starter < n
    assert 1 <= state.rumble <= 3 and len(state.results) == state.rumble - (not state.over)
    if state.pending is not None:
        assert state.pending.seat == state.turn and state.pending.labels
    if not state.over:
        assert GAME.options(state, state.turn)


def random_game(seed: int, count: int, fight_bias: int) -> tuple[CthulhuState, list[Action]]:
    """Play uniformly among the legal options; with `fight_bias` > 0, also take a fight
    (when there is one) 1 time in `fight_bias`, which shortens rumbles."""
    state, _ = GAME.setup(players(count), seed, {})
    check_invariants(state)
    rng = Rng(seed * 7919 + count)
    actions: list[Action] = []
    for _ in range(STEP_CAP):
        if GAME.is_over(state):
            break
        seat = GAME.to_act(state)
        assert seat is not None
        options = GAME.options(state, seat)
        assert options
        assert all(GAME.options(state, other) == [] for other in range(count) if other != seat)
        fights = [o for o in options if o.group == "Fight"]
        pool = fights if fights and fight_bias and rng.below(fight_bias) == 0 else options
        action = rng.choice(pool).action
        state, _ = GAME.apply(state, seat, action)
        actions.append(action)
        check_invariants(state)
    return state, actions


def expected_points(removed: list[int], survivor: int, pair: list[int]) -> int:
    """Seed 002's table, written out again independently of the engine."""
    best = 0
    for c in pair:
        if c == survivor:
            best = max(best, 10)
        else:
            position = removed.index(c) + 1
            best = max(best, 0 if position <= 2 else position - 2)
    return best


def check_final(state: CthulhuState) -> None:
    assert state.over, "the game did not end within the step cap"
    assert len(state.results) == 3
    totals = [0] * len(state.players)
    for number, result in enumerate(state.results, start=1):
        assert result.number == number
        assert len(result.removed) == 11 and result.survivor not in result.removed
        assert sorted([*result.removed, result.survivor]) == list(range(12))
        for seat, pair in enumerate(result.secrets):
            assert result.points[seat] == expected_points(result.removed, result.survivor, pair)
            totals[seat] += result.points[seat]
    assert state.scores == totals
    assert state.winners == [s for s, v in enumerate(totals) if v == max(totals)]


@SETTINGS
@given(seed=st.integers(0, 2**32), count=st.integers(2, 6), fight_bias=st.sampled_from([0, 3]))
def test_random_play_keeps_invariants_and_ends(seed: int, count: int, fight_bias: int) -> None:
    state, _ = random_game(seed, count, fight_bias)
    check_final(state)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), count=st.integers(2, 6))
def test_same_seed_and_actions_replay_exactly(seed: int, count: int) -> None:
    state, actions = random_game(seed, count, 3)
    replay, _ = GAME.setup(players(count), seed, {})
    for action in actions:
        seat = GAME.to_act(replay)
        assert seat is not None
        replay, _ = GAME.apply(replay, seat, action)
        replay = GAME.load(GAME.dump(replay))  # also survives a save and load each step
    assert GAME.dump(replay) == GAME.dump(state)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), count=st.integers(2, 6))
def test_ai_games_finish(seed: int, count: int) -> None:
    state, _ = GAME.setup(players(count, ai=True), seed, {})
    for _ in range(AI_STEP_CAP):
        if GAME.is_over(state):
            break
        seat = GAME.to_act(state)
        assert seat is not None
        before = GAME.dump(state)
        action = GAME.ai_action(state, seat)
        assert GAME.dump(state) == before  # the AI reads the state, never draws from it
        state, _ = GAME.apply(state, seat, action)
        check_invariants(state)
    check_final(state)


def test_every_player_count_plays_a_whole_ai_game() -> None:
    for count in range(2, 7):
        state, _ = GAME.setup(players(count, ai=True), 1000 + count, {"layout": "random"})
        steps = 0
        while not GAME.is_over(state) and steps < AI_STEP_CAP:
            seat = GAME.to_act(state)
            assert seat is not None
            state, _ = GAME.apply(state, seat, GAME.ai_action(state, seat))
            steps += 1
        check_final(state)
