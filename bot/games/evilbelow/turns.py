"""Turn boundaries: step 5 passes the dice to the left, and what resets with a turn
(the dice, the locations that acted, Richie's pull, who rode a Bike, who moved) resets
here."""

from __future__ import annotations

from bot.core.events import Event
from bot.core.seats import next_seat
from bot.games.evilbelow import abilities
from bot.games.evilbelow.content import evil_below_line
from bot.games.evilbelow.state import ROLL, EvilBelowState


def begin_turn(state: EvilBelowState, events: list[Event]) -> None:
    state.phase = ROLL
    state.dice = [""] * len(state.dice)
    state.dice_used = [False] * len(state.dice)
    state.acted = []
    state.sighted = []
    state.richie_used = False
    state.rode = []
    state.moved = []
    state.fight = None
    events.append(Event(evil_below_line("events.turn", player=state.players[state.turn]),
                        kind="turn",
                        data={"seat": state.turn}))
    abilities.on_turn_start(state, events)


def end_turn(state: EvilBelowState, events: list[Event]) -> None:
    state.turns_played += 1
    state.turn = next_seat(state.turn, len(state.players))
    begin_turn(state, events)
