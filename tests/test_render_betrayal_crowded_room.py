"""A crowded room at chat size: every explorer and three kinds of monster in the Foyer
(`crowded_room`), drawn on the chat board, which Discord shows at 550 x 350.

`token_slots` put its eight figures in two rows of 3 px discs under letters bigger than
their discs, and the stunned Brute's "S" badge sat on its rim, over the acting
explorer's gold ring. A crowd now stands in one row along the body and on in the
strip's free span (`crowd_slots`): explorers as discs clear of each other's rings, one
disc per monster stack with its letter on it at the tile's text size and its count
beside it, a stunned stack grey with no badge. Measured from the layout the board
draws from (`board_geometry`), and on the drawn pixels for the gold ring.
"""

from __future__ import annotations

import math

import pytest
from PIL import Image

from bot.games.betrayal.pictures import MapView
from bot.games.betrayal.shown import map_view
from renderers.betrayal import GOLD, board_geometry, map_geometry, render_chat_image, render_image
from renderers.betrayal.board import BoardGeometry
from renderers.betrayal.explorers import (
    figure_slots,
    groups_of,
    letter_shows,
    letter_size,
    ring_outer,
    strip_room_of,
)
from renderers.betrayal.palette import glyph_mark
from renderers.betrayal.tiles import link_letters, strip_layout, strip_rows_of, tile_look
from renderers.common import Box, font, text_width
from tests.betrayal_haunt_rig import rig_plugin  # noqa: F401 (the rigged haunt's plugin)
from tests.test_render_betrayal_legibility import crowded_room
from tests.zh_labels import translated

ROOM = "foyer"
SHOWN = 0.5  # the chat shows the 1100 px board at 550


def _view(language: str) -> MapView:
    view = map_view(crowded_room())
    return view if language == "en" else translated(view)


def figure_boxes(bg: BoardGeometry) -> tuple[Box, list[tuple[str, Box]]]:
    """The Foyer's box and each of its figures' boxes (an explorer's ring's reach, a
    monster's disc, a stack's count), in board pixels."""
    geo, view = bg.map, bg.main_view
    t, tf = geo.tile, geo.tile_font
    links = link_letters(view)
    groups = groups_of(view)
    rows = strip_rows_of(view, links, t, groups, tf)
    free = strip_room_of(view, links, t, groups, tf)
    tile = next(tl for tl in view.tiles if tl.key == ROOM)
    cell = (tile.floor, tile.x, tile.y)
    out: list[tuple[str, Box]] = []
    for figure, (_, _, r, label_w, size) in zip(
            groups[cell], figure_slots(groups[cell], t, rows.get(cell, 0), tf,
                                       free.get(cell)), strict=True):
        if figure.explorer is not None:
            cx, cy = geo.tokens[figure.explorer.seat]
            k = ring_outer(r)
            out.append((f"explorer {figure.explorer.seat}", (cx - k, cy - k, cx + k, cy + k)))
            continue
        m = figure.monsters[0]
        cx, cy = geo.monsters[m.id]
        k = geo.monster_radius[m.id]
        out.append((f"{m.name} disc", (cx - k, cy - k, cx + k, cy + k)))
        if len(figure.monsters) > 1 and label_w:
            x = cx + ring_outer(r) + max(2, round(r * 0.3))
            w = text_width(font(size, True), f"×{len(figure.monsters)}")
            out.append((f"{m.name} count", (x, cy - size // 2, x + w, cy + size // 2)))
    return geo.tiles[ROOM], out


def overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_the_crowd_stands_in_its_tile_clear_of_each_other_and_the_strip() -> None:
    bg = board_geometry(_view("en"))
    (x0, y0, x1, y1), boxes = figure_boxes(bg)
    for name, (a, b, c, d) in boxes:
        assert x0 <= a and c <= x1 and y0 <= b and d <= y1, name
    for i, (na, a) in enumerate(boxes):
        for nb, b in boxes[i + 1:]:
            assert not overlaps(a, b), (na, nb)
    # Nor on the strip's link letter and tokens.
    view = bg.main_view
    tile = next(tl for tl in view.tiles if tl.key == ROOM)
    placed, _ = strip_layout(tile_look(tile, link_letters(view)), bg.map.tile,
                             bg.map.tile_font)
    for what, _, sx, sy, w, _ in placed:
        item = (x0 + sx, y0 + sy, x0 + sx + w, y0 + sy + w)
        for name, box in boxes:
            assert not overlaps(item, box), (what, name)


def test_monster_letters_lie_on_their_discs_at_a_legible_size() -> None:
    bg = board_geometry(_view("en"))
    geo, view = bg.map, bg.main_view
    here = [m for m in view.monsters if (m.floor, m.x, m.y) == (
        next(t for t in view.tiles if t.key == ROOM).floor, -1, 0)]
    assert here
    for m in here:
        radius = geo.monster_radius[m.id]
        size = letter_size(radius, geo.tile_font)
        assert size * SHOWN >= 9, m  # READ_SHOWN_PX
        assert letter_shows(radius, glyph_mark(m.glyph, m.name), size), m


def test_the_explorers_discs_grew_and_every_one_is_drawn() -> None:
    """Before: 3 px discs (1.5 px as shown); each explorer stands, none hidden."""
    bg = board_geometry(_view("en"))
    seats = [ex.seat for ex in bg.main_view.explorers]
    assert len(seats) == 4
    assert min(bg.map.token_radius[s] for s in seats) >= 4


def _gold_ring_whole(img: Image.Image, centre: tuple[int, int], ring: int) -> bool:
    """Whether every way round the token, some pixel at the ring's reach (+-1 px: the
    ring is 2 px wide and drawn round the pixel grid) is gold."""
    cx, cy = centre
    for i in range(72):
        a = math.tau * i / 72
        near = [img.getpixel((round(cx - 0.5 + (ring + d) * math.cos(a)),
                              round(cy - 0.5 + (ring + d) * math.sin(a)))) for d in (-1, 0, 1)]
        if not any(sum(abs(int(u) - int(v)) for u, v in zip(p, GOLD, strict=True)) < 60
                   for p in near):
            return False
    return True


# In Chinese the monsters' marks are characters, which need discs of radius 12-13 at the
# chat's 18 px: four such stacks beside four explorers do not fit the Foyer's band and
# strip, so the chat board draws capitals in their place, which the legend names
# (`stand_ins`; tests/test_render_betrayal_crowded_room_zh.py), and the crowd stands in
# `crowd_slots` as in English.


@pytest.mark.parametrize(("board", "language"), [
    ("chat", "en"), ("chat", "zh-TW"),
    ("map 600", "en"), ("map 600", "zh-TW")])
def test_no_stunned_badge_covers_the_acting_explorers_ring(board: str,
                                                         language: str) -> None:
    """The stunned Brute's "S" badge stood on its disc's rim, over the acting explorer's
    gold ring (at 600 px too): a badge goes beside its disc or not at all."""
    view = _view(language)
    if board == "chat":
        geo = board_geometry(view).map
        img = render_chat_image(view)
    else:
        geo = map_geometry(view, 600)
        img = render_image(view, width=600)
    acting = next(ex for ex in view.explorers if ex.acting)
    assert _gold_ring_whole(img, geo.tokens[acting.seat], geo.ring_radius[acting.seat])
