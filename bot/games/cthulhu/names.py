"""Room and character names in the language spoken, looked up when a line or board is
made.

The state keeps each name in English, as every stored table has it: the engine plays in
English and its states must not change shape for a reader's language. So no player-facing
line reads `Room.name` or `Character.name` directly: it asks here, and the name comes
from data/cthulhu/ in the language spoken. The English name is the key (the characters'
mirror is keyed by it; a room's place in the English list finds its mirrored name). A
name that is not ours (a hand-made house in a test) is said as stored.
"""

from __future__ import annotations

from bot.games.cthulhu import content
from bot.games.cthulhu.state import CthulhuState
from bot.locales import ENGLISH, per_language, speaking


@per_language
def _room_words() -> dict[str, str]:
    with speaking(ENGLISH):
        english = content.room_names()
    return dict(zip(english, content.room_names(), strict=True))


@per_language
def _character_words() -> dict[str, str]:
    with speaking(ENGLISH):
        english = [c.name for c in content.characters()]
    return dict(zip(english, [c.name for c in content.characters()], strict=True))


def room_word(stored: str) -> str:
    """A room's name as stored (English) -> its name in the language spoken."""
    return _room_words().get(stored, stored)


def character_word(stored: str) -> str:
    """A character's name as stored (English) -> its name in the language spoken."""
    return _character_words().get(stored, stored)


def room_name(state: CthulhuState, r: int) -> str:
    """Room `r` of this house, named in the language spoken."""
    return room_word(state.rooms[r].name)


def character_name(state: CthulhuState, c: int) -> str:
    """Character `c`, named in the language spoken."""
    return character_word(state.characters[c].name)
