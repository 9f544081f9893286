"""Betrayal cards: the events M to Z that place or move rooms (seed 003): The Beckoning's
jump to the Patio, The Lost One, The Walls and What the...?. Every room they lay must
leave the house legal: doors matched, no floor closed, every room reachable.

The other events M to Z, the shared helpers and the deck coverage check are in
test_betrayal_cards_events_b.py.
"""

from __future__ import annotations

import json

import pytest

import bot.games.betrayal.cards.events_m_to_z  # noqa: F401  (its handlers, without the whole game)
from bot.games.betrayal import GAME
from bot.games.betrayal.house import cell_of, tile_at
from bot.games.betrayal.state import BetrayalState
from tests.test_betrayal_cards_events_b import (
    NAMES,
    assert_legal,
    discovered,
    draw,
    index,
    only_rooms,
    points,
    rollers,
    settle,
)
from tests.test_betrayal_engine_helpers import (
    MISSY,
    OX,
    PETER,
    at,
    choose,
    deck_top,
    dice,
    new_game,
    put,
    same,
    stack_top,
    tile,
)
from tests.test_betrayal_engine_traits import run_steps

__all__ = ["dice"]


# ---------------------------------------------------------------- The Beckoning: what

def test_the_beckoning_pass_and_fail_with_the_patio_in_the_house(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    patio = put(state, "patio", "ground", 0, -1, rotation=0)  # door S onto the hall
    put(state, "tower", "upper", 1, 0)
    at(state, OX, "tower", side="W")
    put(state, "gardens", "ground", -1, -1)
    at(state, PETER, "gardens")
    at(state, MISSY, "patio")  # already there: not tempted
    # Ox: Sanity 3 dice 3 (fails), damage 1; Peter: 4 dice 4 (holds on)
    dice.extend([1, 1, 1, 1, 1, 1, 1, 1])
    asked: list[int] = []
    after, events = draw(state, "the_beckoning", PETER)
    after = settle(after, asked)
    assert rollers(events, "sanity") == [NAMES[PETER], NAMES[OX]]
    assert after.explorers[OX].tile == patio and after.explorers[OX].side is None
    assert points(after, OX, "physical") == points(state, OX, "physical") - 1
    assert asked == [OX]
    assert after.explorers[PETER].tile == state.explorers[PETER].tile
    assert after.explorers[PETER].traits == state.explorers[PETER].traits
    assert dice == []


@pytest.mark.parametrize("pile", ["stack", "room_discard"])
def test_the_beckoning_finds_the_patio(dice, pile: str) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    put(state, "gardens", "ground", 0, -1)  # doors N S: joined to the hall
    put(state, "balcony", "upper", 0, -1)
    at(state, MISSY, "gardens")
    at(state, PETER, "balcony")
    if pile == "room_discard":
        state.stack.remove("patio")
        state.room_discard.append("patio")
    deck_top(state, "event", "the_beckoning", "whoops")  # the Patio's event, for Missy
    # Missy: Sanity 3 dice 0, damage 0; Peter: 4 dice 0, damage 2
    dice.extend([0, 0, 0, 0, 0, 0, 0, 0, 2])
    after, _ = run_steps(state, [{"draw": {"deck": "event", "count": 1}}])
    assert after.pending.kind in ("spot", "spot_cell")
    assert after.pending.seat == MISSY  # the first to jump places the Patio
    while after.pending and after.pending.kind in ("spot", "spot_cell"):
        after, _ = choose(after, 0)
    patio = tile(after, "patio")
    assert after.tiles[patio].floor == "ground"
    assert_legal(after, patio)
    assert "patio" not in after.stack and "patio" not in after.room_discard
    assert sorted(after.stack + after.room_discard) == sorted(
        r for r in state.stack + state.room_discard if r != "patio")
    assert after.stack != [r for r in state.stack if r != "patio"]  # searched: reshuffled
    assert after.explorers[MISSY].tile == patio
    assert "whoops" in after.discards["event"]  # found: its card symbol is drawn
    asked: list[int] = []
    after = settle(after, asked)
    assert asked == [PETER]  # 2 damage, one split
    assert after.explorers[PETER].tile == patio  # the second jumper lands there too
    assert points(after, PETER, "physical") == points(state, PETER, "physical") - 2
    assert dice == []


# ---------------------------------------------------------------- The Lost One

def test_the_lost_one_success(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    dice.extend([2, 2, 1])
    after, _ = draw(state, "the_lost_one")
    assert index(after, OX, "knowledge") == index(state, OX, "knowledge") + 1
    assert after.explorers[OX].tile == state.explorers[OX].tile


@pytest.mark.parametrize(("faces", "room"), [
    ([2, 2, 2], "entrance_hall"), ([2, 2, 0], "upper_landing"), ([2, 1, 2], "upper_landing")])
def test_the_lost_one_named_rooms(dice, faces: list[int], room: str) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    at(state, OX, "foyer")
    dice.extend([2, 2, 0, *faces])  # Knowledge 4: lost
    after, _ = draw(state, "the_lost_one")
    assert after.explorers[OX].tile == tile(after, room)
    assert len(after.tiles) == len(state.tiles) and dice == []


@pytest.mark.parametrize(("faces", "floor", "room"), [
    ([1, 1, 1], "upper", "creaky_hallway"), ([2, 0, 0], "upper", "creaky_hallway"),
    ([1, 0, 0], "basement", "storeroom"), ([0, 0, 0], "basement", "storeroom")])
def test_the_lost_one_new_room(dice, faces: list[int], floor: str,  # type: ignore[no-untyped-def]
                               room: str) -> None:
    state = new_game()
    at(state, OX, "foyer")
    stack_top(state, "graveyard" if floor == "upper" else "attic", room)  # first: no fit
    deck_top(state, "item", "axe")
    dice.extend([0, 0, 0, *faces])
    after, _ = draw(state, "the_lost_one")
    assert after.pending.seat == OX
    after, new = discovered(after)
    assert after.tiles[new].room == room and after.tiles[new].floor == floor
    assert after.explorers[OX].tile == new
    assert_legal(after, new)
    # the Storeroom's item symbol is drawn on discovery; the hallway has none
    assert after.explorers[OX].cards == (["axe"] if room == "storeroom" else [])


@pytest.mark.parametrize(("faces", "floor"), [([1, 1, 0], "upper"), ([0, 0, 0], "basement")])
def test_the_lost_one_with_no_room_left_goes_to_the_entrance_hall(dice, faces: list[int],  # type: ignore[no-untyped-def]
                                                                  floor: str) -> None:
    state = new_game()
    at(state, OX, "foyer")
    only_rooms(state, lambda r: floor not in r.floors)
    dice.extend([0, 0, 0, *faces])
    after, _ = draw(state, "the_lost_one")
    assert after.pending is None and len(after.tiles) == len(state.tiles)
    assert after.explorers[OX].tile == tile(after, "entrance_hall")


# ---------------------------------------------------------------- The Walls

@pytest.mark.parametrize(("start", "floor", "room", "deck", "card"), [
    ("foyer", "ground", "organ_room", "event", "whoops"),
    ("basement_landing", "basement", "wine_cellar", "item", "axe"),
    ("upper_landing", "upper", "storeroom", "item", "rope"),
])
def test_the_walls_open_on_a_new_room(start: str, floor: str, room: str, deck: str,
                                      card: str) -> None:
    state = new_game()
    at(state, OX, start)
    stack_top(state, "graveyard" if floor != "ground" else "wine_cellar", room)  # no fit
    if deck == "event":
        deck_top(state, "event", "the_walls", card)
        after, _ = run_steps(state, [{"draw": {"deck": "event", "count": 1}}])
    else:
        deck_top(state, deck, card)
        after, _ = draw(state, "the_walls")
    assert after.pending.seat == OX
    after, new = discovered(after)
    assert after.tiles[new].room == room and after.tiles[new].floor == floor
    assert after.explorers[OX].tile == new
    assert_legal(after, new)
    if deck == "event":
        assert after.discards["event"] == ["whoops", "the_walls"]  # the symbol drew it
    else:
        assert after.explorers[OX].cards == [card]


def test_the_walls_with_no_room_left_for_the_floor() -> None:
    state = new_game()
    at(state, OX, "foyer")
    only_rooms(state, lambda r: "ground" not in r.floors)
    after, events = draw(state, "the_walls")
    assert after.pending is None and len(after.tiles) == len(state.tiles)
    assert after.explorers[OX].tile == state.explorers[OX].tile
    assert any("No room left can go on the ground floor" in e for e in events)


# ---------------------------------------------------------------- What the...?

def _pick_all(state: BetrayalState, seat: int, floor_label: str = "",
              events: list[str] | None = None) -> BetrayalState:
    while state.pending is not None and state.pending.kind.startswith("what_the"):
        assert state.pending.seat == seat
        pick: int | str = 0
        if state.pending.kind == "what_the_floor" and floor_label:
            pick = floor_label
        state, said = choose(state, pick)
        if events is not None:
            events += said
    return state


def test_what_the_moves_the_room_with_everything_in_it() -> None:
    state = new_game()
    chapel = put(state, "chapel", "ground", 0, -1, rotation=2)  # door S onto the hall
    at(state, OX, "chapel")
    at(state, MISSY, "chapel")
    state.tiles[chapel].items.append("axe")
    state.tiles[chapel].tokens.append({"kind": "blessing", "card": "a_moment_of_hope"})
    old = cell_of(state.tiles[chapel])
    after, events = draw(state, "what_the")
    assert after.pending.seat == OX and after.pending.kind.startswith("what_the")
    after = _pick_all(after, OX, events=events)
    assert any(e.startswith("The way back is gone: the Chapel now lies on the ground floor")
               for e in events)
    moved = after.tiles[chapel]
    assert moved.room == "chapel" and moved.floor == "ground" and cell_of(moved) != old
    assert tile_at(after, old) is None
    assert after.explorers[OX].tile == chapel and after.explorers[MISSY].tile == chapel
    assert moved.items == ["axe"] and moved.tokens == state.tiles[chapel].tokens
    assert_legal(after, chapel)
    assert after.discards["event"] == ["what_the"]


def test_what_the_never_leaves_the_room_where_it_was() -> None:
    """Turning the room in its own cell is not another place, though it would fit."""
    state = new_game()
    patio = put(state, "patio", "ground", 0, -1)  # doors N S W: turned, still joined
    at(state, OX, "patio")
    after, _ = draw(state, "what_the")
    assert after.pending.kind == "what_the_place"
    assert not any("north of the Entrance Hall" in label for label in after.pending.labels)
    assert any("south of the Entrance Hall" in label for label in after.pending.labels)
    after, _ = choose(after, "north of the Foyer")
    assert cell_of(after.tiles[patio]) == ("ground", -1, -1)
    assert_legal(after, patio)


def _close_the_upper_floor_around(state: BetrayalState, room: str) -> int:
    """`room` north of the Upper Landing, single-door rooms on its other sides: with
    `room` lifted, the only free spot of the upper floor is where it was."""
    moving = put(state, room, "upper", 0, -1, rotation=2 if room == "storeroom" else 0)
    put(state, "vault", "upper", 1, 0, rotation=3)  # door W
    put(state, "chapel", "upper", 0, 1, rotation=0)  # door N
    put(state, "conservatory", "upper", -1, 0, rotation=1)  # door E
    return moving


def test_what_the_goes_to_another_floor_the_tile_allows() -> None:
    state = new_game()
    storeroom = _close_the_upper_floor_around(state, "storeroom")  # upper or basement
    at(state, OX, "storeroom")
    after, _ = draw(state, "what_the")
    assert after.pending.kind == "what_the_place"  # one floor: no floor question
    assert all("Basement Landing" in label for label in after.pending.labels)
    after = _pick_all(after, OX)
    assert after.tiles[storeroom].floor == "basement"
    assert after.explorers[OX].tile == storeroom
    assert_legal(after, storeroom)


def test_what_the_goes_to_any_floor_at_last() -> None:
    state = new_game()
    attic = _close_the_upper_floor_around(state, "attic")  # upper only
    at(state, OX, "attic")
    after, _ = draw(state, "what_the")
    assert after.pending.kind == "what_the_floor" and after.pending.seat == OX
    assert after.pending.labels == ["ground floor", "basement"]
    after = _pick_all(after, OX, "ground floor")
    assert after.tiles[attic].floor == "ground" and after.explorers[OX].tile == attic
    assert_legal(after, attic)


def test_what_the_turns_a_split_rooms_sides_with_it() -> None:
    state = new_game()
    put(state, "creaky_hallway", "ground", 0, -1)  # north of the hall
    tower = put(state, "tower", "ground", 1, -1, rotation=0)  # doors E W, W on the hallway
    at(state, OX, "tower", side="W")
    state.tiles[tower].tokens.append({"kind": "drip", "card": "drip_drip_drip", "side": "W"})
    after, _ = draw(state, "what_the")
    assert after.pending.kind == "what_the_place"
    after, _ = choose(after, "Doors N, S")  # a quarter turn clockwise
    assert after.pending is None and after.tiles[tower].rotation == 1
    assert after.explorers[OX].side == "N" and after.explorers[OX].tile == tower
    assert after.tiles[tower].tokens[0]["side"] == "N"
    assert cell_of(after.tiles[tower]) != ("ground", 1, -1)
    assert_legal(after, tower)


def test_what_the_paused_survives_a_save() -> None:
    state = new_game()
    attic = _close_the_upper_floor_around(state, "attic")
    at(state, OX, "attic")
    paused, _ = draw(state, "what_the")
    loaded = GAME.load(json.loads(json.dumps(GAME.dump(paused))))
    assert same(loaded, paused)
    results = [_pick_all(s, OX, "basement") for s in (paused, loaded)]
    assert same(results[0], results[1])
    assert results[0].tiles[attic].floor == "basement"


@pytest.mark.parametrize("case", ["start", "bridge"])
def test_what_the_leaves_some_rooms_where_they_are(case: str) -> None:
    state = new_game()
    if case == "bridge":
        put(state, "creaky_hallway", "ground", 0, -1)  # the only way to the Graveyard
        put(state, "graveyard", "ground", 0, -2)  # door S
        at(state, OX, "creaky_hallway")
    after, events = draw(state, "what_the")
    assert after.pending is None
    assert [cell_of(t) for t in after.tiles] == [cell_of(t) for t in state.tiles]
    word = "never moves" if case == "start" else "nowhere else"
    assert any(word in e for e in events)


