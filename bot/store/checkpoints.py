"""SQLite's WAL checkpoints, run beside the writes instead of inside one of them.

In WAL mode a commit appends to the -wal file; every ~1000 pages SQLite copies the file
back into the database and syncs it to disk (a checkpoint), by default inside whichever
commit crossed the line. That commit then waits for the disk: on a busy machine 5-30 ms,
the slowest store calls of an action (bench/bench_channels.py's slowest 1%). Here the
writer's own checkpoints are pushed far out (`FALLBACK_PAGES`, kept as a safety net) and
a thread of this module's own runs a PASSIVE checkpoint, on a connection of its own,
after every `CHECKPOINT_EVERY` commits: it never waits for the writer nor stops it (WAL
lets a checkpoint and a write run at once), and a crash in the middle of one is safe by
SQLite's design (the -wal file stays the truth until the checkpoint is complete).
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

log = logging.getLogger(__name__)

# Commits between two background checkpoints: a save writes 5-10 pages, so about as
# often as SQLite's default (1000 pages) would have checkpointed inline.
CHECKPOINT_EVERY = 100
# The writer's own checkpoint (pages), only if the background ones fall behind.
FALLBACK_PAGES = 10_000


class Checkpointer:
    """One database file's background checkpoints. `wrote` is told of each commit (on
    the writer's thread); `close` waits for a checkpoint under way."""

    def __init__(self, path: str, connect: Callable[[str], sqlite3.Connection]) -> None:
        self.path = path
        self.done = 0  # checkpoints run (tests and benchmarks read it)
        self._connect = connect
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hk-checkpoint")
        self._db: sqlite3.Connection | None = None  # used on the pool's thread only
        self._lock = threading.Lock()
        self._since = 0
        self._running = False
        self._closed = False

    def wrote(self) -> None:
        """A commit is done: start a checkpoint if enough have come since the last.
        Never raises: the commit it follows is done, and must not look failed. The
        submit happens under the lock `close` takes, so it never meets a pool shut."""
        with self._lock:
            self._since += 1
            if self._since < CHECKPOINT_EVERY or self._running or self._closed:
                return
            self._since = 0
            self._running = True
            try:
                self._pool.submit(self._run)
            except RuntimeError:  # the interpreter is shutting down: no more threads
                self._running = False

    def _run(self) -> None:
        try:
            if self._db is None:
                self._db = self._connect(self.path)
            self._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            self.done += 1
        except sqlite3.Error:  # the writer's fallback checkpoints the file meanwhile
            log.warning("a background checkpoint of %s failed", self.path, exc_info=True)
        finally:
            with self._lock:
                self._running = False

    def close(self) -> None:
        with self._lock:
            self._closed = True
        self._pool.shutdown(wait=True)
        if self._db is not None:
            self._db.close()
            self._db = None
