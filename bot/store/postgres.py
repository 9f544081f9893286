"""PostgreSQL storage (asyncpg): the same Store as SQLite, for several bot processes on
one database.

Every write is one transaction, as in SQLite. A save first locks its game's row
(SELECT ... FOR UPDATE) and checks the version there, so two processes saving one game
at once are serialised by the database: the second waits for the first to commit, then
finds the version moved and raises StaleVersion, having written nothing. The UPDATE
keeps the version check too. A timer is claimed by deleting its row, which only one
transaction can do.

A change to a channel's game (load, apply, save) runs under `channel_lock`, and its
delivery (the posts, then the mark) under `delivery_lock`, so a slow Discord keeps no
other process from the game: each is a session-level advisory lock on a key made from
the channel id, the two kept apart by the key's prefix. A free lock is taken on one of a
few connections shared by every channel (a session holds any number of locks), so no
connection is held per channel for the whole action: with a pool of 20 lock connections
held that way, 200 channels acting at once had 15% of their actions refused "busy" while
nobody else was in those channels. Only a lock another process holds is waited for, in
PostgreSQL's queue, on a connection of a waiting pool of its own (the action's queries
use the main pool, so holders can never starve themselves of connections), up to
LOCK_WAIT; then ChannelBusy, having done nothing: a click is answered within Discord's
three seconds, "busy, try again". Should a process die holding a lock, PostgreSQL drops
it with the session.

The statements are SQLite's (bot/store/rows.py) with numbered placeholders; JSON is
kept as TEXT and decoded here.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, suppress
from functools import cache
from typing import Any

import asyncpg

from bot.core.events import Event
from bot.live_record import LiveMessage
from bot.store import records as R
from bot.store import rows as Q
from bot.store.base import (
    ChannelBusy,
    Export,
    GameExists,
    NotEmpty,
    StaleVersion,
    StoreError,
    StoreUnavailable,
)
from bot.store.pg_migrations import MIGRATION_LOCK, MIGRATIONS, SCHEMA_VERSION_TABLE
from bot.table_record import OVER, UNDO_KEPT, Table

_COLUMNS = Q.GAME_COLUMNS.format(envelope="state_json")
_ACTION_KIND = "(action_json::jsonb ->> 'kind')"
_ONE_OPEN_PER_CHANNEL = "games_one_open_per_channel"
_LOCK_GAME = "SELECT version FROM games WHERE id = $1 FOR UPDATE"
# How long an action waits for another process's hold on its channel (Discord wants an
# answer to a click within 3 s; the rest is the action's own time).
LOCK_WAIT = 2.0
_LOCK_KEY_PREFIX = b"hauntkeeper.channel:"  # keeps our keys apart from other users' locks
_DELIVERY_KEY_PREFIX = b"hauntkeeper.delivery:"  # and a channel's delivery from its changes
_TRY_LOCK = "SELECT set_config('lock_timeout', $1, true), pg_advisory_lock($2)"
_UNLOCK = "SELECT pg_advisory_unlock($1)"
_TRY_NOW = "SELECT pg_try_advisory_lock($1)"
SHARED_LOCK_SESSIONS = 2  # connections holding the free locks taken, for all channels
# A server that does not answer (a host gone, not refusing) is an outage after this
# long, not a click kept a minute (asyncpg's default).
CONNECT_SECONDS = 5.0
# What the server answers when it refuses who connects (a wrong password or role, class
# 28) or the database named does not exist (3D000): a setting, not an outage.
REFUSED_WHO = (asyncpg.InvalidAuthorizationSpecificationError,
               asyncpg.InvalidCatalogNameError)
_COLUMN_TYPES = ("SELECT column_name, data_type FROM information_schema.columns"
                 " WHERE table_schema = current_schema() AND table_name = $1")
_RESTART_GAME_IDS = "SELECT setval(pg_get_serial_sequence('games', 'id'), $1, false)"


@cache
def _pg(sql: str) -> str:
    """A shared statement in PostgreSQL's placeholders (numbered once per statement)."""
    return Q.numbered(sql)


def _table(row: Sequence[Any]) -> Table:
    return Q.table_of(row, json.loads(row[6]))


