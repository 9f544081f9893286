"""A turn left with nothing to decide ends by itself.

Seed 001, step 5: "After all actions have been taken and effects have been resolved for
the turn, the turn ends". Once the active player's only option is "End turn" and no
other seat may act out of turn (a Bike to ride, cards to put into the Fight Stack:
RULES.md, those wait on their players), the engine ends the turn as the click would
(the same steps, no die of its own), with one line more that says why: a line of the
log (DETAIL), so the live message keeps the turn's last deed as its newest line. It runs
inside the action it followed (rules.py, `apply`): one move for the undo, the timers and
the replays. A game stored while waiting on a lone "End turn" still takes the click.
"""

from __future__ import annotations

from bot.core.events import DETAIL, Event
from bot.games.evilbelow import actions
from bot.games.evilbelow.content import evil_below_line
from bot.games.evilbelow.state import EvilBelowState


def end_idle_turn(state: EvilBelowState, events: list[Event]) -> bool:
    """End the turn if it has nothing left to decide (see the module); True if it did.
    The caller then lets the game take its own steps, as after any action."""
    if state.over or state.pending is not None:
        return False
    found = actions.legal(state, state.turn)
    if len(found) != 1 or found[0].action.kind != actions.END_TURN:
        return False
    if any(actions.legal(state, seat) for seat in range(len(state.players))
           if seat != state.turn):
        return False
    events.append(Event(evil_below_line("events.nothing_left",
                                        player=state.players[state.turn]), kind=DETAIL))
    actions.BY_KIND[actions.END_TURN].do(state, state.turn, found[0].action, events)
    return True
