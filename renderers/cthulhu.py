"""The public board image for Cthulhu in the House, posted after every turn.

The image is public, so it draws only public facts: where characters stand, how many
face-down portals lie in each room, the removal line and the scores. Portal kinds,
the reserve's kinds and who owns which character (`state.secrets`) never reach the
drawing code — tests render states that differ only in those and demand identical bytes.

Geometry is computed once, in `board_geometry`, from arithmetic alone (no font
measurements), and the renderer draws from that same object. Tests and anything else
that needs to know "what is where" therefore see exactly what was drawn.

Sizes are written for a 1200 px wide board and scaled; at 1200 px room names are ~24 px
and token labels ~17-21 px so the board still reads when Discord shows it at ~600 px.

A board is drawn after every action of every channel, so it is composed in its PNG
palette from pieces any game may share (`renderers.canvas`: rooms, tokens, slots,
markers, words) and written band by band, bands drawn before reused (bench/bench_render.py
and bench/bench_render_rr.py measure it); the palette is fitted once per look
(`_ink`). No cache can carry a secret from one render to another: pieces are keyed by,
and drawn from, public facts only (sizes, names, colours, counts, the fonts), never from
a state, and a band is described by the pieces in it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.games.cthulhu.state import (
    LAST_STANDING_POINTS,
    RUMBLES,
    Character,
    CthulhuState,
    Room,
)
from renderers.canvas import COVERED, Canvas, Ink, Sprite, pieces, register, trimmed
from renderers.common import (
    BLACK,
    WHITE,
    Box,
    Colour,
    Point,
    centered_text,
    contrast_text,
    disc,
    disc_footprint,
    draw_text,
    fit_text,
    font,
    font_signature,
    make_palette,
    parse_colour,
    polygon,
    regular_polygon_points,
    rounded_box,
    star_points,
    text_width,
    to_png,
)

BASE_WIDTH = 1200

# Palette: a dark house lit by candle-coloured text. Flat colours only, so PNGs stay small.
BG: Colour = (13, 15, 21)
PANEL: Colour = (24, 27, 36)
PANEL_EDGE: Colour = (50, 55, 70)
FLOOR: Colour = (46, 50, 66)
WALL: Colour = (122, 104, 80)
TEXT: Colour = (238, 231, 214)
MUTED: Colour = (150, 147, 138)
DIM: Colour = (78, 82, 98)
GOLD: Colour = (236, 192, 92)
ACCENT: Colour = (126, 214, 160)
PORTAL_GLOW: Colour = (148, 86, 232)
PORTAL_VOID: Colour = (30, 12, 50)
PORTAL_CORE: Colour = (176, 255, 136)  # what sits at a portal marker's geometry point
TRAIL: Colour = (104, 182, 255)  # the last action: its rooms framed, its character ringed

# Layout at BASE_WIDTH, in pixels; everything is multiplied by width / BASE_WIDTH.
MARGIN = 22
HEADER_H = 64
ROOM_GAP = 32  # the corridor space between tiles, where passages are drawn
ROOM_H = 216
ROOM_RADIUS = 12
WALL_W = 4
NAME_BAND = 42
ROOM_PAD = 12
DOOR_SPAN = 66  # length of a doorway along the wall
PORTAL_R = 15
PORTAL_COUNT_W = 34
SECTION_GAP = 18
SECTION_TITLE_H = 32
SLOT_H = 56
SLOT_GAP = 6
SLOTS_PER_ROW = 6
SLOT_LABEL_W = 46
CARD_H = 84
CARD_GAP = 10
CARD_MAX_W = 300

# Text sizes at BASE_WIDTH. Discord shows a board READ_WIDTH px wide in the channel and
# text under READ_PX there cannot be read, so no size is below SMALLEST_FONT (READ_PX *
# BASE_WIDTH / READ_WIDTH): text too long for its place is cut before it shrinks past
# it. (The seat number inside a seat's shape only repeats the shape; it is no label.)
READ_WIDTH = 600
READ_PX = 10
SMALLEST_FONT = 20
TITLE_FONT = 32
HEADER_FONT = 28
ROOM_FONT = 24
PORTAL_FONT = 21
SLOT_NUMBER_FONT = 22
SLOT_POINTS_FONT = SMALLEST_FONT
SLOT_NAME_FONT = SMALLEST_FONT
SECTION_FONT = SMALLEST_FONT
SCORE_NAME_FONT = 22
SCORE_FONT = 28

# Token arrangements inside a room, tried in order until all tokens fit:
# (columns, row pitch, token radius, label font size). One roomy column when few
# characters share a room, two tighter columns for a crowd of up to 12.
TOKEN_LAYOUTS: tuple[tuple[int, int, int, int], ...] = (
    (1, 40, 15, 22),
    (1, 27, 11, 20),
    (2, 27, 11, 20),
)
# Every text size of the board (the tests check them against READ_PX).
FONT_SIZES: tuple[int, ...] = (
    SMALLEST_FONT, TITLE_FONT, HEADER_FONT, ROOM_FONT, PORTAL_FONT, SLOT_NUMBER_FONT,
    SLOT_POINTS_FONT, SLOT_NAME_FONT, SECTION_FONT, SCORE_NAME_FONT, SCORE_FONT,
    *(size for _, _, _, size in TOKEN_LAYOUTS))


@dataclass(frozen=True)
class BoardGeometry:
    """Where everything is drawn, in image pixels. Boxes are (x0, y0, x1, y1)."""

    width: int
    height: int
    scale: float
    header: Box
    house: Box
    rooms: dict[int, Box]
    # Every grid-adjacent room pair (a < b) -> the middle of the gap between the two
    # tiles: a bridge is drawn there iff the pair is joined by a passage.
    gaps: dict[tuple[int, int], Point]
    tokens: dict[int, Point]  # character in the house -> token centre
    token_radius: dict[int, int]
    portals: dict[int, Point]  # room with face-down portals -> marker centre
    removed_line: Box
    # One slot per removal position, in order; the last is "last standing".
    removed_slots: list[Box]
    removed_centres: list[Point]  # token centre in each slot
    removed_radius: int
    score_track: Box
    score_cards: dict[int, Box] = field(default_factory=dict)  # seat -> card
    score_markers: dict[int, Point] = field(default_factory=dict)  # seat -> marker centre


def position_points(position: int, slots: int) -> int:
    """Points a character earns for leaving at `position` (1-based) of `slots`.

    The last slot is the survivor's. The rulebook: first and second out score 0,
    third 1, fourth 2, and so on.
    """
    if position >= slots:
        return LAST_STANDING_POINTS
    return max(0, position - 2)


def _grid(state: CthulhuState) -> tuple[int, int]:
    cols = max((r.col for r in state.rooms), default=0) + 1
    rows = max((r.row for r in state.rooms), default=0) + 1
    return max(cols, 1), max(rows, 1)


def _token_layout(count: int, area_h: int, s: float) -> tuple[int, int, int, int]:
    """The first arrangement whose rows fit the room; squeezes pitch beyond that."""
    for cols, pitch, radius, size in TOKEN_LAYOUTS:
        if math.ceil(count / cols) * pitch * s <= area_h:
            return cols, round(pitch * s), max(2, round(radius * s)), max(6, round(size * s))
    cols, _, radius, size = TOKEN_LAYOUTS[-1]
    pitch = area_h / max(1, math.ceil(count / cols))
    radius = min(radius * s, pitch * 0.42)
    return cols, max(1, math.floor(pitch)), max(2, round(radius)), max(6, round(min(size * s,
                                                                                     pitch * 0.7)))


def board_geometry(state: CthulhuState, width: int = BASE_WIDTH) -> BoardGeometry:
    """Lay the board out for `width`; the height follows from the content."""
    s = width / BASE_WIDTH

    def px(v: float) -> int:
        return max(1, round(v * s))

    margin = px(MARGIN)
    inner_w = width - 2 * margin
    header: Box = (margin, margin // 2, width - margin, margin // 2 + px(HEADER_H))

    # --- house
    cols, rows = _grid(state)
    gap = px(ROOM_GAP)
    room_w = (inner_w - (cols - 1) * gap) / cols
    room_h = px(ROOM_H)
    house_y0 = header[3] + px(8)
    rooms: dict[int, Box] = {}
    for i, room in enumerate(state.rooms):
        x0 = margin + round(room.col * (room_w + gap))
        y0 = house_y0 + room.row * (room_h + gap)
        rooms[i] = (x0, y0, margin + round(room.col * (room_w + gap) + room_w), y0 + room_h)
    house: Box = (margin, house_y0, width - margin, house_y0 + rows * room_h + (rows - 1) * gap)

    gaps: dict[tuple[int, int], Point] = {}
    cell = {(r.col, r.row): i for i, r in enumerate(state.rooms)}
    for (c, r), a in cell.items():
        for dc, dr in ((1, 0), (0, 1)):
            b = cell.get((c + dc, r + dr))
            if b is None:
                continue
            ba, bb = rooms[a], rooms[b]
            if dc:  # side by side: gap between a's right wall and b's left wall
                gx, gy = (ba[2] + bb[0]) // 2, (ba[1] + ba[3]) // 2
            else:
                gx, gy = (ba[0] + ba[2]) // 2, (ba[3] + bb[1]) // 2
            gaps[(min(a, b), max(a, b))] = (gx, gy)

    # --- tokens and portals inside rooms
    tokens: dict[int, Point] = {}
    token_radius: dict[int, int] = {}
    portals: dict[int, Point] = {}
    pad = px(ROOM_PAD)
    for i, (x0, y0, x1, y1) in rooms.items():
        inside = [c for c, where in enumerate(state.location) if where == i]
        area = (x0 + pad, y0 + px(NAME_BAND), x1 - pad, y1 - pad)
        area_h = area[3] - area[1]
        tcols, pitch, radius, _ = _token_layout(len(inside), area_h, s)
        per_col = math.ceil(len(inside) / tcols) if inside else 0
        col_w = (area[2] - area[0]) / tcols
        top = area[1] + (area_h - per_col * pitch) // 2
        for k, c in enumerate(inside):
            row, col = divmod(k, tcols)
            tokens[c] = (round(area[0] + col * col_w + radius + px(2)),
                         round(top + row * pitch + pitch / 2))
            token_radius[c] = radius
        if i < len(state.room_portals) and state.room_portals[i]:
            portals[i] = (x1 - pad - px(PORTAL_COUNT_W) - px(PORTAL_R),
                          y0 + px(NAME_BAND) // 2 + px(2))

    # --- removal line: rows of up to SLOTS_PER_ROW, read left to right, top to bottom
    line_y0 = house[3] + px(SECTION_GAP)
    slots_n = max(2, len(state.characters))
    per_row = min(slots_n, SLOTS_PER_ROW)
    slot_gap = px(SLOT_GAP)
    slot_w = (inner_w - (per_row - 1) * slot_gap) / per_row
    slot_h = px(SLOT_H)
    slot_y0 = line_y0 + px(SECTION_TITLE_H)
    removed_slots: list[Box] = []
    removed_centres: list[Point] = []
    removed_radius = px(17)
    for k in range(slots_n):
        row, col = divmod(k, per_row)
        x0 = margin + round(col * (slot_w + slot_gap))
        x1 = margin + round(col * (slot_w + slot_gap) + slot_w)
        y0 = slot_y0 + row * (slot_h + slot_gap)
        removed_slots.append((x0, y0, x1, y0 + slot_h))
        removed_centres.append((x0 + px(SLOT_LABEL_W) + removed_radius + px(4),
                                y0 + slot_h // 2))
    removed_line: Box = (margin, line_y0, width - margin, removed_slots[-1][3])

    # --- scores
    track_y0 = removed_line[3] + px(SECTION_GAP)
    seats = max(1, len(state.players))
    card_gap = px(CARD_GAP)
    card_w = min(px(CARD_MAX_W), (inner_w - (seats - 1) * card_gap) / seats)
    row_w = seats * card_w + (seats - 1) * card_gap
    start = margin + (inner_w - row_w) / 2
    cards: dict[int, Box] = {}
    markers: dict[int, Point] = {}
    for seat in range(len(state.players)):
        x0 = round(start + seat * (card_w + card_gap))
        x1 = round(start + seat * (card_w + card_gap) + card_w)
        cards[seat] = (x0, track_y0, x1, track_y0 + px(CARD_H))
        markers[seat] = (x0 + px(28), track_y0 + px(27))
    score_track: Box = (margin, track_y0, width - margin, track_y0 + px(CARD_H))

    height = score_track[3] + margin
    return BoardGeometry(
        width=width, height=height, scale=s, header=header, house=house, rooms=rooms,
        gaps=gaps, tokens=tokens, token_radius=token_radius, portals=portals,
        removed_line=removed_line, removed_slots=removed_slots,
        removed_centres=removed_centres, removed_radius=removed_radius,
        score_track=score_track, score_cards=cards, score_markers=markers,
    )


# ----------------------------------------------------------------------- drawing


def seat_marker(img: Image.Image, seat: int, centre: Point, radius: int,
                fill: Colour = TEXT) -> None:
    """A shape per seat, so players are told apart without relying on colour."""
    shape = seat % 6
    r = radius
    if shape == 0:
        disc(img, centre, r, fill)
    elif shape == 1:
        side = r * 0.86
        polygon(img, [(centre[0] - side, centre[1] - side), (centre[0] + side, centre[1] - side),
                      (centre[0] + side, centre[1] + side), (centre[0] - side, centre[1] + side)],
                fill)
    elif shape == 2:
        polygon(img, regular_polygon_points((centre[0], centre[1] + r * 0.18), r * 1.15, 3), fill)
    elif shape == 3:
        polygon(img, regular_polygon_points(centre, r * 1.1, 4), fill)
    elif shape == 4:
        polygon(img, regular_polygon_points(centre, r * 1.02, 6, rotation=0), fill)
    else:
        polygon(img, star_points(centre, r * 1.2), fill)
    # The seat number inside repeats the identity for anyone who cannot tell shapes.
    size = max(6, round(r * (0.85 if shape in (2, 5) else 1.05)))
    dy = r * 0.22 if shape == 2 else 0
    centered_text(ImageDraw.Draw(img), (centre[0], centre[1] + dy), str(seat + 1),
                  font(size, bold=True), contrast_text(fill), bold=True)


def _portal_marker(img: Image.Image, centre: Point, radius: int, bg: Colour) -> None:
    """Face-down portal: a violet swirl with a sickly core. Same for every kind.

    Drawn once per size and background and pasted through its disc's footprint, which
    matches drawing it in place on that (flat) background."""
    sprite, footprint = _portal_sprite(radius, bg)
    r = max(1, radius)
    img.paste(sprite, (centre[0] - r, centre[1] - r), footprint)


@lru_cache(maxsize=32)
def _portal_sprite(radius: int, bg: Colour) -> tuple[Image.Image, Image.Image]:
    r = max(1, radius)
    sprite = Image.new("RGB", (2 * r, 2 * r), bg)
    centre = (r, r)
    disc(sprite, centre, radius, PORTAL_VOID, outline=PORTAL_GLOW,
         width=max(1, round(radius * 0.3)))
    draw = ImageDraw.Draw(sprite)
    # Two arcs suggest a swirl without changing the centre pixel.
    r2 = radius * 0.62
    box = (centre[0] - r2, centre[1] - r2, centre[0] + r2, centre[1] + r2)
    w = max(1, round(radius * 0.12))
    draw.arc(box, 200, 330, fill=PORTAL_GLOW, width=w)
    draw.arc(box, 20, 150, fill=PORTAL_GLOW, width=w)
    disc(sprite, centre, max(2, radius * 0.3), PORTAL_CORE)
    footprint = Image.new("L", sprite.size, 0)
    disc_footprint(footprint, centre, radius)
    return sprite, footprint


def _token(img: Image.Image, centre: Point, radius: int, colour: Colour) -> None:
    # A light ring keeps dark character colours visible on the dark floor.
    disc(img, centre, radius, colour, outline=TEXT, width=max(1, round(radius * 0.16)))


# ------------------------------------------------------------------------- pieces
# What a board is composed of (renderers.canvas), each drawn once on the flat colour it
# lies on and shared by every game showing it. Every argument is a public fact: a
# piece can never carry a secret from one board to another.

PIECE_CACHE_SIZE = 1024


@pieces(PIECE_CACHE_SIZE)
def _portal(radius: int, on: Colour) -> Sprite:
    """A face-down portal on `on`, placed by its centre, through its disc's footprint."""
    sprite, footprint = _portal_sprite(radius, on)
    r = max(1, radius)
    return Sprite(sprite, footprint.point(COVERED, "1"), (-r, -r))


