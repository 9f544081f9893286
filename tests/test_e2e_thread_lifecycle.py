"""Threads as Discord keeps them, through the real discord.py and the fake Discord: a
game's thread (the game played in it, or its teams' and play-by-play threads) archived
after its quiet time, locked by a moderator, or deleted with its parent channel.

What Discord does (developer docs, "Threads"): "Users cannot edit messages ... in
archived threads ... Sending a message will automatically unarchive the thread, unless
the thread has been locked by a moderator"; "Users (including bot users) without the
MANAGE_THREADS permission ... won't be able to create or update messages in locked
threads"; a channel deleted takes its threads with it, told by CHANNEL_DELETE alone
(discord.py tells its own thread_delete for the active threads it holds). The fake
refuses as Discord does (tests/fakediscord/permissions.py, `refusal_in_thread`).
"""

from __future__ import annotations

import asyncio
import time

from bot import table as T
from bot.client import HauntBot
from bot.core.actions import Action
from bot.guild_settings import AI_PLAYS, GuildSettings
from tests.conftest import BotFactory
from tests.e2e_helpers import latest_turn, open_and_start
from tests.fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser
from tests.helpers import team_game


async def _timed_game_in_thread(fd: FakeDiscord, start: BotFactory
                                ) -> tuple[HauntBot, int, int, list[FakeUser]]:
    """A running two-player Cthulhu game inside a public thread, on a server with turn
    timers (a timer's move is delivered by an edit of the live message, no click)."""
    parent = fd.add_channel("hall")
    host, guest = fd.add_user("host"), fd.add_user("guest")
    thread = fd.add_thread(parent, "side game", owner=host)
    bot = await start()
    settings = GuildSettings(remind_minutes=1, act_minutes=2, timer_end=AI_PLAYS)
    await bot.store.set_guild_settings(fd.guild_id, settings.to_dict())
    bot.sessions.settings.forget(fd.guild_id)
    await open_and_start(fd, thread, [host, guest], "cthulhu", seed=21)
    return bot, parent, thread, [host, guest]


async def _until_closed(fd: FakeDiscord, bot: HauntBot, channel: int) -> None:
    """Wait for the game there to close (the bot's handler of a deleted channel runs
    as a task of its own, no request in flight for `settle` to see)."""
    for _ in range(500):
        if await bot.store.load(channel) is None:
            await fd.settle()
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"the game in {channel} is still open")


async def _timers_fall_due(fd: FakeDiscord, bot: HauntBot) -> None:
    await bot.store.execute("UPDATE turn_timers SET due_at = ?", (time.time() - 1,))
    bot.timers.wake()
    await fd.settle()


