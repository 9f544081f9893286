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

import dataclasses
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any, ParamSpec, TypeVar

from PIL import Image, ImageFont

from bot.core.lru import SmallCached

MB = 1 << 20

# Compressed PNG bands (renderers.png): a board is 30..120 bands of 0.2..3 KB, 45..120 KB
# in all. A channel's next board reuses most of its last one's bands, and all the other
# channels' boards come in between, so the cache must hold the last board of every
# channel taking turns: 200 channels of mixed games hit as often with 32 MB as with 48
# (bench_render_rr, 8 rounds: 79 / 75 / 90 % for its three kinds of board). Boards
# now have 85..120 bands; with each channel its own house (bench_channels, issue 23),
# a tiled house's bands hit 39 % at 50 channels holding 12.8 MB and 44 % at 200 holding
# 24: the share of a board an action changes (35..50 %, up to 80 %) sets the rate, not
# the budget, so 24 MB (8 went to whole boards and overviews). Then 20 MB (4 went to
# TEXTS): 200 channels in the haunt, each its own house, held 16.4 MB of bands over 3
# rounds and hit 40 % with 16, 20 or 24 MB (bench_channels' renders replayed). Then
# 18 MB (2 went to STRIPS).
BANDS = 18 * MB
# Whole boards (renderers.BOARDS) by their view's fingerprint: a board is 25..50 KB of
# PNG, and a channel's next action finds its newest board unchanged a fifth of the time
# in a tiled house, so it must outlast a round of every other channel: 200 channels'
# newest.
BOARDS = 10 * MB
# Room tiles of a house laid out tile by tile, shared by every house (45 rooms, 13
# sizes, a few looks each): 8..32 KB as indices; 200 channels mid-game use ~32 MB of
# them. Too few cost twice: a tile drawn again is a new piece, so every band it lies in
# is new too (with 24 MB, tiles hit 83 % instead of 98 % and bands 57 % instead of 75 %).
# 200 channels in the haunt held 19.6 MB (bench_channels, issue 23): 24 MB leaves room.
TILES = 24 * MB
# Words and lines of text, shared by every board (a channel's names, its header words,
# its rooms' names): 0.5..3 KB each. A text drawn again is a new piece, so every band
# it lies in is new too. 200 channels in the haunt, each its own house, hold 10 MB of
# them (3 rounds); with 8 MB they hit 93% and a render took 3.96-4.03 ms, with 10 or 12
# MB 96% and 2.82-3.08 ms (bench_channels' renders replayed, 2026-12-06, issue 23).
TEXTS = 12 * MB
# Figures on a board (explorer tokens, monsters): a piece per colour, state, size and
# label; 200 channels in the haunt use ~2.5 MB and ~1.5 MB.
FIGURES = 4 * MB
# Panel-wide pieces (legend strips, plates and glyphs).
WIDE_PIECES = 4 * MB
# Every other piece cache (rooms, slots and pawns, frames, chips, the omen
# track, glyphs): a fixed few hundred pieces each, under 0.5 MB with 200 channels.
SMALL_PIECES = 1 * MB
# Text masks (common.text_mask: the RGB path, sheets, palette fits; the indexed words
# are TEXTS) and anti-aliased shape masks (rounded boxes, discs, polygons).
TEXT_MASKS = 2 * MB
SHAPE_MASKS = 1 * MB

# The small caches (`small`): once bounded by a count of entries, which bounds no bytes
# when a key holds a text of any length. Each now has a budget of its own, its entries
# (key and result) weighed by `rough_bytes`; 200 channels of mixed games fill none of
# them (bench/bench_channels.py prints what each holds):
# fonts (a FreeType face each, FONT_BYTES; three games' boards use ~30 sizes and
# weights, and a font let go is a new object, which every piece keyed by it misses),
FONTS = 8 * MB
# the Chinese face at each size asked (renderers.cjk: a few sizes, the same estimate),
CJK_FONTS = 2 * MB
# each measure of text (widths, advances, glyph checks, fitted sizes and lines: a text
# and a number or two each, ~150..400 bytes; 200 channels' names and headers ~0.3 MB),
MEASURES = MB // 2
# each kind of layout worked out from numbers (tile parts, door orders, strips, token
# slots, a house's arrangement, tile sizes, progress lines, a tile's fit: 0.2..3 KB),
LAYOUTS = MB // 2
# but a tiled house's strips (the tokens, links and symbol along a room tile's foot: a
# look per room as it stands, ~1.5 KB each) have their own: 50 channels in the haunt,
# each its own house, make 470 looks in 6 rounds; with LAYOUTS they hit 78 %, each miss
# laying a strip out again and fitting its words (issue 23),
STRIPS = 2 * MB
# and each kind of ink (a fitted palette per board width and font set, INK_BYTES: a few).
INKS = MB // 2
# A tiled house's overviews laid out (a renderer's `PLACED`): ~1..4 KB each, four
# floors a house; with 1 MB, 200 channels in the haunt hit 15 % of the time.
OVERVIEWS = 4 * MB

