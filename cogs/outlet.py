"""Delivers what the sessions layer decided: public posts to the channel, private lines
by DM, team lines in a private thread per team. It never chooses who sees what; the
events' audiences (and the game's teams and private turns) already did.

This module is the outlet's door: the rest of the bot uses `DiscordOutlet` and the
names it re-exports (`__all__`). The outlet is built in layers, lowest first, each a
class the next one extends: cogs/outlet_refusals.py (a channel that refuses the bot's
posts, or is gone), cogs/outlet_live.py (the game's one live message, and a turn
timer's reminder that points at it), cogs/outlet_dms.py (one person: whispers and a
private turn's prompt by DM), cogs/outlet_teams.py (a team's private thread), and here
the channel: `publish`, which brings them together for one post.

A paused game (/gm pause) shows no move: the live message says who paused it, a
private turn's DM prompt loses its buttons by an edit (no new DM), and the resume's
delivery brings the controls back with one ping or one fresh DM prompt, as a turn's
start does. At the end the team threads close, and the lobby message says the game
ended.

A server may want every public line in a public thread of the game as well: after the
live message, cogs/play_by_play.py posts them there (the post says whether)."""

from __future__ import annotations

import dataclasses
import logging
from contextlib import suppress

import discord
from discord import app_commands

from bot import table as table_rules
from bot.delivery import DeliveryFailed
from bot.live_message import chunks, jump_link
from bot.locales import current
from bot.sessions import Post, Prompt
from bot.store import OVER, LiveMessage, Store, Table
from cogs import mentions
from cogs.bot_permissions import may_embed
from cogs.components import live_rows, play_again_rows
from cogs.live_layout import CONTROLS_BUDGET
from cogs.lobby_embed import lobby_embed
from cogs.outlet_dms import DirectMessages
from cogs.outlet_live import LiveMessages
from cogs.outlet_refusals import MISSING_ACCESS, UNKNOWN_CHANNEL, ChannelRefusals
from cogs.outlet_teams import (
    SEATED_ACTORS,
    SEATED_USERS,
    UNKNOWN_MEMBER,
    TeamThreads,
    past_holders,
)
from cogs.play_by_play import PlayByPlay
from cogs.sending import malformed, nonce

__all__ = ["KEPT", "MISSING_ACCESS", "SEATED_ACTORS", "SEATED_USERS", "UNKNOWN_CHANNEL",
           "UNKNOWN_MEMBER", "ChannelRefusals", "DirectMessages", "DiscordOutlet",
           "LiveMessages", "TeamThreads", "past_holders"]

log = logging.getLogger(__name__)

# What the outlet remembers per channel, member or thread, most recent kept: a process
# serving many channels must not grow with every channel it ever served, and forgetting
# the oldest costs one more request or one notice fewer (issue 19). ~200 bytes an entry.
KEPT = 10_000


def _dm_of(message: discord.Message | None,
           user_id: int | None) -> tuple[int, int, int] | None:
    """A DM prompt as the live message keeps it (LiveMessage.dm_prompt)."""
    if message is None or user_id is None:
        return None
    return message.channel.id, message.id, user_id


def _still_waits(dm: tuple[int, int, int] | None, prompt: Prompt | None) -> bool:
    """A paused game's DM prompt is its reader's turn still: the turn is played from
    DMs, by them. A seat handed on (/gm kick, /gm seat) or a turn the channel plays
    again (/gm undo) while paused is not: its prompt is done with, not held, so it does
    not promise its buttons back to someone the resume sends nothing."""
    return (dm is not None and prompt is not None and prompt.private
            and prompt.user_id == dm[2])


