"""The discord.py bot: opens the store, loads the cogs, registers persistent components.

Slash commands sync to the dev guild at once when HAUNTKEEPER_DEV_GUILD is set (global
sync can take up to an hour to show up), otherwise globally.
"""

from __future__ import annotations

import logging
from contextlib import suppress
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.sessions import Sessions
from bot.store import SqliteStore, open_store
from bot.texts import say
from cogs.common import OOPS, say_ephemeral
from cogs.components import DYNAMIC_ITEMS
from cogs.outlet import DiscordOutlet

log = logging.getLogger(__name__)

EXTENSIONS = ("cogs.lobby", "cogs.secret", "cogs.moderation", "cogs.cthulhu", "cogs.betrayal")


class HauntBot(commands.Bot):
    def __init__(self, *, db_path: str, dev_guild: int | None = None,
                 sync_commands: bool = True, **options: Any) -> None:
        intents = discord.Intents.default()  # no privileged intents: slash commands only
        options.setdefault("chunk_guilds_at_startup", False)
        super().__init__(command_prefix=commands.when_mentioned, intents=intents,
                         help_command=None, **options)
        self.db_path = db_path
        self.dev_guild = dev_guild
        self.sync_commands = sync_commands
        self._store: SqliteStore | None = None
        self._sessions: Sessions | None = None
        self._outlet: DiscordOutlet | None = None

    @property
    def store(self) -> SqliteStore:
        assert self._store is not None, "setup_hook has not run"
        return self._store

    @property
    def sessions(self) -> Sessions:
        assert self._sessions is not None, "setup_hook has not run"
        return self._sessions

    @property
    def outlet(self) -> DiscordOutlet:
        assert self._outlet is not None, "setup_hook has not run"
        return self._outlet

    async def setup_hook(self) -> None:
        self._store = await open_store(self.db_path)
        self._outlet = DiscordOutlet(self, self._store)
        self._sessions = Sessions(self._store, self._outlet)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self.tree.on_error = self.on_app_command_error
        if self.sync_commands:
            await self._sync()

    async def _sync(self) -> None:
        if self.dev_guild:
            guild = discord.Object(self.dev_guild)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info("synced %d slash commands%s", len(synced),
                 f" to guild {self.dev_guild}" if self.dev_guild else " globally")

    async def on_ready(self) -> None:
        log.info("ready as %s in %d servers", self.user, len(self.guilds))
        await self.resume_games()

    async def resume_games(self) -> None:
        """AI turns that a restart interrupted are played now, not at the next click."""
        for table in await self.store.list_open():
            try:
                await self.sessions.resume(table.channel_id)
            except Exception:
                log.exception("could not resume the game in channel %s", table.channel_id)

    async def on_app_command_error(self, interaction: discord.Interaction,
                                   error: app_commands.AppCommandError) -> None:
        """Refusals discord.py makes itself (a check, an option out of range) are the
        caller's to read; anything else is our bug, logged."""
        if isinstance(error, app_commands.CheckFailure | app_commands.TransformerError):
            log.info("slash command refused: %s", error)
            text = say("errors.not_here" if isinstance(error, app_commands.CheckFailure)
                       else "errors.bad_option")
        else:
            log.error("slash command failed", exc_info=error)
            text = OOPS
        with suppress(discord.HTTPException):
            await say_ephemeral(interaction, text)

    async def close(self) -> None:
        await super().close()
        if self._store is not None:
            await self._store.close()
            self._store = None
