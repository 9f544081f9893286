"""Monsters in the chat board's floor overviews (renderers.betrayal.overview) as a player
sees them inline at 550 x 350: each kind's mark is MARK_SHOWN_PX across or more, shows
the kind's letter as the legend names it (no two kinds share a letter), with "×n" for
several of a kind in a room, and sits apart from every explorer's mark and every other
mark. A room holding only monsters gets a mark inside it when it is big enough, else a
chip (beside it with a leader, or over it when hemmed in); a floor with more such rooms
than MONSTER_CHIPS (or with one no chip finds a place for) sums its monsters up by kind
on one chip and fills their rooms in the monsters' colour, which the legend names.

Every check reads the layout the board is drawn from (`board_geometry`): every classic
haunt and Neibolt scenario with monsters, just begun and AI-played on (3, 4 and 6
players), and a floor not in play crowded with monsters of three kinds; the drawn image
is checked to hold each mark where the layout says."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from functools import cache

import pytest
from PIL import Image

from bot.games.betrayal import GAME, haunt_roll
from bot.games.betrayal.haunting.base import load_data
from bot.games.betrayal.pictures import FLOORS, MapView, MonsterView
from bot.games.betrayal.shown import map_view
from bot.games.betrayal.state import BetrayalState
from renderers.betrayal import (
    READ_SHOWN_PX,
    SHOWN_SCALE,
    BoardGeometry,
    board_geometry,
    render_chat_image,
)
from renderers.betrayal.overview import MONSTER_CHIPS
from renderers.betrayal.palette import MONSTER, MONSTER_EDGE, TEXT, glyph_mark
from renderers.common import Box
from tests.betrayal_haunt_helpers import house, started
from tests.betrayal_haunt_rig import (  # noqa: F401 (rig_plugin: the rigged haunt's plugin)
    rig_plugin,
)
from tests.test_render_betrayal_board import check_legend, check_tokens
from tests.test_render_betrayal_overview import (
    MARK_SHOWN_PX,
    check_chips,
    check_marks_read,
    inside_of,
)

WITH_MONSTERS = [key for key in sorted(haunt_roll.haunts()) if load_data(key).monsters]
PLAYERS = (3, 4, 6)
ACTIONS = 300  # of AI play after the haunt's start (most haunts end before)
KINDS = (("Rat", "R"), ("Brute", "B"), ("Ghost", "G"))


def _cells(view: MapView, floor: str) -> dict[tuple[int, int], dict[tuple[str, str], int]]:
    """Per cell of the floor: how many monsters of each kind (name, letter) stand there."""
    out: dict[tuple[int, int], dict[tuple[str, str], int]] = {}
    for m in view.monsters:
        if m.floor == floor:
            kinds = out.setdefault((m.x, m.y), {})
            key = (m.name, glyph_mark(m.glyph, m.name))
            kinds[key] = kinds.get(key, 0) + 1
    return out


def _check_monsters(name: str, view: MapView, bg: BoardGeometry) -> int:
    """Every monster on a floor is counted on its overview: a mark per kind per room
    (its count beside it), or, on a floor summed up, a mark per kind on the floor's
    chip and its rooms filled; each mark legible and in the legend. The number of marks."""
    tiles = {(t.floor, t.x, t.y): t.key for t in view.tiles}
    legend = {(entry[0], entry[1], entry[2]) for entry, _ in bg.legend}
    sizes = dict(bg.texts)
    letters: dict[str, str] = {}
    for floor, panel in bg.overviews.items():
        cells = _cells(view, floor)
        assert all((floor, *cell) in tiles for cell in cells), name  # on a room each
        room = {cell: bg.rooms[tiles[(floor, *cell)]] for cell in cells}
        marks = [m for m in bg.monster_marks if inside_of(m.box, panel)]
        summary = [s for s in bg.summaries if inside_of(s.chip, panel)]
        assert len(summary) <= 1, name
        with_explorers = {room[(e.x, e.y)] for e in view.explorers
                          if e.floor == floor and (e.x, e.y) in room}
        got: dict[Box | None, dict[tuple[str, str], int]] = {}
        for m in marks:
            kinds = got.setdefault(m.room, {})
            assert (m.kind.name, m.kind.letter) not in kinds, (name, m)  # one per kind
            kinds[(m.kind.name, m.kind.letter)] = m.kind.count
        want = {room[cell]: kinds for cell, kinds in cells.items()}
        if summary:
            totals: dict[tuple[str, str], int] = {}
            for kinds in cells.values():
                for kind, n in kinds.items():
                    totals[kind] = totals.get(kind, 0) + n
            assert got.pop(None) == totals, name
            assert {(k.name, k.letter, k.count) for k in summary[0].kinds} == \
                {(*kind, n) for kind, n in totals.items()}, name
            assert set(summary[0].rooms) == set(want) - with_explorers, name
            want = {box: kinds for box, kinds in want.items() if box in with_explorers}
        assert got == want, (name, floor)
        for m in marks:
            x0, y0, x1, y1 = m.box
            assert min(x1 - x0, y1 - y0) * SHOWN_SCALE >= MARK_SHOWN_PX, (name, m)
            assert ("monster", m.kind.letter, m.kind.name) in legend, (name, m.kind)
            assert (m.count_box is not None) == (m.kind.count > 1), (name, m)
            assert letters.setdefault(m.kind.letter, m.kind.name) == m.kind.name, \
                (name, "two kinds share a letter", m.kind)
    if bg.monster_marks:
        assert sizes["overview_monster_letter"] * SHOWN_SCALE >= READ_SHOWN_PX, name
    if any(m.count_box for m in bg.monster_marks):
        assert sizes["overview_monster_count"] * SHOWN_SCALE >= READ_SHOWN_PX, name
    return len(bg.monster_marks)


def check_all(name: str, view: MapView) -> BoardGeometry:
    bg = board_geometry(view)
    _check_monsters(name, view, bg)
    check_marks_read(name, view, bg)
    check_chips(name, view, bg)
    check_tokens(name, view, bg)
    check_legend(name, view, bg)
    return bg


def played_states(key: str, players: int) -> Iterator[BetrayalState]:
    """The haunt just begun on a house of `players`, then every state of AI play."""
    state = started(key, players=players)[0]
    for _ in range(ACTIONS):
        yield state
        seat = GAME.to_act(state)
        if state.over or seat is None:
            return
        state, _ = GAME.apply(state, seat, GAME.ai_action(state, seat))


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("key", WITH_MONSTERS)
def test_monster_marks_read_over_a_haunt(key: str, players: int) -> None:
    """Every haunt and scenario with monsters, from its start through AI play: each
    monster is counted on its floor's overview by marks that read at chat size."""
    marks = 0
    for i, state in enumerate(played_states(key, players)):
        view = map_view(state)
        marks += _check_monsters(f"{key} state {i}", view, board_geometry(view))
        if i % 10 == 0:  # the rest of the board's checks, on every tenth state
            check_all(f"{key} state {i}", view)
    assert marks, key  # monsters were on the overviews


