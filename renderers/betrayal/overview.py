"""Where the chat board's floor overviews put their explorer and monster marks.

An overview's rooms are small (a floor of ten rows gets rooms a few pixels high), and a
mark shrunk to fit a room shared by four to six explorers is a speck once Discord shows
the board at half size. So a room's marks stay inside it only when it holds one and the
room is big enough for it at MARK_MIN (what reads at the displayed size) or more; else
every mark of the room goes on a chip beside it, at MARK each, joined to the room by a
leader, the room lit so the leader's end is seen.

Monsters are marked as the large panel and the legend draw them (their letter on a dark
red disc), one mark per kind per room with "×n" beside it for several, so a horde costs
one mark, not one per monster. A haunt may spread monsters over many rooms of a floor
not in play: up to MONSTER_CHIPS rooms holding only monsters get a chip each while every
chip finds a free place; past that, the floor's monsters are summed up by kind on one
chip in the overview's free corner (near the title's row end) and the rooms they stand
in are filled in the monsters' colour, so the overview never turns into a web of leaders.

Chips are placed one by one, explorers' first, then the fullest first, at the free place
nearest their room: never over another chip, leader, occupied room or mark, nor over
the overview's title, so no explorer's mark is ever covered. A chip hemmed in by its
neighbours' goes over the middle of its own room instead (no leader needed: it stands
where they are); an explorers' chip that still finds no place is laid out first next
time (RETRIES, the order found kept when the floor's monsters are then summed up), and
at worst stands over the edges of the occupied rooms round its own, never over a mark,
chip or leader. A leader runs straight, or elbows out of the room's side or, where
its neighbours wall that side in (a crowd of small rooms at six players), out of its
top or bottom: with chips some 22 px across for rooms of 4 to 11 px, the nearest places
of the first chips otherwise wall the last rooms in."""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from bot.core.lru import Lru
from renderers import budgets
from renderers.betrayal.fonts import SMALLEST_FONT
from renderers.betrayal.palette import BG, TEXT, px
from renderers.canvas import Canvas, register
from renderers.common import Box, Colour, font, text_width

Cell = tuple[int, int]

MARK_MIN = 16  # px at BOARD_W: 8 px as displayed, the least a mark may be
MARK = 20  # a mark on a chip, at the base width (18 px at BOARD_W, 9 as displayed)
CHIP_PAD = 2  # round a chip's marks, at the base width
MARK_GAP = 2  # between two marks on a chip
COUNT_GAP = 3  # between a monster's disc and its "×n"
ITEM_GAP = 6  # after a monster's "×n", before the next mark
LEADER = 2  # a leader's width
ROOM_GAP = 3  # the least room left between a chip and its room (the leader's length)
STEP = 6  # the grid free places are looked for on (and flush with the room's sides)
MONSTER_CHIPS = 4  # rooms holding only monsters that get a chip each, per floor
RETRIES = 8  # layouts tried, each placing first an explorers' chip that found no place
CHIP: Colour = BG  # a chip's face: the marks on it read as on the board's darkest
LIT: Colour = TEXT  # a pinned room, its leader and its chip's edge


@dataclass(frozen=True)
class Kind:
    """Monsters of one kind in one room (or, summed up, on one floor)."""

    name: str
    letter: str  # what its disc shows, as in the large panel and the legend
    count: int


Item = int | Kind  # an explorer's seat, or a kind of monster and how many


@dataclass(frozen=True)
class MonsterMark:
    """One kind's mark: its disc's box and, for more than one, where "×n" is written."""

    kind: Kind
    box: Box
    count_box: Box | None
    room: Box | None  # the room it marks (None: on a floor's summary)


@dataclass(frozen=True)
class Pin:
    """A room's marks set on a chip beside it, joined to it by a leader."""

    room: Box  # the room's outline in the overview (lit)
    chip: Box
    leader: tuple[Box, ...]  # one or two strokes, from the room's edge to the chip's
    items: tuple[Item, ...]  # what the chip holds, in the order drawn


@dataclass(frozen=True)
class Summary:
    """A floor's monsters by kind on one chip (no leader), and the rooms they are in."""

    chip: Box
    rooms: tuple[Box, ...]  # filled in the monsters' colour
    kinds: tuple[Kind, ...]


