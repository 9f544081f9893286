"""SQLite's WAL checkpoints run beside the writes (bot/store/checkpoints.py): the writer
no longer checkpoints inside a commit (its own checkpoint is only a far-off safety net),
a background thread does after every CHECKPOINT_EVERY commits, on its own connection,
and what was written stays whole across a reopen."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.core.events import Event
from bot.core.seats import Seat
from bot.store import SqliteStore, Table, checkpoints
from bot.store.checkpoints import FALLBACK_PAGES

CHANNEL, GUILD, HOST = 2**60 + 1, 2**60 + 2, 2**60 + 3


async def played(store: SqliteStore, saves: int) -> Table:
    table = await store.create(Table(channel_id=CHANNEL, guild_id=GUILD, kind="cthulhu",
                                     host_id=HOST, seed=1, seats=[Seat("Ann", HOST)]),
                               [], HOST, None)
    for n in range(saves):
        table.state = {"turn": n, "notes": "x" * 2000}
        table = await store.save(table, [Event(f"move {n}")], expected_version=table.version,
                                 actor_id=HOST, action=None)
    return table


async def test_the_writer_leaves_checkpoints_to_the_background(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(checkpoints, "CHECKPOINT_EVERY", 10)
    store = SqliteStore(tmp_path / "hk.sqlite3")
    await store.open()
    try:
        assert (await store.execute("PRAGMA wal_autocheckpoint"))[0][0] == FALLBACK_PAGES
        assert store.checkpoints is not None
        await played(store, 9)  # with the create: 10 commits (and the migrations')
        for _ in range(500):
            if store.checkpoints.done:
                break
            await asyncio.sleep(0.01)
        assert store.checkpoints.done >= 1
        await played_more(store)
    finally:
        await store.close()
    reopened = SqliteStore(tmp_path / "hk.sqlite3")
    await reopened.open()
    try:
        table = await reopened.load(CHANNEL)
        assert table is not None and table.state == {"turn": 2, "notes": "x" * 2000}
    finally:
        await reopened.close()


async def played_more(store: SqliteStore) -> None:
    table = await store.load(CHANNEL)
    assert table is not None
    for n in range(3):
        table.state = {"turn": n, "notes": "x" * 2000}
        table = await store.save(table, [Event(f"again {n}")],
                                 expected_version=table.version, actor_id=HOST, action=None)


async def database_bytes_after(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                               every: int) -> int:
    """The database file's size (not its -wal file's) after 200 saves, the store open:
    pages reach it only by a checkpoint."""
    monkeypatch.setattr(checkpoints, "CHECKPOINT_EVERY", every)
    path = tmp_path / f"every-{every}.sqlite3"
    store = SqliteStore(path)
    await store.open()
    try:
        await played(store, 199)
        assert store.checkpoints is not None
        for _ in range(500):
            if store.checkpoints.done >= 200 // every:
                break
            await asyncio.sleep(0.01)
        return path.stat().st_size
    finally:
        await store.close()


async def test_checkpoints_copy_the_wal_back_while_the_store_stays_open(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """200 saves with no background checkpoint leave the database file as the
    migrations made it (the writer's own checkpoint is 10,000 pages off); with one
    every 50 commits, their pages are copied back into it as the game goes."""
    without = await database_bytes_after(tmp_path, monkeypatch, 10**9)
    with_them = await database_bytes_after(tmp_path, monkeypatch, 50)
    assert with_them > without + 20_000, (without, with_them)


async def test_an_in_memory_store_has_no_checkpoints() -> None:
    store = SqliteStore(":memory:")
    await store.open()
    try:
        assert store.checkpoints is None
        await played(store, 3)
    finally:
        await store.close()


async def test_a_commit_after_the_close_of_its_checkpoints_is_not_failed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The commit a checkpoint would follow is done: a checkpointer already closed (a
    stop under way) starts nothing and raises nothing."""
    monkeypatch.setattr(checkpoints, "CHECKPOINT_EVERY", 1)
    store = SqliteStore(tmp_path / "hk.sqlite3")
    await store.open()
    try:
        assert store.checkpoints is not None
        store.checkpoints.close()
        done = store.checkpoints.done
        await played(store, 3)
        assert store.checkpoints.done == done
        assert (await store.load(CHANNEL)) is not None
    finally:
        await store.close()
