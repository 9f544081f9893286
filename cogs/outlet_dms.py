"""The outlet's layer for one person: a player's DMs. It exists apart from the door
(cogs/outlet.py) so what reaches one player privately, and what happens when their DMs
are closed, reads in one place.

A whisper is a DM with a footer naming the game's channel, in the player's own
language. A private turn's buttons go by DM too (`prompt_by_dm`); the prompt they
replace loses its buttons by an edit (`clear_dm`), and a paused game's prompt loses
them and says why (`hold_dm`), which notifies nobody. A DM that fails is told: to the
player, privately, at their next click (`take_undelivered`), and in the channel once
until a DM reaches them again (`dms_missed`)."""

from __future__ import annotations

import logging
from contextlib import suppress
from typing import Any

import discord
from discord import app_commands

from bot import games
from bot.core.lru import RecentSet
from bot.languages import user_language
from bot.live_message import LIMIT, chunks
from bot.locales import speaking
from bot.sessions import Prompt
from bot.store import OVER, Store, Table
from bot.texts import say
from cogs import mentions
from cogs.bot_permissions import left_server
from cogs.components import live_rows
from cogs.live_layout import CONTROLS_BUDGET, live_layout
from cogs.outlet_live import LiveMessages
from cogs.reply import edit_by_reply
from cogs.sending import nonce

log = logging.getLogger(__name__)


class DirectMessages(LiveMessages):
    """Whispers, private turns' prompts, and the memory of DMs that did not arrive."""

    def __init__(self, client: discord.Client, store: Store, kept: int) -> None:
        super().__init__(client, store, kept)
        # (channel, user) whose DM failed and who has not been told so privately yet.
        self._undelivered: RecentSet[tuple[int, int]] = RecentSet(kept)
        # (channel, user) the channel was told a DM missed, since a DM last reached them:
        # a late failure is told once until they open their DMs (`dms_missed`).
        self._named_missed: RecentSet[tuple[int, int]] = RecentSet(kept)

    def take_undelivered(self, channel_id: int, user_id: int) -> bool:
        """True once per failed DM: the caller then tells the user ephemerally."""
        key = (channel_id, user_id)
        if key in self._undelivered:
            self._undelivered.discard(key)
            return True
        return False

    async def whisper(self, table: Table, user_id: int, text: str, *, key: str = "") -> bool:
        """A DM, its footer in the player's own language, as its line (bot/delivery.py)."""
        with speaking(user_language(table, user_id)):
            footer = "\n" + say("dm.footer", channel=f"<#{table.channel_id}>")
        try:
            channel = await self.client.create_dm(discord.Object(user_id))
            for n, part in enumerate(chunks(text + footer)):
                await channel.send(part, nonce=nonce(key, f"w{n}"))
        except discord.HTTPException as exc:
            log.info("DM to %s failed: %s", user_id, exc)
            self._undelivered.add((table.channel_id, user_id))
            return False
        self._named_missed.discard((table.channel_id, user_id))  # their DMs are open
        return True

    async def dms_missed(self, table: Table, user_ids: list[int], *, key: str) -> None:
        """DMs that failed after the post went: one line in the channel per player, the
        post's own (`dm_failed`: whom, and /secret to read it here; no secret), quiet
        (named, not pinged), as the post names those it knows of. Once per player until a
        DM reaches them again: closed DMs are not a line every turn. Under a nonce of
        `key`, so a tail sent again after a kill shows it once. Best effort: the
        player's next click tells them anyway."""
        users = [u for u in user_ids if (table.channel_id, u) not in self._named_missed]
        if not users or left_server(self.client, table.guild_id):
            return
        text = "\n".join(say("dm_failed", mention=f"<@{u}>") for u in users)
        tree = getattr(self.client, "tree", None)
        if isinstance(tree, app_commands.CommandTree):  # /secret, clickable
            text = await mentions.linked(tree, table.guild_id, text)
        channel = self.client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        try:
            await channel.send(text[:LIMIT], allowed_mentions=discord.AllowedMentions.none(),
                               nonce=nonce(key, "x"))
        except discord.HTTPException as exc:
            log.warning("channel %s refused the note of a DM missed: %s",
                        table.channel_id, exc)
            return
        for user_id in users:
            self._named_missed.add((table.channel_id, user_id))

    def dms_named(self, table: Table, user_ids: list[int]) -> None:
        """The channel's post names these players' missed DMs (`dm_failed`): a late
        failure need not say it again (`dms_missed`)."""
        for user_id in user_ids:
            self._named_missed.add((table.channel_id, user_id))

    # -- a private turn's prompt ----------------------------------------------------------

    async def prompt_by_dm(self, table: Table, prompt: Prompt,
                           key: str) -> discord.Message | None:
        """A private turn's buttons in the player's DMs; None when the DM fails.

        Every custom_id carries the game channel, so a click here acts on that game. Only
        this player sees a DM, so options marked private show as plain buttons. All of it
        in the player's own language: `prompt` is the one made in it (Post.own_prompt).
        """
        assert prompt.user_id is not None
        try:
            dm = await self.client.create_dm(discord.Object(prompt.user_id))
            with speaking(user_language(table, prompt.user_id)):
                rows = live_rows(table.channel_id, prompt, budget=CONTROLS_BUDGET,
                                 reveal_private=True, others=False, kind=table.kind)
                head = say("dm.prompt", channel=f"<#{table.channel_id}>")
            return await dm.send(view=live_layout(
                head,
                colour=games.get(table.kind).colour, board=None, rows=rows),
                nonce=nonce(key, "m"))
        except discord.HTTPException as exc:
            log.info("DM prompt to %s failed: %s", prompt.user_id, exc)
            self._undelivered.add((table.channel_id, prompt.user_id))
            return None

    async def clear_dm(self, table: Table, previous_dm: tuple[int, int, int] | None) -> None:
        """Take the buttons off the DM prompt the post replaces, and its "your move" with
        them."""
        if previous_dm is not None:  # its "your move" goes with its buttons
            # Read in its reader's language, as the prompt was; at the end, not "the game
            # goes on" (a /gm end, or a last move, while their turn waited).
            with speaking(user_language(table, previous_dm[2])):
                words = say("dm.prompt_over" if table.status == OVER else "dm.prompt_used",
                            channel=f"<#{table.channel_id}>")
            used: dict[str, Any] = {"content": None, "view": live_layout(
                words, colour=games.get(table.kind).colour, board=None)}
            if await edit_by_reply(previous_dm[1], dict(used)):  # the DM prompt clicked
                return
            dm_channel = self.client.get_partial_messageable(
                previous_dm[0], type=discord.ChannelType.private)
            with suppress(discord.HTTPException):
                await dm_channel.get_partial_message(previous_dm[1]).edit(**used)

    async def hold_dm(self, table: Table, held: tuple[int, int, int] | None) -> None:
        """A paused game: the DM prompt of its private turn loses its buttons and says
        why, by an edit, which notifies nobody."""
        if held is None:
            return
        dm_channel = self.client.get_partial_messageable(
            held[0], type=discord.ChannelType.private)
        with speaking(user_language(table, held[2])):
            words = say("dm.prompt_paused", channel=f"<#{table.channel_id}>")
        with suppress(discord.HTTPException):
            await dm_channel.get_partial_message(held[1]).edit(content=None, view=live_layout(
                words, colour=games.get(table.kind).colour, board=None))