# The most the byte-budgeted caches may hold in all, whatever the games do (the tests
# check the registered caches' budgets add up to no more). Every renderer cache has a
# byte budget (issue 23: the last count-bounded ones got theirs, the Chinese face's
# among them: 4 MB more than the 128 of before).
TOTAL = 132 * MB

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


# `image_bytes` for a cache of images that are never None: `lru_by_bytes` takes its
# result type from the weigher's argument, and would type every mask `Image | None`.
weigh_image: Callable[[Image.Image], int] = image_bytes


# A FreeType face at a size, with the glyphs it has rendered (FreeType's own memory,
# outside Python's sight): a generous estimate. An ink or a fitted palette: its colours,
# its lookup image, its index of colours and its coverage ramps (256 indices a pair).
FONT_BYTES = 64 << 10
INK_BYTES = 64 << 10
_REFERENCE = 8  # an object a key or result names but the cache does not own: a pointer
_SCALAR = 32  # an int, a float, None, a bool (most are shared; a fair upper bound)

P = ParamSpec("P")
R = TypeVar("R")


class Shared(tuple):
    """A tuple that many cache keys name and none owns (the fonts' signature,
    renderers.common.font_signature: one object, kept by its own cache): weighed as a
    pointer. Weighed whole it was ~1.2 KB of every key holding it, more than the rest of
    the key and its result together: the tile strips' layouts (0.5 MB) kept 230 entries
    and hit 78 % with 50 channels in the haunt, each miss laying a strip out again and
    measuring its words (issue 23)."""

    __slots__ = ()


def rough_bytes(value: object) -> int:
    """What a small cache's key or result costs, near enough: containers with what they
    hold, texts at their size, images at `image_bytes`, dataclasses with their fields; a
    font (the font cache's own, kept there) and a `Shared` tuple as a pointer."""
    if value is None or isinstance(value, (bool, int, float)):
        return _SCALAR
    if isinstance(value, Shared):
        return _REFERENCE
    if isinstance(value, (str, bytes)):
        return sys.getsizeof(value)
    if isinstance(value, (tuple, list, set, frozenset)):
        return sys.getsizeof(value) + sum(rough_bytes(v) for v in value)
    if isinstance(value, dict):
        return sys.getsizeof(value) + sum(rough_bytes(k) + rough_bytes(v)
                                          for k, v in value.items())
    if isinstance(value, Image.Image):
        return image_bytes(value)
    if isinstance(value, (ImageFont.FreeTypeFont, ImageFont.ImageFont)):
        return _REFERENCE
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return sys.getsizeof(value) + sum(rough_bytes(getattr(value, f.name))
                                          for f in dataclasses.fields(value))
    return sys.getsizeof(value)


def small(max_bytes: int, weigh: Callable[[Any], int] = rough_bytes
          ) -> Callable[[Callable[P, R]], SmallCached[P, R]]:
    """A small cache (what `functools.lru_cache` did, bounded by bytes: a hit costs a
    dict lookup, see `bot.core.lru.SmallCached`): each entry's key and result weighed
    once, when made (`rough_bytes`, or `weigh` for the result), within `max_bytes`."""
    return lambda fn: SmallCached(fn, max_bytes, weigh, rough_bytes)


def owned(nbytes: int) -> Callable[[object], int]:
    """A weight for results a cache owns and `rough_bytes` cannot see into (a font, an
    ink): `nbytes` each."""
    return lambda _value: nbytes


def caches() -> dict[str, Any]:
    """name -> every cache the loaded renderer modules hold (anything with cache_info),
    for the benches and tests."""
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
