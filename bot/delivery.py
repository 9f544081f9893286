"""What a delivery sends, worked out before any of it is sent.

The sessions layer saves an action, then delivers what it owes: private lines to their
users, team lines to their teams, one public post with the board and the next prompt.
This module holds that vocabulary (Prompt, Post, the Outlet that sends) and `plan`, the
pure part: from a table and its owed events, who gets which line, the board, and the
options of whoever is to act. It runs in a worker thread (the render and the legal
options are the heavy part). Every delivery and private line has a key, stable across a
crash, that the outlet turns into Discord nonces so a delivery sent again shows once.

A private or team document (a side's secret book) waits for the public post: the post
says what brings it (the sides just formed), so the book must not arrive first. `plan`
leaves those out; `late` names them, to be sent after the post.

Each line goes out in its reader's language (bot/languages.py): the public post, the
board, its alt text, the prompt's labels and a team's thread in the server's
(`plan(..., language=)`, made under `speaking(language)`); a whisper in its player's
own (`Seat.language`). An event carries its texts in each language the table needed
when it was played (`Event.text_in`, English where it was not said in one).

A server may want every public line in the game's play-by-play thread too (its setting,
which the sessions layer reads): the post says so (`Post.play_by_play`), and the outlet
keeps that thread beside the teams' ones, under a key no team can have (`PLAY_BY_PLAY`).
"""

from __future__ import annotations

import hashlib
import logging
import time
from dataclasses import dataclass, field, replace
from typing import Protocol, runtime_checkable

from bot import table as table_rules
from bot.core.actions import Option
from bot.core.events import Event
from bot.headlines import is_headline
from bot.live_record import LiveMessage
from bot.locales import ENGLISH, speaking
from bot.table_record import Table
from renderers import board

log = logging.getLogger(__name__)

DOCUMENT_KINDS = frozenset({"book"})  # public events too long and too whole to shorten
TURN_KIND = "turn"  # the event that opens a turn, in every game (its line names the turn)
# The store keeps each team's thread by the team's name, and the game's play-by-play
# thread by this: a game team of this name would share it, so `_teams` drops one.
PLAY_BY_PLAY = "#play-by-play"

Sequenced = list[tuple[int, Event]]  # events with their place in the game's log


@dataclass(frozen=True)
class Prompt:
    """Who the game waits for and what they may do, pinned to the table version."""

    seat: int
    user_id: int | None
    name: str
    options: list[Option]
    version: int
    private: bool = False  # the game hides this turn: the options go to the player's DMs
    # Every other human seat that may act now (the game's out_of_turn), each with exactly
    # its out-of-turn options, pinned to its seat (table_rules.for_seat) and this version.
    others: tuple[Prompt, ...] = ()


@dataclass
class Post:
    """One channel message: what the table saw, the board, and the next prompt."""

    lines: list[str]
    image: bytes | None = None
    prompt: Prompt | None = None
    dm_failed: list[int] = field(default_factory=list)
    # Long public texts sent whole, each as its own message(s) after the post (a haunt's
    # books read out at the end); the post's own lines may be shortened, these never.
    documents: list[str] = field(default_factory=list)
    # Names this delivery (game and last event): sent again after a crash, the same
    # key lets the outlet send the same message ids (nonces) so nothing shows twice.
    key: str = ""
    # The game's chapter and turn after this delivery (Game.chapter, Game.turn_name): the
    # live message is edited in place within a chapter and gathers one turn's lines.
    chapter: str | None = None
    turn: str | None = None
    # The log position (seq) of each of `lines`' events, in order: the live message
    # remembers the last one it showed (bot/live_message.py). Empty: not known.
    seqs: list[int] = field(default_factory=list)
    # The board's alt text: what it shows, in words, for players using a screen reader.
    alt: str = ""
    # For each of `lines`, whether the live message shows it (bot/headlines.py); the
    # others are detail, kept for `/game log`. Empty: every line is a headline.
    headlines: list[bool] = field(default_factory=list)
    # For each of `lines`, whether the live message shows it whole and always (a
    # rumble's score: Game.whole_kinds), whatever room its few lines leave.
    whole: list[bool] = field(default_factory=list)
    # For each of `lines`, whether its event opens a turn (TURN_KIND): where a reader of
    # every line sees the turn change.
    turns: list[bool] = field(default_factory=list)
    # The server wants every one of `lines` in the game's play-by-play thread as well
    # (GuildSettings.play_by_play, read by the sessions layer for this delivery).
    play_by_play: bool = False
    # A private turn's prompt in its player's own language, for the buttons sent to their
    # DMs (`prompt` is the server's); None: the same language, `prompt` serves.
    own_prompt: Prompt | None = None
    # `board_hash(image)`, worked out with the plan off the event loop (0.03 ms of a 50 KB
    # board); empty: not worked out, the live message does it.
    image_hash: str = ""


