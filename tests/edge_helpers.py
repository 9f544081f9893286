"""What the edge tests check after every interaction: it was answered once, privately,
and the game did not move."""

from __future__ import annotations

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
    """The one message the bot answered with, asserted ephemeral; its text."""
    assert handle.responded, handle
    messages = handle.messages
    assert len(messages) == 1, [(m.content, m.ephemeral) for m in messages]
    assert messages[0].ephemeral, messages[0].content
    return messages[0].content