@dataclass(frozen=True)
class Marks:
    """An overview's marks: each explorer's box, each monster kind's, the pins and the
    floor's monster summary (if its monsters are summed up)."""

    dots: dict[int, Box]
    monsters: tuple[MonsterMark, ...]
    pins: tuple[Pin, ...]
    summary: Summary | None = None


def count_text(n: int) -> str:
    """What is written beside a kind's disc for n of them (nothing for one)."""
    return f"×{n}" if n > 1 else ""


def overlap(a: Box, b: Box, gap: int = 0) -> bool:
    return a[0] < b[2] + gap and b[0] < a[2] + gap and a[1] < b[3] + gap and b[1] < a[3] + gap


# Where a w x h chip's top-left corner may not go, per blocked box: x0 < x < x1 and
# y0 < y < y1 (the chip would come within 1 px of the box).
Forbidden = list[tuple[int, int, int, int]]


def forbidden_for(w: int, h: int, blocked: list[Box]) -> Forbidden:
    """What each blocked box forbids a w x h chip's corner (see `Forbidden`)."""
    return [(b[0] - w - 1, b[2] + 1, b[1] - h - 1, b[3] + 1) for b in blocked]


def column_spans(forbidden: Forbidden, x: int) -> list[tuple[int, int]]:
    """The rows forbidden in column x, as open spans (y0, y1): y0 < y < y1. A chip
    search tries hundreds of places on a few columns: each column's spans are found
    once, so a place is checked against those alone."""
    return [(y0, y1) for x0, x1, y0, y1 in forbidden if x0 < x < x1]


def free_test(w: int, h: int, blocked: list[Box]) -> Callable[[int, int], bool]:
    """Whether a w x h chip at (x, y) keeps 1 px clear of every `blocked` box (as
    `overlap(chip, box, 1)` is false for each), each column's spans found once (the
    search was most of a crowded board's render)."""
    forbidden = forbidden_for(w, h, blocked)
    columns: dict[int, list[tuple[int, int]]] = {}

    def free(x: int, y: int) -> bool:
        spans = columns.get(x)
        if spans is None:
            spans = columns[x] = column_spans(forbidden, x)
        for y0, y1 in spans:  # (a loop, not any(): a summary's search asks this 400 times)
            if y0 < y < y1:
                break
        else:
            return True
        return False

    return free


def covered(chip: Box, rooms: list[Box]) -> int:
    """How much of the rooms (in px², summed) a chip there would hide. Rooms it misses
    are passed over by comparisons alone: a crowded floor's chip search asks this of
    every room for each place it weighs."""
    x0, y0, x1, y1 = chip
    total = 0
    for rx0, ry0, rx1, ry1 in rooms:
        if rx0 < x1 and x0 < rx1 and ry0 < y1 and y0 < ry1:
            total += (min(x1, rx1) - max(x0, rx0)) * (min(y1, ry1) - max(y0, ry0))
    return total


def _inside(box: Box, outer: Box) -> bool:
    return outer[0] <= box[0] and outer[1] <= box[1] and box[2] <= outer[2] \
        and box[3] <= outer[3]


def _in_room(room: Box, c: int) -> Box:
    """A room's one mark laid out inside it, as the overviews always drew it."""
    d = max(2, int((c - 2) * 0.85))
    dx = room[0] + 1 + int((c - 2 - d) / 2)
    dy = room[1] + 1 + int((c - 2 - d) / 2)
    return (dx, dy, dx + d, dy + d)


def leader(room: Box, chip: Box, width: int) -> tuple[Box, ...]:
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


def _clamp(v: int, lo: int, hi: int) -> int | None:
    """v moved into lo..hi (None: the span is empty)."""
    return None if lo > hi else min(max(v, lo), hi)


def leaders(room: Box, chip: Box, width: int) -> list[tuple[Box, ...]]:
    """The ways a leader may run from the room's edge to the chip's, the plainest
    first: `leader`'s; then, for a room whose neighbours wall in the sides that stroke
    would leave by (a crowd of rooms side by side at the foot of an overview), an elbow
    out of its top or bottom along its middle column, then across to the chip's side
    along a row of the chip clear of the room; and one out of its left or right side
    along its middle row, then up or down to the chip along a column clear of it."""
    return [leader(room, chip, width), *_other_leaders(room, chip, width)]


