"""The house's door map is derived once per arrangement of tiles and kept in a bounded
cache (house.plan). These tests hold it to what a fresh walk of the tiles says: on
random play, after every kind of change to the tiles, with other content installed,
and over games played with and without the cache, in every haunt too.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from bot.core.events import Event
from bot.games.base import PlayerInfo
from bot.games.betrayal import GAME, content, haunt_roll, house
from bot.games.betrayal.house import DIRS, Cell, Layout, cell_of, rotate
from bot.games.betrayal.state import BetrayalState, Tile
from bot.locales import speaking
from tests.betrayal_haunt_helpers import started


def fresh_cells(state: BetrayalState) -> dict[Cell, frozenset[str]]:
    """The layout as it was built before the cache: every tile walked, every call."""
    return {cell_of(t): frozenset(rotate(d, t.rotation) for d in content.room(t.room).doors)
            for t in state.tiles}


def fresh_tile_at(state: BetrayalState, cell: Cell) -> int | None:
    return next((i for i, t in enumerate(state.tiles) if cell_of(t) == cell), None)


def fresh_through_door(state: BetrayalState, tile_id: int, d: str) -> int | None:
    cells = fresh_cells(state)
    here = cell_of(state.tiles[tile_id])
    there = house.step(here, d)
    if d not in cells.get(here, ()) or house.opposite(d) not in cells.get(there, ()):
        return None
    return fresh_tile_at(state, there)


def agrees_with_a_fresh_walk(state: BetrayalState) -> None:
    cells = fresh_cells(state)
    assert dict(Layout.of(state).cells) == cells
    for tile_id, tile in enumerate(state.tiles):
        expected = [fresh_through_door(state, tile_id, d) for d in DIRS]
        assert [house.through_door(state, tile_id, d) for d in DIRS] == expected
        assert house.door_targets(state, tile_id) == [t for t in expected if t is not None]
        for d in DIRS:
            cell = house.step(cell_of(tile), d)
            assert house.tile_at(state, cell) == fresh_tile_at(state, cell)


def random_play(seed: int, steps: int, players: int = 4) -> list[BetrayalState]:
    """The states of a game where every pick is a random legal option."""
    state, _ = GAME.setup([PlayerInfo(f"P{i}") for i in range(players)], seed, {})
    return played_on(state, random.Random(seed), steps)


def played_on(state: BetrayalState, rng: random.Random, steps: int) -> list[BetrayalState]:
    """`state`, then the states of its game played on with random legal options."""
    seen = [state]
    for _ in range(steps):
        seat = GAME.to_act(state)
        if seat is None:
            break
        state, _ = GAME.apply(state, seat, rng.choice(GAME.options(state, seat)).action)
        seen.append(state)
    return seen


def test_the_door_map_answers_as_a_fresh_walk_on_random_play() -> None:
    tiles = set()
    for seed in range(3):
        for state in random_play(seed, 300)[::7]:
            agrees_with_a_fresh_walk(state)
            tiles.add(len(state.tiles))
    assert max(tiles) >= 15  # the houses grew as they were checked


def test_answers_follow_every_change_to_the_tiles() -> None:
    # A house whose last rooms each join another, so every change below shows (in
    # seed 1's, as random play goes since turns with nothing left end by themselves,
    # the last room lies apart, and moving it to another floor changes no door).
    state = random_play(2, 300)[-1]
    assert len(state.tiles) >= 10
    # rooms with one to three doors: any quarter turn, or four doors instead, shows
    k, j, m = [i for i, t in enumerate(state.tiles)
               if not content.room(t.room).start and len(content.room(t.room).doors) < 4][-3:]
    changes = [
        lambda s: setattr(s.tiles[k], "rotation", (s.tiles[k].rotation + 1) % 4),
        lambda s: setattr(s.tiles[j], "x", s.tiles[j].x + 20),  # carried off (the elevator)
        lambda s: setattr(s.tiles[m], "floor", "upper" if s.tiles[m].floor != "upper"
                          else "ground"),
        lambda s: setattr(s.tiles[k], "room", "foyer"),  # four doors where there were fewer
        lambda s: s.tiles.append(Tile("gardens", "ground", 30, 30, 1)),
        lambda s: s.tiles.__setitem__(slice(0, 3), s.tiles[2::-1]),  # ids reordered
    ]
    agrees_with_a_fresh_walk(state)  # the cache holds this house now
    for change in changes:
        before = [house.through_door(state, t, d) for t in range(len(state.tiles)) for d in DIRS]
        change(state)
        agrees_with_a_fresh_walk(state)
        after = [house.through_door(state, t, d) for t in range(len(state.tiles)) for d in DIRS]
        assert after != before  # each one changed where some door leads


def test_the_same_tiles_under_other_content_are_another_house() -> None:
    state = random_play(2, 120)[-1]
    agrees_with_a_fresh_walk(state)
    real = content.get()
    walled = dataclasses.replace(real, rooms={
        key: dataclasses.replace(info, doors=()) if not info.start else info
        for key, info in real.rooms.items()})
    with content.installed(walled):
        agrees_with_a_fresh_walk(state)
        assert all(house.door_targets(state, t) == [] for t in range(len(state.tiles))
                   if not real.rooms[state.tiles[t].room].start)
    agrees_with_a_fresh_walk(state)


def test_a_house_has_one_door_map_in_every_language() -> None:
    """The shipped content is one Content per language (its words), but its doors are
    the same: a Chinese table's house shares its door map with an English one's rather
    than taking a second entry of the bounded cache. Content a test installs is still
    another house (above)."""
    state = random_play(5, 60)[-1]
    english, words = house.plan(state), content.get()
    with speaking("zh-TW"):
        assert content.get() is not words  # the premise: the words are another Content
        assert house.plan(state) is english
    agrees_with_a_fresh_walk(state)


def test_the_cache_stays_bounded() -> None:
    state = random_play(3, 60)[-1]
    for shift in range(house.PLANS_KEPT + 50):
        moved = GAME.copy_state(state)
        moved.tiles[-1].x += 100 + shift  # a new arrangement each time
        house.plan(moved)
        assert len(house._PLANS) <= house.PLANS_KEPT
    assert len(house._PLANS) == house.PLANS_KEPT


def test_the_shared_layout_cannot_be_changed_by_a_caller() -> None:
    state = random_play(4, 30)[-1]
    layout = Layout.of(state)
    with pytest.raises(TypeError):
        layout.cells[("ground", 99, 99)] = frozenset("N")  # type: ignore[index]
    grown = layout.with_tile(("ground", 99, 99), frozenset("N"))
    assert ("ground", 99, 99) in grown.cells and ("ground", 99, 99) not in layout.cells


def no_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every look-up misses: the door map is built afresh on every question."""
    monkeypatch.setattr(house._PLANS, "get", lambda key: None)


