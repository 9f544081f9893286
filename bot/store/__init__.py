"""Persistence behind one small interface; `open_store` picks the backend from a URL/path.

The table's record and its statuses (bot/table_record.py) are named here too, since the
store is where most callers meet them.

The PostgreSQL backend (bot/store/postgres.py, and asyncpg with it) is loaded only when
a PostgreSQL URL is opened or `PostgresStore` is asked for by name: a SQLite bot never
pays for the driver's import (about a tenth of its start)."""

from __future__ import annotations

from importlib import import_module
from pathlib import Path
from typing import Any

from bot.live_record import LiveMessage
from bot.store.base import (
    ChannelBusy,
    Export,
    GameExists,
    NotEmpty,
    StaleVersion,
    Store,
    StoreError,
    StoreUnavailable,
)
from bot.store.records import (
    END_TIMER,
    POSTS_BACK,
    POSTS_REFUSED,
    REMIND_TIMER,
    GameResult,
    LoggedEvent,
    Notice,
    PlayedSeat,
    SeatResult,
    ThreadMembers,
    TimerArm,
    TurnTimer,
    UndoPoint,
    UndoWrite,
)
from bot.store.sqlite import SqliteStore
from bot.store.urls import is_postgres_url
from bot.table_record import ACTIVE, LOBBY, OVER, Table  # the table's record, mapped here

__all__ = ["ACTIVE", "END_TIMER", "LOBBY", "OVER", "POSTS_BACK", "POSTS_REFUSED",
           "REMIND_TIMER", "ChannelBusy", "Export",
           "GameExists", "GameResult", "LiveMessage", "LoggedEvent", "NotEmpty", "Notice",
           "PlayedSeat", "PostgresStore", "SeatResult",
           "SqliteStore", "StaleVersion", "Store", "StoreError", "StoreUnavailable", "Table",
           "ThreadMembers", "TimerArm", "TurnTimer", "UndoPoint", "UndoWrite",
           "is_postgres_url", "open_store"]


POSTGRES_MODULE = "bot.store.postgres"


def __getattr__(name: str) -> Any:
    """`PostgresStore`, loaded when first named (see the module's docstring)."""
    if name == "PostgresStore":
        return import_module(POSTGRES_MODULE).PostgresStore
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


async def open_store(path: str | Path) -> Store:
    """A postgresql:// (or postgres://) URL opens PostgreSQL; anything else is a SQLite
    file (or ":memory:"), the default that needs no server."""
    store: Store = (import_module(POSTGRES_MODULE).PostgresStore(path)
                    if isinstance(path, str) and is_postgres_url(path) else SqliteStore(path))
    await store.open()
    return store
