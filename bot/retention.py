"""How long a server keeps its finished games: the sweep behind `/gm settings keep`.

A server that chose to keep its games 30, 90 or 365 days (bot/guild_settings.py's
KEEP_DAYS) has each finished game deleted, every row of it in every table (the store's
`sweep_finished`), once it ended that long ago. The default keeps them: a server's
history is not ours to throw away. A server the bot left is forgotten whole after its
grace period anyway (bot/client.py), history and stats included.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot.guild_settings import GuildSettings
from bot.store import Store

log = logging.getLogger(__name__)

DAY = 24 * 3600.0
SWEEP_SECONDS = 3600.0  # how often the sweep runs: a day's precision is plenty


async def sweep(store: Store, now: float, runs_guild: Callable[[int], bool]) -> int:
    """One pass over every server with a keep setting: how many games were deleted.
    Only the servers this process runs (`runs_guild`): another shard sweeps its own."""
    deleted = 0
    for guild_id, raw in await store.all_guild_settings():
        days = GuildSettings.from_dict(raw).keep_days
        if days is None or not runs_guild(guild_id):
            continue
        count = await store.sweep_finished(guild_id, now - days * DAY)
        if count:
            log.info("server %s keeps %d days: deleted %d finished games", guild_id, days,
                     count)
        deleted += count
    return deleted
