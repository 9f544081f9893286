"""Eddie's allowance (seed 001: "Whenever Pennywise is in your location, you may place
up to two cards from your hand into the Fight Stack"). Every move of a Loser or of
Pennywise re-checks it, so it sits below effects.py, which moves them; the placing
itself is an action (actions.py).
"""

from __future__ import annotations

from bot.core.events import Event
from bot.games.evilbelow.content import evil_below_line
from bot.games.evilbelow.state import EvilBelowState

EDDIE_CARDS = 2  # seed 001: "up to two cards"


def eddie_check(state: EvilBelowState, events: list[Event]) -> None:
    """Eddie: each time he and Pennywise come to share a location he may place up to
    two cards (RULES.md); the allowance lapses when they part."""
    seat = state.seat_of("eddie")
    sharing = seat is not None and state.heroes[seat].location == state.pennywise
    if sharing and not state.eddie_sharing:
        state.eddie_left = EDDIE_CARDS
        if seat is not None and state.heroes[seat].hand:
            events.append(Event(evil_below_line("events.eddie"), kind="ability"))
    elif not sharing:
        state.eddie_left = 0
    state.eddie_sharing = sharing
