"""How many bytes each renderer cache may hold, in one place, and how entries are weighed.

A bot process draws the boards of every channel it serves, and its caches are what lets
a render reuse the last one's work; left to grow they were most of the process's memory
(issue 19: 4 busy channels took RSS from 92 to 190 MB; the caches allowed 232 MB, and
counted a piece at a fraction of its cost: a quantized 40 x 12 word as 0.9 KB, where it
holds 8.5 KB). So each cache gets a budget of
bytes here, sized for 200 busy channels taking turns (bench/bench_render_rr.py reads
the hit rates, bench/bench_memory.py the curve), and every entry is weighed once, when
it is made, at what it costs in memory: Pillow keeps 1, L and P pixels in a byte each,
RGB in four, and an image object costs ~560 bytes beside its rows.

Whatever the games do, the byte-budgeted caches hold at most TOTAL bytes.
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any

from PIL import Image

MB = 1 << 20

# Compressed PNG bands (renderers.png): a board is 30..120 bands of 0.2..3 KB, 45..120 KB
# in all. A channel's next board reuses most of its last one's bands, and all the other
# channels' boards come in between, so the cache must hold the last board of every
# channel taking turns: 200 channels of mixed games hit as often with 32 MB as with 48
# (bench_render_rr, 8 rounds: 79 / 75 / 90 % for Cthulhu / exploring / haunt).
BANDS = 24 * MB
# Whole boards (renderers.BOARDS) by their view's fingerprint: a board is 25..50 KB of
# PNG, and a channel's next action finds its newest board unchanged a fifth of the time
# in Betrayal, so it must outlast a round of every other channel: 200 channels' newest.
BOARDS = 10 * MB
# Betrayal's tiles, shared by every house (45 rooms, 13 sizes, a few looks each): 8..32
# KB as indices; 200 channels mid-game use ~32 MB of them. Too few cost twice: a tile
# drawn again is a new piece, so every band it lies in is new too (with 24 MB, tiles hit
# 83 % instead of 98 % and bands 57 % instead of 75 %). 40 MB leaves room.
TILES = 32 * MB
# Words and lines of text, shared by every board (a channel's names, its header words):
# 0.5..3 KB each; 200 channels use ~2.5 MB.
TEXTS = 8 * MB
# Betrayal's explorer tokens and monsters: a piece per colour, state, size and label;
# 200 channels in the haunt use ~2.5 MB and ~1.5 MB.
FIGURES = 4 * MB
# Panel-wide pieces (Betrayal's legend strips, Evil Below's plates and glyphs).
WIDE_PIECES = 4 * MB
# Every other piece cache (Cthulhu's rooms, slots and pawns, frames, chips, the omen
# track, glyphs): a fixed few hundred pieces each, under 0.5 MB with 200 channels.
SMALL_PIECES = 1 * MB
# Text masks (common.text_mask: the RGB path, sheets, palette fits; the indexed words
# are TEXTS) and anti-aliased shape masks (rounded boxes, discs, polygons).
TEXT_MASKS = 2 * MB
SHAPE_MASKS = 1 * MB

# The most the byte-budgeted caches may hold in all, whatever the games do (the tests
# check the registered caches' budgets add up to no more). Beside them are small caches
# bounded by count whose entries are a few hundred bytes (fonts, layouts, measures,
# fitted palettes: one per board width): a few MB at most.
TOTAL = 128 * MB

# Measured (a fresh process, 20,000 images each): an image object costs ~560 bytes, its
# rows a pointer each, a "P" image ~1.3 KB of palette more, up to ~8 KB once Pillow's
# palette object has been filled (what `quantize` returns).
IMAGE_OVERHEAD = 560
PALETTE_BYTES = 8 << 10
_PIXEL_BYTES = {"1": 1, "L": 1, "P": 1, "I;16": 2}


def image_bytes(img: Image.Image | None) -> int:
    """What `img` costs in memory (0 for None)."""
    if img is None:
        return 0
    w, h = img.size
    palette = PALETTE_BYTES if img.mode in ("P", "PA") else 0
    return IMAGE_OVERHEAD + w * h * _PIXEL_BYTES.get(img.mode, 4) + 8 * h + palette


def caches() -> dict[str, Any]:
    """name -> every cache the loaded renderer modules hold (anything with cache_info:
    the byte-budgeted ones and the small functools ones), for the benches and tests."""
    found: dict[str, Any] = {}
    seen: set[int] = set()
    for name, module in sorted(sys.modules.items()):
        if not name.startswith("renderers") or not isinstance(module, ModuleType):
            continue
        for attr, value in sorted(vars(module).items()):
            info = getattr(value, "cache_info", None)
            if callable(info) and not isinstance(value, type) and id(value) not in seen:
                seen.add(id(value))
                where = getattr(value, "__module__", None) or name
                if not isinstance(where, str) or not where.startswith("renderers"):
                    where = name
                found[f"{where.removeprefix('renderers.')}.{attr}"] = value
    return found
