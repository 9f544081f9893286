"""An overview's chip searches made once per layout (renderers.betrayal.overview's
`_place_chip` with `searched`): they only skip work, so every layout must be the one
searched afresh (issue 23: a layout whose chips found no place near tried half its
chips twice over)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from bot.games.betrayal.pictures import MapView
from renderers.betrayal import overview
from renderers.betrayal.board import board_geometry
from tests.test_render_betrayal_haunt import haunt_view

TURNS = 6


def turns(seed: int) -> Iterator[MapView]:
    """A haunt played a few turns: a monster moves, another is stunned or recovers,
    and the turn passes on (a section of the board changes, the rest stays)."""
    rng = random.Random(seed)
    view = haunt_view(seed)
    tiles = view.tiles
    for turn in range(TURNS):
        monsters = list(view.monsters)
        i = rng.randrange(len(monsters))
        to = rng.choice(tiles)
        monsters[i] = replace(monsters[i], floor=to.floor, x=to.x, y=to.y)
        j = rng.randrange(len(monsters))
        monsters[j] = replace(monsters[j], stunned=not monsters[j].stunned)
        seat = turn % len(view.explorers)
        view = replace(view, monsters=tuple(monsters), header=f"Haunt round {turn + 1}",
                       explorers=tuple(replace(e, acting=e.seat == seat)
                                       for e in view.explorers))
        yield view


@pytest.mark.parametrize("seed", [3, 7, 11])
def test_an_overview_laid_out_with_its_searches_kept_is_laid_out_the_same(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A chip searched for again in a layout (a retry, the floor summed up, close by
    then far) is found where searching afresh finds it: the same marks, every floor."""
    views = list(turns(seed))
    overview.PLACED.cache_clear()
    kept = [board_geometry(view) for view in views]
    search = overview._place_chip

    def afresh(*args: Any) -> Any:
        return search(*args[:8])  # (no `searched`: every search made anew)

    monkeypatch.setattr(overview, "_place_chip", afresh)
    overview.PLACED.cache_clear()
    for view, bg in zip(views, kept, strict=True):
        again = board_geometry(view)
        assert (again.dots, again.pins, again.summaries, again.monster_marks) == (
            bg.dots, bg.pins, bg.summaries, bg.monster_marks)
    overview.PLACED.cache_clear()