@pieces(PIECE_CACHE_SIZE)
def _marker(seat: int, radius: int, fill: Colour, on: Colour,
            fonts: tuple[object, ...]) -> Sprite:
    """`seat_marker` on `on`, placed by its centre. `fonts` only keys the cache."""
    pad = 2 * radius + 4
    img = Image.new("RGB", (2 * pad, 2 * pad), on)
    seat_marker(img, seat, (pad, pad), radius, fill)
    return trimmed(img, on, (pad, pad))


@pieces(PIECE_CACHE_SIZE)
def _star(radius: int, fill: Colour, on: Colour) -> Sprite:
    """A five-pointed star on `on`, placed by its centre."""
    pad = 2 * radius + 4
    img = Image.new("RGB", (2 * pad, 2 * pad), on)
    polygon(img, star_points((pad, pad), radius), fill)
    return trimmed(img, on, (pad, pad))


@pieces(PIECE_CACHE_SIZE)
def _character(colour: Colour, radius: int, on: Colour) -> Sprite:
    """A character's token on `on`, placed by its centre."""
    pad = radius + 2
    img = Image.new("RGB", (2 * pad, 2 * pad), on)
    _token(img, (pad, pad), radius, colour)
    return trimmed(img, on, (pad, pad))


@pieces(PIECE_CACHE_SIZE)
def _ring(radius: int, on: Colour) -> Sprite:
    """The ring round the token of the character the last action moved (radius: the
    token's), placed by its centre; it leaves the token's place untouched."""
    gap, width = max(1, round(radius * 0.18)), max(2, round(radius * 0.28))
    pad = radius + gap + width + 2
    img = Image.new("RGB", (2 * pad, 2 * pad), on)
    disc(img, (pad, pad), radius + gap + width, TRAIL)
    disc(img, (pad, pad), radius + gap, on)
    return trimmed(img, on, (pad, pad))