def _other_leaders(room: Box, chip: Box, width: int) -> list[tuple[Box, ...]]:
    """`leaders` past the plainest (worked out only when the plainest is blocked)."""
    out: list[tuple[Box, ...]] = []
    rx, ry = (room[0] + room[2]) // 2, (room[1] + room[3]) // 2
    half = width // 2
    x = rx - half  # the stroke down (or up) the room's middle column
    if chip[0] > x + width or chip[2] < x:
        across: tuple[int, int] | None = None
        below = _clamp(room[3] + width, max(chip[1], room[3]), chip[3] - width)
        above = _clamp(room[1] - 2 * width, chip[1], min(chip[3], room[1]) - width)
        if below is not None:
            down = (x, room[3], x + width, below + width)
            across = (below, below + width)
        elif above is not None:
            down = (x, above, x + width, room[1])
            across = (above, above + width)
        if across is not None:
            ay0, ay1 = across
            out.append((down, (x + width, ay0, chip[0], ay1) if chip[0] > x + width
                        else (chip[2], ay0, x, ay1)))
    y = ry - half  # the stroke out along the room's middle row
    if chip[1] > y + width or chip[3] < y:
        side: tuple[int, int] | None = None
        right = _clamp(room[2] + width, max(chip[0], room[2]), chip[2] - width)
        left = _clamp(room[0] - 2 * width, chip[0], min(chip[2], room[0]) - width)
        if right is not None:
            out_x = (room[2], y, right + width, y + width)
            side = (right, right + width)
        elif left is not None:
            out_x = (left, y, room[0], y + width)
            side = (left, left + width)
        if side is not None:
            sx0, sx1 = side
            out.append((out_x, (sx0, y + width, sx1, chip[1]) if chip[1] > y + width
                        else (sx0, chip[3], sx1, y)))
    return out


def clear_leader(room: Box, chip: Box, width: int, blocked: list[Box],
                 plain: tuple[Box, ...] | None = None) -> tuple[Box, ...] | None:
    """The plainest of the `leaders` from the room to the chip crossing nothing
    `blocked` (None: each crosses something); `plain`: `leader`'s, if worked out
    already. The others are worked out only when it is blocked: a chip search asks
    this of thousands of places, and most leaders are clear or blocked as they run."""
    if plain is None:
        plain = leader(room, chip, width)
    if _clear(plain, blocked):
        return plain
    for strokes in _other_leaders(room, chip, width):
        if _clear(strokes, blocked):
            return strokes
    return None


def _clear(strokes: tuple[Box, ...], blocked: list[Box]) -> bool:
    """Whether no stroke overlaps a blocked box (`overlap`, written out: this is the
    chip search's innermost loop)."""
    for sx0, sy0, sx1, sy1 in strokes:
        for bx0, by0, bx1, by1 in blocked:
            if sx0 < bx1 and bx0 < sx1 and sy0 < by1 and by0 < sy1:
                return False
    return True


def _gap(a: Box, b: Box) -> float:
    dx = max(0, a[0] - b[2], b[0] - a[2])
    dy = max(0, a[1] - b[3], b[1] - a[3])
    return math.hypot(dx, dy)


def _item_width(item: Item, mark: int, count_gap: int, size: int) -> int:
    """An item's width on a chip: a mark, and a kind's "×n" after it."""
    if isinstance(item, Kind) and item.count > 1:
        return mark + count_gap + text_width(font(size, True), count_text(item.count))
    return mark


def _chip_layout(items: Sequence[Item], mark: int, pad: int, gap: int, widest: int,
                 s: float) -> tuple[int, int, list[tuple[int, int]]]:
    """A chip's width and height for these items, row after row as they fit in
    `widest`, and each item's place on it."""
    count_gap, item_gap = px(COUNT_GAP, s), px(ITEM_GAP, s)
    size = px(SMALLEST_FONT, s)
    room = widest - 2 * pad
    at: list[tuple[int, int]] = []
    x = y = right = 0
    for i, item in enumerate(items):
        w = _item_width(item, mark, count_gap, size)
        if x and x + w > room:
            x, y = 0, y + mark + gap
        at.append((x, y))
        right = max(right, x + w)
        after = isinstance(item, Kind) and item.count > 1
        x += w + (item_gap if after and i + 1 < len(items) else gap)
    return 2 * pad + right, 2 * pad + y + mark, at


