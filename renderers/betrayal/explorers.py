"""The figures on the map: explorers and monsters in the tiles, and the roster row above.

Explorers stand in their tile as coloured discs with the player's name beside them
(else its initial), in one column when few share a tile and more for a crowd, above
whatever the tile's bottom strip holds. Labels are never drawn below the map's in-tile
text size (`MapGeometry.tile_font`): where a crowd leaves no room for them at that
size, or a disc shrunk for one would be smaller than a monster's letter, the discs
stand without labels, as big as the room allows. The explorer to play
has a gold ring, the traitor a magenta band, dead ones are grey and crossed out where
they fell. Monsters share those slots after the explorers: dark red discs with their
letter (a large monster's disc is bigger), grey with an "S" while stunned. Alike
monsters in one room (same kind, both stunned or not) are one disc with a count beside
it, so a horde stays legible in a small tile. The roster
row names every explorer with the player who plays them. Each token, monster stack
and roster chip is a piece (`renderers.canvas`) drawn once for every game that shows
it: tokens and monsters on the floor colour of their tile, chips on the background.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field, replace

from PIL import Image, ImageDraw

from bot.games.betrayal.pictures import FLOORS, ExplorerView, MapView, MonsterView, TileView
from renderers import budgets
from renderers.betrayal.fonts import ROSTER_DETAIL_FONT, ROSTER_PLAYER_FONT, SMALLEST_FONT
from renderers.betrayal.geometry import MapGeometry
from renderers.betrayal.palette import (
    BG,
    DEAD,
    DIM,
    FLOOR_FILL,
    GOLD,
    MONSTER,
    MONSTER_EDGE,
    MUTED,
    PANEL,
    PANEL_EDGE,
    RING_GAP,
    START_FILL,
    STUNNED,
    TEXT,
    TOKEN_EDGE,
    TRAIL,
    TRAITOR,
    TRAITOR_TEXT,
    glyph_mark,
    px,
)
from renderers.betrayal.tiles import (
    LinkLetters,
    link_pool,
    strip_layout,
    strip_rows_of,
    strip_step,
    tile_look,
    tile_parts,
)
from renderers.betrayal.words import word
from renderers.canvas import Canvas, Sprite, pieces, trimmed
from renderers.cjk import needs_cjk
from renderers.common import (
    Colour,
    Font,
    centered_text,
    disc,
    draw_text,
    fit_text,
    font,
    font_signature,
    parse_colour,
    polygon,
    rounded_box,
    text_bbox,
    text_width,
)


def token_slots(n: int, t: int, strip_rows: int = 1, tf: int = 0,
                marks: tuple[str, ...] = ()) -> tuple[tuple[int, int, int, int, int], ...]:
    """Where `n` figures stand in a tile of size `t`: per figure (cx, cy, r,
    label width, label font size), relative to the tile. One column of discs with names
    when few share a tile, more columns (up to MAX_COLS) for a crowd. They
    stand above the `strip_rows` rows the tile's bottom strip uses (0: all the way down).
    Labels are never below tf px (`tile_parts`); a label that does not fit its slot at
    that size is cut to an initial or left out (`_label_text`). `marks`: the letters
    of the monsters among them (`figure_slots`), which a disc shrunk for a label must
    still carry at the label's size."""
    return _token_slots_cached(max(1, n), t, strip_rows, tf, tuple(sorted(set(marks))),
                               font_signature() if marks else ())


def figure_slots(group: Sequence[Figure], t: int, strip_rows: int, tf: int,
                 free: tuple[int, int] | None = None
                 ) -> tuple[tuple[int, int, int, int, int], ...]:
    """`token_slots` for the figures of one cell (`groups_of`), their monsters' letters
    included: what the map, the chat board and their tests all place figures by.
    `free`: the span of the strip's row its items leave free (`strip_room_of`), which a
    crowd may stand in too (`crowd_slots`)."""
    marks = tuple(glyph_mark(f.monsters[0].glyph, f.monsters[0].name) for f in group
                  if f.monsters)
    slots = token_slots(len(group), t, strip_rows, tf, marks)
    if free is None or len(group) < 2 or not _crowded(group, slots, tf):
        return slots
    items = tuple(("", 1, False) if f.explorer is not None else
                  (glyph_mark(f.monsters[0].glyph, f.monsters[0].name), len(f.monsters),
                   f.large) for f in group)
    crowd = crowd_slots(items, t, strip_rows, tf, free, font_signature())
    return slots if crowd is None or crowd[0][2] <= slots[0][2] else crowd


