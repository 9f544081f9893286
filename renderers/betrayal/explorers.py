"""The explorers on the map: their tokens in the tiles and the roster row above.

Explorers stand in their tile as coloured discs with the player's name beside them,
in one column when few share a tile and two or three for a crowd, above whatever the
tile's bottom strip holds; the one to play has a gold ring, dead ones are grey. The
roster row names every explorer with the player who plays them. Both change every turn,
so they are drawn over the cached static layer (see `renderers.betrayal.map`).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw

from bot.games.betrayal.view import FLOORS, ExplorerView, MapView
from renderers.betrayal.palette import (
    DEAD,
    DIM,
    GOLD,
    MUTED,
    PANEL,
    PANEL_EDGE,
    RING_GAP,
    TEXT,
    TOKEN_EDGE,
    _px,
)
from renderers.betrayal.tiles import _strip_rows, _tile_parts
from renderers.common import disc, draw_text, fit_text, parse_colour, rounded_box, text_width

if TYPE_CHECKING:
    from renderers.betrayal.layout import MapGeometry


def _token_slots(n: int, t: int, strip_rows: int = 1) -> tuple[tuple[int, int, int, int,
                                                                     int], ...]:
    """Where `n` explorers stand in a tile of size `t`: per explorer (cx, cy, r,
    label width, label font size), relative to the tile. One column of discs with names
    when few share a tile, two or three columns for a crowd (up to 6 and beyond). They
    stand above the `strip_rows` rows the tile's bottom strip uses (0: all the way down)."""
    return _token_slots_cached(max(1, n), t, strip_rows)


@lru_cache(maxsize=256)
def _token_slots_cached(n: int, t: int, strip_rows: int) -> tuple[tuple[int, int, int, int,
                                                                        int], ...]:
    parts = _tile_parts(t)
    bx0, by0, bx1, by1 = parts.body
    h = parts.strip[3] - parts.strip[1]
    by1 = parts.strip[3] - strip_rows * (h + max(2, h // 5)) - max(1, round(t * 0.01))
    by1 = max(by1, by0 + round(t * 0.12))
    bw, bh = bx1 - bx0, by1 - by0
    r_max = t * 0.105
    best: tuple[float, int] | None = None
    for cols in (1, 2, 3):
        rows = math.ceil(n / cols)
        pitch = min(bh / rows, t * 0.3)
        r = min(r_max, pitch * 0.34, bw / cols * 0.19)
        # More columns leave less room for names, so they must buy clearly bigger discs.
        if best is None or r > best[0] * 1.3:
            best = (r, cols)
    assert best is not None
    r_f, cols = best
    rows = math.ceil(n / cols)
    pitch = min(bh / rows, t * 0.3)
    r = max(2, math.floor(r_f))
    outer = _ring_outer(r)
    col_w = bw / cols
    top = by0 + (bh - pitch * rows) / 2
    size = max(8, min(round(t * 0.12), round(r * 1.35)))
    slots = []
    for i in range(n):
        row, col = divmod(i, cols)
        cx = round(bx0 + col * col_w + outer)
        cy = round(top + (row + 0.5) * pitch)
        label_w = max(0, math.floor(col_w - 2 * outer - max(2, r * 0.3)))
        slots.append((cx, cy, r, label_w, size))
    return tuple(slots)


def _ring(r: int) -> tuple[int, int]:
    """(gap, width) of the acting explorer's ring around a disc of radius r."""
    return max(1, round(r * 0.16)), max(2, round(r * 0.3))


def _ring_outer(r: int) -> int:
    gap, width = _ring(r)
    return r + gap + width


def _groups(view: MapView) -> dict[tuple[str, int, int], list[ExplorerView]]:
    """Explorers by the cell they stand in, in seat order (so a token keeps its place)."""
    groups: dict[tuple[str, int, int], list[ExplorerView]] = {}
    for ex in sorted(view.explorers, key=lambda e: e.seat):
        if ex.floor in FLOORS:
            groups.setdefault((ex.floor, ex.x, ex.y), []).append(ex)
    return groups


def _draw_roster(img: Image.Image, draw: ImageDraw.ImageDraw, view: MapView,
                 geo: MapGeometry) -> None:
    s = geo.scale
    by_seat = {ex.seat: ex for ex in view.explorers}
    for seat, box in geo.roster_chips.items():
        ex = by_seat[seat]
        x0, y0, x1, y1 = box
        h = y1 - y0
        edge = GOLD if ex.acting else PANEL_EDGE
        rounded_box(img, box, _px(8, s), PANEL, outline=edge, width=_px(2 if ex.acting else 1, s))
        r = max(3, round(h * 0.22))
        cx, cy = x0 + _px(10, s) + r, (y0 + y1) // 2
        colour = parse_colour(ex.colour) if ex.alive else DEAD
        disc(img, (cx, cy), r, colour, outline=TOKEN_EDGE, width=max(1, r // 6))
        tx = cx + r + _px(8, s)
        room = x1 - _px(8, s) - tx
        fb, p_text = fit_text(ex.player or "?", room, _px(16, s), min_size=_px(12, s), bold=True)
        draw_text(draw, (tx, cy), p_text, fb, GOLD if ex.acting else TEXT if ex.alive else MUTED,
                  anchor="lm", bold=True)
        rest = room - text_width(fb, p_text) - _px(8, s)
        detail = ex.name if ex.alive else f"{ex.name} (dead)"
        if rest > _px(24, s):
            fr, d_text = fit_text(detail, rest, _px(14, s), min_size=_px(11, s))
            draw_text(draw, (x1 - _px(8, s) - rest, cy), d_text, fr, MUTED if ex.alive else DIM,
                      anchor="lm")


def _draw_explorers(img: Image.Image, draw: ImageDraw.ImageDraw, view: MapView,
                    geo: MapGeometry) -> None:
    t = geo.tile
    strip_rows = _strip_rows(view, t)
    for cell, group in _groups(view).items():
        slots = _token_slots(len(group), t, strip_rows.get(cell, 0))
        for ex, (_, _, r, label_w, size) in zip(group, slots, strict=True):
            cx, cy = geo.tokens[ex.seat]
            colour = parse_colour(ex.colour) if ex.alive else DEAD
            if ex.acting:
                gap_w, ring_w = _ring(r)
                disc(img, (cx, cy), r + gap_w + ring_w, GOLD)
                disc(img, (cx, cy), r + gap_w, RING_GAP)
            disc(img, (cx, cy), r, colour, outline=TOKEN_EDGE, width=max(1, round(r / 7)))
            if label_w < 4:
                continue
            name = (ex.player or ex.name or "?").split()[0]
            f, text = fit_text(name, label_w, size, min_size=max(7, round(size * 0.7)),
                               bold=True)
            if text.endswith("…") and len(text) <= 2:
                text = name[:1]
            lx = cx + _ring_outer(r) + max(2, round(r * 0.3))
            fill = GOLD if ex.acting else TEXT if ex.alive else MUTED
            draw_text(draw, (lx, cy), text, f, fill, anchor="lm", bold=True)
