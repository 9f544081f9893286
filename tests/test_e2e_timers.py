"""Turn timers through the real discord.py and the fake Discord: a server with a one-minute
timer, the reminder in the channel, the AI playing the turn at the end, and a timer that
fell due while the bot was down firing once after the restart.

Nobody waits a minute: the timers' due times are moved into the past in the store (as a
minute going by would), then the dispatcher is woken, or the bot is restarted.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from bot.client import HauntBot
from bot.guild_settings import AI_PLAYS, GuildSettings
from bot.store import END_TIMER, REMIND_TIMER
from bot.texts import say
from tests.conftest import BotFactory
from tests.e2e_helpers import latest_turn, to_move, turn_posts
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser

# What only a reminder says (the live message's "your turn" ping says the rest too).
REMINDER = say("timers.remind", mention="", elapsed="\0").split("\0")[1]


async def wait_until(check: Callable[[], bool], seconds: float = 10.0) -> None:
    async with asyncio.timeout(seconds):
        while not check():
            await asyncio.sleep(0.01)


def reminders(fd: FakeDiscord, channel: int) -> list[FakeMessage]:
    return [m for m in fd.channel_messages(channel)
            if m.author_id == fd.bot_user.id and REMINDER in m.text]


def pings(fd: FakeDiscord, channel: int) -> list[FakeMessage]:
    """The live message's "your turn" pings still in the channel."""
    said = say("live.your_turn", mention="", link="\0").split("\0")[0]
    return [m for m in fd.channel_messages(channel)
            if m.author_id == fd.bot_user.id and said in m.text]


async def fall_due(bot: HauntBot, kind: str) -> None:
    """The timer's minute is up (its due time moves into the past)."""
    await bot.store.execute("UPDATE turn_timers SET due_at = ? WHERE kind = ?",
                            (time.time() - 1, kind))


async def started_with_timers(fd: FakeDiscord, start: BotFactory,
                              settings: GuildSettings) -> tuple[HauntBot, int, FakeUser,
                                                                FakeUser]:
    channel = fd.add_channel("timed")
    host, guest = fd.add_user("host"), fd.add_user("guest")
    bot = await start()
    await bot.store.set_guild_settings(fd.guild_id, settings.to_dict())
    bot.sessions.settings.forget(fd.guild_id)  # written around the cache: read it anew
    await (await fd.slash(host, channel, "game", "new", game="cthulhu", seed=21)).wait()
    await (await fd.slash(guest, channel, "game", "join")).wait()
    await (await fd.slash(host, channel, "game", "start")).wait()
    return bot, channel, host, guest


async def test_the_player_is_reminded_and_then_the_ai_plays_their_turn(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    bot, channel, host, guest = await started_with_timers(
        fd, start_hauntkeeper, GuildSettings(remind_minutes=1, act_minutes=2,
                                             timer_end=AI_PLAYS))
    turn = latest_turn(fd, channel)
    waiting = to_move(turn)
    assert waiting in (host.id, guest.id)
    await fd.settle()
    assert reminders(fd, channel) == []  # a minute has not gone by
    assert [m.pinged for m in pings(fd, channel)] == [[waiting]]  # the turn's own ping

    await fall_due(bot, REMIND_TIMER)
    bot.timers.wake()
    await wait_until(lambda: len(reminders(fd, channel)) == 1)
    await fd.settle()  # the reminder is posted first, then the old ping deleted
    [reminder] = reminders(fd, channel)
    # Armed a moment ago, its minute moved into the past: "1 minute so far".
    assert reminder.text.startswith(say("timers.remind", mention=f"<@{waiting}>",
                                           elapsed=say("timers.minute")))
    assert f"/{channel}/{turn.id}" in reminder.text  # the jump link to the live message
    assert not reminder.components  # a line, not a second board
    assert reminder.pinged == [waiting]  # it notifies the player, and no one else
    assert pings(fd, channel) == []  # it took the place of the turn's "your turn" ping

    posts = turn_posts(fd, channel)
    await fall_due(bot, END_TIMER)
    bot.timers.wake()
    await wait_until(lambda: turn_posts(fd, channel) > posts)
    await fd.settle()
    played = latest_turn(fd, channel)
    table = await bot.store.load(channel)
    assert table is not None
    name = next(s.name for s in table.seats if s.user_id == waiting)
    assert say("timers.ai_plays", name=name) in played.text
    assert to_move(latest_turn(fd, channel)) != waiting  # the turn went on
    assert any(s.user_id == waiting and s.is_human for s in table.seats)  # still theirs
    # The next human's ping took the reminder's place: one such line in the channel.
    assert reminders(fd, channel) == [] and len(pings(fd, channel)) == 1


async def test_a_timer_due_during_a_restart_fires_once_after_it(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    bot, channel, _host, _guest = await started_with_timers(
        fd, start_hauntkeeper, GuildSettings(remind_minutes=1))
    waiting = to_move(latest_turn(fd, channel))
    table = await bot.store.load(channel)
    assert table is not None and len(await bot.store.timers_of(table.id or 0)) == 1
    # The minute goes by while this bot sleeps towards it; it is stopped before it wakes.
    await fall_due(bot, REMIND_TIMER)
    await fd.settle()
    assert reminders(fd, channel) == []

    bot = await start_hauntkeeper()  # a new bot on the same database
    await wait_until(lambda: len(reminders(fd, channel)) == 1)
    bot.timers.wake()  # and looking again does not send it twice
    await fd.settle()
    assert [m.text.split(",")[0] for m in reminders(fd, channel)] == [f"<@{waiting}>"]
    assert await bot.store.timers_of(table.id or 0) == []
    bot = await start_hauntkeeper()  # nor does another restart
    await fd.settle()
    assert len(reminders(fd, channel)) == 1
