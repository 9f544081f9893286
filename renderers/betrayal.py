"""The Betrayal at House on the Hill images: the house map and an explorer's sheet.

The engine turns its state into plain views (`bot.games.betrayal.view`) and this module
draws them, so the pictures can never show more than the table may see.

The map (`render_map`) shows each floor (upper, ground, basement) as its own labelled
panel, cropped to the explored extent of that floor. The panels are arranged in a row,
a column or a 2 + 1 split, whichever gives the biggest tiles while the image stays near
a preview-friendly shape (`_choose_layout`); tiles never go below `TILE_MIN` (scaled), the
image grows taller instead. Each tile shows its name, its doors as openings in the walls
(a passage is drawn across the gap when both tiles have facing doors, a short stub when
a door leads to unexplored space), its card symbol, a barrier line for split rooms,
tokens, a count of items lying there and link letters. Explorers stand in their tile as
coloured discs with the player's name beside them; the one to play has a gold ring,
dead ones are grey.

Geometry is computed once, in `map_geometry`, from arithmetic alone; the renderer draws
from that object, so tests see exactly what was drawn where.

Speed (bench/bench_render_betrayal.py): the tiles, panels and legend change only when a
tile is placed or a token or item moves, so they are drawn into a cached static layer,
itself assembled from cached per-tile sprites (placing one tile redraws one sprite). A
turn where explorers just move costs a copy of that layer plus the explorers, header and
footer. The PNG palette is fitted once per look (width, explorer colours, fonts) to a
made-up sample house and reused.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.games.betrayal.view import (
    FLOORS,
    CardView,
    ExplorerView,
    MapView,
    SheetView,
    TileView,
    TraitView,
)
from renderers.common import (
    BLACK,
    WHITE,
    Box,
    Colour,
    Palette,
    Point,
    centered_text,
    contrast_text,
    disc,
    draw_text,
    fit_text,
    fit_wrapped,
    font,
    font_signature,
    make_palette,
    mix,
    parse_colour,
    polygon,
    rounded_box,
    text_width,
    to_png,
    wrap_text,
)

BASE_WIDTH = 1200
SHEET_WIDTH = 800

# ------------------------------------------------------------------------ palette
# A dark house; each floor's tiles are tinted so the panels read apart at a glance.
BG: Colour = (14, 13, 18)
PANEL: Colour = (27, 25, 33)
PANEL_EDGE: Colour = (58, 53, 68)
TEXT: Colour = (238, 231, 214)
MUTED: Colour = (156, 150, 140)
DIM: Colour = (84, 80, 92)
WALL: Colour = (152, 126, 92)
GOLD: Colour = (250, 204, 84)  # the acting explorer's ring
RING_GAP: Colour = (10, 9, 12)  # the dark gap between an acting token and its ring
TOKEN_EDGE: Colour = (18, 16, 22)
DEAD: Colour = (118, 116, 122)
OMEN: Colour = (220, 86, 116)
EVENT: Colour = (86, 178, 226)
ITEM: Colour = (236, 160, 62)
BARRIER: Colour = (226, 76, 64)
LINK: Colour = (96, 206, 190)
ACCENT: Colour = (126, 214, 160)
CARD_FACE: Colour = (236, 226, 204)
PILE_BG: Colour = mix(ITEM, PANEL, 0.7)
FLOOR_FILL: dict[str, Colour] = {
    "upper": (64, 60, 84),
    "ground": (72, 60, 50),
    "basement": (50, 64, 60),
}
# Start tiles: a touch lighter, with a thin inner line.
START_FILL: dict[str, Colour] = {k: mix(v, (255, 240, 210), 0.13) for k, v in FLOOR_FILL.items()}
START_LINE: Colour = (196, 170, 120)
SYMBOL_COLOURS: dict[str, Colour] = {"omen": OMEN, "event": EVENT, "item": ITEM}

# Tokens a room can hold: a short label and a colour; others get a label from the key.
TOKEN_LABELS: dict[str, str] = {
    "secret_passage": "Passage",
    "secret_stairs": "Stairs",
    "slide": "Slide",
    "blessing": "Blessing",
    "vault_empty": "Empty",
    "drip": "Drip",
    "smoke": "Smoke",
    "slippery": "Slippery",
    "closet": "Closet",
    "safe": "Safe",
    "skeletons": "Skeletons",
    "wall_switch": "Switch",
    "obstacle": "Obstacle",
    "trap": "Trap",
}
TOKEN_COLOURS: tuple[Colour, ...] = ((120, 96, 170), (64, 132, 120), (150, 92, 70),
                                     (96, 110, 150), (140, 120, 60), (120, 70, 110))
FIXED_TOKEN_COLOURS: dict[str, Colour] = {"secret_passage": (64, 132, 120),
                                          "secret_stairs": (64, 132, 120),
                                          "blessing": (150, 122, 52), "vault_empty": (96, 92, 104)}

FLOOR_TITLES: dict[str, str] = {"upper": "Upper floor", "ground": "Ground floor",
                                "basement": "Basement"}
OMEN_CARDS = 13

SIDES: tuple[str, ...] = ("N", "E", "S", "W")
_DELTA: dict[str, tuple[int, int]] = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
_OPPOSITE: dict[str, str] = {"N": "S", "S": "N", "E": "W", "W": "E"}

# ------------------------------------------------------------------------- layout
# Frame sizes at BASE_WIDTH, scaled by width / BASE_WIDTH. Tile internals scale with the
# tile size instead (see `_tile_parts`).
MARGIN = 16
HEADER_H = 52
HEADER_FONT = 30
ROSTER_H = 40
ROSTER_GAP = 8
PANEL_GAP = 14
PANEL_TITLE_H = 38
PANEL_TITLE_FONT = 19
PANEL_PAD = 10
PANEL_MIN_W = 190
FOOTER_ROW_H = 36
FOOTER_FONT = 17
TILE_MAX = 180  # tiles never get bigger than this (a 1-tile floor would look silly)
TILE_MIN = 88  # nor smaller: names stay readable at full size; the image grows taller
TILE_LEGIBLE = 64  # TILE_MIN never scales below this many pixels (narrow renders)
TILE_FLOOR = 24  # absolute minimum, only for absurdly wide floors
GAP_RATIO = 0.13  # the space between tiles, where passages are drawn, per tile size
PREVIEW_ASPECT = 1.25  # height / width beyond which a chat preview shrinks the image

# Panel arrangements, in order of preference on ties. Leaves are floors; ("row", ...)
# puts children side by side, ("col", ...) stacks them.
Node = str | tuple
ARRANGEMENTS: tuple[tuple[str, Node], ...] = (
    ("row", ("row", "upper", "ground", "basement")),
    ("column", ("col", "upper", "ground", "basement")),
    ("upper+ground / basement", ("col", ("row", "upper", "ground"), "basement")),
    ("upper / ground+basement", ("col", "upper", ("row", "ground", "basement"))),
    ("upper/ground | basement", ("row", ("col", "upper", "ground"), "basement")),
    ("upper | ground/basement", ("row", "upper", ("col", "ground", "basement"))),
    ("ground / upper+basement", ("col", "ground", ("row", "upper", "basement"))),
    ("ground | upper/basement", ("row", "ground", ("col", "upper", "basement"))),
)


@dataclass(frozen=True)
class MapGeometry:
    """Where everything is drawn, in image pixels. Boxes are (x0, y0, x1, y1), x1/y1
    exclusive."""

    width: int
    height: int
    scale: float
    tile: int  # side of a tile
    gap: int  # space between neighbouring tiles
    arrangement: str
    header: Box
    roster: Box
    footer: Box
    panels: dict[str, Box]  # floor -> its panel
    grids: dict[str, Box]  # floor -> the cells of its explored extent
    extents: dict[str, tuple[int, int, int, int]]  # floor -> grid x0, y0, x1, y1 (incl.)
    tiles: dict[str, Box]  # tile key -> tile box
    sides: dict[str, dict[str, Point]]  # tile key -> side -> middle of that wall
    tokens: dict[int, Point]  # seat -> explorer token centre
    token_radius: dict[int, int]  # seat -> disc radius
    ring_radius: dict[int, int]  # seat -> radius of the middle of the acting ring
    roster_chips: dict[int, Box]  # seat -> its chip in the roster row
    omen_track: tuple[Point, ...]  # centres of the 13 omen marks in the footer
    footer_text: Box | None  # where view.footer is written


@dataclass(frozen=True)
class TileParts:
    """A tile's inside, relative to its top-left corner (all from the tile size)."""

    size: int
    wall: int
    radius: int
    pad: int
    door: int  # length of a doorway along the wall
    name_box: Box
    name_size: int
    body: Box  # where explorers stand
    strip: Box  # symbol, tokens, item pile, links (bottom row)


