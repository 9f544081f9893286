"""Betrayal's damage split as one choice (bot/games/betrayal/damage_split.py).

The point of the change is fewer clicks with the same rules: every split a player could
make point by point is still reachable, no two options end the same, no menu holds more
than 25, and the engine still refuses a pick that is not on offer.
"""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.core.actions import MENU_LIMIT, Action
from bot.core.errors import IllegalAction
from bot.games.betrayal import GAME, traits
from bot.games.betrayal.state import BetrayalState
from tests.betrayal_haunt_rig import DARRIN, fixed, rig_plugin, rigged
from tests.test_betrayal_engine_helpers import OX, choose, new_game
from tests.test_betrayal_engine_traits import run_steps

__all__ = ["fixed", "rig_plugin"]

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


def _hurt_in_the_haunt(indices: dict[str, int], kind: str, amount: int) -> BetrayalState:
    """As `_hurt`, once the haunt's first round has begun: the skull can be reached."""
    state = rigged(DARRIN)
    state.haunt = replace(state.haunt, round=max(1, state.haunt.round)) \
        if state.haunt is not None else None
    state.explorers[DARRIN].traits.update(indices)
    state, _ = run_steps(state, [{"damage": {"kind": kind, "amount": amount}}], seat=DARRIN)
    return state


def test_a_split_that_kills_is_offered_only_when_every_split_does(fixed: list[int]) -> None:
    """Seed 003: 若無可避免地人物的某項能力下降到骷髏圖案，則該人物即已死亡 (an explorer
    dies when a trait unavoidably reaches the skull): while the damage can go elsewhere,
    no option sends a trait to the skull."""
    state = _hurt_in_the_haunt({"might": 0, "speed": 4}, "physical", 1)
    assert state.explorers[DARRIN].alive and state.pending is None  # Speed takes it
    assert state.explorers[DARRIN].traits["might"] == 0
    assert state.explorers[DARRIN].traits["speed"] == 3
    state = _hurt_in_the_haunt({"might": 1, "speed": 2}, "physical", 2)
    assert state.pending is not None  # 2 can go 1-1 or 0-2, never all on Might
    assert all("Might (" not in label or "→ 0" not in label  # Might at 1: 1 step is death
               for label in state.pending.labels)
    for pick in range(len(state.pending.labels)):
        after, _ = GAME.apply(state, DARRIN, Action("choose", {"pick": pick}))
        assert after.explorers[DARRIN].alive
    doomed = _hurt_in_the_haunt({"might": 0, "speed": 0}, "physical", 3)  # 2 steps, 3 hurt
    assert doomed.pending is not None  # no way round it: every split is offered, and kills
    for pick in range(len(doomed.pending.labels)):
        after, _ = GAME.apply(doomed, DARRIN, Action("choose", {"pick": pick}))
        assert not after.explorers[DARRIN].alive


def test_general_damage_asked_in_two_steps_never_forces_a_death(fixed: list[int]) -> None:
    """The first share offered leaves the rest room to be taken without a death."""
    state = _hurt_in_the_haunt({"speed": 1, "might": 7, "sanity": 7, "knowledge": 7},
                               "general", 6)
    assert state.pending is not None
    for pick in range(len(state.pending.labels)):
        after, _ = GAME.apply(state, DARRIN, Action("choose", {"pick": pick}))
        while after.pending is not None and after.pending.kind == "damage_split":
            after, _ = GAME.apply(after, DARRIN, Action("choose", {"pick": 0}))
        assert after.explorers[DARRIN].alive
