"""The SQLite store's own: migrating old files, crash safety, its query plans (what both
backends must do is in tests/test_store_contract.py)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import sys
from pathlib import Path

import pytest

from bot.core.events import Event
from bot.core.seats import Seat
from bot.store import (
    SqliteStore,
    Table,
    open_store,
)
from bot.store.migrations import MIGRATIONS

ROOT = Path(__file__).resolve().parent.parent


def _table(channel: int = 10, **kw: object) -> Table:
    base: dict[str, object] = dict(channel_id=channel, guild_id=5, kind="cthulhu", host_id=7,
                                   seed=42, seats=[Seat("Ann", 7), Seat("Ada", None, ai=True)])
    base.update(kw)
    return Table(**base)  # type: ignore[arg-type]


@pytest.fixture
async def store(tmp_path: Path) -> SqliteStore:
    s = await open_store(tmp_path / "db.sqlite3")
    yield s  # type: ignore[misc]
    await s.close()









async def test_a_database_from_before_team_threads_is_migrated(tmp_path: Path) -> None:
    """A file made by the first release (schema 1) keeps its games and gains threads."""
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as old:
        old.executescript(MIGRATIONS[0])
        old.execute(
            "INSERT INTO games (channel_id, guild_id, kind, status, state_json, version,"
            " created_at, updated_at) VALUES (10, 5, 'cthulhu', 'lobby', ?, 1, 0, 0)",
            (json.dumps(_table().envelope()),),
        )
        old.execute("PRAGMA user_version = 1")
    old.close()
    s = await open_store(path)
    try:
        assert await s.schema_version() == len(MIGRATIONS) >= 2
        table = await s.load(10)
        assert table is not None and table.seats == _table().seats
        assert table.id is not None
        await s.set_thread(table.id, "heroes", 55)
        assert await s.get_thread(table.id, "heroes") == 55
    finally:
        await s.close()


async def test_a_killed_process_loses_no_saved_action(tmp_path: Path) -> None:
    path = tmp_path / "crash.sqlite3"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    announced = 0
    for _round in range(2):  # kill it twice: the second run continues the first
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.helpers.crash_writer", str(path), "99",
            cwd=ROOT, env=env, stdout=asyncio.subprocess.PIPE)
        assert proc.stdout is not None
        target = announced + 40
        while announced < target:
            line = await asyncio.wait_for(proc.stdout.readline(), timeout=30)
            assert line, "the writer died on its own"
            announced = int(line)
        proc.send_signal(signal.SIGKILL)  # no cleanup, no close: a crash
        await proc.wait()
        store = await open_store(path)
        table = await store.load(99)
        assert table is not None and table.state is not None
        # Everything announced is there; at most the commit in flight went further.
        assert table.version >= announced
        assert table.state["counter"] == table.version - 1
        log = await store.log(table.id or 0, limit=10_000)
        assert len(log) == table.version  # one event per saved version, none torn
        announced = table.version
        await store.close()


async def test_a_database_from_before_the_outbox_is_migrated_as_delivered(
        tmp_path: Path) -> None:
    """A file of schema 2: its games keep their logs, count as delivered (nothing is
    posted twice after the upgrade), and their AI turns are "not known" (resumed once)."""
    path = tmp_path / "v2.sqlite3"
    with sqlite3.connect(path) as old:
        for script in MIGRATIONS[:2]:
            old.executescript(script)
        old.execute(
            "INSERT INTO games (channel_id, guild_id, kind, status, state_json, version,"
            " created_at, updated_at) VALUES (10, 5, 'cthulhu', 'active', ?, 3, 0, 0)",
            (json.dumps(_table().envelope()),))
        old.executemany(
            "INSERT INTO events (game_id, seq, version, ts, audience, text) VALUES (1, ?, ?, 0,"
            " 'public', ?)", [(n, n, f"line {n}") for n in (1, 2, 3)])
        old.execute("PRAGMA user_version = 2")
    old.close()
    s = await open_store(path)
    try:
        table = await s.load(10)
        assert table is not None and table.last_seq == table.delivered_seq == 3
        assert await s.undelivered(table.id or 0) == []
        assert [e.kind for e in await s.log(table.id or 0)] == ["info"] * 3
        assert await s.needing_attention() == [(table.id, 10)]  # not known: look once
        assert await s.needing_attention(ai_turns=False) == []
    finally:
        await s.close()


async def test_a_channels_newest_game_is_found_by_index(store: SqliteStore) -> None:
    """/game status, map and log read the newest game of a channel: an index, no scan
    (55 ms at 100k games with a scan, 0.1 ms with the index)."""
    rows = await store.execute(
        "EXPLAIN QUERY PLAN SELECT id FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
        (10,))
    plan = " ".join(str(r[-1]) for r in rows)
    assert "games_by_channel" in plan and "SCAN games" not in plan




async def test_a_database_of_schema_3_gains_played_content(tmp_path: Path) -> None:
    """A file of the current release before this step (schema 3) keeps its games and
    starts with nothing played."""
    path = tmp_path / "v3.sqlite3"
    with sqlite3.connect(path) as old:
        for script in MIGRATIONS[:3]:
            old.executescript(script)
        old.execute(
            "INSERT INTO games (channel_id, guild_id, kind, status, state_json, version,"
            " created_at, updated_at, last_seq, delivered_seq) VALUES"
            " (10, 5, 'betrayal', 'active', ?, 3, 0, 0, 0, 0)",
            (json.dumps(_table(kind="betrayal").envelope()),))
        old.execute("PRAGMA user_version = 3")
    old.close()
    s = await open_store(path)
    try:
        assert await s.schema_version() == len(MIGRATIONS)
        table = await s.load(10)
        assert table is not None and table.version == 3
        assert await s.played(5, "betrayal") == []
        await s.save(table, [], expected_version=3, actor_id=None, action=None,
                     played=["its_alive"])
        assert await s.played(5, "betrayal") == ["its_alive"]
    finally:
        await s.close()


async def test_a_played_key_keeps_its_first_time_and_a_game_outside_a_server_records_none(
        store: SqliteStore) -> None:
    """What the contract (tests/test_store_contract.py) can only see through the order,
    read here in the rows themselves."""
    query = ("SELECT first_played_at FROM played_content WHERE guild_id = 5"
             " AND kind = 'betrayal' AND content_key = 'its_alive'")
    await store.record_played(5, "betrayal", ["its_alive"])
    first = await store.execute(query)
    table = await store.create(_table(kind="betrayal"), [], 7, None)
    await store.save(table, [Event("begins")], expected_version=1, actor_id=7, action=None,
                     played=["its_alive"])
    assert await store.execute(query) == first
    no_guild = await store.create(_table(channel=12, guild_id=None, kind="betrayal"), [], 7,
                                  None)
    await store.save(no_guild, [], expected_version=1, actor_id=7, action=None,
                     played=["offspring"])
    assert await store.execute("SELECT COUNT(*) FROM played_content") == [(1,)]
