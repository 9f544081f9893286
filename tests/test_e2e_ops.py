"""The bot's background work through the real discord.py against the fake Discord: the
retry loop outlives a store error and still delivers what is owed; a server that
removes the bot is forgotten after the grace period, and one that takes it back (while
it runs, or while it was down) keeps everything."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.client import HauntBot
from bot.client import make_bot as make_hauntbot
from bot.shards import Shards
from bot.store import open_store
from bot.texts import say
from cogs import reply
from tests.e2e_helpers import latest_turn, open_and_start, press_move, to_move, turn_posts
from tests.fakediscord import FakeDiscord
from tests.fakediscord.runner import start_bot, stop_bot

FAST = 0.05  # the loops' period in these tests (30 s and an hour in the bot)


@pytest.fixture
async def make_bot(fd: FakeDiscord, tmp_path: Path,
                   monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[
                       Callable[..., Awaitable[HauntBot]]]:
    """A bot whose loops tick every FAST seconds; stopped (and its stop checked to
    raise nothing) at the end."""
    monkeypatch.setattr(HauntBot, "retry_seconds", FAST)
    monkeypatch.setattr(HauntBot, "forget_seconds", FAST)
    running: list[tuple[HauntBot, asyncio.Task[None]]] = []

    async def make(**options: Any) -> HauntBot:
        bot = HauntBot(db_path=str(tmp_path / "hk.sqlite3"), sync_commands=False, **options)
        running.append((bot, await start_bot(bot, fd)))
        return bot

    yield make
    for bot, task in running:
        await stop_bot(bot, task)


async def until(check: Callable[[], Awaitable[bool]], what: str, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not await check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


async def test_the_retry_loop_outlives_store_errors_and_delivers_the_owed_post(
        fd: FakeDiscord, make_bot: Callable[..., Awaitable[HauntBot]],
        caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    # Clicks deferred first (a slow action's path), so the refused edit is the PATCH.
    monkeypatch.setattr(reply, "PATIENCE", 0.0)
    channel = fd.add_channel("haunted")
    alice, bob = fd.add_user("alice"), fd.add_user("bob")
    by_id = {u.id: u for u in (alice, bob)}
    bot = await make_bot()
    await open_and_start(fd, channel, [alice, bob], "cthulhu", 3)
    first = latest_turn(fd, channel)

    # The store fails the retry tick's read for a while, as a locked or lost database
    # would: before the fix the first failure ended the loop for good.
    real = bot.store.needing_attention
    failing = {"on": True, "count": 0}

    async def needing_attention(*, ai_turns: bool = True) -> list[tuple[int, int]]:
        if failing["on"]:
            failing["count"] += 1
            raise sqlite3.OperationalError("database is locked")
        return await real(ai_turns=ai_turns)

    bot.store.needing_attention = needing_attention  # type: ignore[method-assign]
    caplog.set_level(logging.INFO, logger="bot.loops")
    caplog.set_level(logging.INFO, logger="bot.client")
    fd.hold_next_edit(channel).drop()  # the move's post is refused: owed
    mover = by_id[to_move(first) or 0]
    handle = await (await press_move(fd, mover, first)).wait()
    assert handle.ephemeral_texts() == [say("delivery_owed")]

    async def failed_thrice() -> bool:
        return failing["count"] >= 3

    await until(failed_thrice, "three failed retry ticks")
    assert turn_posts(fd, channel) == 1  # still owed
    failing["on"] = False

    async def delivered() -> bool:
        table = await bot.store.load(channel)
        return table is not None and table.delivered_seq == table.last_seq

    await until(delivered, "the owed post, after the store came back")
    await fd.settle()
    assert turn_posts(fd, channel) == 2
    tending = [r for r in caplog.records if "tending the waiting games" in r.getMessage()]
    errors = [r for r in tending if r.levelno == logging.ERROR]
    assert len(errors) == 1 and errors[0].exc_info is not None  # one traceback
    repeats = [r for r in tending if r.levelno == logging.WARNING]
    assert len(repeats) >= 2 and all(r.exc_info is None for r in repeats)
    assert any("works again" in r.getMessage() for r in tending)
    await bot.close()  # a loop that failed is no error of the stop's


async def _a_server_with_a_game(fd: FakeDiscord, bot: HauntBot) -> int:
    channel = fd.add_channel("haunted")
    alice = fd.add_user("alice")
    await (await fd.slash(alice, channel, "game", "new", game="cthulhu", seed=3)).wait()
    await bot.store.set_guild_settings(fd.guild_id, {"remind_minutes": 5})
    assert await bot.store.load(channel) is not None
    return channel


async def test_a_server_that_removes_the_bot_is_forgotten_after_the_grace(
        fd: FakeDiscord, make_bot: Callable[..., Awaitable[HauntBot]]) -> None:
    bot = await make_bot(forget_after_days=0)
    channel = await _a_server_with_a_game(fd, bot)
    await fd.dispatch("GUILD_DELETE", {"id": str(fd.guild_id)})  # kicked

    async def forgotten() -> bool:
        return await bot.store.load_latest(channel) is None \
            and await bot.store.guild_settings(fd.guild_id) == {}

    await until(forgotten, "the server's data deleted")
    assert await bot.store.count_games() == 0
    assert await bot.store.forgets_due(time.time() + 10) == []


async def test_a_server_that_takes_the_bot_back_within_the_grace_keeps_its_games(
        fd: FakeDiscord, make_bot: Callable[..., Awaitable[HauntBot]]) -> None:
    bot = await make_bot(forget_after_days=7)
    channel = await _a_server_with_a_game(fd, bot)
    await fd.dispatch("GUILD_DELETE", {"id": str(fd.guild_id)})
    week = time.time() + 7 * 86400

    async def scheduled() -> bool:
        return await bot.store.forgets_due(week + 60) == [fd.guild_id]

    await until(scheduled, "the deletion scheduled a week out")
    assert await bot.store.forgets_due(week - 60) == []  # not before its time
    joined = fd._guild_json()
    joined.pop("unavailable", None)  # a join's, not an outage's end (guild_available)
    await fd.dispatch("GUILD_CREATE", joined)  # invited back

    async def cancelled() -> bool:
        return await bot.store.forgets_due(week + 60) == []

    await until(cancelled, "the deletion cancelled")
    assert await bot.store.load(channel) is not None


async def test_a_server_found_again_at_a_start_is_kept_though_its_deletion_was_due(
        fd: FakeDiscord, make_bot: Callable[..., Awaitable[HauntBot]]) -> None:
    """Removed, then re-invited while the bot was down: no GUILD_DELETE or join is
    seen, but the start finds the server there and keeps its data."""
    bot = await make_bot(forget_after_days=0)
    channel = await _a_server_with_a_game(fd, bot)
    await bot.close()
    store = await open_store(bot.db_path)
    try:
        await store.schedule_forget(fd.guild_id, time.time() - 1)
    finally:
        await store.close()
    again = await make_bot(forget_after_days=0)

    async def kept() -> bool:
        return await again.store.forgets_due(time.time() + 10) == []

    await until(kept, "the due deletion cancelled")
    assert await again.store.load(channel) is not None


def test_a_shard_process_judges_only_the_servers_of_its_own_shards() -> None:
    """A server's deletion is decided where its events arrive: another process's
    server is never forgotten here for want of seeing it."""
    ours, theirs = (1 << 22) * 3, (1 << 22) * 2  # shard 1 and shard 0 of 2
    sharded = make_hauntbot(Shards((1,), 2), db_path=":memory:")
    assert sharded.runs_guild(ours) and not sharded.runs_guild(theirs)
    assert make_hauntbot(None, db_path=":memory:").runs_guild(theirs)