def board_hash(image: bytes | None) -> str:
    """What the live message remembers of the board it shows: the next delivery sends
    no board equal to it. SHA-256, which OpenSSL computes with the CPU's SHA
    instructions where it has them (today's x86 and ARM servers): 0.03 ms for a 50 KB
    board where BLAKE2s took 0.09 ms, on every action. (A live message stored with a
    BLAKE2s digest differs once: its next board is sent.)"""
    return hashlib.sha256(image).hexdigest() if image is not None else ""


class DeliveryFailed(Exception):
    """Discord refused a delivery for now (a 5xx, a rate limit discord.py could not wait
    out): worth another try, and told in one log line, not a traceback. `shown`: the
    live message showed the post already, and only what follows it failed (the next
    player's ping, a document, the play-by-play thread): the player is not told the
    board failed when it did not."""

    def __init__(self, message: str, *, shown: bool = False) -> None:
        super().__init__(message)
        self.shown = shown


class Outlet(Protocol):
    async def publish(self, table: Table, post: Post) -> LiveMessage | None:
        """Show a public post in the table's channel. Raises when it could not be
        delivered and is worth another try; the events then stay owed. Returns the
        game's live message as the post left it, which the courier stores with the
        delivery's mark in one write (None: nothing to store)."""

    async def whisper(self, table: Table, user_id: int, text: str, *, key: str = "") -> bool:
        """Deliver a private line to one user; False when it could not be delivered."""

    async def team(self, table: Table, team: str, user_ids: list[int], text: str, *,
                   key: str = "") -> list[int]:
        """Deliver one message to a team's users only; returns those it could not reach."""

    async def remind(self, table: Table, user_id: int, text: str, *, key: str = "") -> None:
        """A turn timer's reminder: a short channel message that pings only this player
        (with a link to the game's live message, where the turn's controls are). `key`
        (`timer_key`): sent again under it, it shows once."""


# Why a thread refuses the bot's posts when no permission of its would mend it
# (PostRefused.cause): the bot was taken out of the private thread (Discord: "You must be
# invited to the thread to be able to view or participate in it"), or a moderator locked
# the thread (no posts there without Manage Threads). Their remedy is another: add the
# bot back, unlock the thread.
NOT_IN_THREAD = "not_in_thread"
THREAD_LOCKED = "thread_locked"


class PostRefused(Exception):
    """Discord refused the game's channel post for want of the bot's permissions there
    (403): not a failure another try at once would mend, and not one to drop either.
    The delivery stays owed and goes out once the permission is back (the 30 s retry, or
    the next click); the player who acted is told what is missing (`missing`, Discord's
    permission names; empty when unknown), or, when a thread refuses for a cause no
    permission mends, that cause (`cause`: NOT_IN_THREAD, THREAD_LOCKED; "" otherwise)."""

    def __init__(self, missing: list[str], cause: str = "") -> None:
        super().__init__(cause or ", ".join(missing) or "permissions")
        self.missing = missing
        self.cause = cause


