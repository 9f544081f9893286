"""Player-facing lines, read from YAML files in data/ by dotted key.

Every game keeps its own texts.yaml; the table's lines are in data/texts.yaml. One
TextBook per file, loaded once, so every module formats lines the same way.
"""

from __future__ import annotations

from functools import cached_property
from importlib.resources.abc import Traversable
from typing import Any

from bot import yaml_files
from bot.paths import DATA


class TextBook:
    def __init__(self, path: Traversable) -> None:
        self.path = path

    @cached_property
    def data(self) -> dict[str, Any]:
        return yaml_files.read(self.path) or {}

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
        return self.text(key).format(**kwargs)


TABLE = TextBook(DATA / "texts.yaml")


def say(key: str, **kwargs: Any) -> str:
    """A line of the table itself, e.g. say("errors.host_only", host="Ann")."""
    return TABLE.say(key, **kwargs)


def ai_names() -> list[str]:
    return [str(n) for n in TABLE.node("ai_names")]
