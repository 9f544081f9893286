"""The moderators' tools (and the host's end): end, kick, skip, pause and resume, a
seat or the host handed on, undo. Each is a table action like a move: it is refused
whole or applied whole, and says in one public line who did what.
"""

from __future__ import annotations

from bot import moves as recorded
from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.core.events import Event, to_player, to_team
from bot.games.base import PlayerInfo
from bot.table_core import (
    SEATS_MOVED,
    WHOLE_TURN,
    Actor,
    close,
    game_of,
    game_state,
    hand_over,
    own_name,
    record,
    set_state,
    title,
    to_act_seat,
)
from bot.table_play import play_seat, play_turn
from bot.table_record import ACTIVE, LOBBY, OVER, UNDO_KEPT, Table
from bot.table_seats import (
    alone_again,
    hand_all_to_ai,
    pass_seat,
    seated_host,
    vacate_lobby_seats,
)
from bot.texts import say


def _need_moderator(actor: Actor) -> None:
    if not actor.moderator:
        raise IllegalAction(say("errors.mod_only"))


def _need_moderator_in_game(table: Table, actor: Actor) -> None:
    _need_moderator(actor)
    if table.status != ACTIVE:
        raise IllegalAction(not_running(table))


def not_running(table: Table) -> str:
    """Why a moderator's tool finds no game running here: a lobby not started yet, or a
    game already over (whose moves stand: nothing is taken back after the end)."""
    return say("errors.game_over" if table.status == OVER else "errors.not_started")


def end(table: Table, actor: Actor, action: Action) -> tuple[Table, list[Event]]:
    if actor.user_id != table.host_id and not actor.moderator:
        raise IllegalAction(say("errors.host_or_mod"))
    return table, [close(table, say("moderation.ended", name=actor.name))]


def gone(table: Table, actor: Actor, action: Action) -> tuple[Table, list[Event]]:
    """The channel is gone, lobby or game: only the bot (no user) says so."""
    if actor.user_id is not None:
        raise IllegalAction(say("errors.host_or_mod"))
    return table, [close(table, say("moderation.channel_gone"))]


def kick(table: Table, actor: Actor, action: Action) -> tuple[Table, list[Event]]:
    _need_moderator(actor)
    target = action.int_arg("user")
    theirs = table.seats_of(target)
    if not theirs:
        raise IllegalAction(say("errors.kick_target", name=f"<@{target}>"))
    if table.status == LOBBY:
        return vacate_lobby_seats(table, theirs, own_name(table, target))
    text = say("moderation.kicked", target=own_name(table, target), name=actor.name)
    return hand_all_to_ai(table, theirs, text)


def skip(table: Table, actor: Actor, action: Action) -> tuple[Table, list[Event]]:
    _need_moderator_in_game(table, actor)
    seat = to_act_seat(table)
    if seat is None:
        raise IllegalAction(say("errors.nothing_to_skip"))
    note = Event(say("moderation.skipped", name=actor.name, target=table.seats[seat].name))
    if action.args.get(WHOLE_TURN):
        table, events = play_turn(table, seat, actor.public_language)
    else:  # logged by an earlier release: one decision
        table, events = play_seat(table, seat, None, actor.public_language)
    return table, [note, *events]


def pause(table: Table, actor: Actor, action: Action) -> tuple[Table, list[Event]]:
    """Players' moves, AI turns and (bot/timers.py) turn timers wait while paused."""
    _need_moderator_in_game(table, actor)
    if table.paused:
        raise IllegalAction(say("errors.already_paused"))
    table.paused = True
    return table, [Event(say("moderation.paused", name=actor.name))]


def resume(table: Table, actor: Actor, action: Action) -> tuple[Table, list[Event]]:
    _need_moderator_in_game(table, actor)
    if not table.paused:
        raise IllegalAction(say("errors.not_paused"))
    table.paused = False
    return table, [Event(say("moderation.resumed", name=actor.name))]


