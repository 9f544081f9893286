"""Each server's table settings, kept in memory once read.

A moderator check runs on every interaction; reading the store each time would cost a
trip per click for a row that changes when someone uses /gm settings. So the settings
are read once per server and kept here; `/gm settings` writes through this cache, which
replaces its copy in the same step. Another process sharing the database would see a
change only after its own restart (one bot process per database is the design).
"""

from __future__ import annotations

from bot.guild_settings import GuildSettings
from bot.store import Store


class SettingsCache:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._known: dict[int, GuildSettings] = {}

    def known(self, guild_id: int | None) -> GuildSettings | None:
        """The server's settings if read already (no store trip), else None."""
        return None if guild_id is None else self._known.get(guild_id)

    async def get(self, guild_id: int | None) -> GuildSettings:
        """The server's settings (the defaults outside a server)."""
        if guild_id is None:
            return GuildSettings()
        found = self._known.get(guild_id)
        if found is None:
            found = GuildSettings.from_dict(await self.store.guild_settings(guild_id))
            self._known[guild_id] = found
        return found

    async def put(self, guild_id: int, settings: GuildSettings) -> GuildSettings:
        """Store the server's new settings and keep them."""
        await self.store.set_guild_settings(guild_id, settings.to_dict())
        self._known[guild_id] = settings
        return settings

    def forget(self, guild_id: int) -> None:
        """Read the server's settings from the store when next needed (they were
        written around this cache)."""
        self._known.pop(guild_id, None)
