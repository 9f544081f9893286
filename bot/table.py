"""The rules of the table around any game: the lobby, leaving, moderation, dispatch.

Pure like the engines: `apply` takes a Table and returns a new one plus events, or
raises IllegalAction and leaves the given Table as it was. Games see seats by index;
only this layer knows which Discord user sits where.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, replace
from typing import Any

from bot import games
from bot import moves as recorded
from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.core.events import PUBLIC, Event, to_player, to_team
from bot.core.seats import Seat
from bot.games.base import HOST_SEAT, Game, PlayerInfo
from bot.locales import current, speaking
from bot.table_record import ACTIVE, LOBBY, OVER, UNDO_KEPT, Table
from bot.texts import ai_names, and_list, say

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
    return _play_seat(table.copy(), seat, action, language)


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
        table, played = _play_seat(table, seat, None, language)
        events += played
        if to_act_seat(table) != seat or game.turn_name(game_state(table)) != turn:
            break
    return table, events


def ai_offer_step(table: Table, language: str | None = None) -> tuple[Table, list[Event]]:
    """Let the first AI seat with an out-of-turn offer (`ai_offer`) play it."""
    return play_decided(table, *ai_decision(table, offer=True), language)


# -- lobby ------------------------------------------------------------------------------

def _need_lobby(table: Table) -> None:
    if table.status != LOBBY:
        raise IllegalAction(say("errors.not_lobby"))


def _join(table: Table, actor: Actor, action: Action) -> tuple[Table, list[Event]]:
    _need_lobby(table)
    game = game_of(table)
    if table.seat_of(actor.user_id or 0) is not None:
        raise IllegalAction(say("errors.already_seated"))
    if len(table.seats) >= game.max_players:
        raise IllegalAction(say("errors.table_full", max=game.max_players))
    table.seats.append(Seat(actor.name, actor.user_id))
    return table, [Event(say("lobby.joined", name=actor.name))]


def _pick(table: Table, actor: Actor, action: Action) -> tuple[Table, list[Event]]:
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
        table, events = _join(table, actor, action)
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


def _second(table: Table, actor: Actor, action: Action) -> tuple[Table, list[Event]]:
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


def _add_ai(table: Table, actor: Actor, action: Action) -> tuple[Table, list[Event]]:
    _need_lobby(table)
    if table.seat_of(actor.user_id or 0) is None:
        raise IllegalAction(say("errors.not_seated"))
    game = game_of(table)
    if len(table.seats) >= game.max_players:
        raise IllegalAction(say("errors.table_full", max=game.max_players))
    name = _ai_name(table, len(table.seats) + 1, actor.public_language)
    table.seats.append(Seat(name, None, ai=True))
    return table, [Event(say("lobby.ai_added", name=name))]


def remove_ai_action(table: Table, seat: int) -> Action:
    """The lobby menu's entry that takes this AI seat out: the seat by its place, and
    how many seats the lobby had when the menu was drawn (`_remove_ai`)."""
    return Action(REMOVE_AI, {"seat": seat, "seats": len(table.seats)})


def _remove_ai(table: Table, actor: Actor, action: Action) -> tuple[Table, list[Event]]:
    """Add AI seat's way back, before the start: the host, who starts the game with the
    seats as they are, or a moderator takes one AI seat out. A seat is named by its place
    and the lobby's size when the menu was drawn: once someone left or joined, that place
    may hold another seat, so a menu read before its redraw is refused, not applied."""
    _need_lobby(table)
    if actor.user_id != table.host_id and not actor.moderator:
        raise IllegalAction(say("errors.remove_ai_host", host=_host_name(table)))
    seat = action.int_arg("seat")
    if action.int_arg("seats") != len(table.seats) or not 0 <= seat < len(table.seats):
        raise IllegalAction(say("errors.remove_ai_stale"))
    if not table.seats[seat].ai:
        raise IllegalAction(say("errors.not_ai_seat", seat=seat + 1,
                                name=table.seats[seat].name))
    name = _free_lobby_seat(table, seat)
    return table, [Event(say("lobby.ai_removed", name=name, by=actor.name))]


def _free_lobby_seat(table: Table, seat: int) -> str:
    """Take a seat out of the lobby (the seats after it move up one), and with it the
    game's setup options' hold on its place (`Game.options_without_seat`: a youngest
    named by seat follows its player). Its name, for the line that says so."""
    table.options = game_of(table).options_without_seat(table.options, seat)
    return table.seats.pop(seat).name


def _ai_name(table: Table, number: int, language: str | None = None) -> str:
    """An AI seat's name no seat of the table has (seat `number` if none is left), in
    `language` (the one spoken when None). The name is stored with the seat and every
    language's telling of a step uses it, so it is picked in one language, not in each."""
    with speaking(language or current()):
        taken = {s.name for s in table.seats}
        return next((n for n in ai_names() if n not in taken),
                    say("lobby.ai_seat", number=number))


