"""The crowded room (`crowded_room`: every explorer and four monster stacks in the Foyer)
on the chat board in Chinese, which Discord shows at 550 x 350.

A Chinese monster mark is a character, as tall as the text and as wide: its disc needs a
radius of 12-13 at the chat's 18 px, a capital's 8. Four such stacks beside four
explorers did not fit the Foyer's band and strip (`crowd_slots`), so the crowd kept
`token_slots`' rows of 3 px discs, the characters reaching over each other's discs and
the acting explorer's gold ring. Such a crowd's marks are now stood in for by capitals
(`stand_ins`), which the legend names beside each kind's name, so it stands as in
English; a Chinese mark with room to show keeps its character.
"""

from __future__ import annotations

from bot.games.betrayal.pictures import MapView
from bot.games.betrayal.shown import map_view
from renderers.betrayal import board_geometry
from renderers.betrayal.board import BoardGeometry
from renderers.betrayal.explorers import letter_shows, letter_size
from renderers.betrayal.palette import glyph_mark
from renderers.betrayal.tiles import link_letters
from renderers.cjk import needs_cjk
from tests.betrayal_haunt_rig import DARRIN, rig_plugin, rigged, spawn  # noqa: F401
from tests.test_render_betrayal_crowded_room import ROOM, SHOWN, figure_boxes, overlaps
from tests.test_render_betrayal_legibility import crowded_room
from tests.zh_labels import translated


def _crowd() -> BoardGeometry:
    return board_geometry(translated(map_view(crowded_room())))


def test_the_chinese_crowd_stands_clear_of_itself_in_its_tile() -> None:
    """Before, every figure stood in `token_slots`' rows, each character over its
    neighbours' discs; now each disc, ring and count is clear of the others."""
    (x0, y0, x1, y1), boxes = figure_boxes(_crowd())
    assert len(boxes) >= 8
    for name, (a, b, c, d) in boxes:
        assert x0 <= a and c <= x1 and y0 <= b and d <= y1, name
    for i, (na, a) in enumerate(boxes):
        for nb, b in boxes[i + 1:]:
            assert not overlaps(a, b), (na, nb)


def test_each_stack_shows_its_mark_on_its_disc_at_a_legible_size() -> None:
    bg = _crowd()
    geo, view = bg.map, bg.main_view
    foyer = next(t for t in view.tiles if t.key == ROOM)
    here = [m for m in view.monsters if (m.floor, m.x, m.y) == (foyer.floor, foyer.x,
                                                                 foyer.y)]
    assert len(here) == 6
    for m in here:
        radius = geo.monster_radius[m.id]
        size = letter_size(radius, geo.tile_font)
        assert size * SHOWN >= 9, m
        assert letter_shows(radius, glyph_mark(m.glyph, m.name), size), m


def test_the_legend_names_each_stand_in_and_none_is_another_mark() -> None:
    """The map's legend says which capital is which kind; no capital is a link's letter
    on the board or an explorer's initial, nor shared by two kinds."""
    bg = _crowd()
    view = bg.main_view
    drawn = {(glyph_mark(m.glyph, m.name), m.name) for m in view.monsters}
    legend = {(letter, label) for (kind, letter, label), _ in bg.legend if kind == "monster"}
    assert drawn == legend
    letters = [letter for letter, _ in legend]
    assert len(set(letters)) == len(letters) == 3
    assert all(len(c) == 1 and c.isascii() and c.isupper() for c in letters)
    taken = {c for cs in link_letters(view).values() for c in cs} | {"S"}
    taken |= {n.strip()[:1].upper() for ex in view.explorers for n in (ex.player, ex.name)}
    assert not taken & set(letters)


def _lone() -> MapView:
    state = rigged()
    state.explorers[DARRIN].tile = state.tile_of(ROOM)  # type: ignore[assignment]
    spawn(state, "ghost", ROOM)
    return translated(map_view(state))


def test_a_chinese_mark_with_room_keeps_its_character() -> None:
    """One explorer and a monster in the Foyer: no crowd, the translator's character."""
    view = _lone()
    m = view.monsters[0]
    mark = glyph_mark(m.glyph, m.name)
    assert needs_cjk(mark)
    bg = board_geometry(view)
    assert [glyph_mark(n.glyph, n.name) for n in bg.main_view.monsters] == [mark]
    assert ("monster", mark, m.name) in {entry for entry, _ in bg.legend}
