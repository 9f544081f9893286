"""The small interface every storage backend offers (SQLite today, PostgreSQL later)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from bot.core.events import Event
from bot.store.records import LoggedEvent, Table


class StoreError(Exception):
    """Base of the store's own refusals."""


class StaleVersion(StoreError):
    """The game changed since it was loaded: someone else's action landed first."""


class GameExists(StoreError):
    """The channel already has an unfinished game."""


class Store(Protocol):
    async def open(self) -> None:
        """Connect and bring the schema up to date."""

    async def close(self) -> None:
        """Release the connection; the store may not be used afterwards."""

    async def load(self, channel_id: int) -> Table | None:
        """The channel's unfinished game, if any."""

    async def load_latest(self, channel_id: int) -> Table | None:
        """The channel's newest game, finished or not (for status and logs)."""

    async def create(self, table: Table, events: Sequence[Event], actor_id: int | None,
                     action: dict[str, Any] | None) -> Table:
        """Insert a new game (raises GameExists); returns it with its id and version 1."""

    async def save(self, table: Table, events: Sequence[Event], *, expected_version: int,
                   actor_id: int | None, action: dict[str, Any] | None) -> Table:
        """Write the new state and its events in one transaction, or raise StaleVersion."""

    async def list_open(self) -> list[Table]:
        """Every unfinished game (to resume AI turns after a restart)."""

    async def log(self, game_id: int, *, limit: int = 20,
                  public_only: bool = True) -> list[LoggedEvent]:
        """The newest events of a game, oldest first (public ones unless asked)."""

    async def count_games(self) -> int:
        """How many games the store holds, finished or not."""

    async def get_thread(self, game_id: int, team: str) -> int | None:
        """The Discord thread that carries this team's messages in this game, if any."""

    async def set_thread(self, game_id: int, team: str, thread_id: int) -> None:
        """Remember (or replace) the thread of this team in this game."""

    async def threads_of(self, game_id: int) -> list[int]:
        """Every team thread this game has opened (to close them when it ends)."""
