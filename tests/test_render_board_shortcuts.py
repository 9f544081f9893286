"""The chat board's render made cheaper without a pixel changed (issue 23): what each
shortcut must give is what the longer way gave.

- a view's link letters are worked out once per render (`board.compose_board` and
  `map.compose` hand them to all that draws them): each view's own letters, the same
  each time, and a caller changing what it was given changes nothing for the next;
- a leader is checked against the blocked boxes before the other ways are worked out
  (`overview.clear_leader`): still the plainest clear way of `leaders`;
- a floor summary's place is searched with its free test written out
  (`overview.place_summary`): the place `free_test` finds;
- an overview's title is worked out once (`BoardGeometry.titles`): `overview_title_of`'s;
- a text piece is kept under what `Canvas.text` is given: a board drawn from warm
  caches is the board drawn from cold ones, in English and in Chinese.
"""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.betrayal.pictures import MapView
from bot.locales import speaking
from renderers.betrayal import board_geometry, render_chat, render_map
from renderers.betrayal import tiles as tile_module
from renderers.betrayal.board import overview_title_of
from renderers.betrayal.overview import (
    clear_leader,
    covered,
    free_test,
    leader,
    leaders,
    overlap,
    place_summary,
)
from renderers.betrayal.tiles import link_letters
from renderers.canvas import clear_caches
from renderers.common import Box
from tests.test_render_betrayal import full_view


def _linked_view() -> MapView:
    view = full_view()
    assert view.links  # the letters are worked out at all
    return view


def test_link_letters_are_the_same_each_time_and_each_views_own() -> None:
    view = _linked_view()
    first = link_letters(view)
    assert first and link_letters(view) == first
    kept = dict(first)
    first.clear()  # a caller's copy: the next caller gets the letters whole
    assert link_letters(view) == kept
    fewer = replace(view, links=view.links[:1], link_order=view.link_order[:1])
    assert link_letters(fewer) != link_letters(view)


def test_a_render_works_the_link_letters_out_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The chat board asks for them in its layout, its legend, its large panel and the
    strips its figures stand on; the whole house in its layout, its tiles and its
    figures: one pool each, handed down from where the render starts (the large panel's
    window too: its links are the house's)."""
    view = replace(_linked_view(), header="a view of its own")
    render_chat(view)  # each width's palette first lays out a sample house of its own
    render_map(view)
    pools: list[MapView] = []
    pool = tile_module.link_pool

    def counted(seen: MapView) -> tuple[str, ...]:
        pools.append(seen)
        return pool(seen)

    monkeypatch.setattr(tile_module, "link_pool", counted)
    render_chat(view)
    assert [seen is view for seen in pools] == [True]
    pools.clear()
    render_map(view)
    assert [seen is view for seen in pools] == [True]


_coord = st.integers(0, 120)


@st.composite
def _boxes(draw: st.DrawFn, low: int = 1, high: int = 30) -> Box:
    x0, y0 = draw(_coord), draw(_coord)
    return (x0, y0, x0 + draw(st.integers(low, high)), y0 + draw(st.integers(low, high)))


@settings(max_examples=300, deadline=None)
@given(_boxes(4, 20), _boxes(8, 30), st.integers(1, 3), st.lists(_boxes(), max_size=12))
def test_clear_leader_is_the_plainest_clear_way(room: Box, chip: Box, width: int,
                                                blocked: list[Box]) -> None:
    """As it was: the first of `leaders` crossing no blocked box, or None."""
    want = next((way for way in leaders(room, chip, width)
                 if not any(overlap(stroke, b) for stroke in way for b in blocked)), None)
    assert clear_leader(room, chip, width, blocked) == want
    assert clear_leader(room, chip, width, blocked, leader(room, chip, width)) == want


def _summary_place_as_before(w: int, h: int, area: Box, blocked: list[Box],
                             rooms: list[Box], step: int) -> Box | None:
    """`place_summary` as it was written, through `free_test`."""
    xs = {*range(area[0], area[2] - w + 1, step), area[2] - w}
    ys = {*range(area[1], area[3] - h + 1, step), area[3] - h}
    best: tuple[float, Box] | None = None
    free = free_test(w, h, blocked)
    for x in xs:
        for y in ys:
            if not free(x, y):
                continue
            chip = (x, y, x + w, y + h)
            cost = math.hypot(area[2] - chip[2], chip[1] - area[1])
            if best is not None and cost >= best[0]:
                continue
            cost += covered(chip, rooms)
            if best is None or cost < best[0]:
                best = (cost, chip)
    return None if best is None else best[1]


@settings(max_examples=150, deadline=None)
@given(st.integers(8, 40), st.integers(8, 30), st.lists(_boxes(), max_size=10),
       st.lists(_boxes(4, 12), max_size=10))
def test_a_summary_goes_where_the_free_test_puts_it(w: int, h: int, blocked: list[Box],
                                                    rooms: list[Box]) -> None:
    area = (0, 0, 150, 150)
    step = max(1, round(6 * 1100 / 1200))
    assert place_summary(w, h, area, blocked, rooms, 1100 / 1200) == \
        _summary_place_as_before(w, h, area, blocked, rooms, step)


def test_each_overview_title_is_overview_title_of() -> None:
    view = _linked_view()
    bg = board_geometry(view)
    assert bg.overviews and set(bg.titles) == set(bg.overviews)
    for floor, box in bg.overviews.items():
        assert bg.titles[floor] == overview_title_of(view, floor, box, bg.map.scale)


def test_a_warm_board_is_the_cold_board_in_either_language() -> None:
    view = _linked_view()
    moved = replace(view, header="Turn 2 · someone else to play")
    for language in ("en", "zh-TW"):
        with speaking(language):
            clear_caches()
            cold = [render_chat(view), render_chat(moved)]
            warm = [render_chat(view), render_chat(moved)]
            clear_caches()
            assert [render_chat(view), render_chat(moved)] == cold == warm
