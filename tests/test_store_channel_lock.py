"""The channel lock across processes (Store.channel_lock, PostgreSQL's advisory lock), and
the channel's delivery lock beside it (Store.delivery_lock).

Two PostgresStore objects are two pools, as two bot processes would have, and each has
its own Sessions, so nothing in-process links them: only the database can serialise
them. A process is kept inside a channel's action by a store whose `load` waits for the
test; the other process is seen queued on the lock in pg_locks, not guessed by a sleep.
"""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from bot import table as T
from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.sessions import Sessions
from bot.store import ChannelBusy, PostgresStore, Table
from bot.store.postgres import channel_lock_key, delivery_lock_key
from bot.texts import say
from tests.pg_pair import HeldStore
from tests.pg_server import PgServer
from tests.test_sessions import GUILD, KIND, RecordingOutlet
from tests.test_sessions_concurrency import open_tables, turn_of
from tests.test_sessions_delivery_lock import SlowDiscord

CHANNEL = 1_180_000_000_000_000_010
OTHER_CHANNEL = CHANNEL + 1
HOST = T.Actor(1_180_000_000_000_000_100, "Hana")
BOB = T.Actor(1_180_000_000_000_000_200, "Bob")
CAT = T.Actor(1_180_000_000_000_000_300, "Cat")
HANG_GUARD = 20.0  # only against a hang: every wait here ends on an event, not a clock
MANY = 100  # channels acting at once
WAITING = ("SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")


async def _queued_on_a_lock(url: str) -> None:
    """Returns once some session waits for an advisory lock."""
    conn = await asyncpg.connect(url)
    try:
        while not await conn.fetchval(WAITING):
            await asyncio.sleep(0.01)
    finally:
        await conn.close()


async def _joined(sessions: Sessions, channel: int) -> Table:
    await sessions.open(channel, GUILD, HOST, KIND, 7)
    table = await sessions.store.load(channel)
    assert table is not None and table.version == 1
    return table


def _names(table: Table | None) -> list[str]:
    assert table is not None
    return [seat.name for seat in table.seats]


async def test_two_processes_acting_on_one_channel_take_turns_and_both_land(
        stores: tuple[HeldStore, HeldStore], pg_server: PgServer) -> None:
    first, second = stores
    a, b = Sessions(first, RecordingOutlet(), render=False), Sessions(
        second, RecordingOutlet(), render=False)
    second.lock_wait = HANG_GUARD  # this time the second waits as long as it takes
    await _joined(a, CHANNEL)
    first.hold = True
    bob = asyncio.create_task(a.act(CHANNEL, BOB, Action(T.JOIN)))
    await asyncio.wait_for(first.inside.wait(), HANG_GUARD)
    cat = asyncio.create_task(b.act(CHANNEL, CAT, Action(T.JOIN)))
    await asyncio.wait_for(_queued_on_a_lock(pg_server.url), HANG_GUARD)
    assert not cat.done()  # it waits in PostgreSQL's queue behind the first process
    first.release.set()
    await asyncio.wait_for(asyncio.gather(bob, cat), HANG_GUARD)
    table = await second.load(CHANNEL)
    assert table is not None and table.version == 3  # both applied, none refused
    assert _names(table) == ["Hana", "Bob", "Cat"]  # in the order they took the lock


async def test_a_process_kept_waiting_too_long_is_told_busy_and_changes_nothing(
        stores: tuple[HeldStore, HeldStore]) -> None:
    first, second = stores
    a, b = Sessions(first, RecordingOutlet(), render=False), Sessions(
        second, RecordingOutlet(), render=False)
    await _joined(a, CHANNEL)
    first.hold = True
    bob = asyncio.create_task(a.act(CHANNEL, BOB, Action(T.JOIN)))
    await asyncio.wait_for(first.inside.wait(), HANG_GUARD)
    with pytest.raises(IllegalAction) as refused:
        await asyncio.wait_for(b.act(CHANNEL, CAT, Action(T.JOIN)), HANG_GUARD)
    assert refused.value.message == say("errors.held")
    first.release.set()
    await asyncio.wait_for(bob, HANG_GUARD)
    table = await second.load(CHANNEL)
    assert table is not None and table.version == 2 and _names(table) == ["Hana", "Bob"]
    # The lock was let go: the second process acts now, at once.
    await asyncio.wait_for(b.act(CHANNEL, CAT, Action(T.JOIN)), HANG_GUARD)
    assert _names(await first.load(CHANNEL)) == ["Hana", "Bob", "Cat"]


async def test_another_channel_is_not_held_up(stores: tuple[HeldStore, HeldStore]) -> None:
    first, second = stores
    a, b = Sessions(first, RecordingOutlet(), render=False), Sessions(
        second, RecordingOutlet(), render=False)
    await _joined(a, CHANNEL)
    await _joined(b, OTHER_CHANNEL)
    first.hold = True
    bob = asyncio.create_task(a.act(CHANNEL, BOB, Action(T.JOIN)))
    await asyncio.wait_for(first.inside.wait(), HANG_GUARD)
    # The first process holds CHANNEL; the second, with its short wait, acts elsewhere.
    await asyncio.wait_for(b.act(OTHER_CHANNEL, CAT, Action(T.JOIN)), HANG_GUARD)
    assert _names(await second.load(OTHER_CHANNEL)) == ["Hana", "Cat"]
    assert not bob.done()
    first.release.set()
    await asyncio.wait_for(bob, HANG_GUARD)


