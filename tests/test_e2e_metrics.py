"""The operators' metrics through the real bot and discord.py against the fake Discord:
with a port set, /metrics on localhost counts the slash commands' actions, refusals and
errors and the open games; without one, no endpoint starts and the bot plays as ever."""

from __future__ import annotations

import asyncio
import socket
import threading
import urllib.request
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot import metrics as M
from bot.client import HauntBot
from cogs import click_limit
from tests.e2e_helpers import latest_turn, to_move
from tests.fakediscord import FakeDiscord, FakeUser, start_bot, stop_bot

KIND = "cthulhu"
Start = Callable[..., Awaitable[HauntBot]]


def scrape(bot: HauntBot) -> str:
    """GET /metrics from the bot's endpoint (urllib blocks: call it in a thread)."""
    assert bot.metrics_server is not None
    url = f"http://127.0.0.1:{bot.metrics_server.port}/metrics"
    with urllib.request.urlopen(url, timeout=5) as response:
        assert response.status == 200
        return response.read().decode()


def http_threads() -> set[threading.Thread]:
    """The threads serving HTTP: prometheus_client runs its server's serve_forever."""
    return {t for t in threading.enumerate()
            if getattr(getattr(t, "_target", None), "__name__", "") == "serve_forever"}


@pytest.fixture
async def start(fd: FakeDiscord, tmp_path: Path,
                monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Start]:
    """Start the real bot with the test's options; every bot started is stopped after."""
    monkeypatch.setattr(click_limit, "CLICKS", click_limit.ClickLimit(clicks=10**9))
    running: list[tuple[HauntBot, asyncio.Task[None]]] = []

    async def started(**options: Any) -> HauntBot:
        bot = HauntBot(db_path=str(tmp_path / "metrics.sqlite3"), sync_commands=False,
                       **options)
        running.append((bot, await start_bot(bot, fd)))
        return bot

    yield started
    for bot, task in running:
        await stop_bot(bot, task)


async def _started_game(fd: FakeDiscord, channel: int) -> tuple[FakeUser, FakeUser]:
    host, guest = fd.add_user("host"), fd.add_user("guest")
    await (await fd.slash(host, channel, "game", "new", game=KIND, seed=21)).wait()
    await (await fd.slash(host, channel, "game", "start")).wait()  # refused: too few
    await (await fd.slash(guest, channel, "game", "join")).wait()
    await (await fd.slash(host, channel, "game", "start")).wait()
    return host, guest


async def test_the_endpoint_counts_what_the_tables_do(
        fd: FakeDiscord, start: Start, monkeypatch: pytest.MonkeyPatch) -> None:
    bot = await start(metrics_port=0)  # any free port, on 127.0.0.1 by default
    assert bot.metrics.enabled and bot.sessions.metrics is bot.metrics
    assert bot.metrics_server is not None and bot.metrics_server.port > 0
    channel = fd.add_channel("counted")
    host, guest = await _started_game(fd, channel)
    waiting = to_move(latest_turn(fd, channel))
    idle = guest if waiting == host.id else host
    refused = await (await fd.slash(idle, channel, "cthulhu", "move", character="0",
                                    room="1")).wait()
    assert any("not your turn" in t for t in refused.ephemeral_texts())

    async def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("a bug in /game status")

    monkeypatch.setattr(bot.sessions, "table", broken)
    failed = await (await fd.slash(host, channel, "game", "status")).wait()
    assert failed.ephemeral_texts(), "the failure is answered"
    monkeypatch.undo()

    text = await asyncio.to_thread(scrape, bot)
    assert f'hauntkeeper_actions_total{{game="{KIND}",kind="lobby.join"}} 1.0' in text
    assert f'hauntkeeper_actions_total{{game="{KIND}",kind="lobby.start"}} 1.0' in text
    assert f'hauntkeeper_refusals_total{{game="{KIND}"}} 2.0' in text  # start, move
    assert "hauntkeeper_errors_total 1.0" in text
    assert f'hauntkeeper_action_seconds_count{{game="{KIND}"}} 2.0' in text
    assert f'hauntkeeper_render_seconds_count{{game="{KIND}"}}' in text  # the start's board
    assert "hauntkeeper_open_games" in text


async def test_the_open_games_are_counted_again_while_it_runs(
        fd: FakeDiscord, start: Start, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(HauntBot, "open_games_seconds", 0.01)
    bot = await start(metrics_port=0)
    assert isinstance(bot.metrics, M.Metrics)
    registry = bot.metrics.registry
    await fd.wait_until(lambda: registry.get_sample_value("hauntkeeper_open_games") == 0,
                        what="the first count")
    host = fd.add_user("host")
    for name in ("one", "two"):
        await (await fd.slash(host, fd.add_channel(name), "game", "new", game=KIND)).wait()
    await fd.wait_until(lambda: registry.get_sample_value("hauntkeeper_open_games") == 2,
                        what="the two lobbies counted")
    assert "hauntkeeper_open_games 2.0" in await asyncio.to_thread(scrape, bot)


async def test_no_port_no_endpoint_and_the_bot_plays_as_ever(
        fd: FakeDiscord, start: Start) -> None:
    before = http_threads()
    bot = await start()
    assert bot.metrics is M.NO_METRICS and bot.sessions.metrics is M.NO_METRICS
    assert bot.metrics_server is None and http_threads() == before
    channel = fd.add_channel("quiet")
    await _started_game(fd, channel)
    assert to_move(latest_turn(fd, channel)) is not None


async def test_the_endpoint_stops_with_the_bot(fd: FakeDiscord, start: Start) -> None:
    before = http_threads()
    bot = await start(metrics_port=0)
    assert len(http_threads() - before) == 1
    server = bot.metrics_server
    assert server is not None
    await bot.close()
    assert bot.metrics_server is None and not server.thread.is_alive()
    assert http_threads() == before


async def test_a_port_already_taken_says_which_setting(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        bot = HauntBot(db_path=str(tmp_path / "taken.sqlite3"), metrics_port=port)
        try:
            with pytest.raises(OSError) as info:
                await bot.setup_hook()
        finally:
            await bot.close()
    said = str(info.value)
    assert f"127.0.0.1:{port}" in said and "HAUNTKEEPER_METRICS_PORT" in said
    assert bot.metrics_server is None and not bot.metrics.enabled