@lru_cache(maxsize=64)
def _tile_parts(t: int) -> TileParts:
    wall = max(2, round(t * 0.035))
    pad = wall + max(2, round(t * 0.045))
    name_size = max(8, round(t * 0.122))
    line_h = round(name_size * 1.17)
    side = wall + max(1, round(t * 0.025))  # names may use nearly the whole width
    name_box = (side, pad, t - side, pad + 2 * line_h)
    strip_h = max(9, round(t * 0.155))
    strip = (pad, t - pad - strip_h, t - pad, t - pad)
    body = (pad, name_box[3] + max(1, round(t * 0.01)), t - pad, strip[1] - max(1, round(t * 0.01)))
    return TileParts(size=t, wall=wall, radius=max(2, round(t * 0.06)), pad=pad,
                     door=round(t * 0.36), name_box=name_box, name_size=name_size, body=body,
                     strip=strip)


def _gap(t: int) -> int:
    return max(4, round(t * GAP_RATIO))


def _px(v: float, s: float) -> int:
    return max(1, round(v * s))


# ------------------------------------------------------------------------ extents


def _extents(view: MapView) -> dict[str, tuple[int, int, int, int] | None]:
    """Each floor's explored extent in grid cells (tiles, and any explorer standing off
    a tile so that they are still drawn); None for a floor with nothing on it."""
    cells: dict[str, list[tuple[int, int]]] = {f: [] for f in FLOORS}
    for tile in view.tiles:
        if tile.floor in cells:
            cells[tile.floor].append((tile.x, tile.y))
    for ex in view.explorers:
        if ex.floor in cells:
            cells[ex.floor].append((ex.x, ex.y))
    out: dict[str, tuple[int, int, int, int] | None] = {}
    for f, pts in cells.items():
        if not pts:
            out[f] = None
            continue
        xs = [p[0] for p in pts]
        ys = [p[1] for p in pts]
        out[f] = (min(xs), min(ys), max(xs), max(ys))
    return out


def _cells(extent: tuple[int, int, int, int] | None) -> tuple[int, int]:
    if extent is None:
        return 1, 1
    return extent[2] - extent[0] + 1, extent[3] - extent[1] + 1


# ------------------------------------------------------------------------ layout


