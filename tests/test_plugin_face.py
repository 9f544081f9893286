"""What extends Betrayal (a classic haunt, an expansion's edition, scenarios, rooms and
cards) imports Betrayal only through its one face, bot/games/betrayal/plugin_api.py, so
the engine behind it can be reshaped without breaking a plugin, and what a plugin may
use is named in one place."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.games.betrayal import plugin_api

ROOT = Path(__file__).resolve().parent.parent
FACE = "bot.games.betrayal.plugin_api"
BETRAYAL = "bot.games.betrayal"


def extending_modules() -> list[Path]:
    """The classic haunts, and every other games package that brings an edition."""
    found = sorted((ROOT / "bot/games/betrayal/haunting/plugins").glob("*.py"))
    for package in sorted((ROOT / "bot/games").iterdir()):
        if package.name != "betrayal" and (package / "edition.py").is_file():
            found += sorted(package.rglob("*.py"))
    return found


def betrayal_imports(path: Path) -> list[str]:
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
        elif isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
    return [n for n in names if n == BETRAYAL or n.startswith(BETRAYAL + ".")]


def test_there_are_extending_modules_to_check() -> None:
    paths = {p.relative_to(ROOT).as_posix() for p in extending_modules()}
    assert "bot/games/neibolt/edition.py" in paths
    assert "bot/games/betrayal/haunting/plugins/the_mummy_walks.py" in paths
    assert "bot/games/neibolt/scenarios/the_ritual_of_chud.py" in paths


@pytest.mark.parametrize("path", extending_modules(), ids=lambda p: p.name)
def test_a_plugin_imports_betrayal_only_through_its_face(path: Path) -> None:
    other = [name for name in betrayal_imports(path) if name != FACE]
    assert not other, f"{path.relative_to(ROOT)} imports {other}: use {FACE}"


def test_the_face_names_only_what_it_holds() -> None:
    for name in plugin_api.__all__:
        assert hasattr(plugin_api, name), name
    public = {n for n in vars(plugin_api) if not n.startswith("_")} - {"annotations"}
    assert public == set(plugin_api.__all__)
