"""bot/settings_cache.py keeps the servers active within its TTL, not every server it
ever read (issue 19): past KEPT_GUILDS, copies past their time are dropped, and a server
read again is read from the store as before."""

from __future__ import annotations

from typing import Any

import pytest

from bot import settings_cache
from bot.settings_cache import SettingsCache


class Store:
    def __init__(self) -> None:
        self.reads: list[int] = []

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        self.reads.append(guild_id)
        return {}


async def test_servers_read_long_ago_are_let_go(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(settings_cache, "KEPT_GUILDS", 100)
    now = [0.0]
    store = Store()
    cache = SettingsCache(store, clock=lambda: now[0], ttl=30.0)  # type: ignore[arg-type]
    for guild in range(1, 1001):  # a new server every second
        await cache.get(guild)
        now[0] += 1.0
        assert len(cache._known) <= 100 + 31
    assert cache.known(1000) is not None and cache.known(1) is None
    await cache.get(1000)  # still fresh: no store trip
    assert store.reads.count(1000) == 1
    await cache.get(1)  # let go: read again
    assert store.reads.count(1) == 2
