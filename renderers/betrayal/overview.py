"""Where the chat board's floor overviews put their explorer and monster marks.

An overview's rooms are small (a floor of ten rows gets rooms a few pixels high), and a
mark shrunk to fit a room shared by four to six explorers is a speck once Discord shows
the board at half size. So a room's marks stay inside it only when it holds one and the
room is big enough for it at MARK_MIN (what reads at the displayed size) or more; else,
when explorers stand there, every mark of the room goes on a chip beside it, at MARK
each, joined to the room by a leader, the room lit so the leader's end is seen. Rooms
holding only monsters keep their marks inside: a haunt may spread monsters over many
rooms, and a chip for each would crowd the overview.

Chips are placed one by one, the fullest first, at the free place nearest their room:
never over another chip, leader, occupied room or mark, nor over the overview's title,
so no explorer's mark is ever covered."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from renderers.betrayal.palette import BG, TEXT
from renderers.canvas import Canvas
from renderers.common import Box, Colour

Cell = tuple[int, int]
Item = int | str  # an explorer's seat, or a monster kind's name

MARK_MIN = 16  # px at BOARD_W: 8 px as displayed, the least a mark may be
MARK = 20  # a mark on a chip, at the base width (18 px at BOARD_W, 9 as displayed)
CHIP_PAD = 2  # round a chip's marks, at the base width
MARK_GAP = 2  # between two marks on a chip
LEADER = 2  # a leader's width
ROOM_GAP = 3  # the least room left between a chip and its room (the leader's length)
STEP = 6  # the grid free places are looked for on (and flush with the room)
CHIP: Colour = BG  # a chip's face: the marks on it read as on the board's darkest
LIT: Colour = TEXT  # a pinned room, its leader and its chip's edge


@dataclass(frozen=True)
class Pin:
    """A room's marks set on a chip beside it, joined to it by a leader."""

    room: Box  # the room's outline in the overview (lit)
    chip: Box
    leader: tuple[Box, ...]  # one or two strokes, from the room's edge to the chip's
    items: tuple[Item, ...]  # what the chip holds, in the order drawn


@dataclass(frozen=True)
class Marks:
    """An overview's marks: each explorer's and each monster kind's box, and the pins."""

    dots: dict[int, Box]
    monsters: tuple[Box, ...]
    pins: tuple[Pin, ...]


def _overlap(a: Box, b: Box, gap: int = 0) -> bool:
    return a[0] < b[2] + gap and b[0] < a[2] + gap and a[1] < b[3] + gap and b[1] < a[3] + gap


def _inside(box: Box, outer: Box) -> bool:
    return outer[0] <= box[0] and outer[1] <= box[1] and box[2] <= outer[2] \
        and box[3] <= outer[3]