def channel_lock_key(channel_id: int) -> int:
    """The advisory lock's bigint key for a channel: a hash, so the keys are spread over
    the whole range and do not meet the migration's or another application's small
    numbers (two channels sharing a key would only wait for each other)."""
    return _key(_LOCK_KEY_PREFIX, channel_id)


def delivery_lock_key(channel_id: int) -> int:
    """The advisory lock's key for a channel's deliveries: another hash, so a delivery
    never waits for a change to the game, nor the reverse."""
    return _key(_DELIVERY_KEY_PREFIX, channel_id)


def _key(prefix: bytes, channel_id: int) -> int:
    digest = hashlib.blake2b(prefix + str(channel_id).encode(), digest_size=8)
    return int.from_bytes(digest.digest(), "big", signed=True)


class PostgresStore:
    # A server several processes share: any answer from it ends an outage (store/guard).
    server = True

    def __init__(self, url: str, *, min_size: int = 0, max_size: int = 10,
                 lock_connections: int = 20, lock_wait: float = LOCK_WAIT) -> None:
        self.url = url
        self._sizes = (min_size, max_size)
        # Connections that wait for a channel another process holds (one each, while it
        # waits and then acts): only contended channels need one.
        self._lock_connections = lock_connections
        self.lock_wait = lock_wait
        self._shared = [_SharedLocks(url) for _ in range(SHARED_LOCK_SESSIONS)]
        self._pool: asyncpg.Pool | None = None
        self._lock_pool: asyncpg.Pool | None = None
        self._clicks = 0  # count_click calls, for the sweep of old slots

    async def open(self) -> None:
        """The pools and the schema. A server that cannot be reached (down, or not up
        yet at boot) is StoreUnavailable, a failure a restart may mend; one that refuses
        who we are (the password, the role, the database's name) is a StoreError, a
        setting to fix. Either says so in one line, never repeating the URL (it may hold
        a password): asyncpg's own words alone ("Connect call failed ...") named
        neither PostgreSQL nor the setting."""
        try:
            await self._open()
        except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            await self.close()
            said = str(exc) or type(exc).__name__
            if isinstance(exc, REFUSED_WHO):
                raise StoreError(f"PostgreSQL refused the connection: {said}") from exc
            raise StoreUnavailable(f"PostgreSQL could not be reached: {said}") from exc

    async def _open(self) -> None:
        """No floor of idle connections (min_size 0): after a restart of the server
        asyncpg would try to restore one in the background, logging a traceback per
        try; the pool drops connections the server closed and makes new ones as they
        are needed, which is all a restart needs (bot/store/guard.py)."""
        self._pool = await asyncpg.create_pool(self.url, min_size=self._sizes[0],
                                               max_size=self._sizes[1],
                                               timeout=CONNECT_SECONDS)
        self._lock_pool = await asyncpg.create_pool(self.url, min_size=0,
                                                    max_size=self._lock_connections,
                                                    timeout=CONNECT_SECONDS)
        await self._migrate()
        await self.pool.execute(_pg(Q.DROP_FINISHED_UNDO), OVER)  # what an older bot left

    async def close(self) -> None:
        pools, self._pool, self._lock_pool = (self._pool, self._lock_pool), None, None
        for shared in self._shared:
            await shared.close()
        for pool in pools:
            if pool is not None:
                await pool.close()

    def channel_lock(self, channel_id: int) -> AbstractAsyncContextManager[None]:
        """The channel's advisory lock, held until the block ends (see the module's
        docstring); ChannelBusy if it is not ours within `lock_wait`, naming why."""
        return self._advisory(channel_id, channel_lock_key(channel_id), wait=True)

    def delivery_lock(self, channel_id: int, *,
                      wait: bool = True) -> AbstractAsyncContextManager[None]:
        """The channel's delivery lock, as `channel_lock` on a key of its own; not
        `wait`: ChannelBusy at once when another process holds it."""
        return self._advisory(channel_id, delivery_lock_key(channel_id), wait=wait)

    @asynccontextmanager
    async def _advisory(self, channel_id: int, key: int, *, wait: bool) -> AsyncIterator[None]:
        """An advisory lock on `key`, held until the block ends.

        A free lock is taken on a connection shared by many channels (`_SharedLocks`):
        no connection is held per channel for the whole action, so any number of
        channels act at once. Only a lock another process holds is waited for, in
        PostgreSQL's queue, on a connection of the waiting pool."""
        if self._lock_pool is None:
            raise RuntimeError("The store is not open.")
        deadline = time.monotonic() + self.lock_wait
        shared = self._shared[key % len(self._shared)]
        conn = await shared.try_lock(key)
        if conn is not None:
            try:
                yield
            finally:
                await shared.unlock(conn, key)
            return
        if not wait:
            raise ChannelBusy(f"channel {channel_id} is held by another process")
        async with self._waited_lock(channel_id, key, deadline):
            yield

    @asynccontextmanager
    async def _waited_lock(self, channel_id: int, key: int,
                           deadline: float) -> AsyncIterator[None]:
        """Another process holds the channel: queue for its lock on a connection of the
        waiting pool, and hold it there, up to the deadline."""
        assert self._lock_pool is not None
        try:
            conn = await self._lock_pool.acquire(
                timeout=max(0.001, deadline - time.monotonic()))
        except TimeoutError:
            raise ChannelBusy(f"channel {channel_id} is held by another process, and "
                              "every waiting connection is taken") from None
        try:
            wait_ms = max(1, int((deadline - time.monotonic()) * 1000))
            try:
                async with conn.transaction():  # the timeout is the transaction's; the
                    await conn.execute(_TRY_LOCK, f"{wait_ms}ms", key)  # lock outlives it
            except asyncpg.LockNotAvailableError:
                raise ChannelBusy(f"channel {channel_id} is held by another process"
                                  ) from None
            try:
                yield
            finally:  # a lost connection took its lock with it: the action's own error
                with suppress(asyncpg.PostgresError, asyncpg.InterfaceError, OSError):
                    await conn.execute(_UNLOCK, key)  # is the one to see
        finally:  # the pool's reset unlocks all too, should the unlock not have run
            await self._lock_pool.release(conn)

    @property
    def pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise RuntimeError("The store is not open.")
        return self._pool

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """One statement written as for SQLite (`?` placeholders), in a transaction of
        its own: what tools and tests reach past the interface with, on either store."""
        return [tuple(row) for row in await self._fetch(sql, *params)]

    async def _fetch(self, sql: str, *args: Any) -> list[asyncpg.Record]:
        return list(await self.pool.fetch(_pg(sql), *args))

    async def _execute(self, sql: str, *args: Any) -> None:
        await self.pool.execute(_pg(sql), *args)

    async def _migrate(self) -> None:
        """Every step not yet run, in one transaction under the migration lock: a second
        process starting at once waits, then finds nothing left to do."""
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            await conn.execute(SCHEMA_VERSION_TABLE)
            current = int(await conn.fetchval("SELECT version FROM schema_version") or 0)
            for script in MIGRATIONS[current:]:
                await conn.execute(script)
            if current < len(MIGRATIONS):
                await conn.execute(
                    "INSERT INTO schema_version (version) VALUES ($1) ON CONFLICT (only_row)"
                    " DO UPDATE SET version = excluded.version", len(MIGRATIONS))

    async def schema_version(self) -> int:
        return int(await self.pool.fetchval("SELECT version FROM schema_version") or 0)

    # -- copying a whole store (bot/store/copy.py) --------------------------------------------

    async def export_rows(self) -> Export:
        """Every table as of one moment (a repeatable-read, read-only transaction)."""
        out: Export = {}
        async with self.pool.acquire() as conn, conn.transaction(isolation="repeatable_read",
                                                                 readonly=True):
            for table in Q.COPIED_TABLES:
                statement = await conn.prepare(Q.export_sql(table))
                out[table] = ([a.name for a in statement.get_attributes()],
                              [tuple(row) for row in await statement.fetch()])
        return out

    async def import_rows(self, tables: Export) -> dict[str, int]:
        """An export (SqliteStore.export_rows) written into this empty database in one
        transaction: the ids as they were, the next game's id after them, and each
        table's count checked against the rows given before it commits. NotEmpty, and
        nothing written, if any table holds a row; StoreError if a table or column is
        missing on either side. SQLite's 0/1 flags become booleans where the column here
        is one. Returns the rows now in each table."""
        async with self.pool.acquire() as conn, conn.transaction():
            # No bot started too early writes in between (a copy is made while stopped).
            await conn.execute(f"LOCK TABLE {', '.join(Q.COPIED_TABLES)} IN EXCLUSIVE MODE")
            held = {t: int(await conn.fetchval(Q.count_sql(t))) for t in Q.COPIED_TABLES}
            if any(held.values()):
                said = ", ".join(f"{t} {n}" for t, n in held.items() if n)
                raise NotEmpty(f"the target database is not empty ({said} rows)")
            for table in Q.COPIED_TABLES:
                if table not in tables:
                    raise StoreError(f"the export has no table {table}")
                columns, rows = tables[table]
                types = {str(r[0]): str(r[1]) for r in await conn.fetch(_COLUMN_TYPES, table)}
                missing = [c for c in columns if c not in types]
                if missing:
                    raise StoreError(f"{table} has no column {', '.join(missing)} here")
                flags = [n for n, c in enumerate(columns) if types[c] == "boolean"]
                if rows:
                    await conn.copy_records_to_table(
                        table, columns=columns, records=[_flags_as_booleans(r, flags)
                                                         for r in rows])
            await conn.execute(_RESTART_GAME_IDS, int(await conn.fetchval(Q.NEXT_GAME_ID)))
            counts = {t: int(await conn.fetchval(Q.count_sql(t))) for t in Q.COPIED_TABLES}
            expected = {t: len(tables[t][1]) for t in Q.COPIED_TABLES}
            if counts != expected:  # raising rolls the whole copy back
                raise StoreError(f"rows written {counts} differ from rows read {expected}")
        return counts

    # -- games ------------------------------------------------------------------------------

    async def _one(self, sql: str, *args: Any) -> Table | None:
        rows = await self._fetch(sql.format(columns=_COLUMNS), *args)
        return _table(rows[0]) if rows else None

    async def load(self, channel_id: int) -> Table | None:
        rows = await self._fetch(Q.LOAD_OPEN_LIVE.format(columns=_COLUMNS), channel_id, OVER)
        return Q.with_live(_table(rows[0]), rows[0]) if rows else None

    async def load_game(self, game_id: int) -> Table | None:
        return await self._one(Q.LOAD_GAME, game_id)

    async def load_latest(self, channel_id: int) -> Table | None:
        return await self._one(Q.LOAD_LATEST, channel_id)

    async def load_last_over(self, channel_id: int) -> Table | None:
        return await self._one(Q.LOAD_LAST_OVER, channel_id, OVER)

    async def create(self, table: Table, events: Sequence[Event], actor_id: int | None,
                     action: dict[str, Any] | None, *, ai_turn: bool | None = False) -> Table:
        """As SQLite's: the opening events count as delivered."""
        now = time.time()
        envelope = json.dumps(table.envelope())
        try:
            async with self.pool.acquire() as conn, conn.transaction():
                game_id = int(await conn.fetchval(
                    _pg(Q.INSERT_GAME), table.channel_id, table.guild_id, table.kind,
                    table.status, envelope, now, now, len(events), len(events), ai_turn))
                await _append(conn, game_id, events, 1, 1, actor_id, action, now)
        except asyncpg.UniqueViolationError as exc:
            if exc.constraint_name != _ONE_OPEN_PER_CHANNEL:
                raise
            raise GameExists(str(table.channel_id)) from exc
        return Q.created(table, game_id, len(events))

    async def save(  # the Store's signature (bot/store/base.py)
            self, table: Table, events: Sequence[Event], *, expected_version: int,
            actor_id: int | None, action: dict[str, Any] | None, delivered: bool = False,
            ai_turn: bool | None = None, envelope: str | None = None,
            played: Sequence[str] = (), undo: R.UndoWrite | None = None,
            timers: Sequence[R.TimerArm] = (), result: R.GameResult | None = None,
            moves: str | None = None) -> Table:
        """As SQLite's (bot/store/base.py says what each argument does), the game's row
        locked first so a racing save in another process waits and then loses."""
        now = time.time()
        state_json = json.dumps(table.envelope()) if envelope is None else envelope
        count = len(events)
        game_id = table.id or 0
        async with self.pool.acquire() as conn, conn.transaction():
            if await conn.fetchval(_LOCK_GAME, game_id) != expected_version:
                raise StaleVersion(f"game {table.id} is past version {expected_version}")
            if undo is not None:  # before the update: the point is the row as it was
                await _write_undo(conn, game_id, expected_version, undo, actor_id, now)
            row = await conn.fetchrow(
                _pg(Q.SAVE_GAME), table.status, state_json, now, ai_turn, count, delivered,
                count, game_id, expected_version)
            if row is None:
                raise StaleVersion(f"game {table.id} is past version {expected_version}")
            await _append(conn, game_id, events, row[0] - count + 1, expected_version + 1,
                          actor_id, action, now)
            if table.guild_id is not None:
                await _record_played(conn, table.guild_id, table.kind, played, now)
            await conn.execute(_pg(Q.DROP_TIMERS), game_id)
            if timers:
                await conn.executemany(_pg(Q.INSERT_TIMER),
                                       Q.timer_rows(table, expected_version + 1, timers))
            if moves is not None:
                await conn.execute(_pg(Q.INSERT_MOVES), game_id, expected_version + 1, moves)
            if table.status == OVER:  # out of undo's reach: its points go with it
                await conn.execute(_pg(Q.DROP_ALL_UNDO), game_id)
            if result is not None:
                await conn.execute(_pg(Q.INSERT_RESULT), *Q.result_params(result, now))
                await conn.executemany(_pg(Q.INSERT_SEAT), Q.seat_rows(result))
        return Q.saved(table, expected_version + 1, int(row[0]), int(row[1]))

    # -- turn timers -------------------------------------------------------------------------

    async def timers_due(self, before: float, *, limit: int = 100) -> list[R.TurnTimer]:
        return [R.TurnTimer(*row) for row in await self._fetch(Q.TIMERS_DUE, float(before),
                                                             limit)]

    async def timers_of(self, game_id: int) -> list[R.TurnTimer]:
        return [R.TurnTimer(*row) for row in await self._fetch(Q.TIMERS_OF, game_id)]

    async def claim_timer(self, timer: R.TurnTimer) -> R.TurnTimer | None:
        """One DELETE: of two processes claiming at once, the second finds no row."""
        row = await self.pool.fetchrow(_pg(Q.CLAIM_TIMER), timer.game_id, timer.kind,
                                       timer.version)
        return R.TurnTimer(*row) if row is not None else None

    # -- what each server has played -------------------------------------------------------

    async def record_played(self, guild_id: int, kind: str, keys: Sequence[str]) -> None:
        async with self.pool.acquire() as conn, conn.transaction():
            await _record_played(conn, guild_id, kind, keys, time.time())

    async def played(self, guild_id: int, kind: str) -> list[str]:
        return [str(row[0]) for row in await self._fetch(Q.PLAYED, guild_id, kind)]

    async def list_open(self) -> list[Table]:
        return [_table(r) for r in await self._fetch(Q.LIST_OPEN.format(columns=_COLUMNS),
                                                     OVER)]

    async def recently_played(self, limit: int) -> list[Table]:
        sql = Q.RECENTLY_PLAYED.format(columns=_COLUMNS)
        return [Q.with_live(_table(r), r) for r in await self._fetch(sql, OVER, limit)]

    async def needing_attention(self, *, ai_turns: bool = True) -> list[tuple[int, int]]:
        rows = await self._fetch(Q.needing_attention_sql(ai_turns))
        return [(int(r[0]), int(r[1])) for r in rows]

    async def settle_ai_turn(self, game_id: int, version: int, ai_turn: bool) -> None:
        await self._execute(Q.SETTLE_AI_TURN, ai_turn, game_id, version)

    async def count_games(self) -> int:
        return int(await self.pool.fetchval(Q.COUNT_GAMES) or 0)

    async def count_open(self) -> int:
        return int(await self.pool.fetchval(_pg(Q.COUNT_OPEN), OVER) or 0)

    async def open_games_of(self, user_id: int) -> list[Table]:
        rows = await self._fetch(Q.OPEN_GAMES_OF.format(columns=_COLUMNS), OVER,
                                 Q.open_games_pattern(user_id))
        return [t for t in map(_table, rows) if t.seats_of(user_id)]

    async def lobby_message(self, game_id: int) -> int | None:
        value = await self.pool.fetchval(_pg(Q.LOBBY_MESSAGE), game_id)
        return int(value) if value is not None else None

    async def set_lobby_message(self, game_id: int, message_id: int) -> None:
        await self._execute(Q.SET_LOBBY_MESSAGE, message_id, game_id)

    # -- events and their delivery ---------------------------------------------------------

    async def log(self, game_id: int, *, limit: int = 20,
                  public_only: bool = True) -> list[R.LoggedEvent]:
        return Q.logged(await self._fetch(Q.log_where(public_only), game_id, limit),
                        newest_first=True)

    async def undelivered(self, game_id: int) -> list[R.LoggedEvent]:
        return Q.logged(await self._fetch(Q.UNDELIVERED, game_id, game_id))

    async def mark_delivered(self, game_id: int, seq: int,
                             live: LiveMessage | None = None, *,
                             dm_from: int | None = None) -> None:
        if live is None and dm_from is None:
            await self._execute(Q.MARK_DELIVERED, seq, game_id, seq)
            return
        async with self.pool.acquire() as conn, conn.transaction():
            if live is not None:
                await conn.execute(_pg(Q.SET_LIVE), *Q.live_params(game_id, live))
            if dm_from is not None:
                await conn.execute(_pg(Q.OPEN_DM_TAIL), game_id, dm_from)
            await conn.execute(_pg(Q.MARK_DELIVERED), seq, game_id, seq)

    async def whispered(self, game_id: int, seq: int) -> None:
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute(_pg(Q.CLOSE_DM_TAIL), game_id, seq, game_id, seq)
            await conn.execute(_pg(Q.MOVE_DM_TAIL), seq + 1, game_id, seq + 1)

    async def dm_tails(self) -> list[tuple[int, int, int, int]]:
        return [(int(r[0]), int(r[1]), int(r[2]), int(r[3]))
                for r in await self._fetch(Q.DM_TAILS)]

    async def tail_events(self, game_id: int, first: int, last: int) -> list[R.LoggedEvent]:
        return Q.logged(await self._fetch(Q.TAIL_EVENTS, game_id, first, last))

    # -- team threads -----------------------------------------------------------------------

    async def get_thread(self, game_id: int, team: str) -> int | None:
        value = await self.pool.fetchval(_pg(Q.GET_THREAD), game_id, team)
        return int(value) if value is not None else None

    async def threads_of(self, game_id: int) -> list[int]:
        return [int(row[0]) for row in await self._fetch(Q.THREADS_OF, game_id)]

    async def set_thread(self, game_id: int, team: str, thread_id: int) -> None:
        await self._execute(Q.SET_THREAD, game_id, team, thread_id)

    async def thread_members(self, game_id: int, thread_id: int) -> R.ThreadMembers:
        users = await self._fetch(Q.THREAD_MEMBERS, game_id, thread_id)
        kept = await self.pool.fetchval(_pg(Q.THREAD_MEMBERS_KEPT), game_id, thread_id)
        return R.ThreadMembers(frozenset(int(r[0]) for r in users), bool(kept))

    async def add_thread_member(self, game_id: int, thread_id: int, user_id: int) -> None:
        await self._execute(Q.ADD_THREAD_MEMBER, game_id, thread_id, user_id)

    async def set_thread_members(self, game_id: int, thread_id: int,
                                 user_ids: Sequence[int]) -> None:
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute(_pg(Q.CLEAR_THREAD_MEMBERS), game_id, thread_id)
            await conn.executemany(_pg(Q.ADD_THREAD_MEMBER),
                                   [(game_id, thread_id, u) for u in dict.fromkeys(user_ids)])
            await conn.execute(_pg(Q.KEEP_THREAD_MEMBERS), game_id, thread_id)

    # -- undo points and the moderators' log ---------------------------------------------

    async def undo_points(self, game_id: int, *, limit: int = UNDO_KEPT) -> list[R.UndoPoint]:
        rows = await self._fetch(Q.UNDO_POINTS.format(envelope="envelope"), game_id, limit)
        return [Q.undo_point_of(r, json.loads(r[1])) for r in rows]

    async def actions(self, game_id: int) -> list[tuple[int, int | None, dict[str, Any] | None]]:
        return Q.actions_of(await self._fetch(Q.ACTIONS_OF, game_id))

    async def moves(self, game_id: int) -> list[tuple[int, list[dict[str, Any]]]]:
        return Q.moves_of(await self._fetch(Q.MOVES_OF, game_id))

    async def moderator_log(self, game_id: int, *, limit: int = 25) -> list[R.LoggedEvent]:
        rows = await self._fetch(Q.MODERATOR_LOG.format(kind=_ACTION_KIND), game_id, game_id,
                                 limit)
        return Q.logged(rows, newest_first=True)

    # -- clicks counted across processes (cogs/click_limit.py) ---------------------------

    async def count_click(self, user_id: int, slot: int, most: int) -> bool:
        """One statement, one round trip (an upsert on an UNLOGGED table). Every
        PRUNE_CLICKS calls the slots before the last go."""
        self._clicks += 1
        if self._clicks % PRUNE_CLICKS == 0:
            await self.pool.execute(_DROP_OLD_CLICKS, slot - 1)
        return await self.pool.fetchval(_COUNT_CLICK, user_id, slot, most) is not None

    # -- server settings --------------------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        value = await self.pool.fetchval(_pg(Q.GUILD_SETTINGS), guild_id)
        return dict(json.loads(value)) if value is not None else {}

    async def set_guild_settings(self, guild_id: int, settings: dict[str, Any]) -> None:
        await self._execute(Q.SET_GUILD_SETTINGS, guild_id, Q.settings_json(settings),
                            time.time())

    # -- servers the bot left ---------------------------------------------------------------

    async def schedule_forget(self, guild_id: int, at: float) -> None:
        await self._execute(Q.SET_DEPARTURE, guild_id, at)

    async def cancel_forget(self, guild_id: int) -> bool:
        status = await self.pool.execute(_pg(Q.CANCEL_DEPARTURE), guild_id)
        return not status.endswith(" 0")

    async def forgets_due(self, now: float) -> list[int]:
        return [int(row[0]) for row in await self._fetch(Q.DEPARTURES_DUE, now)]

    async def forget_guild(self, guild_id: int) -> int:
        async with self.pool.acquire() as conn, conn.transaction():
            games = int(await conn.fetchval(_pg(Q.COUNT_GUILD_GAMES), guild_id))
            for statement in Q.FORGET_GUILD:
                await conn.execute(_pg(statement), guild_id)
        return games

    # -- finished games: history, stats, retention -------------------------------------------

    async def _results(self, sql: str, *args: Any) -> list[R.GameResult]:
        rows = await self._fetch(sql, *args)
        if not rows:
            return []
        seats = await self._fetch(Q.seats_sql(len(rows)), *(int(r[0]) for r in rows))
        return Q.results_of(rows, seats)

    async def results(self, guild_id: int, channel_id: int | None = None, *,
                      limit: int = 10, offset: int = 0) -> list[R.GameResult]:
        sql = Q.HISTORY.format(where=Q.history_where(channel_id))
        return await self._results(sql, *Q.history_params(guild_id, channel_id), limit, offset)

    async def count_results(self, guild_id: int, channel_id: int | None = None) -> int:
        sql = Q.COUNT_HISTORY.format(where=Q.history_where(channel_id))
        return int(await self.pool.fetchval(_pg(sql), *Q.history_params(guild_id, channel_id))
                   or 0)

    async def result(self, game_id: int) -> R.GameResult | None:
        found = await self._results(Q.RESULT, game_id)
        return found[0] if found else None

    async def played_seats(self, guild_id: int,
                           user_id: int | None = None) -> list[R.PlayedSeat]:
        args = (guild_id,) if user_id is None else (guild_id, user_id)
        return [Q.played_seat_of(r) for r in await self._fetch(Q.played_seats_sql(user_id),
                                                               *args)]

    async def all_guild_settings(self) -> list[tuple[int, dict[str, Any]]]:
        return [(int(r[0]), dict(json.loads(r[1]))) for r in await self._fetch(Q.ALL_SETTINGS)]

    async def sweep_finished(self, guild_id: int, before: float) -> int:
        async with self.pool.acquire() as conn, conn.transaction():
            games = int(await conn.fetchval(_pg(Q.COUNT_EXPIRED), guild_id, float(before)))
            if games:
                for statement in Q.SWEEP_GAMES:
                    await conn.execute(_pg(statement), guild_id, float(before))
        return games

    # -- live messages ----------------------------------------------------------------------

    async def get_live(self, game_id: int) -> LiveMessage | None:
        rows = await self._fetch(Q.GET_LIVE, game_id)
        return Q.live_of(rows[0]) if rows else None

    async def set_live(self, game_id: int, live: LiveMessage) -> None:
        await self._execute(Q.SET_LIVE, *Q.live_params(game_id, live))

    # -- the bot's notices ------------------------------------------------------------------

    async def add_notice(self, game_id: int, kind: str, detail: str = "") -> None:
        await self._execute(Q.ADD_NOTICE, game_id, time.time(), kind, detail)

    async def notices(self, game_id: int, *, limit: int = 25) -> list[R.Notice]:
        rows = await self._fetch(Q.NOTICES, game_id, limit)
        return [R.Notice(float(r[0]), str(r[1]), str(r[2])) for r in reversed(rows)]


