"""Events carry what happened and who may see it.

The engine decides visibility; adapters only route. Audiences serialise to short
strings ("public", "player:123", "team:heroes") so the event log stays greppable.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Audience:
    kind: str  # "public" | "player" | "team"
    ref: str = ""

    @property
    def is_public(self) -> bool:
        return self.kind == "public"

    def encode(self) -> str:
        return self.kind if self.kind == "public" else f"{self.kind}:{self.ref}"

    def reaches(self, seat: int | None, teams: Mapping[str, list[int]]) -> bool:
        """Whether this seat is told what is said to this audience: the rule delivery
        routes by, and the one an AI's view of the state is cut by (bot/core/views.py).
        `teams` are the game's (Game.teams); seat None is no seat at all (the house
        that plays a cooperative game's monsters): it is told only what is public."""
        if self.kind == "public":
            return True
        if seat is None:
            return False
        if self.kind == "player":
            return self.ref == str(seat)
        return seat in teams.get(self.ref, ())

    @classmethod
    def decode(cls, text: str) -> Audience:
        kind, _, ref = text.partition(":")
        return cls(kind, ref)


PUBLIC = Audience("public")

# An event's kind for a public line that belongs in the game's log only: the live message
# tells the turn in a few headlines and leaves such lines (a roll's dice, a rule that did
# nothing) to `/game log`. Each game names its other detail kinds (Game.detail_kinds).
DETAIL = "detail"


def to_player(seat: int) -> Audience:
    """Private to one seat; sessions map seats to Discord users."""
    return Audience("player", str(seat))


def to_team(name: str) -> Audience:
    return Audience("team", name)


@dataclass(frozen=True)
class Event:
    text: str  # in English: the engine's words, stored and logged
    audience: Audience = PUBLIC
    kind: str = "info"
    data: dict[str, Any] = field(default_factory=dict)
    # The seat whose deed it is: the table rules set the seat whose move made it, unless
    # the engine named another (a monster slain by the hero it attacked, on its
    # master's move); None for the table's own lines. The end-of-game story counts each
    # seat's deeds by it.
    seat: int | None = None
    # The same line in the table's other languages (language -> text), made by playing
    # the action again under that language (bot/languages.py); the engines never fill it.
    texts: Mapping[str, str] = field(default_factory=dict)

    def text_in(self, language: str) -> str:
        """The line in `language`, in English where it was not said in that one."""
        return self.texts.get(language, self.text)

    def to_dict(self) -> dict[str, Any]:
        raw = {"text": self.text, "audience": self.audience.encode(), "kind": self.kind,
               "data": self.data, "seat": self.seat}
        if self.texts:
            raw["texts"] = dict(self.texts)
        return raw

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> Event:
        return cls(raw["text"], Audience.decode(raw["audience"]), raw.get("kind", "info"),
                   raw.get("data", {}), raw.get("seat"), dict(raw.get("texts", {})))
