"""Drawing one tile of the house, and the passages between tiles.

A tile shows its name, its doors as openings in the walls, its card symbol, a barrier
line for split rooms, and along its bottom strip the haunt's tokens (green squares with
their letter, first so they are the last to be cut), the rooms' tokens lying there (by
a two-letter code the legend names where the word does not fit), a count of items and
link letters; what does not fit at all is counted in a "+n". A tile's static look
(`TileLook`) is everything about it that changes only when the house does; sprites are
cached per look and size and shared by every game (a room turned the same way looks the
same in any house), so placing a tile draws one sprite at most. Between tiles, a passage
is drawn across the gap when both have facing doors, a short stub when a door leads to
unexplored space.

Tile internals scale with the tile size (`tile_parts`), not with the image width, but
never draw text smaller than the map's in-tile floor (`tf`, renderers.betrayal.fonts
.TILE_FONT scaled to the width): a tile's text must read once a chat shows the image
READ_WIDTH wide, so a small tile gives its name and strip the room that text needs and
its figures less.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.games.betrayal.pictures import MapView, TileView
from bot.locales import current
from renderers import budgets
from renderers.betrayal.fonts import PILL_TEXT
from renderers.betrayal.glyphs import paste_glyph
from renderers.betrayal.palette import (
    BARRIER,
    BG,
    CARD_FACE,
    DIM,
    FLOOR_FILL,
    HAUNT_TOKEN,
    ITEM,
    LINK,
    PANEL,
    PILE_BG,
    START_FILL,
    START_LINE,
    SYMBOL_COLOURS,
    TEXT,
    WALL,
    glyph_mark,
    token_code,
    token_colour,
    token_label,
)
from renderers.canvas import Canvas, Sprite, pieces
from renderers.common import (
    Box,
    centered_text,
    disc,
    draw_text,
    fit_text,
    fit_wrapped,
    font,
    font_signature,
    rounded_box,
    text_width,
)

SIDES: tuple[str, ...] = ("N", "E", "S", "W")
_DELTA: dict[str, tuple[int, int]] = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
_OPPOSITE: dict[str, str] = {"N": "S", "S": "N", "E": "W", "W": "E"}
CODE_PAD = 4  # round a token's code: tight, so a code and a link fit beside a symbol
BAND_PX = 12  # a ringed disc of the least radius worth drawing (3 px)
BODY_NAME = 0.18  # the least band (per tile side) a two-line name leaves the figures
BODY_MIN = 0.16  # the band (per tile side) figures keep when the strip takes two rows


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
    text: int = 7  # the smallest font any text in the tile is drawn at
    name_min: int = 7  # a long name shrinks to this before it is cut
    name_lines: int = 2  # the name wraps onto this many lines at most


@budgets.small(budgets.LAYOUTS)
def tile_parts(t: int, tf: int = 0) -> TileParts:
    """The parts of a tile of side t whose text is never below tf px."""
    text = max(7, tf)
    wall = max(2, round(t * 0.035))
    pad = wall + max(2, round(t * 0.045))
    name_size = max(8, round(t * 0.122), text)
    line_h = round(name_size * 1.17)
    side = wall + max(1, round(t * 0.025))  # names may use nearly the whole width
    strip_h = max(9, round(t * 0.155), math.ceil(text / PILL_TEXT))
    strip = (side, t - pad - strip_h, t - side, t - pad)  # as wide as the name's band
    # Two lines for the name, unless that leaves the figures above a strip row less than
    # BODY_NAME tile sides or BAND_PX (a floor too wide for TILE_MIN has smaller tiles,
    # the same text).
    band = strip[1] - strip_step(strip_h) - max(1, round(t * 0.01)) - (pad + 2 * line_h)
    lines = 2 if band >= max(BAND_PX, round(t * BODY_NAME)) else 1
    name_box = (side, pad, t - side, pad + lines * line_h)
    body = (pad, name_box[3] + max(1, round(t * 0.01)), t - pad, strip[1] - max(1, round(t * 0.01)))
    return TileParts(size=t, wall=wall, radius=max(2, round(t * 0.06)), pad=pad,
                     door=round(t * 0.36), name_box=name_box, name_size=name_size, body=body,
                     strip=strip, text=text,
                     name_min=max(text, round(name_size * 0.75)), name_lines=lines)


def strip_step(h: int) -> int:
    """The space between things in a strip h high, and between its rows."""
    return max(2, h // 8)


def _second_row_fits(parts: TileParts) -> bool:
    """Whether the strip may take a second row: only where the figures keep a band of
    BODY_MIN tile sides above it (a small tile's big text leaves no room for both)."""
    h = parts.strip[3] - parts.strip[1]
    top = parts.strip[1] - h - strip_step(h)
    return top - parts.body[1] >= round(parts.size * BODY_MIN)


# Room key -> the letters of the special links it is part of (`link_letters`).
LinkLetters = dict[str, tuple[str, ...]]


# A tile's static look: (name, floor, doors, symbol, tokens, item count, barrier, start,
# link letters, haunt token letters). Sprites are cached per look and size, so placing
# a tile (or a haunt token) draws one.
TileLook = tuple[str, str, tuple[str, ...], str, tuple[str, ...], int, bool, bool,
                 tuple[str, ...], tuple[str, ...]]


def tile_look(tile: TileView, links: LinkLetters) -> TileLook:
    haunted = tuple(glyph_mark(glyph, name) for glyph, name in tile.haunt_tokens) \
        if tile.haunt_tokens else ()
    return (tile.name, tile.floor, _doors(tile.doors), tile.symbol, tuple(tile.tokens),
            len(tile.item_pile), bool(tile.barrier), bool(tile.start), links.get(tile.key, ()),
            haunted)


@budgets.small(budgets.LAYOUTS)
def _doors(doors: tuple[str, ...]) -> tuple[str, ...]:
    """A tile's doors in N, E, S, W order (asked for every tile of every render)."""
    return tuple(d for d in SIDES if d in doors)


# Capitals the map draws on its own (the stunned badge's "S"), and look-alikes of the
# digits a long list of links falls back to: never link letters.
MAP_LETTERS: frozenset[str] = frozenset("SIO")


def link_pool(view: MapView) -> tuple[str, ...]:
    """The letters links are named with, in order: A to Z without any letter the map
    may show otherwise. That is the view's `reserved` letters (every initial of the
    game's players and explorers and every glyph of the haunts it may play: fixed for
    the game), and, for views made without them, the explorers' initials and the
    monster and token letters in view, and `MAP_LETTERS`."""
    taken = set(view.reserved) | MAP_LETTERS
    for ex in view.explorers:
        for name in (ex.player, ex.name):
            taken.add(name.strip()[:1].upper())
    taken |= {glyph_mark(m.glyph, m.name).upper() for m in view.monsters}
    for tile in view.tiles:
        taken |= {glyph_mark(glyph, name).upper() for glyph, name in tile.haunt_tokens}
    return tuple(c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if c not in taken)


def link_letters(view: MapView) -> LinkLetters:
    """Room key -> the letters of the special links it is part of. A pair listed twice
    (or both ways round) is one link with one letter. A haunted house's pool takes
    ~40 us to work out (issue 23): a render works them out once, where it starts
    (`board.compose_board`, `map.compose`), and hands them to what draws with them.

    Why letters stay put: a link's letter comes from its ordinal (`view.link_order`:
    its place in the order the game's links first appeared, which the engine keeps in
    the state), picked from `link_pool`, which is fixed for a game. So a link keeps its
    letter from turn to turn even as others appear or go, and never shows a letter an
    explorer's initial or a token may show. Past the pool's end links are numbered."""
    if not view.links:  # most houses: no pool to work out
        return {}
    pool = link_pool(view)
    out: dict[str, list[str]] = {}
    seen: set[tuple[str, str]] = set()
    for i, (a, b) in enumerate(view.links):
        pair = (min(a, b), max(a, b))
        if pair in seen:
            continue
        n = view.link_order[i] if i < len(view.link_order) else len(seen)
        seen.add(pair)
        letter = pool[n] if n < len(pool) else str(n - len(pool) + 1)
        for key in dict.fromkeys(pair):
            out.setdefault(key, []).append(letter)
    return {k: tuple(v) for k, v in out.items()}


# Every game shares these (a room, its rotation, tokens and size look the same in any
# house): the 45 rooms in 13 sizes and a few looks each. At 1200 px a tile is 88..180 px
# square, 8..32 KB as indices (the budget's reason: renderers.budgets.TILES).
TILE_CACHE_SIZE = 4096


@pieces(TILE_CACHE_SIZE, budgets.TILES, words=True)
def tile_sprite(look: TileLook, t: int, tf: int, fonts: tuple[object, ...]) -> Sprite:
    """One tile, t x t on the panel colour, its text tf px or more. `fonts`
    (font_signature()) is only part of the cache key: a sprite drawn before fonts changed
    must not be reused. Its strip names tokens by their key's words, looked up as it
    draws: the sprite is kept per language (`words=True`)."""
    return Sprite(_draw_tile(look, t, tf))


def _draw_tile(look: TileLook, t: int, tf: int = 0) -> Image.Image:
    name, floor, doors, symbol, _, pile, barrier, start, _, _ = look
    parts = tile_parts(t, tf)
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
    n = parts.name_lines
    f, lines = fit_wrapped(name, nx1 - nx0, n, parts.name_size, min_size=parts.name_min,
                           bold=True)
    line_h = (ny1 - ny0) / n
    top = ny0 + line_h * (n - len(lines)) / 2  # one line sits in the middle of the band
    for i, line in enumerate(lines):
        centered_text(draw, (t // 2, round(top + line_h * (i + 0.5))), line, f, TEXT, bold=True)

    # Bottom strip: symbol, tokens and link letters flowing right, item pile at the right.
    placed, _ = strip_layout(look, t, tf)
    h = parts.strip[3] - parts.strip[1]
    for what, text, x, y, width, size in placed:
        if what == "pile":
            pile_badge(img, draw, x + width, y, h, pile)
        elif what == "symbol":
            paste_glyph(img, symbol, (x, y), h)
        elif what == "link":
            disc(img, (x + h / 2, y + h / 2), h / 2, LINK)
            centered_text(draw, (x + h // 2, y + h // 2), text, font(size, True), BG, bold=True)
        elif what == "haunt":
            haunt_square(img, draw, x, y, h, text, size)
        elif what == "more":
            rounded_box(img, (x, y, x + width, y + h), h // 2, DIM)
            centered_text(draw, (x + width // 2, y + h // 2), text, font(size, True), TEXT,
                          bold=True)
        else:
            rounded_box(img, (x, y, x + width, y + h), h // 2, token_colour(what[6:]))
            centered_text(draw, (x + width // 2, y + h // 2), text, font(size, True), TEXT,
                          bold=True)
    return img


# One thing drawn in a tile's bottom strip: (what, text, x, y, width, font size; for the
# symbol 0), where
# what is "symbol", "pile", "link", "haunt" (a haunt token's letter), "more" (the "+n"
# mark) or "token:<kind>".
StripItem = tuple[str, str, int, int, int, int]


def strip_layout(look: TileLook, t: int, tf: int = 0) -> tuple[tuple[StripItem, ...], int]:
    """Where the symbol, item pile, tokens and link letters go, and how many rows of the
    strip they use (0, 1 or 2), no text below tf px. Tokens and links flow along the
    strip, then along a second row just above it where the tile has room for one
    (`_second_row_fits`); what still does not fit becomes "+n". Explorers stand above
    the rows used (`token_slots`). The look names tokens by key and their words are
    looked up here, so the layout is kept per language as well as per look."""
    return _strip_layout_cached(look, t, tf, font_signature(), current())


@budgets.small(budgets.STRIPS)
def _strip_layout_cached(look: TileLook, t: int, tf: int, fonts: tuple[object, ...],
                         language: str) -> tuple[tuple[StripItem, ...], int]:
    _, _, _, symbol, tokens, pile, _, _, links, haunted = look
    parts = tile_parts(t, tf)
    sx0, sy0, sx1, _ = parts.strip
    h = parts.strip[3] - sy0
    step = strip_step(h)
    placed: list[StripItem] = []
    right = sx1
    if pile:
        pw = _pile_width(h, pile)
        placed.append(("pile", str(pile), sx1 - pw, sy0, pw, _pile_font(h)))
        right = sx1 - pw - step
    x = sx0
    if symbol in SYMBOL_COLOURS:
        placed.append(("symbol", symbol, x, sy0, h, 0))
        x += h + step
    pill_size = max(parts.text, round(h * PILL_TEXT))
    padx = max(2, round(h * 0.2))  # round a whole word
    items = ([("haunt", g) for g in haunted] + [("token:" + k, token_label(k)) for k in tokens]
             + [("link", c) for c in links])
    rows = [(sy0, x, right), (sy0 - h - step, sx0, sx1)][:2 if _second_row_fits(parts) else 1]
    flow: list[tuple[StripItem, int]] = []  # what flows along the rows, with its row
    row = 0
    for what, label in items:
        while row < len(rows):
            y, start, end = rows[row]
            at = flow[-1][0][2] + flow[-1][0][4] + step if flow and flow[-1][1] == row \
                else start
            room = end - at
            size, text = pill_size, label
            if what in ("link", "haunt"):
                width = h
            else:
                size, text = _fit_size(label, max(1, room - 2 * padx), pill_size,
                                       max(parts.text, round(h * 0.55)))
                if text != label:  # no room for the word: its code, which the legend names
                    size, text = pill_size, token_code(what[6:])
                pad = padx if text == label else CODE_PAD
                width = max(h, text_width(font(size, True), text) + 2 * pad)
            if width <= room:
                flow.append(((what, text, at, y, width, size), row))
                break
            row += 1
        if row == len(rows):
            break
    # What did not fit is counted in a "+n" after the last shown, which gives up its
    # place (and the one before it...) if that is what a "+n" needs.
    while len(flow) < len(items):
        n = len(items) - len(flow)
        last_row = flow[-1][1] if flow else 0
        y, start, end = rows[last_row]
        at = flow[-1][0][2] + flow[-1][0][4] + step if flow else start
        more = ("more", f"+{n}", at, y, h, max(parts.text, round(h * 0.5)))
        if at + h <= end and text_width(font(more[5], True), more[1]) <= h:
            flow.append((more, last_row))
            break
        if not flow:
            if symbol:  # a room's tokens say more than its card symbol: they go first
                return _strip_layout_cached((*look[:3], "", *look[4:]), t, tf, fonts,
                                            language)
            break
        flow.pop()
    placed += [item for item, _ in flow]
    used = max([1 if placed else 0, *(r + 1 for _, r in flow)])
    return tuple(placed), used


def strip_rows_of(view: MapView, links: LinkLetters, t: int,
                  cells: Collection[tuple[str, int, int]],
                  tf: int = 0) -> dict[tuple[str, int, int], int]:
    """Cell -> how many rows of its tile's bottom strip are drawn on, for the tiles in
    `cells` (those figures stand in: the others' rows do not matter); `links` are the
    house's `link_letters`."""
    return {(tile.floor, tile.x, tile.y): strip_layout(tile_look(tile, links), t, tf)[1]
            for tile in view.tiles if (tile.floor, tile.x, tile.y) in cells}


def haunt_square(img: Image.Image, draw: ImageDraw.ImageDraw, x: int, y: int, h: int,
                  glyph: str, size: int) -> None:
    """A haunt token: a small green square with its letter (square, so it reads apart
    from the rooms' round-ended token pills and the round link letters)."""
    rounded_box(img, (x, y, x + h, y + h), max(1, h // 6), HAUNT_TOKEN)
    centered_text(draw, (x + h // 2, y + h // 2), glyph, font(size, True), BG, bold=True)


def _pile_font(h: int) -> int:
    """The size of an item pile's count on a strip h high (a pill's, see PILL_TEXT)."""
    return max(7, round(h * PILL_TEXT))


def _pile_width(h: int, count: int) -> int:
    cw = max(4, round(h * 0.52))
    return cw + round(h * 0.18) + round(h * 0.12) + text_width(
        font(_pile_font(h), True), str(count)) + round(h * 0.3)


def pile_badge(img: Image.Image, draw: ImageDraw.ImageDraw, x1: int, y0: int, h: int,
                count: int) -> int:
    """Two stacked cards and the count, right-aligned at x1; returns its left edge."""
    f = font(_pile_font(h), True)
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


def draw_passages(canvas: Canvas, tiles: Sequence[tuple], t: int, g: int) -> None:
    """Across the gap between tiles: a passage where both have facing doors, a short
    open stub where a door leads to unexplored space, nothing where it meets a wall."""
    parts = tile_parts(t)
    w = parts.wall
    span = parts.door
    stub = max(2, round(g * 0.5))
    fill_box = canvas.fill
    by_cell = {(look[1], x, y): look for _, look, _, x, y in tiles}
    for _, look, box, x, y in tiles:
        floor, doors, start = look[1], look[2], look[7]
        x0, y0, x1, y1 = box
        for side in doors:
            dx, dy = _DELTA[side]
            other = by_cell.get((floor, x + dx, y + dy))
            if other is not None and (_OPPOSITE[side] not in other[2] or side in "NW"):
                continue  # onto a wall, or drawn once, from the west / north tile
            fill = (START_FILL if start and (other is None or other[7]) else FLOOR_FILL).get(
                floor, FLOOR_FILL["ground"])
            length = stub if other is None else g
            if side in "NS":
                a = (x0 + x1) // 2 - span // 2
                b0, b1 = (y1, y1 + length) if side == "S" else (y0 - length, y0)
                fill_box((a - w, b0, a + span + w, b1), WALL)
                fill_box((a, b0, a + span, b1), fill)
            else:
                a = (y0 + y1) // 2 - span // 2
                b0, b1 = (x1, x1 + length) if side == "E" else (x0 - length, x0)
                fill_box((b0, a - w, b1, a + span + w), WALL)
                fill_box((b0, a, b1, a + span), fill)
