"""bench/bench_memory.py still runs and prints its curve (tiny sizes: a few seconds, the
numbers are the bench's to record, not a test's)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_a_tiny_sweep_prints_each_curve_its_caches_and_growers() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_memory.py"),
                           "--sweep", "1,2", "--minutes", "0.08", "--every", "2"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert done.returncode == 0, done.stderr[-3000:]
    out = done.stdout
    assert "1 channels, 0.08 min" in out and "2 channels, 0.08 min" in out, out
    assert out.count("curve (minute: RSS MB): ") == 2
    assert out.count("caches at the end") == 2 and "canvas.BANDS" in out
    assert out.count("growers since the first sample") == 2
    played = [int(n) for n in re.findall(r"^(\d+) actions, \d+ games", out, re.M)]
    assert len(played) == 2 and all(n > 0 for n in played), out
    assert "a channel stopped" not in out
