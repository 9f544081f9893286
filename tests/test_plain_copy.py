"""Game.copy_state (bot/core/plain.py) builds exactly what the round trip through the
stored form builds, load(dump(state)), on random states of both games (the eight
haunts included) and on random plain data a card could leave in a flag; it shares no
container with the original, and it refuses what the store could not keep. The
states' to_dict (plain.as_dicts) builds exactly what dataclasses.asdict builds."""

from __future__ import annotations

import random
from dataclasses import asdict, is_dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.core.plain import as_dicts, copy_plain
from bot.games.base import Game, PlayerInfo
from bot.games.betrayal import GAME as BETRAYAL
from bot.games.betrayal import haunt_roll
from bot.games.cthulhu import GAME as CTHULHU
from tests.betrayal_haunt_helpers import started


def containers(value: Any, found: list[Any]) -> list[Any]:
    """Every mutable object inside `value` (dataclasses, lists, dicts), itself too."""
    if isinstance(value, list | tuple):
        if isinstance(value, list):
            found.append(value)
        for v in value:
            containers(v, found)
    elif isinstance(value, dict):
        found.append(value)
        for v in value.values():
            containers(v, found)
    elif is_dataclass(value):
        found.append(value)
        for v in vars(value).values():
            containers(v, found)
    return found


def same_as_round_trip(game: Game[Any], state: Any) -> None:
    assert repr(as_dicts(state)) == repr(asdict(state))
    copied, tripped = game.copy_state(state), game.load(game.dump(state))
    assert copied == tripped
    assert repr(copied) == repr(tripped)  # the same types all the way down (1 is not 1.0)
    assert game.dump(copied) == game.dump(state)
    ours = {id(c) for c in containers(state, [])}
    assert not any(id(c) in ours for c in containers(copied, []))


def random_states(game: Game[Any], state: Any, seed: int, steps: int) -> list[Any]:
    rng = random.Random(seed)
    seen = [state]
    for _ in range(steps):
        seat = game.to_act(state)
        if seat is None:
            break
        state, _ = game.apply(state, seat, rng.choice(game.options(state, seat)).action)
        seen.append(state)
    return seen


def test_betrayal_copies_equal_the_round_trip_exploring() -> None:
    for seed in range(3):
        state, _ = BETRAYAL.setup([PlayerInfo(f"P{i}") for i in range(3 + seed)], seed, {})
        for each in random_states(BETRAYAL, state, seed, 200)[::3]:
            same_as_round_trip(BETRAYAL, each)


@pytest.mark.parametrize("key", sorted(haunt_roll.haunts("")))
def test_betrayal_copies_equal_the_round_trip_in_every_haunt(key: str) -> None:
    state, _ = started(key)
    states = random_states(BETRAYAL, state, 11, 60)
    assert any(s.monsters or s.haunt.progress for s in states)  # the haunt's own data too
    for each in states[::2]:
        same_as_round_trip(BETRAYAL, each)


def test_cthulhu_copies_equal_the_round_trip() -> None:
    for seed in range(4):
        state, _ = CTHULHU.setup([PlayerInfo(f"P{i}") for i in range(2 + seed)], seed, {})
        for each in random_states(CTHULHU, state, seed, 150):
            same_as_round_trip(CTHULHU, each)


PLAIN = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
    | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=20)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tile=PLAIN, explorer=PLAIN, payload=PLAIN)
def test_any_plain_data_a_card_leaves_copies_as_the_round_trip(
        tile: Any, explorer: Any, payload: Any) -> None:
    state, _ = BETRAYAL.setup([PlayerInfo(f"P{i}") for i in range(3)], 1, {})
    state.tiles[0].flags["note"] = tile
    state.tiles[0].tokens.append({"kind": "x", "card": "", "data": explorer})
    state.explorers[1].flags["note"] = explorer
    state.turn.flags["note"] = payload
    same_as_round_trip(BETRAYAL, state)


def test_what_the_store_cannot_keep_is_refused() -> None:
    state, _ = BETRAYAL.setup([PlayerInfo(f"P{i}") for i in range(3)], 1, {})
    state.tiles[0].flags["seen"] = {1, 2}
    with pytest.raises(TypeError, match="not plain data: set"):
        BETRAYAL.copy_state(state)
    with pytest.raises(TypeError, match="not plain data: set"):
        BETRAYAL.dump(state)
    assert copy_plain([1, ("a", {"b": [None]})]) == [1, ("a", {"b": [None]})]