async def test_the_lock_is_let_go_when_the_action_fails(
        stores: tuple[HeldStore, HeldStore]) -> None:
    first, second = stores
    with pytest.raises(RuntimeError):
        async with first.channel_lock(CHANNEL):
            raise RuntimeError("the action failed")
    # The other process takes it at once (were it still held, ChannelBusy after 0.3 s),
    # and now holds it: the first, asking again, is turned away.
    async with second.channel_lock(CHANNEL):
        first.lock_wait = 0.05
        with pytest.raises(ChannelBusy):
            async with first.channel_lock(CHANNEL):
                pass


async def test_a_delivery_held_elsewhere_keeps_its_channel_free(
        stores: tuple[HeldStore, HeldStore]) -> None:
    """One process delivering a channel (Discord may be slow) keeps another from
    delivering it too, but not from changing the game: the locks are two."""
    first, second = stores
    async with first.delivery_lock(CHANNEL):
        async with second.channel_lock(CHANNEL):  # at once: a change is not a delivery
            pass
        with pytest.raises(ChannelBusy):  # not waiting: told at once
            async with second.delivery_lock(CHANNEL, wait=False):
                pass
        second.lock_wait = 0.05
        with pytest.raises(ChannelBusy):  # waiting: told after its wait
            async with second.delivery_lock(CHANNEL):
                pass
    async with second.delivery_lock(CHANNEL, wait=False):  # let go: taken at once
        pass


async def test_a_raced_click_in_another_process_hears_stale_while_the_post_is_on_its_way(
        stores: tuple[HeldStore, HeldStore]) -> None:
    """Two processes, one button pressed in each. The first plays and its post takes
    its time in Discord; the second, waiting at most 0.3 s for the channel, is told the
    button is stale, not that the game is busy: the first let go of the channel once
    its move was saved (it delivers under the delivery lock)."""
    first, second = stores
    discord = SlowDiscord()
    a = Sessions(first, discord, render=False)
    b = Sessions(second, RecordingOutlet(), render=False)
    [channel] = await open_tables(a, 1, base=3_000)
    table, prompt, actor = await turn_of(a, channel)
    action = prompt.options[0].action
    discord.hold = True
    move = asyncio.create_task(a.act(channel, actor, action, version=table.version))
    await asyncio.wait_for(discord.inside.wait(), HANG_GUARD)
    with pytest.raises(IllegalAction) as refused:
        await asyncio.wait_for(b.act(channel, actor, action, version=table.version),
                               HANG_GUARD)
    assert refused.value.message == say("errors.stale")
    assert not move.done()  # the first's post is still in Discord
    discord.go.set()
    assert (await asyncio.wait_for(move, HANG_GUARD)).delivered


async def test_a_move_whose_delivery_another_process_holds_stays_owed_and_goes_out_once(
        stores: tuple[HeldStore, HeldStore]) -> None:
    """The channel's delivery lock kept by another process past the wait: the move is
    saved and said to be owed (not refused: it was played), and the retry delivers it
    once."""
    first, second = stores
    first.lock_wait = 0.05
    outlet = RecordingOutlet()
    a = Sessions(first, outlet, render=False)
    [channel] = await open_tables(a, 1, base=3_100)
    table, prompt, actor = await turn_of(a, channel)
    posts = len(outlet.posts)
    async with second.delivery_lock(channel):
        outcome = await a.act(channel, actor, prompt.options[0].action, version=table.version)
    assert not outcome.delivered and outcome.table.version == table.version + 1
    assert len(outlet.posts) == posts
    again = await a.resume(channel)
    assert again is not None and again.delivered and len(outlet.posts) == posts + 1
    assert await a.resume(channel) is None


def test_each_channel_has_its_own_stable_key() -> None:
    keys = {channel_lock_key(CHANNEL + n) for n in range(1000)}
    keys |= {delivery_lock_key(CHANNEL + n) for n in range(1000)}
    assert len(keys) == 2000
    assert channel_lock_key(CHANNEL) == channel_lock_key(CHANNEL)
    assert all(-(2**63) <= k < 2**63 for k in keys)


async def test_many_channels_acting_at_once_hold_no_connection_each(
        pg_server: PgServer) -> None:
    """Free locks are taken on shared connections: with one waiting connection and a
    50 ms wait, a hundred channels acting at once are all played, twice over (a
    connection held per channel for the whole action refused most of them "busy")."""
    await pg_server.reset()
    store = PostgresStore(pg_server.url, lock_connections=1, lock_wait=0.05)
    await store.open()
    try:
        sessions = Sessions(store, RecordingOutlet(), render=False)
        channels = [CHANNEL + 100 + n for n in range(MANY)]
        for channel in channels:
            await sessions.open(channel, GUILD, HOST, KIND, 7)
        for round_ in range(2):
            actor = (BOB, CAT)[round_]
            results = await asyncio.gather(
                *(sessions.act(channel, actor, Action(T.JOIN)) for channel in channels),
                return_exceptions=True)
            assert [r for r in results if isinstance(r, BaseException)] == []
        for channel in channels:
            assert _names(await store.load(channel)) == ["Hana", "Bob", "Cat"]
    finally:
        await store.close()
