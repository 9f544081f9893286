"""The outlet's layer for the game's one live message in the channel, and the turn
timer's reminder that points at it. It exists apart from the door (cogs/outlet.py) so
how one message is kept up to date, edited or posted anew, reads on its own.

In the channel a game keeps one live message, edited in place with each delivery (the
turn's lines, whose turn it is, the board, the controls); bot/live_message.py decides
when a new one is posted instead, and the store remembers which message it is, so a
restarted bot edits the same one. An edit pings nobody: when the turn passes to another
human, a short ping links to the live message, and the previous ping is deleted (a turn
timer's reminder takes its place the same way). The edit of the message a click was
made on is that click's answer while it is open (UPDATE_MESSAGE, cogs/reply.py): one
request instead of a defer and a PATCH."""

from __future__ import annotations

import dataclasses
import io
import logging
from collections.abc import Callable
from contextlib import suppress
from typing import Any

import discord

from bot import games
from bot.core.lru import RecentDict
from bot.delivery import DeliveryFailed
from bot.live_message import LIMIT, Step, jump_link, step, text_of
from bot.sessions import Post
from bot.store import OVER, LiveMessage, Store, Table
from bot.texts import say
from cogs.bot_permissions import left_server
from cogs.components import ControlRow
from cogs.live_layout import BOARD_FILE, Board, live_layout
from cogs.outlet_refusals import ChannelRefusals
from cogs.reply import edit_by_reply
from cogs.sending import THREAD_ARCHIVED, malformed, nonce, permanent

log = logging.getLogger(__name__)