class _SharedLocks:
    """One connection holding the advisory locks of many channels at once (a session
    may hold any number), taking each only when it is free (pg_try_advisory_lock, which
    never waits): its statements are short, so channels take turns on it, one
    statement at a time. A lock is let go on the connection that took it; should that
    connection die, PostgreSQL has let go of its locks already, and a new one is made
    for the next."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._conn: asyncpg.Connection | None = None
        self._gate = asyncio.Lock()  # a connection runs one statement at a time

    async def try_lock(self, key: int) -> asyncpg.Connection | None:
        """The connection now holding `key`'s lock, or None: another process holds it."""
        async with self._gate:
            if self._conn is None or self._conn.is_closed():
                self._conn = await asyncpg.connect(self.url, timeout=CONNECT_SECONDS)
            if await self._conn.fetchval(_TRY_NOW, key):
                return self._conn
            return None

    async def unlock(self, conn: asyncpg.Connection, key: int) -> None:
        async with self._gate:
            held = self._conn
            if held is not None and held is conn and not held.is_closed():
                with suppress(asyncpg.PostgresError, asyncpg.InterfaceError, OSError):
                    await held.execute(_UNLOCK, key)

    async def close(self) -> None:
        async with self._gate:
            conn, self._conn = self._conn, None
            if conn is not None and not conn.is_closed():
                await conn.close()