# The chip searches of one overview's layout, by what each weighed: the same chip is
# searched for again as the layout is tried again (a chip stuck placed first, then the
# floor's monsters summed up), and among explorers' chips hemmed in (close by, then far).
Searched = dict[tuple[object, ...], Box | None]


def _place_chip(room: Box, w: int, h: int, area: Box, blocked: list[Box],
                rooms: list[Box], s: float, far: bool = True,
                searched: Searched | None = None) -> Box | None:
    """The free place for a w x h chip nearest `room`: inside `area`, clear of what is
    `blocked` and of its own room by the leader's length, its leader clear of it too;
    of places as near, the one most squarely beside the room and covering the least of
    the floor's other rooms (None: nowhere free, close by unless `far`). Places are
    tried nearest first (a board is laid out on every action), on a coarse grid and at
    every place flush with the room's sides. `searched`: the searches this layout made
    so far (each a pure function of what it weighed: found again, not searched again;
    a layout whose chips found no place near tried half its chips twice over, a third
    of the layouts' time)."""
    key: tuple[object, ...] = ()
    near_done = False
    if searched is not None:
        key = (room, w, h, area, tuple(blocked), tuple(rooms), s)
        if far and (key, True) in searched:
            return searched[key, True]
        if (key, False) in searched:
            found = searched[key, False]
            if found is not None or not far:
                return found
            near_done = True  # none free close by: only the far search is left
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
    near_cols = [c for c in cols if c[1] < near_by]
    near_rows = [r for r in rows if r[1] < near_by]
    best = None if near_done else best_place(room, w, h, near_cols, near_rows, gap, width,
                                             blocked, rooms)
    if searched is not None and not near_done:
        searched[key, False] = best
    if best is None and far:  # none of the places close by is free: not weighed again
        best = best_place(room, w, h, cols, rows, gap, width, blocked, rooms,
                          ({c[0] for c in near_cols}, {r[0] for r in near_rows}))
        if searched is not None:
            searched[key, True] = best
    return best


def _over_room(room: Box, w: int, h: int, area: Box) -> Box:
    """A chip over its own room: for monsters hemmed in by their neighbours' chips,
    where their room is (needing no leader); for an explorer's chip that found nowhere
    free (never seen in play), its marks still apart and whole."""
    rcx, rcy = (room[0] + room[2]) / 2, (room[1] + room[3]) / 2
    x = min(max(round(rcx - w / 2), area[0]), area[2] - w)
    y = min(max(round(rcy - h / 2), area[1]), area[3] - h)
    return (x, y, x + w, y + h)


def on_room(room: Box, w: int, h: int, area: Box, blocked: list[Box]) -> Box | None:
    """The free place for a w x h chip over the middle of its room, as near centred on
    it as what is `blocked` allows (None: none). Of places as near, the leftmost, then
    the highest. Each column's free rows are found from its blockers' spans at once
    (a hemmed-in chip has hundreds of places over its room, most of them taken)."""
    rcx, rcy = (room[0] + room[2]) // 2, (room[1] + room[3]) // 2
    top, bottom = max(area[1], rcy - h + 1), min(area[3] - h, rcy)
    if top > bottom:
        return None
    forbidden = forbidden_for(w, h, blocked)
    want = rcy - h / 2  # the row centred on the room (ceil(want - 0.5): the higher of two)
    best: tuple[float, int, int] | None = None
    for x in range(max(area[0], rcx - w + 1), min(area[2] - w, rcx) + 1):
        off_x = abs(x + w / 2 - rcx)
        if best is not None and off_x > best[0]:
            continue  # no row of this column is as near
        # The rows y0 < y < y1 of each blocker, merged: the free rows lie between them.
        taken = sorted((y0 + 1, y1 - 1) for y0, y1 in column_spans(forbidden, x)
                       if y0 + 1 <= y1 - 1)
        lo = top
        for y0, y1 in [*taken, (bottom + 1, bottom + 1)]:
            hi = min(y0 - 1, bottom)
            if lo <= hi:  # free rows lo..hi: the nearest the middle, the higher on a tie
                y = min(max(math.ceil(want - 0.5), lo), hi)
                place = (off_x + abs(y - want), x, y)
                if best is None or place < best:
                    best = place
            lo = max(lo, y1 + 1)
            if lo > bottom:
                break
    return None if best is None else (best[1], best[2], best[1] + w, best[2] + h)


