"""bench/bench_scale.py still runs and prints its figures (tiny sizes: no timing asserted,
the numbers are the bench's to record, not a test's)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.pg_server import find_bindir

ROOT = Path(__file__).resolve().parent.parent
TINY = ("--games", "30", "--channels", "4", "--seconds", "0.5", "--growth", "25",
        "--events", "10", "--render", "no")
FIGURES = ("stored 30 games", "start-up with 30 games: exec to ready", "peak RSS",
           "4 channels, no render:", "actions/s", "p50", "p99", "floor p50",
           "25 games stored", "a log of     10 events: action p50")


def bench(*args: str) -> str:
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_scale.py"), *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_sqlite_figures() -> None:
    out = bench("--backend", "sqlite", *TINY)
    assert out.startswith("sqlite: shared ")
    for figure in FIGURES:
        assert figure in out, (figure, out)
    assert "processes" not in out  # two processes are PostgreSQL's figure only


@pytest.mark.skipif(find_bindir() is None, reason="no PostgreSQL binaries here")
def test_postgres_figures() -> None:
    out = bench("--backend", "postgres", *TINY, "--only", "sustained,processes,startup")
    assert out.startswith("postgres: shared "), out
    assert "games stored" not in out and "a log of" not in out  # growth: sqlite's test
    for figure in (*FIGURES[:-2], "2 processes x 2 channels, no render: total"):
        assert figure in out, (figure, out)
    assert out.count("      process ") == 2