def _in_room(items: list[Item], room: Box, c: int) -> list[Box]:
    """The marks laid out inside their room, k x k, as the overviews always drew them."""
    cx0, cy0 = room[0], room[1]
    k = 1
    while k * k < len(items):
        k += 1
    cell = (c - 2) / k
    d = max(2, int(cell * 0.85))
    out = []
    for i in range(len(items)):
        dx = cx0 + 1 + int((i % k) * cell + (cell - d) / 2)
        dy = cy0 + 1 + int((i // k) * cell + (cell - d) / 2)
        out.append((dx, dy, dx + d, dy + d))
    return out


def _leader(room: Box, chip: Box, width: int) -> tuple[Box, ...]:
    """Strokes from the room's edge to the chip's: one straight stroke when the two
    face each other across a row or a column, else an elbow out of the room's side."""
    rx, ry = (room[0] + room[2]) // 2, (room[1] + room[3]) // 2
    half = width // 2
    lo_x, hi_x = max(room[0], chip[0]), min(room[2], chip[2])
    if hi_x - lo_x >= width:  # one above the other
        x = min(max(rx, lo_x + half), hi_x - width + half) - half
        y0, y1 = (room[3], chip[1]) if chip[1] >= room[3] else (chip[3], room[1])
        return ((x, y0, x + width, y1),)
    lo_y, hi_y = max(room[1], chip[1]), min(room[3], chip[3])
    if hi_y - lo_y >= width:  # side by side
        y = min(max(ry, lo_y + half), hi_y - width + half) - half
        x0, x1 = (room[2], chip[0]) if chip[0] >= room[2] else (chip[2], room[0])
        return ((x0, y, x1, y + width),)
    # An elbow: out of the room's side along its middle, then up or down to the chip.
    x = min(max(rx, chip[0] + half), chip[2] - width + half) - half
    out_x0, out_x1 = (room[2], x + width) if x >= room[2] else (x, room[0])
    y0, y1 = (ry - half, chip[1]) if chip[1] >= ry else (chip[3], ry - half + width)
    return ((out_x0, ry - half, out_x1, ry - half + width), (x, y0, x + width, y1))


def _gap(a: Box, b: Box) -> float:
    dx = max(0, a[0] - b[2], b[0] - a[2])
    dy = max(0, a[1] - b[3], b[1] - a[3])
    return math.hypot(dx, dy)


def _chip_size(n: int, mark: int, pad: int, gap: int, widest: int) -> tuple[int, int, int]:
    """A chip's width and height for n marks, and how many marks a row holds."""
    per_row = max(1, min(n, (widest - 2 * pad + gap) // (mark + gap)))
    rows = -(-n // per_row)
    return (2 * pad + per_row * mark + (per_row - 1) * gap,
            2 * pad + rows * mark + (rows - 1) * gap, per_row)


def _place_chip(room: Box, w: int, h: int, area: Box, blocked: list[Box],
                rooms: list[Box], s: float) -> Box:
    """The free place for a w x h chip nearest `room`: inside `area`, clear of what is
    `blocked` and of its own room by the leader's length, its leader clear of it too;
    of places as near, the one most squarely beside the room and covering the least of
    the floor's other rooms. Places are tried nearest first (a board is laid out on
    every action), on a coarse grid and at every place flush with the room's sides."""
    gap = max(1, round(ROOM_GAP * s))
    width = max(1, round(LEADER * s))
    step = max(1, round(STEP * s))
    rcx, rcy = (room[0] + room[2]) / 2, (room[1] + room[3]) / 2
    xs = set(range(area[0], area[2] - w + 1, step))
    ys = set(range(area[1], area[3] - h + 1, step))
    xs |= {round(rcx - w / 2), room[0], room[2] - w, room[2] + gap, room[0] - gap - w}
    ys |= {round(rcy - h / 2), room[1], room[3] - h, room[3] + gap, room[1] - gap - h}
    # Per column and per row: how far the chip stands off the room that way (negative:
    # level with it) and how far off its middle.
    cols = [(x, max(room[0] - x - w, x - room[2]), x + w / 2 - rcx)
            for x in xs if area[0] <= x <= area[2] - w]
    rows = [(y, max(room[1] - y - h, y - room[3]), y + h / 2 - rcy)
            for y in ys if area[1] <= y <= area[3] - h]
    # Places close by first (most chips find one there); the whole overview if none is.
    near_by = 2 * h + gap
    best = _best_place(room, w, h, [c for c in cols if c[1] < near_by],
                       [r for r in rows if r[1] < near_by], gap, width, blocked, rooms)
    if best is None:
        best = _best_place(room, w, h, cols, rows, gap, width, blocked, rooms)
    if best is None:  # nowhere free (never seen in play): over its room, marks apart
        x = min(max(round(rcx - w / 2), area[0]), area[2] - w)
        y = min(max(round(rcy - h / 2), area[1]), area[3] - h)
        return (x, y, x + w, y + h)
    return best


def _best_place(room: Box, w: int, h: int, cols: list[tuple[int, int, float]],
                rows: list[tuple[int, int, float]], gap: int, width: int,
                blocked: list[Box], rooms: list[Box]) -> Box | None:
    """Of the places these columns and rows give, the cheapest free one (None: none)."""
    # Nearest first; of places as near, the one most squarely beside the room.
    candidates = [(math.hypot(max(0, gx), max(0, gy)) + 0.05 * math.hypot(ox, oy), y, x)
                  for y, gy, oy in rows for x, gx, ox in cols if gx >= gap or gy >= gap]
    candidates.sort()
    best: tuple[float, Box] | None = None
    for near, y, x in candidates:
        if best is not None and near >= best[0]:
            break  # what follows only costs more
        chip = (x, y, x + w, y + h)
        if any(_overlap(chip, b, 1) for b in blocked):
            continue
        strokes = _leader(room, chip, width)
        if any(_overlap(stroke, b) for stroke in strokes for b in blocked):
            continue
        cost = near + (h if len(strokes) > 1 else 0)  # an elbow reads less plainly
        covered = sum(max(0, min(chip[2], r[2]) - max(chip[0], r[0]))
                      * max(0, min(chip[3], r[3]) - max(chip[1], r[1])) for r in rooms)
        cost += covered / max(1, h)
        if best is None or cost < best[0]:
            best = (cost, chip)
    return None if best is None else best[1]


def place_marks(here: dict[Cell, list[Item]], room_of: Callable[[Cell], Box], c: int,
                area: Box, blocked: list[Box], rooms: list[Box], s: float) -> Marks:
    """Every mark of one overview: `here` is what stands in each cell (explorers by
    seat first, then monster kinds), `room_of` a cell's outline, `c` a room's side,
    `area` where chips may go, `blocked` what they must leave clear (the title),
    `rooms` every room's outline."""
    dots: dict[int, Box] = {}
    monsters: list[Box] = []
    pins: list[Pin] = []
    pinned = []
    taken = list(blocked)
    for cell, items in here.items():
        room = room_of(cell)
        inside = _in_room(items, room, c)
        fits = len(items) == 1 and inside[0][2] - inside[0][0] >= MARK_MIN
        if fits or not any(isinstance(item, int) for item in items):
            for item, box in zip(items, inside, strict=True):
                if isinstance(item, int):
                    dots[item] = box
                else:
                    monsters.append(box)
        else:
            pinned.append((cell, items))
        taken.append(room)  # an occupied room stays in sight
    mark = max(1, round(MARK * s))
    pad, gap = max(1, round(CHIP_PAD * s)), max(1, round(MARK_GAP * s))
    free = [r for r in rooms if r not in taken]
    for cell, items in sorted(pinned, key=lambda p: (-len(p[1]), p[0][1], p[0][0])):
        room = room_of(cell)
        w, h, per_row = _chip_size(len(items), mark, pad, gap, area[2] - area[0])
        chip = _place_chip(room, w, h, area, [b for b in taken if b != room], free, s)
        strokes = _leader(room, chip, max(1, round(LEADER * s)))
        for i, item in enumerate(items):
            x = chip[0] + pad + (i % per_row) * (mark + gap)
            y = chip[1] + pad + (i // per_row) * (mark + gap)
            if isinstance(item, int):
                dots[item] = (x, y, x + mark, y + mark)
            else:
                monsters.append((x, y, x + mark, y + mark))
        pins.append(Pin(room, chip, strokes, tuple(items)))
        taken += [chip, *strokes]
    return Marks(dots, tuple(monsters), tuple(pins))


def light_room(canvas: Canvas, pin: Pin) -> None:
    """Light the pinned room, so the leader's end is seen even in a room of a few
    pixels."""
    x0, y0, x1, y1 = pin.room
    canvas.fill((x0 + 1, y0 + 1, x1 - 1, y1 - 1), LIT)


def draw_chip(canvas: Canvas, pin: Pin) -> None:
    """The leader and the chip, edged in the leader's colour so the two read as one
    (the marks are drawn on it by the board)."""
    for stroke in pin.leader:
        canvas.fill(stroke, LIT)
    x0, y0, x1, y1 = pin.chip
    canvas.fill(pin.chip, LIT)
    canvas.fill((x0 + 1, y0 + 1, x1 - 1, y1 - 1), CHIP)
