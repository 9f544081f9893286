"""The house as the chat shows it: one fixed landscape canvas for the whole game.

Discord shows an image inline inside about 550 x 350 px, so the board is BOARD_W x
BOARD_H (the same ratio, twice the size) on every edit and the live message never
jumps. The floor in play (the mover's, else where the last action happened) is drawn
large on the left, a window of at most the cells that fit at the smallest legible tile
round the place in play; the right column holds one small overview per floor, always in
the same slot, schematic (room outlines, explorer dots in their colours, the roster
names them; a room too small for its dots to read has them on a chip beside it, see
`renderers.betrayal.overview`), with the large panel's window framed; a floor nothing
was explored on draws no overview. Under the overviews the legend names every marker
the large panel shows. The whole house at full size stays `render_map` (`/game map`,
"Whole house").

Everything is placed once, in `board_geometry`, from arithmetic alone, so the tests
read exactly what was drawn where (legibility as displayed, tokens uncovered).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw, ImageFont

from bot.games.betrayal.pictures import FLOORS, ExplorerView, MapView, MonsterView, TileView
from bot.games.betrayal.shown import map_view
from renderers import budgets
from renderers.betrayal.explorers import (
    draw_figures,
    draw_roster,
    groups_of,
    monster_disc,
    place_figures,
    roster_chips,
    stand_ins,
    strip_room_of,
    token_mark,
    with_stand_ins,
)
from renderers.betrayal.fonts import FOOTER_FONT, PANEL_TITLE_FONT, SMALLEST_FONT
from renderers.betrayal.glyphs import paste_glyph
from renderers.betrayal.layout import (
    FOOTER_ROW_H,
    HEADER_H,
    MARGIN,
    PANEL_GAP,
    PANEL_PAD,
    PANEL_TITLE_H,
    ROSTER_GAP,
    ROSTER_H,
    TILE_MAX,
    TILE_MIN,
    MapGeometry,
    progress_lines,
    tile_font,
    tile_sizes,
)
from renderers.betrayal.map import (
    LegendEntry,
    draw_changes,
    draw_footer,
    draw_header,
    framed,
    map_ink,
)
from renderers.betrayal.overview import (
    CHIP,
    Cell,
    Item,
    Kind,
    MonsterMark,
    Pin,
    Summary,
    count_text,
    draw_chip,
    light_room,
    place_marks,
)
from renderers.betrayal.palette import (
    BARRIER,
    BG,
    FLOOR_FILL,
    FRESH,
    GOLD,
    LINK,
    MONSTER,
    MONSTER_EDGE,
    MUTED,
    PANEL,
    PANEL_EDGE,
    START_FILL,
    SYMBOL_COLOURS,
    TEXT,
    TRAIL,
    glyph_mark,
    px,
    token_colour,
    token_label,
)
from renderers.betrayal.tiles import (
    LinkLetters,
    draw_passages,
    haunt_square,
    link_letters,
    pile_badge,
    strip_layout,
    strip_rows_of,
    tile_look,
    tile_parts,
    tile_sprite,
)
from renderers.betrayal.words import floor_title, word
from renderers.canvas import Canvas, Sprite, pieces
from renderers.common import (
    Box,
    Colour,
    Font,
    Point,
    centered_text,
    disc,
    draw_text,
    fit_text,
    font,
    font_signature,
    text_width,
)

if TYPE_CHECKING:
    from bot.games.betrayal.state import BetrayalState

BOARD_W, BOARD_H = 1100, 700  # 550:350, Discord's inline box, at twice its size
SHOWN_W, SHOWN_H = 550, 350  # what the chat shows it at
SHOWN_SCALE = min(SHOWN_W / BOARD_W, SHOWN_H / BOARD_H)
READ_SHOWN_PX = 9  # no text a player needs is smaller than this as displayed
SIDE_W = 330  # the overview column, at BOARD_W
FOOTER_ROWS = 3  # the track row and up to two rows of the haunt's progress or note
LEGEND_ROW_H = 28  # at the base width, like the frame sizes
OVERVIEW_TITLE_H = 26
LEGEND_ROWS = 6  # the legend's fixed height, in rows
OVERVIEW_CELL_MAX = 34  # a room in an overview is never bigger (a floor of one room)



@dataclass(frozen=True)
class BoardGeometry:
    """Where everything on the chat board is drawn, in image pixels."""

    map: MapGeometry  # the large panel's tiles, tokens and the frame, as the map draws them
    focus: str  # the floor drawn large
    window: tuple[int, int, int, int]  # its grid cells shown: x0, y0, x1, y1 (incl.)
    main: Box  # the large panel
    slots: dict[str, Box]  # floor -> its overview's fixed slot
    overviews: dict[str, Box]  # floor -> its overview panel (explored floors only)
    rooms: dict[str, Box]  # tile key -> its outline in an overview
    dots: dict[int, Box]  # seat -> its dot's box in an overview
    monster_marks: tuple[MonsterMark, ...]  # a disc per kind per room (or floor), in overviews
    pins: tuple[Pin, ...]  # rooms too small for their marks: the chips beside them
    summaries: tuple[Summary, ...]  # floors whose monsters are summed up by kind
    frame: Box | None  # the large panel's window, outlined on its floor's overview
    legend: tuple[tuple[LegendEntry, Box], ...]  # each entry and where it is written
    texts: tuple[tuple[str, float], ...]  # (what, px) of every text drawn, for the tests
    main_view: MapView  # the view the large panel's figures are drawn from
    # floor -> its overview's title as `overview_title_of` gives it (worked out once: the
    # chips keep clear of it and the overview writes it)
    titles: dict[str, tuple[Font, str, Point, Box]] = field(default_factory=dict)

    @property
    def width(self) -> int:
        return self.map.width

    @property
    def height(self) -> int:
        return self.map.height


def focus_floor(view: MapView) -> tuple[str, tuple[int, int]]:
    """The floor and cell in play: the mover's, else the room just placed, else the
    last room walked, else the explorer to act, else the ground floor's first room."""
    by_seat = {ex.seat: ex for ex in view.explorers}
    tiles = {t.key: t for t in view.tiles}
    mover = by_seat.get(view.mover) if view.mover is not None else None
    if mover is not None and mover.floor in FLOORS:
        return mover.floor, (mover.x, mover.y)
    for key in (view.placed, *reversed(view.walked)):
        if key in tiles:
            return tiles[key].floor, (tiles[key].x, tiles[key].y)
    for ex in view.explorers:
        if ex.acting and ex.floor in FLOORS:
            return ex.floor, (ex.x, ex.y)
    for floor in ("ground", *FLOORS):
        on = [t for t in view.tiles if t.floor == floor]
        if on:
            return floor, (on[0].x, on[0].y)
    return "ground", (0, 0)