def _leave(table: Table, actor: Actor, action: Action) -> tuple[Table, list[Event]]:
    mine = table.seats_of(actor.user_id or 0)
    if not mine:
        raise IllegalAction(say("errors.not_seated"))
    if table.status == ACTIVE:
        return _hand_all_to_ai(table, mine, say("moderation.left_game", name=actor.name))
    return _vacate_lobby_seats(table, mine, actor.name)


def _vacate_lobby_seats(table: Table, seats: list[int], name: str) -> tuple[Table, list[Event]]:
    """Free one person's lobby seats (both, for a person playing two explorers) as one
    leaving: the host moves to the next human, or the lobby closes. Seat by seat, a host
    leaving two seats would first be "handed" the host by their own other seat."""
    hosted = any(table.seats[seat].user_id == table.host_id for seat in seats)
    for seat in sorted(seats, reverse=True):  # from the back, so indexes stay valid
        _free_lobby_seat(table, seat)
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


def _hand_all_to_ai(table: Table, seats: list[int], text: str) -> tuple[Table, list[Event]]:
    events: list[Event] = []
    for n, seat in enumerate(seats):
        table, more = _hand_to_ai(table, seat, text if n == 0 else "")
        events.extend(e for e in more if e.text)
    return table, [*events, *_seated_host(table)]


def _seated_host(table: Table) -> list[Event]:
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


def _start(table: Table, actor: Actor, action: Action) -> tuple[Table, list[Event]]:
    _need_lobby(table)
    game = game_of(table)
    if actor.user_id != table.host_id:
        raise IllegalAction(say("errors.host_only", host=_host_name(table)))
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


# -- moderation ---------------------------------------------------------------------------

def _need_moderator(actor: Actor) -> None:
    if not actor.moderator:
        raise IllegalAction(say("errors.mod_only"))


def _need_moderator_in_game(table: Table, actor: Actor) -> None:
    _need_moderator(actor)
    if table.status != ACTIVE:
        raise IllegalAction(say("errors.not_started"))


def _end(table: Table, actor: Actor, action: Action) -> tuple[Table, list[Event]]:
    if actor.user_id != table.host_id and not actor.moderator:
        raise IllegalAction(say("errors.host_or_mod"))
    return table, [_close(table, say("moderation.ended", name=actor.name))]


def _close(table: Table, reason: str) -> Event:
    """End a running game (or a lobby) before its own end, for `reason`: the line the
    table reads, kept as the game's ended reason (its story and replay say it)."""
    table.status = OVER
    table.ended_reason = reason
    return Event(reason, kind="ended")


def _gone(table: Table, actor: Actor, action: Action) -> tuple[Table, list[Event]]:
    """The channel is gone, lobby or game: only the bot (no user) says so."""
    if actor.user_id is not None:
        raise IllegalAction(say("errors.host_or_mod"))
    return table, [_close(table, say("moderation.channel_gone"))]


def _kick(table: Table, actor: Actor, action: Action) -> tuple[Table, list[Event]]:
    _need_moderator(actor)
    target = action.int_arg("user")
    theirs = table.seats_of(target)
    if not theirs:
        raise IllegalAction(say("errors.kick_target", name=f"<@{target}>"))
    if table.status == LOBBY:
        return _vacate_lobby_seats(table, theirs, own_name(table, target))
    text = say("moderation.kicked", target=own_name(table, target), name=actor.name)
    return _hand_all_to_ai(table, theirs, text)


