"""Where everything on the map goes: panel arrangement, tile size and `MapGeometry`.

The map shows each floor (upper, ground, basement) as its own labelled panel, cropped
to the explored extent of that floor. The panels are arranged in a row, a column or a
2 + 1 split, whichever gives the biggest tiles while the image stays near a
preview-friendly shape (`_choose_layout`); tiles never go below `TILE_MIN` (scaled), the
image grows taller instead.

Geometry is computed once, in `map_geometry`, from arithmetic alone; the renderer draws
from that object, so tests see exactly what was drawn where.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.games.betrayal.pictures import FLOORS, ExplorerView, MapView, MonsterView
from renderers import budgets
from renderers.betrayal.explorers import (
    groups_of,
    place_figures,
    roster_chips,
    strip_room_of,
)
from renderers.betrayal.fonts import (  # noqa: F401
    FOOTER_FONT,
    HEADER_FONT,
    PANEL_TITLE_FONT,
    PROGRESS_FONT,
    TILE_FONT,
)
from renderers.betrayal.geometry import MapGeometry
from renderers.betrayal.palette import px
from renderers.betrayal.tiles import LinkLetters, link_letters, strip_rows_of, tile_parts
from renderers.common import Box, Point, font, font_signature, text_width

BASE_WIDTH = 1200  # the width the frame sizes below are given at

# Frame sizes at BASE_WIDTH, scaled by width / BASE_WIDTH. Tile internals scale with the
# tile size instead (see `tile_parts`).
MARGIN = 16
HEADER_H = 52
ROSTER_H = 44
ROSTER_GAP = 8
PANEL_GAP = 14
PANEL_TITLE_H = 38
PANEL_PAD = 10
PANEL_MIN_W = 190
FOOTER_ROW_H = 36
TILE_MAX = 180  # tiles never get bigger than this (a 1-tile floor would look silly)
TILE_MIN = 128  # nor smaller: TILE_FONT text leaves its figures room; the image grows taller
TILE_LEGIBLE = 64  # TILE_MIN never scales below this many pixels (narrow renders)
GAP_RATIO = 0.13  # the space between tiles, where passages are drawn, per tile size
# Tiles come in TILE_STEPS + 1 sizes from TILE_MIN to TILE_MAX (scaled), ~6 % apart:
# the biggest that fits is used. Every house of one size shares its tiles' pieces with
# every other game (renderers.canvas), where a size fitted to the pixel would give each
# house its own; a tile is at most one step smaller than the exact fit.
TILE_STEPS = 12
PROGRESS_ROWS = 2  # the haunt's progress takes at most this many footer rows
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


def _gap(t: int) -> int:
    return max(4, round(t * GAP_RATIO))


def _extents(view: MapView) -> dict[str, tuple[int, int, int, int] | None]:
    """Each floor's explored extent in grid cells (tiles, and any explorer or monster
    standing off a tile so that they are still drawn); None for a floor with nothing on
    it."""
    cells: dict[str, list[tuple[int, int]]] = {f: [] for f in FLOORS}
    for tile in view.tiles:
        if tile.floor in cells:
            cells[tile.floor].append((tile.x, tile.y))
    figures: tuple[ExplorerView | MonsterView, ...] = (*view.explorers, *view.monsters)
    for figure in figures:
        if figure.floor in cells:
            cells[figure.floor].append((figure.x, figure.y))
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
    rows = 1 + bool(view.footer.strip()) + len(progress_lines(view, width))
    return _Frame(
        s=s, margin=px(MARGIN, s), header_h=px(HEADER_H, s),
        roster_h=px(ROSTER_H + ROSTER_GAP, s) if view.explorers else 0,
        footer_h=px(FOOTER_ROW_H, s) * rows + px(6, s), panel_gap=px(PANEL_GAP, s),
        title_h=px(PANEL_TITLE_H, s), pad=px(PANEL_PAD, s), min_panel_w=px(PANEL_MIN_W, s),
    )


@budgets.small(budgets.LAYOUTS)
def _progress_lines(parts: tuple[str, ...], room: int, size: int,
                    fonts: tuple[object, ...]) -> tuple[str, ...]:
    """`progress_lines` for these parts (`fonts` only keys the cache)."""
    f = font(size, True)
    lines: list[str] = []
    for part in parts:
        joined = f"{lines[-1]} · {part}" if lines else part
        if lines and (len(lines) == PROGRESS_ROWS or text_width(f, joined) <= room):
            lines[-1] = joined  # the last row takes the rest (and is cut when drawn)
        else:
            lines.append(part)
    return tuple(lines)


def progress_lines(view: MapView, width: int) -> tuple[str, ...]:
    """The haunt's progress as the map's rows show it: its parts joined by " · ", a new
    row begun where the next part would not fit at PROGRESS_FONT, at most PROGRESS_ROWS
    (the last cut if need be)."""
    if not view.progress:
        return ()
    s = width / BASE_WIDTH
    return _progress_lines(tuple(view.progress), width - 2 * px(MARGIN, s),
                           px(PROGRESS_FONT, s), font_signature())


def _panel_size(cells: tuple[int, int], t: int, fr: _Frame) -> tuple[int, int]:
    cols, rows = cells
    g = _gap(t)
    pad = max(fr.pad, round(g * 0.8))
    w = cols * t + (cols - 1) * g + 2 * pad
    h = fr.title_h + _top_pad(g, fr) + rows * t + (rows - 1) * g + pad
    return max(w, fr.min_panel_w), h


def _top_pad(g: int, fr: _Frame) -> int:
    """Space between a panel's title and its grid: room for door stubs pointing north."""
    return round(g * 0.5) + px(8, fr.s)


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


