"""The haunt engine's own lines (data/betrayal/haunt_texts.yaml), kept apart from the
exploration's texts.yaml so each file stays one subject."""

from __future__ import annotations

from typing import Any

from bot.core.events import PUBLIC, Audience, Event
from bot.games.betrayal.context import Ctx
from bot.paths import DATA
from bot.texts import TextBook

BOOK = TextBook(DATA / "betrayal" / "haunt_texts.yaml")


def haunt_line(key: str, **kw: Any) -> str:
    return BOOK.say(key, **kw)


def tell(ctx: Ctx, key: str, kind: str = "haunt", audience: Audience = PUBLIC,
         data: dict[str, Any] | None = None, **kw: Any) -> None:
    ctx.events.append(Event(haunt_line(key, **kw), audience, kind, data or {}))