def _crowded(group: Sequence[Figure], slots: tuple[tuple[int, int, int, int, int], ...],
             tf: int) -> bool:
    """Whether a cell's figures read badly at chat size in their slots: no labels, and
    discs under a third of the tile's text size (a colour dot, not a pawn) or a monster
    letter bigger than its disc."""
    r, label_w, size = slots[0][2], slots[0][3], slots[0][4]
    if label_w:
        return False
    if r * CROWD_R < tf:
        return True
    for f in group:
        if f.monsters:
            mark = glyph_mark(f.monsters[0].glyph, f.monsters[0].name)
            if not letter_shows(monster_radius(r, f.large, mark, size), mark, size):
                return True
    return False


CROWD_R = 3  # a crowd's discs are below 1/CROWD_R of the tile's text size
CrowdItem = tuple[str, int, bool]  # a figure: "" (an explorer) or (letter, count, large)


@budgets.small(budgets.LAYOUTS)
def crowd_slots(items: tuple[CrowdItem, ...], t: int, strip_rows: int, tf: int,
                free: tuple[int, int], fonts: tuple[object, ...]
                ) -> tuple[tuple[int, int, int, int, int], ...] | None:
    """The slots of a crowd too big for `token_slots` to draw legibly: one row of
    figures across the body band, going on in the strip's free span (`free`), so the
    explorers stand as discs in their colours, each clear of the others' rings, and
    each monster stack as one disc its letter fits on at the tile's text size, its count
    ("×3") beside it at that size; a stunned stack is its grey disc (no badge: there is
    no room for one that covers nothing). The explorers' discs are as big as lets every
    figure stand; None: not even the least discs do. `fonts` only keys the cache."""
    parts = tile_parts(t, tf)
    bx0, by0, bx1, _ = parts.body
    _, sy0, _, sy1 = parts.strip
    h = sy1 - sy0
    by1 = sy1 - strip_rows * (h + strip_step(h)) - max(1, round(t * 0.01))
    by1 = max(by1, by0 + round(t * 0.12))  # as `token_slots` has it
    bands = [(bx0, bx1, by0, by1)]
    if strip_rows <= 1 and free[1] > free[0]:
        bands.append((free[0], free[1], sy0, sy1))
    size = label_size = max(8, parts.text)
    gap = max(2, round(t * 0.02))
    f = font(label_size, True)
    # Per monster stack: its slot radius, its disc's, and its label room ("×3").
    widths: list[tuple[int, int, int]] = []
    for mark, count, large in items:
        if not mark:
            widths.append((0, 0, 0))
            continue
        r = 2
        while not letter_shows(monster_radius(r, large, mark, size), mark, size):
            r += 1
            if 2 * monster_radius(r, large, mark, size) > max(b[3] - b[2] for b in bands):
                return None
        widths.append((r, monster_radius(r, large, mark, size),
                       text_width(f, f"×{count}") + 2 if count > 1 else 0))

    def extent(i: int, re: int) -> tuple[int, int, int]:
        """(left of centre, right of centre, half height) of figure i."""
        if not items[i][0]:
            return ring_outer(re), ring_outer(re), ring_outer(re)
        r, disc_r, label_w = widths[i]
        return disc_r, (ring_outer(r) + max(2, round(r * 0.3)) + label_w if label_w
                        else disc_r), disc_r

    for re in range(math.floor(t * 0.105), 1, -1):
        for order in (range(len(bands)), range(len(bands) - 1, -1, -1)):
            # Explorers first along the body; monsters where they fit, the strip's
            # span first in the second try (their discs are the tallest).
            rows: list[list[int]] = [[] for _ in bands]
            used = [0] * len(bands)
            for i, (mark, _, _) in enumerate(items):
                left, right, half = extent(i, re)
                for band in (order if mark else range(len(bands))):
                    x0, x1, y0, y1 = bands[band]
                    need = left + right + (gap if rows[band] else 0)
                    if 2 * half <= y1 - y0 and used[band] + need <= x1 - x0:
                        rows[band].append(i)
                        used[band] += need
                        break
                else:
                    break
            else:
                slots: list[tuple[int, int, int, int, int]] = [(0, 0, 0, 0, 0)] * len(items)
                for band, (x0, x1, y0, y1) in enumerate(bands):
                    x = x0 + (x1 - x0 - used[band]) // 2 if band == 0 else x0
                    for i in rows[band]:
                        left, right, _ = extent(i, re)
                        r, _, label_w = widths[i] if items[i][0] else (re, 0, 0)
                        slots[i] = (x + left, (y0 + y1) // 2, r, label_w, size)
                        x += left + right + gap
                return tuple(slots)
    return None


# A monster kind as the map tells it apart: (name, glyph).
KindKey = tuple[str, str]
# Capitals no stand-in takes: M and W, wider than tall, need discs nearly a character's;
# an X on a disc reads as a dead explorer's cross.
NOT_STAND_INS = frozenset("MWX")


def stand_ins(shown: MapView, house: MapView, t: int, tf: int,
              links: LinkLetters) -> dict[KindKey, str]:
    """Kind -> the capital a board draws in place of its Chinese mark, where a crowd of
    the window `shown` (tiles of side t, text tf) cannot stand in `crowd_slots` with its
    marks but can with capitals; else empty. A character is as tall as the text and as
    wide, so its disc needs a radius of 12-13 at the chat's 18 px where a capital needs
    8: four such stacks beside four explorers leave `token_slots`' old rows, whose
    characters reach over their neighbours' discs and the acting explorer's ring. Every
    Chinese mark of the `house` is stood in for, so the board (crowd, rooms, overviews
    and legend, which says which is which) shows one sort of mark; the letters are the
    `link_pool`'s (none an initial, a haunt's glyph or "S") but this board's `links`'
    letters and `NOT_STAND_INS`."""
    wide = [k for k in dict.fromkeys((m.name, m.glyph) for m in sorted(
        house.monsters, key=lambda m: m.id)) if needs_cjk(glyph_mark(k[1], k[0]))]
    if not wide:
        return {}
    groups = groups_of(shown)
    crowds = [cell for cell, group in groups.items()
              if len(group) > 1 and any(f.monsters and (f.monsters[0].name,
                                                         f.monsters[0].glyph) in wide
                                        for f in group)]
    if not crowds:
        return {}
    used = {c for letters in links.values() for c in letters}
    letters = [c for c in link_pool(house) if c not in used and c not in NOT_STAND_INS]
    if len(letters) < len(wide):
        return {}
    out = dict(zip(wide, letters, strict=False))
    rows = strip_rows_of(shown, links, t, crowds, tf)
    free = strip_room_of(shown, links, t, crowds, tf)
    for cell in crowds:
        group, n, span = groups[cell], rows.get(cell, 0), free.get(cell)
        if not _fell_back(group, t, n, tf, span):
            continue
        stood = [Figure(monsters=tuple(stood_in(m, out) for m in f.monsters))
                 if f.monsters else f for f in group]
        if not _fell_back(stood, t, n, tf, span):
            return out
    return {}


def _fell_back(group: Sequence[Figure], t: int, strip_rows: int, tf: int,
               free: tuple[int, int] | None) -> bool:
    """Whether a cell's figures are a crowd (`_crowded`) that `crowd_slots` could not
    stand, left in `token_slots`' slots."""
    base = figure_slots(group, t, strip_rows, tf)
    return _crowded(group, base, tf) and figure_slots(group, t, strip_rows, tf, free) == base


def stood_in(m: MonsterView, marks: dict[KindKey, str]) -> MonsterView:
    """The monster with its kind's stand-in (`stand_ins`) as its glyph, if it has one."""
    mark = marks.get((m.name, m.glyph))
    return m if mark is None else replace(m, glyph=mark)


def with_stand_ins(view: MapView, marks: dict[KindKey, str]) -> MapView:
    """The view with every monster's glyph its kind's stand-in (`stand_ins`)."""
    if not marks:
        return view
    return replace(view, monsters=tuple(stood_in(m, marks) for m in view.monsters))


def strip_room_of(view: MapView, links: LinkLetters, t: int, cells: Collection[Cell],
                  tf: int) -> dict[Cell, tuple[int, int]]:
    """Cell -> the span (x0, x1, in the tile) of its strip's row that the strip's
    symbol, tokens, links and pile leave free, for the tiles in `cells` whose strip
    takes one row at most: where a crowd may stand on (`crowd_slots`)."""
    out: dict[Cell, tuple[int, int]] = {}
    for tile in view.tiles:
        cell = (tile.floor, tile.x, tile.y)
        if cell not in cells:
            continue
        placed, used = strip_layout(tile_look(tile, links), t, tf)
        if used > 1:
            continue
        sx0, sy0, sx1, sy1 = tile_parts(t, tf).strip
        step = strip_step(sy1 - sy0)
        left = max((x + w + step for what, _, x, _, w, _ in placed if what != "pile"),
                   default=sx0)
        right = min((x - step for what, _, x, _, _, _ in placed if what == "pile"),
                    default=sx1)
        out[cell] = (left, right)
    return out


@budgets.small(budgets.LAYOUTS)
def _token_slots_cached(n: int, t: int, strip_rows: int, tf: int, marks: tuple[str, ...],
                        fonts: tuple[object, ...]) -> tuple[tuple[int, int, int, int, int], ...]:
    """`token_slots`; `fonts` only keys the cache (the marks are measured in them)."""
    parts = tile_parts(t, tf)
    bx0, by0, bx1, by1 = parts.body
    h = parts.strip[3] - parts.strip[1]
    by1 = parts.strip[3] - strip_rows * (h + strip_step(h)) - max(1, round(t * 0.01))
    by1 = max(by1, by0 + round(t * 0.12))
    bw, bh = bx1 - bx0, by1 - by0
    r_max = t * 0.105
    r_min = max(2, round(t * R_MIN))

    def label_size(r: int) -> int:
        return max(8, parts.text, min(round(t * 0.12), round(r * 1.35)))

    def spacing(cols: int) -> float:
        """How far apart the slots' centres are in `cols` columns."""
        return min(bh / math.ceil(n / cols), t * 0.3, bw / cols)

    def clear(cols: int, r: int) -> bool:
        """Whether rings of radius r in `cols` columns stay apart (r is never below 2:
        a crowd in a thin band may not)."""
        return 2 * ring_outer(r) <= spacing(cols)

    def carries(r: int) -> bool:
        """Whether a slot of radius r leaves room for a disc its monsters' letters show
        on at the label's size (`monster_radius` grows a disc as far as `ring_outer`)."""
        return all(letter_shows(ring_outer(r), mark, label_size(r)) for mark in marks)

    def fit(cols: int, labelled: bool) -> tuple[int, int, int]:
        """(disc radius, label room, label size) in `cols` columns."""
        rows = math.ceil(n / cols)
        pitch, col_w = min(bh / rows, t * 0.3), bw / cols
        r = max(2, math.floor(min(r_max, pitch * 0.34, col_w * (0.19 if labelled else 0.34))))
        while r > 2 and 2 * ring_outer(r) > min(pitch, col_w):  # rings never touch
            r -= 1
        if not labelled:
            return r, 0, label_size(r)

        def room(r: int) -> int:
            return max(0, math.floor(col_w - 2 * ring_outer(r) - max(2, r * 0.3)))

        # A short label ("P2", "×3") at the least legible size beats a slightly bigger
        # disc: shrink the disc (down to R_MIN tile sides) until one fits beside it,
        # yet not below a monster's letter: one bigger than its disc hides it.
        while r > r_min and room(r) < LABEL_ROOM * label_size(r) \
                and (carries(r - 1) or not carries(r)):
            r -= 1
        if rows > 1 and pitch < label_size(r) * LABEL_INK:  # they would run into the
            return r, 0, label_size(r)                     # next row's disc or label
        return r, room(r), label_size(r)

    options = range(1, min(n, MAX_COLS) + 1)
    cols = 1
    for c in options:
        # More columns leave less room for names, so they must buy clearly bigger discs.
        if fit(c, True)[0] > fit(cols, True)[0] * 1.3:
            cols = c
    r, label_w, size = fit(cols, True)
    if label_w < LABEL_ROOM * size or not carries(r):
        # A crowd: no room for labels (or for a monster's letter beside one), so the
        # biggest discs; where even the least discs cannot all stand apart, first the
        # columns where they do, else those that keep them furthest apart.
        def crowd_key(c: int) -> tuple[bool, int, float, int]:
            big = fit(c, False)[0]
            return clear(c, big), big, 0 if clear(c, big) else spacing(c), -c

        crowd = max(options, key=crowd_key)
        wide = fit(crowd, False)[0]
        if wide > r or (not clear(cols, r) and spacing(crowd) > spacing(cols)):
            cols = crowd
            r, label_w, size = fit(cols, False)
    rows = math.ceil(n / cols)
    pitch, col_w = min(bh / rows, t * 0.3), bw / cols
    top = by0 + (bh - pitch * rows) / 2
    outer = ring_outer(r)
    slots = []
    for i in range(n):
        row, col = divmod(i, cols)
        cx = round(bx0 + col * col_w + outer) if label_w else round(bx0 + (col + 0.5) * col_w)
        cy = round(top + (row + 0.5) * pitch)
        slots.append((cx, cy, r, label_w, size))
    return tuple(slots)


MAX_COLS = 6  # a crowd stands in up to this many columns
R_MIN = 0.05  # the smallest disc radius (per tile side) a label may shrink a disc to
LABEL_ROOM = 1.6  # label room per font size that holds two characters ("P2", "×3")
# A label's ink is taller than its font size: a Chinese name's reaches 1.1 of it (22 px
# at 20), and a row of labels needs that much pitch not to touch the next row's discs.
# (A Latin line with both an accented capital and a descender, "ÉgPy", reaches 1.15;
# names seldom have both, and a row that tight would lose every label.)
LABEL_INK = 1.1


def _ring(r: int) -> tuple[int, int]:
    """(gap, width) of the acting explorer's ring around a disc of radius r."""
    return max(1, round(r * 0.16)), max(2, round(r * 0.3))


def ring_outer(r: int) -> int:
    gap, width = _ring(r)
    return r + gap + width


@dataclass(frozen=True)
class Figure:
    """One token in a tile: an explorer, or a stack of alike monsters (one or more)."""

    explorer: ExplorerView | None = None
    monsters: tuple[MonsterView, ...] = ()

    @property
    def large(self) -> bool:
        return bool(self.monsters) and self.monsters[0].large


def groups_of(view: MapView) -> dict[tuple[str, int, int], list[Figure]]:
    """Figures by the cell they stand in: explorers in seat order, then monster stacks
    in order of their first monster's id (so a token keeps its place from turn to turn).
    Monsters of one look (name, letter, stunned, size) in one cell make one stack."""
    groups: dict[tuple[str, int, int], list[Figure]] = {}
    for ex in sorted(view.explorers, key=lambda e: e.seat):
        if ex.floor in FLOORS:
            groups.setdefault((ex.floor, ex.x, ex.y), []).append(Figure(explorer=ex))
    stacks: dict[tuple[str, int, int], dict[tuple[str, str, bool, bool], list[MonsterView]]] = {}
    for m in sorted(view.monsters, key=lambda m: m.id):
        if m.floor in FLOORS:
            cell = stacks.setdefault((m.floor, m.x, m.y), {})
            cell.setdefault((m.name, m.glyph, m.stunned, m.large), []).append(m)
    for where, by_look in stacks.items():
        groups.setdefault(where, []).extend(Figure(monsters=tuple(ms)) for ms in
                                            by_look.values())
    return groups


def is_large(r: int) -> int:
    """The radius of a large monster's disc in a slot made for radius r: bigger, yet
    clear of its neighbours' rings (slots are at least 2.9 r apart)."""
    return max(r + 1, round(r * 1.35))


Cell = tuple[str, int, int]  # floor, x, y


@dataclass
class Placed:
    """Where each figure of a drawn floor stands: the explorers' token centres, radii and
    ring reach by seat, the monsters' centres and radii by id. The full map and the chat
    board place them alike, so a token sits the same in both."""

    tokens: dict[int, tuple[int, int]] = field(default_factory=dict)
    radius: dict[int, int] = field(default_factory=dict)
    ring: dict[int, int] = field(default_factory=dict)
    monsters: dict[int, tuple[int, int]] = field(default_factory=dict)
    monster_radius: dict[int, int] = field(default_factory=dict)


def place_figures(groups: dict[Cell, list[Figure]], origin: Callable[[Cell], tuple[int, int]],
                  strip_rows: dict[Cell, int], t: int, tf: int,
                  free: dict[Cell, tuple[int, int]] | None = None) -> Placed:
    """Each group's figures in its cell's token slots (`origin`: the cell's top left;
    `free`: the strips' free spans, `strip_room_of`)."""
    placed = Placed()
    for cell, group in groups.items():
        x0, y0 = origin(cell)
        slots = figure_slots(group, t, strip_rows.get(cell, 0), tf,
                             None if free is None else free.get(cell))
        for figure, (sx, sy, r, _, size) in zip(group, slots, strict=True):
            ex = figure.explorer
            if ex is None:
                first = figure.monsters[0]
                radius = monster_radius(r, figure.large, glyph_mark(first.glyph, first.name),
                                        size)
                for m in figure.monsters:
                    placed.monsters[m.id] = (x0 + sx, y0 + sy)
                    placed.monster_radius[m.id] = radius
                continue
            placed.tokens[ex.seat] = (x0 + sx, y0 + sy)
            placed.radius[ex.seat] = r
            gap_w, ring_w = _ring(r)
            placed.ring[ex.seat] = r + gap_w + ring_w // 2
    return placed


def roster_chips(explorers: Sequence[ExplorerView], roster: tuple[int, int, int, int],
                 gap: int, widest: int) -> dict[int, tuple[int, int, int, int]]:
    """A chip's box per seat, side by side along the roster strip, at most `widest`."""
    chips: dict[int, tuple[int, int, int, int]] = {}
    if explorers:
        n = len(explorers)
        cw = min(widest, (roster[2] - roster[0] - (n - 1) * gap) // n)
        for i, ex in enumerate(sorted(explorers, key=lambda e: e.seat)):
            x0 = roster[0] + i * (cw + gap)
            chips[ex.seat] = (x0, roster[1], x0 + cw, roster[3])
    return chips


def draw_roster(canvas: Canvas, view: MapView, geo: MapGeometry) -> None:
    """A chip per explorer: the pawn, the player, the explorer and what became of them.
    Composed of shared pieces (the chip's frame, the pawn) and the channel's words, so
    no channel needs chips of its own in a cache."""
    s = geo.scale
    by_seat = {ex.seat: ex for ex in view.explorers}
    for seat, box in geo.roster_chips.items():
        ex = by_seat[seat]
        x0, y0, x1, y1 = box
        h = y1 - y0
        edge = GOLD if ex.acting else TRAITOR if ex.traitor else PANEL_EDGE
        canvas.put((x0, y0), _chip(canvas.ink, x1 - x0, h, px(8, s), edge,
                                   px(2 if ex.acting or ex.traitor else 1, s)))
        r = max(3, round(h * 0.22))
        cx, cy = x0 + px(10, s) + r, (y0 + y1) // 2
        canvas.put((cx, cy), token_mark(canvas.ink, ex.colour, ex.alive, ex.traitor, None, r,
                                    PANEL))
        tx = cx + r + px(8, s)
        room = x1 - px(8, s) - tx
        fb, p_text = fit_text(ex.player or "?", room, px(ROSTER_PLAYER_FONT, s),
                              min_size=px(SMALLEST_FONT, s), bold=True)
        canvas.text((tx, cy), p_text, fb, GOLD if ex.acting else TEXT if ex.alive else MUTED,
                    on=PANEL, anchor="lm", bold=True)
        rest = room - text_width(fb, p_text) - px(8, s)
        marks = [word(f"roster.{m}") for m, on in (("traitor", ex.traitor),
                                                    ("dead", not ex.alive)) if on]
        detail = word("roster.marked", name=ex.name, marks=word("roster.joiner").join(marks)) \
            if marks else ex.name
        if rest > px(24, s):
            fr, d_text = fit_text(detail, rest, px(ROSTER_DETAIL_FONT, s),
                                  min_size=px(SMALLEST_FONT, s))
            ink = TRAITOR if ex.traitor and ex.alive else MUTED if ex.alive else DIM
            canvas.text((x1 - px(8, s) - rest, cy), d_text, fr, ink, on=PANEL, anchor="lm")


@pieces(256)
def _chip(w: int, h: int, radius: int, edge: Colour, width: int) -> Sprite:
    """A roster chip's frame, w x h on the background."""
    img = Image.new("RGB", (w, h), BG)
    rounded_box(img, (0, 0, w, h), radius, PANEL, outline=edge, width=width)
    return Sprite(img)


def pawn_of(img: Image.Image, ex: ExplorerView, cx: int, cy: int, r: int) -> None:
    """An explorer's disc: its colour (grey once dead, crossed out), inside a magenta
    band for the traitor. The centre keeps the explorer's colour unless crossed out."""
    colour = parse_colour(ex.colour) if ex.alive else DEAD
    edge = max(1, round(r / 7))
    if ex.traitor:
        band = max(2, round(r * 0.28))
        disc(img, (cx, cy), r, TOKEN_EDGE)
        disc(img, (cx, cy), r - edge, TRAITOR)
        disc(img, (cx, cy), max(1, r - edge - band), colour)
    else:
        disc(img, (cx, cy), r, colour, outline=TOKEN_EDGE, width=edge)
    if not ex.alive:
        _cross(img, cx, cy, r * 0.6, max(2, round(r * 0.3)), TOKEN_EDGE)


def _cross(img: Image.Image, cx: float, cy: float, arm: float, width: float,
           colour: Colour) -> None:
    """An anti-aliased ✕: two bars `width` thick from the centre `arm` out along the
    diagonals (a font's ✕ would depend on which fonts are installed)."""
    d = width / 2 / math.sqrt(2)
    for sx in (1, -1):
        x0, y0, x1, y1 = cx - arm * sx, cy - arm, cx + arm * sx, cy + arm
        polygon(img, [(x0 + d, y0 - sx * d), (x1 + d, y1 - sx * d),
                      (x1 - d, y1 + sx * d), (x0 - d, y0 + sx * d)], colour)


def draw_figures(canvas: Canvas, view: MapView, geo: MapGeometry,
                 links: LinkLetters) -> None:
    """Every explorer and monster token, with its label where the slot leaves room,
    above the strip rows its tile's `links` (the house's link letters) and tokens take.
    A figure is a piece drawn on its tile's floor colour (the panel's where no tile is);
    over a barrier's dashes it is pasted through its own outline, so the dashes show
    round it."""
    t = geo.tile
    groups = groups_of(view)
    tf = geo.tile_font
    strip_rows = strip_rows_of(view, links, t, groups, tf)
    free = strip_room_of(view, links, t, groups, tf)
    fonts = font_signature()
    tiles = {(tile.floor, tile.x, tile.y): tile for tile in view.tiles}
    for cell, group in groups.items():
        slots = figure_slots(group, t, strip_rows.get(cell, 0), tf, free.get(cell))
        # A crowd (`_crowded`), whether `crowd_slots` placed it or it did not fit them,
        # stands too close for a stunned badge on a disc's rim.
        base = figure_slots(group, t, strip_rows.get(cell, 0), tf)
        crowd = slots != base or (len(group) > 1 and _crowded(group, base, tf))
        tile = tiles.get(cell)
        on = PANEL if tile is None else _tile_fill(tile)
        over = tile is not None and tile.barrier
        for figure, (_, _, r, label_w, size) in zip(group, slots, strict=True):
            ex = figure.explorer
            if ex is None:
                m = figure.monsters[0]
                canvas.put(geo.monsters[m.id], monster_disc(
                    canvas.ink, m.name, m.glyph, m.stunned, len(figure.monsters), r, label_w,
                    size, geo.monster_radius[m.id], on, fonts, not crowd))
                continue
            cx, cy = geo.tokens[ex.seat]
            ring = GOLD if ex.acting else TRAIL if ex.seat == view.mover else None
            canvas.put((cx, cy), token_mark(canvas.ink, ex.colour, ex.alive, ex.traitor, ring,
                                        r, on))
            label = label_text(ex, label_w, size)
            if label is not None:
                text, f, fill = label
                canvas.text((cx + label_dx(r), cy), text, f, fill, on=on, anchor="lm",
                            bold=True, over=over)


def _tile_fill(tile: TileView) -> Colour:
    return (START_FILL if tile.start else FLOOR_FILL).get(tile.floor, FLOOR_FILL["ground"])


# Pawns and monsters are shared by every game: 6 explorer colours (or grey), acting,
# traitor, at a few radii on 7 floor colours; monsters by kind, count and size.
FIGURE_CACHE_SIZE = 4096  # a figure is 0.5..3 KB: within the pieces' 8 MB


@pieces(FIGURE_CACHE_SIZE, budgets.FIGURES)
def token_mark(colour: str, alive: bool, traitor: bool, ring: Colour | None, r: int,
           on: Colour) -> Sprite:
    """An explorer's token on the floor colour `on`, placed by its centre: the pawn and
    the ring round it, if any: gold for the explorer to play, the trail's colour for
    the one who just moved while another acts."""
    c = ring_outer(r) + 2
    img = Image.new("RGB", (2 * c, 2 * c), on)
    _draw_token(img, ExplorerView(seat=0, name="", player="", colour=colour, floor="", x=0,
                                  y=0, alive=alive, traitor=traitor), c, c, r, ring)
    return trimmed(img, on, (c, c))


def _draw_token(img: Image.Image, ex: ExplorerView, cx: int, cy: int, r: int,
                ring: Colour | None = None) -> None:
    """The pawn and the ring round it (`ring`, or gold for the explorer to play)."""
    ring = ring or (GOLD if ex.acting else None)
    if ring is not None:
        gap_w, ring_w = _ring(r)
        disc(img, (cx, cy), r + gap_w + ring_w, ring)
        disc(img, (cx, cy), r + gap_w, RING_GAP)
    pawn_of(img, ex, cx, cy, r)


@pieces(FIGURE_CACHE_SIZE, budgets.FIGURES)
def monster_disc(name: str, glyph: str, stunned: bool, count: int, r: int, label_w: int,
             size: int, radius: int, on: Colour, fonts: tuple[object, ...],
             rim: bool = True) -> Sprite:
    """A monster stack's token and label on the floor colour `on`, placed by the disc's
    centre (see `_draw_monster`; `rim`: whether a stunned badge with no room beside the
    disc goes on its rim). `fonts` only keys the cache."""
    m = MonsterView(id=0, name=name, glyph=glyph, floor="", x=0, y=0, stunned=stunned)
    pad = radius + 2 * size + 8
    w = 2 * pad + ring_outer(r) + label_w
    img = Image.new("RGB", (w, 2 * pad), on)
    _draw_monster(img, ImageDraw.Draw(img), (m,) * count, pad, pad, r, label_w, size, radius,
                  rim)
    return trimmed(img, on, (pad, pad))


def label_text(ex: ExplorerView, label_w: int, size: int) -> tuple[str, Font, Colour] | None:
    """A figure's name to the right of its slot, at `size` (never smaller: the slot's
    size is the least a preview can read), else its initial: the text, font and colour,
    or None when the slot leaves no room even for that."""
    if label_w < 4:
        return None
    name = (ex.player or ex.name or "?").split()[0]
    f = font(size, True)
    text = name
    if text_width(f, text) > label_w:
        text = name[:1]
        if text_width(f, text) > label_w:
            return None
    fill = GOLD if ex.acting else TRAITOR_TEXT if ex.traitor and ex.alive else \
        TEXT if ex.alive else MUTED
    return text, f, fill


def label_dx(r: int) -> int:
    """Where a figure's label starts, right of its centre."""
    return ring_outer(r) + max(2, round(r * 0.3))


def _draw_monster(img: Image.Image, draw: ImageDraw.ImageDraw,
                  stack: tuple[MonsterView, ...], cx: int, cy: int, r: int, label_w: int,
                  size: int, radius: int, rim: bool = True) -> None:
    """A monster (or a stack of alike ones): its letter on a dark red disc of `radius`
    (grey while stunned), and beside it, in the label room of a slot made for radius r:
    an "S" badge while stunned, "×n" for a stack, and the kind's name where it fits
    whole (the legend names every kind, so a name cut to a letter or two is left out).
    The marks go beside the disc rather than on it: on a small disc a badge would hide
    the letter."""
    m = stack[0]
    fill, edge, ink = (STUNNED, MUTED, TEXT) if m.stunned else (MONSTER, MONSTER_EDGE,
                                                               MONSTER_EDGE)
    disc(img, (cx, cy), radius, fill, outline=edge, width=max(1, round(radius / 7)))
    letter = font(letter_size(radius, size), True)
    centered_text(draw, (cx, cy), glyph_mark(m.glyph, m.name), letter, ink, bold=True)
    x = cx + ring_outer(r) + max(2, round(r * 0.3))
    right = x + label_w
    if m.stunned:
        bh = max(8, round(size * 1.15))
        bf = font(size, True)
        bw = max(bh, text_width(bf, "S") + 4)
        # Offsets are rounded apart from the centre, so a token drawn once and moved to
        # any cell (a cached piece) is the same pixels.
        bx0, by0 = x, cy - round(bh / 2)
        badge = True
        if bx0 + bw > right:  # no room beside it: on the disc's rim, but in a crowd
            bx0 = cx + round(radius * 0.7 - bw / 2)  # (`crowd_slots`), where it would
            by0 = cy - round(radius * 0.7 + bh / 2)  # cover a neighbour's ring, the
            badge = rim                              # grey disc says it alone
        else:
            x += bw + max(2, round(size * 0.25))
        if badge:
            rounded_box(img, (bx0, by0, bx0 + bw, by0 + bh), max(2, bh // 3), TEXT)
            centered_text(draw, (bx0 + bw / 2, by0 + bh / 2), "S", bf, BG, bold=True)
    shown = monster_text(stack, right - x, size)
    if shown is not None:
        draw_text(draw, (x, cy), shown, font(size, True), MUTED if m.stunned else TEXT,
                  anchor="lm", bold=True)


def monster_radius(r: int, large: bool, mark: str, size: int) -> int:
    """A monster disc's radius in a slot made for radius r: r (a large one's bigger,
    `is_large`), grown until its letter, drawn at the slot's label size at least, lies
    inside the disc's edge. A slot shrunk to make room for a label leaves a disc smaller
    than its letter, which then covers it and reads as a stray letter, not a monster.
    It grows at most to the reach an acting explorer's ring takes (`ring_outer`), which
    every slot keeps clear and a monster has no ring to fill."""
    return _monster_radius(r, large, mark, size, font_signature())


@budgets.small(budgets.LAYOUTS)
def _monster_radius(r: int, large: bool, mark: str, size: int,
                    fonts: tuple[object, ...]) -> int:
    """`monster_radius`, measured once per font set (`fonts` only keys the cache)."""
    radius = is_large(r) if large else r
    while radius < ring_outer(r) and not letter_fits(radius, mark, size):
        radius += 1
    return radius


def letter_fits(radius: int, mark: str, size: int) -> bool:
    """Whether a monster's letter, centred on its disc, lies inside the disc's edge."""
    edge = max(1, round(radius / 7))
    x0, y0, x1, y1 = text_bbox(font(letter_size(radius, size), True), mark, "mm")
    inner = radius - edge
    return max(-x0, x1, -y0, y1) <= inner


def letter_shows(radius: int, mark: str, size: int) -> bool:
    """Whether a monster's letter leaves its disc showing: its ink within the disc, and
    red above and below it (inside the edge). A letter may touch the outline at its
    sides, as a wide one does on the least disc `monster_radius` grows to; one that
    reaches past the disc hides it, and the monster reads as a stray letter."""
    edge = max(1, round(radius / 7))
    x0, y0, x1, y1 = text_bbox(font(letter_size(radius, size), True), mark, "mm")
    return max(-x0, x1) <= radius and max(-y0, y1) <= radius - edge


def letter_size(radius: int, size: int) -> int:
    """The size of a monster's letter on its disc: the slot's label size at least (a
    small disc's letter fills it, yet reads)."""
    return max(7, round(radius * 1.2), size)


def monster_text(stack: tuple[MonsterView, ...], room: int, size: int) -> str | None:
    """What a monster stack's label says in `room` px at `size` (never smaller): a
    stack's count matters more than its name, "×3 Giant", else "×3"; a lone monster
    shows its whole name, else the noun, which may be cut while three letters are left
    ("Zom…"). None: nothing fits."""
    count = f"×{len(stack)}" if len(stack) > 1 else ""
    words = stack[0].name.split()
    name = words[-1] if words else ""  # the noun: "Flesh Giant" -> "Giant"
    options = ([(f"{count} {name}".strip(), False), (count, False)] if count else
               [(" ".join(words), False), (name, True)])
    for text, may_cut in options:
        if not text or room < 4:
            continue
        _, shown = fit_text(text, room, size, min_size=size, bold=True)
        if shown == text or (may_cut and len(shown) >= 4):
            return shown
    return None
