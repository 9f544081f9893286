"""The chat board of Betrayal and Neibolt (renderers.betrayal.board) as a player sees it
inline: one fixed canvas, every text at least READ_SHOWN_PX once shown inside Discord's
550 x 350 box, no player's token covered, every marker in the legend, the floors in
fixed slots and no panel for a floor nothing was explored on.

Every check reads the geometry the renderer draws from (`board_geometry`, and the
tile and figure layouts it hands on), for real states: houses of 3, 4 and 6 players
exploring, every haunt and Neibolt scenario just begun, a crowded room, 47-room houses,
and every state of an AI game from the first turn into its haunt.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from functools import cache

import pytest
from PIL import Image

from bot.games.base import PlayerInfo
from bot.games.betrayal import GAME, haunt_roll
from bot.games.betrayal.pictures import FLOORS, MapView
from bot.games.betrayal.shown import map_view
from bot.games.betrayal.state import BetrayalState
from renderers import render_public, render_whole
from renderers.betrayal import (
    BOARD_H,
    BOARD_W,
    READ_SHOWN_PX,
    SHOWN_SCALE,
    SMALLEST_FONT,
    BoardGeometry,
    board_geometry,
    map_geometry,
    render_chat,
)
from renderers.betrayal.board import focus_floor
from renderers.betrayal.explorers import ring_outer
from renderers.betrayal.palette import px
from renderers.betrayal.tiles import link_letters, strip_layout, tile_look, tile_parts
from renderers.common import Box, fit_text
from tests.betrayal_haunt_helpers import explored, house, started
from tests.betrayal_haunt_rig import (  # noqa: F401 (rig_plugin: the rigged haunt's plugin)
    rig_plugin,
    rigged,
    spawn,
)
from tests.test_render_betrayal import full_view
from tests.test_render_betrayal_legibility import crowded_room, figures_of, late_game
from tests.zh_labels import in_language, is_chinese, translated

SHOWN_BOX = (550, 350)


@cache
def _started_view(key: str, players: int) -> MapView:
    return map_view(started(key, players=players)[0])


def _states() -> dict[str, object]:
    out: dict[str, object] = {}
    for players in (3, 4, 6):
        out[f"exploring, {players} players"] = lambda p=players: map_view(house(players=p))
    for key in sorted(haunt_roll.haunts()):
        out[f"haunt {key}"] = lambda k=key: _started_view(k, 4)
        for players in (3, 6):
            out[f"haunt {key}, {players} players"] = lambda k=key, p=players: _started_view(
                k, p)
    out["haunt pay_the_piper played out"] = lambda: map_view(late_game())
    out["crowd in a room"] = lambda: map_view(crowded_room())
    out["big house"] = lambda: map_view(explored(seed=2, tiles=40))
    out["47 rooms, seed 0"] = lambda: full_view(0)
    out["47 rooms, seed 2"] = lambda: full_view(2)
    return out


STATES = _states()


@cache
def view_of(name: str) -> MapView:
    return STATES[name]()  # type: ignore[operator, no-any-return]


def _shown(px: float) -> float:
    return px * SHOWN_SCALE


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _inside(box: Box, outer: Box) -> bool:
    return outer[0] <= box[0] and outer[1] <= box[1] and box[2] <= outer[2] \
        and box[3] <= outer[3]


def _text_sizes(view: MapView, bg: BoardGeometry) -> list[tuple[str, int]]:
    """Every text the board draws, by what it is and its size at full size."""
    geo = bg.map
    sizes = list(bg.texts)
    parts = tile_parts(geo.tile, geo.tile_font)
    sizes += [("room name", parts.name_size), ("room name, shrunk", parts.name_min)]
    links = link_letters(view)
    for tile in bg.main_view.tiles:
        placed, _ = strip_layout(tile_look(tile, links), geo.tile, geo.tile_font)
        sizes += [(f"strip {what}", size) for what, *_, size in placed if what != "symbol"]
    for _, figures in figures_of(bg.main_view, geo):
        for _, ink, size, letter in figures:
            if ink is not None:
                sizes.append(("figure label", size))
            if letter:
                sizes.append(("monster letter", letter))
    return sizes


def _marker_boxes(view: MapView, bg: BoardGeometry) -> list[tuple[str, Box]]:
    """Every marker the large panel draws in its tiles (card symbol, pile, tokens,
    links, haunt tokens, "+n"), in image pixels."""
    geo = bg.map
    links = link_letters(view)
    h = tile_parts(geo.tile, geo.tile_font).strip
    out = []
    for tile in bg.main_view.tiles:
        x0, y0, _, _ = geo.tiles[tile.key]
        placed, _ = strip_layout(tile_look(tile, links), geo.tile, geo.tile_font)
        for what, _, x, y, w, _ in placed:
            out.append((what, (x0 + x, y0 + y, x0 + x + w, y0 + y + h[3] - h[1])))
    return out


@pytest.mark.parametrize("name", list(STATES))
def test_one_canvas_that_fits_the_chat_box(name: str) -> None:
    """The PNG is BOARD_W x BOARD_H whatever the house, the 550:350 ratio, so inline it
    shows at the whole box."""
    img = Image.open(io.BytesIO(render_chat(view_of(name))))
    assert img.size == (BOARD_W, BOARD_H)
    shown = img.copy()
    shown.thumbnail(SHOWN_BOX)
    assert shown.size == SHOWN_BOX


@pytest.mark.parametrize("name", list(STATES))
def test_every_text_reads_as_displayed(name: str) -> None:
    """Room names, strip labels and codes, figure labels and letters, the legend, the
    panel and overview titles: READ_SHOWN_PX or more as shown inside 550 x 350."""
    view = view_of(name)
    bg = board_geometry(view)
    sizes = _text_sizes(view, bg)
    assert any(what == "figure label" for what, _ in sizes), name  # explorers are shown
    small = [(what, px, _shown(px)) for what, px in sizes if _shown(px) < READ_SHOWN_PX]
    assert not small, (name, small)


@pytest.mark.parametrize("name", list(STATES))
def test_nothing_covers_a_token(name: str) -> None:
    """Every explorer's token (its ring included) is clear of every other figure and
    label, every marker of the tiles, the legend and the overviews; every explorer on
    the large window has a token; every overview dot is apart and in its panel."""
    view = view_of(name)
    check_tokens(name, view, board_geometry(view))


def check_tokens(name: str, view: MapView, bg: BoardGeometry) -> None:
    geo = bg.map
    others: list[tuple[str, Box]] = list(_marker_boxes(view, bg))
    tokens: list[tuple[int, Box]] = []
    for _, figures in figures_of(bg.main_view, geo):
        for disc, ink, _, _ in figures:
            others.append(("figure", disc))
            if ink is not None:
                others.append(("label", ink))
    for seat, (cx, cy) in geo.tokens.items():
        r = ring_outer(geo.token_radius[seat])
        tokens.append((seat, (cx - r, cy - r, cx + r, cy + r)))
    others += [("legend", box) for _, box in bg.legend]
    others += [(f"overview {f}", box) for f, box in bg.overviews.items()]
    assert {ex.seat for ex in bg.main_view.explorers} == set(geo.tokens)
    for seat, box in tokens:
        assert _inside(box, bg.main), (name, seat)
        hits = [what for what, other in others if _overlap(box, other) and other != box]
        # Its own disc is in `others` once: that one is the token itself.
        assert hits.count("figure") <= 1 and len(hits) == hits.count("figure"), (name, seat,
                                                                                  hits)
    dots = [*bg.dots.items(), *((-1, m.box) for m in bg.monster_marks)]
    by_seat = {ex.seat: ex for ex in view.explorers}
    assert set(bg.dots) == {ex.seat for ex in view.explorers if ex.floor in FLOORS}
    kinds = {(m.floor, m.x, m.y, m.name) for m in view.monsters if m.floor in FLOORS}
    if not bg.summaries:  # a mark per kind per room (summed up: see the overview tests)
        assert len(bg.monster_marks) == len(kinds), name
    for i, (seat, box) in enumerate(dots):
        if seat >= 0:
            assert _inside(box, bg.overviews[by_seat[seat].floor]), (name, seat)
        else:
            assert any(_inside(box, o) for o in bg.overviews.values()), name
        assert box[2] - box[0] >= 2
        assert not any(_overlap(box, b) for _, b in dots[i + 1:]), (name, seat)


@pytest.mark.parametrize("name", list(STATES))
def test_every_marker_is_in_the_legend(name: str) -> None:
    """Each marker the large panel draws (card symbols, the item pile's count, token
    codes, link letters, "+n", haunt tokens, monsters, the barrier, this turn's blue and
    orange outlines) has its legend entry, and every entry is written in full, apart,
    under the overviews."""
    view = view_of(name)
    check_legend(name, view, board_geometry(view))


def check_legend(name: str, view: MapView, bg: BoardGeometry) -> None:
    kinds = {entry[0] for entry, _ in bg.legend}
    letters = {(entry[0], entry[1]) for entry, _ in bg.legend}
    links = link_letters(view)
    for tile in bg.main_view.tiles:
        placed, _ = strip_layout(tile_look(tile, links), bg.map.tile, bg.map.tile_font)
        for what, text, *_ in placed:
            if what == "symbol":
                assert text in kinds, (name, tile.key, text)
            elif what in ("pile", "link", "more"):
                assert what in kinds, (name, tile.key, what)
            elif what.startswith("token:") and text.isalpha() and len(text) == 2:
                assert (what, text) in letters, (name, tile.key, text)
        for glyph, mark in tile.haunt_tokens:
            assert "haunt" in kinds, (name, glyph, mark)
        if tile.barrier:
            assert "barrier" in kinds
    keys = {t.key for t in bg.main_view.tiles}
    assert ("walked" in kinds) == any(k in keys for k in view.walked), name
    assert ("placed" in kinds) == (view.placed in keys), name
    if bg.main_view.monsters:
        assert "monster" in kinds
    assert ("monster_mark" in kinds) == any(s.rooms for s in bg.summaries), name
    for mark in bg.monster_marks:  # the overviews' monsters, by the letter they show
        assert ("monster", mark.kind.letter) in letters, (name, mark.kind)
    side = (bg.main[2], bg.main[1], BOARD_W, bg.main[3])
    boxes = [box for _, box in bg.legend]
    for i, box in enumerate(boxes):
        assert _inside(box, side), (name, box)
        assert not any(_overlap(box, b) for b in boxes[i + 1:])
        assert all(not _overlap(box, o) for o in bg.overviews.values())


@pytest.mark.parametrize("name", list(STATES))
def test_floors_keep_their_slots_and_empty_floors_draw_nothing(name: str) -> None:
    """The slots are the same for every house; a floor draws its overview in its own
    slot exactly when something is on it; the large panel is the floor in play."""
    view = view_of(name)
    bg = board_geometry(view)
    assert bg.slots == board_geometry(view_of("exploring, 4 players")).slots
    occupied = {t.floor for t in view.tiles} | {e.floor for e in view.explorers}
    assert set(bg.overviews) == occupied & set(FLOORS), name
    for floor, box in bg.overviews.items():
        assert box == bg.slots[floor]
    assert bg.focus == focus_floor(view)[0]
    assert bg.frame is not None and _inside(bg.frame, bg.overviews[bg.focus])


def test_separate_nightmares_shows_one_floor() -> None:
    """The house torn onto the ground floor: one overview, no empty floor panels."""
    bg = board_geometry(view_of("haunt separate_nightmares"))
    assert set(bg.overviews) == {"ground"}


def test_the_whole_house_of_separate_nightmares_has_no_empty_floor_panel() -> None:
    """/game map's whole house draws a panel only for a floor with something on it, as
    the chat board does: the torn house is one ground-floor panel, its tiles inside."""
    view = view_of("haunt separate_nightmares")
    geo = map_geometry(view)
    assert set(geo.panels) == set(geo.grids) == {"ground"}
    px0, py0, px1, py1 = geo.panels["ground"]
    assert all(px0 <= x0 < x1 <= px1 and py0 <= y0 < y1 <= py1
               for x0, y0, x1, y1 in geo.tiles.values())
    whole = Image.open(io.BytesIO(render_whole("betrayal", started(
        "separate_nightmares", players=4)[0])))
    assert whole.size == (geo.width, geo.height)
    assert set(map_geometry(view_of("exploring, 4 players")).panels) == set(FLOORS)


def test_the_large_floor_follows_the_mover() -> None:
    """The mover's floor is drawn large, the window round the mover, and the whole
    house stays at full size for /game map."""
    state = house(players=4)
    view = map_view(state)
    for ex in view.explorers:
        moved = MapView(**{**view.__dict__, "mover": ex.seat})
        bg = board_geometry(moved)
        assert bg.focus == ex.floor
        x0, y0, x1, y1 = bg.window
        assert x0 <= ex.x <= x1 and y0 <= ex.y <= y1
        assert ex.seat in bg.map.tokens
    whole = Image.open(io.BytesIO(render_whole("betrayal", state)))
    assert whole.width == 1200 and whole.height > BOARD_H
    assert Image.open(io.BytesIO(render_public("betrayal", state))).size == (BOARD_W, BOARD_H)


def ai_played_states(players: int, seed: int, actions: int) -> Iterator[BetrayalState]:
    state, _ = GAME.setup([PlayerInfo(f"P{i}") for i in range(players)], seed,
                          {"today": "06-01"})
    for _ in range(actions):
        yield state
        if GAME.is_over(state):
            return
        seat = GAME.to_act(state)
        if seat is None:
            return
        state, _ = GAME.apply(state, seat, GAME.ai_action(state, seat))


def test_size_and_checks_hold_over_an_ai_game() -> None:
    """Every state of an AI game, exploring into its haunt: the canvas never changes
    size, text reads as displayed, tokens stay clear and every marker is in the legend
    (every 8th state rendered)."""
    seen_haunt = False
    for i, state in enumerate(ai_played_states(5, 3, 400)):
        view = map_view(state)
        bg = board_geometry(view)
        assert (bg.width, bg.height) == (BOARD_W, BOARD_H)
        small = [s for s in _text_sizes(view, bg) if _shown(s[1]) < READ_SHOWN_PX]
        assert not small, (i, small)
        check_tokens(f"state {i}", view, bg)
        check_legend(f"state {i}", view, bg)
        seen_haunt = seen_haunt or state.haunt is not None
        if i % 8 == 0:
            assert Image.open(io.BytesIO(render_chat(view))).size == (BOARD_W, BOARD_H)
    assert seen_haunt and i > 100  # the game got into its haunt



@pytest.mark.parametrize("name", list(STATES))
def test_the_whole_house_covers_no_token_either(name: str) -> None:
    """At full size (`/game map`, "Whole house") too, no tile's marker (card symbol,
    pile, tokens, links, "+n") lies over an explorer's token or its ring."""
    view = view_of(name)
    geo = map_geometry(view)
    links = link_letters(view)
    strip = tile_parts(geo.tile, geo.tile_font).strip
    marks = []
    for tile in view.tiles:
        x0, y0, _, _ = geo.tiles[tile.key]
        for what, _, x, y, w, _ in strip_layout(tile_look(tile, links), geo.tile,
                                                 geo.tile_font)[0]:
            marks.append((what, (x0 + x, y0 + y, x0 + x + w, y0 + y + strip[3] - strip[1])))
    assert geo.tokens
    for seat, (cx, cy) in geo.tokens.items():
        r = ring_outer(geo.token_radius[seat])
        box = (cx - r, cy - r, cx + r, cy + r)
        assert not [what for what, mark in marks if _overlap(box, mark)], (name, seat)


