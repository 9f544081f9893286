"""The store away for a while, through Sessions: PostgreSQL stopped and started again,
SQLite's disk full (PRAGMA max_page_count), its file read-only (PRAGMA query_only: the
tests run as root, whom a chmod does not stop). Each time a click during the outage is
refused with StoreUnavailable (the cogs answer one calm line) and changes nothing, the
log says the real cause once per outage with no traceback, and once the store is back
the next click plays, nothing stays owed and nothing shows twice.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot import table as T
from bot.core.actions import Action
from bot.sessions import Sessions
from bot.store import StoreUnavailable, Table, open_store
from bot.store.guard import GuardedStore
from tests.pg_server import NoServer, PgServer
from tests.test_sessions import GUILD, KIND, RecordingOutlet

CHANNEL = 7300
HOST, GUEST = T.Actor(1, "Ann"), T.Actor(2, "Ben")
FILL_MOVES = 300  # bounded: a few moves fill the last pages
WAIT = 20.0  # a bound on waiting for the store to be back, never reached when it works


async def started(sessions: Sessions) -> Table:
    await sessions.open(CHANNEL, GUILD, HOST, KIND, 5)
    await sessions.act(CHANNEL, GUEST, Action(T.JOIN))
    await sessions.act(CHANNEL, HOST, Action(T.START))
    table = await sessions.table(CHANNEL)
    assert table is not None
    return table


async def click(sessions: Sessions) -> Table:
    """The player to act plays their first option from the newest controls."""
    table = await sessions.table(CHANNEL)
    assert table is not None
    prompt = sessions.prompt(table)
    assert prompt is not None and prompt.user_id is not None
    outcome = await sessions.act(CHANNEL, T.Actor(prompt.user_id, prompt.name),
                                 prompt.options[0].action, version=prompt.version)
    assert outcome.delivered
    return outcome.table


async def refused_click(sessions: Sessions, table: Table) -> StoreUnavailable:
    prompt = sessions.prompt(table)
    assert prompt is not None and prompt.user_id is not None
    with pytest.raises(StoreUnavailable) as refused:
        await sessions.act(CHANNEL, T.Actor(prompt.user_id, prompt.name),
                           prompt.options[0].action, version=prompt.version)
    return refused.value


def store_lines(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno >= logging.WARNING]


def shown_once(outlet: RecordingOutlet) -> None:
    """Every delivery was published once: no key twice, so no line twice."""
    keys = [post.key for _, post in outlet.posts]
    assert len(keys) == len(set(keys))


async def test_sqlite_disk_full_is_one_calm_outage_with_its_real_cause(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    store = await open_store(tmp_path / "full.sqlite3")
    outlet = RecordingOutlet()
    sessions = Sessions(store, outlet, render=False)
    try:
        table = await started(sessions)
        pages = (await store.execute("PRAGMA page_count"))[0][0]
        await store.execute(f"PRAGMA max_page_count = {pages}")
        caplog.clear()
        with caplog.at_level(logging.INFO):
            for _ in range(FILL_MOVES):  # the moves that still fit in the pages it has
                table = await sessions.table(CHANNEL)  # type: ignore[assignment]
                try:
                    await click(sessions)
                except StoreUnavailable as exc:
                    assert exc.reason == "disk is full"
                    break
            else:
                pytest.fail("the database never filled up")
            reasons = {(await refused_click(sessions, table)).reason for _ in range(2)}
        assert reasons == {"disk is full"}
        warnings = store_lines(caplog)
        assert len(warnings) == 1 and "disk is full" in warnings[0].getMessage()
        assert not any(r.exc_info for r in caplog.records)
        assert not any("rollback" in r.getMessage() for r in caplog.records)
        after = await sessions.table(CHANNEL)
        assert after is not None and after.version == table.version  # untouched
        await store.execute("PRAGMA max_page_count = 1073741823")  # room again
        played = await click(sessions)
        assert played.version == table.version + 1
        assert played.delivered_seq == played.last_seq
        assert sessions.store.outage is None  # type: ignore[attr-defined]
        shown_once(outlet)
    finally:
        await store.close()


async def test_sqlite_read_only_is_one_calm_outage(tmp_path: Path,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    store = await open_store(tmp_path / "ro.sqlite3")
    outlet = RecordingOutlet()
    sessions = Sessions(store, outlet, render=False)
    try:
        table = await started(sessions)
        await store.execute("PRAGMA query_only = ON")
        caplog.clear()
        with caplog.at_level(logging.INFO):
            for _ in range(2):
                assert (await refused_click(sessions, table)).reason == \
                    "the database file is read-only"
        warnings = store_lines(caplog)
        assert len(warnings) == 1 and "read-only" in warnings[0].getMessage()
        await store.execute("PRAGMA query_only = OFF")
        played = await click(sessions)
        assert played.version == table.version + 1
        assert played.delivered_seq == played.last_seq
    finally:
        await store.close()


@pytest.fixture
def own_pg() -> Iterator[PgServer]:
    """A PostgreSQL server of this test's own: it is stopped and started mid-test."""
    try:
        server = PgServer.start()
    except NoServer as exc:
        if os.environ.get("HAUNTKEEPER_REQUIRE_PG") == "1":
            pytest.fail(f"no PostgreSQL server could start: {exc}")
        pytest.skip(f"PostgreSQL tests skipped: {exc}")
    yield server
    server.stop()


@pytest.fixture
async def pg_sessions(own_pg: PgServer) -> AsyncIterator[tuple[Sessions, RecordingOutlet]]:
    store = await open_store(own_pg.url)
    outlet = RecordingOutlet()
    sessions = Sessions(store, outlet, render=False)
    yield sessions, outlet
    await sessions.store.close()


async def test_postgres_restarted_mid_game_recovers_and_retries_at_once(
        own_pg: PgServer, pg_sessions: tuple[Sessions, RecordingOutlet],
        caplog: pytest.LogCaptureFixture) -> None:
    sessions, outlet = pg_sessions
    guard = sessions.store
    assert isinstance(guard, GuardedStore)
    guard.probe_seconds = 0.2
    back = asyncio.Event()
    sessions.when_store_back(back.set)
    table = await started(sessions)
    table = await click(sessions)
    caplog.clear()
    with caplog.at_level(logging.INFO):
        await asyncio.to_thread(own_pg.pause)
        for _ in range(3):  # every click during the outage: refused, calmly
            refused = await refused_click(sessions, table)
            assert refused.reason.startswith("PostgreSQL")
        await asyncio.to_thread(own_pg.resume)
        await asyncio.wait_for(back.wait(), WAIT)  # the probe noticed, nobody clicked
        played = await click(sessions)  # the pool made new connections
    warnings = store_lines(caplog)
    assert len(warnings) == 1, [r.getMessage() for r in warnings]
    assert "unavailable" in warnings[0].getMessage()
    assert not any(r.exc_info for r in caplog.records)
    assert played.version == table.version + 1
    assert played.delivered_seq == played.last_seq
    assert guard.outages == 1 and guard.outage is None
    shown_once(outlet)
