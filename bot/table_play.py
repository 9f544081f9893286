"""A game's move played for a seat: a player's, or the AI's (one decision, the rest of
a turn, an out-of-turn offer), and which of a player's seats acts.
"""

from __future__ import annotations

from dataclasses import replace

from bot import moves as recorded
from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.core.events import Event
from bot.table_core import (
    FOR_SEAT,
    TURN_STEPS,
    ai_offer,
    game_of,
    game_state,
    out_of_turn_seats,
    record,
    set_state,
    to_act_seat,
)
from bot.table_record import ACTIVE, OVER, Table
from bot.table_seats import split_teams
from bot.texts import say


def play_seat(table: Table, seat: int, action: Action | None,
               language: str | None = None) -> tuple[Table, list[Event]]:
    """`action` (None: the AI's) played for `seat`; a seat it hands to the AI is named in
    `language`, the table's public posts' (None: the language spoken)."""
    game = game_of(table)
    state = game_state(table)
    if action is None:
        action = game.ai_action(state, seat)
    state, events = game.apply(state, seat, action)
    record(table, recorded.action_move(seat, action))
    state, moved = split_teams(table, game, state, language)
    set_state(table, game, state)
    if game.is_over(state):
        table.status = OVER
    return table, [*(e if e.seat is not None else replace(e, seat=seat) for e in events),
                   *moved]


def ai_decision(table: Table, offer: bool = False) -> tuple[int, Action]:
    """The seat and action the AI plays next: the decision the game waits for (the seat
    must be an AI's), or with `offer` the first AI seat's out-of-turn offer (`ai_offer`).
    Apart from playing it (`play_decided`), so a step said again in another language
    plays the same decision without making it twice."""
    if table.paused:
        raise IllegalAction(say("errors.paused"))
    if offer:
        found = ai_offer(table) if table.status == ACTIVE else None
        if found is None:
            raise IllegalAction(say("errors.nothing_to_skip"))
        return found
    seat = to_act_seat(table)
    if seat is None:
        raise IllegalAction(say("errors.nothing_to_skip"))
    return seat, game_of(table).ai_action(game_state(table), seat)


def play_decided(table: Table, seat: int, action: Action,
                 language: str | None = None) -> tuple[Table, list[Event]]:
    """An AI's decision (`ai_decision`) played on a copy of the table; `language`: the
    table's public posts' (`Actor.public_language`), which a seat the step hands to the
    AI is named in."""
    return play_seat(table.copy(), seat, action, language)


def ai_step(table: Table, language: str | None = None) -> tuple[Table, list[Event]]:
    """Let the AI take the decision the game waits for (the seat must be an AI's)."""
    return play_decided(table, *ai_decision(table), language)


def play_turn(table: Table, seat: int,
              language: str | None = None) -> tuple[Table, list[Event]]:
    """The AI plays the rest of `seat`'s turn for it (/gm skip, a turn timer's end): its
    decisions while the game waits for that seat in the same turn (the game's
    `turn_name`), so a turn of several decisions (a roll, each die, the end) is played
    whole, not one decision a call. A decision asked of another seat (a human's choice)
    or the game's end stops it. The seat stays its holder's. `language`: as
    `play_decided`'s."""
    table = table.copy()
    game = game_of(table)
    turn = game.turn_name(game_state(table))
    events: list[Event] = []
    for _ in range(TURN_STEPS):
        table, played = play_seat(table, seat, None, language)
        events += played
        if to_act_seat(table) != seat or game.turn_name(game_state(table)) != turn:
            break
    return table, events


def ai_offer_step(table: Table, language: str | None = None) -> tuple[Table, list[Event]]:
    """Let the first AI seat with an out-of-turn offer (`ai_offer`) play it."""
    return play_decided(table, *ai_decision(table, offer=True), language)


def for_seat(action: Action, seat: int) -> Action:
    """The action as a button for this seat's out-of-turn controls carries it."""
    return Action(action.kind, {**action.args, FOR_SEAT: seat})


def acting_seat(table: Table, user_id: int) -> int | None:
    """The user's seat; if they hold several, the one the game waits for, else one that
    may act out of turn now, else their first."""
    mine = table.seats_of(user_id)
    if not mine:
        return None
    waiting = to_act_seat(table)
    if waiting in mine:
        return waiting
    if waiting is not None:
        free = [s for s in out_of_turn_seats(table) if s in mine]
        if free:
            return free[0]
    return mine[0]