def _skip(table: Table, actor: Actor, action: Action) -> tuple[Table, list[Event]]:
    _need_moderator_in_game(table, actor)
    seat = to_act_seat(table)
    if seat is None:
        raise IllegalAction(say("errors.nothing_to_skip"))
    note = Event(say("moderation.skipped", name=actor.name, target=table.seats[seat].name))
    if action.args.get(WHOLE_TURN):
        table, events = play_turn(table, seat, actor.public_language)
    else:  # logged by an earlier release: one decision
        table, events = _play_seat(table, seat, None, actor.public_language)
    return table, [note, *events]


def _pause(table: Table, actor: Actor, action: Action) -> tuple[Table, list[Event]]:
    """Players' moves, AI turns and (bot/timers.py) turn timers wait while paused."""
    _need_moderator_in_game(table, actor)
    if table.paused:
        raise IllegalAction(say("errors.already_paused"))
    table.paused = True
    return table, [Event(say("moderation.paused", name=actor.name))]


def _resume(table: Table, actor: Actor, action: Action) -> tuple[Table, list[Event]]:
    _need_moderator_in_game(table, actor)
    if not table.paused:
        raise IllegalAction(say("errors.not_paused"))
    table.paused = False
    return table, [Event(say("moderation.resumed", name=actor.name))]


def _seat(table: Table, actor: Actor, action: Action) -> tuple[Table, list[Event]]:
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
    _pass_seat(table, seat, user, name)
    state = hand_over(table, game, state, seat, PlayerInfo(name, False))
    if losing is not None:  # the seat's last holder may be left with one seat
        state = _alone_again(table, game, state, losing, own)
    set_state(table, game, state)
    events = [Event(say("moderation.seat_handed", seat=seat + 1, old=before, new=name,
                        name=actor.name), kind=SEATS_MOVED),
              Event(game.private_view(state, seat), to_player(seat))]
    if seat in team_of:
        events.append(Event(say("moderation.seat_joins_team", new=name), to_team(team_of[seat])))
    return table, [*events, *_seated_host(table)]


def _pass_seat(table: Table, seat: int, user: int, name: str) -> None:
    """The seat is this member's now. Its player's language goes with the player, not
    the seat: the new holder reads its whispers in the language known from their other
    seat (or from this one, taken back from the AI), else English until they are heard
    from (bot/languages.py, `heard`)."""
    held = table.seats[seat]
    known = next((s.language for s in table.seats
                  if s.user_id == user and (not s.ai or s is held) and s.language), None)
    held.user_id, held.name, held.ai, held.language = user, name, False, known


def _host(table: Table, actor: Actor, action: Action) -> tuple[Table, list[Event]]:
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
        raise IllegalAction(say("errors.not_started"))
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
                if now.is_human and now.user_id != was.user_id:
                    handed.append(seat)
        set_state(table, game, state)
    text = say("moderation.undone", name=actor.name, count=steps,
               actions=say("moderation.action_word" if steps == 1 else "moderation.actions_word"),
               summary=summary)
    # A seat that changed hands since then (/gm seat, a split team) holds its secrets as
    # they stood then, which its holder never read: told again, as `_seat` tells them.
    state = game_state(table)
    return table, [Event(text[:1900]),
                   *(Event(game.private_view(state, seat), to_player(seat)) for seat in handed)]


def _hand_to_ai(table: Table, seat: int, text: str) -> tuple[Table, list[Event]]:
    """The seat stays (secrets and score stay with it); the AI plays it from now on."""
    table.seats[seat].ai = True
    events = [Event(text, kind=SEATS_MOVED if table.state is not None else "info")]
    if not any(s.is_human for s in table.seats):
        events.append(_close(table, say("moderation.abandoned")))
    game = game_of(table)
    if table.state is not None:
        state = hand_over(table, game, game_state(table), seat,
                          PlayerInfo(table.seats[seat].name, True))
        set_state(table, game, state)
    return table, events


