"""The bot's heartbeat, for a container's HEALTHCHECK (`python -m bot health`).

A process that is alive but stuck, or cut off from Discord, should look unhealthy, so
the running bot writes the time to a small file every INTERVAL seconds only while it is
connected, and the check passes only while the last beat is younger than FRESH. The
time is written into the file (not read from its mtime) so a copied or touched file
cannot pass for a beat. A clean stop removes the file: a stopped bot is not healthy.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path

INTERVAL = 30.0  # seconds between beats while connected
POLL = 1.0  # seconds between looks while not connected, so the first beat comes soon
FRESH = 90.0  # three beats missed: the bot is stuck or has lost Discord


def beat(path: Path, now: float | None = None) -> None:
    """Write one beat; through a temporary file and a rename, so the check never reads
    half a number."""
    path.parent.mkdir(parents=True, exist_ok=True)
    scratch = path.with_name(path.name + ".tmp")
    scratch.write_text(f"{time.time() if now is None else now:.3f}\n", encoding="ascii")
    os.replace(scratch, path)


def age(path: Path, now: float | None = None) -> float | None:
    """Seconds since the last beat, or None when there is no readable beat."""
    try:
        written = float(path.read_text(encoding="ascii").strip())
    except (OSError, ValueError):
        return None
    return (time.time() if now is None else now) - written


def healthy(path: Path, now: float | None = None, fresh: float = FRESH) -> bool:
    seconds = age(path, now)
    return seconds is not None and -fresh < seconds <= fresh


class Heartbeat:
    """Beats into `path` while `connected()` says so, from start() until stop()."""

    def __init__(self, path: Path, connected: Callable[[], bool],
                 interval: float = INTERVAL) -> None:
        self.path = path
        self.connected = connected
        self.interval = interval
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="hauntkeeper-heartbeat")

    async def _run(self) -> None:
        while True:
            up = self.connected()
            if up:
                await asyncio.to_thread(beat, self.path)
            await asyncio.sleep(self.interval if up else POLL)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        self.path.unlink(missing_ok=True)
