"""Work that no user asked for, done by exactly one of several processes on one
PostgreSQL: owed deliveries (Sessions.resume after `needing_attention`) and turn timers
(Sessions.fire_timer via the dispatcher). Two PostgresStore objects are two pools, as two
processes would have; each has its own Sessions and outlet, so only the database can keep
them from doing a thing twice."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from contextlib import suppress

import pytest

from bot import table as T
from bot import timers
from bot.core.actions import Action
from bot.guild_settings import GuildSettings
from bot.sessions import Sessions
from bot.store import ChannelBusy, PostgresStore
from tests.pg_pair import HeldStore
from tests.test_sessions import GUILD, KIND, RecordingOutlet
from tests.test_sessions_concurrency import FlakyOutlet, open_tables, turn_of
from tests.test_store_channel_lock import HANG_GUARD
from tests.test_timers import Clock

CHANNELS = 6


async def until(check: Callable[[], bool]) -> None:
    async def poll() -> None:
        while not check():
            await asyncio.sleep(0.005)
    await asyncio.wait_for(poll(), HANG_GUARD)


async def owing(sessions: Sessions, outlet: FlakyOutlet, channels: list[int]) -> None:
    """Each channel's next move is saved, its post refused: owed."""
    for channel in channels:
        table, prompt, actor = await turn_of(sessions, channel)
        outlet.failures = 1
        outcome = await sessions.act(channel, actor, prompt.options[0].action,
                                     version=table.version)
        assert not outcome.delivered


async def resume_all(store: PostgresStore, sessions: Sessions) -> None:
    """What HauntBot.resume_games does: every waiting game, busy ones left to others."""
    for game_id, channel in await store.needing_attention(ai_turns=False):
        with suppress(ChannelBusy):
            await sessions.resume(channel, game_id)


async def test_two_processes_resuming_at_once_deliver_each_owed_post_once(
        stores: tuple[HeldStore, HeldStore]) -> None:
    first, second = stores
    first.lock_wait = second.lock_wait = HANG_GUARD  # both wait their turn, none skips
    out_a, out_b = FlakyOutlet(failures=0), FlakyOutlet(failures=0)
    a = Sessions(first, out_a, render=False)
    b = Sessions(second, out_b, render=False)
    channels = await open_tables(a, CHANNELS)
    await owing(a, out_a, channels)
    assert len(await second.needing_attention(ai_turns=False)) == CHANNELS
    out_a.clear()
    await asyncio.gather(resume_all(first, a), resume_all(second, b))
    delivered = [channel for channel, _ in out_a.posts + out_b.posts]
    assert sorted(delivered) == channels  # each owed post once, by one process or other
    assert await first.needing_attention(ai_turns=False) == []


async def test_a_channel_held_elsewhere_is_left_to_its_holder_without_a_refusal(
        stores: tuple[HeldStore, HeldStore]) -> None:
    """The bot's own work on a busy channel raises ChannelBusy (skipped, tried later),
    not the users' "busy" refusal, and changes nothing; the holder delivers."""
    first, second = stores
    out_a, out_b = FlakyOutlet(failures=0), FlakyOutlet(failures=0)
    a = Sessions(first, out_a, render=False)
    b = Sessions(second, out_b, render=False)
    [channel] = await open_tables(a, 1)
    await owing(a, out_a, [channel])
    out_a.clear()
    first.hold = True
    holder = asyncio.create_task(a.resume(channel))
    await asyncio.wait_for(first.inside.wait(), HANG_GUARD)
    with pytest.raises(ChannelBusy):
        await b.resume(channel)
    first.release.set()
    await asyncio.wait_for(holder, HANG_GUARD)
    assert [c for c, _ in out_a.posts] == [channel] and out_b.posts == []
    assert await b.resume(channel) is None  # afterwards: nothing owed


async def test_two_dispatchers_on_one_database_fire_each_timer_once(
        stores: tuple[HeldStore, HeldStore]) -> None:
    first, second = stores
    first.lock_wait = second.lock_wait = HANG_GUARD
    clock = Clock()
    out_a, out_b = RecordingOutlet(), RecordingOutlet()
    a = Sessions(first, out_a, render=False, clock=clock)
    b = Sessions(second, out_b, render=False, clock=clock)
    await first.set_guild_settings(GUILD, GuildSettings(remind_minutes=10).to_dict())
    channels = [2000 + n for n in range(CHANNELS)]
    for channel in channels:
        await a.open(channel, GUILD, T.Actor(channel * 10, "Hana"), KIND, channel)
        await a.act(channel, T.Actor(channel * 10 + 1, "Bob"), Action(T.JOIN))
        await a.act(channel, T.Actor(channel * 10, "Hana"), Action(T.START))
    dispatchers = [timers.TimerDispatcher(store, sessions.fire_timer, clock=clock)
                   for store, sessions in ((first, a), (second, b))]
    clock.advance(10)  # every reminder is due, for both processes at once
    for dispatcher in dispatchers:
        dispatcher.start()
    try:
        await until(lambda: len(out_a.reminders) + len(out_b.reminders) >= CHANNELS)
        for dispatcher in dispatchers:
            dispatcher.wake()  # each looks again: nothing is left to fire
        await until(lambda: all(not d._firing for d in dispatchers))
        await asyncio.sleep(0.05)
        assert sorted(c for c, _, _ in out_a.reminders + out_b.reminders) == channels
        tables = [await first.load(channel) for channel in channels]
        assert [await first.timers_of(t.id or 0) for t in tables if t is not None] \
            == [[]] * CHANNELS  # every reminder claimed
    finally:
        for dispatcher in dispatchers:
            await dispatcher.stop()
