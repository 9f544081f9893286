"""Pending choices: the engine pauses and asks one seat to pick among listed options.

The engine stores a PendingChoice in its state; while it is set, the only legal actions
are `choose~pick=<index>` by that seat. Adapters show the options as buttons or a
select. The payload is game data the engine reads back when the choice is made.

The prompt and labels are the engine's words when it paused: English. A table that
reads another language has each step said again in it (bot/languages.py), and the
choice that step paused with keeps that language's words in `texts`, so the question
and the buttons read in each reader's language (`said`), English where none was kept.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.core.actions import Action, Option
from bot.core.errors import IllegalAction
from bot.locales import current

CHOOSE = "choose"


@dataclass
class PendingChoice:
    seat: int
    prompt: str
    kind: str  # what the engine will do with the pick, e.g. "abyss" or "teleport"
    labels: list[str]
    payload: dict[str, Any] = field(default_factory=dict)
    private: bool = False  # the labels show what only the chooser may see (a deck's top)
    # The prompt and labels in another language, as that language's replay of the step
    # that paused said them: {language: {"prompt": str, "labels": [str, ...]}}.
    texts: dict[str, dict[str, Any]] = field(default_factory=dict)

    def said(self, language: str | None = None) -> tuple[str, list[str]]:
        """The prompt and labels in `language` (the one spoken by default): its kept
        words when they fit this choice (as many labels), else the English."""
        kept = self.texts.get(language or current())
        if kept is not None and len(kept.get("labels", ())) == len(self.labels):
            return str(kept["prompt"]), [str(label) for label in kept["labels"]]
        return self.prompt, list(self.labels)

    @property
    def asked(self) -> str:
        """The prompt in the language spoken (a status line's, a refusal's)."""
        return self.said()[0]

    def options(self) -> list[Option]:
        prompt, labels = self.said()
        return [
            Option(label, Action(CHOOSE, {"pick": i}), group=prompt, style="primary",
                   private=self.private)
            for i, label in enumerate(labels)
        ]

    def pick(self, seat: int, action: Action) -> int:
        """Validate a choose action against this choice and return the picked index."""
        if seat != self.seat:
            raise IllegalAction("Someone else is making a choice right now.")
        if action.kind != CHOOSE:
            raise IllegalAction(f"First choose: {self.asked}")
        index = action.int_arg("pick")
        if not 0 <= index < len(self.labels):
            raise IllegalAction("That is not one of the choices.")
        return index

    def to_dict(self) -> dict[str, Any]:
        raw = {"seat": self.seat, "prompt": self.prompt, "kind": self.kind,
               "labels": list(self.labels), "payload": self.payload,
               "texts": {lang: {"prompt": t["prompt"], "labels": list(t["labels"])}
                         for lang, t in self.texts.items()}}
        if self.private:
            raw["private"] = True
        return raw

    @classmethod
    def from_dict(cls, raw: dict[str, Any] | None) -> PendingChoice | None:
        if raw is None:
            return None
        return cls(raw["seat"], raw["prompt"], raw["kind"], list(raw["labels"]),
                   dict(raw.get("payload", {})), bool(raw.get("private", False)),
                   {lang: {"prompt": t["prompt"], "labels": list(t["labels"])}
                    for lang, t in raw["texts"].items()})


def texts_kept(raw: dict[str, Any]) -> dict[str, Any]:
    """A game state's format step (issue 25): its pending choice keeps its prompt and
    labels in the other languages its table reads (`PendingChoice.texts`). A choice
    paused before kept none: it reads in English, as it did."""
    if raw.get("pending") is not None:
        raw["pending"]["texts"] = {}
    return raw


def game_only(raw: dict[str, Any]) -> dict[str, Any]:
    """A stored state without its pending choice's words in other languages: what the
    game is, to compare with the same game played again elsewhere (bot/replay.py). A
    table said a choice in other languages as it paused, a replay plays in English
    alone: the words differ, the game does not."""
    pending = raw.get("pending")
    if not isinstance(pending, dict) or not pending.get("texts"):
        return raw
    return {**raw, "pending": {**pending, "texts": {}}}