# -- playing ------------------------------------------------------------------------------

def _play(table: Table, actor: Actor, action: Action) -> tuple[Table, list[Event]]:
    if table.status != ACTIVE:
        raise IllegalAction(say("errors.not_started"))
    if FOR_SEAT in action.args:
        seat = _pinned_seat(table, actor, action)
        action = Action(action.kind, {k: v for k, v in action.args.items() if k != FOR_SEAT})
    else:
        seat = _acting_seat(table, actor)
    return _play_seat(table, seat, action, actor.public_language)


def for_seat(action: Action, seat: int) -> Action:
    """The action as a button for this seat's out-of-turn controls carries it."""
    return Action(action.kind, {**action.args, FOR_SEAT: seat})


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


def _acting_seat(table: Table, actor: Actor) -> int:
    seat = acting_seat(table, actor.user_id or 0)
    if seat is None:
        raise IllegalAction(say("errors.not_seated"))
    return seat


def _play_seat(table: Table, seat: int, action: Action | None,
               language: str | None = None) -> tuple[Table, list[Event]]:
    """`action` (None: the AI's) played for `seat`; a seat it hands to the AI is named in
    `language`, the table's public posts' (None: the language spoken)."""
    game = game_of(table)
    state = game_state(table)
    if action is None:
        action = game.ai_action(state, seat)
    state, events = game.apply(state, seat, action)
    record(table, recorded.action_move(seat, action))
    state, moved = _split_teams(table, game, state, language)
    set_state(table, game, state)
    if game.is_over(state):
        table.status = OVER
    return table, [*(e if e.seat is not None else replace(e, seat=seat) for e in events),
                   *moved]


def _split_teams(table: Table, game: Game[Any], state: Any,
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
                _pass_seat(table, seat, taker or 0, name)
                events.append(Event(say("table.seat_passed", old=old, seat=seat + 1,
                                        new=first), kind=SEATS_MOVED))
            else:
                # The AI's own name: the seat is no longer its player's at all, and under
                # their name the story would count them among the side they left.
                name = _ai_name(table, seat + 1, language)
                held = table.seats[seat]
                held.user_id, held.ai, held.name, held.language = None, True, name, None
                events.append(Event(say("table.seat_to_ai", old=old, seat=seat + 1),
                                    kind=SEATS_MOVED))
            state = hand_over(table, game, state, seat, PlayerInfo(name, table.seats[seat].ai))
        state = _alone_again(table, game, state, user or 0, old)
    return state, events


def own_name(table: Table, user: int) -> str:
    """A player's own name: their seats' shortest (a second seat's is their name and its
    "(2nd)" tag, in the language it was made in), "" for someone without a seat."""
    return min((table.seats[i].name for i in table.seats_of(user)), key=len, default="")


def _alone_again(table: Table, game: Game[Any], state: Any, user: int, own: str) -> Any:
    """A player left with one seat (the split, /gm seat) reads their own name on it again:
    the lobby's "(2nd)" tells two seats of one player apart, and there are not two to
    tell apart now. Renamed through the game too, so its lines, the story and /stats
    name them as the table knows them."""
    mine = table.seats_of(user)
    if len(mine) != 1 or not own or table.seats[mine[0]].name == own:
        return state
    table.seats[mine[0]].name = own
    return hand_over(table, game, state, mine[0], PlayerInfo(own, False))


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


def _host_name(table: Table) -> str:
    for seat in table.seats:
        if seat.user_id == table.host_id:
            return seat.name
    return say("table.the_host")


_HANDLERS = {JOIN: _join, LEAVE: _leave, ADD_AI: _add_ai, REMOVE_AI: _remove_ai, START: _start,
             END: _end, GONE: _gone, KICK: _kick, SKIP: _skip, PICK: _pick, SECOND: _second,
             PAUSE: _pause, RESUME: _resume, SEAT: _seat, HOST: _host}


def public_events(events: list[Event]) -> list[Event]:
    return [e for e in events if e.audience == PUBLIC]
