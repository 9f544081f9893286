"""Each server's table settings, kept in memory for a short while once read.

A moderator check runs on every interaction; reading the store each time would cost a
trip per click for a row that changes when someone uses /gm settings. So the settings
are read once per server and kept for `TTL` seconds; `/gm settings` writes through this
cache, which replaces its copy in the same step. Several processes may share one
database (PostgreSQL, shards): a change made through another process shows here once
the copy is older than `TTL`, so a new moderator role or timer reaches every shard
within that time.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from bot.core.errors import IllegalAction
from bot.guild_settings import GuildSettings
from bot.store import Store
from bot.texts import say

TTL = 30.0  # seconds a server's settings are trusted before they are read again
# Past this many servers kept, copies past their time are dropped (they would be read
# again anyway): the cache holds the servers active within TTL, not every one ever seen.
KEPT_GUILDS = 2048


class SettingsCache:
    def __init__(self, store: Store, *, clock: Callable[[], float] = time.monotonic,
                 ttl: float = TTL) -> None:
        self.store = store
        self.clock = clock
        self.ttl = ttl
        self._known: dict[int, tuple[float, GuildSettings]] = {}

    def known(self, guild_id: int | None) -> GuildSettings | None:
        """The server's settings if read already (no store trip), else None. A copy past
        its time still answers here: the next `get` (before every command) refreshes it."""
        found = None if guild_id is None else self._known.get(guild_id)
        return found[1] if found is not None else None

    async def get(self, guild_id: int | None) -> GuildSettings:
        """The server's settings (the defaults outside a server)."""
        if guild_id is None:
            return GuildSettings()
        found = self._known.get(guild_id)
        now = self.clock()
        if found is None or now - found[0] >= self.ttl:
            settings = GuildSettings.from_dict(await self.store.guild_settings(guild_id))
            self._known[guild_id] = (now, settings)
            if len(self._known) > KEPT_GUILDS:
                self._drop_expired(now)
            return settings
        return found[1]

    async def put(self, guild_id: int, settings: GuildSettings) -> GuildSettings:
        """Store the server's new settings and keep them, once checked: a value outside
        a setting's range is refused here, whoever asks, and nothing is saved."""
        wrong = settings.misfit()
        if wrong is not None:
            raise IllegalAction(say("errors.bad_setting", name=wrong))
        await self.store.set_guild_settings(guild_id, settings.to_dict())
        self._known[guild_id] = (self.clock(), settings)
        return settings

    def forget(self, guild_id: int) -> None:
        """Read the server's settings from the store when next needed (they were
        written around this cache)."""
        self._known.pop(guild_id, None)

    def _drop_expired(self, now: float) -> None:
        for guild_id in [g for g, (read, _) in self._known.items() if now - read >= self.ttl]:
            del self._known[guild_id]
