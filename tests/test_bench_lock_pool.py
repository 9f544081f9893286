"""bench/bench_lock_pool.py still runs and counts what it should (tiny sizes; no timing
asserted, the figures are the bench's own, recorded in its docstring)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.pg_server import find_bindir

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(find_bindir() is None, reason="no PostgreSQL binaries here")
def test_the_lock_bench_plays_every_action_of_a_few_channels() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_lock_pool.py"),
                           "--channels", "4", "--rounds", "2", "--discord-ms", "0"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert done.returncode == 0, done.stderr[-3000:]
    assert "4 channels x 2 rounds" in done.stdout and "8 tried" in done.stdout
    assert "8  played" in done.stdout, done.stdout
