"""bench/bench_stores.py still runs on both backends and prints each against its floor
(tiny sizes; no timing asserted, the figures are the bench's own, in its docstring)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.pg_server import find_bindir

ROOT = Path(__file__).resolve().parent.parent


def _bench(*args: str) -> str:
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_stores.py"),
                           "--channels", "3", "--rounds", "2", "--runs", "1", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=180,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_sqlite_alone_plays_every_channel_against_its_floor() -> None:
    out = _bench("--no-postgres")
    assert "3 channels x 2 rounds" in out and "SQLite     6 actions" in out, out
    assert "PostgreSQL" not in out and out.count("x floor") == 2, out


@pytest.mark.skipif(find_bindir() is None, reason="no PostgreSQL binaries here")
def test_both_backends_play_the_same_workload() -> None:
    out = _bench()
    assert "SQLite     6 actions" in out and "PostgreSQL 6 actions" in out, out
    assert out.count("transactions/s") == 2, out
