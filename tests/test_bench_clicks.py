"""bench/clicks_per_game.py counts clicks the way the menus ask for them (the figures
are the bench's to record; this checks its counting, and that a short game runs)."""

from __future__ import annotations

import importlib.util
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

from bot import games
from bot.core.actions import Action, Option

ROOT = Path(__file__).resolve().parent.parent


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("clicks_per_game",
                                                  ROOT / "bench" / "clicks_per_game.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _move(n: int, first: str = "") -> Option:
    return Option(f"m{n}", Action("move", {"n": n}), group="Move", first=first, then=f"d{n}")


def test_a_button_a_menu_and_a_two_step_cost_what_a_player_clicks() -> None:
    bench = _bench()
    few = [_move(n) for n in range(3)]
    assert bench.clicks_for(few, few[1].action) == (1, 1)  # a button
    many = [_move(n) for n in range(21)]
    assert bench.clicks_for(many, many[7].action) == (2, 1)  # a menu: open, pick
    two = [_move(n, first=f"to {n // 7}") for n in range(21)]  # 3 places, 7 dice each
    assert bench.clicks_for(two, two[7].action) == (2, 2)  # a place button, a die button
    lone = [*two[:7], _move(99, first="to nowhere else")]
    assert bench.clicks_for(lone, lone[-1].action) == (1, 1)  # one die there: at once
    assert bench.clicks_for(few, Action("typed")) == (1, 1)


def test_a_short_game_is_counted_to_its_end() -> None:
    bench = _bench()
    kinds: Counter[str] = Counter()
    clicks, picks, moves, capped = bench.play(games.get("cthulhu"), {}, 3, 1, 5000, kinds)
    assert not capped and moves > 0
    assert clicks >= picks >= moves and sum(kinds.values()) == clicks
