"""The working context of one `apply`: the state being changed and the events said.

Every module of the engine mutates a copy of the state through a Ctx and reports what
happened with `ctx.say(...)`, so the wording always comes from texts.yaml and the
events keep the order in which things happened.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.core.choices import PendingChoice
from bot.core.events import PUBLIC, Audience, Event
from bot.games.betrayal import content
from bot.games.betrayal.state import BetrayalState, Frame


@dataclass
class Ctx:
    state: BetrayalState
    events: list[Event] = field(default_factory=list)
    # The choice being answered (effects.resume), for a resumer that asks its question
    # again (a room after its floor): its words read in the language spoken are the ones
    # kept with the English state (PendingChoice.texts), which the state's own copy of
    # the question, made in English, is not.
    resumed: PendingChoice | None = None

    def say(self, key: str, kind: str = "info", audience: Audience = PUBLIC,
            data: dict[str, Any] | None = None, **kw: Any) -> None:
        self.events.append(Event(content.betrayal_line(key, **kw), audience, kind, data or {}))

    def who(self, seat: int) -> str:
        """The explorer's name, as events speak of them."""
        return explorer_name(self.state, seat)

    def room_name(self, tile_id: int) -> str:
        return content.room(self.state.tiles[tile_id].room).name

    def push(self, steps: list[dict[str, Any]] | tuple[dict[str, Any], ...], seat: int,
             source: str = "", origin: str = "engine",
             vars: dict[str, Any] | None = None) -> None:
        """Run these steps next (before whatever was waiting)."""
        if steps:
            self.state.script.append(Frame([dict(s) for s in steps], seat, source, origin,
                                           dict(vars or {})))

    def push_child(self, frame: Frame, steps: list[dict[str, Any]] | tuple[dict[str, Any], ...],
                   **extra_vars: Any) -> None:
        """Steps that belong to `frame` (an outcome, a card's follow-up): same explorer,
        same source, the frame's vars plus `extra_vars`."""
        self.push(steps, frame.seat, frame.source, frame.origin, {**frame.vars, **extra_vars})


def explorer_name(state: BetrayalState, seat: int) -> str:
    return content.explorer(state.explorers[seat].key).name


def card_name(key: str) -> str:
    return content.card(key).name