@runtime_checkable
class ChannelGate(Protocol):
    """An outlet that can tell, before anything is sent, that the channel refuses the
    game's posts now: a delivery retried during an outage then sends nothing (no DM
    twice, no refused request every 30 s) until the permission is back."""

    async def refusal(self, table: Table) -> PostRefused | None:
        """The refusal this delivery would meet in the table's channel; None: try."""


@runtime_checkable
class LateNotes(Protocol):
    """An outlet that tells the channel whom a DM missed after the post went (a whisper
    Discord refused only after WHISPER_GRACE, a book sent after the post): the post names
    whom a DM missed when it knows in time, and a late failure is told the same way, not
    left until the player's next click. Outlets without a channel (the demo's, the
    tests') need not."""

    async def dms_missed(self, table: Table, user_ids: list[int], *, key: str) -> None:
        """One short line per player, in the post's words and naming no secret; `key`:
        sent again under it, it shows once. Never raises: the player's next click tells
        them too."""


@dataclass(frozen=True)
class Plan:
    """What one delivery sends, before any of it is sent."""

    key: str  # the delivery it was made for (the game at one version)
    whispers: list[tuple[int, str, str]]  # user, text, key
    teams: list[tuple[str, list[int], str, str]]  # team, its users, text, key
    lines: list[str]
    documents: list[str]
    prompt: Prompt | None
    image: bytes | None
    chapter: str | None = None
    turn: str | None = None
    render_seconds: float | None = None  # how long the images took (None: none drawn)
    # A seat passed on (table_rules.SEATS_MOVED), or a team got its book: each team and
    # the users holding its seats now, whom its thread must hold, and no one else. None:
    # neither.
    members: dict[str, list[int]] | None = None
    seqs: list[int] = field(default_factory=list)  # each of `lines`' events' seq
    alt: str = ""  # the board's alt text
    headlines: list[bool] = field(default_factory=list)  # each of `lines`: shown live
    whole: list[bool] = field(default_factory=list)  # each of `lines`: shown live, whole
    turns: list[bool] = field(default_factory=list)  # each of `lines`: opens a turn
    own_prompt: Prompt | None = None  # a private turn's, in its player's language
    image_hash: str = ""  # board_hash(image), worked out here, off the event loop


Whispers = list[tuple[int, str, str]]  # user, text, key
TeamMessages = list[tuple[str, list[int], str, str]]  # team, its users, text, key


@runtime_checkable
class MemberKeeper(Protocol):
    """An outlet with team threads (cogs/outlet_teams.py): it keeps each thread's members to the
    team's holders. Outlets without threads (the demo's, the tests') need not."""

    async def members(self, table: Table, teams: dict[str, list[int]]) -> None:
        """Make each team's thread hold exactly these users (and the bot). Raises when
        worth another try: the delivery then stays owed."""


def members(table: Table, sequenced: Sequenced) -> dict[str, list[int]] | None:
    """Who each team's thread must hold, when one of these events passed a seat on, or
    sent a team its book (the sides just formed: a thread kept from sides a moderator's
    undo took back may hold someone now on the other side): the humans holding the
    team's seats now (neither: None)."""
    if not any(e.kind == table_rules.SEATS_MOVED
               or (e.audience.kind == "team" and e.kind in DOCUMENT_KINDS)
               for _, e in sequenced):
        return None
    return {team: _team_users(table, seats) for team, seats in _teams(table).items()}


def is_late(event: Event) -> bool:
    """A private or team document: sent after the public post, which announces it."""
    return not event.audience.is_public and event.kind in DOCUMENT_KINDS


