"""A child process for the crash test: saves actions forever, announcing each commit.

The parent kills it with SIGKILL mid-stream; every action announced before the kill
must be in the database afterwards.
"""

from __future__ import annotations

import asyncio
import sys

from bot.core.events import Event
from bot.store import ACTIVE, Table, open_store


async def main(path: str, channel: int) -> None:
    store = await open_store(path)
    table = await store.load(channel)
    if table is None:
        table = Table(channel_id=channel, guild_id=1, kind="cthulhu", host_id=1, seed=1,
                      status=ACTIVE, state={"counter": 0, "padding": "x" * 2000})
        table = await store.create(table, [Event("created")], 1, None)
    while True:
        expected = table.version
        assert table.state is not None
        table.state["counter"] += 1
        table = await store.save(table, [Event(f"step {table.state['counter']}")],
                                 expected_version=expected, actor_id=1,
                                 action={"kind": "step"})
        print(table.version, flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