@pieces(64)
def _box(w: int, h: int, radius: int, fill: Colour, edge: Colour, width: int,
         on: Colour) -> Sprite:
    """A rounded box (a room, a slot, a score card) on `on`, w x h."""
    img = Image.new("RGB", (w, h), on)
    rounded_box(img, (0, 0, w, h), radius, fill, outline=edge, width=width)
    return Sprite(img)


@pieces(PIECE_CACHE_SIZE)
def _line(p0: tuple[float, float], p1: tuple[float, float], colour: Colour,
          width: int) -> Sprite:
    """A hard-edged line (a free-form passage), through its own pixels, placed at 0, 0."""
    x0, y0 = math.floor(min(p0[0], p1[0])) - width, math.floor(min(p0[1], p1[1])) - width
    x1, y1 = math.ceil(max(p0[0], p1[0])) + width, math.ceil(max(p0[1], p1[1])) + width
    img = Image.new("RGB", (x1 - x0 + 1, y1 - y0 + 1), BLACK)
    mask = Image.new("L", img.size, 0)
    shifted = ((p0[0] - x0, p0[1] - y0), (p1[0] - x0, p1[1] - y0))
    ImageDraw.Draw(img).line(shifted, fill=colour, width=width)
    ImageDraw.Draw(mask).line(shifted, fill=255, width=width)
    return Sprite(img, mask.point(COVERED, "1"), (x0, y0))


