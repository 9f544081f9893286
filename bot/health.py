"""The bot's heartbeat, for a container's HEALTHCHECK (`python -m bot health`).

A process that is alive but stuck, or cut off from Discord, should look unhealthy, so
the running bot writes the time to a small file every INTERVAL seconds only while it is
connected, and the check passes only while the last beat is younger than FRESH. The
time is written into the file (not read from its mtime) so a copied or touched file
cannot pass for a beat. A clean stop removes the file: a stopped bot is not healthy.

A beat that cannot be written (a folder that is not ours, a full disk) is logged and
tried again at the next beat (bot/loops.py), and never stands in the way of a stop:
the bot goes on serving, and the check turns it unhealthy, which is the truth.

Each process has its own file: a process running a range of shards writes
`<file>-shards-0-3` (`for_shards`), so two shard processes sharing a folder never share
a beat, and a clean stop of one removes its own file only. `python -m bot health`
checks every beat of the setting (`beats`): healthy while there is one and every one
is fresh (a process killed without a stop leaves a stale beat, and is not healthy).
"""

from __future__ import annotations

import asyncio
import glob
import logging
import os
import time
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path

from bot.loops import keep_running, stop_task

log = logging.getLogger(__name__)

INTERVAL = 30.0  # seconds between beats while connected
POLL = 1.0  # seconds between looks while not connected, so the first beat comes soon
FRESH = 90.0  # three beats missed: the bot is stuck or has lost Discord
SHARDS_MARK = "-shards-"  # a shard range's beat: <file>-shards-0-3


def for_shards(path: Path, ids: tuple[int, ...] | None) -> Path:
    """The beat of a process running these shards (None: all of one connection)."""
    if ids is None:
        return path
    return path.with_name(f"{path.name}{SHARDS_MARK}{_ranges(ids)}")


def _ranges(ids: tuple[int, ...]) -> str:
    """0,1,2,3,5 -> 0-3,5 (the way --shards writes them)."""
    parts: list[str] = []
    start = prev = ids[0]
    for shard in (*ids[1:], None):
        if shard is not None and shard == prev + 1:
            prev = shard
            continue
        parts.append(str(start) if start == prev else f"{start}-{prev}")
        if shard is not None:
            start = prev = shard
    return ",".join(parts)


def beats(path: Path) -> list[Path]:
    """Every beat written under this setting: the plain one and each shard range's."""
    found = [path] if path.is_file() else []
    with suppress(OSError):
        found += sorted(p for p in path.parent.glob(f"{glob.escape(path.name)}{SHARDS_MARK}*")
                        if not p.name.endswith(".tmp"))
    return found


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
        await keep_running(f"the heartbeat ({self.path})", self._beat, log,
                           retry=self.interval)

    async def _beat(self) -> float:
        """One look: a beat if connected; how long until the next look."""
        if not self.connected():
            return POLL
        await asyncio.to_thread(beat, self.path)
        return self.interval

    async def stop(self) -> None:
        """Never raises and never waits long: a beat that failed is no reason to
        keep the rest of the stop from closing the connection and the store."""
        task, self._task = self._task, None
        if task is None:
            return  # never started: no beat of ours to remove
        await stop_task(task, "the heartbeat", log)
        try:
            self.path.unlink(missing_ok=True)
        except OSError as exc:
            log.warning("could not remove the heartbeat %s: %s", self.path, exc)
