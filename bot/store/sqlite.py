"""SQLite storage through aiosqlite: WAL mode, one transaction per action, version checks.

WAL with synchronous=NORMAL keeps every committed action through a crash of the
process (the case that matters for a bot); only a power cut can drop the last commits.

Many channels save at once, and one connection holds at most one transaction: so every
statement on the writing connection runs under one lock, a transaction from BEGIN to
COMMIT at a time (measured against a connection per transaction and a writer task: the
lock is as fast, since SQLite takes one writer at a time anyway, and the simplest). Reads
go to a second connection, where WAL shows them the last commit and never a neighbour's
half-written transaction, and they never wait for a writer.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Any

import aiosqlite

from bot.core.events import Event
from bot.store.base import GameExists, StaleVersion
from bot.store.migrations import MIGRATIONS
from bot.store.records import OVER, LoggedEvent, Table

# state_json is read through the "envelope" converter, so the JSON is decoded in the
# connection's own thread, never on the event loop.
_COLUMNS = ('id, channel_id, guild_id, kind, status, version, state_json AS "e [envelope]",'
            ' last_seq, delivered_seq')
_EVENT_COLUMNS = "seq, version, ts, actor_id, audience, text, kind"
MEMORY = ":memory:"

sqlite3.register_converter("envelope", json.loads)


class SqliteStore:
    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._writer: aiosqlite.Connection | None = None
        self._reader: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()

    @property
    def db(self) -> aiosqlite.Connection:
        """The writing connection (tests and tools read the schema through it)."""
        if self._writer is None:
            raise RuntimeError("The store is not open.")
        return self._writer

    async def open(self) -> None:
        if self.path != MEMORY:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._writer = await self._connect()
        await self._migrate()
        # An in-memory database lives in one connection: reads share it (and the lock).
        self._reader = self._writer if self.path == MEMORY else await self._connect()

    async def _connect(self) -> aiosqlite.Connection:
        db = await aiosqlite.connect(self.path, isolation_level=None,
                                     detect_types=sqlite3.PARSE_COLNAMES)
        await db.execute("PRAGMA journal_mode=WAL")
        await db.execute("PRAGMA synchronous=NORMAL")
        await db.execute("PRAGMA foreign_keys=ON")
        await db.execute("PRAGMA busy_timeout=5000")
        return db

    async def close(self) -> None:
        reader, writer = self._reader, self._writer
        self._reader = self._writer = None
        if reader is not None and reader is not writer:
            await reader.close()
        if writer is not None:
            await writer.close()

    # -- the two connections ----------------------------------------------------------------

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """BEGIN IMMEDIATE ... COMMIT on the writing connection, one at a time."""
        async with self._lock:
            db = self.db
            await db.execute("BEGIN IMMEDIATE")
            try:
                yield db
                await db.execute("COMMIT")
            except BaseException:
                # A COMMIT that was cancelled may still have run: then there is nothing
                # to roll back, and the first error is the one to report.
                with suppress(sqlite3.Error):
                    await db.execute("ROLLBACK")
                raise

    async def _write(self, sql: str, params: Sequence[Any]) -> None:
        """One statement on its own: atomic without BEGIN, but still never inside a
        neighbour's open transaction."""
        async with self._lock:
            await self.db.execute(sql, params)

    async def _read(self, sql: str, params: Sequence[Any] = ()) -> Iterable[sqlite3.Row]:
        if self._reader is None:
            raise RuntimeError("The store is not open.")
        if self._reader is self._writer:
            async with self._lock:
                return await self._reader.execute_fetchall(sql, params)
        return await self._reader.execute_fetchall(sql, params)

    async def _migrate(self) -> None:
        rows = await self.db.execute_fetchall("PRAGMA user_version")
        current = next(iter(rows))[0] if rows else 0
        for number, script in enumerate(MIGRATIONS[current:], start=current + 1):
            async with self._transaction() as db:
                for statement in filter(str.strip, script.split(";")):
                    await db.execute(statement)
                await db.execute(f"PRAGMA user_version = {number}")

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
        try:
            async with self._transaction() as db:
                try:
                    cur = await db.execute(
                        "INSERT INTO games (channel_id, guild_id, kind, status, state_json,"
                        " version, created_at, updated_at, last_seq, delivered_seq, ai_turn)"
                        " VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?)",
                        (table.channel_id, table.guild_id, table.kind, table.status, envelope,
                         now, now, len(events), len(events), _flag(ai_turn)),
                    )
                except sqlite3.IntegrityError as exc:
                    raise GameExists(str(table.channel_id)) from exc
                table.id = cur.lastrowid
                table.version = 1
                await self._append(db, table, events, 1, actor_id, action, now)
        except BaseException:
            table.id = None
            table.version = 0
            raise
        table.last_seq = table.delivered_seq = len(events)
        return table

    async def save(self, table: Table, events: Sequence[Event], *, expected_version: int,
                   actor_id: int | None, action: dict[str, Any] | None,
                   delivered: bool = False, ai_turn: bool | None = None,
                   envelope: str | None = None) -> Table:
        """The new state, its events and the outbox cursor in one transaction.

        `delivered` says the events need no delivery (a lobby change the interaction
        answers itself); the cursor then moves only if nothing older is still owed.
        `ai_turn` says whether an AI seat is to act next (None: unknown). `envelope` is
        the table's envelope as JSON when the caller serialised it already (off the
        event loop).
        """
        now = time.time()
        if envelope is None:
            envelope = json.dumps(table.envelope())
        count = len(events)
        async with self._transaction() as db:
            rows = list(await db.execute_fetchall(
                "UPDATE games SET status = ?, state_json = ?, version = version + 1,"
                " updated_at = ?, ai_turn = ?, last_seq = last_seq + ?,"
                " delivered_seq = CASE WHEN ? AND delivered_seq = last_seq"
                "                 THEN last_seq + ? ELSE delivered_seq END"
                " WHERE id = ? AND version = ? RETURNING last_seq, delivered_seq",
                (table.status, envelope, now, _flag(ai_turn), count, int(delivered), count,
                 table.id, expected_version),
            ))
            if not rows:
                raise StaleVersion(f"game {table.id} is past version {expected_version}")
            last_seq, delivered_seq = rows[0]
            await self._append(db, table, events, last_seq - count + 1, actor_id, action, now,
                               version=expected_version + 1)
        table.version = expected_version + 1
        table.last_seq, table.delivered_seq = last_seq, delivered_seq
        return table

    @staticmethod
    async def _append(db: aiosqlite.Connection, table: Table, events: Sequence[Event],
                      first_seq: int, actor_id: int | None, action: dict[str, Any] | None,
                      now: float, *, version: int = 1) -> None:
        if not events:
            return
        action_json = json.dumps(action) if action is not None else None
        await db.executemany(
            "INSERT INTO events (game_id, seq, version, ts, actor_id, action_json,"
            " audience, text, kind) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(table.id, first_seq + n, version, now, actor_id, action_json,
              event.audience.encode(), event.text, event.kind)
             for n, event in enumerate(events)],
        )

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

    async def count_games(self) -> int:
        rows = list(await self._read("SELECT COUNT(*) FROM games"))
        return int(rows[0][0]) if rows else 0

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
        await self._write("UPDATE games SET delivered_seq = ? WHERE id = ? AND delivered_seq < ?",
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
        await self._write(
            "INSERT INTO team_threads (game_id, team, thread_id) VALUES (?, ?, ?)"
            " ON CONFLICT (game_id, team) DO UPDATE SET thread_id = excluded.thread_id",
            (game_id, team, thread_id))


def _flag(value: bool | None) -> int | None:
    return None if value is None else int(value)
