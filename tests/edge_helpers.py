"""What the edge tests check after every interaction: it was answered once, privately,
and the game did not move."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from bot.client import HauntBot
from tests.fakediscord import InteractionHandle


async def snapshot(bot: HauntBot, channel: int) -> tuple[Any, ...]:
    """Everything stored about the channel's newest game (None when there is none)."""
    table = await bot.store.load_latest(channel)
    if table is None:
        return (None,)
    return (table.version, table.status, table.state, [s.to_dict() for s in table.seats],
            table.host_id)


def private_answer(handle: InteractionHandle) -> str:
    """The one message the bot answered with, asserted ephemeral; its text (embeds too)."""
    assert handle.responded, handle
    messages = handle.messages
    assert len(messages) == 1, [(m.content, m.ephemeral) for m in messages]
    assert messages[0].ephemeral, messages[0].text
    return messages[0].text


class _Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record.getMessage())


@contextmanager
def logged_errors() -> Iterator[list[str]]:
    """ERROR lines logged meanwhile (a crash our handlers answered, or one discord.py
    only logged), so a fuzz example fails at once, where it can be shrunk."""
    handler = _Errors()
    logging.getLogger().addHandler(handler)
    try:
        yield handler.records
    finally:
        logging.getLogger().removeHandler(handler)
