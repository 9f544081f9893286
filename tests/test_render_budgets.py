"""The renderers' caches are bounded by bytes (renderers/budgets.py, issue 19): every cache
has a byte budget or is one of the few small count-bounded ones, the budgets add up to
no more than the stated total, a cache filled past its budget stays under it while the
boards stay exactly what cold caches draw, and an entry is weighed at what it costs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import renderers
from bot import games
from bot.core.lru import Lru
from bot.games.base import PlayerInfo
from renderers import budgets, canvas, heap

ROOT = Path(__file__).resolve().parent.parent
# Count-bounded caches whose entries are small (a font, a measure, a layout, a fitted
# palette per board width): name -> the most entries each may hold.
SMALL = {
    "common.font": 256, "common.text_width": 4096, "common.has_glyph": 1024,
    "common._fit_text": 2048, "common._fit_wrapped": 2048, "common._font_signature": 8,
    "common.is_fallback_font": 256, "canvas._advance": 4096, "png.palette_chunk": 16,
    "betrayal.tiles._tile_parts": 64, "betrayal.tiles._doors": 256,
    "betrayal.tiles._strip_layout_cached": 1024, "betrayal.explorers._token_slots_cached": 256,
    "betrayal.layout._choose_layout_cached": 4096, "betrayal.layout._progress_lines": 1024,
    "betrayal.layout.tile_sizes": 16, "betrayal.map._ink": 4, "betrayal.board._fit": 64,
    "cthulhu._ink": 8,
    "evilbelow._ink": 8, "evilbelow._palette": 8,
    # Which face a line is drawn in (a font and a line of text -> a font already loaded):
    # a key and a reference an entry, the faces themselves cached once by size.
    "common.face_for": 8192, "common.is_cjk_face": 64, "cjk.needs_cjk": 8192,
    "cjk.cjk_font": 256,
}
KINDS = ("cthulhu", "betrayal", "evilbelow")
TIGHT = 64 << 10  # the budget every cache gets for the filling test


def lru_of(cache: Any) -> Lru[Any, Any]:
    """The Lru behind a cache (Pieces and lru_by_bytes keep theirs as `kept`)."""
    return getattr(cache, "kept", cache)


def all_caches() -> dict[str, Any]:
    """Every renderer's caches (the renderers are imported when first asked for)."""
    for kind in KINDS:
        renderers.renderer_of(kind)
    return budgets.caches()


def byte_caches() -> dict[str, Any]:
    return {name: cache for name, cache in all_caches().items()
            if getattr(cache.cache_info(), "maxbytes", None) is not None}


def test_every_renderer_cache_has_a_byte_budget_or_is_small() -> None:
    found = all_caches()
    assert len(found) > 30  # the scan sees the renderers' caches at all
    for name, cache in found.items():
        info = cache.cache_info()
        if getattr(info, "maxbytes", None) is not None:
            assert info.maxbytes > 0, name
        else:
            assert name in SMALL, f"{name} is bounded by neither bytes nor a known count"
            assert info.maxsize is not None and info.maxsize <= SMALL[name], name
    total = sum(cache.cache_info().maxbytes for cache in byte_caches().values())
    assert total <= budgets.TOTAL, f"{total / 2**20:.0f} MB > {budgets.TOTAL / 2**20:.0f} MB"


def boards(per_kind: int) -> Iterator[tuple[str, Any]]:
    """States of AI games of each kind, a few steps apart (each game its own)."""
    for n, kind in enumerate(KINDS):
        game = games.get(kind)
        state, _ = game.setup([PlayerInfo(f"P{i}", ai=True) for i in range(4)], 11 + n, {})
        for _ in range(per_kind):
            yield kind, state
            for _ in range(5):
                seat = game.to_act(state)
                if game.is_over(state) or seat is None:
                    break
                state, _ = game.apply(state, seat, game.ai_action(state, seat))