def _flags_as_booleans(row: tuple[Any, ...], flags: Sequence[int]) -> tuple[Any, ...]:
    if not flags:
        return row
    out = list(row)
    for n in flags:
        if out[n] is not None:
            out[n] = bool(out[n])
    return tuple(out)


PRUNE_CLICKS = 1000  # counted clicks between sweeps of old slots
# The user's count in this slot: a new row at 1, or one more while under `most` (no row
# comes back once it is full).
_COUNT_CLICK = """
INSERT INTO click_counts AS c (user_id, slot, n) VALUES ($1, $2, 1)
ON CONFLICT (user_id, slot) DO UPDATE SET n = c.n + 1 WHERE c.n < $3
RETURNING n
"""
_DROP_OLD_CLICKS = "DELETE FROM click_counts WHERE slot < $1"


async def _write_undo(conn: asyncpg.Connection, game_id: int, version: int, undo: R.UndoWrite,
                      actor_id: int | None, now: float) -> None:
    """As SQLite's: drop what an undo took back, or keep the row at `version`, trimmed."""
    if undo.drop_from is not None:
        await conn.execute(_pg(Q.DROP_UNDO), game_id, undo.drop_from)
    if undo.keep:
        await conn.execute(_pg(Q.KEEP_UNDO), actor_id, undo.summary, now, game_id, version)
        await conn.execute(_pg(Q.TRIM_UNDO), *Q.trim_undo_params(game_id))


async def _record_played(conn: asyncpg.Connection, guild_id: int, kind: str,
                         keys: Sequence[str], now: float) -> None:
    if keys:
        await conn.executemany(_pg(Q.INSERT_PLAYED), Q.played_rows(guild_id, kind, keys, now))


async def _append(conn: asyncpg.Connection, game_id: int, events: Sequence[Event],
                  first_seq: int, version: int, actor_id: int | None,
                  action: dict[str, Any] | None, now: float) -> None:
    if events:
        await conn.executemany(_pg(Q.INSERT_EVENT), Q.event_rows(
            game_id, events, first_seq, version, actor_id, action, now))
