"""The whole state of a Cthulhu in the House game, as plain data that round-trips to JSON.

Ids are indexes: room i is `rooms[i]`, character c is `characters[c]`. Portal kinds are
kept here because the engine must know them, but they are face-down: nothing public
may show `room_portals` kinds or `reserve` (renderers draw only how many there are).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.core.choices import PendingChoice, texts_kept
from bot.core.formats import Formats
from bot.core.rng import Rng
from bot.core.stored import restored, stored_dict

ABYSS = "abyss"
TELEPORT = "teleport"
RUMBLES = 3
LAST_STANDING_POINTS = 10


@dataclass
class Room:
    name: str
    col: int  # position on the layout grid, for the map
    row: int


@dataclass
class Character:
    name: str
    colour: str  # "#rrggbb"


@dataclass
class RumbleResult:
    """A scored rumble, public from then on: who owned what and how it scored."""

    number: int
    removed: list[int]  # character ids in the order they left the house
    survivor: int
    secrets: list[list[int]]  # seat -> its two character ids
    points: list[int]  # seat -> points gained this rumble


@dataclass
class CthulhuState:
    players: list[str]  # seat -> display name, clockwise
    ai: list[bool]  # seat -> played by the AI
    layout: str
    rooms: list[Room]
    passages: list[tuple[int, int]]  # room pairs (a < b) joined by a passage
    characters: list[Character]
    location: list[int | None]  # character -> room, None once removed this rumble
    room_portals: list[list[str]]  # room -> face-down portal kinds in it
    reserve: list[str]  # face-down portals beside the house
    removed: list[int] = field(default_factory=list)  # this rumble, in order
    secrets: list[list[int]] = field(default_factory=list)  # seat -> two characters
    scores: list[int] = field(default_factory=list)  # seat -> total points
    rumble: int = 1
    starter: int = 0  # seat that started this rumble
    turn: int = 0  # seat whose turn it is
    turns_played: int = 0
    pending: PendingChoice | None = None
    results: list[RumbleResult] = field(default_factory=list)
    over: bool = False
    winners: list[int] = field(default_factory=list)
    # The last action, public as on the table, for the board to show: {"seat", "kind":
    # "move" | "fight", "character", "from", "to"} for a move (a teleport after a
    # fight adds its character's "from" and "to" to the fight's {"room", "removed"}).
    # Each new turn's action replaces it; {} before the first.
    last: dict[str, Any] = field(default_factory=dict)
    # Seat -> a number that seat alone holds, dealt at setup and shown to no one: what its
    # AI's own coin is seeded with (knowledge.py). [] in a game stored before there were.
    salts: list[int] = field(default_factory=list)
    rng: Rng = field(default_factory=lambda: Rng(0))

    def neighbours(self, room: int) -> list[int]:
        return sorted([b for a, b in self.passages if a == room]
                      + [a for a, b in self.passages if b == room])

    def in_room(self, room: int) -> list[int]:
        return [c for c, where in enumerate(self.location) if where == room]

    def remaining(self) -> list[int]:
        return [c for c, where in enumerate(self.location) if where is not None]

    def to_dict(self) -> dict[str, Any]:
        raw = stored_dict(self)
        raw["passages"] = [list(p) for p in self.passages]
        return raw

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> CthulhuState:
        data = restored(raw)
        data["rooms"] = [Room(**r) for r in raw["rooms"]]
        data["characters"] = [Character(**c) for c in raw["characters"]]
        data["passages"] = [(a, b) for a, b in raw["passages"]]
        data["results"] = [RumbleResult(**r) for r in raw["results"]]
        return cls(**data)


def salts_dealt(raw: dict[str, Any]) -> dict[str, Any]:
    """Format 1 -> 2: each seat's salt (`salts`), so an AI's choices no longer name its
    pair (knowledge.py). A game stored before has none, and its AI plays on as it did."""
    raw["salts"] = []
    return raw


# Every shape the stored state has had (bot/core/formats.py): append, never edit.
STATE_FORMATS = Formats((texts_kept, salts_dealt))
