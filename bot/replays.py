"""Where replays are drawn: one at a time per channel, one at a time across the bot, in a
process of their own.

Why a process: a replay draws dozens of boards and encodes an animation, seconds of CPU,
much of it in Pillow holding the GIL. On a thread, even one of its own, it held the
event loop up for a third of a second at a time (bench/bench_replay.py: every channel's
click waits that long); in a process of its own the loop does not notice it, and on a
two-core machine one core stays the games'. The process is started on the first
replay ("spawn": never a fork of a process running threads) and kept for the next; it
writes how far it has come into one shared number, which the cog's progress line reads.

A replay asked for while another is drawn in the same channel, or while the bot draws
its most (`AT_ONCE`), is refused at once in words (Busy) rather than queued behind
others' work.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import threading
from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Any

from bot import replay
from bot.locales import ENGLISH, speaking
from bot.replay import Progress
from bot.store import Store, UndoPoint
from bot.summary import logged_end, outcome_line
from bot.table_record import Table
from bot.texts import say
from renderers.animation import Animation

AT_ONCE = 1  # replays drawn at once across the bot (one process, one progress number)
POLL = 0.25  # seconds between two readings of the drawing process's progress

Moves = list[tuple[int, list[dict[str, Any]]]]


class Busy(Exception):
    """A replay cannot start now; `message` says why, in a player's words."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Replays:
    """The bot's replays: their limits (`slot`) and where they are drawn (`draw`). With
    `in_process` False they are drawn on a thread instead (the bench's comparison)."""

    def __init__(self, *, in_process: bool = True) -> None:
        self.in_process = in_process
        self._channels: set[int] = set()
        self._drawing = 0
        self._lock = threading.Lock()
        self._pool: Executor | None = None
        self._shared: Any = None  # the drawing process's progress, 0 to 1
        self._stop: Any = None  # set by `close`: the drawing process stops at its next picture

    @contextmanager
    def slot(self, channel_id: int) -> Iterator[None]:
        """Held while a replay of this channel is drawn and posted (Busy: not now)."""
        with self._lock:
            if channel_id in self._channels:
                raise Busy(say("replay.busy_channel"))
            if self._drawing >= AT_ONCE:
                raise Busy(say("replay.busy_bot"))
            self._channels.add(channel_id)
            self._drawing += 1
        try:
            yield
        finally:
            with self._lock:
                self._channels.discard(channel_id)
                self._drawing -= 1

    async def draw(self, store: Store, table: Table, progress: Progress,
                   language: str = ENGLISH) -> Animation:
        """The finished game's replay, rebuilt from what the store keeps of it and drawn
        off the event loop (the caller holds its `slot`); `progress` follows it. A
        drawing process that died is started again for the next replay (ValueError).
        Its words (the boards', the end card's) in `language`: the executor's thread or
        process does not carry this task's language, so it is handed over."""
        moves = await store.moves(table.id or 0)
        points = await store.undo_points(table.id or 0, limit=10_000)
        log = await store.actions(table.id or 0)
        result = await store.result(table.id or 0)
        told, why = await logged_end(store, table.id or 0)
        outcome = outcome_line(told.text_in(language)) if told is not None \
            else result.outcome if result is not None else ""
        ended = why.text_in(language) if why is not None else table.ended_reason
        loop = asyncio.get_running_loop()
        if not self.in_process:
            return await loop.run_in_executor(self._threads(), _made, table, moves, points,
                                              log, (outcome, ended), progress, language)
        pool = self._process()
        self._shared.value = 0.0
        work = loop.run_in_executor(pool, _made_apart, table, moves, points, log,
                                    (outcome, ended), language)
        try:
            while not (await asyncio.wait({work}, timeout=POLL))[0]:
                progress.done = float(self._shared.value)
            made = work.result()
        except BrokenProcessPool:
            self._pool = None
            raise ValueError("the replay's process stopped") from None
        except Stopped:
            raise ValueError("the bot stopped while the replay was drawn") from None
        progress.done = 1.0
        return made

    def _threads(self) -> Executor:
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=AT_ONCE, thread_name_prefix="hk-replay")
        return self._pool

    def _process(self) -> Executor:
        if self._pool is None:
            context = multiprocessing.get_context("spawn")
            self._shared = context.Value("d", 0.0, lock=False)
            self._stop = context.Value("b", 0, lock=False)
            self._pool = ProcessPoolExecutor(max_workers=AT_ONCE, mp_context=context,
                                             initializer=_attach,
                                             initargs=(self._shared, self._stop))
        return self._pool

    def close(self) -> None:
        """Let the drawing process go (the bot's stop): a replay under way stops at its
        next picture (or once its encoding is done), so the bot's exit does not wait out
        a whole replay. The next replay starts a process anew."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        if self._stop is not None:
            self._stop.value = 1
        pool.shutdown(wait=False, cancel_futures=True)


def _made(table: Table, moves: Moves, points: list[UndoPoint], log: replay.Logged,
          end: tuple[str, str], progress: Progress, language: str = ENGLISH) -> Animation:
    """`end`: how the game ended, as the end card says it (the story's line, and why it
    was ended early), in `language`."""
    outcome, ended = end
    with speaking(language):
        return replay.draw(table, replay.rebuild(table, moves, points, log), progress,
                           outcome=outcome, ended=ended)


# -- in the drawing process ------------------------------------------------------------------

_SHARED: list[Any] = []  # the progress number and the stop flag, set as the process starts


class Stopped(Exception):
    """The bot stopped while this replay was drawn."""


def _attach(shared: Any, stop: Any) -> None:
    _SHARED[:] = [shared, stop]


class _Shared(Progress):
    """Progress written where the bot's process reads it; each picture first asks
    whether the bot is stopping."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "done" and _SHARED:
            if _SHARED[1].value:
                raise Stopped("the bot is stopping")
            _SHARED[0].value = value
        super().__setattr__(name, value)


def _made_apart(table: Table, moves: Moves, points: list[UndoPoint], log: replay.Logged,
                end: tuple[str, str], language: str = ENGLISH) -> Animation:
    return _made(table, moves, points, log, end, _Shared(), language)


REPLAYS = Replays()  # the bot's: its limits are this process's
