"""The small interface every storage backend offers (SQLite, PostgreSQL)."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

from bot.core.events import Event
from bot.live_record import LiveMessage
from bot.store.records import (
    GameResult,
    LoggedEvent,
    Notice,
    PlayedSeat,
    ThreadMembers,
    TimerArm,
    TurnTimer,
    UndoPoint,
    UndoWrite,
)
from bot.table_record import Table

# Each table's column names and its rows, by table name.
Export = dict[str, tuple[list[str], list[tuple[Any, ...]]]]


class StoreError(Exception):
    """Base of the store's own refusals."""


class StaleVersion(StoreError):
    """The game changed since it was loaded: someone else's action landed first."""


class GameExists(StoreError):
    """The channel already has an unfinished game."""


class ChannelBusy(StoreError):
    """Another process held the channel's lock (or its delivery lock) for longer than a
    click may wait."""


class StoreUnavailable(StoreError):
    """The database is away for now (PostgreSQL restarting, the disk full, the file
    read-only): nothing was written, and a try in a moment may succeed. `reason` names
    the real cause (bot/store/outage.py)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class NotEmpty(StoreError):
    """A copy's target already holds data: a copy never merges into a live database."""


class Store(Protocol):
    async def open(self) -> None:
        """Connect and bring the schema up to date."""

    async def close(self) -> None:
        """Release the connection; the store may not be used afterwards."""

    async def schema_version(self) -> int:
        """How many of the backend's numbered migrations the database has run."""

    def channel_lock(self, channel_id: int) -> AbstractAsyncContextManager[None]:
        """Held around a change to a channel's game (load, apply, save; never Discord),
        so changes to one channel from several processes run one at a time; raises
        ChannelBusy when another process keeps it too long. Within a process the
        sessions' own lock comes first (bot/channel_locks.py), so this is taken by one
        task per channel at a time."""

    def delivery_lock(self, channel_id: int, *,
                      wait: bool = True) -> AbstractAsyncContextManager[None]:
        """Held around a delivery of a channel's game (sending what a save owes, then
        marking it delivered), so two processes never deliver one channel at once; apart
        from `channel_lock`, which a slow Discord must not hold. ChannelBusy when another
        process keeps it too long, or at once when it holds it and not `wait`. Within a
        process the sessions' own delivery lock comes first."""

    async def export_rows(self) -> Export:
        """Every row of every table (rows.COPIED_TABLES, in that order) as one snapshot,
        for `bot.store.copy` (PostgresStore.import_rows writes it)."""

    async def load(self, channel_id: int) -> Table | None:
        """The channel's unfinished game, if any."""

    async def load_game(self, game_id: int) -> Table | None:
        """One game by id, finished or not."""

    async def load_latest(self, channel_id: int) -> Table | None:
        """The channel's newest game, finished or not (for status and logs)."""

    async def load_last_over(self, channel_id: int) -> Table | None:
        """The channel's newest finished game (what /game replay shows by default)."""

    async def create(self, table: Table, events: Sequence[Event], actor_id: int | None,
                     action: dict[str, Any] | None, *, ai_turn: bool | None = False) -> Table:
        """Insert a new game (raises GameExists); returns it with its id and version 1.
        Its first events count as delivered (the opening interaction answers them)."""

    async def save(self, table: Table, events: Sequence[Event], *, expected_version: int,
                   actor_id: int | None, action: dict[str, Any] | None,
                   delivered: bool = False, ai_turn: bool | None = None,
                   envelope: str | None = None, played: Sequence[str] = (),
                   undo: UndoWrite | None = None,
                   timers: Sequence[TimerArm] = (),
                   result: GameResult | None = None,
                   moves: str | None = None) -> Table:
        """Write the new state and its events in one transaction, or raise StaleVersion.

        The events are owed to Discord (the outbox) until `mark_delivered`, unless
        `delivered` says the caller answers them itself. `ai_turn` records whether an AI
        seat is to act next, so a restart finds such games without reading states.
        `envelope`: the table's envelope already serialised (json.dumps), if it was.
        `played`: content keys the game's events say came into play (`record_played`),
        recorded in the same transaction for the table's guild and kind.
        `undo`: keep an undo point (the table before this save) or drop the points an
        undo took back, in the same transaction. `timers`: the
        turn timers armed for the new version; they replace the game's older timers in
        the same transaction (any save cancels them). `result`: the save that ends a
        game writes its result and seats (/game history, /stats) in the same
        transaction, its start read from the game's row and its end now. `moves`: the
        engine's steps the save took (bot/moves.py) as JSON, kept under the new version
        for replays."""

    async def undo_points(self, game_id: int, *, limit: int = 20) -> list[UndoPoint]:
        """The game's undo points, newest first."""

    async def actions(self, game_id: int) -> list[tuple[int, int | None, dict[str, Any] | None]]:
        """Each save's actor and action as the event log keeps them (version, actor id or
        None, the action or None), oldest first: a save that logged no event is not
        there."""

    async def moves(self, game_id: int) -> list[tuple[int, list[dict[str, Any]]]]:
        """The engine's steps of every save of the game (bot/moves.py), oldest first,
        each with the version it made; none for a game saved before they were kept."""

    async def moderator_log(self, game_id: int, *, limit: int = 25) -> list[LoggedEvent]:
        """What moderators' tools did in this game (one event per save), oldest first."""

    async def timers_due(self, before: float, *, limit: int = 100) -> list[TurnTimer]:
        """Turn timers due at or before `before`, earliest first."""

    async def timers_of(self, game_id: int) -> list[TurnTimer]:
        """A game's armed turn timers, earliest first."""

    async def claim_timer(self, timer: TurnTimer) -> TurnTimer | None:
        """Delete this timer (game, kind, version) and return it; None when another
        claim or a save took it first: it must not fire."""

    async def record_played(self, guild_id: int, kind: str, keys: Sequence[str]) -> None:
        """Remember that this server played these content keys of a game kind (a haunt);
        a key played before keeps the time it first came up."""

    async def played(self, guild_id: int, kind: str) -> list[str]:
        """The content keys this server has played of a game kind, first played first."""

    async def list_open(self) -> list[Table]:
        """Every unfinished game, states and all (tools and tests; the bot reads ids)."""

    async def recently_played(self, limit: int) -> list[Table]:
        """The `limit` unfinished games played last, newest first: a start draws their
        boards ahead of their next click."""

    async def needing_attention(self, *, ai_turns: bool = True) -> list[tuple[int, int]]:
        """(game id, channel id) of games that wait for the bot: an open game's AI turn,
        or events not yet delivered (finished games too)."""

    async def settle_ai_turn(self, game_id: int, version: int, ai_turn: bool) -> None:
        """Fill in an unknown ai_turn (a game saved before it was tracked) at `version`."""

    async def undelivered(self, game_id: int) -> list[LoggedEvent]:
        """Events written but not yet delivered, oldest first."""

    async def mark_delivered(self, game_id: int, seq: int,
                             live: LiveMessage | None = None, *,
                             dm_from: int | None = None) -> None:
        """Events up to `seq` were delivered; never moves the cursor back. `live`: the
        game's live message as that delivery left it, remembered in the same write (one
        round trip per delivery, not two). `dm_from`: whispers of the events from that
        one on may still be on their way (the DM tail, bot/courier.py), remembered in
        the same write unless an earlier one is remembered already."""

    async def whispered(self, game_id: int, seq: int) -> None:
        """Every whisper of the game's events up to `seq` went: its DM tail ends, or,
        when a later delivery was marked meanwhile, starts after `seq`."""

    async def dm_tails(self) -> list[tuple[int, int, int, int]]:
        """(game id, channel id, first event, last delivered event) of every game whose
        whispers from that event on may still be owed (a crash cut its DM tail)."""

    async def tail_events(self, game_id: int, first: int, last: int) -> list[LoggedEvent]:
        """The game's events from `first` to `last`, oldest first."""

    async def log(self, game_id: int, *, limit: int = 20,
                  public_only: bool = True) -> list[LoggedEvent]:
        """The newest events of a game, oldest first (public ones unless asked)."""

    async def count_games(self) -> int:
        """How many games the store holds, finished or not."""

    async def count_open(self) -> int:
        """How many games are unfinished (lobbies and running games): the operators'
        metrics read it every few seconds, so it counts rows and reads no state."""

    async def get_thread(self, game_id: int, team: str) -> int | None:
        """The Discord thread that carries this team's messages in this game, if any."""

    async def set_thread(self, game_id: int, team: str, thread_id: int) -> None:
        """Remember (or replace) the thread of this team in this game."""

    async def threads_of(self, game_id: int) -> list[int]:
        """Every team thread this game has opened (to close them when it ends)."""

    async def thread_members(self, game_id: int, thread_id: int) -> ThreadMembers:
        """Whom the bot put in this team thread of the game and has not taken out."""

    async def add_thread_member(self, game_id: int, thread_id: int, user_id: int) -> None:
        """The bot put this user in this team thread (once is enough: a second is kept
        as one)."""

    async def set_thread_members(self, game_id: int, thread_id: int,
                                 user_ids: Sequence[int]) -> None:
        """The bot made this team thread hold exactly these users (of those it puts in):
        the thread's record is replaced, and whole from now on."""

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        """This server's table settings as stored (bot.guild_settings reads them); {} when
        the server never changed one."""

    async def set_guild_settings(self, guild_id: int, settings: dict[str, Any]) -> None:
        """Replace this server's table settings."""

    async def schedule_forget(self, guild_id: int, at: float) -> None:
        """The bot left this server: delete its data at `at` (epoch seconds) unless
        `cancel_forget` comes first. A second leave moves the time."""

    async def cancel_forget(self, guild_id: int) -> bool:
        """The bot is back in this server: keep its data. Whether a deletion was due."""

    async def forgets_due(self, now: float) -> list[int]:
        """The servers whose data is due for deletion at `now`, earliest first."""

    async def forget_guild(self, guild_id: int) -> int:
        """Delete everything kept about this server in one transaction: its games (with
        their events, undo points, timers, live messages and team threads), its
        settings and what it has played, and its pending deletion. How many games."""

    async def open_games_of(self, user_id: int) -> list[Table]:
        """The unfinished games in which this user holds a seat of their own."""

    async def lobby_message(self, game_id: int) -> int | None:
        """The message that shows this game's lobby (embed and buttons), if known."""

    async def set_lobby_message(self, game_id: int, message_id: int) -> None:
        """Remember which message shows this game's lobby."""

    async def count_click(self, user_id: int, slot: int, most: int) -> bool:
        """Count one applied click (or table command) of this user in time slot `slot`
        (fixed slots of the bucket's seconds), unless `most` are counted there already:
        True when counted. Shared by every process on the store (cogs/click_limit.py); a
        store only one process uses (SQLite) counts nothing here and answers True."""

    async def get_live(self, game_id: int) -> LiveMessage | None:
        """The game's live message (the one edited in place), if it has one."""

    async def add_notice(self, game_id: int, kind: str, detail: str = "") -> None:
        """Record a notice of the bot's own for the game's moderators (records.Notice)."""

    async def notices(self, game_id: int, *, limit: int = 25) -> list[Notice]:
        """The game's newest notices, oldest first."""

    async def set_live(self, game_id: int, live: LiveMessage) -> None:
        """Remember (or replace) the game's live message and what it shows."""

    async def results(self, guild_id: int, channel_id: int | None = None, *,
                      limit: int = 10, offset: int = 0) -> list[GameResult]:
        """This server's finished games (only this channel's with `channel_id`), newest
        first, with their seats: a page of `/game history`."""

    async def count_results(self, guild_id: int, channel_id: int | None = None) -> int:
        """How many finished games `results` pages through."""

    async def result(self, game_id: int) -> GameResult | None:
        """One finished game's result and seats, if it is kept."""

    async def played_seats(self, guild_id: int, user_id: int | None = None) -> list[PlayedSeat]:
        """Every seat of this server's finished games (only this member's with
        `user_id`), oldest game first: what /stats counts."""

    async def all_guild_settings(self) -> list[tuple[int, dict[str, Any]]]:
        """Every server's settings that were ever changed (the retention sweep reads
        each server's keep setting)."""

    async def sweep_finished(self, guild_id: int, before: float) -> int:
        """Delete this server's finished games that ended before `before` (epoch
        seconds), with every row that refers to them, in one transaction: the retention
        setting of /gm settings. How many games."""
