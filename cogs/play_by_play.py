"""The game's play-by-play thread: every public line of each delivery, in order, in a
public thread of the game's channel, for a server that turned it on (`/gm settings
play_by_play`). The live message tells a turn at a glance, three short lines at most;
the thread is where a reader follows the whole story as it happens (the dice, the
prompts, a card's whole text), without asking `/game log` for it page by page.

The sessions layer decides (`Post.play_by_play`, the server's setting for this
delivery); this sends, after the live message. The thread opens at the game's first
delivery with lines once the setting is on, and the store keeps it beside the teams'
threads under a key no team can have (bot.delivery.PLAY_BY_PLAY), so a restarted bot
goes on in the same thread. A delivery's lines are one message (more when long), the
line that opens a turn in bold; its nonces are made of the delivery's key, so a
delivery sent again after a crash shows its lines once. Never a private or team line,
and no one is pinged: the lines are the table's, the same `/game log` keeps.

The thread must never hold the game up:
- Discord refuses it (403: no Create Public Threads or Send Messages in Threads here;
  a thread a moderator locked; a channel that holds no threads): one log line, and no
  more tries for that game in this process. The live message and `/game log` have
  every line.
- The thread was deleted: a new one, once per delivery.
- A 5xx or a 429 discord.py could not wait out: DeliveryFailed, so the delivery stays
  owed like a live message Discord did not take, and is sent again under the same
  nonces, shown once. A thread that dropped a delivery's lines would read as a whole
  story with a hole in it; and discord.py has already tried again before this, so a
  5xx here is an outage the live message meets as well.
At the end the thread gets a last line linking to the result, and is archived, not
locked: anyone may still read it (a team thread is locked: its secrets are done with).
The books read out at the end stay in the channel only, whole, beside the result: the
last line points there rather than posting several long messages twice.
"""

from __future__ import annotations

import logging

import discord

from bot import table as table_rules
from bot.core.lru import RecentSet
from bot.delivery import PLAY_BY_PLAY, DeliveryFailed, Post
from bot.live_message import chunks
from bot.store import OVER, Store, Table
from bot.texts import say
from cogs.bot_permissions import public_thread_in
from cogs.sending import (
    THREAD_ARCHIVE_MINUTES,
    THREAD_ARCHIVED,
    THREAD_LOCKED,
    malformed,
    nonce,
    stored_thread,
)

log = logging.getLogger(__name__)

NAME_MOST = 100  # Discord: a thread's name is 1-100 characters
NONCE_SPREAD = 1296  # a thread's id modulo this in its nonces: two base-36 digits' worth


def story(post: Post) -> str:
    """The delivery's public lines as the thread reads them: every one, in order, the
    lines that open a turn in bold (the game's own words name the turn) so a reader
    sees where each turn begins."""
    opens = post.turns if len(post.turns) == len(post.lines) else [False] * len(post.lines)
    return "\n".join(bold(line) if turn else line
                     for line, turn in zip(post.lines, opens, strict=True))


def bold(line: str) -> str:
    """The whole line in bold (its own bold marks dropped: they would end it early)."""
    plain = line.replace("**", "").strip()
    return f"**{plain}**" if plain else line


def thread_name(table: Table) -> str:
    return say("play_by_play.thread_name", game=table.id or 0,
               title=table_rules.title(table))[:NAME_MOST]


