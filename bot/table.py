"""The rules of the table around any game, and its one door: `apply` takes a Table and
an action and returns a new Table plus events, or raises IllegalAction and leaves the
given Table as it was. Pure like the engines. Games see seats by index; only this layer
knows which Discord user sits where.

The rules live beside this door, each part in its own module, lowest first:
bot/table_core.py (the action kinds, `Actor`, the table's game and state, who is to
act), bot/table_seats.py (who holds each seat), bot/table_play.py (a seat's move,
the AI's), bot/table_lobby.py (before the start) and bot/table_moderation.py (the
moderators' tools). Callers use this module's names; what it re-exports is listed in
`__all__`.
"""

from __future__ import annotations

from collections.abc import Callable

from bot import table_lobby as lobby
from bot import table_moderation as moderation
from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.core.events import Event
from bot.table_core import (
    ADD_AI,
    AI_ACTOR,
    END,
    FOR_SEAT,
    GONE,
    HOST,
    JOIN,
    KICK,
    LEAVE,
    PAUSE,
    PICK,
    REMOVE_AI,
    RESUME,
    SEAT,
    SEATS_MOVED,
    SECOND,
    SEED_BITS,
    SEEDED,
    SKIP,
    START,
    TABLE_KINDS,
    TURN_STEPS,
    UNDO,
    WHILE_PAUSED,
    WHOLE_TURN,
    Actor,
    ai_due,
    ai_offer,
    ai_to_act,
    ai_work,
    fresh_seed,
    game_of,
    game_state,
    new_table,
    out_of_turn_seats,
    own_name,
    players,
    public_events,
    set_state,
    title,
    to_act_seat,
)
from bot.table_lobby import remove_ai_action, setup_options
from bot.table_moderation import not_running, restore, undo_steps
from bot.table_play import (
    acting_seat,
    ai_decision,
    ai_offer_step,
    ai_step,
    for_seat,
    play_decided,
    play_seat,
    play_turn,
)
from bot.table_record import ACTIVE, OVER, Table
from bot.texts import say

__all__ = [
    "ADD_AI",
    "AI_ACTOR",
    "END",
    "FOR_SEAT",
    "GONE",
    "HOST",
    "JOIN",
    "KICK",
    "LEAVE",
    "PAUSE",
    "PICK",
    "REMOVE_AI",
    "RESUME",
    "SEAT",
    "SEATS_MOVED",
    "SECOND",
    "SEEDED",
    "SEED_BITS",
    "SKIP",
    "START",
    "TABLE_KINDS",
    "TURN_STEPS",
    "UNDO",
    "WHILE_PAUSED",
    "WHOLE_TURN",
    "Action",
    "Actor",
    "Table",
    "acting_seat",
    "ai_decision",
    "ai_due",
    "ai_offer",
    "ai_offer_step",
    "ai_step",
    "ai_to_act",
    "ai_work",
    "apply",
    "for_seat",
    "fresh_seed",
    "game_of",
    "game_state",
    "new_table",
    "not_running",
    "out_of_turn_seats",
    "own_name",
    "play_decided",
    "play_turn",
    "players",
    "public_events",
    "remove_ai_action",
    "restore",
    "set_state",
    "setup_options",
    "title",
    "to_act_seat",
    "undo_steps",
]

Handler = Callable[[Table, Actor, Action], tuple[Table, list[Event]]]


def apply(table: Table, actor: Actor, action: Action) -> tuple[Table, list[Event]]:
    if table.status == OVER:
        raise IllegalAction(say("errors.game_over"))
    if table.paused and action.kind not in WHILE_PAUSED:
        raise IllegalAction(say("errors.paused"))
    table = table.copy()
    handler = _HANDLERS.get(action.kind)
    if handler is not None:
        return handler(table, actor, action)
    return _play(table, actor, action)


def _play(table: Table, actor: Actor, action: Action) -> tuple[Table, list[Event]]:
    if table.status != ACTIVE:
        raise IllegalAction(say("errors.not_started"))
    if FOR_SEAT in action.args:
        seat = _pinned_seat(table, actor, action)
        action = Action(action.kind, {k: v for k, v in action.args.items() if k != FOR_SEAT})
    else:
        seat = _acting_seat(table, actor)
    return play_seat(table, seat, action, actor.public_language)


def _pinned_seat(table: Table, actor: Actor, action: Action) -> int:
    """The seat a seat's own button names: only its holder may press it."""
    seat = action.int_arg(FOR_SEAT)
    mine = table.seats_of(actor.user_id or 0)
    if not mine:
        raise IllegalAction(say("errors.not_seated"))
    if seat not in mine:
        name = table.seats[seat].name if 0 <= seat < len(table.seats) \
            else say("errors.another_player")
        raise IllegalAction(say("errors.not_your_button", name=name))
    return seat


def _acting_seat(table: Table, actor: Actor) -> int:
    seat = acting_seat(table, actor.user_id or 0)
    if seat is None:
        raise IllegalAction(say("errors.not_seated"))
    return seat


# Each table action's handler (an action of no kind here is a game's move, `_play`).
_HANDLERS: dict[str, Handler] = {
    JOIN: lobby.join, LEAVE: lobby.leave, ADD_AI: lobby.add_ai, REMOVE_AI: lobby.remove_ai,
    START: lobby.start, PICK: lobby.pick, SECOND: lobby.second,
    END: moderation.end, GONE: moderation.gone, KICK: moderation.kick, SKIP: moderation.skip,
    PAUSE: moderation.pause, RESUME: moderation.resume, SEAT: moderation.seat,
    HOST: moderation.host,
}
