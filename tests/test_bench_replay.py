"""bench/bench_replay.py still runs and prints its figures (a short game: no timing
asserted, the numbers are the bench's to record, not a test's)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIGURES = ("replay of a Betrayal game: shared", "turns", "exact True", "rebuild", "ms a move",
           "pictures/s", "draw/floor", "encode/floor", "KB", "x the floor",
           "worst lag", "in its own process", "on a thread", "while nothing is",
           "load average")


def test_the_replay_bench_prints_its_figures() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_replay.py"),
                           "--turns", "5", "--seeds", "2", "--seats", "3"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert done.returncode == 0, done.stderr[-3000:]
    for figure in FIGURES:
        assert figure in done.stdout, (figure, done.stdout)
