"""Sessions.drain, the stop's wait: interactions under way finish and are answered,
new actions are refused with one calm line and change nothing, and the wait is bounded.
"""

from __future__ import annotations

import asyncio

import pytest

from bot import table as T
from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.sessions import Sessions
from bot.store import SqliteStore
from bot.texts import say
from tests.test_sessions import GUILD, KIND, RecordingOutlet

CHANNEL = 8800
HOST, GUEST = T.Actor(1, "Ann"), T.Actor(2, "Ben")


async def test_drain_waits_for_the_interaction_under_way_and_refuses_new_ones(
        store: SqliteStore) -> None:
    sessions = Sessions(store, RecordingOutlet(), render=False)
    await sessions.open(CHANNEL, GUILD, HOST, KIND, 3)
    release = asyncio.Event()
    answered: list[str] = []

    async def interaction() -> None:
        async with sessions.serving():
            await release.wait()  # the click's action and answer, still under way
            outcome = await sessions.act(CHANNEL, GUEST, Action(T.JOIN))
            answered.append(outcome.table.seats[-1].name)

    under_way = asyncio.create_task(interaction())
    await asyncio.sleep(0)
    drained = asyncio.create_task(sessions.drain(timeout=20))
    await asyncio.sleep(0)
    assert not drained.done()  # it waits for the interaction
    release.set()
    await asyncio.wait_for(under_way, 20)
    assert await asyncio.wait_for(drained, 20) == 0
    assert answered == ["Ben"]  # what was under way when the stop began still played

    table = await store.load(CHANNEL)
    assert table is not None
    with pytest.raises(IllegalAction) as refused:
        await sessions.act(CHANNEL, T.Actor(3, "Cy"), Action(T.JOIN))
    assert refused.value.message == say("errors.stopping")
    after = await store.load(CHANNEL)
    assert after is not None and after.version == table.version  # untouched


async def test_drain_gives_up_after_its_bound(store: SqliteStore) -> None:
    sessions = Sessions(store, RecordingOutlet(), render=False)
    stuck = asyncio.Event()

    async def interaction() -> None:
        async with sessions.serving():
            await stuck.wait()

    task = asyncio.create_task(interaction())
    await asyncio.sleep(0)
    assert await sessions.drain(timeout=0.01) == 1  # still under way, said so
    stuck.set()
    await task