def place_summary(w: int, h: int, area: Box, blocked: list[Box], rooms: list[Box],
                   s: float) -> Box | None:
    """The free place for a floor's summary chip nearest the overview's top right
    corner (the title's row, which no room takes), covering the least of the floor's
    rooms (None: nowhere free)."""
    step = max(1, round(STEP * s))
    xs = {*range(area[0], area[2] - w + 1, step), area[2] - w}
    ys = {*range(area[1], area[3] - h + 1, step), area[3] - h}
    best: tuple[float, Box] | None = None
    forbidden = forbidden_for(w, h, blocked)  # as `free_test`, its test written out
    for x in xs:
        spans = column_spans(forbidden, x)
        for y in ys:
            for y0, y1 in spans:
                if y0 < y < y1:
                    break
            else:
                chip = (x, y, x + w, y + h)
                cost = math.hypot(area[2] - chip[2], chip[1] - area[1])
                if best is not None and cost >= best[0]:
                    continue  # covering rooms only adds to it
                cost += covered(chip, rooms)
                if best is None or cost < best[0]:
                    best = (cost, chip)
    return None if best is None else best[1]


def _summary_chip(kinds: tuple[Kind, ...], mark: int, pad: int, gap: int, area: Box,
                  blocked: list[Box], rooms: list[Box], s: float
                  ) -> tuple[Box, list[tuple[int, int]]]:
    """Where a floor's summary goes and its marks' places on it: in one row if a place
    holds it, else in more, narrower rows (a floor of many rows leaves only its sides
    free); over the title row's end if nowhere is free (never seen)."""
    widths = [_chip_layout(kinds[:n], mark, pad, gap, area[2] - area[0], s)[0]
              for n in range(len(kinds), 0, -1)]
    for widest in widths:
        w, h, at = _chip_layout(kinds, mark, pad, gap, widest, s)
        chip = place_summary(w, h, area, blocked, rooms, s)
        if chip is not None:
            return chip, at
    w, h, at = _chip_layout(kinds, mark, pad, gap, area[2] - area[0], s)
    return (area[2] - w, area[1], area[2], area[1] + h), at


def walled_in(room: Box, w: int, h: int, width: int, blocked: list[Box]) -> bool:
    """Whether no leader can leave `room` for a w x h chip clear of it: the pixels just
    outside each of its sides (its corners aside) are all under blocked boxes. Every
    leader crosses one of them (a straight one leaves a side within the room's span, an
    elbow leaves a side along the room's middle or drops through one from the middle),
    so a room hemmed in by its neighbours finds nothing, at once, where its search
    would weigh every place of the overview to find each leader blocked. For rooms and
    chips at least a leader's width (the overviews' are many times that)."""
    x0, y0, x1, y1 = room
    if min(x1 - x0, y1 - y0) < 2 * width + 2 or min(w, h) < width:
        return False
    sides = ((x0, x1, [(b[0], b[2]) for b in blocked if b[1] <= y0 - 1 and y0 <= b[3]]),
             (x0, x1, [(b[0], b[2]) for b in blocked if b[1] <= y1 and y1 + 1 <= b[3]]),
             (y0, y1, [(b[1], b[3]) for b in blocked if b[0] <= x0 - 1 and x0 <= b[2]]),
             (y0, y1, [(b[1], b[3]) for b in blocked if b[0] <= x1 and x1 + 1 <= b[2]]))
    for start, end, spans in sides:
        reached = start  # the side's pixels before this are under a blocked box
        for lo, hi in sorted(spans):
            if lo > reached:
                return False
            reached = max(reached, hi)
            if reached >= end:
                break
        if reached < end:
            return False
    return True