def test_caches_filled_past_their_budgets_stay_under_them_and_boards_stay_exact() -> None:
    states = list(boards(6))
    canvas.clear_caches()
    cold = []
    for kind, state in states:
        canvas.clear_caches()
        cold.append(renderers.render_public(kind, state))
    caches = byte_caches()
    budgets_were = {name: lru_of(c).max_bytes for name, c in caches.items()}
    canvas.clear_caches()
    for name, cache in caches.items():
        cache.cache_clear()
        lru_of(cache).max_bytes = min(TIGHT, budgets_were[name])
    try:
        warm = []
        for kind, state in states * 2:
            warm.append(renderers.render_public(kind, state))
            for name, cache in caches.items():
                info = cache.cache_info()
                assert info.currbytes <= lru_of(cache).max_bytes, name
        full = [name for name, cache in caches.items()
                if cache.cache_info().currbytes > TIGHT // 2]
        assert {"canvas.BANDS", "canvas.TEXTS"} <= set(full), full  # they did fill up
        assert warm == cold * 2
    finally:
        for name, cache in caches.items():
            lru_of(cache).max_bytes = budgets_were[name]
            cache.cache_clear()


def test_indexed_pieces_are_kept_as_indices_without_a_palette() -> None:
    """A quantized "P" image carries ~8 KB of palette; cached pieces are "L" indices."""
    canvas.clear_caches()
    renderers.render_public("cthulhu", next(boards(1))[1])
    kept = [value for cache in byte_caches().values() if isinstance(cache, canvas.Pieces)
            for value, _ in lru_of(cache)._entries.values()]
    assert kept and all(sprite.image.mode == "L" for sprite in kept)


MEASURE = """
import json, sys
from PIL import Image
from renderers.budgets import image_bytes
def rss():
    for line in open('/proc/self/status'):
        if line.startswith('VmRSS'):
            return int(line.split()[1]) * 1024
palette = Image.new('P', (1, 1))
palette.putpalette(list(range(256)) * 3)
mode, w, h, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), 4000
make = (lambda i: Image.new('RGB', (w, h), (i % 256, 0, 0)).quantize(palette=palette))\\
    if mode == 'quantized' else (lambda i: Image.new(mode, (w, h), 0))
make(0)
before = rss()
kept = [make(i) for i in range(n)]
print(json.dumps({'real': (rss() - before) / n, 'weighed': image_bytes(kept[0])}))
"""


@pytest.mark.parametrize("mode, w, h", [("L", 40, 12), ("L", 150, 150), ("1", 90, 20),
                                        ("RGB", 60, 30), ("quantized", 40, 12)])
def test_an_image_is_weighed_at_what_it_costs(mode: str, w: int, h: int) -> None:
    """Measured in a fresh process (4000 images, the RSS they add): the weight is
    within a quarter of the real cost, and never far under it."""
    done = subprocess.run([sys.executable, "-c", MEASURE, mode, str(w), str(h)],
                          capture_output=True, text=True, timeout=60, check=True,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    got = json.loads(done.stdout)
    assert 0.8 * got["real"] <= got["weighed"] <= 1.25 * got["real"], got


def test_an_image_weighs_its_rows_and_mode() -> None:
    assert budgets.image_bytes(None) == 0
    small = budgets.image_bytes(Image.new("L", (10, 10)))
    assert budgets.image_bytes(Image.new("RGB", (10, 10))) == small + 300
    assert budgets.image_bytes(Image.new("L", (20, 10))) == small + 100


def test_freed_memory_is_handed_back_every_so_many_boards(
        monkeypatch: pytest.MonkeyPatch) -> None:
    trims: list[int] = []
    monkeypatch.setattr(heap, "_TRIM", lambda pad: trims.append(pad) or 1)
    drawn = next(n for n in range(1, heap.TRIM_EVERY + 1) if heap.board_drawn())
    assert drawn <= heap.TRIM_EVERY  # the count lined up with a trim
    trims.clear()
    canvas.clear_caches()
    for _ in range(heap.TRIM_EVERY):
        renderers.render_public("cthulhu", next(boards(1))[1])
    assert trims == [0]  # one trim for TRIM_EVERY boards drawn
    monkeypatch.setattr(heap, "_TRIM", None)  # a C library without malloc_trim
    assert not any(heap.board_drawn() for _ in range(2 * heap.TRIM_EVERY))
