"""Background loops that outlive their errors, and a stop that never hangs or raises.

A background task that dies on one error dies for the rest of the process's life:
one store error at the retry tick and owed posts were never retried again, and the
dead task's error came back out of `close()`, so a SIGTERM exited 1 or hung. Every
loop of the bot (the attend/retry loop, the heartbeat, the timers' dispatcher, the
metrics' counter) therefore runs its passes through `Failures`: the first failure in a
row is one ERROR with its traceback, each repeat one WARNING line without it (a store
away for an hour is not a flood of tracebacks), and the first pass that works again
says so. A store outage is the store's to tell, once: here it is an INFO line.
`stop_task` is how `close()` ends them: cancel, wait a bounded time, swallow whatever
the task died of (it was logged when it happened).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.store.base import StoreUnavailable

STOP_SECONDS = 5.0  # how long a stop waits for one task (or one closing step)


class Failures:
    """Counts a loop's failures in a row and logs them without flooding."""

    def __init__(self, what: str, logger: logging.Logger) -> None:
        self.what = what
        self.log = logger
        self.in_a_row = 0

    def failed(self, exc: BaseException) -> None:
        self.in_a_row += 1
        if isinstance(exc, StoreUnavailable):  # the store tells an outage once, itself
            self.log.info("%s waits for the store: %s", self.what, exc)
            return
        if self.in_a_row == 1:
            self.log.error("%s failed; trying again at the next tick", self.what,
                           exc_info=exc)
        else:
            self.log.warning("%s failed again (%d in a row): %s: %s", self.what,
                             self.in_a_row, type(exc).__name__, exc)

    def worked(self) -> None:
        if self.in_a_row:
            self.log.info("%s works again after %d failures", self.what, self.in_a_row)
        self.in_a_row = 0


async def keep_running(what: str, step: Callable[[], Awaitable[float]],
                       logger: logging.Logger, *, retry: float) -> None:
    """Run `step` forever: it returns how long to wait before the next pass; a pass
    that raises is logged (Failures) and the next comes after `retry` seconds. Only a
    cancellation ends it."""
    failures = Failures(what, logger)
    while True:
        try:
            wait = await step()
        except Exception as exc:
            failures.failed(exc)
            wait = retry
        else:
            failures.worked()
        await asyncio.sleep(wait)


async def stop_task(task: asyncio.Task[object] | None, what: str, logger: logging.Logger,
                    timeout: float = STOP_SECONDS) -> None:
    """Cancel `task` and wait for it at most `timeout` seconds; never raises (the
    task's own error, if it died of one, is retrieved and dropped: it was logged)."""
    if task is None:
        return
    task.cancel()
    done, _ = await asyncio.wait({task}, timeout=timeout)
    if not done:
        logger.warning("%s did not stop within %.0f s; left behind", what, timeout)
        return
    if not task.cancelled() and task.exception() is not None:
        logger.info("%s had stopped on an error: %s", what, task.exception())


async def bounded(step: Awaitable[object], what: str, logger: logging.Logger,
                  timeout: float = STOP_SECONDS) -> None:
    """One closing step (the Discord connection, the store), given `timeout` seconds;
    an error or a timeout is logged, and the stop goes on to its next step."""
    try:
        await asyncio.wait_for(step, timeout)
    except TimeoutError:
        logger.warning("%s did not finish within %.0f s; going on", what, timeout)
    except Exception:
        logger.exception("%s failed; going on", what)