def best_place(room: Box, w: int, h: int, cols: list[tuple[int, int, float]],
                rows: list[tuple[int, int, float]], gap: int, width: int,
                blocked: list[Box], rooms: list[Box],
                taken: tuple[AbstractSet[int], AbstractSet[int]] = (frozenset(), frozenset())
                ) -> Box | None:
    """Of the places these columns and rows give, the cheapest free one (None: none);
    `taken` are columns and rows whose places a search before found none of free.

    Places are weighed nearest first (of places as near, the one most squarely beside
    the room), and the first free one is nearly always close by: so they are listed
    ring by ring, those less than `reach` away first, the reach doubled while none
    found costs less than it, rather than all of a floor's hundreds listed and sorted
    for each chip. A place's distance is at least its column's and its row's, so a ring
    lists only the columns and rows within reach; the order places are weighed in, and
    so the place found, is the same as one sorted list's. A place the chip cannot take
    is never listed: each column's blockers are found as it enters a ring, so a crowded
    floor whose chip finds no place (it is searched whole, several times as the
    overview is laid out again) weighs only the places it could have."""
    if walled_in(room, w, h, width, blocked):
        return None
    hypot = math.hypot
    # Each column and row: how far off the room it stands (clamped once), whether it
    # clears the room that way (a place must clear it one way or the other).
    across = sorted((max(0, gx), x, ox, gx >= gap) for x, gx, ox in cols)
    down = sorted((max(0, gy), y, oy, gy >= gap) for y, gy, oy in rows)
    best: tuple[float, Box] | None = None
    # A place keeps 1 px clear of each blocked box (as free_test).
    forbidden = forbidden_for(w, h, blocked)
    spans: list[list[tuple[int, int]]] = []  # per listed column, its forbidden rows
    waiting: list[tuple[float, int, int]] = []  # listed, beyond the rings weighed so far
    n_cols = n_rows = 0  # the columns and rows listed so far (the nearest of each)
    reach = 2.0 * gap  # a place clears its room by the leader's length (gap) at least
    while True:
        c_in = n_cols
        while c_in < len(across) and across[c_in][0] < reach:
            spans.append(column_spans(forbidden, across[c_in][1]))
            c_in += 1
        r_in = n_rows
        while r_in < len(down) and down[r_in][0] < reach:
            r_in += 1
        last = c_in == len(across) and r_in == len(down)
        # The free places of the new columns with every row in reach, and of the
        # columns listed before with the new rows.
        for ci in range(c_in):
            ax, x, ox, x_clear = across[ci]
            column = spans[ci]
            weighed = taken[1] if x in taken[0] else ()
            for ri in range(n_rows if ci < n_cols else 0, r_in):
                ay, y, oy, y_clear = down[ri]
                if (x_clear or y_clear) and y not in weighed:
                    for y0, y1 in column:  # (a loop, not any(): the search's hottest line)
                        if y0 < y < y1:
                            break
                    else:
                        waiting.append((hypot(ax, ay) + 0.05 * hypot(ox, oy), y, x))
        n_cols, n_rows = c_in, r_in
        if last:
            ring, waiting = waiting, []
        else:
            ring = [place for place in waiting if place[0] < reach]
            waiting = [place for place in waiting if place[0] >= reach]
        ring.sort()
        for near, y, x in ring:
            if best is not None and near >= best[0]:
                return best[1]  # what follows only costs more
            chip = (x, y, x + w, y + h)
            plain = leader(room, chip, width)
            cost = near + (h if len(plain) > 1 else 0)  # an elbow reads less plainly
            if best is not None and cost >= best[0]:
                continue  # covering rooms (or a leader's other ways) only adds to it
            strokes = clear_leader(room, chip, width, blocked, plain)
            if strokes is None:
                continue
            cost = near + (h if len(strokes) > 1 else 0)
            if best is not None and cost >= best[0]:
                continue
            cost += covered(chip, rooms) / max(1, h)
            if best is None or cost < best[0]:
                best = (cost, chip)
        if last or (best is not None and best[0] <= reach):
            return None if best is None else best[1]
        reach *= 2


def _fits_inside(items: list[Item], inside: Box, mark: int) -> bool:
    """Whether a room's one mark reads inside it: an explorer at MARK_MIN or more, a
    lone monster at a chip's mark size or more (its letter is as big as the legend's)."""
    if len(items) != 1:
        return False
    side = inside[2] - inside[0]
    item = items[0]
    if isinstance(item, Kind):
        return item.count == 1 and side >= mark
    return side >= MARK_MIN


def _summed(here: dict[Cell, list[Item]]) -> tuple[Kind, ...]:
    """A floor's monsters by kind, in the order they first appear."""
    totals: dict[tuple[str, str], int] = {}
    for items in here.values():
        for item in items:
            if isinstance(item, Kind):
                key = (item.name, item.letter)
                totals[key] = totals.get(key, 0) + item.count
    return tuple(Kind(name, letter, n) for (name, letter), n in totals.items())


