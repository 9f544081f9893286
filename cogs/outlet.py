"""Delivers what the sessions layer decided: public posts to the channel, private lines
by DM. It never chooses who sees what; the events' audiences already did."""

from __future__ import annotations

import io
import logging
from contextlib import suppress

import discord

from bot.sessions import Post
from bot.store import Table
from bot.texts import say
from cogs.components import prompt_view

log = logging.getLogger(__name__)

LIMIT = 2000
BOARD_FILE = "board.png"


def post_text(table: Table, post: Post) -> str:
    """The public lines, newest kept when too long, then who is to act."""
    lines = list(post.lines)
    for user_id in post.dm_failed:
        lines.append(say("dm_failed", mention=f"<@{user_id}>"))
    tail = ""
    if post.prompt is not None:
        who = f"<@{post.prompt.user_id}>" if post.prompt.user_id else post.prompt.name
        tail = f"\n**{who}**, it's your move."
    elif table.status == "over":
        tail = "\nThe game is over. `/game new` starts another."
    text = "\n".join(lines)
    room = LIMIT - len(tail)
    if len(text) > room:
        text = "… (earlier lines in /game log)\n" + text[-(room - 40):]
    return (text + tail).strip() or "…"


class DiscordOutlet:
    def __init__(self, client: discord.Client) -> None:
        self.client = client
        # The last turn post per channel, to clear its buttons once a newer one exists.
        # Memory only: after a restart old buttons stay, and the stale check guards them.
        self._last_post: dict[int, int] = {}
        # (channel, user) whose DM failed and who has not been told so privately yet.
        self._undelivered: set[tuple[int, int]] = set()

    def take_undelivered(self, channel_id: int, user_id: int) -> bool:
        """True once per failed DM: the caller then tells the user ephemerally."""
        key = (channel_id, user_id)
        if key in self._undelivered:
            self._undelivered.discard(key)
            return True
        return False

    async def publish(self, table: Table, post: Post) -> None:
        channel = self.client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        kwargs: dict[str, object] = {
            "content": post_text(table, post),
            "allowed_mentions": discord.AllowedMentions(users=True, roles=False,
                                                        everyone=False),
        }
        if post.image is not None:
            kwargs["file"] = discord.File(io.BytesIO(post.image), filename=BOARD_FILE)
        if table.status != "over":
            kwargs["view"] = prompt_view(table.channel_id, post.prompt)
        sent = await channel.send(**kwargs)  # type: ignore[arg-type]
        previous = self._last_post.pop(table.channel_id, None)
        if table.status != "over":
            self._last_post[table.channel_id] = sent.id
        if previous is not None:
            with suppress(discord.HTTPException):
                await channel.get_partial_message(previous).edit(view=None)

    async def whisper(self, table: Table, user_id: int, text: str) -> bool:
        try:
            channel = await self.client.create_dm(discord.Object(user_id))
            await channel.send(f"{text}\n-# from the game in <#{table.channel_id}>")
            return True
        except discord.HTTPException as exc:
            log.info("DM to %s failed: %s", user_id, exc)
            self._undelivered.add((table.channel_id, user_id))
            return False
