"""SQLite storage: WAL mode, one transaction per action, version checks.

WAL with synchronous=NORMAL keeps every committed action through a crash of the
process (the case that matters for a bot); only a power cut can drop the last commits.

Many channels save at once, and a connection holds one transaction at a time. So every
write runs on one thread of its own (the writer), each transaction one call from BEGIN
to COMMIT: transactions cannot interleave, nothing waits on the event loop while one
is open, and a save costs one trip to that thread. Measured against aiosqlite with a
lock around each transaction (a trip per statement, four a save) on the same bytes:
0.23 ms against 0.43 ms at the median (bench/bench_tables.py has the whole action).
Reads go through aiosqlite on a second connection, where WAL shows them the last
commit, never a neighbour's half-written transaction, and they never wait for the
writer; the state's JSON is decoded in that connection's thread too.
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.core.events import Event
from bot.live_record import LiveMessage
from bot.store import rows as Q
from bot.store.base import Export, GameExists, StaleVersion, StoreError
from bot.store.checkpoints import FALLBACK_PAGES, Checkpointer
from bot.store.kept import Kept, KeptRow
from bot.store.migrations import MIGRATIONS
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
from bot.table_record import OVER, UNDO_KEPT, Table

# state_json is read through the "envelope" converter, so the JSON is decoded in the
# reading connection's own thread, never on the event loop. A load keeps the text too
# ("kept_envelope": both), for the game's kept row (bot/store/kept.py).
_ENVELOPE = 'state_json AS "e [envelope]"'
_COLUMNS = Q.GAME_COLUMNS.format(envelope=_ENVELOPE)
_KEPT_COLUMNS = Q.GAME_COLUMNS.format(envelope='state_json AS "e [kept_envelope]"')
_ACTION_KIND = "json_extract(action_json, '$.kind')"
_TABLES = "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
MEMORY = ":memory:"
PRAGMAS = ("PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL", "PRAGMA foreign_keys=ON",
           "PRAGMA busy_timeout=5000")
R = TypeVar("R")

sqlite3.register_converter("envelope", json.loads)
sqlite3.register_converter("kept_envelope", lambda raw: (raw.decode(), json.loads(raw)))


def _connect(path: str) -> sqlite3.Connection:
    db = sqlite3.connect(path, isolation_level=None, detect_types=sqlite3.PARSE_COLNAMES,
                         check_same_thread=False)
    for pragma in PRAGMAS:
        db.execute(pragma)
    return db


def unopenable(path: Path, exc: BaseException) -> str:
    """Why a SQLite file could not be opened, in words an operator can act on: SQLite's
    own "unable to open database file" names neither the file nor the reason."""
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror[0].lower() + exc.strerror[1:]
    folder = path.parent
    if path.exists() and not os.access(path, os.W_OK):
        return "the file is read-only"
    if path.is_dir():
        return "it is a folder"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"its folder {folder} is not writable (SQLite keeps its -wal file there)"
    return str(exc)


class SqliteStore:
    # A file this process owns, not a server: only a write that works ends an outage.
    server = False

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._writer: ThreadPoolExecutor | None = None
        self._db: sqlite3.Connection | None = None  # used on the writer's thread only
        self._reader: aiosqlite.Connection | None = None
        # A file's checkpoints, off the writes (bot/store/checkpoints.py); None in memory.
        self.checkpoints: Checkpointer | None = None
        # The open games as this process last read or wrote them (bot/store/kept.py):
        # every write below says which game it touches, or forgets them all.
        self.kept = Kept()

    async def open(self) -> None:
        """Raises StoreError naming the file, the setting and the reason when the file
        cannot be opened for writing: found at the start, before Discord is involved."""
        try:
            await self._open()
        except (OSError, sqlite3.Error) as exc:
            await self.close()
            raise StoreError(f"HAUNTKEEPER_DB {self.path}: cannot open the SQLite file: "
                             f"{unopenable(Path(self.path), exc)}") from exc

    async def _open(self) -> None:
        if self.path != MEMORY:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hk-store")
        self._db = await self._run(_connect, self.path)
        await self._on_writer(self._migrate)
        await self.execute(Q.DROP_FINISHED_UNDO, (OVER,))  # what an older bot left
        if self.path != MEMORY:  # an in-memory database lives in one connection: reads
            # go to the writer's thread too, and it has no -wal file to checkpoint
            await self.execute(f"PRAGMA wal_autocheckpoint={FALLBACK_PAGES}")
            self.checkpoints = Checkpointer(self.path, _connect)
            self._reader = await aiosqlite.connect(
                self.path, isolation_level=None, detect_types=sqlite3.PARSE_COLNAMES)
            for pragma in PRAGMAS:
                await self._reader.execute(pragma)

    async def close(self) -> None:
        reader, writer, checkpoints = self._reader, self._writer, self.checkpoints
        self._reader = self.checkpoints = None
        if checkpoints is not None:
            await asyncio.to_thread(checkpoints.close)
        if reader is not None:
            await reader.close()
        if writer is not None:
            if self._db is not None:
                await self._run(self._db.close)
            writer.shutdown(wait=True)
        self._writer = self._db = None

    # -- the two connections ----------------------------------------------------------------

    async def _run(self, fn: Callable[..., R], *args: Any) -> R:
        if self._writer is None:
            raise RuntimeError("The store is not open.")
        return await asyncio.get_running_loop().run_in_executor(self._writer, fn, *args)

    async def _on_writer(self, fn: Callable[..., R], *args: Any) -> R:
        """A write that may change any game: every kept row is forgotten as it starts
        and as it ends (the default: a write added later keeps nothing stale)."""
        self.kept.forget()
        try:
            return await self._run(fn, *args)
        finally:
            self.kept.forget()

    async def _touching(self, game_id: int, fn: Callable[..., R], *args: Any) -> R:
        """A write that changes this game's kept row: stamped as it starts and as it
        ends; should it fail, the row goes (the file may or may not hold the write)."""
        self.kept.writing(game_id)
        try:
            return await self._run(fn, *args)
        except BaseException:
            self.kept.drop(game_id)
            raise
        finally:
            self.kept.writing(game_id)

    async def _aside(self, fn: Callable[..., R], *args: Any) -> R:
        """A read on the writer's thread, or a write to nothing a load returns (timers,
        settings, threads, notices, what a server played): the kept rows stay."""
        return await self._run(fn, *args)

    @property
    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            raise RuntimeError("The store is not open.")
        return self._db

    def _transaction(self, body: Callable[[sqlite3.Connection], R]) -> R:
        """On the writer's thread: BEGIN IMMEDIATE, the body, COMMIT (or ROLLBACK)."""
        db = self._conn
        db.execute("BEGIN IMMEDIATE")
        try:
            result = body(db)
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:  # SQLite rolled back itself on some errors (disk full):
                db.execute("ROLLBACK")  # a second ROLLBACK would hide the cause
            raise
        if self.checkpoints is not None:
            self.checkpoints.wrote()
        return result

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """One statement on the writing connection, between transactions (tools and
        tests reach past the interface with it): it may change any game."""
        return await self._on_writer(self._statement, sql, params)

    def _statement(self, sql: str, params: Sequence[Any]) -> list[Any]:
        return self._conn.execute(sql, params).fetchall()

    async def _read(self, sql: str, params: Sequence[Any] = ()) -> Iterable[sqlite3.Row]:
        if self._reader is None:
            return await self._aside(self._statement, sql, params)
        return await self._reader.execute_fetchall(sql, params)

    def _migrate(self) -> None:
        current = int(self._conn.execute("PRAGMA user_version").fetchone()[0])
        for number, script in enumerate(MIGRATIONS[current:], start=current + 1):
            def step(db: sqlite3.Connection, script: str = script, number: int = number) -> None:
                for statement in filter(str.strip, script.split(";")):
                    db.execute(statement)
                db.execute(f"PRAGMA user_version = {number}")

            self._transaction(step)

    async def schema_version(self) -> int:
        rows = list(await self._read("PRAGMA user_version"))
        return int(rows[0][0]) if rows else 0

    @asynccontextmanager
    async def channel_lock(self, channel_id: int) -> AsyncIterator[None]:
        """Nothing to take: one process owns a SQLite file (the design; several processes
        share PostgreSQL instead), and Sessions' in-process lock serialises its channels.
        Were a second process to open the file anyway, the version check still refuses
        whichever save loses a race."""
        yield

    @asynccontextmanager
    async def delivery_lock(self, channel_id: int, *, wait: bool = True) -> AsyncIterator[None]:
        """Nothing to take either: the sessions' own delivery lock serialises a
        channel's deliveries in the one process."""
        yield

    async def export_rows(self) -> Export:
        """One read transaction on the writer's thread: every table as of one moment."""

        def snapshot(db: sqlite3.Connection) -> Export:
            unknown = {str(r[0]) for r in db.execute(_TABLES)} - set(Q.COPIED_TABLES)
            if unknown:  # a table the copy does not know would be left behind silently
                raise StoreError(f"tables the copy does not know: {', '.join(sorted(unknown))}")
            out: Export = {}
            for table in Q.COPIED_TABLES:
                cursor = db.execute(Q.export_sql(table))
                out[table] = ([str(d[0]) for d in cursor.description],
                              [tuple(row) for row in cursor.fetchall()])
            return out

        return await self._aside(self._transaction, snapshot)

    # -- games ------------------------------------------------------------------------------

    @staticmethod
    def _table(row: Any) -> Table:
        return Q.table_of(row, row[6])

    async def _one(self, sql: str, params: Sequence[Any]) -> Table | None:
        rows = list(await self._read(sql.format(columns=_COLUMNS), params))
        return self._table(rows[0]) if rows else None

    async def load(self, channel_id: int) -> Table | None:
        """The channel's open game with its live message: its kept row if it has one,
        else read from the file (and kept, bot/store/kept.py)."""
        if channel_id in self.kept:
            await self.kept.turn()
        kept = self.kept.get(channel_id)  # again: a write may have ended meanwhile
        if kept is not None:
            game, live = kept.decoded()
            table = self._table(game)
            table.shown = (live,)
            return table
        started = self.kept.now()
        rows = list(await self._read(Q.LOAD_OPEN_LIVE.format(columns=_KEPT_COLUMNS),
                                     (channel_id, OVER)))
        return self._kept_table(rows[0], started) if rows else None

    def _kept_table(self, row: Sequence[Any], started: int) -> Table:
        """The table of an open game's row read with its live message (LOAD_OPEN_LIVE's
        columns, the envelope as text and decoded), its row kept for the channel's next
        load if no write touched the game since `started` (bot/store/kept.py)."""
        text, envelope = row[6]
        end = Q.GAME_COLUMN_COUNT
        table = Q.with_live(self._table((*row[:6], envelope, *row[7:end])), row)
        live = Q.live_of(row[end:]) if row[end] is not None else None
        self.kept.read(table.channel_id, KeptRow((*row[:6], text, *row[7:end]), live),
                       started)
        return table

    async def load_game(self, game_id: int) -> Table | None:
        """One game by its id, finished or not (a crash may owe a finished game's end)."""
        return await self._one(Q.LOAD_GAME, (game_id,))

    async def load_latest(self, channel_id: int) -> Table | None:
        return await self._one(Q.LOAD_LATEST, (channel_id,))

    async def load_last_over(self, channel_id: int) -> Table | None:
        return await self._one(Q.LOAD_LAST_OVER, (channel_id, OVER))

    async def create(self, table: Table, events: Sequence[Event], actor_id: int | None,
                     action: dict[str, Any] | None, *, ai_turn: bool | None = False) -> Table:
        """The lobby's first events are answered by the interaction that opened it, so
        they are stored as delivered."""
        now = time.time()
        envelope = json.dumps(table.envelope())

        def insert(db: sqlite3.Connection) -> int:
            try:
                row = db.execute(Q.INSERT_GAME, (
                    table.channel_id, table.guild_id, table.kind, table.status, envelope,
                    now, now, len(events), len(events), ai_turn)).fetchone()
            except sqlite3.IntegrityError as exc:
                raise GameExists(str(table.channel_id)) from exc
            game_id = int(row[0])
            _append(db, game_id, events, 1, 1, actor_id, action, now)
            return game_id

        # A channel's new game: no open game was there to keep (else GameExists).
        self.kept.drop_channel(table.channel_id)
        return Q.created(table, await self._aside(self._transaction, insert), len(events))

    async def save(self, table: Table, events: Sequence[Event], *, expected_version: int,
                   actor_id: int | None, action: dict[str, Any] | None,
                   delivered: bool = False, ai_turn: bool | None = None,
                   envelope: str | None = None, played: Sequence[str] = (),
                   undo: UndoWrite | None = None,
                   timers: Sequence[TimerArm] = (),
                   result: GameResult | None = None,
                   moves: str | None = None) -> Table:
        """The new state, its events and the outbox cursor in one transaction.

        `delivered` says the events need no delivery (a lobby change the interaction
        answers itself); the cursor then moves only if nothing older is still owed.
        `ai_turn` says whether an AI seat is to act next (None: unknown). `envelope` is
        the table's envelope as JSON when the caller serialised it already (off the
        event loop). `played`: content keys these events brought into play, recorded
        for the table's guild in the same transaction (a game with no guild records
        nothing). `undo`: keep the envelope before this save as an undo point, or drop
        the points an undo took back (bot/store/records.py, UndoWrite). `timers`: the
        turn timers of the new version; the game's older ones go in the same
        transaction, so any save cancels them. `result`: a finished game's result and
        seats (/game history, /stats).
        """
        now = time.time()
        state_json = json.dumps(table.envelope()) if envelope is None else envelope
        count = len(events)

        def update(db: sqlite3.Connection) -> tuple[int, int]:
            if undo is not None:  # before the update: the point is the row as it was
                _write_undo(db, table.id or 0, expected_version, undo, actor_id, now)
            row = db.execute(Q.SAVE_GAME, (
                table.status, state_json, now, ai_turn, count, delivered, count, table.id,
                expected_version)).fetchone()
            if row is None:
                raise StaleVersion(f"game {table.id} is past version {expected_version}")
            _append(db, table.id or 0, events, row[0] - count + 1, expected_version + 1,
                    actor_id, action, now)
            if table.guild_id is not None:
                _record_played(db, table.guild_id, table.kind, played, now)
            _replace_timers(db, table, expected_version + 1, timers)
            if moves is not None:
                db.execute(Q.INSERT_MOVES, (table.id, expected_version + 1, moves))
            if table.status == OVER:  # out of undo's reach: its points go with it
                db.execute(Q.DROP_ALL_UNDO, (table.id,))
            if result is not None:
                db.execute(Q.INSERT_RESULT, Q.result_params(result, now))
                db.executemany(Q.INSERT_SEAT, Q.seat_rows(result))
            return int(row[0]), int(row[1])

        last_seq, delivered_seq = await self._touching(table.id or 0, self._transaction,
                                                       update)
        self.kept.saved(table.id or 0, expected_version, table.status, state_json,
                        last_seq, delivered_seq, open_game=table.status != OVER)
        return Q.saved(table, expected_version + 1, last_seq, delivered_seq)

    # -- turn timers -------------------------------------------------------------------------

    async def timers_due(self, before: float, *, limit: int = 100) -> list[TurnTimer]:
        """The timers due before `before`, earliest first (what the dispatcher waits for)."""
        rows = await self._read(Q.TIMERS_DUE, (before, limit))
        return [TurnTimer(*row) for row in rows]

    async def timers_of(self, game_id: int) -> list[TurnTimer]:
        rows = await self._read(Q.TIMERS_OF, (game_id,))
        return [TurnTimer(*row) for row in rows]

    async def claim_timer(self, timer: TurnTimer) -> TurnTimer | None:
        """Take this timer out of the store, once: the caller that gets it back fires it;
        every other (another task, another process) gets None."""

        def claim(db: sqlite3.Connection) -> TurnTimer | None:
            row = db.execute(Q.CLAIM_TIMER,
                             (timer.game_id, timer.kind, timer.version)).fetchone()
            return TurnTimer(*row) if row is not None else None

        return await self._aside(self._transaction, claim)

    # -- what each server has played -------------------------------------------------------

    async def record_played(self, guild_id: int, kind: str, keys: Sequence[str]) -> None:
        now = time.time()
        await self._aside(self._transaction,
                          lambda db: _record_played(db, guild_id, kind, keys, now))

    async def played(self, guild_id: int, kind: str) -> list[str]:
        rows = await self._read(Q.PLAYED, (guild_id, kind))
        return [str(row[0]) for row in rows]

    async def list_open(self) -> list[Table]:
        rows = await self._read(Q.LIST_OPEN.format(columns=_COLUMNS), (OVER,))
        return [self._table(r) for r in rows]

    async def recently_played(self, limit: int) -> list[Table]:
        """The open games played last, with their live messages, their rows kept: the
        start draws their boards ahead (Sessions.warm_boards), and each one's first
        action after it loads from memory, not the file (bench/bench_channels.py, 50
        haunt channels: a first action's load 0.64-0.89 ms before, 0.23-0.33 ms now)."""
        started = self.kept.now()
        rows = await self._read(Q.RECENTLY_PLAYED.format(columns=_KEPT_COLUMNS),
                                (OVER, limit))
        return [self._kept_table(row, started) for row in rows]

    async def needing_attention(self, *, ai_turns: bool = True) -> list[tuple[int, int]]:
        """(game id, channel id) of every game that waits for the bot: an open game with
        an AI seat to act (or not known, for games saved before the store tracked it),
        and any game, finished ones too, with events not yet delivered. Ids only, so a
        start with thousands of games reads no state. Without `ai_turns`, only the
        deliveries owed (the periodic retry)."""
        rows = await self._read(Q.needing_attention_sql(ai_turns))
        return [(int(r[0]), int(r[1])) for r in rows]

    async def settle_ai_turn(self, game_id: int, version: int, ai_turn: bool) -> None:
        """Record whether an AI is to act in a game saved before the store tracked it
        (ai_turn NULL), so later starts skip it by its id alone. Only at `version`: a
        save since knows better."""

        def settle(db: sqlite3.Connection) -> None:
            db.execute(Q.SETTLE_AI_TURN, (ai_turn, game_id, version))

        await self._aside(self._transaction, settle)  # ai_turn: no load reads it

    async def count_games(self) -> int:
        rows = list(await self._read(Q.COUNT_GAMES))
        return int(rows[0][0]) if rows else 0

    async def count_open(self) -> int:
        rows = list(await self._read(Q.COUNT_OPEN, (OVER,)))
        return int(rows[0][0]) if rows else 0

    async def open_games_of(self, user_id: int) -> list[Table]:
        """The unfinished games where this user holds a seat (a DM command acts on one)."""
        rows = await self._read(Q.OPEN_GAMES_OF.format(columns=_COLUMNS),
                                (OVER, Q.open_games_pattern(user_id)))
        tables = [self._table(r) for r in rows]
        return [t for t in tables if t.seats_of(user_id)]

    async def lobby_message(self, game_id: int) -> int | None:
        rows = list(await self._read(Q.LOBBY_MESSAGE, (game_id,)))
        return int(rows[0][0]) if rows and rows[0][0] is not None else None

    async def set_lobby_message(self, game_id: int, message_id: int) -> None:
        await self._aside(self._statement, Q.SET_LOBBY_MESSAGE, (message_id, game_id))

    # -- events and their delivery ---------------------------------------------------------

    async def log(self, game_id: int, *, limit: int = 20,
                  public_only: bool = True) -> list[LoggedEvent]:
        rows = await self._read(Q.log_where(public_only), (game_id, limit))
        return Q.logged(list(rows), newest_first=True)

    async def undelivered(self, game_id: int) -> list[LoggedEvent]:
        """The outbox: events written but not yet marked delivered, oldest first."""
        return Q.logged(list(await self._read(Q.UNDELIVERED, (game_id, game_id))))

    async def mark_delivered(self, game_id: int, seq: int,
                             live: LiveMessage | None = None, *,
                             dm_from: int | None = None) -> None:
        """Everything up to `seq` reached Discord; the cursor never moves back."""
        if live is None and dm_from is None:
            await self._touching(game_id, self._statement, Q.MARK_DELIVERED,
                                 (seq, game_id, seq))
            self.kept.marked(game_id, seq, None)
            return

        def both(db: sqlite3.Connection) -> None:
            if live is not None:
                db.execute(Q.SET_LIVE, Q.live_params(game_id, live))
            if dm_from is not None:
                db.execute(Q.OPEN_DM_TAIL, (game_id, dm_from))
            db.execute(Q.MARK_DELIVERED, (seq, game_id, seq))

        await self._touching(game_id, self._transaction, both)
        self.kept.marked(game_id, seq, _as_read(game_id, live) if live is not None else None)

    async def whispered(self, game_id: int, seq: int) -> None:
        def both(db: sqlite3.Connection) -> None:
            db.execute(Q.CLOSE_DM_TAIL, (game_id, seq, game_id, seq))
            db.execute(Q.MOVE_DM_TAIL, (seq + 1, game_id, seq + 1))

        await self._run(self._transaction, both)

    async def dm_tails(self) -> list[tuple[int, int, int, int]]:
        return [(int(r[0]), int(r[1]), int(r[2]), int(r[3]))
                for r in await self._read(Q.DM_TAILS)]

    async def tail_events(self, game_id: int, first: int, last: int) -> list[LoggedEvent]:
        return Q.logged(list(await self._read(Q.TAIL_EVENTS, (game_id, first, last))))

    # -- team threads -----------------------------------------------------------------------

    async def get_thread(self, game_id: int, team: str) -> int | None:
        rows = list(await self._read(Q.GET_THREAD, (game_id, team)))
        return int(rows[0][0]) if rows else None

    async def threads_of(self, game_id: int) -> list[int]:
        rows = await self._read(Q.THREADS_OF, (game_id,))
        return [int(row[0]) for row in rows]

    async def set_thread(self, game_id: int, team: str, thread_id: int) -> None:
        await self._aside(self._statement, Q.SET_THREAD, (game_id, team, thread_id))

    async def thread_members(self, game_id: int, thread_id: int) -> ThreadMembers:
        users = await self._read(Q.THREAD_MEMBERS, (game_id, thread_id))
        kept = list(await self._read(Q.THREAD_MEMBERS_KEPT, (game_id, thread_id)))
        return ThreadMembers(frozenset(int(r[0]) for r in users),
                             bool(kept and kept[0][0]))

    async def add_thread_member(self, game_id: int, thread_id: int, user_id: int) -> None:
        await self._aside(self._statement, Q.ADD_THREAD_MEMBER, (game_id, thread_id, user_id))

    async def set_thread_members(self, game_id: int, thread_id: int,
                                 user_ids: Sequence[int]) -> None:
        def replace(db: sqlite3.Connection) -> None:
            db.execute(Q.CLEAR_THREAD_MEMBERS, (game_id, thread_id))
            db.executemany(Q.ADD_THREAD_MEMBER,
                           [(game_id, thread_id, u) for u in dict.fromkeys(user_ids)])
            db.execute(Q.KEEP_THREAD_MEMBERS, (game_id, thread_id))

        await self._aside(self._transaction, replace)

    # -- undo points and the moderators' log ---------------------------------------------

    async def undo_points(self, game_id: int, *, limit: int = UNDO_KEPT) -> list[UndoPoint]:
        rows = await self._read(Q.UNDO_POINTS.format(envelope='envelope AS "e [envelope]"'),
                                (game_id, limit))
        return [Q.undo_point_of(r, r[1]) for r in rows]

    async def actions(self, game_id: int) -> list[tuple[int, int | None, dict[str, Any] | None]]:
        return Q.actions_of(list(await self._read(Q.ACTIONS_OF, (game_id,))))

    async def moves(self, game_id: int) -> list[tuple[int, list[dict[str, Any]]]]:
        return Q.moves_of(list(await self._read(Q.MOVES_OF, (game_id,))))

    async def moderator_log(self, game_id: int, *, limit: int = 25) -> list[LoggedEvent]:
        """The first public event of each save made by a moderator's tool (gm.* and
        table.end actions), oldest first."""
        rows = await self._read(Q.MODERATOR_LOG.format(kind=_ACTION_KIND),
                                (game_id, game_id, limit))
        return Q.logged(list(rows), newest_first=True)

    # -- server settings --------------------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        rows = list(await self._read(Q.GUILD_SETTINGS, (guild_id,)))
        return dict(json.loads(rows[0][0])) if rows else {}

    async def set_guild_settings(self, guild_id: int, settings: dict[str, Any]) -> None:
        await self._aside(self._statement, Q.SET_GUILD_SETTINGS,
                          (guild_id, Q.settings_json(settings), time.time()))

    # -- servers the bot left ---------------------------------------------------------------

    async def schedule_forget(self, guild_id: int, at: float) -> None:
        await self._aside(self._statement, Q.SET_DEPARTURE, (guild_id, at))

    async def cancel_forget(self, guild_id: int) -> bool:
        def cancel(db: sqlite3.Connection) -> bool:
            return db.execute(Q.CANCEL_DEPARTURE, (guild_id,)).rowcount > 0

        return await self._aside(self._transaction, cancel)

    async def forgets_due(self, now: float) -> list[int]:
        return [int(row[0]) for row in await self._read(Q.DEPARTURES_DUE, (now,))]

    async def forget_guild(self, guild_id: int) -> int:
        def forget(db: sqlite3.Connection) -> int:
            games = int(db.execute(Q.COUNT_GUILD_GAMES, (guild_id,)).fetchone()[0])
            for statement in Q.FORGET_GUILD:
                db.execute(statement, (guild_id,))
            return games

        return await self._on_writer(self._transaction, forget)

    # -- finished games: history, stats, retention -------------------------------------------

    async def _results(self, sql: str, params: Sequence[Any]) -> list[GameResult]:
        rows = list(await self._read(sql, params))
        if not rows:
            return []
        seats = list(await self._read(Q.seats_sql(len(rows)), [int(r[0]) for r in rows]))
        return Q.results_of(rows, seats)

    async def results(self, guild_id: int, channel_id: int | None = None, *,
                      limit: int = 10, offset: int = 0) -> list[GameResult]:
        sql = Q.HISTORY.format(where=Q.history_where(channel_id))
        return await self._results(sql, (*Q.history_params(guild_id, channel_id),
                                         limit, offset))

    async def count_results(self, guild_id: int, channel_id: int | None = None) -> int:
        rows = list(await self._read(Q.COUNT_HISTORY.format(where=Q.history_where(channel_id)),
                                     Q.history_params(guild_id, channel_id)))
        return int(rows[0][0]) if rows else 0

    async def result(self, game_id: int) -> GameResult | None:
        found = await self._results(Q.RESULT, (game_id,))
        return found[0] if found else None

    async def played_seats(self, guild_id: int, user_id: int | None = None) -> list[PlayedSeat]:
        params = (guild_id,) if user_id is None else (guild_id, user_id)
        rows = await self._read(Q.played_seats_sql(user_id), params)
        return [Q.played_seat_of(r) for r in rows]

    async def all_guild_settings(self) -> list[tuple[int, dict[str, Any]]]:
        rows = await self._read(Q.ALL_SETTINGS)
        return [(int(r[0]), dict(json.loads(r[1]))) for r in rows]

    async def sweep_finished(self, guild_id: int, before: float) -> int:
        def sweep(db: sqlite3.Connection) -> int:
            games = int(db.execute(Q.COUNT_EXPIRED, (guild_id, before)).fetchone()[0])
            if games:
                for statement in Q.SWEEP_GAMES:
                    db.execute(statement, (guild_id, before))
            return games

        return await self._on_writer(self._transaction, sweep)

    # -- live messages ----------------------------------------------------------------------

    async def count_click(self, user_id: int, slot: int, most: int) -> bool:
        """One process per SQLite file: its in-memory limit is the whole count."""
        return True

    async def get_live(self, game_id: int) -> LiveMessage | None:
        rows = list(await self._read(Q.GET_LIVE, (game_id,)))
        return Q.live_of(rows[0]) if rows else None

    async def set_live(self, game_id: int, live: LiveMessage) -> None:
        await self._touching(game_id, self._statement, Q.SET_LIVE,
                             Q.live_params(game_id, live))
        self.kept.shown(game_id, _as_read(game_id, live))

    # -- the bot's notices ------------------------------------------------------------------

    async def add_notice(self, game_id: int, kind: str, detail: str = "") -> None:
        await self._aside(self._statement, Q.ADD_NOTICE,
                          (game_id, time.time(), kind, detail))

    async def notices(self, game_id: int, *, limit: int = 25) -> list[Notice]:
        rows = await self._read(Q.NOTICES, (game_id, limit))
        return [Notice(float(r[0]), str(r[1]), str(r[2])) for r in reversed(list(rows))]


