"""Betrayal engine: the house's geometry, special links and the closed-floor rule."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.betrayal import house
from bot.games.betrayal.house import Layout, cell_of, rotate, rotated_doors
from bot.games.betrayal.links import connect, house_links, reachable
from tests.test_betrayal_engine_helpers import (
    MISSY,
    OX,
    PETER,
    apply,
    at,
    choose,
    dice,
    hold,
    labels,
    new_game,
    put,
    stack_top,
    tile,
    value,
)

__all__ = ["dice"]  # the fixture, imported for its side of pytest


def test_rotation_turns_doors_clockwise() -> None:
    assert rotate("N", 1) == "E" and rotate("W", 1) == "N" and rotate("S", 3) == "E"
    assert rotated_doors("attic", 0) == {"S"}
    assert rotated_doors("attic", 1) == {"W"}
    assert rotated_doors("kitchen", 2) == {"S", "W"}
    assert house.distinct_rotations("foyer") == [0]  # four doors: one way only
    assert house.distinct_rotations("gardens") == [0, 1]  # N S and E W


def test_start_tiles() -> None:
    state = new_game()
    rooms = {t.room: cell_of(t) for t in state.tiles}
    assert rooms == {"entrance_hall": ("ground", 0, 0), "foyer": ("ground", -1, 0),
                     "grand_staircase": ("ground", -2, 0), "upper_landing": ("upper", 0, 0),
                     "basement_landing": ("basement", 0, 0)}
    assert all(e.tile == tile(state, "entrance_hall") for e in state.explorers)
    hall, foyer, stairs = (tile(state, r) for r in ("entrance_hall", "foyer", "grand_staircase"))
    assert house.through_door(state, hall, "W") == foyer
    assert house.through_door(state, foyer, "W") == stairs
    assert house.through_door(state, stairs, "E") == foyer
    # The front door is not a door: the Entrance Hall opens north and south only.
    assert Layout.of(state).open_doors("ground") == [
        (("ground", 0, 0), "N"), (("ground", 0, 0), "S"),
        (("ground", -1, 0), "N"), (("ground", -1, 0), "S")]


def test_doors_connect_only_where_both_sides_have_one() -> None:
    state = new_game()
    kitchen = put(state, "kitchen", "ground", 0, -1, rotation=0)  # doors N E: no S
    hall = tile(state, "entrance_hall")
    assert house.through_door(state, hall, "N") is None
    assert house.through_door(state, kitchen, "S") is None
    state.tiles[kitchen].rotation = 1  # doors E S: now it meets the hall's N door
    assert house.through_door(state, hall, "N") == kitchen
    assert house.through_door(state, kitchen, "S") == hall
    # A door facing a wall is not open onto unexplored space either.
    assert ((("ground", 0, 0), "N")) not in Layout.of(state).open_doors("ground")


def _moves(state, seat=OX):  # type: ignore[no-untyped-def]
    return [o for o in labels(state, seat)]


def test_grand_staircase_and_upper_landing(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    at(state, OX, "grand_staircase")
    assert "Climb the stairs to the Upper Landing" in labels(state)
    state, _ = apply(state, "move", via="stairs_up", to=tile(state, "upper_landing"))
    assert state.explorers[OX].tile == tile(state, "upper_landing")
    assert state.turn.moves == 1  # a special link counts as entering one room
    state, _ = apply(state, "move", via="stairs_down", to=tile(state, "grand_staircase"))
    assert state.turn.moves == 2


def test_foyer_and_stairs_from_basement() -> None:
    state = new_game()
    at(state, OX, "foyer")
    assert not any("hidden stair" in label for label in labels(state))
    stairs = put(state, "stairs_from_basement", "basement", 0, -1, rotation=0)  # door S
    assert "Take the hidden stair down to the Stairs from Basement" in labels(state)
    state, _ = apply(state, "move", via="hidden_stairs_down", to=stairs)
    assert state.explorers[OX].tile == stairs and state.turn.moves == 1
    state, _ = apply(state, "move", via="hidden_stairs_up", to=tile(state, "foyer"))
    assert state.turn.moves == 2
    assert (tile(state, "foyer"), stairs, "hidden_stairs_down") in house_links(state)


def test_coal_chute_slides_for_free() -> None:
    """Seed 003, Coal Chute: 人物可從煤導槽移到地下室，卻不可從地下室移到煤導槽。由煤導槽滑落至
    下臺階不會耗用速度 [one may go from the Coal Chute to the basement, not from the
    basement to the chute; sliding down to the Basement Landing costs no Speed]. The
    slide is a way one takes: entering the chute does not slide you at once, and you may
    go back out by its door."""
    state = new_game()
    chute = put(state, "coal_chute", "ground", 0, -1, rotation=2)  # door S, onto the hall
    state, _ = apply(state, "move", dir="N")
    landing = tile(state, "basement_landing")
    assert state.explorers[OX].tile == chute and state.turn.moves == 1
    assert "Slide down the chute to the Basement Landing" in labels(state)
    back, _ = apply(state, "move", dir="S")  # turning back: one more room of Speed
    assert back.explorers[OX].tile == tile(state, "entrance_hall") and back.turn.moves == 2
    state, events = apply(state, "move", via="chute", to=landing)
    assert state.explorers[OX].tile == landing
    assert state.turn.moves == 1  # entering the Chute; the slide itself costs nothing
    assert any("slides down the Coal Chute" in e for e in events)
    assert (chute, landing, "chute") in house_links(state)
    # One way: nothing leads back up from the Basement Landing.
    assert not any("Coal Chute" in label for label in labels(state))


def test_no_one_is_left_in_the_coal_chute_as_a_turn_ends() -> None:
    """Seed 003, Coal Chute: 回合完結時，任何人物/怪物皆不可停留在煤導槽 [as a turn ends, no
    explorer or monster may stay in the Coal Chute]: whoever is in it then slides down,
    the explorer whose turn it was, and another a card left there."""
    state = new_game()
    chute = put(state, "coal_chute", "ground", 0, -1, rotation=2)
    landing = tile(state, "basement_landing")
    state, _ = apply(state, "move", dir="N")
    state.explorers[MISSY].tile = chute  # as a card's move would leave her
    state, events = apply(state, "end_turn")
    assert state.explorers[OX].tile == landing and state.explorers[MISSY].tile == landing
    assert sum("slides down the Coal Chute" in e for e in events) == 2
    assert state.turn.seat == MISSY
    state.explorers[PETER].tile = chute  # Missy's turn ends elsewhere: Peter slides
    state, _ = apply(state, "end_turn")
    assert state.explorers[PETER].tile == landing


def test_rope_climbs_to_the_chute_and_slides_back_at_the_end(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    chute = put(state, "coal_chute", "ground", 0, -1, rotation=2)
    hold(state, OX, "rope")
    at(state, OX, "basement_landing")
    state, _ = apply(state, "move", via="rope_chute", to=chute)
    assert state.explorers[OX].tile == chute and state.turn.moves == 0  # free, no slide
    state, _ = apply(state, "end_turn")
    assert state.explorers[OX].tile == tile(state, "basement_landing")


def test_gallery_jump_costs_a_die_of_damage(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    gallery = put(state, "gallery", "upper", 0, -1, rotation=0)
    at(state, OX, "gallery")
    assert not any("Jump" in label for label in labels(state))
    ballroom = put(state, "ballroom", "ground", 0, -1)
    assert "Jump down into the Ballroom (1 die of damage)" in labels(state)
    dice.extend([2])
    state, _ = apply(state, "move", via="gallery_jump", to=ballroom)
    assert state.explorers[OX].tile == ballroom and state.turn.moves == 1
    assert state.pending is not None and state.pending.kind == "damage_split"
    state, _ = choose(state, "All 2 to Might")
    assert value(state, OX, "might") == 4  # Ox: Might 6 at index 2 -> index 0
    assert (gallery, ballroom, "gallery_jump") in house_links(state)


def test_rope_makes_the_gallery_free_both_ways() -> None:
    state = new_game()
    gallery = put(state, "gallery", "upper", 0, -1)
    ballroom = put(state, "ballroom", "ground", 0, -1)
    hold(state, OX, "rope")
    at(state, OX, "gallery")
    state, _ = apply(state, "move", via="rope_down", to=ballroom)
    assert state.pending is None and state.turn.moves == 0
    state, _ = apply(state, "move", via="rope_up", to=gallery)
    assert state.explorers[OX].tile == gallery


def test_collapsed_room_jump_goes_below(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    collapsed = put(state, "collapsed_room", "upper", 1, 0)
    below = put(state, "wine_cellar", "basement", 0, -1, rotation=0)
    at(state, OX, "collapsed_room")
    assert not any("Jump" in label for label in labels(state))
    state.tiles[collapsed].flags["below"] = below
    dice.extend([0])
    state, _ = apply(state, "move", via="collapsed_jump", to=below)
    assert state.explorers[OX].tile == below and state.pending is None  # rolled 0 damage
    assert (collapsed, below, "collapsed_jump") in house_links(state)


def test_secret_passage_tokens_link_two_rooms() -> None:
    state = new_game()
    kitchen = put(state, "kitchen", "basement", 1, 0, rotation=3)
    connect(state, "secret_passage", tile(state, "entrance_hall"), kitchen, "secret_passage")
    assert "Take the secret passage to the Kitchen" in labels(state)
    state, _ = apply(state, "move", via="secret_passage", to=kitchen)
    assert state.explorers[OX].tile == kitchen and state.turn.moves == 1
    assert "Take the secret passage to the Entrance Hall" in labels(state)


def test_reachable_counts_doors_and_links() -> None:
    state = new_game()
    assert reachable(state) == set(range(len(state.tiles)))
    lost = put(state, "wine_cellar", "basement", 5, 5)
    assert lost not in reachable(state)


# ---------------------------------------------------------------- the closed-floor rule

def _hem_in_the_upper_landing(state):  # type: ignore[no-untyped-def]
    """Upper Landing with one-door rooms on three sides: only its west door is open."""
    put(state, "storeroom", "upper", 0, -1, rotation=2)  # door S
    put(state, "conservatory", "upper", 1, 0, rotation=3)  # door W
    put(state, "chapel", "upper", 0, 1, rotation=0)  # door N
    at(state, OX, "upper_landing")
    assert Layout.of(state).open_doors("upper") == [(("upper", 0, 0), "W")]


def test_a_room_that_would_close_the_floor_is_discarded() -> None:
    state = new_game()
    _hem_in_the_upper_landing(state)
    stack_top(state, "attic", "tower")  # the Attic (one door) would seal the upper floor
    state, events = apply(state, "explore", dir="W")
    placed = state.tiles[-1]
    assert placed.room == "tower" and cell_of(placed) == ("upper", -1, 0)
    assert "attic" in state.room_discard
    assert any("Attic" in e and "Set aside" in e for e in events)
    assert Layout.of(state).is_open("upper")


def test_only_turns_that_keep_the_floor_open_are_offered() -> None:
    state = new_game()
    _hem_in_the_upper_landing(state)
    put(state, "vault", "upper", -1, -1, rotation=1)  # a wall north of the new cell
    stack_top(state, "library")  # doors S W: turned E S or N E to meet the landing
    state, _ = apply(state, "explore", dir="W")
    assert state.pending is None  # N E would face the Vault's wall and seal the floor
    placed = state.tiles[-1]
    assert placed.room == "library" and rotated_doors("library", placed.rotation) == {"E", "S"}


def test_several_turns_are_the_explorers_choice() -> None:
    state = new_game()
    stack_top(state, "library")
    state, _ = apply(state, "explore", dir="N")  # from the Entrance Hall
    assert state.pending is not None and state.pending.kind == "rotate"
    assert sorted(state.pending.labels) == ["Doors E, S", "Doors S, W"]
    state, _ = choose(state, "Doors S, W")
    assert rotated_doors("library", state.tiles[-1].rotation) == {"S", "W"}
    assert state.explorers[OX].tile == len(state.tiles) - 1


def _only_upper(state, keep: list[str]) -> None:  # type: ignore[no-untyped-def]
    """Leave only these upper-floor rooms unplaced (a test of the last resort)."""
    from bot.games.betrayal import content

    for pile in (state.stack, state.room_discard):
        pile[:] = [r for r in pile if "upper" not in content.room(r).floors or r in keep]


def test_last_resort_turns_one_room() -> None:
    state = new_game()
    bend = put(state, "operating_laboratory", "upper", 0, -1, rotation=0)  # doors E S
    put(state, "storeroom", "upper", 1, -1, rotation=2)  # door S, walls the bend's E door
    put(state, "organ_room", "upper", 1, 0, rotation=1)  # doors N W
    put(state, "chapel", "upper", 0, 1, rotation=0)
    at(state, OX, "upper_landing")
    _only_upper(state, ["attic"])
    state, events = apply(state, "explore", dir="W")
    assert state.tiles[-1].room == "attic"
    assert any("Operating Laboratory is turned" in e for e in events)
    assert rotated_doors("operating_laboratory", state.tiles[bend].rotation) == {"S", "W"}
    assert Layout.of(state).is_open("upper")
    assert reachable(state) == set(range(len(state.tiles)))


def test_last_resort_that_cannot_help_seals_the_floor() -> None:
    state = new_game()
    _hem_in_the_upper_landing(state)
    _only_upper(state, ["attic"])
    hold(state, OX, "bottle")  # something left to do: his turn waits for him
    state, events = apply(state, "explore", dir="W")
    assert state.tiles[-1].room == "attic"
    assert any("upper floor is now sealed" in e for e in events)
    assert not Layout.of(state).is_open("upper")
    at(state, OX, "upper_landing")
    assert not any(label.startswith("Explore") for label in labels(state))


def test_last_resort_search_order() -> None:
    """Pure: the turn of a room comes before moving one; start tiles never change."""
    state = new_game()
    put(state, "operating_laboratory", "upper", 0, -1, rotation=0)
    put(state, "storeroom", "upper", 1, -1, rotation=2)
    put(state, "organ_room", "upper", 1, 0, rotation=1)
    put(state, "chapel", "upper", 0, 1, rotation=0)
    new = put(state, "attic", "upper", -1, 0, rotation=3)
    change = house.last_resort(state, "upper", {new}, [])
    assert change == house.Rearrangement(tile(state, "operating_laboratory"), 1)


FLOOR_NAMES = ("ground", "upper")
# A small grid, so a floor often has a door or two left open, one of them into the cell.
cells = st.tuples(st.sampled_from(FLOOR_NAMES), st.integers(-1, 1), st.integers(-1, 1))
sides = st.frozensets(st.sampled_from(("N", "E", "S", "W")))


@settings(max_examples=300, deadline=None)
@given(placed=st.dictionaries(cells, sides, max_size=12), cell=cells, doors=sides,
       floor=st.sampled_from(FLOOR_NAMES))
def test_a_placement_keeps_a_floor_open_exactly_as_the_house_with_it_would(
        placed: dict[house.Cell, frozenset[str]], cell: house.Cell, doors: frozenset[str],
        floor: str) -> None:
    """`open_with` answers without copying the house: the same as placing the tile (on
    an empty cell or over one) and looking for an open door on the floor."""
    layout = Layout(placed)
    assert layout.open_with(cell, doors, floor) == \
        layout.with_tile(cell, doors).is_open(floor)
    assert layout.open_doors(floor) is layout.open_doors(floor)  # worked out once


def test_a_room_set_on_a_floors_last_open_door_closes_it_unless_it_has_one() -> None:
    last = Layout({("ground", 0, 0): frozenset({"N"})})  # one door, to (0, -1)
    assert not last.open_with(("ground", 0, -1), frozenset({"S"}), "ground")
    assert last.open_with(("ground", 0, -1), frozenset({"S", "N"}), "ground")
    assert last.open_with(("upper", 0, -1), frozenset(), "ground")  # another floor
