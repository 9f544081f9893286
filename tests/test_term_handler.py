"""SIGTERM's handler (bot/__main__.py TermHandler), called as the signal module would.

The process tests (tests/test_ops_walk.py) show a stop under two signals ends with exit 0;
these pin the edges a process run cannot time: a signal after the loop has closed."""

from __future__ import annotations

import asyncio
import signal

from bot.__main__ import TermHandler


def test_the_first_signal_cancels_the_task_and_a_second_is_ignored() -> None:
    async def scenario() -> tuple[bool, int]:
        task = asyncio.current_task()
        assert task is not None
        handler = TermHandler(asyncio.get_running_loop(), task)
        handler(signal.SIGTERM, None)
        handler(signal.SIGTERM, None)
        try:
            await asyncio.sleep(1)
        except asyncio.CancelledError:
            return True, task.cancelling()
        return False, 0

    cancelled, times = asyncio.run(scenario())
    assert cancelled
    assert times == 1  # one cancel, not two: a second would stop the close halfway


def test_a_signal_after_the_loop_closed_does_not_raise() -> None:
    """A supervisor's second signal, or its first, may land after `asyncio.run` closed
    the loop: the process is already leaving, and the handler must not raise there
    (it would turn the exit 0 into a traceback)."""
    loop = asyncio.new_event_loop()
    task = loop.create_task(asyncio.sleep(0))
    loop.run_until_complete(task)
    loop.close()
    handler = TermHandler(loop, task)
    handler(signal.SIGTERM, None)  # must not raise
    handler(signal.SIGTERM, None)
    assert handler.stopping
