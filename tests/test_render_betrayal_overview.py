"""The chat board's floor overviews (renderers.betrayal.board, .overview) as a player
sees them inline at 550 x 350: every explorer's mark is MARK_SHOWN_PX across or more
and apart from every other mark, even with four to six explorers (or three and the
haunt's monsters) in one room of a floor not in play; a room too small for its marks
has them on a chip beside it, joined to it by a leader, the chip over nothing that
matters (no other chip, leader, occupied room, mark or the overview's title).

Every check reads the layout the board is drawn from (`board_geometry`), for crowded
rooms at 3, 4 and 6 players, for every state of the board tests and for every state of
an AI game; the drawn image is checked to hold each explorer's colour where its mark
is said to be."""

from __future__ import annotations

import math
from dataclasses import replace
from functools import cache
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.betrayal.pictures import FLOORS, MapView, MonsterView
from bot.games.betrayal.shown import map_view
from renderers.betrayal import SHOWN_SCALE, BoardGeometry, board_geometry, render_chat_image
from renderers.betrayal.board import overview_title_of
from renderers.betrayal.overview import (
    best_place,
    free_test,
    leaders,
    on_room,
    walled_in,
)
from renderers.common import Box, parse_colour
from tests.betrayal_haunt_helpers import house
from tests.betrayal_haunt_rig import (  # noqa: F401 (rig_plugin: the rigged haunt's plugin)
    rig_plugin,
)
from tests.test_render_betrayal import full_view
from tests.test_render_betrayal_board import (
    STATES,
    ai_played_states,
    check_legend,
    check_tokens,
    view_of,
)
from tests.zh_labels import in_language, is_chinese, translated

MARK_SHOWN_PX = 8  # an explorer's mark, across, as displayed
APART = 2  # px at full size (1 px as displayed) between two marks


def _crowd(view: MapView, floor: str, seats: list[int], kinds: int = 0) -> MapView:
    """`view` with these explorers (and `kinds` kinds of monster) in one room of
    `floor`, the floor in play made another (a room placed there this turn; the
    explorers left out stay where they are, the first of them to move)."""
    room = next(t for t in view.tiles if t.floor == floor and not t.start)
    elsewhere = next(t for t in view.tiles if t.floor != floor)
    explorers = tuple(replace(e, floor=floor, x=room.x, y=room.y, acting=False)
                      if e.seat in seats else e for e in view.explorers)
    left = [e for e in explorers if e.seat not in seats and e.floor != floor]
    monsters = tuple(MonsterView(id=i, name=name, glyph=name[0], floor=floor, x=room.x,
                                 y=room.y) for i, name in enumerate(("Rat", "Brute",
                                                                     "Ghost")[:kinds]))
    return replace(view, explorers=explorers, monsters=monsters,
                   mover=left[0].seat if left else None, placed=elsewhere.key, walked=())


CROWDS = {
    "3 players: all 3 and 3 monster kinds": lambda: _crowd(
        map_view(house(players=3)), "basement", [0, 1, 2], kinds=3),
    "4 players: all 4": lambda: _crowd(map_view(house(players=4)), "upper", [0, 1, 2, 3]),
    "6 players: 5, the mover elsewhere": lambda: _crowd(
        map_view(house(players=6)), "basement", [0, 1, 2, 3, 4]),
    "6 players: all 6 in a 47-room house": lambda: _crowd(
        full_view(0, players=6), "ground", list(range(6))),
}


@cache
def _crowd_view(name: str) -> MapView:
    return CROWDS[name]()  # type: ignore[no-any-return]


def _crowded_cell(view: MapView) -> tuple[str, int, int]:
    cells: dict[tuple[str, int, int], int] = {}
    for ex in view.explorers:
        cells[(ex.floor, ex.x, ex.y)] = cells.get((ex.floor, ex.x, ex.y), 0) + 1
    return max(cells, key=lambda c: cells[c])


def _overlap(a: Box, b: Box, gap: int = 0) -> bool:
    return a[0] < b[2] + gap and b[0] < a[2] + gap and a[1] < b[3] + gap and b[1] < a[3] + gap


def inside_of(box: Box, outer: Box) -> bool:
    return outer[0] <= box[0] and outer[1] <= box[1] and box[2] <= outer[2] \
        and box[3] <= outer[3]