def _set_items(items: Sequence[Item], at: list[tuple[int, int]], x0: int, y0: int,
               mark: int, room: Box | None, s: float, dots: dict[int, Box],
               monsters: list[MonsterMark]) -> None:
    """Each item's mark on a chip whose marks start at (x0, y0)."""
    count_gap, size = px(COUNT_GAP, s), px(SMALLEST_FONT, s)
    for item, (dx, dy) in zip(items, at, strict=True):
        box = (x0 + dx, y0 + dy, x0 + dx + mark, y0 + dy + mark)
        if isinstance(item, int):
            dots[item] = box
            continue
        count_box = None
        if item.count > 1:
            tx = box[2] + count_gap
            count_box = (tx, box[1], tx + text_width(font(size, True),
                                                     count_text(item.count)), box[3])
        monsters.append(MonsterMark(item, box, count_box, room))


# Laid-out overviews by everything their layout reads: a board's overviews of the
# floors nobody moved on are laid out as before (the search for chip places was a sixth
# of a Betrayal render). An entry is ~100 bytes a room and mark, within
# budgets.OVERVIEWS (4 MB: 200 channels' houses, four floors each).
PLACED: Lru[Hashable, Marks] = register(Lru(1 << 20, budgets.OVERVIEWS, "PLACED"))
_PLACED_BYTES = 600


def place_marks(here: dict[Cell, list[Item]], room_of: Callable[[Cell], Box], c: int,
                area: Box, blocked: list[Box], rooms: list[Box], s: float) -> Marks:
    """Every mark of one overview: `here` is what stands in each cell (explorers by
    seat first, then each kind of monster and how many), `room_of` a cell's outline,
    `c` a room's side, `area` where chips may go, `blocked` what they must leave clear
    (the title), `rooms` every room's outline. A chip each for the rooms holding only
    monsters while they are few and all find a place; else the floor's summary. The
    layout reads `room_of` only for the cells of `here`, so those outlines, with the
    rest, key the layout kept from before (`PLACED`; the caller must not change it)."""
    cells = tuple((cell, tuple(items), room_of(cell)) for cell, items in here.items())
    key = (cells, c, area, tuple(blocked), tuple(rooms), s)
    found = PLACED.get(key)
    if found is None:
        found = _place_marks(here, room_of, c, area, blocked, rooms, s)
        PLACED.put(key, found, _PLACED_BYTES + 100 * (len(cells) + len(rooms) + len(
            found.dots) + len(found.monsters) + len(found.pins)))
    return found


def _place_marks(here: dict[Cell, list[Item]], room_of: Callable[[Cell], Box], c: int,
                 area: Box, blocked: list[Box], rooms: list[Box], s: float) -> Marks:
    mark = max(1, round(MARK * s))
    alone = [cell for cell, items in here.items()
             if not any(isinstance(i, int) for i in items)
             and not _fits_inside(items, _in_room(room_of(cell), c), mark)]
    kept: tuple[bool, Marks] | None = None  # the best layout with a chip stuck
    modes = (True,) if len(alone) > MONSTER_CHIPS else (False, True) if alone else (False,)
    first: list[Cell] = []  # kept from one mode to the next: the order found so far
    searched: Searched = {}
    for summed in modes:
        for _ in range(RETRIES):
            marks, stuck, crossed = _lay_out(here, room_of, c, area, blocked, rooms, s,
                                             summed, first, searched)
            if marks is None:
                break  # a monsters' chip found no place: sum the floor's monsters up
            if stuck is None:
                return marks
            if kept is None or (kept[0] and not crossed):
                kept = (crossed, marks)
            # An explorers' chip found no place: placed first, it may (the chips placed
            # before it took the places it could have had).
            if stuck in first:
                first.remove(stuck)
            first.insert(0, stuck)
    # An explorers' chip over its room and the edges of those round it (over other
    # chips only if every layout tried put one there).
    return Marks({}, (), ()) if kept is None else kept[1]


