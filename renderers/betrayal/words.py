"""The words the Betrayal pictures draw (the chat board, the whole house, an explorer's
sheet; every edition's), from the `board` section of data/betrayal/texts.yaml, read as
every other line of the game is (`bot.games.betrayal.content.betrayal_line`): every word a player
reads lives in data/, where it is kept short and clear with the game's other texts."""

from __future__ import annotations

from typing import Any

from bot.games.betrayal.content import betrayal_line


def word(key: str, **kw: Any) -> str:
    """The board's words for `key` ("legend.omen", "rooms"), filled with `kw`."""
    return betrayal_line(f"board.{key}", **kw)


def word_or(key: str, fallback: str, **kw: Any) -> str:
    """`word`, or `fallback` where the file names nothing: a token, trait or card kind a
    haunt or an expansion brings is still named, from its key."""
    try:
        return word(key, **kw)
    except KeyError:
        return fallback


def floor_title(floor: str) -> str:
    """A floor's title ("Ground floor")."""
    return word_or(f"floors.{floor}", floor.title())