def late(table: Table, sequenced: Sequenced, key: str,
         language: str = ENGLISH) -> tuple[Whispers, TeamMessages]:
    """The whispers and team messages that wait for the public post (`is_late`), with
    keys of their own: a whisper its event's place in the log, as every whisper; a team
    message `<key>.b<n>`, beside the earlier ones' `<key>.t<n>`. A team's in the
    server's `language`, a whisper in its player's."""
    return _private(table, [(seq, e) for seq, e in sequenced if is_late(e)], f"{key}.b",
                    language)


def whispers_of(table: Table, sequenced: Sequenced) -> Whispers:
    """Every whisper these events make, early and late ones in the log's order, each
    under its event's key (a DM tail sent again after a crash: bot/courier.py)."""
    mine = [(seq, event) for seq, event in sequenced if event.audience.kind == "player"]
    return _private(table, mine, "", ENGLISH)[0]


def _private(table: Table, sequenced: Sequenced, prefix: str,
             language: str) -> tuple[Whispers, TeamMessages]:
    """A player's events one whisper each, in the player's language; a team's joined
    into one message in the server's `language`, keyed `prefix` and its place among the
    teams."""
    whispers: list[tuple[int, str, str]] = []
    team_lines: dict[str, list[str]] = {}
    for seq, event in sequenced:
        if event.audience.kind == "player":
            seat = int(event.audience.ref)
            text = event.text_in(table.seats[seat].language or ENGLISH) \
                if 0 <= seat < len(table.seats) else event.text
            for user_id in player_users(table, seat):
                whispers.append((user_id, text, whisper_key(table.id or 0, seq)))
        elif event.audience.kind == "team":
            team_lines.setdefault(event.audience.ref, []).append(event.text_in(language))
    to_teams: list[tuple[str, list[int], str, str]] = []
    teams = _teams(table) if team_lines else {}
    for n, (team, lines) in enumerate(team_lines.items()):
        if team not in teams:
            log.warning("channel %s: events for unknown team %r were not delivered",
                        table.channel_id, team)
            continue
        users = _team_users(table, teams[team])
        if users:
            to_teams.append((team, users, "\n".join(lines), f"{prefix}{n}"))
    return whispers, to_teams


def plan(table: Table, sequenced: Sequenced, key: str, *, render: bool = True,
         language: str = ENGLISH) -> Plan:
    """Who gets what, the board and the next prompt, for these owed events (all but
    the late ones: see `late`); what the channel sees in the server's `language`."""
    with speaking(language):
        return _plan(table, sequenced, key, render, language)


def _plan(table: Table, sequenced: Sequenced, key: str, render: bool, language: str) -> Plan:
    whispers, to_teams = _private(table, [(seq, e) for seq, e in sequenced if not is_late(e)],
                                  f"{key}.t", language)
    public = [e for _, e in sequenced if e.audience.is_public]
    line_seqs = [seq for seq, e in sequenced
                 if e.audience.is_public and e.kind not in DOCUMENT_KINDS]
    image, chapter, turn, drawn, alt = None, None, None, None, ""
    rules = table_rules.game_of(table)
    detail, whole = rules.detail_kinds(), rules.whole_kinds()
    told = [e for e in public if e.kind not in DOCUMENT_KINDS]
    headlines = [is_headline(e, detail) for e in told]
    kept_whole = [e.kind in whole for e in told]
    turns = [e.kind == TURN_KIND for e in told]
    if table.state is not None:
        state = table_rules.game_state(table)
        game = table_rules.game_of(table)
        chapter, turn = game.chapter(state), game.turn_name(state)
        if render:
            started = time.perf_counter()
            drawn_board = board(table.kind, state)  # drawn only if its view changed
            image, alt = drawn_board.image, drawn_board.alt
            drawn = time.perf_counter() - started
    prompt = prompt_of(table)
    return Plan(key, whispers, to_teams,
                [e.text_in(language) for e in public if e.kind not in DOCUMENT_KINDS],
                [e.text_in(language) for e in public if e.kind in DOCUMENT_KINDS],
                prompt, image, chapter, turn, drawn,
                members(table, sequenced), line_seqs, alt, headlines, kept_whole, turns,
                own_prompt(table, prompt, language), board_hash(image))


