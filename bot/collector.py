"""The cyclic garbage collector's pace for a bot that runs for weeks (issue 23).

CPython 3.11's defaults (700, 10, 10) suit short scripts: with 200 channels acting at
once, the waiting actions hold ~95,000 young objects (loaded tables, their plans, their
boards' bytes), and the default pace passed over them again and again, each full pass
a 60-150 ms stall of the event loop (bench/bench_channels.py). What is loaded at start
is frozen out of the collector's sight (bot/client.py's setup_hook); the rest is short
lived: almost all of it freed by reference counting when its action ends, never by the
collector. So the young generation is collected less often, and the older ones only
when many young passes have left survivors, as Python 3.12+ paces gen 2 itself (only
once the heap has grown). Cycles still go, later: bench/bench_memory.py --gc compares
the RSS with CPython's pace.

Why 20,000 and not more: a young pass's cost grows with the young objects it finds
alive; at 50,000 one pass held the loop up to 55 ms, at 20,000 the longest was 17-29
ms, and no gen-1 or gen-2 pass came in a 200-channel burst (figures in
bench/bench_channels.py's docstring).
"""

from __future__ import annotations

import gc

# gen 0 after this many more tracked objects made than freed; gen 1 after this many gen-0
# passes; gen 2 after this many gen-1 passes (and, in CPython, only once the objects
# waiting for it are a quarter of those it holds).
THRESHOLDS: tuple[int, int, int] = (20_000, 50, 100)


def pace() -> None:
    """Set the collector's thresholds for a long-running server (THRESHOLDS)."""
    gc.set_threshold(*THRESHOLDS)
