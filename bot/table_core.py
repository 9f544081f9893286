"""What every part of the table's rules reads: the kinds of table action, who acts
(`Actor`), the table's game and its decoded state, who is to act, and the record of
the moves asked of the engine. The lobby, the seats, play and moderation
(bot/table_*.py) build on it; bot/table.py is the door that takes an action to them.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from bot import games
from bot import moves as recorded
from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.core.events import PUBLIC, Event
from bot.core.seats import Seat
from bot.games.base import Game, PlayerInfo
from bot.locales import current, speaking
from bot.table_record import ACTIVE, OVER, Table
from bot.texts import ai_names, say

JOIN = "lobby.join"
LEAVE = "lobby.leave"
ADD_AI = "lobby.ai"
REMOVE_AI = "lobby.remove_ai"
START = "lobby.start"
END = "table.end"
KICK = "gm.kick"
SKIP = "gm.skip"
PICK = "lobby.pick"
SECOND = "lobby.second"
PAUSE = "gm.pause"
RESUME = "gm.resume"
SEAT = "gm.seat"
HOST = "gm.host"
UNDO = "gm.undo"  # the sessions restore an earlier envelope (`restore`); no _HANDLERS entry
# The game's channel was deleted: the bot itself closes the game (Sessions.channel_gone),
# since nothing can be shown there again. No user may play it.
GONE = "table.gone"
TABLE_KINDS = frozenset({JOIN, LEAVE, ADD_AI, REMOVE_AI, START, END, KICK, SKIP, PICK, SECOND,
                         PAUSE, RESUME, SEAT, HOST, UNDO, GONE})
# What a paused table still takes: the moderators' own tools that play no move.
WHILE_PAUSED = frozenset({END, KICK, PAUSE, RESUME, SEAT, HOST, UNDO, LEAVE, GONE})
# A button for one seat's out-of-turn action names that seat in this argument, which the
# table takes off before the game sees the action (no game's actions use the name).
FOR_SEAT = "for_seat"
# An event's kind: a seat of the running game passed to someone else (a kick, a leave,
# /gm seat, a split team). Its delivery then makes each team thread's members the team's
# holders again (bot/delivery.py, Plan.members): the one who left is taken out. A kind,
# not data: the store keeps each event's kind, so a delivery redone after a crash sees it.
SEATS_MOVED = "seats_moved"
# A table option: a moderator chose the seed (cogs/lobby.py); the lobby says so.
SEEDED = "seeded"
# The bits of a seed no one chose (`fresh_seed`). The seed fixes every shuffle and die,
# and a game's public opening (where the pieces stand, who starts) tells seeds apart:
# with 32 bits, trying every seed against a hidden-identity game's opening took 23 s
# of C and found the one dealt, and every secret of the deal with it. 2**63 seeds
# cannot be tried. (63, not 64: a seed stays a signed 64-bit integer wherever it is kept.)
SEED_BITS = 63
# The most decisions the AI plays for one seat's turn (`play_turn`): a bound, so a game
# whose AI never ends a turn cannot hold the table; no turn of ours comes near it.
TURN_STEPS = 200
# A skip's or a timer's argument: the AI plays the seat's whole turn (`play_turn`). A
# logged action without it (recorded by an earlier release) played one decision, and
# replays so (bot/replay.py).
WHOLE_TURN = "whole"


def fresh_seed() -> int:
    """A seed for a game whose seed no one chose: unguessable from what the table shows."""
    return secrets.randbits(SEED_BITS)


@dataclass(frozen=True)
class Actor:
    """Who is acting: a Discord user (or the AI, user_id None) and their standing."""

    user_id: int | None
    name: str
    moderator: bool = False
    # The languages the interaction reported (bot/locales: "en", "zh-TW"; None: not
    # known): the user's own, kept on their seats, and the server's preferred one, the
    # table's default (bot/languages.py's `heard`).
    language: str | None = None
    guild_language: str | None = None
    # The language of the table's public posts as the sessions layer reads it (the
    # server's /gm settings language, else its preferred locale; bot/languages.py's
    # `server_language`): an AI seat added is named in it, as the players read the
    # seats. None: not known (the language being spoken).
    public_language: str | None = None


AI_ACTOR = Actor(None, "AI")


def new_table(kind: str, channel_id: int, guild_id: int | None, host: Actor, seed: int,
              options: dict[str, Any] | None = None) -> tuple[Table, list[Event]]:
    games.get(kind)  # unknown kinds fail here, before anything is stored
    table = Table(channel_id=channel_id, guild_id=guild_id, kind=kind,
                  host_id=host.user_id or 0, seed=seed, options=dict(options or {}),
                  seats=[Seat(host.name, host.user_id)])
    return table, [Event(say("lobby.joined", name=host.name))]


def players(table: Table) -> list[PlayerInfo]:
    return [PlayerInfo(s.name, s.ai) for s in table.seats]


def game_of(table: Table) -> Game[Any]:
    return games.get(table.kind)


def title(table: Table) -> str:
    """The game's name as this table plays it: its edition's where its setup picked one
    (Game.title_of), in the language spoken."""
    game = game_of(table)
    return game.title_of(game.edition_of(table.options))


def game_state(table: Table) -> Any:
    """The table's game state, decoded once per table and state (prompts, teams and the
    board all read it after an action; the engines never mutate a state they are given)."""
    raw = table.state
    if raw is None:
        raise IllegalAction(say("errors.not_started"))
    if table.memo is not None and table.memo[0] is raw:
        return table.memo[1]
    state = game_of(table).load(raw)
    table.memo = (raw, state)
    return state


def set_state(table: Table, game: Game[Any], state: Any) -> None:
    """Store the engine's new state on the table, remembering it decoded."""
    table.state = game.dump(state)
    table.memo = (table.state, state)


