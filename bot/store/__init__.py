"""Persistence behind one small interface; `open_store` picks the backend from a URL/path.

The table's record and its statuses (bot/table_record.py) are named here too, since the
store is where most callers meet them."""

from __future__ import annotations

from pathlib import Path

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
from bot.store.postgres import PostgresStore, is_postgres_url
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
    TimerArm,
    TurnTimer,
    UndoPoint,
    UndoWrite,
)
from bot.store.sqlite import SqliteStore
from bot.table_record import ACTIVE, LOBBY, OVER, Table  # the table's record, mapped here

__all__ = ["ACTIVE", "END_TIMER", "LOBBY", "OVER", "POSTS_BACK", "POSTS_REFUSED",
           "REMIND_TIMER", "ChannelBusy", "Export",
           "GameExists", "GameResult", "LiveMessage", "LoggedEvent", "NotEmpty", "Notice",
           "PlayedSeat", "PostgresStore", "SeatResult",
           "SqliteStore", "StaleVersion", "Store", "StoreError", "StoreUnavailable", "Table",
           "TimerArm", "TurnTimer", "UndoPoint", "UndoWrite", "is_postgres_url", "open_store"]


async def open_store(path: str | Path) -> Store:
    """A postgresql:// (or postgres://) URL opens PostgreSQL; anything else is a SQLite
    file (or ":memory:"), the default that needs no server."""
    store: Store = (PostgresStore(path) if isinstance(path, str) and is_postgres_url(path)
                    else SqliteStore(path))
    await store.open()
    return store