class PlayByPlay:
    """The play-by-play threads of the games one process delivers (cogs/outlet.py owns
    one)."""

    def __init__(self, client: discord.Client, store: Store, *, kept: int) -> None:
        self.client = client
        self.store = store
        # Games whose thread Discord refused: skipped until the bot restarts, so a
        # missing permission costs one refused request and one log line per game.
        self.skipped: RecentSet[int] = RecentSet(kept)

    async def tell(self, table: Table, post: Post, *, result: str) -> None:
        """After the live message: this delivery's lines in the game's thread, and at
        the end, the thread's last line (a link to the `result`) and its archiving.
        Raises DeliveryFailed when Discord fails for now (the delivery stays owed)."""
        if table.id is None or table.id in self.skipped:
            return
        if post.play_by_play and post.lines:
            await self._post(table, story(post), post.key, "l", open_new=True)
        if table.status == OVER:
            await self._close(table, post, result)

    async def _close(self, table: Table, post: Post, result: str) -> None:
        """The end: a last line pointing to the result, then the thread is archived (it
        leaves the channel's list of active threads and stays there to read). A game
        whose server turned the setting off meanwhile closes its thread too; a game
        that never had one opens none for this."""
        words = "play_by_play.closed_books" if post.documents else "play_by_play.closed"
        thread = await self._post(table, say(words, result=result), post.key, "z",
                                  open_new=False)
        if thread is None:
            return
        try:
            await thread.edit(archived=True)
        except discord.HTTPException as exc:  # archived already (a delivery sent again)
            log.info("play-by-play thread %s of game %s not archived: %s", thread.id,
                     table.id, exc)

    async def _post(self, table: Table, text: str, key: str, part: str, *,
                    open_new: bool) -> discord.Thread | None:
        """Send `text` to the game's thread (with `open_new`, opened if it has none, or
        anew once if it was deleted); the thread, or None when there is none to post in."""
        for fresh in (False, True):
            thread = await self._thread(table, fresh=fresh, open_new=open_new)
            if thread is None:
                return None
            try:
                for n, piece in enumerate(chunks(text)):
                    await thread.send(piece, allowed_mentions=discord.AllowedMentions.none(),
                                      nonce=nonce(key, f"{part}{thread.id % NONCE_SPREAD}.{n}"))
                return thread
            except discord.NotFound:  # deleted: its nonces are its own, a new one's differ
                log.info("play-by-play thread %s of game %s is gone", thread.id, table.id)
                if not open_new:
                    return None
            except discord.HTTPException as exc:
                self._refused(table, exc)
                return None
        return None

    async def _thread(self, table: Table, *, fresh: bool,
                      open_new: bool) -> discord.Thread | None:
        """The thread the store names for this game (unless `fresh`), or with `open_new`
        a new public thread in the game's channel."""
        game_id = table.id or 0
        if not fresh:
            known = await self.store.get_thread(game_id, PLAY_BY_PLAY)
            if known is not None:
                found = await self._find(table, known)
                if found is not None:
                    return found
        if not open_new or game_id in self.skipped:
            return None
        try:
            parent = self.client.get_channel(table.channel_id) \
                or await self.client.fetch_channel(table.channel_id)
            # The type Discord makes there: a text channel's public thread, an
            # announcement channel's announcement thread; none in a thread or a voice
            # channel's chat (cogs/bot_permissions.py), where Start told the host so.
            kind = public_thread_in(parent)
            if not isinstance(parent, discord.TextChannel) or kind is None:
                self.skipped.add(game_id)
                log.info("game %s's channel %s holds no threads: no play-by-play thread",
                         game_id, table.channel_id)
                return None
            thread = None if fresh else self._made_before(parent, table)
            if thread is None:
                thread = await parent.create_thread(
                    name=thread_name(table), type=kind,
                    auto_archive_duration=THREAD_ARCHIVE_MINUTES)
        except discord.HTTPException as exc:
            self._refused(table, exc)
            return None
        await self.store.set_thread(game_id, PLAY_BY_PLAY, thread.id)
        return thread

    def _made_before(self, parent: discord.TextChannel,
                     table: Table) -> discord.Thread | None:
        """The game's thread this bot opened before the store heard of it: a process
        killed between the thread's creation and the store's write. Its name holds the
        game's number, and Discord hands a starting bot the active threads with each
        server (discord.py keeps them), so it is found without a request; adopting it
        keeps the game to one thread rather than an empty one and a second."""
        me, name = self.client.user, thread_name(table)
        if me is None:
            return None
        return next((t for t in parent.threads
                     if t.owner_id == me.id and t.name == name and not t.archived), None)

    async def _find(self, table: Table, thread_id: int) -> discord.Thread | None:
        """The stored thread, from discord.py's cache or Discord (an archived thread is
        not in the cache after a restart); None when it was deleted."""
        try:
            return await stored_thread(self.client, thread_id)
        except discord.NotFound:
            return None
        except discord.HTTPException as exc:
            self._refused(table, exc)
            return None

    def _refused(self, table: Table, exc: discord.HTTPException) -> None:
        """Discord would not take the thread. For now (5xx, 429): DeliveryFailed, the
        delivery stays owed. For good: the game goes on without its thread, said once."""
        if exc.status >= 500 or exc.status == 429:
            raise DeliveryFailed(f"play-by-play thread: {exc.status} {exc.text or exc}") \
                from exc
        self.skipped.add(table.id or 0)
        if malformed(exc) and exc.code not in (THREAD_LOCKED, THREAD_ARCHIVED):
            log.error("Discord refused game %s's play-by-play thread as malformed (our "
                      "bug; the game goes on without it): %s", table.id, exc)
            return
        log.warning("channel %s refuses game %s's play-by-play thread (%s): the game goes "
                    "on without it (the live message and /game log have every line)",
                    table.channel_id, table.id, exc)