def own_prompt(table: Table, prompt: Prompt | None, language: str) -> Prompt | None:
    """A private turn's options again in its player's language, where it is not the
    server's `language`: only they see the buttons, in their DMs (cogs/outlet_dms.py). The
    same table at the same version: the same options, in other words."""
    if prompt is None or not prompt.private or prompt.user_id is None:
        return None
    mine = table.seats[prompt.seat].language or ENGLISH
    if mine == language:
        return None
    with speaking(mine):
        return prompt_of(table)


def prompt_of(table: Table) -> Prompt | None:
    """Who the game waits for now and their legal options, at the table's version."""
    seat = table_rules.to_act_seat(table)
    if seat is None:
        return None
    game = table_rules.game_of(table)
    state = table_rules.game_state(table)
    holder = table.seats[seat]
    return Prompt(seat, holder.user_id if not holder.ai else None, holder.name,
                  game.options(state, seat), table.version,
                  private=game.prompt_private(state, seat), others=_others(table))


def _others(table: Table) -> tuple[Prompt, ...]:
    """The out-of-turn prompts of the human seats that may act now besides the one to
    act. Their buttons name their seat, so only its holder may press them."""
    game = table_rules.game_of(table)
    state = table_rules.game_state(table)
    others: list[Prompt] = []
    for seat in table_rules.out_of_turn_seats(table):
        holder = table.seats[seat]
        if holder.ai or holder.user_id is None:
            continue  # the AI takes its own (game.ai_offer); nobody clicks for it
        options = [replace(o, action=table_rules.for_seat(o.action, seat))
                   for o in game.options(state, seat)]
        if options:
            others.append(Prompt(seat, holder.user_id, holder.name, options, table.version))
    return tuple(others)


def sequenced(table: Table, events: list[Event]) -> Sequenced:
    """The events of the save just made, with the log positions the store gave them."""
    first = table.last_seq - len(events) + 1
    return [(first + n, event) for n, event in enumerate(events)]


def player_users(table: Table, seat: int) -> list[int]:
    holder = table.seats[seat]
    return [holder.user_id] if holder.user_id is not None and not holder.ai else []


def _teams(table: Table) -> dict[str, list[int]]:
    if table.state is None:
        return {}
    teams = table_rules.game_of(table).teams(table_rules.game_state(table))
    if PLAY_BY_PLAY in teams:  # its lines would go to the public thread: never
        log.error("game %s names a team %r, the play-by-play thread's key; its lines "
                  "are not delivered", table.kind, PLAY_BY_PLAY)
        teams = {team: seats for team, seats in teams.items() if team != PLAY_BY_PLAY}
    return teams


def _team_users(table: Table, seats: list[int]) -> list[int]:
    """The humans of these seats, once each (one person may hold two seats)."""
    users: list[int] = []
    for seat in seats:
        users.extend(u for u in player_users(table, seat) if u not in users)
    return users


def delivery_key(game_id: int, version: int) -> str:
    """A short, stable name for the delivery of a game at one version (a save that
    said nothing still moves the board on, so not the last event). Base 36 keeps
    Discord's 25-character nonces roomy."""
    return f"{_base36(game_id)}.{_base36(version)}"


def whisper_key(game_id: int, seq: int) -> str:
    """One private event's name: its place in the game's log."""
    return f"{_base36(game_id)}.e{_base36(seq)}"


def timer_key(game_id: int, kind: str, version: int) -> str:
    """A turn timer's reminder's name: its stored row (game, kind, version), which fires
    once, so a reminder sent again after a kill between its send and the row's removal
    shows once (Discord's nonce)."""
    return f"{_base36(game_id)}.{_base36(version)}.{kind}"


def _base36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = digits[r] + out
        if n == 0:
            return out
