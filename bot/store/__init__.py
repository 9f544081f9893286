"""Persistence behind one small interface; `open_store` picks the backend from a URL/path."""

from __future__ import annotations

from pathlib import Path

from bot.store.base import GameExists, StaleVersion, Store, StoreError
from bot.store.records import (
    ACTIVE,
    END_TIMER,
    LOBBY,
    OVER,
    REMIND_TIMER,
    LiveMessage,
    LoggedEvent,
    Table,
    TimerArm,
    TurnTimer,
    UndoPoint,
    UndoWrite,
)
from bot.store.sqlite import SqliteStore

__all__ = ["ACTIVE", "END_TIMER", "LOBBY", "OVER", "REMIND_TIMER", "GameExists", "LiveMessage",
           "LoggedEvent",
           "SqliteStore", "StaleVersion", "Store", "StoreError", "Table", "TimerArm",
           "TurnTimer", "UndoPoint", "UndoWrite", "open_store"]


async def open_store(path: str | Path) -> SqliteStore:
    store = SqliteStore(path)
    await store.open()
    return store