def _as_read(game_id: int, live: LiveMessage) -> LiveMessage:
    """The live message as a load would read it back from its row (a copy, in the
    row's own types): what its game's kept row holds."""
    return Q.live_of(Q.live_params(game_id, live)[1:])


def _write_undo(db: sqlite3.Connection, game_id: int, version: int, undo: UndoWrite,
                actor_id: int | None, now: float) -> None:
    """Drop the points an undo took back, or keep one more (the game's row at `version`);
    only the newest few are kept."""
    if undo.drop_from is not None:
        db.execute(Q.DROP_UNDO, (game_id, undo.drop_from))
    if not undo.keep:
        return
    db.execute(Q.KEEP_UNDO, (actor_id, undo.summary, now, game_id, version))
    db.execute(Q.TRIM_UNDO, Q.trim_undo_params(game_id))


def _record_played(db: sqlite3.Connection, guild_id: int, kind: str, keys: Sequence[str],
                   now: float) -> None:
    """Insert the keys not yet recorded; one already there keeps its first time."""
    if keys:
        db.executemany(Q.INSERT_PLAYED, Q.played_rows(guild_id, kind, keys, now))


def _replace_timers(db: sqlite3.Connection, table: Table, version: int,
                    timers: Sequence[TimerArm]) -> None:
    """The game's timers are those of its new version only."""
    db.execute(Q.DROP_TIMERS, (table.id,))
    if timers:
        db.executemany(Q.INSERT_TIMER, Q.timer_rows(table, version, timers))


def _append(db: sqlite3.Connection, game_id: int, events: Sequence[Event], first_seq: int,
            version: int, actor_id: int | None, action: dict[str, Any] | None,
            now: float) -> None:
    if events:
        db.executemany(Q.INSERT_EVENT,
                       Q.event_rows(game_id, events, first_seq, version, actor_id, action, now))
