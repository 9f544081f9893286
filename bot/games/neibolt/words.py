"""The expansion's own lines (data/neibolt/texts.yaml): every sentence it says is ours."""

from __future__ import annotations

from typing import Any

from bot import yaml_files
from bot.core.events import PUBLIC, Audience, Event
from bot.games.betrayal.plugin_api import Ctx
from bot.paths import DATA
from bot.texts import TextBook

FOLDER = DATA / "neibolt"
BOOK = TextBook(FOLDER / "texts.yaml")


def neibolt_line(key: str, **kw: Any) -> str:
    return BOOK.say(key, **kw)


def rules_topics() -> dict[str, str]:
    """The expansion's `/game rules` topics (data/neibolt/rules.yaml)."""
    return yaml_files.topics(FOLDER / "rules.yaml")


def rules_titles() -> dict[str, str]:
    """The titles of the expansion's topics."""
    return yaml_files.titles(FOLDER / "rules.yaml")


def tell(ctx: Ctx, key: str, kind: str = "info", audience: Audience = PUBLIC,
         data: dict[str, Any] | None = None, **kw: Any) -> None:
    ctx.events.append(Event(neibolt_line(key, **kw), audience, kind, data or {}))
