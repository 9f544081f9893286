"""The lobby before a game starts: joining, lobby picks, a second seat, AI seats,
leaving, and the start.
"""

from __future__ import annotations

from typing import Any

from bot import moves as recorded
from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.core.events import Event
from bot.core.seats import Seat
from bot.games.base import HOST_SEAT
from bot.table_core import (
    REMOVE_AI,
    Actor,
    ai_name,
    game_of,
    host_name,
    own_name,
    players,
    record,
    set_state,
    title,
)
from bot.table_record import ACTIVE, LOBBY, Table
from bot.table_seats import free_lobby_seat, hand_all_to_ai, vacate_lobby_seats
from bot.texts import and_list, say


def _need_lobby(table: Table) -> None:
    if table.status != LOBBY:
        raise IllegalAction(say("errors.not_lobby"))


def join(table: Table, actor: Actor, action: Action) -> tuple[Table, list[Event]]:
    _need_lobby(table)
    game = game_of(table)
    if table.seat_of(actor.user_id or 0) is not None:
        raise IllegalAction(say("errors.already_seated"))
    if len(table.seats) >= game.max_players:
        raise IllegalAction(say("errors.table_full", max=game.max_players))
    table.seats.append(Seat(actor.name, actor.user_id))
    return table, [Event(say("lobby.joined", name=actor.name))]


def pick(table: Table, actor: Actor, action: Action) -> tuple[Table, list[Event]]:
    """A lobby choice such as the explorer; picking also takes a seat if needed."""
    _need_lobby(table)
    game = game_of(table)
    name, value = str(action.args.get("name", "")), str(action.args.get("value", ""))
    offered = dict(game.seat_choices().get(name, []))
    if not offered:
        raise IllegalAction(say("errors.no_such_pick", game=title(table), name=name[:30]))
    if value not in offered:
        raise IllegalAction(say("errors.bad_pick", name=game.option_label(name),
                                value=value[:40]))
    events: list[Event] = []
    mine = table.seats_of(actor.user_id or 0)
    if not mine:
        table, events = join(table, actor, action)
        mine = [len(table.seats) - 1]
    # With two seats, a pick fills the first seat still without one, else the first.
    seat = next((i for i in mine if name not in table.seats[i].picks), mine[0])
    game.check_pick([s.picks for s in table.seats], seat, name, value)
    table.seats[seat].picks[name] = value
    events.append(Event(say("lobby.picked", name=actor.name, label=offered[value])))
    return table, events


def setup_options(table: Table) -> dict[str, Any]:
    """The table's options plus every seat's lobby picks, as the game's setup reads them,
    and the host's seat (HOST_SEAT), for rules whose choice defaults to the host."""
    options = dict(table.options)
    for name in game_of(table).seat_choices():
        options[f"{name}s"] = [seat.picks.get(name) for seat in table.seats]
    host = table.seat_of(table.host_id)
    if host is not None:
        options[HOST_SEAT] = host
    return options


def second(table: Table, actor: Actor, action: Action) -> tuple[Table, list[Event]]:
    """A second seat for the same person, in games that allow it (RULES.md; the game's
    seats_per_player)."""
    _need_lobby(table)
    game = game_of(table)
    mine = table.seats_of(actor.user_id or 0)
    if not mine:
        raise IllegalAction(say("errors.not_seated"))
    if len(mine) >= game.seats_per_player:
        raise IllegalAction(say("errors.seats_per_player", game=title(table),
                                most=game.seats_per_player))
    if len(table.seats) >= game.max_players:
        raise IllegalAction(say("errors.table_full", max=game.max_players))
    table.seats.append(Seat(say("lobby.second_name", name=actor.name), actor.user_id))
    return table, [Event(say("lobby.second_seat", name=actor.name))]


def add_ai(table: Table, actor: Actor, action: Action) -> tuple[Table, list[Event]]:
    _need_lobby(table)
    if table.seat_of(actor.user_id or 0) is None:
        raise IllegalAction(say("errors.not_seated"))
    game = game_of(table)
    if len(table.seats) >= game.max_players:
        raise IllegalAction(say("errors.table_full", max=game.max_players))
    name = ai_name(table, len(table.seats) + 1, actor.public_language)
    table.seats.append(Seat(name, None, ai=True))
    return table, [Event(say("lobby.ai_added", name=name))]


def remove_ai_action(table: Table, seat: int) -> Action:
    """The lobby menu's entry that takes this AI seat out: the seat by its place, and
    how many seats the lobby had when the menu was drawn (`remove_ai`)."""
    return Action(REMOVE_AI, {"seat": seat, "seats": len(table.seats)})


def remove_ai(table: Table, actor: Actor, action: Action) -> tuple[Table, list[Event]]:
    """Add AI seat's way back, before the start: the host, who starts the game with the
    seats as they are, or a moderator takes one AI seat out. A seat is named by its place
    and the lobby's size when the menu was drawn: once someone left or joined, that place
    may hold another seat, so a menu read before its redraw is refused, not applied."""
    _need_lobby(table)
    if actor.user_id != table.host_id and not actor.moderator:
        raise IllegalAction(say("errors.remove_ai_host", host=host_name(table)))
    seat = action.int_arg("seat")
    if action.int_arg("seats") != len(table.seats) or not 0 <= seat < len(table.seats):
        raise IllegalAction(say("errors.remove_ai_stale"))
    if not table.seats[seat].ai:
        raise IllegalAction(say("errors.not_ai_seat", seat=seat + 1,
                                name=table.seats[seat].name))
    name = free_lobby_seat(table, seat)
    return table, [Event(say("lobby.ai_removed", name=name, by=actor.name))]


def leave(table: Table, actor: Actor, action: Action) -> tuple[Table, list[Event]]:
    mine = table.seats_of(actor.user_id or 0)
    if not mine:
        raise IllegalAction(say("errors.not_seated"))
    if table.status == ACTIVE:
        return hand_all_to_ai(table, mine, say("moderation.left_game", name=actor.name))
    return vacate_lobby_seats(table, mine, actor.name)


def start(table: Table, actor: Actor, action: Action) -> tuple[Table, list[Event]]:
    _need_lobby(table)
    game = game_of(table)
    if actor.user_id != table.host_id:
        raise IllegalAction(say("errors.host_only", host=host_name(table)))
    if len(table.seats) < game.min_players:
        raise IllegalAction(say("errors.too_few", game=title(table), min=game.min_players,
                                count=len(table.seats)))
    options = setup_options(table)
    state, events = game.setup(players(table), table.seed, options)
    record(table, recorded.setup_move(players(table), table.seed, options))
    set_state(table, game, state)
    table.status = ACTIVE
    # Each player once, by their own name (two explorers are one player), then the AI
    # seats, in the language's own way of listing.
    names = and_list(list(dict.fromkeys(
        s.name if s.ai or s.user_id is None else own_name(table, s.user_id)
        for s in table.seats)))
    return table, [Event(say("lobby.started", game=title(table), players=names)), *events]