class DiscordOutlet(TeamThreads):
    """The outlet the bot delivers through (bot/delivery.py's Outlet): its layers'
    sending, and the channel's post that ties them together."""

    def __init__(self, client: discord.Client, store: Store) -> None:
        super().__init__(client, store, KEPT)
        # Each game's play-by-play thread, for servers that want every line in one.
        self.play_by_play = PlayByPlay(client, store, kept=KEPT)

    # -- the channel ----------------------------------------------------------------------

    async def publish(self, table: Table, post: Post) -> LiveMessage | None:
        """The post, on the live message; returns the live message as it left it, for
        the courier to store with the delivery's mark (None: it did not change)."""
        channel = self.client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        dm_prompt: discord.Message | None = None
        prompt = post.prompt
        # The DM prompt out before this post, as the store keeps it with the live message
        # (LiveMessage.dm_prompt): known to a restarted bot, and to every process.
        before = await self.live(table)
        if table.id is not None:  # read once: the live post reads it here again
            table.shown = (before,)
        previous = before.dm_prompt if before is not None else None
        # A paused game shows no move (each would only be refused): no turn's controls,
        # no DM prompt (the one sent loses its buttons, unnotified); the resume's
        # delivery brings them back, and notifies the player as a turn's start does.
        paused = table.paused and table.status != OVER
        if (not paused and table.status != "over" and prompt is not None and prompt.private
                and prompt.user_id is not None):
            dm_prompt = await self.prompt_by_dm(table, post.own_prompt or prompt, post.key)
            if dm_prompt is None and prompt.user_id not in post.dm_failed:
                # The turn falls back to the channel's buttons, and the channel says why.
                post = dataclasses.replace(post, dm_failed=[*post.dm_failed, prompt.user_id])
        if dm_prompt is not None and not post.lines and not post.dm_failed \
                and not post.documents and not (prompt is not None and prompt.others):
            # A step of a private turn the table does not see yet (a monster's move is
            # told with the rest of the monsters' turn): only the DM prompt changes.
            assert prompt is not None  # a DM prompt is only made for a prompt
            await self.clear_dm(table, previous)
            return self.with_dm(table, before, _dm_of(dm_prompt, prompt.user_id))
        if table.status == OVER:  # the end: Play again, Replay
            rows = play_again_rows(table)
        else:  # a private turn: the channel still shows the others' out-of-turn buttons
            rows = live_rows(table.channel_id, None if paused else post.prompt,
                             budget=CONTROLS_BUDGET, main=dm_prompt is None, kind=table.kind)
        tree = getattr(self.client, "tree", None)
        if (table.status == OVER or post.dm_failed or paused) and \
                isinstance(tree, app_commands.CommandTree):  # lines naming a command
            await mentions.learn(tree, table.guild_id)
        shown: LiveMessage | None = None  # what to store, even if a document fails
        self.dms_named(table, post.dm_failed)  # a late failure need not say it again
        try:
            shown = await self.post_live(table, post, rows,
                                         private_turn=dm_prompt is not None,
                                         paused_by=await self._paused_by(table)
                                         if paused else "")
            for n, document in enumerate(post.documents):  # after the post: the books
                for m, part in enumerate(chunks(document)):
                    await channel.send(part, allowed_mentions=discord.AllowedMentions.none(),
                                       nonce=nonce(post.key, f"d{n}.{m}"))
        except discord.Forbidden as exc:  # a permission taken away: owed, not lost
            raise await self.refused(table, exc) from exc
        except discord.NotFound as exc:  # the channel is gone: nothing resumes there
            log.warning("channel %s refused the game's post: %s", table.channel_id, exc)
            self.gone(table, exc)
            return shown
        except discord.HTTPException as exc:
            if not malformed(exc):  # 5xx, 429s past discord.py's tries: owed, tried again
                raise DeliveryFailed(f"{exc.status} {exc.text or exc}",
                                     shown=shown is not None) from exc
            log.error("Discord refused the game's post in channel %s as malformed "
                      "(our bug; the post is dropped, the game goes on): %s",
                      table.channel_id, exc)
            return shown
        await self.outage_ended(table)
        # After the live message, which players read first; before the DM prompt's
        # bookkeeping, which a delivery the thread leaves owed must find as it was.
        result = await self._result_link(table) if table.status == OVER else ""
        try:
            await self.play_by_play.tell(table, post, result=result)
        except DeliveryFailed as exc:  # after the live message: the board is shown
            raise DeliveryFailed(str(exc), shown=True) from exc
        if paused and _still_waits(previous, prompt):
            # held: the resume's fresh prompt takes its place as after a move
            await self.hold_dm(table, previous)
            newest = previous
        else:
            await self.clear_dm(table, previous)
            newest = _dm_of(dm_prompt, prompt.user_id if prompt is not None else None)
        if shown is not None:  # stored with the delivery's mark
            shown.dm_prompt = newest
        if table.status == OVER:
            await self.close_threads(table)
            await self._close_lobby(table)
        return shown

    async def _result_link(self, table: Table) -> str:
        """Where the game's newest post is: at the end, its result."""
        live = await self.live(table)
        if live is None or not live.message_id:
            return f"<#{table.channel_id}>"
        return jump_link(table.guild_id, table.channel_id, live.message_id)

    async def _close_lobby(self, table: Table) -> None:
        """The game is over: its lobby message, still in the channel's history above the
        game, stops saying it is in play (its title says it ended, in the language the
        delivery speaks). Only a courtesy: a lobby message gone or unreadable is left."""
        message_id = await self.store.lobby_message(table.id or 0)
        # Without Embed Links Discord would drop the embed this edit sends: the lobby
        # would go blank rather than say the game ended.
        if message_id is None or not may_embed(self.client, table.channel_id):
            return
        channel = self.client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        with suppress(discord.HTTPException):
            await channel.get_partial_message(message_id).edit(
                embed=lobby_embed(table, current()), view=None)

    async def _paused_by(self, table: Table) -> str:
        """Who paused the game, as a mention for the live message: the last /gm pause
        in its log (one read, made only while paused); empty when not known."""
        if table.id is None:
            return ""
        for _version, actor, action in reversed(await self.store.actions(table.id)):
            if (action or {}).get("kind") == table_rules.PAUSE:
                return f"<@{actor}>" if actor is not None else ""
        return ""
