"""Delivers what the sessions layer decided: public posts to the channel, private lines
by DM, team lines in a private thread per team. It never chooses who sees what; the
events' audiences (and the game's teams and private turns) already did.

In the channel a game keeps one live message, edited in place with each delivery (the
turn's lines, whose turn it is, the board, the controls); bot/live_message.py decides
when a new one is posted instead, and the store remembers which message it is, so a
restarted bot edits the same one. An edit pings nobody: when the turn passes to another
human, a short ping links to the live message, and the previous ping is deleted. The
edit of the message a click was made on is that click's answer while it is open
(UPDATE_MESSAGE, cogs/reply.py): one request instead of a defer and a PATCH. A paused
game (/gm pause) shows no move: the live message says who paused it, a private turn's DM
prompt loses its buttons by an edit (no new DM), and the resume's delivery brings the
controls back with one ping or one fresh DM prompt, as a turn's start does.

A channel that refuses the bot's posts (403: a permission taken away) does not lose the
game: the post raises PostRefused, the delivery stays owed, and the actor is told what
is missing. The game's moderators get one notice per outage in /gm log (the store's
bot_notices, so a restart does not tell it again), and one more when posts go through
again. While discord.py's cache says the permission is still missing, or that the bot
is no longer in the server (kicked: its games are kept for the grace period, and
Discord would refuse every request there), a retry sends nothing (`refusal`). A deleted
channel (404) is different: nothing can resume there, so its post is dropped with a log
line, and its game is closed (`_gone`; the gateway's CHANNEL_DELETE closes it at once
when the bot hears of it).

A server may want every public line in a public thread of the game as well: after the
live message, cogs/play_by_play.py posts them there (the post says whether)."""

from __future__ import annotations

import dataclasses
import io
import logging
from collections.abc import Callable
from contextlib import suppress
from typing import Any

import discord
from discord import app_commands

from bot import games
from bot import table as table_rules
from bot.core.lru import RecentDict, RecentSet
from bot.delivery import PLAY_BY_PLAY, DeliveryFailed, PostRefused
from bot.languages import user_language
from bot.live_message import LIMIT, Step, chunks, jump_link, step, text_of
from bot.locales import current, speaking
from bot.sessions import Post, Prompt
from bot.store import OVER, POSTS_BACK, POSTS_REFUSED, LiveMessage, Store, Table
from bot.texts import say
from cogs import mentions
from cogs.bot_permissions import (
    left_server,
    may_embed,
    missing_in_cache,
    private_threads_in,
    thread_cause,
)
from cogs.components import ControlRow, live_rows, play_again_rows
from cogs.live_layout import BOARD_FILE, CONTROLS_BUDGET, Board, live_layout
from cogs.lobby_embed import lobby_embed
from cogs.play_by_play import PlayByPlay
from cogs.reply import edit_by_reply
from cogs.sending import THREAD_ARCHIVE_MINUTES, THREAD_ARCHIVED, malformed, nonce, permanent

log = logging.getLogger(__name__)

MISSING_ACCESS = 50001  # Discord's code for a channel the bot may not even view
UNKNOWN_CHANNEL = 10003  # Discord's code for a channel that does not exist (deleted)
UNKNOWN_MEMBER = 10007  # Discord's code for a user who is not a member (of a thread here)
# The table's actions whose actor took a seat, and those whose `user` was given one or
# had theirs taken: with the seats' holders, everyone who ever held a seat of a game.
SEATED_ACTORS = frozenset({"lobby.open", table_rules.JOIN, table_rules.SECOND})
SEATED_USERS = frozenset({table_rules.SEAT, table_rules.KICK})
# What the outlet remembers per channel, member or thread, most recent kept: a process
# serving many channels must not grow with every channel it ever served, and forgetting
# the oldest costs one more request or one notice fewer (issue 19). ~200 bytes an entry.
KEPT = 10_000