def _lay_out(here: dict[Cell, list[Item]], room_of: Callable[[Cell], Box], c: int,
             area: Box, blocked: list[Box], rooms: list[Box], s: float, summed: bool,
             first: list[Cell], searched: Searched | None = None
             ) -> tuple[Marks | None, Cell | None, bool]:
    """`place_marks` with a chip per room holding only monsters (no marks: one of them
    found no free place), or with the floor's monsters `summed` up on one chip; the
    rooms `first` get their chips first. With the marks, the room whose explorers' chip
    found no free place (None: none), and whether a chip had to go over another's."""
    dots: dict[int, Box] = {}
    monsters: list[MonsterMark] = []
    pins: list[Pin] = []
    pinned: list[tuple[Cell, list[Item]]] = []
    filled: list[Box] = []
    taken = list(blocked)
    occupied: list[Box] = []
    mark = max(1, round(MARK * s))
    for cell, items in here.items():
        room = room_of(cell)
        taken.append(room)  # an occupied room stays in sight
        occupied.append(room)
        with_explorers = any(isinstance(item, int) for item in items)
        if summed and not with_explorers:
            filled.append(room)
            continue
        inside = _in_room(room, c)
        if _fits_inside(items, inside, mark):
            item = items[0]
            if isinstance(item, int):
                dots[item] = inside
            else:
                monsters.append(MonsterMark(item, inside, None, room))
            taken.append(inside)  # (its room's box covers it; kept when a room is not)
        else:
            pinned.append((cell, items))
    pad, gap = max(1, round(CHIP_PAD * s)), max(1, round(MARK_GAP * s))
    widest = area[2] - area[0]
    free = [r for r in rooms if r not in taken]
    summary = None
    if summed:
        kinds = _summed(here)
        box, at = _summary_chip(kinds, mark, pad, gap, area, taken, free, s)
        _set_items(kinds, at, box[0] + pad, box[1] + pad, mark, None, s, dots, monsters)
        summary = Summary(box, tuple(filled), kinds)
        taken.append(box)

    def order(p: tuple[Cell, list[Item]]) -> tuple[int, bool, int, int, int]:
        cell, items = p
        rank = first.index(cell) if cell in first else len(first)
        return (rank, not any(isinstance(i, int) for i in items), -len(items), cell[1],
                cell[0])

    stuck = None
    crossed = False
    for cell, items in sorted(pinned, key=order):
        room = room_of(cell)
        w, h, at = _chip_layout(items, mark, pad, gap, widest, s)
        others = [b for b in taken if b != room]
        monsters_only = not any(isinstance(item, int) for item in items)
        chip = _place_chip(room, w, h, area, others, free, s, not monsters_only, searched)
        if chip is None and monsters_only:
            # Hemmed in close by: over its own room if that is clear (where they are,
            # with no leader), else anywhere with a leader, else sum the floor up.
            chip = on_room(room, w, h, area, others) or _place_chip(
                room, w, h, area, others, free, s, True, searched)
            if chip is None:
                return None, None, False
        if chip is None:  # explorers hemmed in: over their room, clear of the rest if it can
            chip = on_room(room, w, h, area, others)
            if chip is None:
                # Else over the edges of the occupied rooms round it (never their marks,
                # chips or leaders): their marks are on chips, or inside and kept clear.
                stuck = stuck or cell
                chip = on_room(room, w, h, area, [b for b in others if b not in occupied])
                if chip is None:
                    crossed = True
                    chip = _over_room(room, w, h, area)
        width = max(1, round(LEADER * s))
        strokes = () if overlap(chip, room) else (
            clear_leader(room, chip, width, others) or leader(room, chip, width))
        _set_items(items, at, chip[0] + pad, chip[1] + pad, mark, room, s, dots, monsters)
        pins.append(Pin(room, chip, strokes, tuple(items)))
        taken += [chip, *strokes]
    return Marks(dots, tuple(monsters), tuple(pins), summary), stuck, crossed


def light_room(canvas: Canvas, pin: Pin) -> None:
    """Light the pinned room, so the leader's end is seen even in a room of a few
    pixels."""
    x0, y0, x1, y1 = pin.room
    canvas.fill((x0 + 1, y0 + 1, x1 - 1, y1 - 1), LIT)


def draw_chip(canvas: Canvas, chip: Box, leader: tuple[Box, ...] = ()) -> None:
    """The leader and the chip, edged in the leader's colour so the two read as one
    (the marks are drawn on it by the board)."""
    for stroke in leader:
        canvas.fill(stroke, LIT)
    x0, y0, x1, y1 = chip
    canvas.fill(chip, LIT)
    canvas.fill((x0 + 1, y0 + 1, x1 - 1, y1 - 1), CHIP)
