"""The sessions' heavy work runs on one worker thread (bot/worker.py): two pieces of
work handed over at once run one after the other, off the event loop, so the loop has
only that one thread to share the GIL with (issue 23: with two, the loop waited longer
for the GIL and fewer actions got done when many channels acted at once)."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest

from bot import worker as worker_module
from bot.metrics import NO_METRICS
from bot.worker import Worker


async def test_work_handed_over_at_once_runs_one_piece_at_a_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    loop_thread = threading.current_thread()
    running = [0]
    most = [0]
    threads: set[threading.Thread] = set()
    lock = threading.Lock()

    def slow_alt(kind: str, state: Any) -> str:
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
            threads.add(threading.current_thread())
        time.sleep(0.02)
        with lock:
            running[0] -= 1
        return f"{kind} {state}"

    monkeypatch.setattr(worker_module, "describe_public", slow_alt)
    worker = Worker(NO_METRICS)
    got = await asyncio.gather(*(worker.board_alt("cthulhu", n) for n in range(4)))
    assert got == [f"cthulhu {n}" for n in range(4)]
    assert most[0] == 1, "two pieces of work ran at once"
    assert len(threads) == 1 and loop_thread not in threads