@pieces(PIECE_CACHE_SIZE)
def _slot(w: int, h: int, s: float, number: int, last: bool, points: int,
          centre: Point, radius: int, occupant: tuple[str, Colour] | None,
          fonts: tuple[object, ...]) -> Sprite:
    """Removal slot `number` (1-based; `last`: the survivor's), w x h on the background,
    empty or holding the character `occupant` (name, colour) with its token at
    `centre` (relative to the slot). `fonts` only keys the cache."""
    img = Image.new("RGB", (w, h), BG)
    draw = ImageDraw.Draw(img)
    filled = occupant is not None
    edge = GOLD if last else (PANEL_EDGE if filled else DIM)
    rounded_box(img, (0, 0, w, h), round(8 * s), PANEL, outline=edge, width=max(1, round(2 * s)))
    label_cx = round(SLOT_LABEL_W * s / 2) + round(2 * s)
    cy = h // 2
    if last:  # the survivor's slot: a star rather than a number
        polygon(img, star_points((label_cx, cy - round(9 * s)), round(11 * s)), GOLD)
    else:
        centered_text(draw, (label_cx, cy - round(9 * s)), str(number),
                      font(round(SLOT_NUMBER_FONT * s), bold=True), TEXT if filled else MUTED,
                      bold=True)
    centered_text(draw, (label_cx, cy + round(14 * s)), f"+{points}",
                  font(round(SLOT_POINTS_FONT * s), bold=True), GOLD if points else MUTED,
                  bold=True)
    r = radius
    if occupant is not None:
        name, colour = occupant
        _token(img, centre, r, colour)
        lx = centre[0] + r + round(8 * s)
        f, text = fit_text(name, w - round(8 * s) - lx, round(SLOT_NAME_FONT * s),
                           min_size=round(SMALLEST_FONT * s), bold=True)
        draw_text(draw, (lx, cy), text, f, TEXT, anchor="lm", bold=True)
    else:
        disc(img, centre, r, PANEL, outline=DIM, width=max(1, round(2 * s)))
        if last:
            lx = centre[0] + r + round(8 * s)
            f, text = fit_text("survivor", w - round(8 * s) - lx, round(SLOT_NAME_FONT * s),
                               min_size=round(SMALLEST_FONT * s))
            draw_text(draw, (lx, cy), text, f, MUTED, anchor="lm")
    return Sprite(img)


