"""Shared fixtures: a fake Discord server, and the real bot started against it."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import discord
import pytest

from bot.client import HauntBot
from bot.store import SqliteStore, open_store
from cogs import click_limit
from tests.fakediscord import FakeDiscord, discord_errors, start_bot, stop_bot

BotFactory = Callable[[], Awaitable[HauntBot]]
STORE_FILE = "store.sqlite3"  # the `store` fixture's database, in the test's tmp_path


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    """A fresh SQLite store in the test's own folder (tmp_path / STORE_FILE)."""
    s = await open_store(tmp_path / STORE_FILE)
    yield s
    await s.close()


@pytest.fixture
async def fd() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    await server.start()
    yield server
    await server.stop()
    assert server.unhandled == [], server.unhandled


@pytest.fixture
async def start_hauntkeeper(fd: FakeDiscord, tmp_path: Path,
                            monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[BotFactory]:
    """Start (or restart: a new bot object, the same database) the real bot.

    Any error discord.py only logs (in a button callback, say) or any slash command error
    fails the test, so a broken handler cannot pass by timing out quietly. Scripted
    players click at machine speed, so the per-user click limit is lifted (a test of the
    limit sets its own).
    """
    monkeypatch.setattr(click_limit, "CLICKS", click_limit.ClickLimit(clicks=10**9))
    running: list[tuple[HauntBot, asyncio.Task[None]]] = []
    failures: list[BaseException] = []
    db = tmp_path / "hauntkeeper.sqlite3"

    async def start() -> HauntBot:
        if running:
            bot, task = running.pop()
            await stop_bot(bot, task)
        bot = HauntBot(db_path=str(db), sync_commands=False)

        original = bot.on_app_command_error

        async def on_error(interaction: discord.Interaction,
                           error: discord.app_commands.AppCommandError) -> None:
            failures.append(error)
            await original(interaction, error)

        task = await start_bot(bot, fd)
        bot.tree.on_error = on_error  # type: ignore[method-assign]
        running.append((bot, task))
        return bot

    ours = _ErrorCollector()
    logging.getLogger().addHandler(ours)
    try:
        with discord_errors() as logged:
            yield start
            while running:
                bot, task = running.pop()
                await stop_bot(bot, task)
    finally:
        logging.getLogger().removeHandler(ours)
    assert failures == [], failures
    assert logged == [], [r.getMessage() for r in logged]
    assert ours.records == [], [r.getMessage() for r in ours.records]


class _ErrorCollector(logging.Handler):
    """Our own handlers log unexpected exceptions instead of raising: collect them."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if not record.name.startswith("discord"):
            self.records.append(record)
