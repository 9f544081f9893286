"""Who holds each seat, as players leave, are kicked or handed a seat and as a game
splits into teams: the seat keeps its character and secrets, only its holder changes
(a person, or the AI).
"""

from __future__ import annotations

from typing import Any

from bot.core.events import Event
from bot.games.base import Game, PlayerInfo
from bot.table_core import (
    SEATS_MOVED,
    ai_name,
    close,
    game_of,
    game_state,
    hand_over,
    own_name,
    set_state,
)
from bot.table_record import ACTIVE, OVER, Table
from bot.texts import say


def pass_seat(table: Table, seat: int, user: int, name: str) -> None:
    """The seat is this member's now. Its player's language goes with the player, not
    the seat: the new holder reads its whispers in the language known from their other
    seat (or from this one, taken back from the AI), else English until they are heard
    from (bot/languages.py, `heard`)."""
    held = table.seats[seat]
    known = next((s.language for s in table.seats
                  if s.user_id == user and (not s.ai or s is held) and s.language), None)
    held.user_id, held.name, held.ai, held.language = user, name, False, known


def alone_again(table: Table, game: Game[Any], state: Any, user: int, own: str) -> Any:
    """A player left with one seat (the split, /gm seat) reads their own name on it again:
    the lobby's "(2nd)" tells two seats of one player apart, and there are not two to
    tell apart now. Renamed through the game too, so its lines, the story and /stats
    name them as the table knows them."""
    mine = table.seats_of(user)
    if len(mine) != 1 or not own or table.seats[mine[0]].name == own:
        return state
    table.seats[mine[0]].name = own
    return hand_over(table, game, state, mine[0], PlayerInfo(own, False))


def split_teams(table: Table, game: Game[Any], state: Any,
                 language: str | None) -> tuple[Any, list[Event]]:
    """No one may hold seats on two teams (they would read both secret books). Seed
    003's way, when one person plays two explorers and one turns traitor: the other
    seat goes to a player of its own team who holds the fewest seats (and may take one
    more), else to the AI, named in `language` as an AI seat added in the lobby is. The
    seat on the smaller team (the traitor's) stays."""
    teams = game.teams(state)
    if len(teams) < 2:
        return state, []
    team_of = {seat: name for name, seats in teams.items() for seat in seats}
    events: list[Event] = []
    for user in dict.fromkeys(s.user_id for s in table.seats if s.is_human):
        mine = [i for i in table.seats_of(user or 0) if i in team_of]
        if len({team_of[i] for i in mine}) < 2:
            continue
        keep = min({team_of[i] for i in mine}, key=lambda name: (len(teams[name]), name))
        old = own_name(table, user or 0)
        for seat in [i for i in mine if team_of[i] != keep]:
            takers = sorted(
                {table.seats[s].user_id for s in teams[team_of[seat]]
                 if table.seats[s].is_human and table.seats[s].user_id != user
                 and len(table.seats_of(table.seats[s].user_id or 0)) < game.seats_per_player},
                key=lambda u: (len(table.seats_of(u or 0)), table.seats_of(u or 0)[0]))
            if takers:
                taker = takers[0]
                first = table.seats[table.seats_of(taker or 0)[0]].name
                name = say("lobby.second_name", name=first)
                pass_seat(table, seat, taker or 0, name)
                events.append(Event(say("table.seat_passed", old=old, seat=seat + 1,
                                        new=first), kind=SEATS_MOVED))
            else:
                # The AI's own name: the seat is no longer its player's at all, and under
                # their name the story would count them among the side they left.
                name = ai_name(table, seat + 1, language)
                held = table.seats[seat]
                held.user_id, held.ai, held.name, held.language = None, True, name, None
                events.append(Event(say("table.seat_to_ai", old=old, seat=seat + 1),
                                    kind=SEATS_MOVED))
            state = hand_over(table, game, state, seat, PlayerInfo(name, table.seats[seat].ai))
        state = alone_again(table, game, state, user or 0, old)
    return state, events


def hand_to_ai(table: Table, seat: int, text: str) -> tuple[Table, list[Event]]:
    """The seat stays (secrets and score stay with it); the AI plays it from now on."""
    table.seats[seat].ai = True
    events = [Event(text, kind=SEATS_MOVED if table.state is not None else "info")]
    if not any(s.is_human for s in table.seats):
        events.append(close(table, say("moderation.abandoned")))
    game = game_of(table)
    if table.state is not None:
        state = hand_over(table, game, game_state(table), seat,
                          PlayerInfo(table.seats[seat].name, True))
        set_state(table, game, state)
    return table, events


def hand_all_to_ai(table: Table, seats: list[int], text: str) -> tuple[Table, list[Event]]:
    events: list[Event] = []
    for n, seat in enumerate(seats):
        table, more = hand_to_ai(table, seat, text if n == 0 else "")
        events.extend(e for e in more if e.text)
    return table, [*events, *seated_host(table)]


def seated_host(table: Table) -> list[Event]:
    """A running game's host plays in it: when the host's last seat goes (left, kicked,
    handed on), the first human seat's holder is the host, as in the lobby. Otherwise
    someone who no longer plays could still end everyone else's game (/game end)."""
    if table.status != ACTIVE or table.seat_of(table.host_id) is not None:
        return []
    human = next((s for s in table.seats if s.is_human), None)
    if human is None:
        return []
    table.host_id = human.user_id or 0
    return [Event(say("lobby.host_moved", name=own_name(table, table.host_id)))]


def free_lobby_seat(table: Table, seat: int) -> str:
    """Take a seat out of the lobby (the seats after it move up one), and with it the
    game's setup options' hold on its place (`Game.options_without_seat`: a youngest
    named by seat follows its player). Its name, for the line that says so."""
    table.options = game_of(table).options_without_seat(table.options, seat)
    return table.seats.pop(seat).name


def vacate_lobby_seats(table: Table, seats: list[int], name: str) -> tuple[Table, list[Event]]:
    """Free one person's lobby seats (both, for a person playing two explorers) as one
    leaving: the host moves to the next human, or the lobby closes. Seat by seat, a host
    leaving two seats would first be "handed" the host by their own other seat."""
    hosted = any(table.seats[seat].user_id == table.host_id for seat in seats)
    for seat in sorted(seats, reverse=True):  # from the back, so indexes stay valid
        free_lobby_seat(table, seat)
    events = [Event(say("lobby.left", name=name))]
    humans = [s for s in table.seats if s.is_human]
    if not humans:
        table.status = OVER
        table.ended_reason = say("lobby.closed")
        events.append(Event(table.ended_reason))
    elif hosted:
        table.host_id = humans[0].user_id or 0
        events.append(Event(say("lobby.host_moved", name=humans[0].name)))
    return table, events
