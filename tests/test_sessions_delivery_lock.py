"""A move is saved under its channel's lock and delivered after it, under the channel's
delivery lock (bot/channel_locks.py): Discord taking its time over a post keeps no other
click of the channel waiting for the lock, and the channel's posts still go out one at
a time, in the order of their saves, nothing saved while one is owed.

Discord is an outlet whose post waits for the test (`SlowDiscord`); the store says when
a game is loaded and keeps the order of its saves and marks (`Watched`). Every wait here
ends on an event; HANG_GUARD only stops a hang.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from bot import table as T
from bot.core.errors import IllegalAction
from bot.delivery import delivery_key
from bot.sessions import Post, Sessions
from bot.store import LiveMessage, SqliteStore, Table
from bot.texts import say
from tests.test_sessions import RecordingOutlet
from tests.test_sessions_concurrency import open_tables, turn_of

HANG_GUARD = 20.0


class SlowDiscord(RecordingOutlet):
    """Once `hold` is set, the next post waits for `go` (Discord slow to answer), after
    saying it got there (`inside`)."""

    def __init__(self) -> None:
        super().__init__()
        self.hold = False
        self.inside = asyncio.Event()
        self.go = asyncio.Event()

    async def publish(self, table: Table, post: Post) -> None:
        if self.hold:
            self.hold = False
            self.inside.set()
            await self.go.wait()
        await super().publish(table, post)


class Watched(SqliteStore):
    """Says when a game is loaded; keeps the order of saves and delivery marks; once
    `hold_mark` is set, the next mark waits for `go` after it is written."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.loaded = asyncio.Event()
        self.writes: list[str] = []
        self.hold_mark = False
        self.marked = asyncio.Event()
        self.go = asyncio.Event()

    async def load(self, channel_id: int) -> Table | None:
        table = await super().load(channel_id)
        self.loaded.set()
        return table

    async def save(self, table: Table, events: Any, **kwargs: Any) -> Table:
        saved = await super().save(table, events, **kwargs)
        self.writes.append(f"save {saved.version}")
        return saved

    async def mark_delivered(self, game_id: int, seq: int,
                             live: LiveMessage | None = None) -> None:
        await super().mark_delivered(game_id, seq, live)
        self.writes.append("mark")
        if self.hold_mark:
            self.hold_mark = False
            self.marked.set()
            await self.go.wait()


@pytest.fixture
async def watched(tmp_path: Path) -> AsyncIterator[Watched]:
    store = Watched(tmp_path / "watched.sqlite3")
    await store.open()
    yield store
    await store.close()


async def _moves(sessions: Sessions, channel: int) -> tuple[Table, Any, T.Actor]:
    table, prompt, actor = await turn_of(sessions, channel)
    return table, prompt.options[0].action, actor


async def until(check: Callable[[], bool]) -> None:
    async def poll() -> None:
        while not check():
            await asyncio.sleep(0.005)
    await asyncio.wait_for(poll(), HANG_GUARD)


async def _run_on(tasks: int = 20) -> None:
    """Let tasks waiting on the loop (no I/O) go as far as they can."""
    for _ in range(tasks):
        await asyncio.sleep(0)


async def test_a_post_on_its_way_keeps_no_click_of_its_channel_waiting(
        watched: Watched) -> None:
    discord = SlowDiscord()
    sessions = Sessions(watched, discord, render=False)
    [channel] = await open_tables(sessions, 1)
    table, action, actor = await _moves(sessions, channel)
    posts = len(discord.posts)
    discord.hold = True
    move = asyncio.create_task(sessions.act(channel, actor, action, version=table.version))
    await asyncio.wait_for(discord.inside.wait(), HANG_GUARD)

    # Saved, its post still in Discord: the channel's lock is free...
    async with asyncio.timeout(HANG_GUARD), sessions.locks.acting(channel):
        pass
    # ...so the same button pressed again hears at once that it is stale.
    with pytest.raises(IllegalAction) as again:
        await asyncio.wait_for(sessions.act(channel, actor, action, version=table.version),
                               HANG_GUARD)
    assert again.value.message == say("errors.stale")
    assert not move.done()

    discord.go.set()
    outcome = await asyncio.wait_for(move, HANG_GUARD)
    assert outcome.delivered and len(discord.posts) == posts + 1
    assert (await watched.load(channel)).version == table.version + 1  # type: ignore[union-attr]


async def test_the_next_move_waits_for_the_post_before_it_and_shows_after_it(
        watched: Watched) -> None:
    """A move made while the last one's post is on its way (a typed command: no version
    to be stale) is not saved until that post is delivered and marked: its own post then
    follows, under its own key, with only its own lines."""
    discord = SlowDiscord()
    sessions = Sessions(watched, discord, render=False)
    [channel] = await open_tables(sessions, 1)
    table, action, actor = await _moves(sessions, channel)
    discord.hold = True
    first = asyncio.create_task(sessions.act(channel, actor, action, version=table.version))
    await asyncio.wait_for(discord.inside.wait(), HANG_GUARD)

    middle, action2, actor2 = await _moves(sessions, channel)  # saved, not delivered
    watched.loaded.clear()
    writes = len(watched.writes)
    second = asyncio.create_task(sessions.act(channel, actor2, action2))
    await asyncio.wait_for(watched.loaded.wait(), HANG_GUARD)  # it found the post owed
    await _run_on()
    assert not second.done() and watched.writes[writes:] == []  # it waits, saving nothing

    discord.go.set()
    done = await asyncio.wait_for(asyncio.gather(first, second), HANG_GUARD)
    assert watched.writes[writes:] == ["mark", f"save {middle.version + 1}", "mark"]
    game = middle.id or 0
    keys = [post.key for _, post in discord.posts[-2:]]
    assert keys == [delivery_key(game, middle.version), delivery_key(game, middle.version + 1)]
    for (_, post), outcome in zip(discord.posts[-2:], done, strict=True):
        assert post.lines == [e.text for e in outcome.events if e.audience.is_public]


async def test_a_move_saved_while_the_last_delivery_ends_is_shown_after_it(
        watched: Watched) -> None:
    """The last delivery is marked but not yet over when the next move is saved: the
    next move's delivery waits its turn (taken where it was saved), so the channel never
    shows a later version before an earlier one."""
    discord = RecordingOutlet()
    sessions = Sessions(watched, discord, render=False)
    [channel] = await open_tables(sessions, 1)
    table, action, actor = await _moves(sessions, channel)
    watched.hold_mark = True
    first = asyncio.create_task(sessions.act(channel, actor, action, version=table.version))
    await asyncio.wait_for(watched.marked.wait(), HANG_GUARD)

    middle, action2, actor2 = await _moves(sessions, channel)
    posts = len(discord.posts)
    second = asyncio.create_task(sessions.act(channel, actor2, action2,
                                              version=middle.version))
    await until(lambda: f"save {middle.version + 1}" in watched.writes)  # nothing owed
    await _run_on()
    assert not second.done() and len(discord.posts) == posts  # its post waits its turn

    watched.go.set()
    await asyncio.wait_for(asyncio.gather(first, second), HANG_GUARD)
    assert [post.key for _, post in discord.posts[-1:]] == [
        delivery_key(middle.id or 0, middle.version + 1)]
    assert [p.prompt.version for _, p in discord.posts[-2:] if p.prompt] == [
        middle.version, middle.version + 1]