@dataclass(frozen=True)
class _Frame:
    """The sizes around the panels, for one width."""

    s: float
    margin: int
    header_h: int
    roster_h: int
    footer_h: int
    panel_gap: int
    title_h: int
    pad: int
    min_panel_w: int

    @property
    def fixed_h(self) -> int:
        return (self.margin // 2 + self.header_h + self.roster_h + self.panel_gap
                + self.footer_h + self.margin // 2)


def _frame(view: MapView, width: int) -> _Frame:
    s = width / BASE_WIDTH
    rows = 2 if view.footer.strip() else 1
    return _Frame(
        s=s, margin=_px(MARGIN, s), header_h=_px(HEADER_H, s),
        roster_h=_px(ROSTER_H + ROSTER_GAP, s) if view.explorers else 0,
        footer_h=_px(FOOTER_ROW_H, s) * rows + _px(6, s), panel_gap=_px(PANEL_GAP, s),
        title_h=_px(PANEL_TITLE_H, s), pad=_px(PANEL_PAD, s), min_panel_w=_px(PANEL_MIN_W, s),
    )


def _panel_size(cells: tuple[int, int], t: int, fr: _Frame) -> tuple[int, int]:
    cols, rows = cells
    g = _gap(t)
    pad = max(fr.pad, round(g * 0.8))
    w = cols * t + (cols - 1) * g + 2 * pad
    h = fr.title_h + _top_pad(g, fr) + rows * t + (rows - 1) * g + pad
    return max(w, fr.min_panel_w), h


def _top_pad(g: int, fr: _Frame) -> int:
    """Space between a panel's title and its grid: room for door stubs pointing north."""
    return round(g * 0.5) + _px(8, fr.s)


def _node_size(node: Node, sizes: dict[str, tuple[int, int]], gap: int) -> tuple[int, int]:
    if isinstance(node, str):
        return sizes[node]
    kind, *children = node
    dims = [_node_size(c, sizes, gap) for c in children]
    between = gap * (len(dims) - 1)
    if kind == "row":
        return sum(w for w, _ in dims) + between, max(h for _, h in dims)
    return max(w for w, _ in dims), sum(h for _, h in dims) + between


def _place(node: Node, box: Box, sizes: dict[str, tuple[int, int]], gap: int,
           out: dict[str, Box]) -> None:
    """Give each panel its box: the free space of a row (column) is shared among its
    children in proportion to their size, and each stretches across the other way."""
    if isinstance(node, str):
        out[node] = box
        return
    kind, *children = node
    dims = [_node_size(c, sizes, gap) for c in children]
    x0, y0, x1, y1 = box
    axis = 0 if kind == "row" else 1
    natural = [d[axis] for d in dims]
    total = sum(natural)
    room = (x1 - x0 if axis == 0 else y1 - y0) - gap * (len(children) - 1)
    pos = x0 if axis == 0 else y0
    for i, child in enumerate(children):
        if i == len(children) - 1:
            length = (x1 if axis == 0 else y1) - pos
        else:
            length = round(room * natural[i] / total)
        if axis == 0:
            _place(child, (pos, y0, pos + length, y1), sizes, gap, out)
        else:
            _place(child, (x0, pos, x1, pos + length), sizes, gap, out)
        pos += length + gap


def _choose_layout(cells: dict[str, tuple[int, int]], width: int,
                   fr: _Frame) -> tuple[str, Node, int]:
    """The arrangement and tile size to draw with (cached: it only changes when a floor's
    extent does)."""
    return _choose_layout_cached(tuple(cells[f] for f in FLOORS), width, fr)


@lru_cache(maxsize=256)
def _choose_layout_cached(extents: tuple[tuple[int, int], ...], width: int,
                          fr: _Frame) -> tuple[str, Node, int]:
    """The arrangement and tile size to draw with.

    Per arrangement: the biggest tile (<= TILE_MAX) that fits the width, shrunk so the
    image stays within PREVIEW_ASPECT, but never below TILE_MIN (the image grows taller
    instead). The winner shows the biggest tiles once a chat preview has scaled the
    image to fit width x PREVIEW_ASPECT*width; ties go to the shorter image.
    """
    cells = dict(zip(FLOORS, extents, strict=True))
    inner_w = width - 2 * fr.margin
    box_h = PREVIEW_ASPECT * width
    t_max = _px(TILE_MAX, fr.s)
    t_min = min(t_max, max(_px(TILE_MIN, fr.s), TILE_LEGIBLE))
    t_floor = max(8, _px(TILE_FLOOR, fr.s))

    def size(node: Node, t: int) -> tuple[int, int]:
        sizes = {f: _panel_size(cells[f], t, fr) for f in FLOORS}
        return _node_size(node, sizes, fr.panel_gap)

    def largest(lo: int, hi: int, ok: Callable[[int], bool]) -> int | None:
        """The biggest t in lo..hi with ok(t), for ok true up to some t and false after."""
        if hi < lo or not ok(lo):
            return None
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if ok(mid):
                lo = mid
            else:
                hi = mid - 1
        return lo

    best: tuple[float, int, int] | None = None
    choice: tuple[str, Node, int] | None = None
    for index, (name, node) in enumerate(ARRANGEMENTS):
        t_w = largest(t_floor, t_max, lambda t, n=node: size(n, t)[0] <= inner_w)
        if t_w is None or t_w < t_min:
            continue
        t_h = largest(t_min, t_w, lambda t, n=node: fr.fixed_h + size(n, t)[1] <= box_h)
        t = t_h if t_h is not None else t_min
        h = fr.fixed_h + size(node, t)[1]
        score = (t * min(1.0, box_h / h), -h, -index)
        if best is None or score > best:
            best, choice = score, (name, node, t)
    if choice is None:  # floors too wide for TILE_MIN: stack them, as big as fits
        node = ARRANGEMENTS[1][1]
        t = largest(8, t_max, lambda t: size(node, t)[0] <= inner_w) or 8
        choice = (ARRANGEMENTS[1][0], node, t)
    return choice


# ----------------------------------------------------------------------- geometry


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


def map_geometry(view: MapView, width: int = BASE_WIDTH) -> MapGeometry:
    """Lay the map out for `width`; the height follows from the house."""
    width = int(width)
    fr = _frame(view, width)
    s = fr.s
    extents = _extents(view)
    cells = {f: _cells(extents[f]) for f in FLOORS}
    name, node, t = _choose_layout(cells, width, fr)
    g = _gap(t)
    sizes = {f: _panel_size(cells[f], t, fr) for f in FLOORS}
    body_w, body_h = _node_size(node, sizes, fr.panel_gap)
    inner_w = width - 2 * fr.margin

    y = fr.margin // 2
    header: Box = (fr.margin, y, width - fr.margin, y + fr.header_h)
    y = header[3]
    roster: Box = (fr.margin, y, width - fr.margin, y + fr.roster_h - _px(ROSTER_GAP, s)
                   if fr.roster_h else y)
    y += fr.roster_h
    panels: dict[str, Box] = {}
    _place(node, (fr.margin, y, fr.margin + max(inner_w, body_w), y + body_h), sizes,
           fr.panel_gap, panels)
    y += body_h + fr.panel_gap
    footer: Box = (fr.margin, y, width - fr.margin, y + fr.footer_h)
    height = footer[3] + fr.margin // 2

    grids: dict[str, Box] = {}
    origins: dict[str, tuple[int, int]] = {}
    for f in FLOORS:
        px0, py0, px1, py1 = panels[f]
        cols, rows = cells[f]
        gw, gh = cols * t + (cols - 1) * g, rows * t + (rows - 1) * g
        top = py0 + fr.title_h + _top_pad(g, fr)
        pad = max(fr.pad, round(g * 0.8))
        gx0 = px0 + (px1 - px0 - gw) // 2
        gy0 = top + max(0, (py1 - pad - top - gh) // 2)
        grids[f] = (gx0, gy0, gx0 + gw, gy0 + gh)
        ext = extents[f]
        origins[f] = (ext[0], ext[1]) if ext is not None else (0, 0)

    def cell_box(floor: str, x: int, y: int) -> Box:
        gx0, gy0 = grids[floor][:2]
        ox, oy = origins[floor]
        x0 = gx0 + (x - ox) * (t + g)
        y0 = gy0 + (y - oy) * (t + g)
        return (x0, y0, x0 + t, y0 + t)

    parts = _tile_parts(t)
    w = parts.wall
    tiles: dict[str, Box] = {}
    sides: dict[str, dict[str, Point]] = {}
    for tile in view.tiles:
        if tile.floor not in grids:
            continue
        box = cell_box(tile.floor, tile.x, tile.y)
        tiles[tile.key] = box
        x0, y0, x1, y1 = box
        cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
        sides[tile.key] = {"N": (cx, y0 + w // 2), "S": (cx, y1 - 1 - w // 2),
                           "W": (x0 + w // 2, cy), "E": (x1 - 1 - w // 2, cy)}

    tokens: dict[int, Point] = {}
    radius: dict[int, int] = {}
    ring: dict[int, int] = {}
    strip_rows = _strip_rows(view, t)
    for cell, group in _groups(view).items():
        x0, y0, _, _ = cell_box(*cell)
        slots = _token_slots(len(group), t, strip_rows.get(cell, 0))
        for ex, (sx, sy, r, _, _) in zip(group, slots, strict=True):
            tokens[ex.seat] = (x0 + sx, y0 + sy)
            radius[ex.seat] = r
            gap_w, ring_w = _ring(r)
            ring[ex.seat] = r + gap_w + ring_w // 2

    chips: dict[int, Box] = {}
    if view.explorers:
        n = len(view.explorers)
        cg = _px(8, s)
        cw = min(_px(300, s), (roster[2] - roster[0] - (n - 1) * cg) // n)
        for i, ex in enumerate(sorted(view.explorers, key=lambda e: e.seat)):
            x0 = roster[0] + i * (cw + cg)
            chips[ex.seat] = (x0, roster[1], x0 + cw, roster[3])

    row_h = _px(FOOTER_ROW_H, s)
    fy = footer[1] + _px(6, s) + row_h // 2
    label_w = text_width(font(_px(FOOTER_FONT, s), True), "Omens")
    step = _px(24, s)
    ox = footer[0] + label_w + _px(12, s) + step // 2
    omen_track = tuple((ox + i * step, fy) for i in range(OMEN_CARDS))
    footer_text: Box | None = None
    if view.footer.strip():
        ft_y = footer[1] + _px(6, s) + row_h
        footer_text = (footer[0], ft_y, footer[2], ft_y + row_h)

    return MapGeometry(
        width=width, height=height, scale=s, tile=t, gap=g, arrangement=name, header=header,
        roster=roster, footer=footer, panels=panels, grids=grids,
        extents={f: e for f, e in extents.items() if e is not None}, tiles=tiles,
        sides=sides, tokens=tokens, token_radius=radius, ring_radius=ring,
        roster_chips=chips, omen_track=omen_track, footer_text=footer_text,
    )


def _strip_rows(view: MapView, t: int) -> dict[tuple[str, int, int], int]:
    """Cell -> how many rows of its tile's bottom strip are drawn on."""
    links = _link_letters(view)
    return {(tile.floor, tile.x, tile.y): _strip_layout(_look(tile, links), t)[1]
            for tile in view.tiles}


def _groups(view: MapView) -> dict[tuple[str, int, int], list[ExplorerView]]:
    """Explorers by the cell they stand in, in seat order (so a token keeps its place)."""
    groups: dict[tuple[str, int, int], list[ExplorerView]] = {}
    for ex in sorted(view.explorers, key=lambda e: e.seat):
        if ex.floor in FLOORS:
            groups.setdefault((ex.floor, ex.x, ex.y), []).append(ex)
    return groups


# ------------------------------------------------------------------------ glyphs
_SS = 4  # supersampling of glyph sprites


def _finish(big: Image.Image, d: int) -> Image.Image:
    return big.resize((d, d), Image.Resampling.BOX)


@lru_cache(maxsize=128)
def glyph(kind: str, d: int) -> Image.Image:
    """A d x d RGBA sprite: "omen" (crescent on a rose disc), "event" (spiral on a blue
    disc), "item" (amber diamond), "omen_off" (an omen not yet drawn), "skull"."""
    k = d * _SS
    big = Image.new("RGBA", (k, k), (0, 0, 0, 0))
    dr = ImageDraw.Draw(big)
    if kind in ("omen", "omen_off"):
        if kind == "omen":
            dr.ellipse((0, 0, k - 1, k - 1), fill=(*OMEN, 255))
            moon = (*WHITE, 255)
        else:
            dr.ellipse((0, 0, k - 1, k - 1), fill=(*DIM, 255))
            dr.ellipse((k * 0.09, k * 0.09, k * 0.91, k * 0.91), fill=(*PANEL, 255))
            moon = (*DIM, 255)
        dr.ellipse((k * 0.22, k * 0.2, k * 0.78, k * 0.8), fill=moon)
        bg = (*OMEN, 255) if kind == "omen" else (*PANEL, 255)
        dr.ellipse((k * 0.36, k * 0.13, k * 0.9, k * 0.7), fill=bg)
    elif kind == "event":
        dr.ellipse((0, 0, k - 1, k - 1), fill=(*EVENT, 255))
        pts = []
        turns = 2.3
        for i in range(121):
            a = i / 120 * turns * 2 * math.pi
            rr = k * 0.04 + k * 0.36 * (i / 120)
            pts.append((k / 2 + rr * math.cos(a), k / 2 + rr * math.sin(a)))
        dr.line(pts, fill=(*WHITE, 255), width=max(1, round(k * 0.085)), joint="curve")
    elif kind == "item":
        m = k * 0.04
        dr.polygon([(k / 2, m), (k - m, k / 2), (k / 2, k - m), (m, k / 2)], fill=(*ITEM, 255))
        light = (*mix(ITEM, WHITE, 0.55), 255)
        dr.polygon([(k / 2, k * 0.2), (k * 0.72, k / 2), (k / 2, k * 0.5), (k * 0.28, k / 2)],
                   fill=light)
    elif kind == "skull":
        c = (*TEXT, 255)
        hole = (0, 0, 0, 0)
        dr.ellipse((k * 0.12, k * 0.05, k * 0.88, k * 0.72), fill=c)
        dr.rounded_rectangle((k * 0.27, k * 0.5, k * 0.73, k * 0.93), radius=k * 0.08, fill=c)
        dr.ellipse((k * 0.24, k * 0.33, k * 0.45, k * 0.55), fill=hole)
        dr.ellipse((k * 0.55, k * 0.33, k * 0.76, k * 0.55), fill=hole)
        dr.polygon([(k * 0.5, k * 0.56), (k * 0.44, k * 0.68), (k * 0.56, k * 0.68)], fill=hole)
        for x in (0.4, 0.5, 0.6):
            dr.line([(k * x, k * 0.78), (k * x, k * 0.93)], fill=hole, width=max(1, k // 24))
    return _finish(big, d)


def _paste_glyph(img: Image.Image, kind: str, box_xy: tuple[int, int], d: int) -> None:
    sprite = glyph(kind, d)
    img.paste(sprite, box_xy, sprite)


def _pile_width(h: int, count: int) -> int:
    cw = max(4, round(h * 0.52))
    return cw + round(h * 0.18) + round(h * 0.12) + text_width(
        font(max(7, round(h * 0.78)), True), str(count)) + round(h * 0.3)


def _pile_badge(img: Image.Image, draw: ImageDraw.ImageDraw, x1: int, y0: int, h: int,
                count: int) -> int:
    """Two stacked cards and the count, right-aligned at x1; returns its left edge."""
    f = font(max(7, round(h * 0.78)), True)
    label = str(count)
    cw, ch = max(4, round(h * 0.52)), max(6, round(h * 0.78))
    x0 = x1 - _pile_width(h, count)
    rounded_box(img, (x0, y0, x1, y0 + h), max(2, h // 4), PILE_BG)
    cx = x0 + round(h * 0.18)
    cy = y0 + (h - ch) // 2
    off = max(1, round(h * 0.12))
    rounded_box(img, (cx + off, cy - off // 2, cx + off + cw, cy - off // 2 + ch), 2, ITEM)
    rounded_box(img, (cx, cy + off // 2, cx + cw, cy + off // 2 + ch), 2, CARD_FACE,
                outline=ITEM, width=1)
    draw_text(draw, (cx + cw + off + round(h * 0.12), y0 + h / 2), label, f, TEXT, anchor="lm",
              bold=True)
    return x0


def _fit_size(text: str, max_width: int, size: int, min_size: int) -> tuple[int, str]:
    """`fit_text` for bold text, answering with the font size rather than the font (the
    fallback font may not say its size)."""
    for s in range(size, min_size - 1, -1):
        if text_width(font(s, True), text) <= max_width:
            return s, text
    return min_size, fit_text(text, max_width, min_size, min_size=min_size, bold=True)[1]


def _token_label(kind: str) -> str:
    return TOKEN_LABELS.get(kind) or kind.replace("_", " ").strip().capitalize() or "?"


def _token_colour(kind: str) -> Colour:
    if kind in FIXED_TOKEN_COLOURS:
        return FIXED_TOKEN_COLOURS[kind]
    return TOKEN_COLOURS[zlib.crc32(kind.encode()) % len(TOKEN_COLOURS)]


# ------------------------------------------------------------------------- tiles
# A tile's static look: (name, floor, doors, symbol, tokens, item count, barrier, start,
# link letters). Sprites are cached per look and size, so placing a tile draws one.
TileLook = tuple[str, str, tuple[str, ...], str, tuple[str, ...], int, bool, bool,
                 tuple[str, ...]]


@lru_cache(maxsize=512)
def _tile_sprite(look: TileLook, t: int, fonts: tuple[object, ...]) -> Image.Image:
    """One tile, t x t on the panel colour. `fonts` (font_signature()) is only part of
    the cache key: a sprite drawn before fonts changed must not be reused."""
    name, floor, doors, symbol, _, pile, barrier, start, _ = look
    parts = _tile_parts(t)
    img = Image.new("RGB", (t, t), PANEL)
    draw = ImageDraw.Draw(img)
    fill = (START_FILL if start else FLOOR_FILL).get(floor, FLOOR_FILL["ground"])
    w = parts.wall
    rounded_box(img, (0, 0, t, t), parts.radius, fill, outline=WALL, width=w)
    if start:
        i = w + max(1, round(t * 0.02))
        lw = max(1, round(t * 0.008))
        rounded_box(img, (i, i, t - i, t - i), max(1, parts.radius - i), START_LINE)
        rounded_box(img, (i + lw, i + lw, t - i - lw, t - i - lw),
                    max(1, parts.radius - i - lw), fill)
    d0 = (t - parts.door) // 2
    d1 = d0 + parts.door
    for side in doors:
        if side == "N":
            img.paste(fill, (d0, 0, d1, w + 3))
        elif side == "S":
            img.paste(fill, (d0, t - w - 3, d1, t))
        elif side == "W":
            img.paste(fill, (0, d0, w + 3, d1))
        elif side == "E":
            img.paste(fill, (t - w - 3, d0, t, d1))

    # Barrier: a dashed red line splitting the room across its doors' axis.
    if barrier:
        bw = max(2, round(t * 0.03))
        dash, space = max(3, round(t * 0.07)), max(2, round(t * 0.045))
        if doors and set(doors) <= {"E", "W"}:
            x = t // 2 - bw // 2
            y = parts.name_box[3]
            while y < parts.strip[1]:
                img.paste(BARRIER, (x, y, x + bw, min(y + dash, parts.strip[1])))
                y += dash + space
        else:
            y = t // 2 - bw // 2
            x = w
            while x < t - w:
                img.paste(BARRIER, (x, y, min(x + dash, t - w), y + bw))
                x += dash + space

    # Name: centred, up to two lines, shrunk before it is cut.
    nx0, ny0, nx1, ny1 = parts.name_box
    f, lines = fit_wrapped(name, nx1 - nx0, 2, parts.name_size,
                           min_size=max(7, round(parts.name_size * 0.75)), bold=True)
    line_h = (ny1 - ny0) / 2
    top = ny0 + line_h * (2 - len(lines)) / 2  # one line sits in the middle of the band
    for i, line in enumerate(lines):
        centered_text(draw, (t // 2, round(top + line_h * (i + 0.5))), line, f, TEXT, bold=True)

    # Bottom strip: symbol, tokens and link letters flowing right, item pile at the right.
    placed, _ = _strip_layout(look, t)
    h = parts.strip[3] - parts.strip[1]
    for what, text, x, y, width, size in placed:
        if what == "pile":
            _pile_badge(img, draw, x + width, y, h, pile)
        elif what == "symbol":
            _paste_glyph(img, symbol, (x, y), h)
        elif what == "link":
            disc(img, (x + h / 2, y + h / 2), h / 2, LINK)
            centered_text(draw, (x + h // 2, y + h // 2), text, font(size, True), BG, bold=True)
        elif what == "more":
            rounded_box(img, (x, y, x + width, y + h), h // 2, DIM)
            centered_text(draw, (x + width // 2, y + h // 2), text, font(size, True), TEXT,
                          bold=True)
        else:
            rounded_box(img, (x, y, x + width, y + h), h // 2, _token_colour(what[6:]))
            centered_text(draw, (x + width // 2, y + h // 2), text, font(size, True), TEXT,
                          bold=True)
    return img


# One thing drawn in a tile's bottom strip: (what, text, x, y, width, font size), where
# what is "symbol", "pile", "link", "more" (the "+n" mark) or "token:<kind>".
StripItem = tuple[str, str, int, int, int, int]


def _strip_layout(look: TileLook, t: int) -> tuple[tuple[StripItem, ...], int]:
    """Where the symbol, item pile, tokens and link letters go, and how many rows of the
    strip they use (0, 1 or 2). Tokens and links flow along the strip, then along a
    second row just above it; what still does not fit becomes "+n". Explorers stand
    above the rows used (`_token_slots`)."""
    return _strip_layout_cached(look, t, font_signature())


@lru_cache(maxsize=1024)
def _strip_layout_cached(look: TileLook, t: int,
                         fonts: tuple[object, ...]) -> tuple[tuple[StripItem, ...], int]:
    _, _, _, symbol, tokens, pile, _, _, links = look
    sx0, sy0, sx1, _ = _tile_parts(t).strip
    h = _tile_parts(t).strip[3] - sy0
    step = max(2, h // 5)
    placed: list[StripItem] = []
    right = sx1
    if pile:
        pw = _pile_width(h, pile)
        placed.append(("pile", str(pile), sx1 - pw, sy0, pw, 0))
        right = sx1 - pw - step
    x = sx0
    if symbol in SYMBOL_COLOURS:
        placed.append(("symbol", symbol, x, sy0, h, 0))
        x += h + step
    pill_size = max(7, round(h * 0.66))
    padx = max(2, round(h * 0.3))
    items = [("token:" + k, _token_label(k)) for k in tokens] + [("link", c) for c in links]
    rows = [(sy0, right), (sy0 - h - step, sx1)]
    row = 0
    used = 1 if placed else 0
    for i, (what, label) in enumerate(items):
        while True:
            last_row = row == len(rows) - 1
            reserve = h + step if last_row and i < len(items) - 1 else 0  # for a "+n"
            room = rows[row][1] - x - reserve
            size, text = pill_size, label
            if what == "link":
                width = h
            else:
                size, text = _fit_size(label, max(1, room - 2 * padx), pill_size,
                                       max(7, round(h * 0.55)))
                width = max(h, text_width(font(size, True), text) + 2 * padx)
                if text.endswith("…") and not last_row:
                    width = room + 1  # rather whole on the next row than cut here
            if width <= room or last_row:
                break
            row += 1
            x = sx0
        if width > room:
            if x + h <= rows[row][1]:
                placed.append(("more", f"+{len(items) - i}", x, rows[row][0], h,
                               max(6, round(h * 0.5))))
                used = max(used, row + 1)
            break
        placed.append((what, text, x, rows[row][0], width, size))
        used = max(used, row + 1)
        x += width + step
    return tuple(placed), used


def _look(tile: TileView, links: dict[str, tuple[str, ...]]) -> TileLook:
    doors = tuple(d for d in SIDES if d in tile.doors)
    return (tile.name, tile.floor, doors, tile.symbol, tuple(tile.tokens), len(tile.item_pile),
            bool(tile.barrier), bool(tile.start), links.get(tile.key, ()))


def _link_letters(view: MapView) -> dict[str, tuple[str, ...]]:
    """Room key -> the letters of the special links it is part of (A, B, ...). A pair
    listed twice (or both ways round) is one link with one letter."""
    pairs = list(dict.fromkeys(tuple(sorted((a, b))) for a, b in view.links))
    out: dict[str, list[str]] = {}
    for i, pair in enumerate(pairs):
        letter = chr(ord("A") + i) if i < 26 else str(i + 1)
        for key in dict.fromkeys(pair):
            out.setdefault(key, []).append(letter)
    return {k: tuple(v) for k, v in out.items()}


# ---------------------------------------------------------------- static layer


def _static_key(view: MapView, geo: MapGeometry) -> tuple[object, ...]:
    links = _link_letters(view)
    tiles = tuple((tile.key, _look(tile, links), geo.tiles[tile.key], tile.x, tile.y)
                  for tile in view.tiles if tile.key in geo.tiles)
    panels = tuple((f, geo.panels[f], geo.grids[f], geo.extents.get(f)) for f in FLOORS)
    return (geo.width, geo.height, geo.tile, geo.gap, panels, tiles, geo.footer, font_signature())


STATIC_CACHE_SIZE = 6


@lru_cache(maxsize=STATIC_CACHE_SIZE)
def _static_layer(key: tuple[object, ...]) -> Image.Image:
    """The backdrop, panels, passages and tiles: everything but explorers and texts that
    change every turn. Drawn from `key` alone."""
    width, height, t, g, panels, tiles, footer, fonts = key
    assert isinstance(t, int) and isinstance(g, int)
    s = width / BASE_WIDTH
    img = Image.new("RGB", (width, height), BG)
    draw = ImageDraw.Draw(img)
    counts: dict[str, int] = {}
    for _, look, _, _, _ in tiles:
        counts[look[1]] = counts.get(look[1], 0) + 1
    title_f = font(_px(PANEL_TITLE_FONT, s), True)
    for floor, box, _, extent in panels:
        framed_box(img, box, _px(10, s), PANEL, PANEL_EDGE, max(1, _px(2, s)), BG)
        x0, y0, x1, _ = box
        ty = y0 + _px(PANEL_TITLE_H, s) // 2 + _px(2, s)
        tx = x0 + _px(14, s)
        title = FLOOR_TITLES.get(floor, floor.title())
        draw_text(draw, (tx, ty), title, title_f, TEXT, anchor="lm", bold=True)
        tw = text_width(title_f, title)
        n = counts.get(floor, 0)
        note = ("nothing explored" if extent is None else
                f"{n} room" if n == 1 else f"{n} rooms")
        room = x1 - _px(14, s) - (tx + tw + _px(10, s))
        if room > _px(30, s):
            fc, text = fit_text(note, room, _px(PANEL_TITLE_FONT - 3, s))
            draw_text(draw, (tx + tw + _px(10, s), ty), text, fc, MUTED, anchor="lm")
    _draw_passages(img, tiles, t, g)
    for _, look, box, _, _ in tiles:
        img.paste(_tile_sprite(look, t, fonts), box[:2])
    _draw_legend(img, draw, footer, s)
    return img


@lru_cache(maxsize=32)
def _frame_piece(radius: int, fill: Colour, edge: Colour, width: int,
                 under: Colour) -> Image.Image:
    c = radius + width + 1
    piece = Image.new("RGB", (2 * c + 1, 2 * c + 1), under)
    rounded_box(piece, (0, 0, 2 * c + 1, 2 * c + 1), radius, fill, outline=edge, width=width)
    return piece


def framed_box(img: Image.Image, box: Box, radius: int, fill: Colour, edge: Colour,
               width: int, under: Colour) -> None:
    """`rounded_box` for big boxes on a flat `under` colour, pixel-identical to it but
    cheap at any size: a small rounded box is drawn once and stretched (9-slice); the
    anti-aliased mask of a full panel would cost ~10 ms whenever a panel changes size."""
    x0, y0, x1, y1 = box
    piece = _frame_piece(radius, fill, edge, width, under)
    c = (piece.width - 1) // 2
    if x1 - x0 <= 2 * c + 1 or y1 - y0 <= 2 * c + 1:
        rounded_box(img, box, radius, fill, outline=edge, width=width)
        return
    w, h = x1 - x0, y1 - y0
    k = piece.width
    for sx, dx in ((0, x0), (c + 1, x1 - c)):
        for sy, dy in ((0, y0), (c + 1, y1 - c)):
            img.paste(piece.crop((sx, sy, sx + c, sy + c)), (dx, dy))
    top = piece.crop((c, 0, c + 1, c)).resize((w - 2 * c, c), Image.Resampling.NEAREST)
    bottom = piece.crop((c, k - c, c + 1, k)).resize((w - 2 * c, c), Image.Resampling.NEAREST)
    left = piece.crop((0, c, c, c + 1)).resize((c, h - 2 * c), Image.Resampling.NEAREST)
    right = piece.crop((k - c, c, k, c + 1)).resize((c, h - 2 * c), Image.Resampling.NEAREST)
    img.paste(top, (x0 + c, y0))
    img.paste(bottom, (x0 + c, y1 - c))
    img.paste(left, (x0, y0 + c))
    img.paste(right, (x1 - c, y0 + c))
    img.paste(fill, (x0 + c, y0 + c, x1 - c, y1 - c))


def _draw_passages(img: Image.Image, tiles: Sequence[tuple], t: int, g: int) -> None:
    """Across the gap between tiles: a passage where both have facing doors, a short
    open stub where a door leads to unexplored space, nothing where it meets a wall."""
    parts = _tile_parts(t)
    w = parts.wall
    span = parts.door
    by_cell = {(look[1], x, y): look for _, look, _, x, y in tiles}
    for _, look, box, x, y in tiles:
        floor, doors, start = look[1], look[2], look[7]
        for side in doors:
            dx, dy = _DELTA[side]
            other = by_cell.get((floor, x + dx, y + dy))
            if other is not None and _OPPOSITE[side] not in other[2]:
                continue  # the door opens onto a wall
            if other is not None and side in ("N", "W"):
                continue  # drawn once, from the west / north tile
            fill = (START_FILL if start and (other is None or other[7]) else FLOOR_FILL).get(
                floor, FLOOR_FILL["ground"])
            length = g if other is not None else max(2, round(g * 0.5))
            x0, y0, x1, y1 = box
            mid_x, mid_y = (x0 + x1) // 2, (y0 + y1) // 2
            if side in ("N", "S"):
                a = mid_x - span // 2
                ys = (y1, y1 + length) if side == "S" else (y0 - length, y0)
                img.paste(WALL, (a - w, ys[0], a + span + w, ys[1]))
                img.paste(fill, (a, ys[0], a + span, ys[1]))
            else:
                a = mid_y - span // 2
                xs = (x1, x1 + length) if side == "E" else (x0 - length, x0)
                img.paste(WALL, (xs[0], a - w, xs[1], a + span + w))
                img.paste(fill, (xs[0], a, xs[1], a + span))


def _draw_legend(img: Image.Image, draw: ImageDraw.ImageDraw, footer: Box, s: float) -> None:
    row_h = _px(FOOTER_ROW_H, s)
    cy = footer[1] + _px(6, s) + row_h // 2
    f = font(_px(FOOTER_FONT - 2, s))
    d = _px(20, s)
    gap = _px(6, s)
    entries: list[tuple[str, str]] = [("omen", "omen"), ("event", "event"), ("item", "item"),
                                      ("pile", "items here"), ("barrier", "barrier")]
    widths = [d + gap + text_width(f, label) for _, label in entries]
    x = footer[2] - sum(widths) - _px(16, s) * (len(entries) - 1)
    for (kind, label), wd in zip(entries, widths, strict=True):
        if kind in SYMBOL_COLOURS:
            _paste_glyph(img, kind, (x, cy - d // 2), d)
        elif kind == "pile":
            _pile_badge(img, draw, x + d + _px(8, s), cy - d // 2, d, 1)
            x += _px(8, s)
        else:
            img.paste(BARRIER, (x, cy - max(1, _px(2, s)), x + d, cy + max(1, _px(2, s))))
        draw_text(draw, (x + d + gap, cy), label, f, MUTED, anchor="lm")
        x += wd + _px(16, s)


# ---------------------------------------------------------------- dynamic parts


def _draw_header(img: Image.Image, draw: ImageDraw.ImageDraw, view: MapView,
                 geo: MapGeometry) -> None:
    s = geo.scale
    x0, y0, x1, y1 = geo.header
    f, text = fit_text(view.header, x1 - x0, _px(HEADER_FONT, s),
                       min_size=_px(HEADER_FONT * 0.7, s), bold=True)
    draw_text(draw, (x0, (y0 + y1) // 2), text, f, TEXT, anchor="lm", bold=True)
    draw.line((x0, y1 - 1, x1, y1 - 1), fill=PANEL_EDGE, width=1)


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


def _draw_footer(img: Image.Image, draw: ImageDraw.ImageDraw, view: MapView,
                 geo: MapGeometry) -> None:
    s = geo.scale
    x0 = geo.footer[0]
    fb = font(_px(FOOTER_FONT, s), True)
    cy = geo.omen_track[0][1]
    draw_text(draw, (x0, cy), "Omens", fb, TEXT, anchor="lm", bold=True)
    d = _px(20, s)
    drawn = max(0, view.omens)
    for i, (cx, _) in enumerate(geo.omen_track):
        _paste_glyph(img, "omen" if i < drawn else "omen_off", (cx - d // 2, cy - d // 2), d)
    last = geo.omen_track[-1][0] + d // 2 + _px(12, s)
    label = f"{drawn} drawn"
    draw_text(draw, (last, cy), label, font(_px(FOOTER_FONT, s)), MUTED, anchor="lm")
    if geo.footer_text is not None:
        fx0, fy0, fx1, fy1 = geo.footer_text
        f, text = fit_text(view.footer.strip(), fx1 - fx0, _px(FOOTER_FONT + 3, s),
                           min_size=_px(FOOTER_FONT - 2, s), bold=True)
        draw_text(draw, (fx0, (fy0 + fy1) // 2), text, f, GOLD, anchor="lm", bold=True)


def _draw_dynamic(img: Image.Image, view: MapView, geo: MapGeometry) -> None:
    draw = ImageDraw.Draw(img)
    _draw_header(img, draw, view, geo)
    _draw_roster(img, draw, view, geo)
    _draw_explorers(img, draw, view, geo)
    _draw_footer(img, draw, view, geo)


# ------------------------------------------------------------------------ output
FLAT_COLOURS: tuple[Colour, ...] = (
    BG, PANEL, PANEL_EDGE, TEXT, MUTED, DIM, WALL, GOLD, RING_GAP, TOKEN_EDGE, DEAD, OMEN,
    EVENT, ITEM, BARRIER, LINK, ACCENT, CARD_FACE, PILE_BG, START_LINE, *FLOOR_FILL.values(),
    *START_FILL.values(), *TOKEN_COLOURS, *FIXED_TOKEN_COLOURS.values(), BLACK, WHITE,
)

_SAMPLE_ROOMS: tuple[tuple[str, str, str, str], ...] = (
    # name, floor, doors, symbol
    ("Upper Landing", "upper", "NESW", ""), ("Operating Laboratory", "upper", "ES", "event"),
    ("Tower", "upper", "EW", "event"), ("Master Bedroom", "upper", "NW", "omen"),
    ("Entrance Hall", "ground", "NSW", ""), ("Foyer", "ground", "NESW", ""),
    ("Grand Staircase", "ground", "E", ""), ("Dining Room", "ground", "NE", "omen"),
    ("Servants' Quarters", "ground", "NESW", "omen"), ("Bloody Room", "ground", "NESW", "item"),
    ("Basement Landing", "basement", "NESW", ""), ("Chasm", "basement", "EW", ""),
    ("Wine Cellar", "basement", "NS", "item"), ("Stairs from Basement", "basement", "S", ""),
)


def _sample_view(colours: tuple[Colour, ...]) -> MapView:
    """A made-up house drawing every kind of thing once, for fitting the palette."""
    tiles = []
    for i, (name, floor, doors, symbol) in enumerate(_SAMPLE_ROOMS):
        k = sum(1 for r in _SAMPLE_ROOMS[:i] if r[1] == floor)
        tiles.append(TileView(
            key=f"s{i}", name=name, floor=floor, x=k % 3, y=k // 3, doors=tuple(doors),
            symbol=symbol, tokens=("secret_passage", "blessing", "trap")[: i % 3],
            item_pile=("x",) * (i % 2), barrier=name in ("Tower", "Chasm"),
            start="Landing" in name or name in ("Entrance Hall", "Foyer", "Grand Staircase"),
        ))
    explorers = [ExplorerView(seat=i, name=f"Explorer {i}", player=f"Player {i}",
                              colour="#{:02x}{:02x}{:02x}".format(*c),
                              floor=FLOORS[i % 3], x=0, y=i % 2, alive=i != 1, acting=i == 0)
                 for i, c in enumerate(colours)]
    return MapView(tiles=tuple(tiles), explorers=tuple(explorers), header="Turn 12 · Sample",
                   omens=5, footer="The haunt has begun", links=(("s0", "s5"),))


@lru_cache(maxsize=8)
def _palette(width: int, colours: tuple[Colour, ...], fonts: tuple[object, ...]) -> Palette:
    view = _sample_view(colours)
    geo = map_geometry(view, width)
    img = Image.new("RGB", (geo.width, geo.height), BG)
    img.paste(_static_layer(_static_key(view, geo)))
    _draw_dynamic(img, view, geo)
    return make_palette([img], exact=FLAT_COLOURS + colours)


def render_image(view: MapView, *, width: int = BASE_WIDTH) -> Image.Image:
    """The map as a Pillow image (for callers that compose or inspect it)."""
    geo = map_geometry(view, width)
    img = _static_layer(_static_key(view, geo)).copy()
    _draw_dynamic(img, view, geo)
    return img


def encode_map(view: MapView, img: Image.Image) -> bytes:
    """PNG bytes of a map image drawn for `view` (with the palette of its look)."""
    colours = tuple(sorted({parse_colour(ex.colour) for ex in view.explorers}))
    return to_png(img, palette=_palette(img.width, colours, font_signature()))


def render_map(view: MapView, *, width: int = BASE_WIDTH) -> bytes:
    """The house map as PNG bytes, ready to attach to the channel message."""
    return encode_map(view, render_image(view, width=width))


# ========================================================================= sheet
TRAITS: tuple[str, ...] = ("speed", "might", "sanity", "knowledge")
CELL: Colour = (40, 37, 48)
CELL_EDGE: Colour = (66, 61, 76)
SKULL_CELL: Colour = (34, 24, 28)
CARD_BG: Colour = (33, 31, 41)
SHEET_FLAT: tuple[Colour, ...] = (BG, PANEL, PANEL_EDGE, TEXT, MUTED, DIM, CELL, CELL_EDGE,
                                  SKULL_CELL, CARD_BG, ACCENT, BARRIER, OMEN, EVENT, ITEM,
                                  GOLD, BLACK, WHITE)


@dataclass(frozen=True)
class SheetGeometry:
    width: int
    height: int
    scale: float
    band: Box  # the colour band along the top
    title: Box
    traits: dict[str, tuple[Box, ...]]  # trait -> 9 cells: the skull, then the 8 values
    labels: dict[str, Box]
    start_marks: dict[str, Point]  # trait -> a point inside its start marker
    notes: Box | None
    cards_title: Box
    cards: tuple[Box, ...]
    card_lines: tuple[tuple[str, ...], ...]  # the wrapped text of each card


def _sheet_traits(view: SheetView) -> list[str]:
    return [t for t in TRAITS if t in view.traits] + [t for t in view.traits if t not in TRAITS]


def sheet_geometry(view: SheetView, width: int = SHEET_WIDTH) -> SheetGeometry:
    width = int(width)
    s = width / SHEET_WIDTH

    def px(v: float) -> int:
        return _px(v, s)

    m = px(24)
    band: Box = (0, 0, width, px(12))
    title: Box = (m, band[3] + px(12), width - m, band[3] + px(12) + px(74))
    y = title[3] + px(14)
    label_w = px(150)
    cg = px(6)
    cell_w = (width - 2 * m - label_w - 8 * cg) // 9
    cell_h = px(50)
    traits: dict[str, tuple[Box, ...]] = {}
    labels: dict[str, Box] = {}
    marks: dict[str, Point] = {}
    for name in _sheet_traits(view):
        labels[name] = (m, y, m + label_w, y + cell_h)
        x = m + label_w
        cells = []
        for _ in range(9):
            cells.append((x, y, x + cell_w, y + cell_h))
            x += cell_w + cg
        traits[name] = tuple(cells)
        start = view.traits[name].start
        if 0 <= start < 8:
            bx0, _, bx1, by1 = cells[start + 1]
            marks[name] = ((bx0 + bx1) // 2, by1 + px(9))
        y += cell_h + px(22)
    y += px(4)
    notes: Box | None = None
    note_lines = list(view.notes)
    if note_lines:
        nh = px(24) * len(note_lines)
        notes = (m, y, width - m, y + nh)
        y += nh + px(10)
    cards_title: Box = (m, y, width - m, y + px(34))
    y = cards_title[3] + px(4)
    cols = 2 if width >= 560 else 1  # two columns of cards once they can hold ~40 characters
    col_gap = px(12)
    col_w = (width - 2 * m - (cols - 1) * col_gap) // cols
    text_f = font(px(15))
    pad = px(12)
    card_boxes: list[Box] = []
    card_lines: list[tuple[str, ...]] = []
    heights: list[int] = []
    for card in view.cards:
        lines = tuple(wrap_text(card.text, text_f, col_w - 2 * pad - px(6), max_lines=8))
        card_lines.append(lines)
        heights.append(pad + px(28) + px(6) + len(lines) * px(20) + pad)
    for row_start in range(0, len(view.cards), cols):
        row_h = max(heights[row_start:row_start + cols])
        for j in range(cols):
            if row_start + j >= len(view.cards):
                break
            x0 = m + j * (col_w + col_gap)
            card_boxes.append((x0, y, x0 + col_w, y + row_h))
        y += row_h + col_gap
    if not view.cards:
        y += px(30)
    height = y + m
    return SheetGeometry(width=width, height=height, scale=s, band=band, title=title,
                         traits=traits, labels=labels, start_marks=marks, notes=notes,
                         cards_title=cards_title, cards=tuple(card_boxes),
                         card_lines=tuple(card_lines))


def _draw_trait(img: Image.Image, draw: ImageDraw.ImageDraw, name: str, trait: TraitView,
                cells: tuple[Box, ...], label: Box, colour: Colour, s: float) -> None:
    lx0, ly0, _, ly1 = label
    cy = (ly0 + ly1) // 2
    f = font(_px(21, s), True)
    draw_text(draw, (lx0, cy - _px(8, s)), name.capitalize(), f, TEXT, anchor="lm", bold=True)
    value = trait.track[trait.index] if 0 <= trait.index < len(trait.track) else None
    sub = f"now {value}" if value is not None else "dead"
    draw_text(draw, (lx0, cy + _px(13, s)), sub, font(_px(15, s)),
              MUTED if value is not None else BARRIER, anchor="lm")
    radius = _px(8, s)
    for i, box in enumerate(cells):
        x0, y0, x1, y1 = box
        current = i - 1 == trait.index
        if i == 0:
            fill = BARRIER if current else SKULL_CELL
            rounded_box(img, box, radius, fill, outline=CELL_EDGE if not current else BARRIER,
                        width=1)
            d = min(x1 - x0, y1 - y0) - _px(16, s)
            _paste_glyph(img, "skull", ((x0 + x1 - d) // 2, (y0 + y1 - d) // 2), d)
            continue
        v = trait.track[i - 1] if i - 1 < len(trait.track) else None
        if current:
            rounded_box(img, box, radius, colour, outline=WHITE, width=max(2, _px(2, s)))
            ink = contrast_text(colour)
            vf = font(_px(27, s), True)
        else:
            rounded_box(img, box, radius, CELL, outline=CELL_EDGE, width=1)
            ink = TEXT if i - 1 >= trait.start else MUTED
            vf = font(_px(22, s), True)
        if v is not None:
            centered_text(draw, ((x0 + x1) // 2, (y0 + y1) // 2), str(v), vf, ink, bold=True)
    if 0 <= trait.start < 8:
        bx0, _, bx1, by1 = cells[trait.start + 1]
        cx = (bx0 + bx1) / 2
        h = _px(10, s)
        polygon(img, [(cx, by1 + _px(3, s)), (cx + h, by1 + _px(3, s) + h),
                      (cx - h, by1 + _px(3, s) + h)], ACCENT)


def _draw_card(img: Image.Image, draw: ImageDraw.ImageDraw, card: CardView, box: Box,
               lines: tuple[str, ...], s: float) -> None:
    x0, y0, x1, y1 = box
    kc = SYMBOL_COLOURS.get(card.kind, MUTED)
    rounded_box(img, box, _px(10, s), CARD_BG, outline=PANEL_EDGE, width=1)
    img.paste(kc, (x0 + 1, y0 + _px(10, s), x0 + 1 + _px(5, s), y1 - _px(10, s)))
    pad = _px(12, s)
    d = _px(24, s)
    top = y0 + pad
    x = x0 + pad + _px(4, s)
    if card.kind in SYMBOL_COLOURS:
        _paste_glyph(img, card.kind, (x, top + (_px(28, s) - d) // 2), d)
        x += d + _px(8, s)
    kf = font(_px(13, s), True)
    kind = card.kind.upper()
    kw = text_width(kf, kind)
    draw_text(draw, (x1 - pad, top + _px(14, s)), kind, kf, kc, anchor="rm", bold=True)
    nf, name = fit_text(card.name, x1 - pad - kw - _px(10, s) - x, _px(19, s),
                        min_size=_px(14, s), bold=True)
    draw_text(draw, (x, top + _px(14, s)), name, nf, TEXT, anchor="lm", bold=True)
    tf = font(_px(15, s))
    ty = top + _px(28, s) + _px(6, s)
    for line in lines:
        draw_text(draw, (x0 + pad + _px(4, s), ty + _px(10, s)), line, tf, MUTED, anchor="lm")
        ty += _px(20, s)


def render_sheet_image(view: SheetView, *, width: int = SHEET_WIDTH) -> Image.Image:
    geo = sheet_geometry(view, width)
    s = geo.scale
    colour = parse_colour(view.colour)
    img = Image.new("RGB", (geo.width, geo.height), BG)
    draw = ImageDraw.Draw(img)
    img.paste(colour, geo.band)
    tx0, ty0, tx1, _ = geo.title
    room_text = f"In the {view.room}" if view.room else ""
    rf = font(_px(17, s))
    room_w = min(text_width(rf, room_text), (tx1 - tx0) // 3) if room_text else 0
    disc(img, (tx0 + _px(20, s), ty0 + _px(24, s)), _px(18, s), colour, outline=TOKEN_EDGE,
         width=_px(2, s))
    nx = tx0 + _px(48, s)
    nf, name = fit_text(view.name, tx1 - nx - room_w - _px(16, s), _px(34, s),
                        min_size=_px(22, s), bold=True)
    draw_text(draw, (nx, ty0 + _px(24, s)), name, nf, TEXT, anchor="lm", bold=True)
    pf, player = fit_text(f"played by {view.player}", tx1 - nx, _px(18, s), min_size=_px(13, s))
    draw_text(draw, (nx, ty0 + _px(58, s)), player, pf, MUTED, anchor="lm")
    if room_text:
        rf2, rt = fit_text(room_text, room_w, _px(17, s), min_size=_px(12, s))
        draw_text(draw, (tx1, ty0 + _px(24, s)), rt, rf2, MUTED, anchor="rm")
    for name_key, cells in geo.traits.items():
        _draw_trait(img, draw, name_key, view.traits[name_key], cells, geo.labels[name_key],
                    colour, s)
    if geo.notes is not None:
        nf2 = font(_px(16, s))
        y = geo.notes[1]
        for note in view.notes:
            _, line = fit_text(note, geo.notes[2] - geo.notes[0], _px(16, s))
            draw_text(draw, (geo.notes[0], y + _px(12, s)), line, nf2, TEXT, anchor="lm")
            y += _px(24, s)
    cx0, cy0, cx1, cy1 = geo.cards_title
    tf = font(_px(21, s), True)
    draw_text(draw, (cx0, (cy0 + cy1) // 2), "Cards", tf, TEXT, anchor="lm", bold=True)
    draw_text(draw, (cx0 + text_width(tf, "Cards") + _px(10, s), (cy0 + cy1) // 2),
              f"{len(view.cards)} held" if view.cards else "none held", font(_px(16, s)), MUTED,
              anchor="lm")
    # Legend for the tracks, right-aligned on the cards title row.
    lf = font(_px(14, s))
    lx = cx1
    for text, swatch in (("start", "start"), ("now", "now")):
        lx -= text_width(lf, text)
        draw_text(draw, (lx, (cy0 + cy1) // 2), text, lf, MUTED, anchor="lm")
        lx -= _px(22, s)
        mid = (cy0 + cy1) // 2
        if swatch == "start":
            h = _px(8, s)
            polygon(img, [(lx + _px(8, s), mid - h), (lx + _px(8, s) + h, mid + h // 2),
                          (lx + _px(8, s) - h, mid + h // 2)], ACCENT)
        else:
            rounded_box(img, (lx, mid - _px(8, s), lx + _px(16, s), mid + _px(8, s)), _px(4, s),
                        colour)
        lx -= _px(14, s)
    for card, box, lines in zip(view.cards, geo.cards, geo.card_lines, strict=True):
        _draw_card(img, draw, card, box, lines, s)
    if not view.cards:
        draw_text(draw, (cx0, cy1 + _px(14, s)), "Nothing in hand yet.", font(_px(16, s)), DIM,
                  anchor="lm")
    return img


def render_sheet(view: SheetView, *, width: int = SHEET_WIDTH) -> bytes:
    """An explorer's sheet as PNG bytes: traits on their tracks and the cards held."""
    img = render_sheet_image(view, width=width)
    colours = (parse_colour(view.colour), *SHEET_FLAT)
    return to_png(img, palette=make_palette([img], exact=colours))
