"""Pending choices: the engine pauses and asks one seat to pick among listed options.

The engine stores a PendingChoice in its state; while it is set, the only legal actions
are `choose~pick=<index>` by that seat. Adapters show the options as buttons or a
select. The payload is game data the engine reads back when the choice is made.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.core.actions import Action, Option
from bot.core.errors import IllegalAction

CHOOSE = "choose"


@dataclass
class PendingChoice:
    seat: int
    prompt: str
    kind: str  # what the engine will do with the pick, e.g. "abyss" or "teleport"
    labels: list[str]
    payload: dict[str, Any] = field(default_factory=dict)
    private: bool = False  # the labels show what only the chooser may see (a deck's top)

    def options(self) -> list[Option]:
        return [
            Option(label, Action(CHOOSE, {"pick": i}), group=self.prompt, style="primary",
                   private=self.private)
            for i, label in enumerate(self.labels)
        ]

    def pick(self, seat: int, action: Action) -> int:
        """Validate a choose action against this choice and return the picked index."""
        if seat != self.seat:
            raise IllegalAction("Someone else is making a choice right now.")
        if action.kind != CHOOSE:
            raise IllegalAction(f"First choose: {self.prompt}")
        index = action.int_arg("pick")
        if not 0 <= index < len(self.labels):
            raise IllegalAction("That is not one of the choices.")
        return index

    def to_dict(self) -> dict[str, Any]:
        raw = {"seat": self.seat, "prompt": self.prompt, "kind": self.kind,
               "labels": list(self.labels), "payload": self.payload}
        if self.private:
            raw["private"] = True
        return raw

    @classmethod
    def from_dict(cls, raw: dict[str, Any] | None) -> PendingChoice | None:
        if raw is None:
            return None
        return cls(raw["seat"], raw["prompt"], raw["kind"], list(raw["labels"]),
                   dict(raw.get("payload", {})), bool(raw.get("private", False)))
