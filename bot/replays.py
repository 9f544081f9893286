"""Where replays are drawn: one at a time per channel, a few across the bot, on a thread
of their own.

Why apart from the game's workers (bot/worker.py): a replay draws dozens of boards and
encodes an animation, seconds of CPU. On the game's threads it would hold up every
channel's moves behind it; on a thread of its own, limited to `AT_ONCE` replays across
the bot (one: the machine has two cores, one stays the games'), a game's move waits
for it only as long as the GIL's switch interval. A replay asked for while another is
drawn in the same channel, or while the bot draws its most, is refused at once in
words (Busy) rather than queued behind a minute of others' work.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

from bot import replay
from bot.replay import Progress
from bot.store import Store, UndoPoint
from bot.table_record import Table
from bot.texts import say
from renderers.animation import Animation

AT_ONCE = 1  # replays drawn at once across the bot


class Busy(Exception):
    """A replay cannot start now; `message` says why, in a player's words."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Replays:
    def __init__(self, at_once: int = AT_ONCE) -> None:
        self.at_once = at_once
        self._channels: set[int] = set()
        self._drawing = 0
        self._lock = threading.Lock()  # the counts are read from the loop of any bot
        self._threads = ThreadPoolExecutor(max_workers=at_once, thread_name_prefix="hk-replay")

    @contextmanager
    def slot(self, channel_id: int) -> Iterator[None]:
        """Held while a replay of this channel is drawn and posted (Busy: not now)."""
        with self._lock:
            if channel_id in self._channels:
                raise Busy(say("replay.busy_channel"))
            if self._drawing >= self.at_once:
                raise Busy(say("replay.busy_bot"))
            self._channels.add(channel_id)
            self._drawing += 1
        try:
            yield
        finally:
            with self._lock:
                self._channels.discard(channel_id)
                self._drawing -= 1

    async def draw(self, store: Store, table: Table, progress: Progress) -> Animation:
        """The finished game's replay, rebuilt from what the store keeps of it and drawn
        on the replays' own thread (the caller holds its `slot`)."""
        moves = await store.moves(table.id or 0)
        points = await store.undo_points(table.id or 0, limit=10_000)
        return await asyncio.get_running_loop().run_in_executor(
            self._threads, _made, table, moves, points, progress)


def _made(table: Table, moves: list[tuple[int, list[dict[str, Any]]]],
          points: list[UndoPoint], progress: Progress) -> Animation:
    return replay.draw(table, replay.rebuild(table, moves, points), progress)


REPLAYS = Replays()  # the bot's (one process: its limits are this process's)
