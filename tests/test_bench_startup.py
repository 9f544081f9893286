"""bench/bench_startup.py still builds its store and starts the real bot on it (a few
hundred games, one run, a short wait for the guilds: no timing asserted, the figures
are the bench's own, in its docstring)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_a_small_store_is_built_started_on_and_left_with_nothing_owed() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_startup.py"),
                           "--games", "300", "--runs", "1", "--guild-wait", "0.2"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert done.returncode == 0, done.stderr[-3000:]
    out = done.stdout
    assert "stored 300 games" in out and "run 1 (" in out, out
    assert "CPU ours" in out and "x the floor" in out, out
    assert "fired 10 due timers" in out and "left owed 0, due 0" in out, out