def _hline(canvas: Canvas, x0: int, x1: int, y: int, width: int, colour: Colour) -> None:
    """What ImageDraw.line draws from (x0, y) to (x1, y) at this width: a rectangle."""
    top = y - (width - 1) // 2
    canvas.fill((x0, top, x1 + 1, top + width), colour)


def _rect(canvas: Canvas, box: Box, colour: Colour) -> None:
    """What ImageDraw.rectangle draws for this box (x1, y1 inclusive)."""
    x0, y0, x1, y1 = box
    canvas.fill((x0, y0, x1 + 1, y1 + 1), colour)


# ----------------------------------------------------------------------- drawing


def _draw_passages(canvas: Canvas, passages: tuple[tuple[int, int], ...],
                   geo: BoardGeometry) -> None:
    """Doorways: floor-coloured bridges that break both walls, so joined rooms read as one
    open space; unjoined neighbours keep their walls and a dark gap between them."""
    s = geo.scale
    wall = max(1, round(WALL_W * s))
    half = max(2, round(DOOR_SPAN * s / 2))
    for a, b in passages:
        if a not in geo.rooms or b not in geo.rooms:
            continue
        ra, rb = geo.rooms[a], geo.rooms[b]
        if (a, b) in geo.gaps:
            gx, gy = geo.gaps[(a, b)]
            if ra[3] <= rb[1] or rb[3] <= ra[1]:  # stacked: vertical corridor
                top, bottom = min(ra[3], rb[3]) - wall - 1, max(ra[1], rb[1]) + wall
                _rect(canvas, (gx - half, top, gx + half - 1, bottom), FLOOR)
                for x in (gx - half - wall, gx + half):
                    _rect(canvas, (x, top + wall + 1, x + wall - 1, bottom - wall), WALL)
            else:  # side by side: horizontal corridor
                left, right = min(ra[2], rb[2]) - wall - 1, max(ra[0], rb[0]) + wall
                _rect(canvas, (left, gy - half, right, gy + half - 1), FLOOR)
                for y in (gy - half - wall, gy + half):
                    _rect(canvas, (left + wall + 1, y, right - wall, y + wall - 1), WALL)


