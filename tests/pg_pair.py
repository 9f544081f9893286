"""Two PostgresStore objects on one database, as two bot processes would have: the
`stores` fixture (tests/conftest.py) gives a pair, the second quick to give up waiting.
Shared by the channel-lock and the one-process-does-it tests."""

from __future__ import annotations

import asyncio

from bot.store import PostgresStore, Table


class HeldStore(PostgresStore):
    """A process that, once `hold` is set, stops inside its next action on the channel
    (after loading it, the lock taken) until the test sets `release`."""

    def __init__(self, url: str, **kw: object) -> None:
        super().__init__(url, **kw)  # type: ignore[arg-type]
        self.hold = False
        self.inside = asyncio.Event()
        self.release = asyncio.Event()

    async def load(self, channel_id: int) -> Table | None:
        table = await super().load(channel_id)
        if self.hold:
            self.hold = False
            self.inside.set()
            await self.release.wait()
        return table
