"""Where everything on a Cthulhu board goes: the palette, the sizes (written for an
1100 px board and scaled) and `board_geometry`, which lays a board out from arithmetic
alone, so tests and the drawing code see the same boxes.

Discord shows an image inline inside about 550 x 350 px, so the board is one fixed
landscape canvas of that shape for the whole game (1100 x 700): the same size on every
edit, so the live message never jumps, and every text at least READ_PX px there. The
house takes the left, the removal line a column on the right (a row per slot), the
scores a strip along the bottom."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from bot.games.cthulhu.state import (
    LAST_STANDING_POINTS,
    CthulhuState,
)
from renderers.common import (
    Box,
    Colour,
    Point,
)

BASE_WIDTH = 1100
SHOWN_WIDTH, SHOWN_HEIGHT = 550, 350  # the box Discord shows an image in, inline

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
MARGIN = 16
HEADER_H = 48
ROOM_GAP = 26  # the corridor space between tiles, where passages are drawn
COLUMN_W = 290  # the removal line's column, right of the house
COLUMN_GAP = 18
ROOM_RADIUS = 12
WALL_W = 4
NAME_BAND = 42
ROOM_PAD = 8
NAME_PAD = 8  # a room name's inset from the walls: "Conservatory" fits a 4-column house
DOOR_SPAN = 66  # length of a doorway along the wall
PORTAL_R = 15
PORTAL_COUNT_W = 34
SECTION_GAP = 18
SECTION_TITLE_H = 32
SLOT_H = 38
SLOT_GAP = 4
SLOT_LABEL_W = 76  # a slot's number and its points, side by side
CARD_H = 70
CARD_GAP = 10
CARD_MAX_W = 300

# Text sizes at BASE_WIDTH. Discord shows a board READ_WIDTH px wide in the channel and
# text under READ_PX there cannot be read, so no size is below SMALLEST_FONT (READ_PX *
# BASE_WIDTH / READ_WIDTH, and a pixel to spare): text too long for its place is cut
# before it shrinks past it. The seat number inside a seat's shape is text a player
# reads too (it tells the seats apart for anyone who cannot tell the shapes apart).
READ_WIDTH = SHOWN_WIDTH
READ_PX = 9
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
SEAT_NUMBER_FONT = SMALLEST_FONT  # at SEAT_MARKER_R: the marker is sized to hold it
SEAT_MARKER_R = 16  # a seat's shape (renderers.cthulhu.seats), in the header and cards
SCORE_NAME_DX = 24  # a score card's name starts this far right of its seat marker
SCORE_ROW_DY = 20  # a score card's second row (bar and score): this far over its bottom

# Token arrangements inside a room, tried in order until all tokens fit:
# (columns, row pitch, token radius, label font size). One roomy column when few
# characters share a room, two or three tighter columns for a crowd of up to 12.
TOKEN_LAYOUTS: tuple[tuple[int, int, int, int], ...] = (
    (1, 36, 14, 22),
    (1, 26, 11, 20),
    (2, 26, 11, 20),
    (3, 26, 11, 20),  # a crowd of 9-12: short names are cut, the tokens stay whole
)
# Every text size of the board (the tests check them against READ_PX).
FONT_SIZES: tuple[int, ...] = (
    SMALLEST_FONT, TITLE_FONT, HEADER_FONT, ROOM_FONT, PORTAL_FONT, SLOT_NUMBER_FONT,
    SLOT_POINTS_FONT, SLOT_NAME_FONT, SECTION_FONT, SCORE_NAME_FONT, SCORE_FONT,
    SEAT_NUMBER_FONT, *(size for _, _, _, size in TOKEN_LAYOUTS))


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
    score_names: dict[int, Point] = field(default_factory=dict)  # seat -> name's left middle
    # seat -> the box its score bar and ticks may reach (the bar stops short of the score)
    score_bars: dict[int, Box] = field(default_factory=dict)
    marker_radius: int = SEAT_MARKER_R  # a seat marker's, in the header and the cards


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


def token_layout(count: int, area_h: int, s: float) -> tuple[int, int, int, int]:
    """The first arrangement whose rows fit the room; squeezes pitch beyond that."""
    for cols, pitch, radius, size in TOKEN_LAYOUTS:
        if math.ceil(count / cols) * pitch * s <= area_h:
            return cols, round(pitch * s), max(2, round(radius * s)), max(6, round(size * s))
    # Past the last arrangement (a board drawn far under its size): rows squeezed.
    cols, _, radius, size = TOKEN_LAYOUTS[-1]
    squeezed = area_h / max(1, math.ceil(count / cols))
    shrunk = min(radius * s, squeezed * 0.42)
    return (cols, max(1, math.floor(squeezed)), max(2, round(shrunk)),
            max(6, round(min(size * s, squeezed * 0.7))))


def height_of(width: int) -> int:
    """The canvas' height for this width: always the chat's shape."""
    return round(width * SHOWN_HEIGHT / SHOWN_WIDTH)


def board_geometry(state: CthulhuState, width: int = BASE_WIDTH) -> BoardGeometry:
    """Lay the board out for `width`, on the chat-shaped canvas (`height_of`)."""
    s = width / BASE_WIDTH

    def px(v: float) -> int:
        return max(1, round(v * s))

    height = height_of(width)
    margin = px(MARGIN)
    inner_w = width - 2 * margin
    header: Box = (margin, px(8), width - margin, px(8) + px(HEADER_H))

    # --- scores: a strip along the bottom
    track_y0 = height - margin - px(CARD_H)
    seats = max(1, len(state.players))
    card_gap = px(CARD_GAP)
    card_w = min(px(CARD_MAX_W), (inner_w - (seats - 1) * card_gap) / seats)
    row_w = seats * card_w + (seats - 1) * card_gap
    start = margin + (inner_w - row_w) / 2
    cards: dict[int, Box] = {}
    markers: dict[int, Point] = {}
    names: dict[int, Point] = {}
    bars: dict[int, Box] = {}
    for seat in range(len(state.players)):
        x0 = round(start + seat * (card_w + card_gap))
        x1 = round(start + seat * (card_w + card_gap) + card_w)
        cards[seat] = (x0, track_y0, x1, track_y0 + px(CARD_H))
        markers[seat] = (x0 + px(26), track_y0 + px(24))
        names[seat] = (markers[seat][0] + px(SCORE_NAME_DX), markers[seat][1])
        # Second row: the bar, its ticks reaching px(4) above and below it, under the
        # marker (which reaches SEAT_MARKER_R and a little more below its centre).
        bar_y = track_y0 + px(CARD_H) - px(SCORE_ROW_DY) - max(2, px(8)) // 2
        bars[seat] = (x0 + px(14), bar_y - px(4), x1 - px(22),
                      bar_y + max(2, px(8)) + px(4))
    score_track: Box = (margin, track_y0, width - margin, track_y0 + px(CARD_H))

    # --- house: the left, from under the header to over the scores
    cols, rows = _grid(state)
    gap = px(ROOM_GAP)
    column_x0 = width - margin - px(COLUMN_W)
    house_x1 = column_x0 - px(COLUMN_GAP)
    house_y0 = header[3] + px(8)
    house_y1 = track_y0 - px(SECTION_GAP)
    room_w = (house_x1 - margin - (cols - 1) * gap) / cols
    room_h = (house_y1 - house_y0 - (rows - 1) * gap) / rows
    rooms: dict[int, Box] = {}
    for i, room in enumerate(state.rooms):
        x0 = margin + round(room.col * (room_w + gap))
        y0 = house_y0 + round(room.row * (room_h + gap))
        rooms[i] = (x0, y0, margin + round(room.col * (room_w + gap) + room_w),
                    house_y0 + round(room.row * (room_h + gap) + room_h))
    house: Box = (margin, house_y0, house_x1, house_y1)

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

    # --- tokens and portals inside rooms. Portals sit under the name, at the right, and
    # the tokens below them, where one roomy column of tokens still fits there; else
    # beside the name (the name is cut shorter, never a token or its name covered).
    tokens: dict[int, Point] = {}
    token_radius: dict[int, int] = {}
    portals: dict[int, Point] = {}
    pad = px(ROOM_PAD)
    for i, (x0, y0, x1, y1) in rooms.items():
        inside = [c for c, where in enumerate(state.location) if where == i]
        portal_here = i < len(state.room_portals) and bool(state.room_portals[i])
        area = (x0 + pad, y0 + px(NAME_BAND), x1 - pad, y1 - pad)
        under = y0 + px(NAME_BAND) + px(2 * PORTAL_R + 6)
        portal_under = portal_here and token_layout(len(inside), y1 - pad - under, s)[0] == 1 \
            and len(inside) * px(TOKEN_LAYOUTS[1][1]) <= y1 - pad - under
        if portal_under:
            area = (area[0], under, area[2], area[3])
        area_h = area[3] - area[1]
        tcols, pitch, radius, _ = token_layout(len(inside), area_h, s)
        per_col = math.ceil(len(inside) / tcols) if inside else 0
        col_w = (area[2] - area[0]) / tcols
        top = area[1] + (area_h - per_col * pitch) // 2
        for k, c in enumerate(inside):
            row, col = divmod(k, tcols)
            tokens[c] = (round(area[0] + col * col_w + radius + px(2)),
                         round(top + row * pitch + pitch / 2))
            token_radius[c] = radius
        if portal_here:
            below = y0 + px(NAME_BAND) + px(PORTAL_R) + px(2)
            portals[i] = (x1 - pad - px(PORTAL_COUNT_W) - px(PORTAL_R),
                          below if portal_under else y0 + px(NAME_BAND) // 2 + px(2))

    # --- removal line: the right column, a row per slot, read top to bottom
    line_y0 = house_y0
    slots_n = max(2, len(state.characters))
    slot_y0 = line_y0 + px(SECTION_TITLE_H)
    slot_h = min(px(SLOT_H), (house_y1 - slot_y0 - (slots_n - 1) * px(SLOT_GAP)) / slots_n)
    removed_slots: list[Box] = []
    removed_centres: list[Point] = []
    removed_radius = min(px(14), round(slot_h * 0.38))
    for k in range(slots_n):
        y0 = round(slot_y0 + k * (slot_h + px(SLOT_GAP)))
        removed_slots.append((column_x0, y0, width - margin,
                              round(slot_y0 + k * (slot_h + px(SLOT_GAP)) + slot_h)))
        removed_centres.append((column_x0 + px(SLOT_LABEL_W) + removed_radius + px(4),
                                (y0 + removed_slots[-1][3]) // 2))
    removed_line: Box = (column_x0, line_y0, width - margin, removed_slots[-1][3])

    return BoardGeometry(
        width=width, height=height, scale=s, header=header, house=house, rooms=rooms,
        gaps=gaps, tokens=tokens, token_radius=token_radius, portals=portals,
        removed_line=removed_line, removed_slots=removed_slots,
        removed_centres=removed_centres, removed_radius=removed_radius,
        score_track=score_track, score_cards=cards, score_markers=markers,
        score_names=names, score_bars=bars, marker_radius=px(SEAT_MARKER_R),
    )
