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
import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.core.events import Event
from bot.store.base import GameExists, StaleVersion
from bot.store.migrations import MIGRATIONS
from bot.store.records import (
    OVER,
    UNDO_KEPT,
    LiveMessage,
    LoggedEvent,
    Table,
    TimerArm,
    TurnTimer,
    UndoPoint,
    UndoWrite,
)

# state_json is read through the "envelope" converter, so the JSON is decoded in the
# reading connection's own thread, never on the event loop.
_COLUMNS = ('id, channel_id, guild_id, kind, status, version, state_json AS "e [envelope]",'
            ' last_seq, delivered_seq')
_EVENT_COLUMNS = "seq, version, ts, actor_id, audience, text, kind"
_TIMER_COLUMNS = "game_id, kind, version, channel_id, seat, user_id, due_at, armed_at"
MEMORY = ":memory:"
PRAGMAS = ("PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL", "PRAGMA foreign_keys=ON",
           "PRAGMA busy_timeout=5000")
R = TypeVar("R")

sqlite3.register_converter("envelope", json.loads)


def _connect(path: str) -> sqlite3.Connection:
    db = sqlite3.connect(path, isolation_level=None, detect_types=sqlite3.PARSE_COLNAMES,
                         check_same_thread=False)
    for pragma in PRAGMAS:
        db.execute(pragma)
    return db


