"""The text inside the Betrayal map's tiles reads once a chat shows the image READ_WIDTH
wide, and stays inside its tile without running into anything else there.

The sizes and boxes are read from the layout the renderer draws from (`map_geometry`,
`tile_parts`, `strip_layout`, `figure_slots`), for real states: small and grown houses
of AI play, a haunt AI-played to its end, a rigged haunt with a crowd of explorers and
monster stacks in one room, and full 47-room houses; at the bot's width and at 600 px;
in English and with Chinese labels (tests/zh_labels.py), which are measured in the
Chinese face they are drawn in.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

import pytest

from bot.games.betrayal import GAME
from bot.games.betrayal.pictures import MapView
from bot.games.betrayal.shown import map_view
from bot.games.betrayal.state import BetrayalState
from renderers.betrayal import READ_PX, READ_WIDTH, map_geometry, render_map
from renderers.betrayal.explorers import (
    figure_slots,
    groups_of,
    label_dx,
    label_text,
    letter_size,
    monster_radius,
    monster_text,
    ring_outer,
    strip_room_of,
)
from renderers.betrayal.geometry import MapGeometry
from renderers.betrayal.palette import glyph_mark
from renderers.betrayal.tiles import (
    link_letters,
    strip_layout,
    strip_rows_of,
    tile_look,
    tile_parts,
)
from renderers.common import Box, font, text_bbox, text_width
from tests.betrayal_haunt_helpers import explored, house, played
from tests.betrayal_haunt_rig import (  # noqa: F401 (rig_plugin: the rigged haunt's plugin)
    place,
    rig_plugin,
    rigged,
    spawn,
)
from tests.test_render_betrayal import MAX_BYTES, full_view
from tests.zh_labels import LANGUAGES, in_language, is_chinese, translated


def crowded_room() -> BetrayalState:
    """The rigged haunt with every explorer and three kinds of monster (stacks, a lone
    one, a stunned one) in one room, and more rats next door."""
    state = rigged()
    for ex in state.explorers:
        ex.tile = state.tile_of("foyer")  # type: ignore[assignment]
    for kind in ("rat", "rat", "rat", "brute", "ghost"):
        spawn(state, kind, "foyer")
    spawn(state, "brute", "foyer").stunned = True
    for _ in range(5):
        spawn(state, "rat", "grand_staircase")
    return state


# Rooms every house has, one per living explorer of `late_game` (players - 1 at most).
APART = ("entrance_hall", "foyer", "grand_staircase")


@cache
def late_game() -> BetrayalState:
    """A haunt AI-played to its end, the dead lying where they fell and the living each
    in a room of their own, so every one of them is drawn with its label (a dead one's
    is greyed). Where the AI leaves the living at the end hangs on seed 1's house and the
    rules: since a house joined to its basement only by the Collapsed Room's hole gets the
    Stairs from Basement when the haunt begins (seed 003, line 290), all four end this game
    in the Pentagram Chamber, a crowd drawn without labels, and a test of label sizes
    would measure none. So the living are stood apart; the game's end is the AI's."""
    state = GAME.copy_state(played("pay_the_piper", 1)[0])
    assert state.over and any(not ex.alive for ex in state.explorers)
    living = [seat for seat, ex in enumerate(state.explorers) if ex.alive]
    assert len(living) <= len(APART)
    for seat, room in zip(living, APART, strict=False):
        place(state, room, seat)
    return state


STATES = {
    "small house": lambda: house(tiles=8),
    "grown house": lambda: house(),
    "big house": lambda: explored(seed=2, tiles=40),
    "haunt played out": late_game,
    "crowd in a room": crowded_room,
}


def _views() -> Iterator[tuple[str, MapView]]:
    for name, make in STATES.items():
        yield name, map_view(make())
    for seed in (0, 2):  # seed 2 has a floor too wide for TILE_MIN at 1200 px
        yield f"full house {seed}", full_view(seed)


VIEWS = dict(_views())
IN = {"en": VIEWS, "zh-TW": {name: translated(view) for name, view in VIEWS.items()}}
CASES = [(name, width, language) for name in VIEWS for width in (1200, 600)
         for language in LANGUAGES]


def _legible(size: int, width: int) -> bool:
    return size * READ_WIDTH / width >= READ_PX


def _inside(box: Box, outer: Box) -> bool:
    return outer[0] <= box[0] and outer[1] <= box[1] and box[2] <= outer[2] \
        and box[3] <= outer[3]


def _apart(a: Box, b: Box) -> bool:
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


def _text_box(x: int, cy: int, text: str, size: int) -> Box:
    """The ink of `text` drawn bold at `size` from (x, cy), anchored left-middle (in the
    face it is drawn in: Chinese in the Chinese one)."""
    bx0, by0, bx1, by1 = text_bbox(font(size, True), text, "lm")
    return (x + bx0, cy + by0, x + bx1, cy + by1)


def figures_of(view: MapView, geo: MapGeometry) -> Iterator[tuple[tuple[str, int, int],
                                                                 list[tuple[Box, Box | None,
                                                                            int, int]]]]:
    """Per cell with figures: per figure, its disc box (ring included), its label's ink
    box (None: no label), the label's size and its disc letter's size (0: none)."""
    t, tf = geo.tile, geo.tile_font
    rows = strip_rows_of(view, link_letters(view), t, groups_of(view), tf)
    free = strip_room_of(view, link_letters(view), t, groups_of(view), tf)  # a crowd's
    for cell, group in groups_of(view).items():
        slots = figure_slots(group, t, rows.get(cell, 0), tf, free.get(cell))
        out = []
        for figure, (_, _, r, label_w, size) in zip(group, slots, strict=True):
            ex = figure.explorer
            if ex is not None:
                cx, cy = geo.tokens[ex.seat]
                outer = ring_outer(r)
                label = label_text(ex, label_w, size)
                text = None if label is None else label[0]
                letter = 0
                if label is not None:
                    assert text_width(label[1], label[0]) <= label_w
            else:
                m = figure.monsters[0]
                cx, cy = geo.monsters[m.id]
                radius = geo.monster_radius[m.id]
                outer = max(ring_outer(r), radius)
                text = monster_text(figure.monsters, label_w, size)
                letter = letter_size(radius, size)
                if m.stunned:
                    text = None  # the badge takes the label's start: the label is shorter
                assert radius == monster_radius(r, figure.large, glyph_mark(m.glyph, m.name),
                                                size)
            disc = (cx - outer, cy - outer, cx + outer, cy + outer)
            ink = None if text is None else _text_box(cx + label_dx(r), cy, text, size)
            if text is not None:
                assert ink is not None and ink[2] - ink[0] <= label_w + 1, (text, label_w)
            out.append((disc, ink, size, letter))
        yield cell, out


@pytest.mark.parametrize(("name", "width", "language"), CASES)
def test_text_in_the_tiles_reads_at_600_px(request: pytest.FixtureRequest,
                                           monkeypatch: pytest.MonkeyPatch, name: str,
                                           width: int, language: str) -> None:
    """Room names, strip labels (tokens, their codes, haunt letters, links, counts) and
    figure labels and letters are all READ_PX or more once shown READ_WIDTH wide."""
    in_language(request, monkeypatch, language)
    view = IN[language][name]
    geo = map_geometry(view, width)
    tf = geo.tile_font
    assert _legible(tf, width)
    parts = tile_parts(geo.tile, tf)
    assert parts.text == tf or width < READ_WIDTH
    assert _legible(parts.name_size, width) and _legible(parts.name_min, width)
    links = link_letters(view)
    sizes = []
    for tile in view.tiles:
        placed, _ = strip_layout(tile_look(tile, links), geo.tile, tf)
        sizes += [size for what, *_, size in placed if what != "symbol"]
    labelled = 0
    for _, figures in figures_of(view, geo):
        for _, ink, size, letter in figures:
            if ink is not None:
                labelled += 1
                sizes.append(size)
            if letter:
                sizes.append(letter)
    assert sizes and labelled, name  # the states show strip text and labelled figures
    assert all(_legible(size, width) for size in sizes), (name, min(sizes))


@pytest.mark.parametrize(("name", "width", "language"), CASES)
def test_labels_stay_inside_their_tile_and_apart(request: pytest.FixtureRequest,
                                                 monkeypatch: pytest.MonkeyPatch, name: str,
                                                 width: int, language: str) -> None:
    """Everything in a tile's strip lies inside its walls, apart from each other and
    from the name's band; figures and their labels lie inside the tile, above the rows
    of the strip in use, and none runs into another."""
    in_language(request, monkeypatch, language)
    view = IN[language][name]
    if language == "zh-TW":  # the labels measured below are Chinese
        assert all(is_chinese(tile.name) for tile in view.tiles)
        assert all(is_chinese(ex.player + ex.name) for ex in view.explorers)
    geo = map_geometry(view, width)
    t, tf = geo.tile, geo.tile_font
    parts = tile_parts(t, tf)
    inner = (parts.wall, parts.wall, t - parts.wall, t - parts.wall)
    links = link_letters(view)
    tops: dict[tuple[str, int, int], int] = {}
    strips: dict[tuple[str, int, int], list[Box]] = {}
    for tile in view.tiles:
        placed, _ = strip_layout(tile_look(tile, links), t, tf)
        boxes = [(x, y, x + w, y + parts.strip[3] - parts.strip[1]) for _, _, x, y, w, _ in
                 placed]
        for (what, text, *_, size), box in zip(placed, boxes, strict=True):
            assert _inside(box, inner) and box[1] >= parts.name_box[3], (tile.key, what)
            if what in ("more", "link", "haunt") or what.startswith("token:"):
                assert text_width(font(size, True), text) <= box[2] - box[0], (what, text)
        for i, a in enumerate(boxes):
            assert all(_apart(a, b) for b in boxes[i + 1:]), tile.key
        # Nothing is lost: what is not shown is counted in the "+n".
        shown = sum(what in ("link", "haunt") or what.startswith("token:")
                    for what, *_ in placed)
        more = [int(text[1:]) for what, text, *_ in placed if what == "more"]
        want = len(tile.tokens) + len(tile.haunt_tokens) + len(links.get(tile.key, ()))
        assert shown + sum(more) == want, (name, tile.key, placed)
        tops[(tile.floor, tile.x, tile.y)] = min((b[1] for b in boxes), default=t)
        strips[(tile.floor, tile.x, tile.y)] = boxes
    tiles = {(tile.floor, tile.x, tile.y): geo.tiles[tile.key] for tile in view.tiles}
    for cell, figures in figures_of(view, geo):
        if cell not in tiles:
            continue  # standing off a tile: nothing to stay inside
        x0, y0, x1, _ = tiles[cell]
        room = (x0 + parts.wall, y0 + parts.name_box[3], x1 - parts.wall,
                y0 + tops[cell])
        boxes = [box for disc, ink, _, _ in figures for box in (disc, ink) if box]
        if any(not _inside(box, room) for box in boxes):
            # A crowd stands on in the strip's free span too (`crowd_slots`): inside
            # the tile, clear of the strip's symbol, tokens and links.
            room = (*room[:3], y0 + parts.strip[3])
            for sx0, sy0, sx1, sy1 in strips[cell]:
                item = (x0 + sx0, y0 + sy0, x0 + sx1, y0 + sy1)
                assert all(_apart(item, box) for box in boxes), (name, cell, item)
        for box in boxes:
            assert _inside(box, room), (name, cell, box, room)
        for i, a in enumerate(boxes):
            assert all(_apart(a, b) for b in boxes[i + 1:]), (name, cell, boxes)


def test_the_boards_stay_small() -> None:
    """The bigger text makes big houses taller: the PNG still stays under MAX_BYTES."""
    for name in ("big house", "full house 0", "crowd in a room"):
        assert len(render_map(VIEWS[name])) < MAX_BYTES, name


def test_the_crowd_is_a_real_state() -> None:
    """The crowd's rigging holds: six explorers and stacks in one room, by the rules'
    own view (a test of the sizes above that saw no crowd would prove nothing)."""
    view = VIEWS["crowd in a room"]
    geo = map_geometry(view)
    groups = groups_of(view)
    assert max(len(g) for g in groups.values()) >= len(view.explorers) + 3
    assert any(len(f.monsters) >= 3 for g in groups.values() for f in g)
    assert GAME.to_act(crowded_room()) is not None
    assert geo.monsters
