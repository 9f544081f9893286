"""bench/bench_channels.py still runs every game and prints its figures (tiny sizes: the
numbers are the bench's to record, not a test's)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_game_prints_both_floors_the_caches_and_the_lag() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_channels.py"),
                           "--channels", "2", "--rounds", "2", "--together", "1"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert done.returncode == 0, done.stderr[-3000:]
    out = done.stdout
    for game in ("cthulhu", "exploring", "haunt", "neibolt", "evilbelow"):
        assert f"{game}: 2 channels, each its own state" in out, out
    assert out.count("vs floor ") == 5 and out.count("vs bands ") == 5, out
    assert out.count("together: 2 channels at once") == 5, out
    assert out.count("event-loop lag") == 5 and "load average" in out