def _crowded_floor(players: int, rooms: int, explorers: int = 2, seed: int = 1) -> MapView:
    """A house of `players` (AI play on `seed`) with monsters of three kinds in `rooms`
    rooms spread over its biggest floor (one to three of a kind), `explorers` explorers
    there in other rooms, and the floor in play another (a room placed there this turn,
    no one moving)."""
    view = map_view(house(players=players, seed=seed))
    floor = max(FLOORS, key=lambda f: sum(t.floor == f for t in view.tiles))
    on = [t for t in view.tiles if t.floor == floor]
    assert len(on) >= rooms + explorers, (floor, len(on))
    # Rooms spread over the floor (every k-th as the house grew), explorers in others.
    k = max(1, (len(on) - explorers) // rooms)
    chosen = on[::k][:rooms]
    on = chosen + [t for t in on if t not in chosen]
    monsters = []
    for i, tile in enumerate(chosen):  # 1 to 3 of one kind, and one of the next in some
        for kind in [i % 3] * (1 + i % 3) + [(i + 1) % 3] * (i % 2):
            name, glyph = KINDS[kind]
            monsters.append(MonsterView(id=len(monsters), name=name, glyph=glyph,
                                        floor=floor, x=tile.x, y=tile.y))
    moved = dict(zip(range(explorers), on[rooms:], strict=False))
    crowd = tuple(replace(e, floor=floor, x=moved[e.seat].x, y=moved[e.seat].y)
                  if e.seat in moved else e for e in view.explorers)
    elsewhere = next(t for t in view.tiles if t.floor != floor)
    return replace(view, explorers=tuple(replace(e, acting=False) for e in crowd),
                   monsters=tuple(monsters), mover=None, placed=elsewhere.key, walked=())


@cache
def _crowd(players: int, rooms: int, explorers: int = 2, seed: int = 1) -> MapView:
    return _crowded_floor(players, rooms, explorers, seed)


@pytest.mark.parametrize("players", PLAYERS)
def test_a_crowded_floor_sums_its_monsters_up(players: int) -> None:
    """Monsters of three kinds in ten rooms of a floor not in play: one chip sums them
    up by kind, their rooms are filled, the legend names both, and nothing covers an
    explorer's mark."""
    view = _crowd(players, 10)
    bg = check_all(f"crowded floor, {players} players", view)
    floor = view.monsters[0].floor
    assert floor != bg.focus
    (summary,) = bg.summaries
    assert inside_of(summary.chip, bg.overviews[floor])
    assert {k.letter for k in summary.kinds} == {"R", "B", "G"}
    assert sum(k.count for k in summary.kinds) == len(view.monsters)
    alone = {(m.x, m.y) for m in view.monsters} - {(e.x, e.y) for e in view.explorers
                                                   if e.floor == floor}
    assert len(summary.rooms) == len(alone) > MONSTER_CHIPS
    assert any(entry[0] == "monster_mark" for entry, _ in bg.legend)


@pytest.mark.parametrize("players", PLAYERS)
def test_a_few_monster_rooms_get_a_mark_each(players: int) -> None:
    """MONSTER_CHIPS rooms of monsters spread over a floor not in play (its explorers
    where they were): a mark per kind per room, each with its count, and no summary.
    Seed 7's houses leave each of those rooms a place for its chip (in seed 1's house of
    4 one is hemmed in, and its floor is rightly summed up instead; the AI's play grows
    the houses, so a change in it may call for another seed)."""
    view = _crowd(players, MONSTER_CHIPS, 0, seed=7)
    bg = check_all(f"{MONSTER_CHIPS} monster rooms, {players} players", view)
    assert not bg.summaries
    assert any(m.count_box for m in bg.monster_marks)  # three of a kind: "×3"
    assert not any(entry[0] == "monster_mark" for entry, _ in bg.legend)


def test_the_checks_fail_on_a_speck() -> None:
    """The checks catch what the overviews drew before: a monster square of a few
    pixels, a kind left out, a letter the legend does not give."""
    view = _crowd(4, MONSTER_CHIPS, 0)
    bg = board_geometry(view)
    mark = bg.monster_marks[0]
    x0, y0, _, _ = mark.box
    for broken in (replace(mark, box=(x0, y0, x0 + 3, y0 + 3)),
                   replace(mark, kind=replace(mark.kind, letter="Q"))):
        with pytest.raises(AssertionError):
            _check_monsters("broken", view, replace(bg, monster_marks=(
                broken, *bg.monster_marks[1:])))
    with pytest.raises(AssertionError):
        _check_monsters("left out", view, replace(bg, monster_marks=bg.monster_marks[1:]))


def _pixels(img: Image.Image, box: Box) -> list[object]:
    x0, y0, x1, y1 = box
    return [img.getpixel((x, y)) for y in range(y0, y1) for x in range(x0, x1)]


@pytest.mark.parametrize(("rooms", "explorers"), [(MONSTER_CHIPS, 0), (10, 2)])
def test_monster_marks_are_drawn_where_the_layout_says(rooms: int, explorers: int) -> None:
    """In the drawn board each mark's box holds the monsters' dark red and the letter's
    bone ink, each count is written in the text colour, and each room of
    a floor summed up is filled in the monsters' colour."""
    view = _crowd(6, rooms, explorers)
    bg = board_geometry(view)
    img = render_chat_image(view)
    assert bg.monster_marks
    for m in bg.monster_marks:
        pixels = _pixels(img, m.box)
        assert pixels.count(MONSTER) >= len(pixels) // 8, m
        assert MONSTER_EDGE in pixels, m
        if m.count_box is not None:
            assert TEXT in _pixels(img, m.count_box), m
    for summary in bg.summaries:
        for x0, y0, x1, y1 in summary.rooms:
            assert img.getpixel(((x0 + x1) // 2, (y0 + y1) // 2)) == MONSTER
