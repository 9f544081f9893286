"""bot/loops.py: a loop outlives its errors (one traceback, then a line per repeat, and
a word when it works again), and a stop never raises a task's error nor hangs."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.loops import bounded, keep_running, stop_task

log = logging.getLogger("tests.loops")


async def test_a_loop_goes_on_after_errors_and_logs_one_traceback(
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="tests.loops")
    passes: list[int] = []
    done = asyncio.Event()

    async def step() -> float:
        passes.append(1)
        if len(passes) <= 3:
            raise OSError(f"broken {len(passes)}")
        if len(passes) == 6:
            done.set()
        return 0.0

    task = asyncio.create_task(keep_running("the test loop", step, log, retry=0.0))
    await asyncio.wait_for(done.wait(), 5)
    await stop_task(task, "the test loop", log)
    records = [(r.levelname, r.exc_info is not None) for r in caplog.records
               if "the test loop" in r.getMessage()]
    assert records[:4] == [("ERROR", True), ("WARNING", False), ("WARNING", False),
                           ("INFO", False)]
    assert "3 failures" in caplog.records[3].getMessage()
    assert task.cancelled()


async def test_stopping_a_task_that_died_or_will_not_stop_neither_raises_nor_hangs() -> None:
    async def dies() -> None:
        raise RuntimeError("dead")

    dead = asyncio.create_task(dies())
    await asyncio.sleep(0)
    await stop_task(dead, "a dead task", log)  # its error is not the stop's

    release = asyncio.Event()

    async def stubborn() -> None:
        while not release.is_set():
            try:
                await release.wait()
            except asyncio.CancelledError:
                continue  # ignores the cancel, until released

    held = asyncio.create_task(stubborn())
    await asyncio.sleep(0)
    await asyncio.wait_for(stop_task(held, "a stubborn task", log, timeout=0.1), 2)
    assert not held.done()  # left behind, and the stop went on
    release.set()
    await held

    await asyncio.wait_for(bounded(asyncio.sleep(10), "a hang", log, timeout=0.05), 2)
    await bounded(dies(), "a failing step", log)  # logged, not raised
