"""Player-facing lines, read from YAML files in data/ by dotted key.

Every game keeps its own texts.yaml; the table's lines are in data/texts.yaml. One
TextBook per file, loaded once per language, so every module formats lines the same
way. A book answers in the language being spoken (bot/locales: `speaking`), from the
file's mirror where it has the line, in English where it does not yet.

A count and its noun agree: a template writes `{n:die|dice}` for "1 die" / "3 dice"
(the count, then the singular or the plural), since "1 dice" reads wrong and the
number is only known when the line is said. Code that builds such a line itself
calls `plural`. `fill` is `str.format` with that one addition, for every template.
"""

from __future__ import annotations

import string
from importlib.resources.abc import Traversable
from typing import Any

from bot import locales, yaml_files
from bot.paths import DATA


def plural(count: object, one: str, many: str) -> str:
    """The count and its noun: plural(1, "die", "dice") is "1 die", 2 is "2 dice"."""
    return f"{count} {one if str(count) in ('1', '-1') else many}"


class _Counting(string.Formatter):
    """`str.format`, where a spec holding "|" (`{n:die|dice}`) names the noun the
    count goes with, singular then plural."""

    def format_field(self, value: Any, format_spec: str) -> str:
        if "|" in format_spec:
            one, _, many = format_spec.partition("|")
            return plural(value, one, many)
        return str(super().format_field(value, format_spec))


_COUNTING = _Counting()


def fill(template: str, **kwargs: Any) -> str:
    """The template filled with `kwargs`, counts agreeing with their nouns."""
    if "|" not in template:  # most lines: the plain (faster) str.format
        return template.format(**kwargs)
    return _COUNTING.format(template, **kwargs)


class TextBook:
    def __init__(self, path: Traversable) -> None:
        self.path = path
        self._books: dict[str, dict[str, Any]] = {}  # language -> its data, read once
        locales.keeps(self._books.clear)

    @property
    def data(self) -> dict[str, Any]:
        """The file in the language spoken now (English where its mirror is silent)."""
        language = locales.current()
        book = self._books.get(language)
        if book is None:
            book = self._books[language] = yaml_files.read(self.path) or {}
        return book

    def node(self, key: str) -> Any:
        node: Any = self.data
        for part in key.split("."):
            node = node[part]
        return node

    def text(self, key: str) -> str:
        """One template by dotted key ("errors.game_over"); KeyError if it is not a line."""
        node = self.node(key)
        if not isinstance(node, str):
            raise KeyError(key)
        return node

    def say(self, key: str, **kwargs: Any) -> str:
        """The template for `key` filled with `kwargs`."""
        return fill(self.text(key), **kwargs)


TABLE = TextBook(DATA / "texts.yaml")


def say(key: str, **kwargs: Any) -> str:
    """A line of the table itself, e.g. say("errors.host_only", host="Ann")."""
    return TABLE.say(key, **kwargs)


def ai_names() -> list[str]:
    return [str(n) for n in TABLE.node("ai_names")]
