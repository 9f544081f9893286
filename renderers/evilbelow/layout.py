"""Where everything on an IT: Evil Below board goes, from arithmetic alone, so the tests
and the drawing code see the same boxes.

Discord shows an image inline inside about 550 x 350 px, so the board is one fixed
landscape canvas of that shape for the whole game (1100 x 700 px): the same size on every
edit, whatever happens, so the live message never jumps. Sizes are written in units of a
board U wide and scaled; the smallest text, MIN_TEXT units, is still READ_PX px when the
board is shown 550 px wide (`displayed_px`, checked by the tests for every text size).

The town takes the left: the ring of seven locations around the Drainpipe, each showing
its circles, its die of the last roll, who stands there, its Bikes and Pennywise. The
right column holds the two tracks, the fight's turned cards, the face-up weaknesses and
the Losers, one row each (seven at most).
"""

from __future__ import annotations

from dataclasses import dataclass

from renderers.common import Box

BASE_WIDTH = 1100
U = 600  # the width sizes are written for
SHOWN_WIDTH, SHOWN_HEIGHT = 550, 350  # the box Discord shows an image in, inline
HEIGHT_U = U * SHOWN_HEIGHT / SHOWN_WIDTH  # the canvas' height, in units
READ_PX = 9  # the smallest text a player can read at chat size, in displayed px
MIN_TEXT = 11  # the smallest text, in units

MARGIN, GAP, HEADER = 6, 4, 22
TOWN_W = 364  # the left part: the 3 x 3 grid of the town
COLUMN_X = MARGIN + TOWN_W + 6  # the right column
COLUMN_W = U - MARGIN - COLUMN_X
CELL_W = (TOWN_W - 2 * GAP) / 3
CELL_H = (HEIGHT_U - HEADER - MARGIN - 2 * GAP) / 3
NAME_BAND = 28  # a location's name, on up to two lines
CIRCLE_R, CIRCLE_STEP, CIRCLE_Y = 9, 21, 40
DIE = 22  # a die of the last roll, in its location's circles row
PAWN_R, PAWN_STEP, PAWNS_PER_ROW = 9, 22, 4
PAWN_ROWS_Y = (64, 85)
BIKE_Y = 104
MOVED_RING = 2.5  # how far out of a pawn the ring of a hero that moved this turn lies

# The right column, top to bottom (y in units).
TRACK_Y = (HEADER + 2, HEADER + 34)  # each track: its label row, then its spaces
TRACK_LABEL_H, SPACE, SPACE_STEP = 13, 15, 16.5
DICE_Y = 91  # whose roll the dice in the town are
FIGHT_Y = 106  # the fight's cards: a row of cards, then their names
CARD_W, CARD_H, CARD_STEP = 12, 16, 14
WEAK_Y = 166
WEAK_ROW = 26
HEROES_Y = WEAK_Y + 14 + 3 * WEAK_ROW + 3
HERO_ROW = (HEIGHT_U - MARGIN - HEROES_Y) / 7
HAND_CHIPS, CHIP_STEP = 3, 14  # a hand shows up to three cards, 14 units apart

# Where the locations sit: a ring around the Drainpipe, in board order (their adjacency
# ring), clockwise from the top left; the Fight Stack takes the ring's last cell.
CELLS: tuple[tuple[int, int], ...] = ((0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (1, 2), (0, 2))
FIGHT_CELL = (0, 1)
DRAIN_CELL = (1, 1)

# Every text size the board draws, in units (the tests check each against READ_PX).
TEXT_SIZES: tuple[float, ...] = (MIN_TEXT, 12, 13, 14)


def displayed_px(size: float, width: int = BASE_WIDTH) -> float:
    """How tall text of `size` units is when Discord shows the board inline."""
    px = round(size * width / U)
    return px * min(SHOWN_WIDTH / width, SHOWN_HEIGHT / height_of(width))


def height_of(width: int) -> int:
    """The canvas' height for this width: always the chat's shape."""
    return round(width * SHOWN_HEIGHT / SHOWN_WIDTH)


@dataclass(frozen=True)
class Geometry:
    """Where things are drawn, in pixels, for tests and the drawing code alike."""

    width: int
    height: int
    scale: float
    locations: tuple[Box, ...]  # location -> its box
    fight: Box
    drainpipe: Box
    circles: tuple[tuple[tuple[int, int], ...], ...]  # location -> circle centres
    dice: tuple[Box, ...]  # location -> the box of its die
    pennywise: tuple[int, int]  # the marker's centre
    pawns: dict[int, tuple[int, int]]  # seat -> its pawn's centre in the town
    tracks_y: int
    fight_y: int
    weaknesses_y: int
    heroes_y: int
    hero_rows: tuple[Box, ...]  # seat -> its row in the Losers' list


def cell_box(col: int, row: int, k: float) -> Box:
    x0 = MARGIN + col * (CELL_W + GAP)
    y0 = HEADER + row * (CELL_H + GAP)
    return (round(x0 * k), round(y0 * k), round((x0 + CELL_W) * k), round((y0 + CELL_H) * k))


def pawn_offset(j: int) -> tuple[float, float]:
    """The j-th pawn of a location, from the location's top left, in units."""
    row, col = divmod(j, PAWNS_PER_ROW)
    return 6 + PAWN_R + col * PAWN_STEP, PAWN_ROWS_Y[min(row, len(PAWN_ROWS_Y) - 1)]


def geometry(circles: tuple[int, ...], heroes: tuple[tuple[int, ...], ...],
             pennywise: int | None, seats: int, width: int = BASE_WIDTH) -> Geometry:
    """Lay the board out: `circles` and `heroes` per location (how many circles, which
    seats stand there), where Pennywise is (None: the Drainpipe), how many seats."""
    k = width / U
    boxes = tuple(cell_box(*CELLS[i], k) for i in range(len(circles)))
    centres = tuple(
        tuple((round(b[0] + (6 + CIRCLE_R + j * CIRCLE_STEP) * k), round(b[1] + CIRCLE_Y * k))
              for j in range(n))
        for b, n in zip(boxes, circles, strict=True))
    dice = tuple((round(b[2] - (DIE + 4) * k), round(b[1] + (CIRCLE_Y - DIE / 2) * k),
                  round(b[2] - 4 * k), round(b[1] + (CIRCLE_Y + DIE / 2) * k)) for b in boxes)
    drain = cell_box(*DRAIN_CELL, k)
    if pennywise is None or not 0 <= pennywise < len(boxes):
        penny = ((drain[0] + drain[2]) // 2, round(drain[1] + 52 * k))
    else:
        b = boxes[pennywise]
        penny = (round(b[2] - 16 * k), round(b[3] - 28 * k))
    pawns: dict[int, tuple[int, int]] = {}
    for b, seated in zip(boxes, heroes, strict=True):
        for j, seat in enumerate(seated):
            dx, dy = pawn_offset(j)
            pawns[seat] = (round(b[0] + dx * k), round(b[1] + dy * k))
    rows = tuple((round(COLUMN_X * k), round((HEROES_Y + n * HERO_ROW) * k),
                  round((COLUMN_X + COLUMN_W) * k), round((HEROES_Y + (n + 1) * HERO_ROW - 2) * k))
                 for n in range(seats))
    return Geometry(width, height_of(width), k, boxes, cell_box(*FIGHT_CELL, k), drain,
                    centres, dice, penny, pawns, round(TRACK_Y[0] * k), round(FIGHT_Y * k),
                    round(WEAK_Y * k), round(HEROES_Y * k), rows)