def _far_passages(state: CthulhuState, geo: BoardGeometry) -> list[tuple[Point, Point, bool]]:
    """Passages between rooms that are not grid neighbours (a free-form layout), as
    centre-to-centre segments, flagged when the segment crosses some third room."""
    out = []
    for a, b in sorted({(min(p), max(p)) for p in state.passages}):
        if (a, b) in geo.gaps or a not in geo.rooms or b not in geo.rooms:
            continue
        ra, rb = geo.rooms[a], geo.rooms[b]
        ca = ((ra[0] + ra[2]) // 2, (ra[1] + ra[3]) // 2)
        cb = ((rb[0] + rb[2]) // 2, (rb[1] + rb[3]) // 2)
        samples = [(ca[0] + (cb[0] - ca[0]) * k / 64, ca[1] + (cb[1] - ca[1]) * k / 64)
                   for k in range(65)]
        crosses = any(x0 < x < x1 and y0 < y < y1
                      for i, (x0, y0, x1, y1) in geo.rooms.items() if i not in (a, b)
                      for x, y in samples)
        out.append((ca, cb, crosses))
    return out


def _draw_far_passages(canvas: Canvas, far: list[tuple[Point, Point, bool]],
                       geo: BoardGeometry, *, over_tiles: bool) -> None:
    """A corridor drawn under the tiles, so their walls cap its ends; one that would pass
    under a third room is drawn over the tiles as a dashed line instead, lest it read as
    two passages through that room."""
    w = max(2, round(DOOR_SPAN * geo.scale * 0.4))
    wall = max(1, round(WALL_W * geo.scale))
    for ca, cb, crosses in far:
        if crosses != over_tiles:
            continue
        if not crosses:
            canvas.put((0, 0), _line(canvas.ink, ca, cb, WALL, w + 2 * wall))
            canvas.put((0, 0), _line(canvas.ink, ca, cb, FLOOR, w))
            continue
        length = math.dist(ca, cb)
        dash = max(4, round(14 * geo.scale))
        for k in range(0, int(length), 2 * dash):
            t0, t1 = k / length, min(1.0, (k + dash) / length)
            p0 = (ca[0] + (cb[0] - ca[0]) * t0, ca[1] + (cb[1] - ca[1]) * t0)
            p1 = (ca[0] + (cb[0] - ca[0]) * t1, ca[1] + (cb[1] - ca[1]) * t1)
            canvas.put((0, 0), _line(canvas.ink, p0, p1, WALL, max(2, wall)))


def _draw_header(canvas: Canvas, state: CthulhuState, geo: BoardGeometry) -> None:
    s = geo.scale
    fonts = font_signature()
    x0, y0, x1, y1 = geo.header
    cy = (y0 + y1) // 2
    title = f"Rumble {min(state.rumble, RUMBLES)} of {RUMBLES}"
    title_font = font(round(TITLE_FONT * s), bold=True)
    canvas.text((x0, cy), title, title_font, TEXT, on=BG, anchor="lm", bold=True)
    used = x0 + text_width(title_font, title) + round(24 * s)

    marker_r = round(14 * s)
    if state.over:
        names = [state.players[w] for w in state.winners if 0 <= w < len(state.players)]
        label = ("Winners: " if len(names) > 1 else "Winner: ") + " & ".join(names)
        if not names:
            label = "Game over"
        f, text = fit_text(label, x1 - used, round(HEADER_FONT * s),
                           min_size=round(SMALLEST_FONT * s), bold=True)
        canvas.text((x1, cy), text, f, GOLD, on=BG, anchor="rm", bold=True)
        tw = text_width(f, text)
        canvas.put((x1 - tw - round(22 * s), cy), _star(canvas.ink, round(16 * s), GOLD, BG))
    elif 0 <= state.turn < len(state.players):
        room = x1 - used - 3 * marker_r
        label = f"{state.players[state.turn]} to play"
        f, text = fit_text(label, room, round(HEADER_FONT * s),
                           min_size=round(SMALLEST_FONT * s), bold=True)
        canvas.text((x1, cy), text, f, ACCENT, on=BG, anchor="rm", bold=True)
        tw = text_width(f, text)
        canvas.put((x1 - tw - round(12 * s) - marker_r, cy),
                   _marker(canvas.ink, state.turn, marker_r, ACCENT, BG, fonts))
    _hline(canvas, x0, x1, y1 - 1, max(1, round(2 * s)), PANEL_EDGE)


def _draw_house(canvas: Canvas, house: HouseKey, geo: BoardGeometry,
                far: list[tuple[Point, Point, bool]]) -> None:
    """The house itself: tiles, passages and the line under each room's name band, drawn
    from public house facts alone (`_house_key`)."""
    s = geo.scale
    wall = max(1, round(WALL_W * s))
    pad = max(1, round(ROOM_PAD * s))
    radius = round(ROOM_RADIUS * s)
    for x0, y0, x1, y1 in geo.rooms.values():
        canvas.put((x0, y0), _box(canvas.ink, x1 - x0, y1 - y0, radius, FLOOR, WALL, wall, BG))
    _draw_passages(canvas, house[1], geo)
    _draw_far_passages(canvas, far, geo, over_tiles=True)
    for x0, y0, x1, _ in geo.rooms.values():
        _hline(canvas, x0 + pad, x1 - pad, y0 + round((NAME_BAND - 2) * s), max(1, round(s)),
               DIM)


def _draw_rooms(canvas: Canvas, state: CthulhuState, geo: BoardGeometry) -> None:
    """What changes inside the rooms: names (narrower beside portals), portals, tokens."""
    s = geo.scale
    pad = max(1, round(ROOM_PAD * s))
    for i, (x0, y0, x1, y1) in geo.rooms.items():
        name_right = x1 - pad
        if i in geo.portals:
            name_right = geo.portals[i][0] - round(PORTAL_R * s) - round(6 * s)
        f, text = fit_text(state.rooms[i].name, name_right - x0 - pad, round(ROOM_FONT * s),
                           min_size=round(SMALLEST_FONT * s), bold=True)
        canvas.text((x0 + pad, y0 + round(NAME_BAND * s) // 2 + round(3 * s)), text, f, TEXT,
                    on=FLOOR, anchor="lm", bold=True)
        if i in geo.portals:
            centre = geo.portals[i]
            canvas.put(centre, _portal(canvas.ink, round(PORTAL_R * s), FLOOR))
            count = len(state.room_portals[i])
            canvas.text((centre[0] + round((PORTAL_R + 4) * s), centre[1]), f"×{count}",
                        font(round(PORTAL_FONT * s), bold=True), PORTAL_CORE, on=FLOOR,
                        anchor="lm",
                        bold=True)

        inside = [c for c, where in enumerate(state.location) if where == i]
        if not inside:
            continue
        area_h = (y1 - pad) - (y0 + round(NAME_BAND * s))
        tcols, _, radius, size = _token_layout(len(inside), area_h, s)
        col_w = (x1 - x0 - 2 * pad) / tcols
        for c in inside:
            cx, cy = geo.tokens[c]
            colour = parse_colour(state.characters[c].colour)
            canvas.put((cx, cy), _character(canvas.ink, colour, radius, FLOOR))
            lx = cx + radius + round(6 * s)
            max_w = round(x0 + pad + ((cx - x0 - pad) // col_w + 1) * col_w - lx - 2 * s)
            f, text = fit_text(state.characters[c].name, max_w, size,
                               min_size=min(size, round(SMALLEST_FONT * s)), bold=True)
            canvas.text((lx, cy), text, f, TEXT, on=FLOOR, anchor="lm", bold=True)


def _removed_title_y(geo: BoardGeometry) -> int:
    return geo.removed_line[1] + round(SECTION_TITLE_H * geo.scale) // 2 - round(2 * geo.scale)


def _put_slot(canvas: Canvas, geo: BoardGeometry, k: int,
              occupant: Character | None) -> None:
    """Removal slot k, empty (occupant None) or holding the character `occupant`."""
    sx0, sy0, sx1, sy1 = geo.removed_slots[k]
    slots = len(geo.removed_slots)
    cx, cy = geo.removed_centres[k]
    who = None if occupant is None else (occupant.name, parse_colour(occupant.colour))
    canvas.put((sx0, sy0), _slot(canvas.ink, sx1 - sx0, sy1 - sy0, geo.scale, k + 1,
                                 k == slots - 1, position_points(k + 1, slots),
                                 (cx - sx0, cy - sy0), geo.removed_radius, who,
                                 font_signature()))


def _draw_removal_line(canvas: Canvas, geo: BoardGeometry) -> None:
    """The section title and every slot empty: the same for every state of a house."""
    canvas.text((geo.removed_line[0], _removed_title_y(geo)), "Left the house",
                font(round(SECTION_FONT * geo.scale), bold=True), MUTED, on=BG, anchor="lm",
                bold=True)
    for k in range(len(geo.removed_slots)):
        _put_slot(canvas, geo, k, None)


def _draw_removed(canvas: Canvas, state: CthulhuState, geo: BoardGeometry) -> None:
    """The reserve's count and the filled slots, over the empty ones."""
    s = geo.scale
    x1, title_y = geo.removed_line[2], _removed_title_y(geo)
    reserve = len(state.reserve)
    if reserve:
        label = f"{reserve} portal{'s' if reserve != 1 else ''} beside the house"
        f = font(round(SECTION_FONT * s))
        canvas.text((x1, title_y), label, f, MUTED, on=BG, anchor="rm")
        canvas.put((x1 - text_width(f, label) - round(16 * s), title_y),
                   _portal(canvas.ink, round(10 * s), BG))

    remaining = [c for c, where in enumerate(state.location) if where is not None]
    slots = len(geo.removed_slots)
    occupant: dict[int, int] = dict(enumerate(state.removed[: slots - 1]))
    if len(remaining) == 1 and len(state.removed) >= slots - 1:
        occupant[slots - 1] = remaining[0]
    for k, c in sorted(occupant.items()):
        _put_slot(canvas, geo, k, state.characters[c])


def _draw_scores(canvas: Canvas, state: CthulhuState, geo: BoardGeometry) -> None:
    s = geo.scale
    fonts = font_signature()
    top_score = max([RUMBLES * LAST_STANDING_POINTS, *state.scores])
    for seat, (x0, y0, x1, y1) in geo.score_cards.items():
        winner = state.over and seat in state.winners
        to_play = not state.over and seat == state.turn
        edge = GOLD if winner else ACCENT if to_play else PANEL_EDGE
        canvas.put((x0, y0), _box(canvas.ink, x1 - x0, y1 - y0, round(10 * s), PANEL, edge,
                                  max(1, round((3 if winner or to_play else 2) * s)), BG))
        mx, my = geo.score_markers[seat]
        canvas.put((mx, my), _marker(canvas.ink, seat, round(15 * s), TEXT, PANEL, fonts))
        score = state.scores[seat] if seat < len(state.scores) else 0
        name_x = mx + round(24 * s)
        f, text = fit_text(state.players[seat], x1 - round(10 * s) - name_x,
                           round(SCORE_NAME_FONT * s),
                           min_size=round(SMALLEST_FONT * s), bold=True)
        canvas.text((name_x, my), text, f, TEXT, on=PANEL, anchor="lm", bold=True)
        # Second row: the track (0..30, ticks every 10 points) and the total.
        score_font = font(round(SCORE_FONT * s), bold=True)
        score_text = str(score)
        sw = max(text_width(score_font, score_text), text_width(score_font, "00"))
        row2 = y1 - round(24 * s)
        canvas.text((x1 - round(12 * s), row2), score_text, score_font,
                    GOLD if winner else TEXT, on=PANEL, anchor="rm", bold=True)
        tx0, tx1 = x0 + round(14 * s), x1 - round(22 * s) - sw
        th = max(2, round(8 * s))
        ty = row2 - th // 2
        _rect(canvas, (tx0, ty, tx1, ty + th - 1), DIM)
        fill_x = tx0 + round((tx1 - tx0) * min(score, top_score) / top_score)
        if fill_x > tx0:
            _rect(canvas, (tx0, ty, fill_x, ty + th - 1), GOLD if winner else ACCENT)
        for tick in range(10, top_score, 10):
            tx = tx0 + round((tx1 - tx0) * tick / top_score)
            _rect(canvas, (tx, ty - round(4 * s), tx + max(0, round(s) - 1),
                           ty + th - 1 + round(4 * s)), MUTED)


# Where the rooms are, which are joined (sorted pairs), how many characters there are.
HouseKey = tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...], int]


def _draw_last(canvas: Canvas, state: CthulhuState, geo: BoardGeometry) -> None:
    """The last action (`state.last`, public): a frame round the rooms it touched (the
    room left and the room entered, or where the fight was) in the corridor round the
    tile, and a ring under the token of the character it moved, if still in the house."""
    last = state.last
    k = max(2, round(6 * geo.scale))
    rooms = [int(last[name]) for name in ("from", "to", "room") if last.get(name) is not None]
    for i in dict.fromkeys(rooms):
        box = geo.rooms.get(i)
        if box is None:
            continue
        x0, y0, x1, y1 = box
        for band in ((x0 - k, y0 - k, x1 + k, y0), (x0 - k, y1, x1 + k, y1 + k),
                     (x0 - k, y0, x0, y1), (x1, y0, x1 + k, y1)):
            _rect(canvas, (band[0], band[1], band[2] - 1, band[3] - 1), TRAIL)
    moved = last.get("character")
    if moved is not None and int(moved) in geo.tokens:
        c = int(moved)
        canvas.put(geo.tokens[c], _ring(canvas.ink, geo.token_radius[c], FLOOR))


def _house_key(state: CthulhuState) -> HouseKey:
    """The public facts the house (rooms, passages, the empty removal line) is drawn
    from: what no secret can change."""
    return (
        tuple((r.col, r.row) for r in state.rooms),
        tuple(sorted({(min(a, b), max(a, b)) for a, b in state.passages})),
        len(state.characters),
    )


def compose(state: CthulhuState, width: int, ink: Ink | None) -> Canvas:
    """The board drawn for `state`: in RGB without an ink, else in that ink's indices."""
    geo = board_geometry(state, width)
    canvas = Canvas((geo.width, geo.height), BG, ink)
    far = _far_passages(state, geo)
    _draw_far_passages(canvas, far, geo, over_tiles=False)
    _draw_house(canvas, _house_key(state), geo, far)
    _draw_removal_line(canvas, geo)
    _draw_header(canvas, state, geo)
    _draw_last(canvas, state, geo)
    _draw_rooms(canvas, state, geo)
    _draw_removed(canvas, state, geo)
    _draw_scores(canvas, state, geo)
    return canvas


# The PNG palette is fitted once per look (width, character colours, fonts) to two
# sample boards drawn from made-up states, then reused for every board of that look
# (every game plays the same twelve characters, so in play there is one): the layout
# does not matter (only the colours do), and since it is fitted to nothing from a real
# game, no state can leak into another's image through it.
FLAT_COLOURS: tuple[Colour, ...] = (BG, PANEL, PANEL_EDGE, FLOOR, WALL, TEXT, MUTED, DIM,
                                    GOLD, ACCENT, PORTAL_GLOW, PORTAL_VOID, PORTAL_CORE,
                                    TRAIL, BLACK, WHITE)
_SAMPLE_ROOMS = ("Attic", "Observatory", "Nursery", "Chapel", "Library", "Great Hall",
                 "Ballroom", "Conservatory", "Cellar", "Kitchen", "Crypt", "Study")


def _sample_states(colours: tuple[Colour, ...]) -> list[CthulhuState]:
    n = len(colours)
    rooms = [Room(name, i % 4, i // 4) for i, name in enumerate(_SAMPLE_ROOMS)]
    passages = [(i, i + 1) for i in range(12) if i % 4 < 3 and i not in (1, 6)]
    passages += [(i, i + 4) for i in range(8) if i not in (5,)]
    chars = [Character(f"Character {c + 1}", "#{:02x}{:02x}{:02x}".format(*colours[c]))
             for c in range(n)]
    players = [f"Player {p + 1}" for p in range(6)]
    inside, out = list(range(0, n, 2)), list(range(1, n, 2))
    location: list[int | None] = [None] * n
    for k, c in enumerate(inside):
        location[c] = (k % 4) * 3 if k < 8 else 5  # single, shared and crowded rooms
    portals: list[list[str]] = [[] for _ in rooms]
    portals[3], portals[5], portals[10] = ["?", "?"], ["?"], ["?"]
    mid = CthulhuState(
        players=players, ai=[False] * 6, layout="", rooms=rooms, passages=passages,
        characters=chars, location=location, room_portals=portals, reserve=["?"] * 3,
        removed=out, scores=[0, 4, 9, 13, 21, 30], rumble=2, turn=1,
        last={"seat": 0, "kind": "move", "character": 0, "from": 1, "to": 0} if n else {},
    )
    last: list[int | None] = [None] * n
    if n:
        last[0] = 7
    over = CthulhuState(
        players=players, ai=[False] * 6, layout="", rooms=rooms, passages=passages,
        characters=chars, location=last, room_portals=[[] for _ in rooms], reserve=["?"],
        removed=list(range(1, n)), scores=[3, 11, 35, 7, 19, 26], rumble=RUMBLES, over=True,
        winners=[2],
    )
    return [mid, over]


@lru_cache(maxsize=8)
def _ink(width: int, colours: tuple[Colour, ...], fonts: tuple[object, ...]) -> Ink:
    samples = [compose(state, width, None).image for state in _sample_states(colours)]
    return Ink(make_palette(samples, exact=FLAT_COLOURS + colours))  # type: ignore[arg-type]


register(_ink)


def board_ink(state: CthulhuState, width: int) -> Ink:
    """The palette (with its lookups) of boards with these characters at this width."""
    colours = tuple(parse_colour(c.colour) for c in state.characters)
    return _ink(int(width), colours, font_signature())


def render_indexed(state: CthulhuState, *, width: int = BASE_WIDTH) -> Image.Image:
    """The board as the PNG holds it: a "P" image in the board's fixed palette."""
    return compose(state, width, board_ink(state, width)).finish()


def render_image(state: CthulhuState, *, width: int = BASE_WIDTH) -> Image.Image:
    """The board as an RGB image (for callers that compose or inspect it). Quantized to
    the board's palette it is `render_indexed`, pixel for pixel."""
    return compose(state, width, None).finish()


def encode_board(state: CthulhuState, img: Image.Image) -> bytes:
    """PNG bytes of a board image drawn for `state` (RGB is mapped to its palette)."""
    if img.mode == "P":
        return to_png(img)
    return to_png(img, palette=board_ink(state, img.width).palette)


def render_board(state: CthulhuState, *, width: int = BASE_WIDTH) -> bytes:
    """The public board as PNG bytes, ready to attach to the channel message: written
    band by band, the bands drawn as before (by this game or any other) reused."""
    return compose(state, width, board_ink(state, width)).png()
