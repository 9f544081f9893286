"""A monster on the Betrayal boards is a dark red disc with its letter on it; the letter
must lie inside the disc, or the disc vanishes under it and the monster reads as a
stray cream letter beside an explorer (seen at 550 px: a Pay the Piper rat sharing the
Pentagram Chamber with an explorer was a 12 px disc under an 18 px "R").

A slot shrinks its disc to make room for a label (`token_slots`), yet a monster's
letter is never drawn below the label size (it must read at chat size), so the disc is
measured against the letter drawn on it: for rooms holding a few explorers and one to
three monster stacks, on the chat board and on the whole map at 1200 and 600 px. (The
slots of a room with monsters shrink no further than their letters allow, else they
stand unlabelled: `figure_slots`. Seed 1's house at 1200 px, its tiles 128 px once the
Stairs from Basement join its basement, had a Mummy's 20 px "M" on a disc of radius 9.)"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from functools import cache

import pytest

from bot.games.betrayal.pictures import ExplorerView, MapView, MonsterView
from bot.games.betrayal.shown import map_view
from renderers.betrayal import board_geometry, map_geometry
from renderers.betrayal.explorers import figure_slots, groups_of, letter_size
from renderers.betrayal.geometry import MapGeometry
from renderers.betrayal.palette import glyph_mark
from renderers.betrayal.tiles import link_letters, strip_rows_of
from renderers.common import font, text_bbox
from tests.betrayal_haunt_rig import (  # noqa: F401 (rig_plugin: the rigged haunt's plugin)
    rig_plugin,
    rigged,
)

# The widest letters the haunts' monsters are drawn with (data/betrayal/haunts/*.yaml).
KINDS = (("Rat", "R"), ("Mummy", "M"), ("Crawler", "#"))
ROOMS = ("foyer", "grand_staircase", "upper_landing", "basement_landing")


@cache
def _base() -> MapView:
    return map_view(rigged())


def _crowd(room: str, explorers: int, kinds: int) -> MapView:
    """The rigged house with `explorers` explorers and a monster of each of `kinds`
    kinds in `room`, the other explorers on the Upper Landing (or the Foyer)."""
    view = _base()
    tile = next(t for t in view.tiles if t.key == room)
    away = next(t for t in view.tiles
                if t.key == ("foyer" if room == "upper_landing" else "upper_landing"))
    moved: list[ExplorerView] = []
    for ex in view.explorers:
        to = tile if ex.seat < explorers else away
        moved.append(replace(ex, floor=to.floor, x=to.x, y=to.y))
    monsters = tuple(MonsterView(id=i + 1, name=name, glyph=glyph, floor=tile.floor,
                                 x=tile.x, y=tile.y)
                     for i, (name, glyph) in enumerate(KINDS[:kinds]))
    return replace(view, explorers=tuple(moved), monsters=monsters)


def _letters_outside(view: MapView, geo: MapGeometry) -> Iterator[str]:
    """Each monster whose letter's ink reaches past its disc, or leaves no red above
    and below it (its top and bottom on the disc's outline or beyond)."""
    t, tf = geo.tile, geo.tile_font
    rows = strip_rows_of(view, link_letters(view), t, groups_of(view), tf)
    for cell, group in groups_of(view).items():
        slots = figure_slots(group, t, rows.get(cell, 0), tf)
        for figure, (_, _, _, _, size) in zip(group, slots, strict=True):
            if not figure.monsters:
                continue
            m = figure.monsters[0]
            radius = geo.monster_radius[m.id]
            edge = max(1, round(radius / 7))  # the disc's outline (`_draw_monster`)
            mark = glyph_mark(m.glyph, m.name)
            x0, y0, x1, y1 = text_bbox(font(letter_size(radius, size), True), mark, "mm")
            if max(-x0, x1, -y0, y1) > radius or max(-y0, y1) > radius - edge:
                yield (f"{m.name} {mark!r}: disc radius {radius}, letter "
                       f"{x1 - x0}x{y1 - y0} px at {letter_size(radius, size)} px")


# Up to five figures in a room. A bigger crowd in a small tile (seven figures under a
# two-line name) stands in slots too small for any letter at a legible size.
CASES = [(room, explorers, kinds) for room in ROOMS
         for explorers, kinds in ((1, 1), (1, 3), (2, 1), (2, 3), (4, 1))]


@pytest.mark.parametrize(("room", "explorers", "kinds"), CASES)
def test_a_monster_letter_lies_inside_its_disc(room: str, explorers: int,
                                               kinds: int) -> None:
    view = _crowd(room, explorers, kinds)
    bg = board_geometry(view)
    bad = [f"chat board: {b}" for b in _letters_outside(bg.main_view, bg.map)]
    for width in (1200,):
        bad += [f"map at {width}: {b}" for b in
                _letters_outside(view, map_geometry(view, width))]
    assert not bad, bad
