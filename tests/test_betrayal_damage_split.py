"""Betrayal's damage split as one choice (bot/games/betrayal/damage_split.py).

The point of the change is fewer clicks with the same rules: every split a player could
make point by point is still reachable, no two options end the same, no menu holds more
than 25, and the engine still refuses a pick that is not on offer.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.core.actions import MENU_LIMIT, Action
from bot.core.errors import IllegalAction
from bot.games.betrayal import GAME, traits
from bot.games.betrayal.state import BetrayalState
from tests.test_betrayal_engine_helpers import OX, choose, new_game
from tests.test_betrayal_engine_traits import run_steps

SETTINGS = settings(max_examples=20, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def _hurt(indices: dict[str, int], kind: str, amount: int) -> BetrayalState:
    state = new_game()
    state.explorers[OX].traits.update(indices)
    state, _ = run_steps(state, [{"damage": {"kind": kind, "amount": amount}}])
    return state


def _ends(state: BetrayalState) -> set[tuple[int, ...]]:
    """Every trait vector reachable by answering the split (through its first shares)."""
    if state.pending is None or state.pending.kind != "damage_split":
        return {tuple(state.explorers[OX].traits[t] for t in traits.TRAITS)}
    labels = state.pending.labels
    assert 1 < len(labels) <= MENU_LIMIT and len(set(labels)) == len(labels)
    found: set[tuple[int, ...]] = set()
    for pick in range(len(labels)):
        after, _ = choose(state, pick)
        found |= _ends(after)
    return found


def _expected(indices: dict[str, int], kind: str, amount: int) -> set[tuple[int, ...]]:
    """Point by point, as the rules have it: each point on a trait that can still lose."""
    names = [t for t in traits.DAMAGE_TRAITS[kind] if indices[t] > 0]
    ends: set[tuple[int, ...]] = set()
    for split in itertools.product(range(amount + 1), repeat=len(names)):
        if names and sum(split) != amount:
            continue
        left = dict(indices)
        for t, p in zip(names, split, strict=True):
            left[t] = max(0, left[t] - p)
        ends.add(tuple(left[t] for t in traits.TRAITS))
    return ends


@SETTINGS
@given(speed=st.integers(0, traits.TOP), might=st.integers(0, traits.TOP),
       sanity=st.integers(0, traits.TOP), knowledge=st.integers(0, traits.TOP),
       kind=st.sampled_from(sorted(traits.DAMAGE_TRAITS)), amount=st.integers(1, 6))
def test_every_split_is_reachable_and_no_other(speed: int, might: int, sanity: int,
                                               knowledge: int, kind: str,
                                               amount: int) -> None:
    indices = {"speed": speed, "might": might, "sanity": sanity, "knowledge": knowledge}
    state = _hurt(indices, kind, amount)
    assert _ends(state) == _expected(indices, kind, amount)


def test_seven_physical_damage_is_one_pick_not_seven() -> None:
    state = _hurt({"might": 7, "speed": 7}, "physical", 7)
    assert state.pending is not None and len(state.pending.labels) == 8
    state, _ = choose(state, "4 to Might")
    assert state.pending is None
    assert state.explorers[OX].traits["might"] == 3 and state.explorers[OX].traits["speed"] == 4


def test_general_damage_asks_the_first_share_then_the_rest() -> None:
    state = _hurt({t: 7 for t in traits.TRAITS}, "general", 7)  # 120 splits: too many
    assert state.pending is not None and len(state.pending.labels) == 8
    state, _ = choose(state, "2 to Speed")
    assert state.explorers[OX].traits["speed"] == 5
    assert state.pending is not None and "5 general" in state.pending.prompt
    assert len(state.pending.labels) <= MENU_LIMIT  # Might, Sanity, Knowledge: 21 splits
    state, _ = choose(state, "All 5 to Knowledge")
    assert state.pending is None and state.explorers[OX].traits["knowledge"] == 2


def test_a_pick_not_on_offer_is_refused_and_the_state_untouched() -> None:
    state = _hurt({"might": 5, "speed": 5}, "physical", 2)
    assert state.pending is not None
    for pick in (-1, len(state.pending.labels), 99):
        with pytest.raises(IllegalAction):
            GAME.apply(state, OX, Action("choose", {"pick": pick}))
    assert state.pending is not None and state.explorers[OX].traits["might"] == 5


def test_the_ai_spreads_damage_onto_the_highest_trait() -> None:
    state = _hurt({"might": 6, "speed": 3}, "physical", 4)
    assert state.pending is not None
    state, _ = GAME.apply(state, OX, GAME.ai_action(state, OX))
    assert state.pending is None
    assert state.explorers[OX].traits == {**state.explorers[OX].traits, "might": 3, "speed": 2}
