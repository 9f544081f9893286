"""Cthulhu in the House content from data/cthulhu/, read once per process.

Everything a player reads lives in YAML so it stays in our own words and can be edited
without touching the engine; this module is the only place that knows the file layout.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot import yaml_files
from bot.locales import per_language
from bot.paths import DATA
from bot.texts import TextBook


@dataclass(frozen=True)
class CharacterInfo:
    name: str
    colour: str
    about: str = ""


def _load(name: str) -> dict[str, Any]:
    return yaml_files.mapping(DATA / "cthulhu" / f"{name}.yaml")


@per_language
def characters() -> tuple[CharacterInfo, ...]:
    return tuple(CharacterInfo(str(c["name"]), str(c["colour"]), str(c.get("about", "")))
                 for c in _load("characters")["characters"])


@per_language
def room_names() -> tuple[str, ...]:
    return tuple(str(name) for name in _load("rooms")["rooms"])


def layout_specs() -> dict[str, dict[str, Any]]:
    """Raw built-in layouts by key; layouts.py turns them into checked Layouts."""
    return dict(_load("layouts")["layouts"])


def rules_topics() -> dict[str, str]:
    return yaml_files.topics(DATA / "cthulhu" / "rules.yaml")


def rules_titles() -> dict[str, str]:
    return yaml_files.titles(DATA / "cthulhu" / "rules.yaml")


_TEXTS = TextBook(DATA / "cthulhu" / "texts.yaml")


def command_words() -> dict[str, str]:
    """The words of the game's own commands (texts.yaml's `commands`), in the language
    spoken (Game.command_words)."""
    return _TEXTS.lines("commands")


def text(key: str) -> str:
    """One template from texts.yaml by dotted key ("errors.game_over")."""
    return _TEXTS.text(key)


def cthulhu_line(key: str, **kw: Any) -> str:
    """A player-facing line: the template for `key` filled with `kw`."""
    return _TEXTS.say(key, **kw)
