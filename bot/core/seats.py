"""Seats at the table: who sits where, human or AI, and the turn order around them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Seat:
    name: str
    user_id: int | None = None  # None for an AI seat
    ai: bool = False
    picks: dict[str, str] = field(default_factory=dict)  # lobby choices, e.g. the explorer
    # The language its player reads (bot/locales: "en", "zh-TW"), from the locale of
    # their last interaction with the table; None: not known yet (English).
    language: str | None = None

    @property
    def is_human(self) -> bool:
        return not self.ai and self.user_id is not None

    def copy(self) -> Seat:
        return Seat(self.name, self.user_id, self.ai, dict(self.picks), self.language)

    def to_dict(self) -> dict[str, Any]:
        raw: dict[str, Any] = {"name": self.name, "user_id": self.user_id, "ai": self.ai,
                               "language": self.language}
        if self.picks:
            raw["picks"] = dict(self.picks)
        return raw

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> Seat:
        return cls(raw["name"], raw.get("user_id"), bool(raw.get("ai", False)),
                   dict(raw.get("picks", {})), raw.get("language"))


def next_seat(current: int, count: int, step: int = 1) -> int:
    """Clockwise is increasing seat index, wrapping around the table."""
    return (current + step) % count


def clockwise_from(start: int, count: int) -> list[int]:
    return [(start + i) % count for i in range(count)]