def _cells_by_floor(view: MapView) -> dict[str, list[tuple[int, int]]]:
    """Floor -> the cells its rooms and figures stand in (rooms first), every floor's
    found in one pass over the view."""
    out: dict[str, list[tuple[int, int]]] = {}
    for t in view.tiles:
        out.setdefault(t.floor, []).append((t.x, t.y))
    figures: tuple[ExplorerView | MonsterView, ...] = (*view.explorers, *view.monsters)
    for f in figures:
        out.setdefault(f.floor, []).append((f.x, f.y))
    return out


def _compact(cells: list[tuple[int, int]]) -> tuple[dict[int, int], dict[int, int]]:
    """Each occupied column and row's place once the empty ones between are left out:
    a house torn apart (Separate Nightmares) draws its rooms side by side instead of
    scattered over an empty panel. A connected floor has no empty column or row
    between its rooms, so it is drawn as it lies."""
    xs = sorted({c[0] for c in cells})
    ys = sorted({c[1] for c in cells})
    return {x: i for i, x in enumerate(xs)}, {y: i for i, y in enumerate(ys)}


def _span(lo: int, hi: int, at: int, n: int) -> tuple[int, int]:
    """n consecutive cells of lo..hi round `at` (all of them if there are no more)."""
    if hi - lo + 1 <= n:
        return lo, hi
    start = min(max(lo, at - (n - 1) // 2), hi - n + 1)
    return start, start + n - 1


@budgets.small(budgets.LAYOUTS)
def _fit(cols: int, rows: int, w: int, h: int, t_min: int, t_max: int,
         title: int, pad: int, s: float) -> tuple[int, int, int]:
    """The biggest tile size for a cols x rows grid in a w x h panel (TILE_MIN at
    least: the window shrinks instead), and how many cells fit at it each way."""
    def need(t: int, c: int, r: int) -> tuple[int, int]:
        g = max(4, round(t * 0.13))
        p = max(pad, round(g * 0.8))
        top = round(g * 0.5) + px(8, s)
        return c * t + (c - 1) * g + 2 * p, title + top + r * t + (r - 1) * g + p

    best = t_min
    for t in tile_sizes(t_min, t_max):
        nw, nh = need(t, cols, rows)
        if nw <= w and nh <= h:
            best = t
    c_fit = max(c for c in range(1, 40) if c == 1 or need(best, c, 1)[0] <= w)
    r_fit = max(r for r in range(1, 40) if r == 1 or need(best, 1, r)[1] <= h)
    return best, min(cols, c_fit), min(rows, r_fit)


def _window_view(view: MapView, floor: str, window: tuple[int, int, int, int]) -> MapView:
    """The view cut to the large panel's window: its tiles and the figures in it."""
    x0, y0, x1, y1 = window

    def inside(f: str, x: int, y: int) -> bool:
        return f == floor and x0 <= x <= x1 and y0 <= y <= y1

    return replace(view, tiles=tuple(t for t in view.tiles if inside(t.floor, t.x, t.y)),
                   explorers=tuple(e for e in view.explorers if inside(e.floor, e.x, e.y)),
                   monsters=tuple(m for m in view.monsters if inside(m.floor, m.x, m.y)))


def _legend_entries(view: MapView, shown: MapView, links: LinkLetters, t: int, tf: int,
                    marked: tuple[MonsterMark, ...], summed: bool) -> tuple[LegendEntry, ...]:
    """Every marker the board draws, each once: the haunt's monsters (in the large panel
    and the overviews' `marked` kinds) and tokens, the room tokens shown by their code,
    the link letters (`links`), "+n", the card symbols, the item pile, the barrier, this
    turn's outlines, and the overviews' rooms filled for a floor's monsters `summed` up."""
    out: dict[LegendEntry, None] = {}
    for m in shown.monsters:
        out[("monster", glyph_mark(m.glyph, m.name), m.name)] = None
    for mark in marked:
        out[("monster", mark.kind.letter, mark.kind.name)] = None
    flags: set[str] = set()
    for tile in shown.tiles:
        for glyph, name in tile.haunt_tokens:
            out[("haunt", glyph_mark(glyph, name), name)] = None
        placed, _ = strip_layout(tile_look(tile, links), t, tf)
        for what, text, *_ in placed:
            if what.startswith("token:") and text != token_label(what[6:]):
                out[(what, text, token_label(what[6:]))] = None
            elif what in ("link", "more", "pile"):
                flags.add(what)
            elif what == "symbol":
                flags.add(text)
        if tile.barrier:
            flags.add("barrier")
    keys = {t.key for t in shown.tiles}
    if any(k in keys for k in view.walked):
        flags.add("walked")
    if view.placed in keys:
        flags.add("placed")
    if summed:
        flags.add("monster_mark")
    for kind in ("omen", "event", "item", "pile", "link", "more", "barrier", "walked",
                 "placed", "monster_mark"):
        if kind in flags:
            out[(kind, "", word(f"legend.{kind}"))] = None
    return tuple(out)


def board_geometry(view: MapView, *, links: LinkLetters | None = None) -> BoardGeometry:
    """Lay the chat board out: the frame at BOARD_W's scale, the large panel's window
    round the place in play, the overview slots, the legend. `links` are the view's
    `link_letters` where the caller worked them out already (`compose_board` does, once
    for all it draws); else they are worked out here."""
    if links is None:
        links = link_letters(view)
    w, h = BOARD_W, BOARD_H
    s = w / 1200
    margin, gap = px(MARGIN, s), px(PANEL_GAP, s)
    tf = tile_font(w)
    header: Box = (margin, margin // 2, w - margin, margin // 2 + px(HEADER_H, s))
    roster_h = px(ROSTER_H, s)
    roster: Box = (margin, header[3] + px(4, s), w - margin, header[3] + px(4, s) + roster_h)
    row_h = px(FOOTER_ROW_H, s)
    footer_h = row_h * FOOTER_ROWS + px(6, s)
    footer: Box = (margin, h - margin // 2 - footer_h, w - margin, h - margin // 2)
    body: Box = (margin, roster[3] + px(ROSTER_GAP, s), w - margin, footer[1] - gap // 2)
    side_w = SIDE_W
    main: Box = (body[0], body[1], body[2] - side_w - gap, body[3])
    side: Box = (main[2] + gap, body[1], body[2], body[3])

    # The large panel: a window round the place in play, as big as fits.
    floor, (fx, fy) = focus_floor(view)
    floor_cells = _cells_by_floor(view)
    cells = floor_cells.get(floor) or [(fx, fy)]
    xi, yi = _compact(cells)
    xs, ys = sorted(xi), sorted(yi)
    title_h, pad = px(PANEL_TITLE_H, s), px(PANEL_PAD, s)
    t_min, t_max = px(TILE_MIN, s), px(TILE_MAX, s)
    t, cols, rows = _fit(len(xs), len(ys), main[2] - main[0], main[3] - main[1],
                         t_min, t_max, title_h, pad, s)
    cx0, cx1 = _span(0, len(xs) - 1, xi[fx], cols)
    cy0, cy1 = _span(0, len(ys) - 1, yi[fy], rows)
    cols, rows = cx1 - cx0 + 1, cy1 - cy0 + 1
    wx0, wx1, wy0, wy1 = xs[cx0], xs[cx1], ys[cy0], ys[cy1]
    window = (wx0, wy0, wx1, wy1)
    shown = _window_view(view, floor, window)
    stand = stand_ins(shown, view, t, tf, links)
    if stand:  # a crowd's Chinese marks, as capitals the legend names (`stand_ins`)
        view, shown = with_stand_ins(view, stand), with_stand_ins(shown, stand)
    g = max(4, round(t * 0.13))
    gw, gh = cols * t + (cols - 1) * g, rows * t + (rows - 1) * g
    top = main[1] + title_h + round(g * 0.5) + px(8, s)
    gx0 = main[0] + (main[2] - main[0] - gw) // 2
    gy0 = top + max(0, (main[3] - max(pad, round(g * 0.8)) - top - gh) // 2)
    grid: Box = (gx0, gy0, gx0 + gw, gy0 + gh)

    def cell_box(x: int, y: int) -> Box:
        x0, y0 = gx0 + (xi[x] - cx0) * (t + g), gy0 + (yi[y] - cy0) * (t + g)
        return (x0, y0, x0 + t, y0 + t)

    parts = tile_parts(t, tf)
    wall = parts.wall
    tiles: dict[str, Box] = {}
    sides: dict[str, dict[str, Point]] = {}
    for tile in shown.tiles:
        box = cell_box(tile.x, tile.y)
        tiles[tile.key] = box
        x0, y0, x1, y1 = box
        cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
        sides[tile.key] = {"N": (cx, y0 + wall // 2), "S": (cx, y1 - 1 - wall // 2),
                           "W": (x0 + wall // 2, cy), "E": (x1 - 1 - wall // 2, cy)}
    groups = groups_of(shown)
    strip_rows = strip_rows_of(shown, links, t, groups, tf)
    placed = place_figures(groups, lambda cell: cell_box(cell[1], cell[2])[:2], strip_rows, t, tf,
                           strip_room_of(shown, links, t, groups, tf))
    tokens, radius, ring = placed.tokens, placed.radius, placed.ring
    monsters, monster_radius = placed.monsters, placed.monster_radius
    chips = roster_chips(view.explorers, roster, px(8, s), px(300, s))

    fy = footer[1] + px(6, s) + row_h // 2
    label_w = text_width(font(px(FOOTER_FONT, s), True), view.track.label)
    step = px(24, s)
    ox = footer[0] + label_w + px(12, s) + step // 2
    omen_track = tuple((ox + i * step, fy) for i in range(max(1, view.track.marks)))
    lines = progress_lines(view, w)[:FOOTER_ROWS - 1]
    ft_y = footer[1] + px(6, s) + row_h
    progress_text = (footer[0], ft_y, footer[2], ft_y + row_h * len(lines)) if lines else None
    ft_y += row_h * len(lines)
    footer_text = (footer[0], ft_y, footer[2], ft_y + row_h) \
        if view.footer.strip() and len(lines) < FOOTER_ROWS - 1 else None

    geo = MapGeometry(
        width=w, height=h, scale=s, tile=t, gap=g, arrangement="board", header=header,
        roster=roster, footer=footer, panels={floor: main}, grids={floor: grid},
        extents={floor: window}, tiles=tiles, sides=sides, tokens=tokens,
        token_radius=radius, ring_radius=ring, roster_chips=chips, omen_track=omen_track,
        footer_text=footer_text, progress_text=progress_text, progress=lines,
        track_widest=view.track.widest or view.track.note, monsters=monsters,
        monster_radius=monster_radius, tile_font=tf,
    )

    size = px(SMALLEST_FONT, s)
    lrow = px(LEGEND_ROW_H, s)

    # One slot per floor, in FLOORS order, over the legend; explored floors only drawn.
    room = side[3] - LEGEND_ROWS * lrow - px(6, s) - side[1]
    slot_h = (room - 2 * px(6, s)) // len(FLOORS)
    slots = {f: (side[0], side[1] + i * (slot_h + px(6, s)), side[2],
                 side[1] + i * (slot_h + px(6, s)) + slot_h) for i, f in enumerate(FLOORS)}
    overviews: dict[str, Box] = {}
    rooms: dict[str, Box] = {}
    dots: dict[int, Box] = {}
    marks: list[MonsterMark] = []
    pins: list[Pin] = []
    summaries: list[Summary] = []
    frame: Box | None = None
    titles: dict[str, tuple[Font, str, Point, Box]] = {}
    by_seat = sorted(view.explorers, key=lambda e: e.seat)
    by_id = sorted(view.monsters, key=lambda m: m.id)
    for f in FLOORS:
        on = floor_cells.get(f)
        if not on:
            continue
        overviews[f] = slots[f]
        x0, y0, x1, y1 = slots[f]
        oxi, oyi = _compact(on)
        inner = (x0 + px(8, s), y0 + px(OVERVIEW_TITLE_H, s), x1 - px(8, s),
                 y1 - px(6, s))
        ncols, nrows = len(oxi), len(oyi)
        c = max(4, min((inner[2] - inner[0]) // ncols, (inner[3] - inner[1]) // nrows,
                       px(OVERVIEW_CELL_MAX, s)))
        bx = inner[0] + (inner[2] - inner[0] - c * ncols) // 2
        by = inner[1] + (inner[3] - inner[1] - c * nrows) // 2

        def obox(x: int, y: int, bx: int = bx, by: int = by, c: int = c,
                 oxi: dict[int, int] = oxi, oyi: dict[int, int] = oyi) -> Box:
            return (bx + oxi[x] * c, by + oyi[y] * c, bx + (oxi[x] + 1) * c,
                    by + (oyi[y] + 1) * c)

        floor_rooms: list[Box] = []
        for tile in view.tiles:
            if tile.floor == f:
                rooms[tile.key] = outline = obox(tile.x, tile.y)
                floor_rooms.append(outline)
        # Per cell, its explorers then each kind of monster there: marked inside the
        # room, or on a chip beside it (renderers.betrayal.overview).
        here: dict[tuple[int, int], list[Item]] = {}
        for ex in by_seat:
            if ex.floor == f:
                here.setdefault((ex.x, ex.y), []).append(ex.seat)
        counts: dict[tuple[int, int], dict[tuple[str, str], int]] = {}
        for m in by_id:
            if m.floor == f:
                kinds = counts.setdefault((m.x, m.y), {})
                key = (m.name, glyph_mark(m.glyph, m.name))
                kinds[key] = kinds.get(key, 0) + 1
        for cell, kinds in counts.items():
            here.setdefault(cell, []).extend(Kind(name, letter, n)
                                             for (name, letter), n in kinds.items())
        edge = px(4, s)
        area = (x0 + edge, y0 + edge, x1 - edge, y1 - edge)  # inside the panel's border
        titles[f] = overview_title_of(view, f, slots[f], s, len(floor_rooms))
        title_box = titles[f][3]

        def room_of(cell: Cell, obox: Callable[[int, int], Box] = obox) -> Box:
            return obox(*cell)

        placed_marks = place_marks(here, room_of, c, area, [title_box], floor_rooms, s)
        dots.update(placed_marks.dots)
        marks.extend(placed_marks.monsters)
        pins.extend(placed_marks.pins)
        if placed_marks.summary is not None:
            summaries.append(placed_marks.summary)
        if f == floor:
            a, b = obox(wx0, wy0), obox(wx1, wy1)
            frame = (a[0], a[1], b[2], b[3])

    entries = _legend_entries(view, shown, links, t, tf, tuple(marks), bool(summaries))
    legend = _legend_layout(entries, side, lrow, s)

    title = px(PANEL_TITLE_FONT, s)
    texts: list[tuple[str, float]] = [("overview_title", size), ("panel_title", title),
                                      ("tile", tf)]
    if marks:  # an overview's monster letter, and its count (SMALLEST_FONT, as drawn)
        texts.append(("overview_monster_letter", _overview_letter(s)))
    if any(mark.count_box for mark in marks):
        texts.append(("overview_monster_count", size))
    for entry, (lx0, _, lx1, _) in legend:
        words_font = _legend_words(entry, lx1 - lx0 - px(6, s), s)[1]
        assert isinstance(words_font, ImageFont.FreeTypeFont)  # `font` makes FreeType's
        texts.append((f"legend {entry[2]}", words_font.size))
        if entry[1]:
            texts.append((f"legend_mark {entry[1]}", size))
    return BoardGeometry(map=geo, focus=floor, window=window, main=main, slots=slots,
                         overviews=overviews, rooms=rooms, dots=dots,
                         monster_marks=tuple(marks), pins=tuple(pins),
                         summaries=tuple(summaries), frame=frame,
                         legend=legend, texts=tuple(texts), main_view=shown, titles=titles)


def _draw_main(canvas: Canvas, view: MapView, bg: BoardGeometry, links: LinkLetters) -> None:
    """The large panel: its frame and title, the window's passages and tiles (with their
    `links`' letters)."""
    geo, s = bg.map, bg.map.scale
    fonts = font_signature()
    x0, y0, x1, _ = bg.main
    framed(canvas, bg.main, px(10, s), PANEL, PANEL_EDGE, max(1, px(2, s)), BG)
    title_f = font(px(PANEL_TITLE_FONT, s), True)
    ty = y0 + px(PANEL_TITLE_H, s) // 2 + px(2, s)
    tx = x0 + px(14, s)
    title = floor_title(bg.focus)
    canvas.text((tx, ty), title, title_f, TEXT, on=PANEL, anchor="lm", bold=True)
    n = sum(1 for t in view.tiles if t.floor == bg.focus)
    shown = len(bg.main_view.tiles)
    note = word("rooms_shown", n=n, shown=shown) if shown < n else word("rooms", n=n)
    fc, text = fit_text(note, x1 - tx - text_width(title_f, title) - px(24, s),
                        px(SMALLEST_FONT, s), min_size=px(SMALLEST_FONT, s))
    canvas.text((tx + text_width(title_f, title) + px(10, s), ty), text, fc, MUTED, on=PANEL,
                anchor="lm")
    tiles = tuple((t.key, tile_look(t, links), geo.tiles[t.key], t.x, t.y)
                  for t in bg.main_view.tiles)
    draw_passages(canvas, tiles, geo.tile, geo.gap)
    for _, look, box, _, _ in tiles:
        canvas.put(box[:2], tile_sprite(canvas.ink, look, geo.tile, geo.tile_font, fonts))


def overview_title_of(view: MapView, floor: str, box: Box, s: float, n: int | None = None
                    ) -> tuple[Font, str, Point, Box]:
    """An overview's title ("Basement · 6"): its font, words, left-middle point and
    ink box (which the chips beside the rooms keep clear of); `n`: the floor's rooms,
    if counted already."""
    size = px(SMALLEST_FONT, s)
    if n is None:
        n = sum(1 for t in view.tiles if t.floor == floor)
    title = floor_title(floor)
    f, text = fit_text(f"{title} · {n}", box[2] - box[0] - px(16, s), size, min_size=size,
                       bold=True)
    at = (box[0] + px(10, s), box[1] + px(OVERVIEW_TITLE_H, s) // 2 + 2)
    # Its box: the line's advance, a font size high (enough for ascenders and commas).
    return f, text, at, (at[0], at[1] - size // 2 - 2, at[0] + text_width(f, text),
                         at[1] + size // 2 + 2)


def _draw_overviews(canvas: Canvas, view: MapView, bg: BoardGeometry) -> None:
    """Each explored floor's overview: outlines of its rooms, its explorers' dots (on
    chips beside the rooms too small to hold them, see renderers.betrayal.overview)."""
    s = bg.map.scale
    tiles = {t.key: t for t in view.tiles}
    # Each floor's rooms, in the order they are laid out, found in one pass (the rooms
    # of every floor were walked once a floor).
    floor_rooms: dict[str, list[tuple[Box, Colour]]] = {}
    for key, room in bg.rooms.items():
        tile = tiles[key]
        floor_rooms.setdefault(tile.floor, []).append((room, (
            START_FILL if tile.start else FLOOR_FILL).get(tile.floor, FLOOR_FILL["ground"])))
    for floor, box in bg.overviews.items():
        edge = GOLD if floor == bg.focus else PANEL_EDGE
        framed(canvas, box, px(8, s), PANEL, edge, max(1, px(2, s)), BG)
        fc, text, at, _ = bg.titles.get(floor) or overview_title_of(view, floor, box, s)
        canvas.text(at, text, fc, TEXT if floor == bg.focus else MUTED, on=PANEL, anchor="lm",
                    bold=True)
        for (x0, y0, x1, y1), fill in floor_rooms.get(floor, ()):
            canvas.fill((x0 + 1, y0 + 1, x1 - 1, y1 - 1), fill)
    for summary in bg.summaries:  # the rooms of a floor's monsters, as the legend shows
        for x0, y0, x1, y1 in summary.rooms:  # the whole cell: a room may be 3 px shown
            canvas.fill((x0, y0, x1, y1), MONSTER_EDGE)
            canvas.fill((x0 + 1, y0 + 1, x1 - 1, y1 - 1), MONSTER)
    for pin in bg.pins:  # under the frame, which stays whole round the window
        light_room(canvas, pin)
    if bg.frame is not None and bg.focus in bg.overviews:
        x0, y0, x1, y1 = bg.frame
        k = max(1, px(2, s))
        for side in ((x0, y0, x1, y0 + k), (x0, y1 - k, x1, y1), (x0, y0, x0 + k, y1),
                     (x1 - k, y0, x1, y1)):
            canvas.fill(side, GOLD)
    on_chip: set[int] = set()
    for pin in bg.pins:  # over the frame, which must not cross a chip
        draw_chip(canvas, pin.chip, pin.leader)
        on_chip.update(item for item in pin.items if isinstance(item, int))
    for summary in bg.summaries:
        draw_chip(canvas, summary.chip)
    fills = {box: (START_FILL if tiles[key].start else FLOOR_FILL).get(
        tiles[key].floor, FLOOR_FILL["ground"]) for key, box in bg.rooms.items()}
    fonts = font_signature()
    size = px(SMALLEST_FONT, s)
    count_font = font(size, True)
    for mark in bg.monster_marks:
        x0, y0, x1, y1 = mark.box
        inside = mark.room is not None and _inside(mark.box, mark.room)
        on = fills[mark.room] if inside and mark.room is not None else CHIP
        r = (x1 - x0) // 2
        canvas.put((x0 + r, y0 + r), monster_disc(canvas.ink, mark.kind.name, mark.kind.letter,
                                              False, 1, r, 0, _overview_letter(s), r, on,
                                              fonts))
        if mark.count_box is not None:
            cx0, cy0, _, cy1 = mark.count_box
            canvas.text((cx0, (cy0 + cy1) // 2), count_text(mark.kind.count), count_font,
                        TEXT, on=CHIP, anchor="lm", bold=True)
    by_seat = {ex.seat: ex for ex in view.explorers}
    by_cell: dict[tuple[str, int, int], TileView] = {}
    if bg.dots:
        for t in view.tiles:  # the first tile of a cell, as a search of the tiles finds
            by_cell.setdefault((t.floor, t.x, t.y), t)
    for seat, (x0, y0, x1, y1) in bg.dots.items():
        ex = by_seat[seat]
        under = by_cell.get((ex.floor, ex.x, ex.y))
        on = PANEL if under is None else (START_FILL if under.start else FLOOR_FILL).get(
            under.floor, FLOOR_FILL["ground"])
        if seat in on_chip:
            on = CHIP
        r = max(1, (x1 - x0) // 2)
        canvas.put(((x0 + x1) // 2, (y0 + y1) // 2),
                   token_mark(canvas.ink, ex.colour, ex.alive, ex.traitor, None, r, on))


def _inside(box: Box, outer: Box) -> bool:
    return outer[0] <= box[0] and outer[1] <= box[1] and box[2] <= outer[2] \
        and box[3] <= outer[3]


def _overview_letter(s: float) -> int:
    """The size of a monster's letter in an overview: the legend's (SMALLEST_FONT), so
    the mark and its legend entry read alike."""
    return px(SMALLEST_FONT, s)


def _legend_layout(entries: tuple[LegendEntry, ...], side: Box, lrow: int,
                   s: float) -> tuple[tuple[LegendEntry, Box], ...]:
    """The legend, under the overviews: a fixed height, so the slots above never move,
    two entries a row, three (their words shortened if need be) past 2 * LEGEND_ROWS;
    past 3 * LEGEND_ROWS (never seen in play) it grows over the basement's slot. With
    two a row, an entry whose words a column would cut ("clown-spider Pennywise") gets
    a row of its own, first, while the rows allow: its name is read whole at chat size."""
    per_row = 2 if len(entries) <= 2 * LEGEND_ROWS else 3
    n_rows = max(LEGEND_ROWS, -(-len(entries) // per_row))
    top = side[3] - n_rows * lrow
    col_w = (side[2] - side[0]) // per_row
    wide = [e for e in entries
            if per_row == 2 and _legend_words(e, col_w - px(6, s), s)[2] != e[2]]
    narrow = [e for e in entries if e not in wide]
    if not wide or len(wide) + -(-len(narrow) // 2) > n_rows:
        wide, narrow = [], list(entries)
    boxes = [(e, (side[0], top + i * lrow, side[2], top + (i + 1) * lrow))
             for i, e in enumerate(wide)]
    top += len(wide) * lrow
    boxes += [(e, (side[0] + (i % per_row) * col_w, top + (i // per_row) * lrow,
                   side[0] + (i % per_row + 1) * col_w, top + (i // per_row + 1) * lrow))
              for i, e in enumerate(narrow)]
    return tuple(boxes)


def _legend_words(entry: LegendEntry, w: int, s: float) -> tuple[int, Font, str]:
    """Where an entry's words start after its mark, in which font and cut to what (never
    smaller than SMALLEST_FONT: an ellipsis rather)."""
    kind, letter, _ = entry
    size = px(SMALLEST_FONT, s)
    fb = font(size, True)
    gap = px(6, s)
    if kind.startswith("token:"):
        x = text_width(fb, letter) + gap
    elif kind == "more":
        x = text_width(fb, "+2") + gap
    else:
        x = _legend_mark(s) + gap
    f, text = fit_text(entry[2], w - x, size, min_size=size)
    return x, f, text


def _legend_mark(s: float) -> int:
    """The side of a legend entry's mark: room for a SMALLEST_FONT letter inside."""
    return px(26, s)


@pieces(256)
def _legend_piece(entry: LegendEntry, w: int, h: int, s: float,
                  fonts: tuple[object, ...]) -> Sprite:
    """One legend entry, its mark then its words, on the background (`fonts` only keys
    the cache). Letters in marks are SMALLEST_FONT, as legible as the words."""
    img = Image.new("RGB", (w, h), BG)
    draw = ImageDraw.Draw(img)
    kind, letter, _ = entry
    size = px(SMALLEST_FONT, s)
    fb = font(size, True)
    d = _legend_mark(s)
    cy = h // 2
    if kind.startswith("token:"):
        draw_text(draw, (0, cy), letter, fb, token_colour(kind[6:]), anchor="lm", bold=True)
    elif kind in SYMBOL_COLOURS:
        g = px(20, s)
        paste_glyph(img, kind, ((d - g) // 2, cy - g // 2), g)
    elif kind == "pile":
        pile_badge(img, draw, d, cy - px(10, s), px(20, s), 2)
    elif kind == "monster":
        r = d // 2
        disc(img, (r, cy), r, MONSTER, outline=MONSTER_EDGE, width=max(1, round(r / 7)))
        centered_text(draw, (r, cy), letter, fb, MONSTER_EDGE, bold=True)
    elif kind == "haunt":
        haunt_square(img, draw, 0, cy - d // 2, d, letter, size)
    elif kind == "barrier":
        img.paste(BARRIER, (0, cy - max(1, px(2, s)), d, cy + max(1, px(2, s))))
    elif kind in ("walked", "placed"):
        colour = TRAIL if kind == "walked" else FRESH
        k = max(2, px(3, s))
        draw.rectangle((0, cy - d // 2, d - 1, cy + d // 2 - 1), outline=colour, width=k)
    elif kind == "link":
        draw_text(draw, (d // 2, cy), "A", fb, LINK, anchor="mm", bold=True)
    elif kind == "monster_mark":
        q = d // 2
        img.paste(MONSTER_EDGE, ((d - q) // 2, cy - q // 2, (d + q) // 2, cy + q // 2))
        img.paste(MONSTER, ((d - q) // 2 + 1, cy - q // 2 + 1, (d + q) // 2 - 1,
                            cy + q // 2 - 1))
    elif kind == "more":
        draw_text(draw, (0, cy), "+2", fb, TEXT, anchor="lm", bold=True)
    x, fl, text = _legend_words(entry, w, s)
    draw_text(draw, (x, cy), text, fl, MUTED, anchor="lm")
    return Sprite(img)


def _draw_legend(canvas: Canvas, bg: BoardGeometry) -> None:
    s = bg.map.scale
    fonts = font_signature()
    for entry, (x0, y0, x1, y1) in bg.legend:
        canvas.put((x0, y0), _legend_piece(canvas.ink, entry, x1 - x0 - px(6, s), y1 - y0,
                                           s, fonts))


def compose_board(view: MapView, ink: object | None) -> Canvas:
    """The chat board drawn for `view` (in the map's palette for this width). The link
    letters are worked out once, here, for the layout and every part that draws them
    (the large panel's window is the house's, its links lettered as the house's)."""
    links = link_letters(view)
    bg = board_geometry(view, links=links)
    canvas = Canvas((bg.width, bg.height), BG, ink)  # type: ignore[arg-type]
    _draw_main(canvas, view, bg, links)
    _draw_overviews(canvas, view, bg)
    _draw_legend(canvas, bg)
    draw_changes(canvas, bg.main_view, bg.map)
    draw_header(canvas, view, bg.map)
    draw_roster(canvas, view, bg.map)
    draw_figures(canvas, bg.main_view, bg.map, links)
    draw_footer(canvas, view, bg.map)
    return canvas


def render_chat(view: MapView) -> bytes:
    """The chat board as PNG bytes: BOARD_W x BOARD_H, whatever the house."""
    return compose_board(view, map_ink(BOARD_W)).png()


def render_chat_image(view: MapView) -> Image.Image:
    """The chat board as an RGB image, for the tests and the bench to look at."""
    return compose_board(view, None).finish()


def board_view(state: BetrayalState) -> MapView:
    """What the chat board shows of a game, as plain data: the board is drawn from this
    alone (`renderers.board` skips drawing a view drawn before)."""
    return map_view(state)


def render_view(view: MapView) -> bytes:
    """The chat board of this view (`renderers.board`)."""
    return render_chat(view)


def render_board(state: BetrayalState) -> bytes:
    """The chat board of a game in progress (the live message's); `render_house` draws
    the whole house at full size."""
    return render_chat(map_view(state))