async def test_a_deleted_channel_closes_the_game_played_in_its_thread(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """The channel a game's thread is in is deleted: the thread goes with it, and
    Discord says so with the channel's CHANNEL_DELETE only. The game in the thread ends
    as if the thread itself had been deleted."""
    bot, parent, thread, _ = await _timed_game_in_thread(fd, start_hauntkeeper)
    await fd.delete_channel(parent)
    assert fd.channels[thread].deleted
    await _until_closed(fd, bot, thread)
    ended = await bot.store.load_latest(thread)
    assert ended is not None and ended.status == "over"
    assert await bot.store.timers_of(ended.id or 0) == []


async def test_a_game_in_a_thread_archived_while_quiet_goes_on(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """Discord archives a thread after its quiet time; the turn's timer then plays the
    absent player's move. An archived thread takes no edit of its messages (50083), so
    the bot must wake the thread, not take the refusal for a bug of its own: the live
    message shows the move, the thread is active again, and nothing is owed."""
    bot, _, thread, _ = await _timed_game_in_thread(fd, start_hauntkeeper)
    before = await bot.store.load(thread)
    assert before is not None
    live = latest_turn(fd, thread)
    edits = len(live.history)
    await fd.set_thread(thread, archived=True)
    await _timers_fall_due(fd, bot)
    after = await bot.store.load(thread)
    assert after is not None and after.version > before.version
    assert after.delivered_seq == after.last_seq
    assert not fd.channels[thread].archived
    assert len(fd.message(live.id).history) > edits  # the move shown on it


async def test_a_game_in_a_thread_a_moderator_locked(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """A moderator locks the game's thread and the bot (invited without Manage Threads)
    may no longer post or edit there (160005): the game's delivery stays owed, as in a
    channel that refuses the bot's posts, nothing is logged as the bot's own bug, and
    once the thread is unlocked the owed delivery goes out."""
    fd.revoke_bot_permissions("manage_threads")
    bot, _, thread, _ = await _timed_game_in_thread(fd, start_hauntkeeper)
    shown = [m.snapshot() for m in fd.channel_messages(thread)]
    await fd.set_thread(thread, locked=True)
    await _timers_fall_due(fd, bot)
    assert [e for e in fd.errors if e[2].get("code") == 160005]
    owed = await bot.store.load(thread)
    assert owed is not None and owed.delivered_seq < owed.last_seq
    assert [m.snapshot() for m in fd.channel_messages(thread)] == shown
    await fd.set_thread(thread, locked=False)
    await bot.resume_games(ai_turns=False)
    await fd.settle()
    sent = await bot.store.load(thread)
    assert sent is not None and sent.delivered_seq == sent.last_seq
    assert [m.snapshot() for m in fd.channel_messages(thread)] != shown


async def test_a_deleted_channel_closes_the_game_of_its_archived_thread_at_its_next_post(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """An archived thread is not among the threads discord.py holds, so the channel's
    CHANNEL_DELETE tells the bot nothing of the game in it: the game's next delivery
    meets Discord's Unknown Channel (10003), and that closes it."""
    bot, parent, thread, _ = await _timed_game_in_thread(fd, start_hauntkeeper)
    await fd.set_thread(thread, archived=True)
    await fd.delete_channel(parent)
    await fd.settle()
    assert await bot.store.load(thread) is not None  # nobody told the bot
    await _timers_fall_due(fd, bot)
    await _until_closed(fd, bot, thread)
    assert any(e[2].get("code") == 10003 for e in fd.errors)
    ended = await bot.store.load_latest(thread)
    assert ended is not None and ended.status == "over"


async def _team_game(fd: FakeDiscord, start: BotFactory
                     ) -> tuple[HauntBot, int, FakeUser, dict[str, FakeChannel]]:
    """tests/helpers/team_game.py started by host, tom and rita and an AI: "red" (the
    host's team) and "blue" each get a private thread; the host moves first."""
    channel = fd.add_channel("teams")
    host, tom, rita = fd.add_user("host"), fd.add_user("tom"), fd.add_user("rita")
    bot = await start()
    host_actor = T.Actor(host.id, "host")
    await bot.sessions.open(channel, fd.guild_id, host_actor, team_game.KEY, 1)
    for user in (tom, rita):
        await (await fd.slash(user, channel, "game", "join")).wait()
    await bot.sessions.act(channel, host_actor, Action(T.ADD_AI))
    await (await fd.slash(host, channel, "game", "start")).wait()
    threads = {t.name.split(" — ")[0]: t for t in fd.threads(channel)}
    return bot, channel, host, threads


async def _signal(fd: FakeDiscord, user: FakeUser, message: FakeMessage) -> None:
    [custom_id] = [c["custom_id"] for c in message.flat_components()
                   if c["type"] == 2 and c["label"] == "Signal 1"]
    await (await fd.click(user, message, custom_id)).wait()


async def test_a_team_thread_a_moderator_locked_sends_its_lines_by_dm(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """A moderator locks the red team's thread; the bot, without Manage Threads, may not
    post there (160005): red's lines reach its players by DM, as when there is no
    thread, and the game goes on."""
    fd.revoke_bot_permissions("manage_threads")
    with team_game.registered():
        bot, channel, host, threads = await _team_game(fd, start_hauntkeeper)
        red = threads["red"]
        said = len(fd.channel_messages(red.id))
        await fd.set_thread(red.id, locked=True)
        await _signal(fd, host, latest_turn(fd, channel))
        assert len(fd.channel_messages(red.id)) == said
        assert [e for e in fd.errors if e[2].get("code") == 160005]
        assert any(m.text.startswith("*For the red only:*") for m in fd.dms(host))
        table = await bot.store.load(channel)
        assert table is not None and table.delivered_seq == table.last_seq


async def test_a_team_thread_archived_while_quiet_wakes_with_its_next_line(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """Discord archives the red team's thread after its quiet time: the next red line
    is posted there all the same (a post wakes a thread that is not locked), no DM."""
    with team_game.registered():
        _, channel, host, threads = await _team_game(fd, start_hauntkeeper)
        red = threads["red"]
        said = len(fd.channel_messages(red.id))
        await fd.set_thread(red.id, archived=True)
        await _signal(fd, host, latest_turn(fd, channel))
        assert len(fd.channel_messages(red.id)) == said + 1
        assert not fd.channels[red.id].archived
        assert not any(m.text.startswith("*For the red only:*") for m in fd.dms(host))