class LiveMessages(ChannelRefusals):
    """Each game's live message: where it is read from, how a delivery changes it, the
    ping that tells the next player, and a reminder's ping in its place."""

    def __init__(self, client: discord.Client, store: Store, kept: int) -> None:
        super().__init__(client, store, kept)
        # The live message of a table the store has no id for (tests): the others are
        # kept in the store, so a restarted bot goes on editing the same message.
        self._unsaved_live: RecentDict[int, LiveMessage] = RecentDict(kept)

    async def post_live(self, table: Table, post: Post, rows: list[ControlRow], *,
                        private_turn: bool, paused_by: str = "") -> LiveMessage:
        """Edit the game's live message, or post a new one when the story needs it
        (bot/live_message.py decides), then ping the player whose turn it became. The
        live message it leaves is returned: the courier stores it with the delivery's
        mark. It is read as the table was loaded with it (in the action's own read),
        else from the store; never from memory kept between loads: with several shards,
        another process may have shown the game's later posts."""
        live = await self.live(table)
        ping_user = None
        if post.prompt is not None and not private_turn and not table.paused:
            ping_user = post.prompt.user_id
        decided = step(live, table, post, private_turn=private_turn, ping_user=ping_user,
                       paused_by=paused_by)
        message_id = None
        if not decided.fresh and live is not None:
            message_id = await self._edit_live(table, live, post, rows, decided)
            if message_id is None:  # the message was deleted: it starts again, anew
                decided = step(live, table, post, private_turn=private_turn,
                               ping_user=ping_user, gone=True, paused_by=paused_by)
        if message_id is None:
            message_id = await self._send_live(table, live, post, rows, decided)
        shown = dataclasses.replace(decided.live, message_id=message_id)
        try:
            shown.ping_id = await self._ping(table, post, shown, decided)
        except discord.HTTPException as exc:
            if permanent(exc):  # the channel refuses, or is gone: the door's to say
                raise
            # Discord failing for now: the message shows the post, its ping follows
            # with the retry (under its nonce: sent once).
            raise DeliveryFailed(f"the ping: {exc.status} {exc.text or exc}",
                                 shown=True) from exc
        if table.id is None:
            self._unsaved_live[table.channel_id] = shown
        table.shown = (shown,)  # the next delivery made with this table reads it here
        return shown

    async def live(self, table: Table) -> LiveMessage | None:
        """The game's live message as the table was loaded with it, else as the store
        keeps it (None: it has none yet)."""
        if table.id is None:
            return self._unsaved_live.get(table.channel_id)
        if table.shown is not None:  # loaded with it (bot/table_record.py's Table.shown)
            return table.shown[0]
        return await self.store.get_live(table.id)

    def with_dm(self, table: Table, live: LiveMessage | None,
                dm: tuple[int, int, int] | None) -> LiveMessage | None:
        """The live message, unchanged on Discord, now knowing the newest DM prompt: for
        the courier to store (None: the game has no live message to keep it with)."""
        if live is None:
            return None
        kept = dataclasses.replace(live, dm_prompt=dm)
        if table.id is None:
            self._unsaved_live[table.channel_id] = kept
        table.shown = (kept,)
        return kept

    async def _remember(self, table: Table, live: LiveMessage) -> None:
        """Store the live message now (a reminder's ping, outside any delivery)."""
        if table.id is None:
            self._unsaved_live[table.channel_id] = live
        else:
            await self.store.set_live(table.id, live)
            table.shown = (live,)

    def _files(self, post: Post, decided: Step) -> list[discord.File]:
        if not decided.attach or post.image is None:
            return []
        return [discord.File(io.BytesIO(post.image), filename=BOARD_FILE,
                             description=post.alt or None)]

    @staticmethod
    def _layout(table: Table, text: str, live: LiveMessage | None,
                rows: list[ControlRow] | None = None) -> discord.ui.LayoutView:
        """The live message's layout (cogs/live_layout.py) with `text`, the board `live`
        shows (if any) and these controls (none: a closed message)."""
        board = Board(BOARD_FILE, live.alt) if live is not None and live.board_hash else None
        return live_layout(text, colour=games.get(table.kind).colour, board=board, rows=rows)

    async def _edit_live(self, table: Table, live: LiveMessage, post: Post,
                         rows: list[ControlRow], decided: Step) -> int | None:
        """The edit, idempotent (the same delivery sent again makes the same message);
        None when the message is gone. Leaving the attachments out keeps the board it
        shows (its gallery names the kept upload again); an edit pings nobody. Content
        is cleared: a message the bot made before its layout was v2 becomes one."""
        def fields() -> dict[str, Any]:  # anew for a PATCH after a failed answer: its
            made: dict[str, Any] = {  # files were read and closed by then
                "content": None, "view": self._layout(table, decided.text, decided.live, rows),
                "allowed_mentions": discord.AllowedMentions.none()}
            if decided.attach:
                made["attachments"] = self._files(post, decided)
            return made

        try:
            await self._edit(table, live.message_id, fields)
        except discord.NotFound:
            return None
        except discord.HTTPException as exc:
            if not malformed(exc):
                raise
            log.error("Discord refused the live message's edit in channel %s as malformed "
                      "(our bug; it is posted anew instead): %s", table.channel_id, exc)
            return None  # a new live message carries the newest controls
        return live.message_id

    async def _send_live(self, table: Table, live: LiveMessage | None, post: Post,
                         rows: list[ControlRow], decided: Step) -> int:
        """A new live message, after the lines that did not fit on it; the old one keeps
        its lines and its board as the record of its chapter, without its controls and
        without its "your move"."""
        channel = self.client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        quiet = discord.AllowedMentions.none()
        overflow = decided.overflow
        reused = False
        if decided.reuse and live is not None and overflow:
            first = self._layout(table, overflow[0], None)  # no board, no controls
            with suppress(discord.NotFound):  # the old message's lines give way to the
                await self._edit(table, live.message_id, lambda: {  # turn's first
                    "content": None, "attachments": [], "view": first,
                    "allowed_mentions": quiet})
                overflow, reused = overflow[1:], True
        for n, part in enumerate(overflow, start=len(decided.overflow) - len(overflow)):
            await channel.send(part, allowed_mentions=quiet, nonce=nonce(post.key, f"o{n}"))
        sent = await channel.send(view=self._layout(table, decided.text, decided.live, rows),
                                  files=self._files(post, decided), allowed_mentions=quiet,
                                  nonce=nonce(post.key, "p"))
        if live is not None and live.message_id != sent.id and not reused:
            words = decided.close if decided.close is not None else text_of(live.lines, "")
            closed = self._layout(table, words, live)
            with suppress(discord.HTTPException):
                await self._edit(table, live.message_id, lambda: {
                    "content": None, "view": closed, "allowed_mentions": quiet})
        return int(sent.id)

    async def _edit(self, table: Table, message_id: int,
                    fields: Callable[[], dict[str, Any]]) -> None:
        """Edit a channel message: as the answer to the click made on it when that click
        is still open (cogs/reply.py, one round trip less), else by a PATCH."""
        if await edit_by_reply(message_id, fields()):
            return
        channel = self.client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        message = channel.get_partial_message(message_id)
        try:
            await message.edit(**fields())
        except discord.HTTPException as exc:
            if exc.code != THREAD_ARCHIVED:
                raise
            # A game played in a thread Discord archived after its quiet time: it takes
            # no edit until it is active again, and any member may wake it (a locked
            # one only a moderator: that refusal is then the answer).
            thread = await self.client.fetch_channel(table.channel_id)  # not in the cache
            if not isinstance(thread, discord.Thread):  # only a thread is archived
                raise
            await thread.edit(archived=False)
            await message.edit(**fields())

    async def _ping(self, table: Table, post: Post, live: LiveMessage,
                    decided: Step) -> int | None:
        """The turn passed to another human: a short ping with a link to the live message
        notifies them (an edit notifies nobody), and the last ping goes, so the channel
        stays tidy. The game's end takes the last ping away."""
        if not decided.ping and table.status != OVER:
            return live.ping_id
        channel = self.client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        ping_id = None
        if decided.ping and post.prompt is not None:
            try:
                sent = await channel.send(
                    say("live.your_turn", mention=f"<@{post.prompt.user_id}>",
                        link=jump_link(table.guild_id, table.channel_id, live.message_id)),
                    allowed_mentions=discord.AllowedMentions(users=True, roles=False,
                                                             everyone=False),
                    nonce=nonce(post.key, "n"))
                ping_id = int(sent.id)
            except discord.HTTPException as exc:
                if not malformed(exc):
                    raise
                log.error("Discord refused the turn's ping in channel %s as malformed "
                          "(our bug; the delivery goes on without it): %s",
                          table.channel_id, exc)
        if live.ping_id is not None and live.ping_id != ping_id:
            with suppress(discord.HTTPException):
                await channel.get_partial_message(live.ping_id).delete()
        return ping_id

    # -- a turn timer's reminder ----------------------------------------------------------

    async def remind(self, table: Table, user_id: int, text: str, *, key: str = "") -> None:
        """One short line in the channel that pings the player and no one else, with a
        jump link to where the turn's controls are: the game's live message, or the
        player's DM prompt on a turn played from DMs (kept with the live message).

        It takes the place of the game's last "your turn" ping (deleted), and the next
        ping or reminder deletes it in turn: the channel keeps one such line at most.
        Sent under a nonce made from `key` (its timer's row): a firing again after a
        kill between the send and the row's removal gets the same message back."""
        if left_server(self.client, table.guild_id):  # a refused request, and no one there
            log.info("no turn reminder in channel %s: the bot left its server",
                     table.channel_id)
            return
        live = await self.live(table)
        dm = live.dm_prompt if live is not None else None
        link = None
        if dm is not None and dm[2] == user_id:
            link = jump_link(None, dm[0], dm[1])
        elif live is not None:
            link = jump_link(table.guild_id, table.channel_id, live.message_id)
        if link is not None:
            text = f"{text}\n{say('timers.jump', link=link)}"
        channel = self.client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        try:
            sent = await channel.send(text[:LIMIT], allowed_mentions=discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(user_id)]),
                nonce=nonce(key, "r"))
        except discord.HTTPException as exc:
            if not permanent(exc):
                raise
            log.warning("channel %s refused a turn reminder: %s", table.channel_id, exc)
            self.gone(table, exc)
            return
        if live is None:
            return
        # Not itself: a reminder sent again after its mark is the same message, returned
        # by Discord for its nonce.
        if live.ping_id is not None and live.ping_id != int(sent.id):
            with suppress(discord.HTTPException):
                await channel.get_partial_message(live.ping_id).delete()
        live.ping_id = int(sent.id)
        await self._remember(table, live)
