"""The records the store keeps: a table (one game in one channel) and its logged events."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.core.seats import Seat

LOBBY = "lobby"
ACTIVE = "active"
OVER = "over"


@dataclass
class Table:
    """Everything about one game in one channel: the lobby, the seats and the game state.

    `state` is the game's own dump (see Game.dump); the table around it is the same for
    every game, so lobby, moderation and storage never need to know the rules.
    """

    channel_id: int
    guild_id: int | None
    kind: str
    host_id: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    seats: list[Seat] = field(default_factory=list)
    status: str = LOBBY
    state: dict[str, Any] | None = None
    version: int = 0
    id: int | None = None
    ended_reason: str = ""

    def seat_of(self, user_id: int) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id and not seat.ai:
                return index
        return None

    def seats_of(self, user_id: int) -> list[int]:
        """Every seat this user plays (some games let one person play two explorers)."""
        return [i for i, seat in enumerate(self.seats) if seat.user_id == user_id and not seat.ai]

    def was_seated(self, user_id: int) -> bool:
        """True for a player even after their seat was handed to the AI."""
        return any(seat.user_id == user_id for seat in self.seats)

    def envelope(self) -> dict[str, Any]:
        """What goes into the state_json column: the table minus its row keys."""
        return {
            "host_id": self.host_id,
            "seed": self.seed,
            "options": self.options,
            "seats": [s.to_dict() for s in self.seats],
            "state": self.state,
            "ended_reason": self.ended_reason,
        }

    @classmethod
    def from_row(cls, *, id: int, channel_id: int, guild_id: int | None, kind: str,
                 status: str, version: int, envelope: dict[str, Any]) -> Table:
        return cls(
            id=id,
            channel_id=channel_id,
            guild_id=guild_id,
            kind=kind,
            status=status,
            version=version,
            host_id=envelope["host_id"],
            seed=envelope["seed"],
            options=envelope.get("options", {}),
            seats=[Seat.from_dict(s) for s in envelope.get("seats", [])],
            state=envelope.get("state"),
            ended_reason=envelope.get("ended_reason", ""),
        )


@dataclass(frozen=True)
class LoggedEvent:
    seq: int
    version: int
    ts: float
    actor_id: int | None
    audience: str
    text: str
