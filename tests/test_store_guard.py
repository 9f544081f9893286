"""bot/store/outage.py and bot/store/guard.py on their own: which errors are outages and
what they are called, and the guard's one warning per outage, its end and its listeners.
(Real outages, through Sessions and the bot: tests/test_store_outage.py,
tests/test_e2e_faults.py, tests/test_e2e_pg_restart.py.)"""

from __future__ import annotations

import logging
import sqlite3
from typing import Any

import asyncpg
import pytest

from bot.store import ChannelBusy, StaleVersion, StoreUnavailable
from bot.store.guard import GuardedStore, guarded
from bot.store.outage import outage_reason


def _chained(outer: BaseException, cause: BaseException) -> BaseException:
    try:
        try:
            raise cause
        except BaseException:
            raise outer  # noqa: B904 (the implicit chain is what SQLite's case has)
    except BaseException as exc:
        return exc


@pytest.mark.parametrize("exc,postgres,reason", [
    (sqlite3.OperationalError("database or disk is full"), False, "disk is full"),
    (sqlite3.OperationalError("attempt to write a readonly database"), False,
     "the database file is read-only"),
    (sqlite3.OperationalError("database is locked"), False,
     "the database is locked by another program"),
    (sqlite3.OperationalError("no such table: games"), False, None),  # our bug
    (OSError("No space left on device"), False, None),  # SQLite says it, or it is not
    (ValueError("a bug"), True, None),
])
def test_what_is_an_outage(exc: BaseException, postgres: bool, reason: str | None) -> None:
    assert outage_reason(exc, postgres=postgres) == reason


def test_postgresql_going_away_is_an_outage() -> None:
    for exc in (asyncpg.exceptions.ConnectionDoesNotExistError("gone"),
                asyncpg.exceptions.CannotConnectNowError("starting up"),
                asyncpg.exceptions.AdminShutdownError("terminating connection"),
                ConnectionRefusedError(111, "Connection refused"),
                asyncpg.InterfaceError("connection is closed")):
        found = outage_reason(exc, postgres=True)
        assert found is not None and found.startswith("PostgreSQL"), exc
    assert outage_reason(asyncpg.InterfaceError("another operation is in progress"),
                         postgres=True) is None  # a bug of ours, not the server away


def test_the_real_cause_comes_first_through_the_chain() -> None:
    hidden = _chained(sqlite3.OperationalError("cannot rollback - no transaction is active"),
                      sqlite3.OperationalError("database or disk is full"))
    assert outage_reason(hidden, postgres=False) == "disk is full"


def test_a_channel_held_elsewhere_is_no_outage_whatever_it_was_raised_from() -> None:
    """The PostgreSQL store's wait for a waiting connection ends in a TimeoutError (an
    OSError, as the network's are): the ChannelBusy it becomes was once read as the
    server unreachable, so a busy channel told every click the store was down."""
    waited = _chained(ChannelBusy("every waiting connection is taken"), TimeoutError())
    assert outage_reason(waited, postgres=True) is None
    assert outage_reason(TimeoutError(), postgres=True) is not None  # alone, it is one


class Flaky:
    """A store whose save fails with `error` while it is set."""

    def __init__(self) -> None:
        self.error: Exception | None = None

    async def save(self) -> str:
        if self.error is not None:
            raise self.error
        return "saved"

    async def load(self) -> str:
        return "loaded"

    async def schema_version(self) -> int:
        return 1

    async def close(self) -> None:
        """Nothing to close."""


async def test_one_warning_per_outage_its_end_told_and_bugs_untouched(
        caplog: pytest.LogCaptureFixture) -> None:
    inner = Flaky()
    store: Any = guarded(inner)
    assert guarded(store) is store and isinstance(store, GuardedStore)
    back: list[str] = []
    store.on_back.append(lambda: back.append("back"))
    inner.error = sqlite3.OperationalError("database or disk is full")
    with caplog.at_level(logging.INFO):
        for _ in range(3):
            with pytest.raises(StoreUnavailable) as refused:
                await store.save()
            assert refused.value.reason == "disk is full"
        assert await store.load() == "loaded"  # a read on SQLite does not end it
        assert store.outage == "disk is full" and back == []
        inner.error = None
        assert await store.save() == "saved"  # a write that works does
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1 and "disk is full" in warnings[0].getMessage()
    assert store.outage is None and store.outages == 1 and back == ["back"]
    stale = StaleVersion("raced")
    inner.error = stale
    with pytest.raises(StaleVersion) as raised:
        await store.save()
    assert raised.value is stale and raised.value.__cause__ is None  # as it was
    assert store.outage is None
    await store.close()