def _game(seed: int, steps: int, state: BetrayalState | None = None,
          ) -> tuple[list[dict[str, object]], list[Event]]:
    """A game of AI and random picks (a new one, or on from `state`): every state it
    passes and everything said."""
    rng = random.Random(seed)
    events: list[Event] = []
    if state is None:
        state, events = GAME.setup([PlayerInfo(f"P{i}") for i in range(4)], seed, {})
    dumps = [GAME.dump(state)]
    for _ in range(steps):
        seat = GAME.to_act(state)
        if seat is None:
            break
        action = GAME.ai_action(state, seat) if rng.random() < 0.5 else \
            rng.choice(GAME.options(state, seat)).action
        state, more = GAME.apply(state, seat, action)
        dumps.append(GAME.dump(state))
        events += more
    return dumps, events


def test_a_game_plays_the_same_with_the_cache_and_without(
        monkeypatch: pytest.MonkeyPatch) -> None:
    cached = _game(7, 250)
    no_cache(monkeypatch)
    assert _game(7, 250) == cached


@pytest.mark.parametrize("key", sorted(haunt_roll.haunts("")))
def test_a_haunt_plays_the_same_with_the_cache_and_without(
        key: str, monkeypatch: pytest.MonkeyPatch) -> None:
    begun, _ = started(key)
    cached = _game(3, 60, begun)
    no_cache(monkeypatch)
    assert _game(3, 60, begun) == cached
