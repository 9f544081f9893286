"""A crowd of explorers in small neighbouring rooms of a floor overview at six players
(renderers.betrayal.overview): every room's chip still finds a place clear of every
other chip, leader and mark, so no two explorers' marks sit on top of each other.

Two layouts are pinned as the board laid them out when they went wrong (each chip the
nearest free place to its room, taken one by one): four explorers and a monster in a
T of 11 px rooms at the foot of the ground floor's overview, where the middle room's
sides are walled in by its neighbours and there is no room below it for a straight
leader (seat 0's chip went over seat 4's); and six explorers in 4 px rooms, where the
first chips ringed the last rooms in whatever order they were tried (seat 3's chip
went over seat 4's). The same crowd is also checked as AI play reached it."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.betrayal.shown import map_view
from renderers.betrayal import SHOWN_SCALE
from renderers.betrayal.overview import Item, Kind, Marks, leaders, place_marks
from renderers.common import Box
from tests.betrayal_haunt_rig import (  # noqa: F401 (rig_plugin: the rigged haunt's plugin)
    rig_plugin,
)
from tests.test_render_betrayal_overview import APART, MARK_SHOWN_PX
from tests.test_render_betrayal_overview_monsters import check_all, played_states

Cell = tuple[int, int]

AREA: Box = (759, 216, 1081, 308)  # the ground floor's overview at 6 players
TITLE: Box = (764, 215, 937, 237)
SCALE = 0.9166666666666666

# all_living_things_must_abide, 6 players, the state after 100 AI actions.
T_HERE: dict[Cell, list[Item]] = {
    (-3, 2): [0, 1], (-2, 2): [2], (-3, 1): [3, Kind("Stan's Head", "S", 1)], (-4, 2): [4]}
T_ROOMS: dict[Cell, Box] = {
    (-3, 2): (909, 282, 920, 293), (-2, 2): (920, 282, 931, 293),
    (-3, 1): (909, 271, 920, 282), (-4, 2): (898, 282, 909, 293)}
T_FLOOR: list[Box] = [
    (942, 260, 953, 271), (931, 260, 942, 271), (920, 260, 931, 271), (942, 249, 953, 260),
    (942, 271, 953, 282), (931, 249, 942, 260), (931, 271, 942, 282), (931, 238, 942, 249),
    (931, 282, 942, 293), (920, 271, 931, 282), (920, 282, 931, 293), (909, 282, 920, 293),
    (909, 271, 920, 282), (898, 282, 909, 293), (898, 271, 909, 282), (909, 260, 920, 271),
    (909, 249, 920, 260), (898, 293, 909, 304), (887, 282, 898, 293), (898, 260, 909, 271)]

# separate_nightmares, 6 players, the state after 117 AI actions.
SMALL_HERE: dict[Cell, list[Item]] = {
    (-7, -1): [0], (3, -6): [1], (-1, 0): [2], (0, 0): [3], (4, -2): [4], (0, -1): [5],
    (5, -3): [Kind("Huge Horror", "H", 2)]}
SMALL_ROOMS: dict[Cell, Box] = {
    (-7, -1): (904, 265, 908, 269), (3, -6): (924, 249, 928, 253),
    (-1, 0): (916, 269, 920, 273), (0, 0): (920, 269, 924, 273),
    (4, -2): (928, 261, 932, 265), (0, -1): (920, 265, 924, 269),
    (5, -3): (932, 257, 936, 261)}
SMALL_FLOOR: list[Box] = [
    (920, 269, 924, 273), (916, 269, 920, 273), (912, 269, 916, 273), (916, 249, 920, 253),
    (904, 269, 908, 273), (932, 269, 936, 273), (916, 293, 920, 297), (904, 249, 908, 253),
    (932, 249, 936, 253), (904, 293, 908, 297), (932, 265, 936, 269), (932, 261, 936, 265),
    (920, 293, 924, 297), (904, 245, 908, 249), (932, 253, 936, 257), (904, 289, 908, 293),
    (904, 285, 908, 289), (904, 281, 908, 285), (932, 257, 936, 261), (920, 297, 924, 301),
    (904, 241, 908, 245), (928, 249, 932, 253), (904, 277, 908, 281), (928, 261, 932, 265),
    (912, 293, 916, 297), (920, 265, 924, 269), (908, 241, 912, 245), (904, 265, 908, 269),
    (924, 249, 928, 253), (904, 273, 908, 277), (908, 277, 912, 281)]


def _overlap(a: Box, b: Box, gap: int = 0) -> bool:
    return a[0] < b[2] + gap and b[0] < a[2] + gap and a[1] < b[3] + gap and b[1] < a[3] + gap


def _touch(a: Box, b: Box) -> bool:
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def _inside(box: Box, outer: Box) -> bool:
    return outer[0] <= box[0] and outer[1] <= box[1] and box[2] <= outer[2] \
        and box[3] <= outer[3]


def _check(here: dict[Cell, list[Item]], rooms: dict[Cell, Box], marks: Marks) -> None:
    """What a player must be able to read off the overview: each explorer's mark
    legible and apart from every other mark, each chip and leader clear of the others,
    of the title and of every room something stands in (a chip over its own room, with
    no leader, only where the room's middle is under it)."""
    seats = {item for items in here.values() for item in items if isinstance(item, int)}
    assert set(marks.dots) == seats
    boxes = [*marks.dots.values(), *(m.box for m in marks.monsters)]
    boxes += [m.count_box for m in marks.monsters if m.count_box]
    for box in marks.dots.values():
        assert min(box[2] - box[0], box[3] - box[1]) * SHOWN_SCALE >= MARK_SHOWN_PX
        assert _inside(box, AREA)
    for i, box in enumerate(boxes):
        for near in boxes[i + 1:]:
            assert not _overlap(box, near, APART), (box, near)
    occupied = list(rooms.values())
    for i, pin in enumerate(marks.pins):
        assert _inside(pin.chip, AREA) and not _overlap(pin.chip, TITLE), pin
        for other in marks.pins[i + 1:]:
            for a in (pin.chip, *pin.leader):
                for b in (other.chip, *other.leader):
                    assert not _overlap(a, b), (pin, other)
        if not pin.leader:
            mx, my = (pin.room[0] + pin.room[2]) // 2, (pin.room[1] + pin.room[3]) // 2
            assert _inside((mx, my, mx + 1, my + 1), pin.chip), pin
            continue
        for room in occupied:
            assert not _overlap(pin.chip, room), (pin, room)
            if room != pin.room:
                assert not any(_overlap(s, room) for s in pin.leader), (pin, room)


def test_a_room_walled_in_at_the_foot_of_an_overview_gets_a_chip_of_its_own() -> None:
    """The middle room of a T of occupied rooms on the overview's bottom row: its chip
    goes below and beside its neighbours by a leader out of its bottom, and no two
    explorers' marks meet (seat 0's mark stood a pixel from seat 4's)."""
    marks = place_marks(T_HERE, T_ROOMS.__getitem__, 11, AREA, [TITLE], T_FLOOR, SCALE)
    _check(T_HERE, T_ROOMS, marks)


def test_six_explorers_in_four_pixel_rooms_each_get_a_chip_clear_of_the_rest() -> None:
    """Six explorers in 4 px rooms a few rooms apart, and a pair of monsters: every
    chip finds a place clear of the others (the last rooms' chips went over their
    neighbours' in every order the layout tried)."""
    marks = place_marks(SMALL_HERE, SMALL_ROOMS.__getitem__, 4, AREA, [TITLE], SMALL_FLOOR,
                        SCALE)
    _check(SMALL_HERE, SMALL_ROOMS, marks)


def test_the_crowd_as_ai_play_reached_it_passes_every_board_check() -> None:
    """The first layout as the monster-marks test reached it (a house and a game the
    AI played; if the rules change what it plays, this checks another state, and the
    pinned layouts above still hold the crowd)."""
    for i, state in enumerate(played_states("all_living_things_must_abide", 6)):
        if i == 100:
            check_all(f"all_living_things_must_abide state {i}", map_view(state))
            return
    raise AssertionError("the game ended before state 100")


rooms_st = st.tuples(st.integers(20, 60), st.integers(20, 60), st.integers(4, 14),
                     st.integers(4, 14))
chips_st = st.tuples(st.integers(0, 100), st.integers(0, 100), st.integers(8, 44),
                     st.integers(8, 44))


@settings(max_examples=300, deadline=None)
@given(room=rooms_st, chip=chips_st, width=st.sampled_from((1, 2, 3)))
def test_every_way_a_leader_runs_joins_its_room_to_its_chip(
        room: tuple[int, int, int, int], chip: tuple[int, int, int, int], width: int) -> None:
    """Each way `leaders` offers past the plain one (`leader`'s, whose elbows the
    overview tests check on every board) runs from the room's edge, stroke to stroke,
    to the chip's edge, over neither of them: two strokes, each `width` across (a
    leader drawn over its own room or chip would read as part of it)."""
    rx, ry, rw, rh = room
    cx, cy, cw, ch = chip
    r: Box = (rx, ry, rx + rw, ry + rh)
    c: Box = (cx, cy, cx + cw, cy + ch)
    if _overlap(r, c, 1):
        return
    for way in leaders(r, c, width)[1:]:
        assert len(way) == 2, way
        assert _touch(way[0], r) and _touch(way[-1], c), way
        assert all(_touch(a, b) for a, b in pairwise(way)), way
        assert all(not _overlap(s, c) and not _overlap(s, r) for s in way), way
        assert all(s[0] < s[2] and s[1] < s[3] for s in way), way
        assert all(width in (s[2] - s[0], s[3] - s[1]) for s in way), way