def _touch(a: Box, b: Box) -> bool:
    """Whether two boxes meet (share an edge or overlap)."""
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def check_marks_read(name: str, view: MapView, bg: BoardGeometry) -> None:
    """Every explorer on a floor has its mark in that floor's overview, each explorer's
    mark MARK_SHOWN_PX across or more as displayed and APART from every other mark."""
    by_seat = {ex.seat: ex for ex in view.explorers}
    assert set(bg.dots) == {ex.seat for ex in view.explorers if ex.floor in FLOORS}, name
    marks = [(f"seat {seat}", box) for seat, box in bg.dots.items()]
    marks += [(f"monster {m.kind.name}", m.box) for m in bg.monster_marks]
    for seat, box in bg.dots.items():
        assert inside_of(box, bg.overviews[by_seat[seat].floor]), (name, seat)
    for what, (x0, y0, x1, y1) in marks:
        assert min(x1 - x0, y1 - y0) * SHOWN_SCALE >= MARK_SHOWN_PX, (name, what, x1 - x0)
    marks += [(f"count {m.kind.name}", m.count_box) for m in bg.monster_marks if m.count_box]
    for what, box in marks:
        assert any(inside_of(box, o) for o in bg.overviews.values()), (name, what)
    for i, (what, box) in enumerate(marks):
        for other, b in marks[i + 1:]:
            assert not _overlap(box, b, APART), (name, what, other)