def past_holders(table: Table,
                 actions: list[tuple[int, int | None, dict[str, Any] | None]]) -> set[int]:
    """Everyone the table knows to have held one of its seats: its seats' holders now
    (a seat handed to the AI keeps its last player's id), whoever took a seat in the
    lobby, and whoever a moderator seated or kicked (the log's actions, Store.actions)."""
    users = {seat.user_id for seat in table.seats if seat.user_id is not None}
    for _version, actor, action in actions:
        kind = (action or {}).get("kind")
        if kind in SEATED_ACTORS and actor is not None:
            users.add(actor)
        elif kind in SEATED_USERS:
            with suppress(KeyError, TypeError, ValueError):
                users.add(int((action or {})["args"]["user"]))
    return users


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


class DiscordOutlet:
    def __init__(self, client: discord.Client, store: Store) -> None:
        self.client = client
        self.store = store  # remembers each team's thread, so a restart reuses it
        # The live message of a table the store has no id for (tests): the others are
        # kept in the store, so a restarted bot goes on editing the same message.
        self._unsaved_live: RecentDict[int, LiveMessage] = RecentDict(KEPT)
        # (channel, user) whose DM failed and who has not been told so privately yet.
        self._undelivered: RecentSet[tuple[int, int]] = RecentSet(KEPT)
        # (channel, user) the channel was told a DM missed, since a DM last reached them:
        # a late failure is told once until they open their DMs (`dms_missed`).
        self._named_missed: RecentSet[tuple[int, int]] = RecentSet(KEPT)
        # (thread, user) added to a team thread by this process: one request per member
        # and start, instead of one per message.
        self._thread_members: RecentSet[tuple[int, int]] = RecentSet(KEPT)
        # (game, team) whose thread could not be opened: DMs until the bot restarts, so a
        # missing permission does not cost a refused request on every move.
        self._no_thread: RecentSet[tuple[int, str]] = RecentSet(KEPT)
        # Game -> whether its channel's outage is open (its last notice says refused), as
        # far as this process has read or written it; a finished game is forgotten.
        self._outage: RecentDict[int, bool] = RecentDict(KEPT)
        # Each game's play-by-play thread, for servers that want every line in one.
        self.play_by_play = PlayByPlay(client, store, kept=KEPT)

    def take_undelivered(self, channel_id: int, user_id: int) -> bool:
        """True once per failed DM: the caller then tells the user ephemerally."""
        key = (channel_id, user_id)
        if key in self._undelivered:
            self._undelivered.discard(key)
            return True
        return False

    # -- the channel ----------------------------------------------------------------------

    async def publish(self, table: Table, post: Post) -> LiveMessage | None:
        """The post, on the live message; returns the live message as it left it, for
        the courier to store with the delivery's mark (None: it did not change)."""
        channel = self.client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        dm_prompt: discord.Message | None = None
        prompt = post.prompt
        # The DM prompt out before this post, as the store keeps it with the live message
        # (LiveMessage.dm_prompt): known to a restarted bot, and to every process.
        before = await self._live(table)
        if table.id is not None:  # read once: the live post reads it here again
            table.shown = (before,)
        previous = before.dm_prompt if before is not None else None
        # A paused game shows no move (each would only be refused): no turn's controls,
        # no DM prompt (the one sent loses its buttons, unnotified); the resume's
        # delivery brings them back, and notifies the player as a turn's start does.
        paused = table.paused and table.status != OVER
        if (not paused and table.status != "over" and prompt is not None and prompt.private
                and prompt.user_id is not None):
            dm_prompt = await self._prompt_by_dm(table, post.own_prompt or prompt, post.key)
            if dm_prompt is None and prompt.user_id not in post.dm_failed:
                # The turn falls back to the channel's buttons, and the channel says why.
                post = dataclasses.replace(post, dm_failed=[*post.dm_failed, prompt.user_id])
        if dm_prompt is not None and not post.lines and not post.dm_failed \
                and not post.documents and not (prompt is not None and prompt.others):
            # A step of a private turn the table does not see yet (a monster's move is
            # told with the rest of the monsters' turn): only the DM prompt changes.
            assert prompt is not None  # a DM prompt is only made for a prompt
            await self._clear_dm(table, previous)
            return self._with_dm(table, before, _dm_of(dm_prompt, prompt.user_id))
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
        for user_id in post.dm_failed:  # named here: a late failure need not say it again
            self._named_missed.add((table.channel_id, user_id))
        try:
            shown = await self._live_post(table, post, rows,
                                          private_turn=dm_prompt is not None,
                                          paused_by=await self._paused_by(table)
                                          if paused else "")
            for n, document in enumerate(post.documents):  # after the post: the books
                for m, part in enumerate(chunks(document)):
                    await channel.send(part, allowed_mentions=discord.AllowedMentions.none(),
                                       nonce=nonce(post.key, f"d{n}.{m}"))
        except discord.Forbidden as exc:  # a permission taken away: owed, not lost
            lacking = missing_in_cache(self.client, table.channel_id) \
                or (["view_channel"] if exc.code == MISSING_ACCESS else [])
            await self._outage_began(table, lacking)
            raise PostRefused(lacking, thread_cause(self.client.get_channel(table.channel_id),
                                                    exc.code)) from exc
        except discord.NotFound as exc:  # the channel is gone: nothing resumes there
            log.warning("channel %s refused the game's post: %s", table.channel_id, exc)
            self._gone(table, exc)
            return shown
        except discord.HTTPException as exc:
            if not malformed(exc):  # 5xx, 429s past discord.py's tries: owed, tried again
                raise DeliveryFailed(f"{exc.status} {exc.text or exc}") from exc
            log.error("Discord refused the game's post in channel %s as malformed "
                      "(our bug; the post is dropped, the game goes on): %s",
                      table.channel_id, exc)
            return shown
        await self._outage_ended(table)
        # After the live message, which players read first; before the DM prompt's
        # bookkeeping, which a delivery the thread leaves owed must find as it was.
        result = await self._result_link(table) if table.status == OVER else ""
        await self.play_by_play.tell(table, post, result=result)
        if paused and _still_waits(previous, prompt):
            # held: the resume's fresh prompt takes its place as after a move
            await self._hold_dm(table, previous)
            newest = previous
        else:
            await self._clear_dm(table, previous)
            newest = _dm_of(dm_prompt, prompt.user_id if prompt is not None else None)
        if shown is not None:  # stored with the delivery's mark
            shown.dm_prompt = newest
        if table.status == OVER:
            await self._close_threads(table)
            await self._close_lobby(table)
        return shown

    def _gone(self, table: Table, exc: discord.HTTPException) -> None:
        """Discord knows the game's channel no more (deleted while the bot was away, so
        no CHANNEL_DELETE was heard): the bot closes its game (bot/client.py's
        `on_game_channel_gone`, a task of its own: this delivery holds the channel's
        delivery turn), so no timer or retry plays on there unseen."""
        if exc.code == UNKNOWN_CHANNEL and table.status != OVER:
            self.client.dispatch("game_channel_gone", table.channel_id)

    # -- a channel that refuses the bot's posts ------------------------------------------

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

    async def _outage_ended(self, table: Table) -> None:
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

    async def _result_link(self, table: Table) -> str:
        """Where the game's newest post is: at the end, its result."""
        live = await self._live(table)
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

    async def _close_threads(self, table: Table) -> None:
        """The game is over: each team thread gets a last line pointing to the result,
        then is archived (its history stays readable), and locked too where the bot may
        manage threads (Discord refuses a lock without it, and the invite does not ask
        for it: the thread the bot opened it may archive). The play-by-play thread closes
        in its own words (cogs/play_by_play.py)."""
        public = await self.store.get_thread(table.id or 0, PLAY_BY_PLAY)
        for thread_id in await self.store.threads_of(table.id or 0):
            if thread_id == public:
                continue
            try:
                thread = self.client.get_channel(thread_id) \
                    or await self.client.fetch_channel(thread_id)
                if not isinstance(thread, discord.Thread):
                    continue
                await thread.send(say("thread_closed", channel=f"<#{table.channel_id}>"))
                me = thread.guild.me
                may_lock = me is not None and thread.permissions_for(me).manage_threads
                await thread.edit(archived=True, locked=may_lock)
            except discord.HTTPException as exc:
                log.info("could not close thread %s: %s", thread_id, exc)

    def _with_dm(self, table: Table, live: LiveMessage | None,
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

    async def _clear_dm(self, table: Table, previous_dm: tuple[int, int, int] | None) -> None:
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

    async def _hold_dm(self, table: Table, held: tuple[int, int, int] | None) -> None:
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

    async def _paused_by(self, table: Table) -> str:
        """Who paused the game, as a mention for the live message: the last /gm pause
        in its log (one read, made only while paused); empty when not known."""
        if table.id is None:
            return ""
        for _version, actor, action in reversed(await self.store.actions(table.id)):
            if (action or {}).get("kind") == table_rules.PAUSE:
                return f"<@{actor}>" if actor is not None else ""
        return ""

    async def _prompt_by_dm(self, table: Table, prompt: Prompt,
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

    # -- the live message -----------------------------------------------------------------

    async def _live_post(self, table: Table, post: Post, rows: list[ControlRow], *,
                         private_turn: bool, paused_by: str = "") -> LiveMessage:
        """Edit the game's live message, or post a new one when the story needs it
        (bot/live_message.py decides), then ping the player whose turn it became. The
        live message it leaves is returned: the courier stores it with the delivery's
        mark. It is read as the table was loaded with it (in the action's own read),
        else from the store; never from memory kept between loads: with several shards,
        another process may have shown the game's later posts."""
        live = await self._live(table)
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
        shown.ping_id = await self._ping(table, post, shown, decided)
        if table.id is None:
            self._unsaved_live[table.channel_id] = shown
        table.shown = (shown,)  # the next delivery made with this table reads it here
        return shown

    async def _live(self, table: Table) -> LiveMessage | None:
        if table.id is None:
            return self._unsaved_live.get(table.channel_id)
        if table.shown is not None:  # loaded with it (bot/table_record.py's Table.shown)
            return table.shown[0]
        return await self.store.get_live(table.id)

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

    # -- one person -----------------------------------------------------------------------

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

    # -- a team ---------------------------------------------------------------------------

    async def team(self, table: Table, team: str, user_ids: list[int], text: str, *,
                   key: str = "") -> list[int]:
        """Post in the team's private thread (opened once per game and team); whoever
        cannot be reached there gets a DM. Returns the users neither could reach."""
        missing = list(user_ids)
        for fresh in (False, True):
            thread = await self._team_thread(table, team, fresh=fresh)
            if thread is None:
                break
            try:
                missing = await self._post_in_thread(table, thread, user_ids, text, key)
                break
            except discord.NotFound:  # the thread was deleted: open a new one, once
                log.info("team thread %s of game %s is gone", thread.id, table.id)
                missing = list(user_ids)
            except discord.HTTPException as exc:
                log.info("team thread %s of game %s refused a post: %s", thread.id,
                         table.id, exc)
                missing = list(user_ids)
                break
        unreachable: list[int] = []
        only = say("dm.team_only", team=team)
        for n, user_id in enumerate(missing):
            if not await self.whisper(table, user_id, f"{only}\n{text}",
                                      key=f"{key}.u{n}" if key else ""):
                unreachable.append(user_id)
        return unreachable

    async def _team_thread(self, table: Table, team: str, *,
                           fresh: bool) -> discord.Thread | None:
        """The team's thread: the stored one, or a new private thread in the game channel."""
        game_id = table.id or 0
        if (game_id, team) in self._no_thread:
            return None
        if not fresh:
            known = await self.store.get_thread(game_id, team)
            if known is not None:
                found = self.client.get_channel(known)
                if isinstance(found, discord.Thread):
                    return found
                try:
                    fetched = await self.client.fetch_channel(known)
                except discord.NotFound:
                    fetched = None
                except discord.HTTPException as exc:
                    log.info("team thread %s of game %s unreadable: %s", known, game_id, exc)
                    return None
                if isinstance(fetched, discord.Thread):
                    return fetched
        thread: discord.Thread | None = None
        try:
            parent = self.client.get_channel(table.channel_id)
            if parent is None:
                parent = await self.client.fetch_channel(table.channel_id)
            # A text channel's only: not an announcement channel's, a voice chat's or a
            # thread's, where Discord makes none (cogs/bot_permissions.py); DMs there.
            if isinstance(parent, discord.TextChannel) and private_threads_in(parent):
                thread = await parent.create_thread(
                    name=say("dm.thread_name", team=team, game=game_id)[:100],
                    type=discord.ChannelType.private_thread,
                    invitable=False,
                    auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                )
        except discord.HTTPException as exc:
            log.info("no private thread for %s in channel %s: %s", team, table.channel_id, exc)
        if thread is None:
            self._no_thread.add((game_id, team))
            return None
        await self.store.set_thread(game_id, team, thread.id)
        return thread

    async def _post_in_thread(self, table: Table, thread: discord.Thread, user_ids: list[int],
                              text: str, key: str) -> list[int]:
        """Post, then add the members not added yet; returns those who could not be added.

        Posting first wakes a thread Discord archived after a quiet week (it refuses new
        members while archived); members of a private thread read all of it anyway.
        """
        for n, part in enumerate(chunks(text)):
            await thread.send(part, nonce=nonce(key, f"{thread.id % 1296}.{n}"))
        missing: list[int] = []
        for user_id in user_ids:
            if (thread.id, user_id) in self._thread_members:
                continue
            try:
                await thread.add_user(discord.Object(user_id))
            except discord.HTTPException as exc:
                log.info("could not add %s to team thread %s: %s", user_id, thread.id, exc)
                missing.append(user_id)
                continue
            await self.store.add_thread_member(table.id or 0, thread.id, user_id)
            self._thread_members.add((thread.id, user_id))
        return missing

    async def members(self, table: Table, teams: dict[str, list[int]]) -> None:
        """A seat passed on: each team thread keeps exactly the team's holders (and the
        bot, and whoever joined it of their own accord: a moderator). The one who left is
        taken out (a private thread's history is then closed to them) and a new holder
        put in. Discord lists a thread's members only to a bot with the GUILD_MEMBERS
        privileged intent, which this one does without (README), so whom the bot put in
        is the store's record (`_keep_members`): right after a restart, and whichever
        process put whom in. A thread not opened yet needs nothing: it opens with the
        holders."""
        me = self.client.user.id if self.client.user is not None else 0
        for team, user_ids in teams.items():
            if table.id is None or await self.store.get_thread(table.id, team) is None:
                continue
            thread = await self._team_thread(table, team, fresh=False)
            if thread is None:
                continue
            try:
                await self._keep_members(table, thread, set(user_ids), me)
            except discord.HTTPException as exc:
                if not permanent(exc):
                    raise  # the delivery stays owed and is tried again
                log.warning("team thread %s of game %s: members not kept: %s", thread.id,
                            table.id, exc)

    async def _keep_members(self, table: Table, thread: discord.Thread, wanted: set[int],
                            me: int) -> None:
        """Take out whom the bot put in and the team no longer wants, put in the team's
        holders, then record that the thread holds exactly them. A thread opened before
        the record was kept may hold anyone who ever held a seat of the game: each is
        taken out (Discord answers a non-member 404 Unknown Member, or takes nothing).
        A holder the record has is asked for (Get Thread Member, which needs no
        privileged intent): they may have left the thread themselves."""
        if thread.archived:  # Discord takes no one out of an archived thread
            thread = await thread.edit(archived=False)
        game_id = table.id or 0
        record = await self.store.thread_members(game_id, thread.id)
        put_in = set(record.users)
        if not record.whole:
            put_in |= past_holders(table, await self.store.actions(game_id))
        for user_id in sorted(put_in - wanted - {me}):
            try:
                await thread.remove_user(discord.Object(user_id))
            except discord.NotFound as exc:
                if exc.code != UNKNOWN_MEMBER:
                    raise
            self._thread_members.discard((thread.id, user_id))
        for user_id in sorted(wanted - {me}):
            if user_id not in record.users or not await self._in_thread(thread, user_id):
                await thread.add_user(discord.Object(user_id))
            self._thread_members.add((thread.id, user_id))
        await self.store.set_thread_members(game_id, thread.id, sorted(wanted - {me}))

    @staticmethod
    async def _in_thread(thread: discord.Thread, user_id: int) -> bool:
        """Whether the user is in the thread now, asked of Discord one user at a time:
        the one way to know without the privileged intent List Thread Members needs."""
        try:
            await thread.fetch_member(user_id)
        except discord.NotFound:
            return False
        return True

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
        live = await self._live(table)
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
            self._gone(table, exc)
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
