"""The bot's start through the real discord.py against the fake Discord: the renderers'
warm-up runs in the background, so the bot is ready, plays and delivers before it ends;
when it ends, what it filled is frozen out of the collector's sight; a warm-up that fails
leaves the bot running, its boards drawn cold; a stop ends a warm-up under way; after the
first pass over the waiting games, the boards of the games played last are drawn ahead;
a run loads the bot with the collector off (bot/__main__.py), and the bot turns it on."""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from bot import collector
from bot.client import HauntBot
from bot.sessions import Sessions
from bot.table_record import Table
from renderers.canvas import clear_caches
from tests.e2e_helpers import latest_turn, open_and_start, press_move, to_move, turn_posts
from tests.fakediscord import FakeDiscord
from tests.fakediscord.runner import start_bot, stop_bot


@pytest.fixture
async def make_bot(fd: FakeDiscord, tmp_path: Path) -> AsyncIterator[
        Callable[[], Awaitable[HauntBot]]]:
    running: list[tuple[HauntBot, asyncio.Task[None]]] = []

    async def make() -> HauntBot:
        bot = HauntBot(db_path=str(tmp_path / "hk.sqlite3"), sync_commands=False)
        running.append((bot, await start_bot(bot, fd)))
        return bot

    yield make
    for bot, task in running:
        await stop_bot(bot, task)


class HeldWarmUp:
    """Sessions.warm_up held until released: a warm-up that takes as long as a test
    wants."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.began = asyncio.Event()
        self.release = asyncio.Event()
        self.ended = asyncio.Event()
        real = Sessions.warm_up

        async def held(sessions: Sessions) -> None:
            self.began.set()
            await self.release.wait()
            await real(sessions)
            self.ended.set()

        monkeypatch.setattr(Sessions, "warm_up", held)


async def test_the_bot_is_ready_and_plays_before_its_warm_up_ends(
        fd: FakeDiscord, make_bot: Callable[[], Awaitable[HauntBot]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    warm_up = HeldWarmUp(monkeypatch)
    channel = fd.add_channel("haunted")
    alice, bob = fd.add_user("alice"), fd.add_user("bob")
    # Ready (setup_hook did not wait for the warm-up): a start held by it fails here.
    await asyncio.wait_for(make_bot(), 15)
    await asyncio.wait_for(warm_up.began.wait(), 5)
    await open_and_start(fd, channel, [alice, bob], "cthulhu", 3)
    first = latest_turn(fd, channel)
    assert first.attachments, "the board is drawn, cold"
    mover = {u.id: u for u in (alice, bob)}[to_move(first) or 0]
    posts = turn_posts(fd, channel)
    await (await press_move(fd, mover, first)).wait()
    assert turn_posts(fd, channel) > posts  # the move played and was shown
    assert not warm_up.ended.is_set()
    frozen = gc.get_freeze_count()
    warm_up.release.set()
    await asyncio.wait_for(warm_up.ended.wait(), 30)
    for _ in range(100):  # the freeze follows the warm-up's last draw
        if gc.get_freeze_count() > frozen:
            break
        await asyncio.sleep(0.01)
    assert gc.get_freeze_count() > frozen


async def test_a_failed_warm_up_leaves_the_bot_drawing_cold(
        fd: FakeDiscord, make_bot: Callable[[], Awaitable[HauntBot]],
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    async def broken(sessions: Sessions) -> None:
        raise RuntimeError("a renderer is broken")

    monkeypatch.setattr(Sessions, "warm_up", broken)
    channel = fd.add_channel("haunted")
    alice, bob = fd.add_user("alice"), fd.add_user("bob")
    with caplog.at_level(logging.INFO, logger="bot.client"):
        await make_bot()
        await open_and_start(fd, channel, [alice, bob], "cthulhu", 3)
    assert latest_turn(fd, channel).attachments
    failed = [r for r in caplog.records if "warm-up failed" in r.getMessage()]
    assert [r.levelno for r in failed] == [logging.WARNING]
    assert failed[0].exc_info is not None  # the cause, for whoever reads the log


async def test_a_stop_ends_a_warm_up_under_way(
        fd: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    warm_up = HeldWarmUp(monkeypatch)  # never released
    bot = HauntBot(db_path=str(tmp_path / "hk.sqlite3"), sync_commands=False)
    task = await asyncio.wait_for(start_bot(bot, fd), 15)
    await asyncio.wait_for(warm_up.began.wait(), 5)
    await asyncio.wait_for(stop_bot(bot, task), 10)
    assert not warm_up.ended.is_set()


async def test_a_start_draws_the_boards_of_the_games_played_last_ahead(
        fd: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[tuple[int, int]] = []  # (channel, version) of each board Sessions drew
    real = Sessions.board

    async def board(sessions: Sessions, table: Table, *, whole: bool = False) -> bytes | None:
        image = await real(sessions, table, whole=whole)
        if image is not None:
            drawn.append((table.channel_id, table.version))
        return image

    monkeypatch.setattr(Sessions, "board", board)
    channel = fd.add_channel("haunted")
    alice, bob = fd.add_user("alice"), fd.add_user("bob")
    first = HauntBot(db_path=str(tmp_path / "hk.sqlite3"), sync_commands=False)
    task = await start_bot(first, fd)
    await open_and_start(fd, channel, [alice, bob], "cthulhu", 3)
    await stop_bot(first, task)
    clear_caches()  # a new process: no board drawn yet
    drawn.clear()
    with caplog.at_level(logging.INFO, logger="bot.client"):
        bot = HauntBot(db_path=str(tmp_path / "hk.sqlite3"), sync_commands=False)
        bot.warm_boards_after = 0.0
        task = await start_bot(bot, fd)
        try:
            for _ in range(500):
                if any("drew the boards" in r.getMessage() for r in caplog.records):
                    break
                await asyncio.sleep(0.01)
            table = await bot.store.load(channel)
        finally:
            await stop_bot(bot, task)
    assert any("drew the boards of the 1 games played last" in r.getMessage()
               for r in caplog.records)
    assert table is not None
    assert drawn == [(channel, table.version)]  # its board now, before anyone clicks


async def test_the_bot_turns_the_collector_on_once_loaded_at_a_servers_pace(
        fd: FakeDiscord, make_bot: Callable[[], Awaitable[HauntBot]]) -> None:
    gc.disable()  # as `python -m bot run` starts it
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)  # CPython's default
    try:
        await make_bot()
        assert gc.isenabled()
        # at a long-running server's pace: young passes rare, full ones rarer
        assert gc.get_threshold() == collector.THRESHOLDS
    finally:
        gc.set_threshold(*before)
        gc.enable()