class SqliteStore:
    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._writer: ThreadPoolExecutor | None = None
        self._db: sqlite3.Connection | None = None  # used on the writer's thread only
        self._reader: aiosqlite.Connection | None = None

    async def open(self) -> None:
        if self.path != MEMORY:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hk-store")
        self._db = await self._on_writer(_connect, self.path)
        await self._on_writer(self._migrate)
        if self.path != MEMORY:  # an in-memory database lives in one connection: reads
            self._reader = await aiosqlite.connect(  # go to the writer's thread too
                self.path, isolation_level=None, detect_types=sqlite3.PARSE_COLNAMES)
            for pragma in PRAGMAS:
                await self._reader.execute(pragma)

    async def close(self) -> None:
        reader, writer = self._reader, self._writer
        self._reader = None
        if reader is not None:
            await reader.close()
        if writer is not None:
            if self._db is not None:
                await self._on_writer(self._db.close)
            writer.shutdown(wait=True)
        self._writer = self._db = None

    # -- the two connections ----------------------------------------------------------------

    async def _on_writer(self, fn: Callable[..., R], *args: Any) -> R:
        if self._writer is None:
            raise RuntimeError("The store is not open.")
        return await asyncio.get_running_loop().run_in_executor(self._writer, fn, *args)

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
            db.execute("ROLLBACK")
            raise
        return result

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """One statement on the writing connection, between transactions (tools and
        tests reach past the interface with it)."""
        return await self._on_writer(lambda: self._conn.execute(sql, params).fetchall())

    async def _read(self, sql: str, params: Sequence[Any] = ()) -> Iterable[sqlite3.Row]:
        if self._reader is None:
            return await self.execute(sql, params)
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

    # -- games ------------------------------------------------------------------------------

    @staticmethod
    def _table(row: Any) -> Table:
        return Table.from_row(id=row[0], channel_id=row[1], guild_id=row[2], kind=row[3],
                              status=row[4], version=row[5], envelope=row[6],
                              last_seq=row[7], delivered_seq=row[8])

    async def _one(self, sql: str, params: Sequence[Any]) -> Table | None:
        rows = list(await self._read(sql, params))
        return self._table(rows[0]) if rows else None

    async def load(self, channel_id: int) -> Table | None:
        return await self._one(
            f"SELECT {_COLUMNS} FROM games WHERE channel_id = ? AND status != ?",
            (channel_id, OVER))

    async def load_game(self, game_id: int) -> Table | None:
        """One game by its id, finished or not (a crash may owe a finished game's end)."""
        return await self._one(f"SELECT {_COLUMNS} FROM games WHERE id = ?", (game_id,))

    async def load_latest(self, channel_id: int) -> Table | None:
        return await self._one(
            f"SELECT {_COLUMNS} FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
            (channel_id,))

    async def create(self, table: Table, events: Sequence[Event], actor_id: int | None,
                     action: dict[str, Any] | None, *, ai_turn: bool | None = False) -> Table:
        """The lobby's first events are answered by the interaction that opened it, so
        they are stored as delivered."""
        now = time.time()
        envelope = json.dumps(table.envelope())

        def insert(db: sqlite3.Connection) -> int:
            try:
                cur = db.execute(
                    "INSERT INTO games (channel_id, guild_id, kind, status, state_json,"
                    " version, created_at, updated_at, last_seq, delivered_seq, ai_turn)"
                    " VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?)",
                    (table.channel_id, table.guild_id, table.kind, table.status, envelope,
                     now, now, len(events), len(events), _flag(ai_turn)))
            except sqlite3.IntegrityError as exc:
                raise GameExists(str(table.channel_id)) from exc
            game_id = int(cur.lastrowid or 0)
            _append(db, game_id, events, 1, 1, actor_id, action, now)
            return game_id

        table.id = await self._on_writer(self._transaction, insert)
        table.version = 1
        table.last_seq = table.delivered_seq = len(events)
        return table

    async def save(self, table: Table, events: Sequence[Event], *, expected_version: int,
                   actor_id: int | None, action: dict[str, Any] | None,
                   delivered: bool = False, ai_turn: bool | None = None,
                   envelope: str | None = None, played: Sequence[str] = (),
                   undo: UndoWrite | None = None,
                   timers: Sequence[TimerArm] = ()) -> Table:
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
        transaction, so any save cancels them.
        """
        now = time.time()
        state_json = json.dumps(table.envelope()) if envelope is None else envelope
        count = len(events)

        def update(db: sqlite3.Connection) -> tuple[int, int]:
            if undo is not None:  # before the update: the point is the row as it was
                _write_undo(db, table.id or 0, expected_version, undo, actor_id, now)
            row = db.execute(
                "UPDATE games SET status = ?, state_json = ?, version = version + 1,"
                " updated_at = ?, ai_turn = ?, last_seq = last_seq + ?,"
                " delivered_seq = CASE WHEN ? AND delivered_seq = last_seq"
                "                 THEN last_seq + ? ELSE delivered_seq END"
                " WHERE id = ? AND version = ? RETURNING last_seq, delivered_seq",
                (table.status, state_json, now, _flag(ai_turn), count, int(delivered), count,
                 table.id, expected_version)).fetchone()
            if row is None:
                raise StaleVersion(f"game {table.id} is past version {expected_version}")
            _append(db, table.id or 0, events, row[0] - count + 1, expected_version + 1,
                    actor_id, action, now)
            if table.guild_id is not None:
                _record_played(db, table.guild_id, table.kind, played, now)
            _replace_timers(db, table, expected_version + 1, timers)
            return int(row[0]), int(row[1])

        last_seq, delivered_seq = await self._on_writer(self._transaction, update)
        table.version = expected_version + 1
        table.last_seq, table.delivered_seq = last_seq, delivered_seq
        return table

    # -- turn timers -------------------------------------------------------------------------

    async def timers_due(self, before: float, *, limit: int = 100) -> list[TurnTimer]:
        """The timers due before `before`, earliest first (what the dispatcher waits for)."""
        rows = await self._read(
            f"SELECT {_TIMER_COLUMNS} FROM turn_timers WHERE due_at <= ?"
            " ORDER BY due_at, game_id, kind LIMIT ?", (before, limit))
        return [TurnTimer(*row) for row in rows]

    async def timers_of(self, game_id: int) -> list[TurnTimer]:
        rows = await self._read(
            f"SELECT {_TIMER_COLUMNS} FROM turn_timers WHERE game_id = ? ORDER BY due_at",
            (game_id,))
        return [TurnTimer(*row) for row in rows]

    async def claim_timer(self, timer: TurnTimer) -> TurnTimer | None:
        """Take this timer out of the store, once: the caller that gets it back fires it;
        every other (another task, another process) gets None."""

        def claim(db: sqlite3.Connection) -> TurnTimer | None:
            row = db.execute(
                f"DELETE FROM turn_timers WHERE game_id = ? AND kind = ? AND version = ?"
                f" RETURNING {_TIMER_COLUMNS}",
                (timer.game_id, timer.kind, timer.version)).fetchone()
            return TurnTimer(*row) if row is not None else None

        return await self._on_writer(self._transaction, claim)

    # -- what each server has played -------------------------------------------------------

    async def record_played(self, guild_id: int, kind: str, keys: Sequence[str]) -> None:
        now = time.time()
        await self._on_writer(self._transaction,
                              lambda db: _record_played(db, guild_id, kind, keys, now))

    async def played(self, guild_id: int, kind: str) -> list[str]:
        rows = await self._read(
            "SELECT content_key FROM played_content WHERE guild_id = ? AND kind = ?"
            " ORDER BY first_played_at, content_key", (guild_id, kind))
        return [str(row[0]) for row in rows]

    async def list_open(self) -> list[Table]:
        rows = await self._read(f"SELECT {_COLUMNS} FROM games WHERE status != ?", (OVER,))
        return [self._table(r) for r in rows]

    async def needing_attention(self, *, ai_turns: bool = True) -> list[tuple[int, int]]:
        """(game id, channel id) of every game that waits for the bot: an open game with
        an AI seat to act (or not known, for games saved before the store tracked it),
        and any game, finished ones too, with events not yet delivered. Ids only, so a
        start with thousands of games reads no state. Without `ai_turns`, only the
        deliveries owed (the periodic retry)."""
        owing = "SELECT id, channel_id FROM games WHERE delivered_seq < last_seq"
        if ai_turns:
            owing = ("SELECT id, channel_id FROM games WHERE status != 'over'"
                     " AND ai_turn IS NOT 0 UNION " + owing)
        rows = await self._read(owing + " ORDER BY id")
        return [(int(r[0]), int(r[1])) for r in rows]

    async def settle_ai_turn(self, game_id: int, version: int, ai_turn: bool) -> None:
        """Record whether an AI is to act in a game saved before the store tracked it
        (ai_turn NULL), so later starts skip it by its id alone. Only at `version`: a
        save since knows better."""

        def settle(db: sqlite3.Connection) -> None:
            db.execute("UPDATE games SET ai_turn = ? WHERE id = ? AND version = ?"
                       " AND ai_turn IS NULL", (int(ai_turn), game_id, version))

        await self._on_writer(self._transaction, settle)

    async def count_games(self) -> int:
        rows = list(await self._read("SELECT COUNT(*) FROM games"))
        return int(rows[0][0]) if rows else 0

    async def open_games_of(self, user_id: int) -> list[Table]:
        """The unfinished games where this user holds a seat (a DM command acts on one).
        The LIKE on the id's digits (a Discord id has 17 or more, so few rows match by
        chance, however the JSON is spaced) only narrows the rows; the seats decide."""
        rows = await self._read(
            f"SELECT {_COLUMNS} FROM games WHERE status != ? AND state_json LIKE ?"
            " ORDER BY id", (OVER, f"%{int(user_id)}%"))
        tables = [self._table(r) for r in rows]
        return [t for t in tables if t.seats_of(user_id)]

    async def lobby_message(self, game_id: int) -> int | None:
        rows = list(await self._read("SELECT lobby_message_id FROM games WHERE id = ?",
                                     (game_id,)))
        return int(rows[0][0]) if rows and rows[0][0] is not None else None

    async def set_lobby_message(self, game_id: int, message_id: int) -> None:
        await self.execute("UPDATE games SET lobby_message_id = ? WHERE id = ?",
                           (message_id, game_id))

    # -- events and their delivery ---------------------------------------------------------

    async def log(self, game_id: int, *, limit: int = 20,
                  public_only: bool = True) -> list[LoggedEvent]:
        where = "game_id = ?" + (" AND audience = 'public'" if public_only else "")
        rows = await self._read(
            f"SELECT {_EVENT_COLUMNS} FROM events WHERE {where} ORDER BY seq DESC LIMIT ?",
            (game_id, limit))
        return [LoggedEvent(*r) for r in reversed(list(rows))]

    async def undelivered(self, game_id: int) -> list[LoggedEvent]:
        """The outbox: events written but not yet marked delivered, oldest first."""
        rows = await self._read(
            f"SELECT {_EVENT_COLUMNS} FROM events WHERE game_id = ? AND seq >"
            " (SELECT delivered_seq FROM games WHERE id = ?) ORDER BY seq", (game_id, game_id))
        return [LoggedEvent(*r) for r in rows]

    async def mark_delivered(self, game_id: int, seq: int) -> None:
        """Everything up to `seq` reached Discord; the cursor never moves back."""
        await self.execute("UPDATE games SET delivered_seq = ? WHERE id = ? AND delivered_seq < ?",
                           (seq, game_id, seq))

    # -- team threads -----------------------------------------------------------------------

    async def get_thread(self, game_id: int, team: str) -> int | None:
        rows = list(await self._read(
            "SELECT thread_id FROM team_threads WHERE game_id = ? AND team = ?", (game_id, team)))
        return int(rows[0][0]) if rows else None

    async def threads_of(self, game_id: int) -> list[int]:
        rows = await self._read(
            "SELECT thread_id FROM team_threads WHERE game_id = ? ORDER BY team", (game_id,))
        return [int(row[0]) for row in rows]

    async def set_thread(self, game_id: int, team: str, thread_id: int) -> None:
        await self.execute(
            "INSERT INTO team_threads (game_id, team, thread_id) VALUES (?, ?, ?)"
            " ON CONFLICT (game_id, team) DO UPDATE SET thread_id = excluded.thread_id",
            (game_id, team, thread_id))

    # -- undo points and the moderators' log ---------------------------------------------

    async def undo_points(self, game_id: int, *, limit: int = UNDO_KEPT) -> list[UndoPoint]:
        rows = await self._read(
            'SELECT version, envelope AS "e [envelope]", actor_id, summary FROM undo_points'
            " WHERE game_id = ? ORDER BY version DESC LIMIT ?", (game_id, limit))
        return [UndoPoint(int(r[0]), r[1], r[2], str(r[3])) for r in rows]

    async def moderator_log(self, game_id: int, *, limit: int = 25) -> list[LoggedEvent]:
        """The first public event of each save made by a moderator's tool (gm.* and
        table.end actions), oldest first."""
        rows = await self._read(
            f"SELECT {_EVENT_COLUMNS} FROM events WHERE seq IN (SELECT MIN(seq) FROM events"
            " WHERE game_id = ? AND audience = 'public' AND actor_id IS NOT NULL AND"
            " (json_extract(action_json, '$.kind') LIKE 'gm.%'"
            "  OR json_extract(action_json, '$.kind') = 'table.end')"
            " GROUP BY version) AND game_id = ? ORDER BY seq DESC LIMIT ?",
            (game_id, game_id, limit))
        return [LoggedEvent(*r) for r in reversed(list(rows))]

    # -- server settings --------------------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        rows = list(await self._read(
            "SELECT settings_json FROM guild_settings WHERE guild_id = ?", (guild_id,)))
        return dict(json.loads(rows[0][0])) if rows else {}

    async def set_guild_settings(self, guild_id: int, settings: dict[str, Any]) -> None:
        await self.execute(
            "INSERT INTO guild_settings (guild_id, settings_json, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET settings_json = excluded.settings_json,"
            " updated_at = excluded.updated_at",
            (guild_id, json.dumps(settings, sort_keys=True), time.time()))

    # -- live messages ----------------------------------------------------------------------

    async def get_live(self, game_id: int) -> LiveMessage | None:
        rows = list(await self._read(
            "SELECT message_id, chapter, turn, board_hash, lines_json, delivery, extras,"
            " ping_id, ping_user FROM live_messages WHERE game_id = ?", (game_id,)))
        if not rows:
            return None
        row = rows[0]
        return LiveMessage(int(row[0]), row[1], row[2], row[3], list(json.loads(row[4])),
                           row[5], bool(row[6]), row[7], row[8])

    async def set_live(self, game_id: int, live: LiveMessage) -> None:
        await self.execute(
            "INSERT INTO live_messages (game_id, message_id, chapter, turn, board_hash,"
            " lines_json, delivery, extras, ping_id, ping_user)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET"
            " message_id = excluded.message_id, chapter = excluded.chapter,"
            " turn = excluded.turn, board_hash = excluded.board_hash,"
            " lines_json = excluded.lines_json, delivery = excluded.delivery,"
            " extras = excluded.extras, ping_id = excluded.ping_id,"
            " ping_user = excluded.ping_user",
            (game_id, live.message_id, live.chapter, live.turn, live.board_hash,
             json.dumps(live.lines), live.delivery, int(live.extras),
             live.ping_id, live.ping_user))


def _write_undo(db: sqlite3.Connection, game_id: int, version: int, undo: UndoWrite,
                actor_id: int | None, now: float) -> None:
    """Drop the points an undo took back, or keep one more: the game's row at `version`
    (a row at another version copies nothing, and the save's version check then fails
    the whole transaction). Only the newest few are kept."""
    if undo.drop_from is not None:
        db.execute("DELETE FROM undo_points WHERE game_id = ? AND version >= ?",
                   (game_id, undo.drop_from))
    if not undo.keep:
        return
    db.execute("INSERT OR REPLACE INTO undo_points (game_id, version, envelope, actor_id,"
               " summary, created_at) SELECT id, version, state_json, ?, ?, ? FROM games"
               " WHERE id = ? AND version = ?",
               (actor_id, undo.summary, now, game_id, version))
    db.execute("DELETE FROM undo_points WHERE game_id = ? AND version <= (SELECT version"
               " FROM undo_points WHERE game_id = ? ORDER BY version DESC LIMIT 1 OFFSET ?)",
               (game_id, game_id, UNDO_KEPT))


def _flag(value: bool | None) -> int | None:
    return None if value is None else int(value)


def _record_played(db: sqlite3.Connection, guild_id: int, kind: str, keys: Sequence[str],
                   now: float) -> None:
    """Insert the keys not yet recorded; one already there keeps its first time."""
    if keys:
        db.executemany(
            "INSERT INTO played_content (guild_id, kind, content_key, first_played_at)"
            " VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
            [(guild_id, kind, key, now) for key in dict.fromkeys(keys)])


def _replace_timers(db: sqlite3.Connection, table: Table, version: int,
                    timers: Sequence[TimerArm]) -> None:
    """The game's timers are those of its new version only."""
    db.execute("DELETE FROM turn_timers WHERE game_id = ?", (table.id,))
    if timers:
        db.executemany(
            f"INSERT INTO turn_timers ({_TIMER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(table.id, t.kind, version, table.channel_id, t.seat, t.user_id, t.due_at,
              t.armed_at) for t in timers])


def _append(db: sqlite3.Connection, game_id: int, events: Sequence[Event], first_seq: int,
            version: int, actor_id: int | None, action: dict[str, Any] | None,
            now: float) -> None:
    if not events:
        return
    action_json = json.dumps(action) if action is not None else None
    db.executemany(
        "INSERT INTO events (game_id, seq, version, ts, actor_id, action_json,"
        " audience, text, kind) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(game_id, first_seq + n, version, now, actor_id, action_json,
          event.audience.encode(), event.text, event.kind)
         for n, event in enumerate(events)])
