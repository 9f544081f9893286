"""Seed 000's room names, read as our rooms (data/neibolt/names.yaml, RULES.md
section 2): the scenarios name the rooms they use by seed 000's words."""

from __future__ import annotations

from functools import cache

from bot import yaml_files
from bot.games.neibolt.words import FOLDER


@cache
def _names() -> dict[str, tuple[str, ...]]:
    raw = yaml_files.read(FOLDER / "names.yaml") or {}
    return {str(k).lower(): tuple(str(r) for r in v) for k, v in raw["names"].items()}


def rooms(*names: str) -> frozenset[str]:
    """Our room keys for seed 000's room names ("Ritual Room" -> pentagram_chamber)."""
    found: set[str] = set()
    for name in names:
        found.update(_names()[name.lower()])
    return frozenset(found)