def to_act_seat(table: Table) -> int | None:
    if table.status != ACTIVE or table.state is None:
        return None
    return game_of(table).to_act(game_state(table))


def ai_to_act(table: Table) -> bool:
    if table.paused:  # a paused table holds the AI chain until /gm resume
        return False
    seat = to_act_seat(table)
    return seat is not None and table.seats[seat].ai


def out_of_turn_seats(table: Table) -> list[int]:
    """The seats that may act now besides the one to act (the game's `out_of_turn`)."""
    waiting = to_act_seat(table)
    if waiting is None:
        return []
    return [s for s in dict.fromkeys(game_of(table).out_of_turn(game_state(table)))
            if s != waiting and 0 <= s < len(table.seats)]


def ai_offer(table: Table) -> tuple[int, Action] | None:
    """The first AI seat, in seat order, with an out-of-turn action to take now."""
    if table.paused:
        return None
    seats = [s for s in out_of_turn_seats(table) if table.seats[s].ai]
    if not seats:
        return None
    game, state = game_of(table), game_state(table)
    for seat in seats:
        action = game.ai_offer(state, seat)
        if action is not None:
            return seat, action
    return None


def ai_due(table: Table) -> bool:
    """An AI seat has something to do: the turn, or an out-of-turn offer."""
    return ai_to_act(table) or ai_offer(table) is not None


def ai_work(table: Table) -> tuple[bool, bool]:
    """(an AI seat is to act, an AI seat has an out-of-turn offer now)."""
    if table.status != ACTIVE:
        return False, False
    return ai_to_act(table), ai_offer(table) is not None


def record(table: Table, move: recorded.Move) -> None:
    """One step asked of the engine, among the table's moves (bot/moves.py)."""
    if table.moves is None:
        table.moves = []
    table.moves.append(move)


def hand_over(table: Table, game: Game[Any], state: Any, seat: int, info: PlayerInfo) -> Any:
    """`Game.set_player`, recorded among the table's moves (a replay hands the seat over
    at the same moment)."""
    state = game.set_player(state, seat, info)
    record(table, recorded.player_move(seat, info))
    return state


def own_name(table: Table, user: int) -> str:
    """A player's own name: their seats' shortest (a second seat's is their name and its
    "(2nd)" tag, in the language it was made in), "" for someone without a seat."""
    return min((table.seats[i].name for i in table.seats_of(user)), key=len, default="")


def host_name(table: Table) -> str:
    for seat in table.seats:
        if seat.user_id == table.host_id:
            return seat.name
    return say("table.the_host")


def ai_name(table: Table, number: int, language: str | None = None) -> str:
    """An AI seat's name no seat of the table has (seat `number` if none is left), in
    `language` (the one spoken when None). The name is stored with the seat and every
    language's telling of a step uses it, so it is picked in one language, not in each."""
    with speaking(language or current()):
        taken = {s.name for s in table.seats}
        return next((n for n in ai_names() if n not in taken),
                    say("lobby.ai_seat", number=number))


def close(table: Table, reason: str) -> Event:
    """End a running game (or a lobby) before its own end, for `reason`: the line the
    table reads, kept as the game's ended reason (its story and replay say it)."""
    table.status = OVER
    table.ended_reason = reason
    return Event(reason, kind="ended")


def public_events(events: list[Event]) -> list[Event]:
    return [e for e in events if e.audience == PUBLIC]
