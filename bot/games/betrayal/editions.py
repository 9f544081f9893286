"""Editions of Betrayal: the classic game and each expansion, as plugins.

The Betrayal core plays whatever edition the state names (`state.edition`). An edition
owns what differs between the boxes: its content folders (content.add_folder), the
story told as the game opens, the decks in play and which deck a room's symbol draws,
the haunt trigger at the end of a turn, the haunt choice once it is triggered, and
what the map's footer shows. The classic game (edition.py beside this module) is the
default; an expansion is a package of its own under bot/games/ with an `edition`
module that registers itself here, found by loading.py walking the games' packages,
so no list names it.

This module sits at the bottom: it imports only the state and the content, and the
engine calls into whichever edition is registered. Every hook has the classic game's
neutral default where there is one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.games.base import About
from bot.games.betrayal import content, loading
from bot.games.betrayal.pictures import TrackView
from bot.games.betrayal.state import BetrayalState, Frame

if TYPE_CHECKING:
    from bot.games.betrayal.context import Ctx

DEFAULT = "classic"


class Edition:
    """One edition's rules beside the core. Subclasses register with `@register`."""

    key = ""
    order = 0  # where the lobby lists it (the classic game first)

    def label(self) -> str:
        """Its name as the lobby offers it, in the language spoken (read per call: a
        class attribute would be read once, in English, when the module loads)."""
        return self.key

    def title(self) -> str:
        """The game's name as a table of this edition reads it, in the language spoken:
        an expansion played as its own box says its own (seed 000's cover); by default
        the classic game's."""
        return content.betrayal_line("title")

    def about(self) -> About:
        """The lobby's few words on the game a table of this edition plays, in the
        language spoken: an expansion played as its own box says its own; by default
        the classic game's."""
        return About.said(content.betrayal_line)

    # ---- setup
    def story(self) -> str:
        """The story read out as the game opens: the box's own (an expansion sets its
        own stage, seed 000's COME HOME TO EVIL card); by default the classic game's."""
        return content.betrayal_line("events.intro")

    def rooms(self, c: content.Content) -> list[str]:
        """The room tiles of the stack (before the shuffle)."""
        return c.discoverable(self.key)

    def decks(self, c: content.Content) -> dict[str, list[str]]:
        """Every deck in play, by name, its cards before the shuffle."""
        return {deck: c.deck(deck, self.key) for deck in content.DECKS}

    def setup(self, state: BetrayalState) -> None:
        """Anything else the edition lays out before the first turn."""

    # ---- exploring
    def symbol_steps(self, state: BetrayalState, symbol: str) -> list[dict[str, Any]]:
        """The steps a discovered room's card symbol runs (its card drawn)."""
        return [{"_draw_card": {"deck": symbol}}]

    def turn_over(self, ctx: Ctx, frame: Frame) -> None:
        """The end of an exploring turn: the haunt trigger (a roll pushed into
        `frame`, whose check begins the haunt)."""

    def stalled(self, state: BetrayalState) -> bool:
        """Whether an AI-only table has gone too long without the trigger."""
        return False

    def begin_stalled(self, ctx: Ctx, seat: int) -> None:
        """Begin the haunt of a stalled table."""

    # ---- the haunt
    def choose_haunt(self, ctx: Ctx, seat: int, omen: str, room: str
                     ) -> tuple[str, str, str]:
        """(the haunt's key, the card it was read with, the room) once triggered;
        "" for no haunt."""
        return "", omen, room

    def haunts(self) -> list[str]:
        """The haunts this edition can begin, in order."""
        return []

    def haunt_line(self, number: int, name: str, teaser: str, card: str) -> str | None:
        """What the table hears as the haunt is named (None: the classic chart's line)."""
        return None

    # ---- the rules
    def topics(self) -> dict[str, str]:
        """`/game rules` topics this edition adds (topic -> text)."""
        return {}

    def titles(self) -> dict[str, str]:
        """The titles of the topics this edition adds (topic -> title)."""
        return {}

    # ---- the map
    def track(self, state: BetrayalState) -> TrackView:
        """The footer's card track, as the map draws it."""
        return TrackView("", 0, 0)

    def haunt_footer(self, number: int, name: str, who: str, card: str, room: str
                     ) -> str | None:
        """The footer's line once the haunt has begun (None: the classic chart's)."""
        return None

    def status(self, state: BetrayalState) -> list[str]:
        """Lines `/game status` adds for this edition (public only)."""
        return []


EDITIONS: dict[str, Edition] = {}


def register(cls: type[Edition]) -> type[Edition]:
    """Register an edition class under its key (one instance serves every game)."""
    EDITIONS[cls.key] = cls()
    return cls


def get(key: str) -> Edition:
    loading.load()
    return EDITIONS[key]


def known(key: str) -> bool:
    loading.load()
    return key in EDITIONS


def for_state(state: BetrayalState) -> Edition:
    """The edition a game plays (a state from before editions plays the classic game)."""
    return EDITIONS.get(state.edition) or get(state.edition or DEFAULT)


def offered() -> list[tuple[str, str]]:
    """(key, name) of every edition, in the lobby's order."""
    loading.load()
    return [(e.key, e.label())
            for e in sorted(EDITIONS.values(), key=lambda e: (e.order, e.key))]
