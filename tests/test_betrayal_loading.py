"""Betrayal loads what it plays with from one place, in a written order
(bot/games/betrayal/loading.py): every card family, the engine's step modules, every
classic haunt, then every edition, each followed by what it names."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from bot.games.betrayal import editions, loading
from bot.games.betrayal.haunting import base

ROOT = Path(__file__).resolve().parent.parent


def modules_of(folder: str) -> list[str]:
    package = folder.replace("/", ".")
    return [f"{package}.{p.stem}" for p in sorted((ROOT / folder).glob("*.py"))
            if p.stem != "__init__"]


def test_every_card_family_haunt_and_scenario_is_loaded_in_the_written_order() -> None:
    loaded = loading.load()
    cards = modules_of("bot/games/betrayal/cards")
    haunts = modules_of("bot/games/betrayal/haunting/plugins")
    scenarios = modules_of("bot/games/neibolt/scenarios")
    for name in [*cards, *loading.ENGINE_STEPS, *haunts, *scenarios,
                 "bot.games.betrayal.edition", "bot.games.neibolt.edition",
                 "bot.games.neibolt.rooms"]:
        assert name in loaded, name
    at = loaded.index
    assert max(map(at, cards)) < min(map(at, loading.ENGINE_STEPS))
    assert max(map(at, loading.ENGINE_STEPS)) < min(map(at, haunts))
    assert max(map(at, haunts)) < at("bot.games.betrayal.edition") \
        < at("bot.games.neibolt.edition") < at("bot.games.neibolt.rooms") \
        < min(map(at, scenarios))


def test_what_is_loaded_is_registered() -> None:
    loading.load()
    assert set(editions.EDITIONS) == {"classic", "neibolt"}
    keys = {p.stem for p in (ROOT / "bot/games/betrayal/haunting/plugins").glob("*.py")
            if p.stem != "__init__"}
    keys |= {p.stem for p in (ROOT / "bot/games/neibolt/scenarios").glob("*.py")
             if p.stem != "__init__"}
    assert keys <= set(base.PLUGINS)


def test_editions_are_found_by_walking_the_games_packages(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    seen: list[str] = []

    def finder(name: str) -> Any:
        seen.append(name)
        return None

    monkeypatch.setattr(loading, "LOADED", [])
    loading.load(finder)
    assert "bot.games.neibolt.edition" in seen and "bot.games.betrayal.edition" in seen
    assert seen[0] == "bot.games.betrayal.edition"  # the classic edition first


def test_no_module_imports_another_only_so_that_it_registers() -> None:
    """The old way was an import marked `noqa: F401` for its registrations; the loader
    is the one place now."""
    offenders = []
    for path in sorted((ROOT / "bot").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom | ast.Import):
                line = path.read_text().splitlines()[node.lineno - 1]
                if "noqa: F401" in line and "regist" in line:
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert offenders == []