# The same checks with Chinese labels (tests/zh_labels.py: made-up Chinese no shorter than
# the English), over a few boards that between them hold every kind of piece: the most
# explorers, a haunt's monsters and tokens, a crowded room, the biggest houses.
ZH_STATES = ("exploring, 6 players", "haunt the_mummy_walks, 6 players", "crowd in a room",
             "haunt pay_the_piper played out", "47 rooms, seed 0", "47 rooms, seed 2")


@pytest.mark.parametrize("name", ZH_STATES)
def test_in_chinese_every_text_reads_and_nothing_covers_a_token(
        request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    in_language(request, monkeypatch, "zh-TW")
    view = translated(view_of(name))
    assert all(is_chinese(tile.name) for tile in view.tiles)
    assert all(is_chinese(e.player + e.name) for e in view.explorers)
    img = Image.open(io.BytesIO(render_chat(view)))
    assert img.size == (BOARD_W, BOARD_H)
    bg = board_geometry(view)
    small = [(what, px) for what, px in _text_sizes(view, bg) if _shown(px) < READ_SHOWN_PX]
    assert not small, (name, small)
    check_tokens(name, view, bg)


def test_a_legend_name_a_column_would_cut_gets_a_row_of_its_own() -> None:
    """At chat size the legend's two columns cut "clown-spider Pennywise" to
    "clown-spide…": an entry a column would cut takes the legend's whole width, so the
    name reads whole; the other entries keep two a row."""
    state = started("lets_kill_this_clown", 4, 1)[0]
    bg = board_geometry(map_view(state))
    side = max(b[2] for _, b in bg.legend) - min(b[0] for _, b in bg.legend)
    entry, box = next((e, b) for e, b in bg.legend if e[0] == "monster")
    assert "clown-spider" in entry[2]
    assert box[2] - box[0] == side
    size = px(SMALLEST_FONT, bg.map.scale)
    assert fit_text(entry[2], box[2] - box[0] - px(40, bg.map.scale), size,
                    min_size=size)[1] == entry[2]  # after its mark: whole
    assert any(b[2] - b[0] < side for _, b in bg.legend)  # the others: two a row