def seat(table: Table, actor: Actor, action: Action) -> tuple[Table, list[Event]]:
    """Hand a seat (the AI's, or an absent player's) to another member. The seat keeps
    its character and secrets; the new holder reads them at once (a private event to
    the seat) and joins its team's thread (a team line), both through the delivery."""
    _need_moderator_in_game(table, actor)
    seat, user = action.int_arg("seat"), action.int_arg("user")
    name = str(action.args.get("name", ""))[:80] or f"<@{user}>"
    if not 0 <= seat < len(table.seats):
        raise IllegalAction(say("errors.no_such_seat", seat=seat + 1, count=len(table.seats)))
    old = table.seats[seat]
    if old.user_id == user and not old.ai:
        raise IllegalAction(say("errors.seat_theirs", name=name, seat=seat + 1))
    game, state = game_of(table), game_state(table)
    held = table.seats_of(user)
    if len(held) >= game.seats_per_player:
        raise IllegalAction(say("errors.seats_per_player", game=title(table),
                                most=game.seats_per_player))
    team_of = {s: team for team, seats in game.teams(state).items() for s in seats}
    if any(team_of.get(s, team_of.get(seat)) != team_of.get(seat) for s in held):
        raise IllegalAction(say("errors.seat_two_teams", name=name))
    before = say("moderation.seat_ai") if old.ai else old.name
    if held:  # their second seat, named as the lobby names one
        name = say("lobby.second_name", name=table.seats[held[0]].name)
    losing = None if old.ai or old.user_id is None else old.user_id
    own = own_name(table, losing) if losing is not None else ""
    pass_seat(table, seat, user, name)
    state = hand_over(table, game, state, seat, PlayerInfo(name, False))
    if losing is not None:  # the seat's last holder may be left with one seat
        state = alone_again(table, game, state, losing, own)
    set_state(table, game, state)
    events = [Event(say("moderation.seat_handed", seat=seat + 1, old=before, new=name,
                        name=actor.name), kind=SEATS_MOVED),
              Event(game.private_view(state, seat), to_player(seat))]
    if seat in team_of:
        events.append(Event(say("moderation.seat_joins_team", new=name), to_team(team_of[seat])))
    return table, [*events, *seated_host(table)]


def host(table: Table, actor: Actor, action: Action) -> tuple[Table, list[Event]]:
    """The host starts the game from the lobby and may end it: a seated human."""
    _need_moderator(actor)
    user = action.int_arg("user")
    mine = table.seats_of(user)
    if not mine:
        raise IllegalAction(say("errors.host_target", name=f"<@{user}>"))
    if user == table.host_id:
        raise IllegalAction(say("errors.host_already", name=own_name(table, user)))
    table.host_id = user
    return table, [Event(say("moderation.host", new=own_name(table, user), name=actor.name))]


def undo_steps(steps: object) -> int:
    """How many moves an undo takes back: 1 to UNDO_KEPT (the points the store keeps),
    else a refusal. Checked in the cog and again in the sessions: a stale command
    registration (or any other caller) may send 0, a negative or a huge number."""
    if isinstance(steps, bool) or not isinstance(steps, int) or not 1 <= steps <= UNDO_KEPT:
        raise IllegalAction(say("errors.undo_steps", most=UNDO_KEPT))
    return steps


def restore(current: Table, past: Table, actor: Actor, steps: int,
            summary: str) -> tuple[Table, list[Event]]:
    """`current` taken back to `past` (the envelope kept before an action): the game,
    its state and its seeded RNG as they were, so a move played again draws the same
    card. Who holds each seat, the host and the pause stay as they are now: those are
    the moderators' choices, not moves. The store gives the result a new version."""
    _need_moderator(actor)
    if current.status != ACTIVE or past.state is None:
        raise IllegalAction(not_running(current))
    table = current.copy()
    table.state, table.options, table.memo = past.state, dict(past.options), None
    table.status, table.ended_reason = ACTIVE, past.ended_reason
    game = game_of(table)
    record(table, recorded.restore_move(past.version))
    handed: list[int] = []
    if len(past.seats) == len(current.seats):
        state = game_state(table)
        for seat, (was, now) in enumerate(zip(past.seats, current.seats, strict=True)):
            if (was.user_id, was.name, was.ai) != (now.user_id, now.name, now.ai):
                state = hand_over(table, game, state, seat, PlayerInfo(now.name, now.ai))
                # The AI's seat keeps its last player's id: handed back to them, it
                # changed hands all the same.
                if now.is_human and (now.user_id != was.user_id or was.ai):
                    handed.append(seat)
        set_state(table, game, state)
    text = say("moderation.undone", name=actor.name, count=steps,
               actions=say("moderation.action_word" if steps == 1 else "moderation.actions_word"),
               summary=summary)
    # A seat that changed hands since then (/gm seat, a split team) holds its secrets as
    # they stood then, which its holder never read: told again, as `seat` tells them.
    state = game_state(table)
    return table, [Event(text[:1900]),
                   *(Event(game.private_view(state, seat), to_player(seat)) for seat in handed)]