def check_chips(name: str, view: MapView, bg: BoardGeometry) -> None:
    """Each chip lies in its floor's overview, clear of the title, of every other chip
    and leader, of every room something stands in and of every mark not on it; its
    leader runs from its room to it; its marks are on it."""
    tiles = {(t.floor, t.x, t.y): t.key for t in view.tiles}
    occupied = {tiles[(f.floor, f.x, f.y)] for f in (*view.explorers, *view.monsters)
                if (f.floor, f.x, f.y) in tiles}
    occupied_boxes = [bg.rooms[key] for key in occupied]
    marks = [*bg.dots.values(), *(m.box for m in bg.monster_marks)]
    counts = [m.count_box for m in bg.monster_marks if m.count_box]
    titles = [overview_title_of(view, floor, box, bg.map.scale)[3]
              for floor, box in bg.overviews.items()]
    for i, pin in enumerate(bg.pins):
        assert any(inside_of(pin.chip, box) for box in bg.overviews.values()), (name, pin)
        assert pin.room in occupied_boxes, (name, pin)
        assert not any(_overlap(pin.chip, t) for t in titles), (name, pin)
        for box in occupied_boxes:
            if not pin.leader and (box == pin.room or pin.items[0] in bg.dots):
                # Hemmed in: over its own room (see below), explorers over the edges of
                # the rooms round it too (their marks are kept clear, as every mark is).
                continue
            assert not _overlap(pin.chip, box), (name, pin, box)
            if box != pin.room:
                assert not any(_overlap(s, box) for s in pin.leader), (name, pin, box)
        for other in bg.pins[i + 1:]:
            for a in (pin.chip, *pin.leader):
                for b in (other.chip, *other.leader):
                    assert not _overlap(a, b), (name, pin, other)
        on_chip = [box for box in marks if inside_of(box, pin.chip)]
        assert len(on_chip) == len(pin.items), (name, pin)
        assert all(inside_of(bg.dots[i], pin.chip) for i in pin.items if isinstance(i, int))
        assert not any(_overlap(box, pin.chip) for box in marks if box not in on_chip)
        assert not any(_overlap(box, pin.chip) for box in counts if not inside_of(box, pin.chip))
        for summary in bg.summaries:
            for a in (pin.chip, *pin.leader):
                assert not _overlap(a, summary.chip), (name, pin, summary)
    for summary in bg.summaries:  # a floor's monsters summed up: a chip clear of the rest
        assert any(inside_of(summary.chip, box) for box in bg.overviews.values()), name
        assert not any(_overlap(summary.chip, t) for t in titles), name
        assert not any(_overlap(summary.chip, box) for box in occupied_boxes), name
        on_chip = [box for box in marks if inside_of(box, summary.chip)]
        assert len(on_chip) == len(summary.kinds), name
        assert not any(_overlap(box, summary.chip) for box in [*marks, *counts]
                       if not inside_of(box, summary.chip)), name
        assert set(summary.rooms) <= set(occupied_boxes), name
        # The leader: from the room's edge, stroke to stroke, to the chip's edge; or no
        # leader, the chip over the middle of its room.
        strokes = pin.leader
        if not strokes:
            middle = ((pin.room[0] + pin.room[2]) // 2, (pin.room[1] + pin.room[3]) // 2)
            assert inside_of((*middle, middle[0] + 1, middle[1] + 1), pin.chip), (name, pin)
            continue
        assert _touch(strokes[0], pin.room) and _touch(strokes[-1], pin.chip)
        assert all(_touch(a, b) for a, b in pairwise(strokes)), pin
        assert all(not _overlap(s, pin.chip) and not _overlap(s, pin.room) for s in strokes)


@pytest.mark.parametrize("name", list(CROWDS))
def test_crowded_overview_marks_read_at_chat_size(name: str) -> None:
    """Four to six explorers (at 3 players: all three and three kinds of monster) in
    one room of a floor not in play: every mark is MARK_SHOWN_PX across or more as
    displayed, and apart from the others."""
    view = _crowd_view(name)
    bg = board_geometry(view)
    floor, _, _ = _crowded_cell(view)
    assert floor != bg.focus and floor in bg.overviews, name  # the crowd is overviewed
    crowd = sum(1 for ex in view.explorers if (ex.floor, ex.x, ex.y) == _crowded_cell(view))
    assert crowd + len(view.monsters) >= 4
    check_marks_read(name, view, bg)


@pytest.mark.parametrize("name", list(CROWDS))
def test_a_crowd_goes_on_a_chip_beside_its_room(name: str) -> None:
    """The crowded room's marks are on one chip, every chip placed clear of the rest of
    the overview, and the board's other checks (no token covered, every marker in the
    legend) still hold."""
    view = _crowd_view(name)
    bg = board_geometry(view)
    crowd = {ex.seat for ex in view.explorers if (ex.floor, ex.x, ex.y) == _crowded_cell(view)}
    chips = [pin for pin in bg.pins if crowd & set(pin.items)]
    assert len(chips) == 1 and crowd <= set(chips[0].items), name
    assert len(chips[0].items) == len(crowd) + len(view.monsters)
    check_chips(name, view, bg)
    check_tokens(name, view, bg)
    check_legend(name, view, bg)


@pytest.mark.parametrize("name", list(CROWDS))
def test_the_marks_are_drawn_where_the_layout_says(name: str) -> None:
    """In the drawn board, the middle of each living explorer's mark has its colour
    (the traitor's too: its band is round the middle) and each chip's corner has the
    leader's colour: the image is the layout."""
    view = _crowd_view(name)
    bg = board_geometry(view)
    img = render_chat_image(view)
    for ex in view.explorers:
        if not ex.alive or ex.seat not in bg.dots:
            continue
        x0, y0, x1, y1 = bg.dots[ex.seat]
        assert img.getpixel(((x0 + x1) // 2, (y0 + y1) // 2)) == parse_colour(ex.colour), \
            (name, ex.seat)
    lit = {img.getpixel((pin.chip[0], pin.chip[1])) for pin in bg.pins}
    assert len(lit) == 1, lit  # every chip's edge in the one colour of its leader
    for pin in bg.pins:
        x0, y0, x1, y1 = pin.leader[0]
        assert img.getpixel(((x0 + x1) // 2, (y0 + y1) // 2)) in lit


@pytest.mark.parametrize("name", list(STATES))
def test_every_board_state_marks_read(name: str) -> None:
    """The board tests' states (houses at 3, 4 and 6 players, every haunt begun, a
    crowd, 47-room houses): the overviews' marks read and the chips keep clear."""
    view = view_of(name)
    bg = board_geometry(view)
    check_marks_read(name, view, bg)
    check_chips(name, view, bg)


def test_marks_read_over_an_ai_game() -> None:
    """Every state of an AI game of 6, exploring into its haunt."""
    chips = 0
    for i, state in enumerate(ai_played_states(6, 3, 400)):
        view = map_view(state)
        bg = board_geometry(view)
        check_marks_read(f"state {i}", view, bg)
        check_chips(f"state {i}", view, bg)
        chips += len(bg.pins)
    assert chips  # the game's rooms were too small for their marks at times


@pytest.mark.parametrize("name", list(CROWDS))
def test_in_chinese_a_crowd_reads_on_its_chip_and_covers_nothing(
        request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """The crowded overviews with Chinese labels (tests/zh_labels.py): the overview's
    title, the chip and the marks keep their places and sizes, nothing is covered, and
    every marker is in the legend."""
    in_language(request, monkeypatch, "zh-TW")
    view = translated(_crowd_view(name))
    assert all(is_chinese(e.player + e.name) for e in view.explorers)
    bg = board_geometry(view)
    check_marks_read(name, view, bg)
    check_chips(name, view, bg)
    check_tokens(name, view, bg)
    check_legend(name, view, bg)


@settings(max_examples=200, deadline=None)
@given(w=st.integers(1, 40), h=st.integers(1, 40),
       blocked=st.lists(st.tuples(st.integers(-20, 200), st.integers(-20, 200),
                                  st.integers(1, 60), st.integers(1, 60)), max_size=12),
       places=st.lists(st.tuples(st.integers(-30, 220), st.integers(-30, 220)),
                       min_size=1, max_size=30))
def test_a_chips_free_places_are_those_clear_of_every_blocked_box(
        w: int, h: int, blocked: list[tuple[int, int, int, int]],
        places: list[tuple[int, int]]) -> None:
    """The chip search's quick test (each column's blockers found once) says free
    exactly where the chip keeps 1 px clear of every blocked box."""
    boxes: list[Box] = [(x, y, x + bw, y + bh) for x, y, bw, bh in blocked]
    free = free_test(w, h, boxes)
    for x, y in places:
        clear = not any(x < b[2] + 1 and b[0] < x + w + 1 and y < b[3] + 1
                        and b[1] < y + h + 1 for b in boxes)
        assert free(x, y) == clear


def places_sorted(room: Box, w: int, h: int, cols: list[tuple[int, int, float]],
                  rows: list[tuple[int, int, float]], gap: int, width: int,
                  blocked: list[Box], rooms: list[Box]) -> Box | None:
    """The chip search as first written, the spec `best_place` keeps: every place listed
    and sorted, nearest first, weighed in that order."""
    places = sorted((math.hypot(max(0, gx), max(0, gy)) + 0.05 * math.hypot(ox, oy), y, x)
                    for y, gy, oy in rows for x, gx, ox in cols if gx >= gap or gy >= gap)
    best: tuple[float, Box] | None = None
    for near, y, x in places:
        if best is not None and near >= best[0]:
            break
        chip = (x, y, x + w, y + h)
        if any(x < b[2] + 1 and b[0] < x + w + 1 and y < b[3] + 1 and b[1] < y + h + 1
               for b in blocked):
            continue
        # The plainest way a leader may run that crosses nothing blocked.
        strokes = next((way for way in leaders(room, chip, width) if not any(
            s[0] < b[2] and b[0] < s[2] and s[1] < b[3] and b[1] < s[3]
            for s in way for b in blocked)), None)
        if strokes is None:
            continue
        cost = near + (h if len(strokes) > 1 else 0)
        cost += sum(max(0, min(x + w, r[2]) - max(x, r[0]))
                    * max(0, min(y + h, r[3]) - max(y, r[1])) for r in rooms) / max(1, h)
        if best is None or cost < best[0]:
            best = (cost, chip)
    return None if best is None else best[1]


# Boxes crowding the room (an overview is small and full): a near place is often taken
# or covers a room, so the search goes past its first rings.
boxes = st.lists(st.tuples(st.integers(0, 110), st.integers(0, 110), st.integers(4, 30),
                           st.integers(4, 30)), max_size=12)


@settings(max_examples=300, deadline=None)
@given(room=st.tuples(st.integers(30, 70), st.integers(30, 70), st.integers(8, 30),
                      st.integers(8, 30)),
       w=st.integers(4, 50), h=st.integers(4, 30), gap=st.integers(1, 6),
       step=st.integers(1, 12), blocked=boxes, rooms=boxes)
def test_the_chip_search_ring_by_ring_finds_the_place_a_sorted_list_would(
        room: tuple[int, int, int, int], w: int, h: int, gap: int, step: int,
        blocked: list[tuple[int, int, int, int]],
        rooms: list[tuple[int, int, int, int]]) -> None:
    """`best_place` lists places ring by ring, not all of them sorted: the place it finds
    (or that none is free) is the sorted list's, tie for tie."""
    x0, y0, rw, rh = room
    box: Box = (x0, y0, x0 + rw, y0 + rh)
    area: Box = (0, 0, 130, 130)
    xs = {*range(area[0], area[2] - w + 1, step), box[0], box[2] - w, box[2] + gap,
          box[0] - gap - w, (box[0] + box[2] - w) // 2}
    ys = {*range(area[1], area[3] - h + 1, step), box[1], box[3] - h, box[3] + gap,
          box[1] - gap - h, (box[1] + box[3] - h) // 2}
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    cols = [(x, max(box[0] - x - w, x - box[2]), x + w / 2 - cx) for x in xs]
    rows = [(y, max(box[1] - y - h, y - box[3]), y + h / 2 - cy) for y in ys]
    blocked_boxes: list[Box] = [box, *((x, y, x + bw, y + bh) for x, y, bw, bh in blocked)]
    room_boxes: list[Box] = [(x, y, x + bw, y + bh) for x, y, bw, bh in rooms]
    found = best_place(box, w, h, cols, rows, gap, 2, blocked_boxes, room_boxes)
    assert found == places_sorted(box, w, h, cols, rows, gap, 2, blocked_boxes, room_boxes)


def on_room_plain(room: Box, w: int, h: int, area: Box, blocked: list[Box]) -> Box | None:
    """The search over a chip's own room as first written, the spec `on_room` keeps:
    every place over the room's middle sorted nearest first (then leftmost, highest),
    the first free one taken."""
    rcx, rcy = (room[0] + room[2]) // 2, (room[1] + room[3]) // 2
    places = [(x, y) for x in range(max(area[0], rcx - w + 1), min(area[2] - w, rcx) + 1)
              for y in range(max(area[1], rcy - h + 1), min(area[3] - h, rcy) + 1)]
    places.sort(key=lambda p: (abs(p[0] + w / 2 - rcx) + abs(p[1] + h / 2 - rcy), p))
    for x, y in places:
        if not any(x < b[2] + 1 and b[0] < x + w + 1 and y < b[3] + 1
                   and b[1] < y + h + 1 for b in blocked):
            return (x, y, x + w, y + h)
    return None


def hemmed(box: Box, side: int, gaps: tuple[int, ...] = (0, 0, 0, 0)) -> list[Box]:
    """Four rooms of `side` px touching `box` on each side, as a floor's occupied rooms
    round a crowded one stand (no leader leaves it, no chip fits close by); each of
    them `gaps` px short of the room's corner (a way out, or none when 0)."""
    x0, y0, x1, y1 = box
    top, bottom, left, right = gaps
    return [(x0 + top, y0 - side, x1, y0), (x0, y1, x1 - bottom, y1 + side),
            (x0 - side, y0 + left, x0, y1), (x1, y0, x1 + side, y1 - right)]


@settings(max_examples=300, deadline=None)
@given(room=st.tuples(st.integers(20, 90), st.integers(20, 90), st.integers(4, 30),
                      st.integers(4, 30)),
       w=st.integers(1, 50), h=st.integers(1, 30), blocked=boxes,
       walled=st.integers(0, 12))
def test_the_search_over_a_room_finds_the_place_the_plain_search_would(
        room: tuple[int, int, int, int], w: int, h: int,
        blocked: list[tuple[int, int, int, int]], walled: int) -> None:
    """`on_room` finds each column's free rows from its blockers at once: the place it
    finds (or that none is free) is the plain sorted search's, tie for tie, with the
    room hemmed in by its neighbours or not."""
    x0, y0, rw, rh = room
    box: Box = (x0, y0, x0 + rw, y0 + rh)
    others: list[Box] = [(x, y, x + bw, y + bh) for x, y, bw, bh in blocked]
    if walled:
        others += hemmed(box, walled)
    area: Box = (0, 0, 130, 130)
    assert on_room(box, w, h, area, others) == on_room_plain(box, w, h, area, others)


@settings(max_examples=300, deadline=None)
@given(room=st.tuples(st.integers(30, 70), st.integers(30, 70), st.integers(8, 30),
                      st.integers(8, 30)),
       w=st.integers(4, 50), h=st.integers(4, 30), gap=st.integers(1, 6),
       step=st.integers(1, 12), blocked=boxes, rooms=boxes, walled=st.integers(0, 12),
       way_out=st.integers(-1, 3), gap_px=st.sampled_from((1, 2, 4, 15)),
       width=st.sampled_from((1, 2, 2, 3)), near_by=st.integers(0, 60))
def test_a_hemmed_in_search_finds_what_the_whole_search_would(
        room: tuple[int, int, int, int], w: int, h: int, gap: int, step: int,
        blocked: list[tuple[int, int, int, int]], rooms: list[tuple[int, int, int, int]],
        walled: int, way_out: int, gap_px: int, width: int, near_by: int) -> None:
    """A room walled in by its neighbours (`walled_in`: no leader leaves it) finds no
    place at once, and one with a way out (`gap_px` by one corner, on side `way_out`)
    finds the place the sorted search would.
    When no place close by is free, the search of the whole overview passes over the
    places close by (`taken`): it finds what it finds weighing them again."""
    x0, y0, rw, rh = room
    box: Box = (x0, y0, x0 + rw, y0 + rh)
    area: Box = (0, 0, 130, 130)
    # Places overlapping the room's corner by a pixel or two too: the leaders squeezed
    # past a wall's end.
    xs = {*range(area[0], area[2] - w + 1, step), box[0], box[2] - w, box[2] + gap,
          box[0] - gap - w, (box[0] + box[2] - w) // 2, box[0] - w + 1, box[0] - w + 2,
          box[2] - 1, box[2] - 2}
    ys = {*range(area[1], area[3] - h + 1, step), box[1], box[3] - h, box[3] + gap,
          box[1] - gap - h, (box[1] + box[3] - h) // 2, box[1] - h + 1, box[1] - h + 2,
          box[3] - 1, box[3] - 2}
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    cols = [(x, max(box[0] - x - w, x - box[2]), x + w / 2 - cx) for x in xs]
    rows = [(y, max(box[1] - y - h, y - box[3]), y + h / 2 - cy) for y in ys]
    blocked_boxes: list[Box] = [(x, y, x + bw, y + bh) for x, y, bw, bh in blocked]
    gaps = tuple(gap_px if side == way_out else 0 for side in range(4))
    if walled:
        blocked_boxes += hemmed(box, walled, gaps)
    room_boxes: list[Box] = [(x, y, x + bw, y + bh) for x, y, bw, bh in rooms]
    near_cols = [c for c in cols if c[1] < near_by]
    near_rows = [r for r in rows if r[1] < near_by]
    whole = best_place(box, w, h, cols, rows, gap, width, blocked_boxes, room_boxes)
    assert whole == places_sorted(box, w, h, cols, rows, gap, width, blocked_boxes,
                                  room_boxes)
    if walled and way_out < 0:
        assert walled_in(box, w, h, width, blocked_boxes) and whole is None
    if best_place(box, w, h, near_cols, near_rows, gap, width, blocked_boxes,
                  room_boxes) is None:
        taken = ({c[0] for c in near_cols}, {r[0] for r in near_rows})
        assert best_place(box, w, h, cols, rows, gap, width, blocked_boxes, room_boxes,
                          taken) == whole


@pytest.mark.parametrize(("side", "chip"), [
    (0, (31, 20, 41, 30)),  # above, its leader past the top wall's left end
    (1, (59, 70, 69, 80)),  # below, past the bottom wall's right end
    (2, (20, 31, 30, 41)),  # left, past the left wall's top end
    (3, (70, 59, 80, 69)),  # right, past the right wall's bottom end
])
def test_a_one_pixel_way_out_is_a_way_out(side: int, chip: Box) -> None:
    """A one-pixel leader squeezes past the end of a wall a pixel short of the room's
    corner: the room is not walled in, and the chip found there is the one place; with
    the wall closed, none is."""
    room: Box = (40, 40, 60, 60)
    w = h = 10
    cols = [(chip[0], max(room[0] - chip[0] - w, chip[0] - room[2]), chip[0] + w / 2 - 50)]
    rows = [(chip[1], max(room[1] - chip[1] - h, chip[1] - room[3]), chip[1] + h / 2 - 50)]
    open_wall = hemmed(room, 5, tuple(1 if s == side else 0 for s in range(4)))
    assert not walled_in(room, w, h, 1, open_wall)
    assert best_place(room, w, h, cols, rows, 1, 1, open_wall, []) == chip
    closed = hemmed(room, 5)
    assert walled_in(room, w, h, 1, closed)
    assert best_place(room, w, h, cols, rows, 1, 1, closed, []) is None
    assert places_sorted(room, w, h, cols, rows, 1, 1, closed, []) is None
