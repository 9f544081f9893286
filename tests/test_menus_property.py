"""Random play through the menus as a player sees them still ends, and the menus reach
every legal move: a two-step choice (Evil Below's where-then-which-die, Cthulhu's
who-then-where) hides no option and shows none that is not legal.

Each step picks a random entry of the first menu (cogs/prompt_rows.py first_steps) and,
for a first step, a random option under it, as a player clicking would.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot import games
from bot.core.actions import Option
from bot.games.base import PlayerInfo
from bot.sessions import Prompt
from cogs.components import STEP, first_steps

STEP_CAP = {"evilbelow": 600, "cthulhu": 3000}  # far past the longest random games
SETTINGS = settings(max_examples=6, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def _menus(options: list[Option]) -> tuple[list[Option], dict[int, list[Option]]]:
    """The first menu's entries, and what each first step leads to (by its index)."""
    prompt = Prompt(0, 1, "P", options, version=1)
    groups: dict[str, list[Option]] = {}
    for option in options:
        groups.setdefault(option.group, []).append(option)
    entries = [e for grouped in groups.values() for e in first_steps(prompt, grouped)]
    under = {}
    for entry in entries:
        if entry.action.kind == STEP:
            head = options[entry.action.int_arg("n")]
            under[entry.action.int_arg("n")] = [o for o in options if o.group == head.group
                                                and o.first == head.first]
    return entries, under


def _reach(options: list[Option]) -> list[Option]:
    entries, under = _menus(options)
    found = [e for e in entries if e.action.kind != STEP]
    for entry in entries:
        if entry.action.kind == STEP:
            found += under[entry.action.int_arg("n")]
    return found


def _play(key: str, seed: int, players: int) -> Any:
    game = games.get(key)
    rng = random.Random(seed)
    state, _ = game.setup([PlayerInfo(f"P{i}") for i in range(players)], seed, {})
    for _ in range(STEP_CAP[key]):
        if game.is_over(state):
            return state
        seat = game.to_act(state)
        options = game.options(state, seat)
        reached = _reach(options)
        assert sorted(o.action.encode() for o in reached) == \
            sorted(o.action.encode() for o in options)  # all of them, each once
        entries, under = _menus(options)
        entry = rng.choice(entries)
        if entry.action.kind == STEP:
            more = under[entry.action.int_arg("n")]
            assert len(more) > 1 and all(o.then for o in more)
            entry = rng.choice(more)
        state, _ = game.apply(state, seat, entry.action)
    raise AssertionError(f"{key} seed {seed} did not end in {STEP_CAP[key]} moves")


@SETTINGS
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4))
def test_evil_below_random_play_through_the_menus_ends(seed: int, players: int) -> None:
    assert games.get("evilbelow").is_over(_play("evilbelow", seed, players))


@SETTINGS
@given(seed=st.integers(0, 10_000), players=st.integers(3, 5))
def test_cthulhu_random_play_through_the_menus_ends(seed: int, players: int) -> None:
    assert games.get("cthulhu").is_over(_play("cthulhu", seed, players))
