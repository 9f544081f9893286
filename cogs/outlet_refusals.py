"""The outlet's lowest layer: a channel that refuses the bot's posts, and one that is
gone. It exists apart so the rest of the outlet (cogs/outlet.py, the door) reads as
what it sends, and the rules for a channel that will not take it sit in one place.

A channel that refuses the bot's posts (403: a permission taken away) does not lose the
game: the post raises PostRefused, the delivery stays owed, and the actor is told what
is missing. The game's moderators get one notice per outage in /gm log (the store's
bot_notices, so a restart does not tell it again), and one more when posts go through
again. While discord.py's cache says the permission is still missing, or that the bot
is no longer in the server (kicked: its games are kept for the grace period, and
Discord would refuse every request there), a retry sends nothing (`refusal`). A deleted
channel (404) is different: nothing can resume there, so its post is dropped with a log
line, and its game is closed (`gone`; the gateway's CHANNEL_DELETE closes it at once
when the bot hears of it)."""

from __future__ import annotations

import logging

import discord

from bot.core.lru import RecentDict
from bot.delivery import PostRefused
from bot.store import OVER, POSTS_BACK, POSTS_REFUSED, Store, Table
from cogs.bot_permissions import left_server, missing_in_cache, thread_cause

log = logging.getLogger(__name__)

MISSING_ACCESS = 50001  # Discord's code for a channel the bot may not even view
UNKNOWN_CHANNEL = 10003  # Discord's code for a channel that does not exist (deleted)


class ChannelRefusals:
    """Each game's outage as this process knows it, and the notices that open and close
    it; the outlet's other layers build on this one (cogs/outlet.py)."""

    def __init__(self, client: discord.Client, store: Store, kept: int) -> None:
        self.client = client
        self.store = store  # its notices, live messages and team threads outlast a restart
        # Game -> whether its channel's outage is open (its last notice says refused), as
        # far as this process has read or written it; a finished game is forgotten.
        self._outage: RecentDict[int, bool] = RecentDict(kept)

    async def refusal(self, table: Table) -> PostRefused | None:
        """Before a delivery sends anything: the refusal its post would meet, as far as
        discord.py's cache of roles and overwrites tells (bot.delivery.ChannelGate)."""
        lacking = missing_in_cache(self.client, table.channel_id)
        if lacking is None and left_server(self.client, table.guild_id):
            lacking = ["view_channel"]  # kicked: kept for the grace period, sent nothing
        if not lacking:  # all there, or the cache cannot tell: try
            return None
        await self._outage_began(table, lacking)
        return PostRefused(lacking)

    async def refused(self, table: Table, exc: discord.Forbidden) -> PostRefused:
        """Discord refused a post (403), a permission taken away: what is missing, as
        far as the cache tells, told once per outage; the delivery raises the answer,
        and the post stays owed, not lost."""
        lacking = missing_in_cache(self.client, table.channel_id) \
            or (["view_channel"] if exc.code == MISSING_ACCESS else [])
        await self._outage_began(table, lacking)
        return PostRefused(lacking, thread_cause(self.client.get_channel(table.channel_id),
                                                 exc.code))

    async def _outage_open(self, game_id: int) -> bool:
        """Whether the game's last notice says its posts are refused (read once per
        process; an unreadable store counts as no outage, and is read again next time)."""
        known = self._outage.get(game_id)
        if known is None:
            try:
                last = await self.store.notices(game_id, limit=1)
            except Exception:
                log.exception("could not read the notices of game %s", game_id)
                return False
            known = bool(last) and last[-1].kind == POSTS_REFUSED
            self._outage[game_id] = known
        return known

    async def _outage_began(self, table: Table, lacking: list[str]) -> None:
        """The first refusal of an outage: one notice for the moderators (/gm log)."""
        if table.id is None or await self._outage_open(table.id):
            return
        log.warning("channel %s refuses game %s's posts (missing %s); they stay owed",
                    table.channel_id, table.id, ", ".join(lacking) or "?")
        if await self._notice(table.id, POSTS_REFUSED, ",".join(lacking)):
            self._outage[table.id] = True

    async def outage_ended(self, table: Table) -> None:
        """A post went through: an open outage closes with a notice saying so."""
        if table.id is None:
            return
        if await self._outage_open(table.id):
            log.info("channel %s takes game %s's posts again", table.channel_id, table.id)
            if not await self._notice(table.id, POSTS_BACK):
                return
        if table.status == OVER:
            self._outage.pop(table.id, None)
        else:
            self._outage[table.id] = False

    async def _notice(self, game_id: int, kind: str, detail: str = "") -> bool:
        """Write a notice; a store that fails here must not fail the delivery it is
        about (the post went out, or stays owed, either way): False, tried again next
        time."""
        try:
            await self.store.add_notice(game_id, kind, detail)
        except Exception:
            log.exception("could not record a %s notice for game %s", kind, game_id)
            return False
        return True

    def gone(self, table: Table, exc: discord.HTTPException) -> None:
        """Discord knows the game's channel no more (deleted while the bot was away, so
        no CHANNEL_DELETE was heard): the bot closes its game (bot/client.py's
        `on_game_channel_gone`, a task of its own: this delivery holds the channel's
        delivery turn), so no timer or retry plays on there unseen."""
        if exc.code == UNKNOWN_CHANNEL and table.status != OVER:
            self.client.dispatch("game_channel_gone", table.channel_id)
