"""bench/bench_click_latency.py still runs and prints its figures (one table, a few
clicks, a short latency: no timing asserted, the figures are the bench's to record)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_both_paths_are_clicked_and_measured_against_the_floor() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_click_latency.py"),
                           "--channels", "1", "--clicks", "3", "--runs", "1",
                           "--latency-ms", "10"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert done.returncode == 0, done.stderr[-3000:]
    out = done.stdout
    for path in ("before", "after"):
        assert f"{path:6}  1 channel(s): 3 clicks" in out, out
    assert out.count("x floor") == 8 and out.count("floor (") == 2, out
    # the old path defers then edits by PATCH; the new one's answer is the edit
    before, after = out.split("  after ", 1)
    assert "PATCH 1.00" in before and "PATCH" not in after.split("\n")[0], out
