"""Start and stop a real discord.py bot against a FakeDiscord server.

Why a helper: login + connect + ready + command sync is the same dance in every test,
and a bot that fails to connect should fail the test at once instead of hanging it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Iterator
from typing import TypeVar

import discord

from .server import FakeDiscord

ClientT = TypeVar("ClientT", bound=discord.Client)


async def start_bot(
    bot: discord.Client,
    fd: FakeDiscord,
    token: str = "x",
    *,
    sync: bool = True,
    timeout: float = 5.0,
) -> asyncio.Task[None]:
    """Log `bot` into `fd`, connect the gateway and wait until ready; returns the
    connection task (give it to `stop_bot`).

    Also shortens discord.py's wait for GUILD_CREATEs (`guild_ready_timeout`) and, if
    `sync` and the bot has a command tree, syncs global commands and the fake guild's
    commands so `fd.slash` knows the option types.
    """
    fd.patch_discord()
    state = bot._connection
    state.guild_ready_timeout = min(state.guild_ready_timeout, 0.05)
    task: asyncio.Task[None] | None = None
    try:
        await bot.login(token)
        task = asyncio.create_task(bot.connect(), name="fakediscord-bot-connect")
        ready = asyncio.create_task(bot.wait_until_ready())
        done, _ = await asyncio.wait(
            {task, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
        )
        if ready not in done:
            ready.cancel()
            if task in done:
                task.result()  # re-raise the connection error
            raise TimeoutError(f"bot not ready after {timeout}s; unhandled: {fd.unhandled}")
        tree = getattr(bot, "tree", None)
        if sync and isinstance(tree, discord.app_commands.CommandTree):
            guild = discord.Object(fd.guild_id)
            await tree.sync()
            if tree.get_commands(guild=guild):
                await tree.sync(guild=guild)
        await fd.settle()
    except BaseException:
        if task is None:
            await bot.close()
        else:
            await stop_bot(bot, task)
        raise
    return task


async def stop_bot(bot: discord.Client, task: asyncio.Task[None], timeout: float = 5.0) -> None:
    """Close the bot (gateway + HTTP session) and wait for its connection task to end."""
    await bot.close()
    try:
        await asyncio.wait_for(task, timeout)
    except (asyncio.CancelledError, TimeoutError):
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task


@contextlib.asynccontextmanager
async def running_bot(
    bot: ClientT, fd: FakeDiscord, token: str = "x", *, sync: bool = True
) -> AsyncIterator[ClientT]:
    """`async with running_bot(bot, fd):` = start_bot ... stop_bot, even on failure."""
    task = await start_bot(bot, fd, token, sync=sync)
    try:
        yield bot
    finally:
        await stop_bot(bot, task)


class _Collect(logging.Handler):
    def __init__(self, records: list[logging.LogRecord]) -> None:
        super().__init__(logging.ERROR)
        self.records = records

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextlib.contextmanager
def discord_errors() -> Iterator[list[logging.LogRecord]]:
    """Collect ERROR logs of discord.py: errors in views, dynamic items, modals and events
    are only logged, never raised, so a test must look for them to notice.
    """
    records: list[logging.LogRecord] = []
    handler = _Collect(records)
    logger = logging.getLogger("discord")
    logger.addHandler(handler)
    try:
        yield records
    finally:
        logger.removeHandler(handler)