def _choose_layout(cells: dict[str, tuple[int, int]], width: int, fr: _Frame,
                   shown: tuple[str, ...] = FLOORS) -> tuple[str, Node, int]:
    """The arrangement and tile size to draw with (cached: it only changes when a floor's
    extent does)."""
    return _choose_layout_cached(tuple(cells[f] for f in FLOORS), width, fr, shown)


def shown_floors(extents: dict[str, tuple[int, int, int, int] | None]) -> tuple[str, ...]:
    """The floors that get a panel: those with something on them, as the chat board
    draws them (a house torn onto one floor, Separate Nightmares', shows one panel,
    not two empty ones); every floor if nothing is anywhere."""
    found = tuple(f for f in FLOORS if extents.get(f) is not None)
    return found or FLOORS


def _pruned(node: Node, shown: tuple[str, ...]) -> Node | None:
    """The arrangement with the floors not shown left out (a split left with one
    child is that child)."""
    if isinstance(node, str):
        return node if node in shown else None
    kind, *children = node
    kept = [c for c in (_pruned(child, shown) for child in children) if c is not None]
    if not kept:
        return None
    return kept[0] if len(kept) == 1 else (kind, *kept)


def arrangements(shown: tuple[str, ...]) -> list[tuple[str, Node]]:
    """ARRANGEMENTS for the floors shown, each distinct one once (first name kept)."""
    found: list[tuple[str, Node]] = []
    for name, node in ARRANGEMENTS:
        cut = _pruned(node, shown)
        if cut is not None and all(cut != other for _, other in found):
            found.append((name, cut))
    return found


# Every channel's house grows its own way: room for the extents of a few hundred.
@budgets.small(budgets.LAYOUTS)
def _choose_layout_cached(extents: tuple[tuple[int, int], ...], width: int,
                          fr: _Frame, shown: tuple[str, ...] = FLOORS,
                          ) -> tuple[str, Node, int]:
    """The arrangement and tile size to draw with.

    Per arrangement: the biggest tile (<= TILE_MAX) that fits the width, shrunk so the
    image stays within PREVIEW_ASPECT, but never below TILE_MIN (the image grows taller
    instead). The winner shows the biggest tiles once a chat preview has scaled the
    image to fit width x PREVIEW_ASPECT*width; ties go to the shorter image.
    """
    cells = dict(zip(FLOORS, extents, strict=True))
    inner_w = width - 2 * fr.margin
    box_h = PREVIEW_ASPECT * width
    t_max = px(TILE_MAX, fr.s)
    t_min = min(t_max, max(px(TILE_MIN, fr.s), TILE_LEGIBLE))
    sizes = tile_sizes(t_min, t_max)

    panels: dict[int, dict[str, tuple[int, int]]] = {}  # t -> floor -> panel size

    def size(node: Node, t: int) -> tuple[int, int]:
        if t not in panels:
            panels[t] = {f: _panel_size(cells[f], t, fr) for f in FLOORS}
        return _node_size(node, panels[t], fr.panel_gap)

    def largest(options: Sequence[int], ok: Callable[[int], bool]) -> int | None:
        """The biggest of the (ascending) options with ok(t), for ok true up to some t
        and false after."""
        lo, hi = 0, len(options) - 1
        if hi < 0 or not ok(options[0]):
            return None
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if ok(options[mid]):
                lo = mid
            else:
                hi = mid - 1
        return options[lo]

    def widest(node: Node) -> int | None:
        """The biggest tile size at which `node` fits the width."""
        return largest(sizes, lambda t: size(node, t)[0] <= inner_w)

    def tallest(node: Node, t_w: int) -> int | None:
        """The biggest tile size up to `t_w` at which `node` keeps within the preview."""
        return largest([t for t in sizes if t <= t_w],
                       lambda t: fr.fixed_h + size(node, t)[1] <= box_h)

    best: tuple[float, int, int] | None = None
    choice: tuple[str, Node, int] | None = None
    options = arrangements(shown)
    for index, (name, node) in enumerate(options):
        t_w = widest(node)
        if t_w is None:
            continue
        t_h = tallest(node, t_w)
        t = t_h if t_h is not None else t_min
        h = fr.fixed_h + size(node, t)[1]
        score = (t * min(1.0, box_h / h), -h, -index)
        if best is None or score > best:
            best, choice = score, (name, node, t)
    if choice is None:  # floors too wide for TILE_MIN: stack them, as big as fits
        node = _pruned(ARRANGEMENTS[1][1], shown) or ARRANGEMENTS[1][1]
        name = next(n for n, o in options if o == node)
        t = largest(range(8, t_max + 1), lambda t: size(node, t)[0] <= inner_w) or 8
        choice = (name, node, t)
    return choice


