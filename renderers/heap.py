"""Handing memory the renderers freed back to the operating system, now and then.

A board is drawn from hundreds of short-lived Pillow images between long-lived cached
ones, in worker threads; glibc's malloc keeps what they free in its heaps, in holes
between the cached pieces, and the process's RSS stays at its highest however much is
free (bench/bench_memory.py: 4 busy channels, 228 MB at 5 minutes, 187 MB when the freed
memory is handed back). So every TRIM_EVERY boards, `malloc_trim` returns the free
pages of every heap (~0.1 ms; the heaps stay as they are, only unused pages go). Where
the C library has no malloc_trim (musl, macOS), nothing is done.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import itertools
from collections.abc import Callable

TRIM_EVERY = 200  # boards between trims: ~1 a minute for 4 channels playing flat out


def _malloc_trim() -> Callable[[int], int] | None:
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    except OSError:
        return None
    return getattr(libc, "malloc_trim", None)


_TRIM = _malloc_trim()
_BOARDS = itertools.count(1)  # thread-safe enough: next() on a count holds the GIL


def board_drawn() -> bool:
    """Count a board; every TRIM_EVERY boards hand freed memory back. True if it did."""
    if next(_BOARDS) % TRIM_EVERY or _TRIM is None:
        return False
    _TRIM(0)
    return True
