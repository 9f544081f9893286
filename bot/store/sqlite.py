"""SQLite storage through aiosqlite: WAL mode, one transaction per action, version checks.

WAL with synchronous=NORMAL keeps every committed action through a crash of the
process (the case that matters for a bot); only a power cut can drop the last commits.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import aiosqlite

from bot.core.events import Event
from bot.store.base import GameExists, StaleVersion
from bot.store.migrations import MIGRATIONS
from bot.store.records import OVER, LoggedEvent, Table

_COLUMNS = "id, channel_id, guild_id, kind, status, version, state_json"


class SqliteStore:
    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._db: aiosqlite.Connection | None = None

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("The store is not open.")
        return self._db

    async def open(self) -> None:
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._db = await aiosqlite.connect(self.path, isolation_level=None)
        await self.db.execute("PRAGMA journal_mode=WAL")
        await self.db.execute("PRAGMA synchronous=NORMAL")
        await self.db.execute("PRAGMA foreign_keys=ON")
        await self.db.execute("PRAGMA busy_timeout=5000")
        await self._migrate()

    async def close(self) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None

    async def _migrate(self) -> None:
        async with self.db.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        current = row[0] if row else 0
        for number, script in enumerate(MIGRATIONS[current:], start=current + 1):
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                for statement in filter(str.strip, script.split(";")):
                    await self.db.execute(statement)
                await self.db.execute(f"PRAGMA user_version = {number}")
                await self.db.execute("COMMIT")
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise

    async def schema_version(self) -> int:
        async with self.db.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    @staticmethod
    def _table(row: Any) -> Table:
        return Table.from_row(id=row[0], channel_id=row[1], guild_id=row[2], kind=row[3],
                              status=row[4], version=row[5], envelope=json.loads(row[6]))

    async def load(self, channel_id: int) -> Table | None:
        async with self.db.execute(
            f"SELECT {_COLUMNS} FROM games WHERE channel_id = ? AND status != ?",
            (channel_id, OVER),
        ) as cur:
            row = await cur.fetchone()
        return self._table(row) if row else None

    async def load_latest(self, channel_id: int) -> Table | None:
        async with self.db.execute(
            f"SELECT {_COLUMNS} FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
            (channel_id,),
        ) as cur:
            row = await cur.fetchone()
        return self._table(row) if row else None

    async def create(self, table: Table, events: Sequence[Event], actor_id: int | None,
                     action: dict[str, Any] | None) -> Table:
        now = time.time()
        await self.db.execute("BEGIN IMMEDIATE")
        try:
            try:
                cur = await self.db.execute(
                    "INSERT INTO games (channel_id, guild_id, kind, status, state_json, version,"
                    " created_at, updated_at) VALUES (?, ?, ?, ?, ?, 1, ?, ?)",
                    (table.channel_id, table.guild_id, table.kind, table.status,
                     json.dumps(table.envelope()), now, now),
                )
            except aiosqlite.IntegrityError as exc:
                raise GameExists(str(table.channel_id)) from exc
            table.id = cur.lastrowid
            table.version = 1
            await self._append(table, events, actor_id, action, now)
            await self.db.execute("COMMIT")
        except BaseException:
            await self.db.execute("ROLLBACK")
            table.id = None
            table.version = 0
            raise
        return table

    async def save(self, table: Table, events: Sequence[Event], *, expected_version: int,
                   actor_id: int | None, action: dict[str, Any] | None) -> Table:
        now = time.time()
        await self.db.execute("BEGIN IMMEDIATE")
        try:
            cur = await self.db.execute(
                "UPDATE games SET status = ?, state_json = ?, version = version + 1,"
                " updated_at = ? WHERE id = ? AND version = ?",
                (table.status, json.dumps(table.envelope()), now, table.id, expected_version),
            )
            if cur.rowcount != 1:
                raise StaleVersion(f"game {table.id} is past version {expected_version}")
            table.version = expected_version + 1
            await self._append(table, events, actor_id, action, now)
            await self.db.execute("COMMIT")
        except BaseException:
            await self.db.execute("ROLLBACK")
            table.version = expected_version
            raise
        return table

    async def _append(self, table: Table, events: Sequence[Event], actor_id: int | None,
                      action: dict[str, Any] | None, now: float) -> None:
        async with self.db.execute(
            "SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?", (table.id,)
        ) as cur:
            row = await cur.fetchone()
        seq = row[0] if row else 0
        action_json = json.dumps(action) if action is not None else None
        rows = []
        for event in events:
            seq += 1
            rows.append((table.id, seq, table.version, now, actor_id, action_json,
                         event.audience.encode(), event.text))
        if rows:
            await self.db.executemany(
                "INSERT INTO events (game_id, seq, version, ts, actor_id, action_json,"
                " audience, text) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                rows,
            )

    async def list_open(self) -> list[Table]:
        async with self.db.execute(
            f"SELECT {_COLUMNS} FROM games WHERE status != ?", (OVER,)
        ) as cur:
            rows = await cur.fetchall()
        return [self._table(r) for r in rows]

    async def log(self, game_id: int, *, limit: int = 20,
                  public_only: bool = True) -> list[LoggedEvent]:
        where = "game_id = ?" + (" AND audience = 'public'" if public_only else "")
        async with self.db.execute(
            f"SELECT seq, version, ts, actor_id, audience, text FROM events WHERE {where}"
            " ORDER BY seq DESC LIMIT ?",
            (game_id, limit),
        ) as cur:
            rows = await cur.fetchall()
        return [LoggedEvent(*r) for r in reversed(list(rows))]

    async def count_games(self) -> int:
        async with self.db.execute("SELECT COUNT(*) FROM games") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    async def get_thread(self, game_id: int, team: str) -> int | None:
        async with self.db.execute(
            "SELECT thread_id FROM team_threads WHERE game_id = ? AND team = ?", (game_id, team)
        ) as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else None

    async def threads_of(self, game_id: int) -> list[int]:
        async with self.db.execute(
            "SELECT thread_id FROM team_threads WHERE game_id = ? ORDER BY team", (game_id,)
        ) as cur:
            return [int(row[0]) for row in await cur.fetchall()]

    async def set_thread(self, game_id: int, team: str, thread_id: int) -> None:
        await self.db.execute(
            "INSERT INTO team_threads (game_id, team, thread_id) VALUES (?, ?, ?)"
            " ON CONFLICT (game_id, team) DO UPDATE SET thread_id = excluded.thread_id",
            (game_id, team, thread_id),
        )