@budgets.small(budgets.LAYOUTS)
def tile_sizes(t_min: int, t_max: int) -> tuple[int, ...]:
    """The tile sizes a map may use, ascending: TILE_STEPS even ratios from t_min up."""
    if t_max <= t_min:
        return (t_max,)
    ratio = t_max / t_min
    return tuple(sorted({round(t_min * ratio ** (i / TILE_STEPS))
                         for i in range(TILE_STEPS + 1)}))


def map_geometry(view: MapView, width: int = BASE_WIDTH, *,
                 links: LinkLetters | None = None) -> MapGeometry:
    """Lay the map out for `width`; the height follows from the house. `links` are the
    view's `link_letters` where the caller worked them out already (a render does, once
    for all it draws); else they are worked out here."""
    width = int(width)
    fr = _frame(view, width)
    s = fr.s
    extents = _extents(view)
    cells = {f: _cells(extents[f]) for f in FLOORS}
    shown = shown_floors(extents)
    name, node, t = _choose_layout(cells, width, fr, shown)
    g = _gap(t)
    sizes = {f: _panel_size(cells[f], t, fr) for f in FLOORS}
    body_w, body_h = _node_size(node, sizes, fr.panel_gap)
    inner_w = width - 2 * fr.margin

    y = fr.margin // 2
    header: Box = (fr.margin, y, width - fr.margin, y + fr.header_h)
    y = header[3]
    roster: Box = (fr.margin, y, width - fr.margin, y + fr.roster_h - px(ROSTER_GAP, s)
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
    for f in shown:
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

    tf = tile_font(width)
    parts = tile_parts(t, tf)
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

    groups = groups_of(view)
    links = link_letters(view) if links is None else links
    strip_rows = strip_rows_of(view, links, t, groups, tf)
    placed = place_figures(groups, lambda cell: cell_box(*cell)[:2], strip_rows, t, tf,
                           strip_room_of(view, links, t, groups, tf))
    tokens, radius, ring = placed.tokens, placed.radius, placed.ring
    monsters, monster_radius = placed.monsters, placed.monster_radius
    chips = roster_chips(view.explorers, roster, px(8, s), px(300, s))

    row_h = px(FOOTER_ROW_H, s)
    fy = footer[1] + px(6, s) + row_h // 2
    label_w = text_width(font(px(FOOTER_FONT, s), True), view.track.label)
    step = px(24, s)
    ox = footer[0] + label_w + px(12, s) + step // 2
    # At least one point: the track's label and note are placed from it.
    omen_track = tuple((ox + i * step, fy) for i in range(max(1, view.track.marks)))
    footer_text: Box | None = None
    progress_text: Box | None = None
    ft_y = footer[1] + px(6, s) + row_h
    lines = progress_lines(view, width)
    if lines:
        progress_text = (footer[0], ft_y, footer[2], ft_y + row_h * len(lines))
        ft_y += row_h * len(lines)
    if view.footer.strip():
        footer_text = (footer[0], ft_y, footer[2], ft_y + row_h)

    return MapGeometry(
        width=width, height=height, scale=s, tile=t, gap=g, arrangement=name, header=header,
        roster=roster, footer=footer, panels=panels, grids=grids,
        extents={f: e for f, e in extents.items() if e is not None}, tiles=tiles,
        sides=sides, tokens=tokens, token_radius=radius, ring_radius=ring,
        roster_chips=chips, omen_track=omen_track, footer_text=footer_text,
        progress_text=progress_text, progress=lines,
        track_widest=view.track.widest or view.track.note,
        monsters=monsters, monster_radius=monster_radius, tile_font=tf,
    )


def tile_font(width: int) -> int:
    """The smallest text inside a tile for an image `width` wide: TILE_FONT scaled."""
    return px(TILE_FONT, width / BASE_WIDTH)
