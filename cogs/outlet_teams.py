"""The outlet's layer for a team: its private thread in the game's channel. It exists
apart from the door (cogs/outlet.py) so a team thread's life reads in one place: opened
once per game and team, its members kept to the team's seats' holders, closed at the
end; whoever it cannot reach gets a DM instead (cogs/outlet_dms.py)."""

from __future__ import annotations

import logging
from contextlib import suppress
from typing import Any

import discord

from bot import table as table_rules
from bot.core.lru import RecentSet
from bot.core.story import HEROES, TRAITOR
from bot.delivery import PLAY_BY_PLAY
from bot.live_message import chunks
from bot.store import Store, Table
from bot.texts import say
from cogs.bot_permissions import private_threads_in
from cogs.outlet_dms import DirectMessages
from cogs.sending import THREAD_ARCHIVE_MINUTES, nonce, permanent, stored_thread

log = logging.getLogger(__name__)

UNKNOWN_MEMBER = 10007  # Discord's code for a user who is not a member (of a thread here)
# The table's actions whose actor took a seat, and those whose `user` was given one or
# had theirs taken: with the seats' holders, everyone who ever held a seat of a game.
SEATED_ACTORS = frozenset({"lobby.open", table_rules.JOIN, table_rules.SECOND})
SEATED_USERS = frozenset({table_rules.SEAT, table_rules.KICK})
# The teams named in the readers' language (data/texts.yaml, `dm.team_*`): the sides of
# bot/core/story.py a game splits its table into. Another game's team (a test game's
# "red") is named by its key.
NAMED_TEAMS = (HEROES, TRAITOR)


def team_words(team: str) -> str:
    """A team as its readers call it (a thread's name, a DM's heading): the key a game
    sends its events to is not a word of theirs."""
    return say(f"dm.team_{team}") if team in NAMED_TEAMS else team


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



class TeamThreads(DirectMessages):
    """Each team's private thread: found or opened, posted in, its members kept."""

    def __init__(self, client: discord.Client, store: Store, kept: int) -> None:
        super().__init__(client, store, kept)
        # (thread, user) added to a team thread by this process: one request per member
        # and start, instead of one per message.
        self._thread_members: RecentSet[tuple[int, int]] = RecentSet(kept)
        # (game, team) whose thread could not be opened: DMs until the bot restarts, so a
        # missing permission does not cost a refused request on every move.
        self._no_thread: RecentSet[tuple[int, str]] = RecentSet(kept)

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
        only = say("dm.team_only", team=team_words(team))
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
                try:
                    found = await stored_thread(self.client, known)
                except discord.NotFound:  # deleted: a new one is opened
                    found = None
                except discord.HTTPException as exc:
                    log.info("team thread %s of game %s unreadable: %s", known, game_id, exc)
                    return None
                if found is not None:
                    return found
        thread: discord.Thread | None = None
        try:
            parent = self.client.get_channel(table.channel_id)
            if parent is None:
                parent = await self.client.fetch_channel(table.channel_id)
            # A text channel's only: not an announcement channel's, a voice chat's or a
            # thread's, where Discord makes none (cogs/bot_permissions.py); DMs there.
            if isinstance(parent, discord.TextChannel) and private_threads_in(parent):
                thread = await parent.create_thread(
                    name=say("dm.thread_name", team=team_words(team), game=game_id)[:100],
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

    async def close_threads(self, table: Table) -> None:
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
