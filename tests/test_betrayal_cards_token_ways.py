"""Betrayal cards: the two token events that are ways out of a room (seed 003 events):
the Mystic Slide (passed on from the basement, ridden or fallen through, used later by
anyone) and the Revolving Wall (a wall switch, a Knowledge roll to pass), each with its
cost in Speed, its rolls and its failures. The other token events are in
tests/test_betrayal_cards_tokens.py, whose helpers these tests share."""

from __future__ import annotations

import pytest

from bot.games.betrayal import GAME, content
from bot.games.betrayal.house import Layout, cell_of
from bot.games.betrayal.links import connect
from bot.games.betrayal.state import BetrayalState
from tests import betrayal_haunt_rig as rig
from tests.betrayal_haunt_rig import rig_plugin
from tests.test_betrayal_cards_tokens import draw, kinds, legal_house, rolled, tokens
from tests.test_betrayal_engine_helpers import (
    MISSY,
    OX,
    PETER,
    apply,
    at,
    choose,
    deck_top,
    dice,
    hold,
    labels,
    new_game,
    put,
    stack_top,
    tile,
    value,
)

__all__ = ["dice", "rig_plugin"]

# ---------------------------------------------------------------- Mystic Slide

def test_mystic_slide_passes_left_from_the_basement(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    put(state, "wine_cellar", "basement", 0, -1)
    at(state, OX, "basement_landing")
    dice.extend([2, 2, 1])  # Missy's Might 3: 5, she rides
    state, events = draw(state, "mystic_slide")
    assert any("passes to Missy Dubourde" in e for e in events)
    assert tokens(state, "entrance_hall") == [{"kind": "slide", "card": "mystic_slide"}]
    assert tokens(state, "basement_landing") == []
    assert rolled(events, "Might") == [2, 2, 1]  # three dice: Missy's, not Ox's five
    assert state.pending and state.pending.seat == MISSY
    assert set(state.pending.labels) == {"Basement Landing", "Wine Cellar"}
    state, _ = choose(state, "Wine Cellar")
    assert state.explorers[MISSY].tile == tile(state, "wine_cellar")
    assert state.explorers[OX].tile == tile(state, "basement_landing")


def test_mystic_slide_skips_everyone_in_the_basement(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    at(state, OX, "basement_landing")
    at(state, MISSY, "basement_landing")
    at(state, PETER, "upper_landing")
    dice.extend([2, 2, 1])  # Peter's Might 3: 5
    state, events = draw(state, "mystic_slide")
    assert tokens(state, "upper_landing") == [{"kind": "slide", "card": "mystic_slide"}]
    assert any("passes to Peter Akimoto" in e for e in events)
    assert state.pending and state.pending.seat == PETER
    assert "Upper Landing" not in state.pending.labels  # lower floors only


def test_mystic_slide_with_everyone_in_the_basement_is_discarded() -> None:
    state = new_game()
    for seat in (OX, MISSY, PETER):
        at(state, seat, "basement_landing")
    state, events = draw(state, "mystic_slide")
    assert "slide" not in kinds(state) and not any("rolls" in e for e in events)
    assert state.discards["event"] == ["mystic_slide"] and state.pending is None


@pytest.mark.parametrize("faces", [[1, 1, 1, 1, 1], [2, 2, 2, 2, 2]])
def test_mystic_slide_ride_on_five_or_more(dice, faces: list[int]) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    put(state, "bloody_room", "upper", 0, -1)
    put(state, "wine_cellar", "basement", 0, -1)
    at(state, OX, "bloody_room")
    dice.extend(faces)  # Ox's Might 5
    state, events = draw(state, "mystic_slide")
    assert tokens(state, "bloody_room") == [{"kind": "slide", "card": "mystic_slide"}]
    assert state.pending and state.pending.kind == "tile_pick" and state.pending.seat == OX
    assert set(state.pending.labels) == {"Entrance Hall", "Foyer", "Grand Staircase",
                                         "Basement Landing", "Wine Cellar"}
    state, events = choose(state, "Foyer")
    assert state.explorers[OX].tile == tile(state, "foyer")
    assert state.turn.moves == 0 and not any("takes" in e and "damage" in e for e in events)
    assert state.explorers[OX].traits == {"speed": 4, "might": 2, "sanity": 2, "knowledge": 2}


def _slide_fall_house(state: BetrayalState) -> None:
    stack_top(state, "wine_cellar")
    deck_top(state, "item", "axe")


def test_mystic_slide_fall_on_four_or_less(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    _slide_fall_house(state)
    dice.extend([1, 1, 1, 1, 0, 2])  # Might 4: 1 die of physical damage, 2
    state, events = draw(state, "mystic_slide")
    assert tokens(state, "entrance_hall") == [{"kind": "slide", "card": "mystic_slide"}]
    assert state.pending and state.pending.kind == "damage_split" and state.pending.seat == OX
    state, events = choose(state, "All 2 to Speed")
    assert value(state, OX, "speed") == 2  # two steps down the track 2 2 2 3 [4]
    assert any("gives way" in e for e in events)
    while state.pending and state.pending.kind in ("spot", "spot_cell"):
        assert state.pending.seat == OX
        state, _ = choose(state, 0)
    cellar = tile(state, "wine_cellar")
    assert state.tiles[cellar].floor == "basement"
    assert state.explorers[OX].tile == cellar
    assert "axe" in state.explorers[OX].cards  # the Wine Cellar's item symbol
    layout = Layout.of(state)
    here = cell_of(state.tiles[cellar])
    assert any(layout.connected(here, d) for d in "NESW")  # joined by a door
    legal_house(state)


def test_mystic_slide_fall_with_no_basement_room_left(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    put(state, "wine_cellar", "basement", 0, -1)
    for pile in (state.stack, state.room_discard):
        pile[:] = [r for r in pile if "basement" not in content.room(r).floors]
    dice.extend([0, 0, 0, 0, 0, 1])
    state, _ = draw(state, "mystic_slide")
    state, _ = choose(state, 0)  # 1 point of physical damage
    assert state.pending and state.pending.kind == "tile_pick" and state.pending.seat == OX
    assert set(state.pending.labels) == {"Basement Landing", "Wine Cellar"}
    before = len(state.tiles)
    state, _ = choose(state, "Wine Cellar")
    assert state.explorers[OX].tile == tile(state, "wine_cellar")
    assert len(state.tiles) == before


def test_the_rope_spares_the_slides_fall(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    _slide_fall_house(state)
    hold(state, OX, "rope")
    dice.extend([0, 0, 0, 0, 0, 3])
    state, events = draw(state, "mystic_slide")
    while state.pending and state.pending.kind in ("spot", "spot_cell"):
        state, _ = choose(state, 0)
    assert any("Rope spares" in e for e in events)
    assert value(state, OX, "speed") == 4 and value(state, OX, "might") == 5
    assert state.explorers[OX].tile == tile(state, "wine_cellar")


def test_anyone_may_use_the_slide_later_for_one_move(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    put(state, "wine_cellar", "basement", 0, -1)
    dice.extend([2, 2, 1, 1, 1])  # Ox rides
    state, _ = draw(state, "mystic_slide")
    state, _ = choose(state, "Wine Cellar")
    state, _ = apply(state, "end_turn")
    assert state.turn.seat == MISSY
    assert "Use the slide (Mystic Slide)" in labels(state)
    dice[:] = [2, 2, 1]  # Missy's Might 3: 5
    state, events = apply(state, "act", what="mystic_slide-0")
    assert rolled(events, "Might") == [2, 2, 1]
    assert state.pending and state.pending.seat == MISSY
    state, _ = choose(state, "Basement Landing")
    assert state.explorers[MISSY].tile == tile(state, "basement_landing")
    assert state.turn.moves == 1  # entering one room
    assert tokens(state, "entrance_hall") == [{"kind": "slide", "card": "mystic_slide"}]


def test_no_slide_is_offered_in_a_basement_room() -> None:
    """A Slide whose room was carried down to the basement leads nowhere lower: its use
    is not offered there (nor refused after a roll)."""
    state = new_game()
    cellar = put(state, "wine_cellar", "basement", 0, -1)
    state.tiles[cellar].tokens.append({"kind": "slide", "card": "mystic_slide"})
    at(state, OX, "wine_cellar")
    assert not [x for x in labels(state) if "slide" in x]
    state.tiles[cellar].floor = "ground"  # the same room up on the ground floor
    assert "Use the slide (Mystic Slide)" in labels(state)


def test_using_the_slide_can_fall_too(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    state.tiles[tile(state, "entrance_hall")].tokens.append(
        {"kind": "slide", "card": "mystic_slide"})
    stack_top(state, "larder")
    deck_top(state, "item", "dynamite")
    dice.extend([2, 2, 0, 0, 0, 1])  # Ox's Might 5: 4, then 1 point of damage
    state, _ = apply(state, "act", what="mystic_slide-0")
    state, _ = choose(state, 0)
    while state.pending and state.pending.kind in ("spot", "spot_cell"):
        state, _ = choose(state, 0)
    larder = tile(state, "larder")
    assert state.explorers[OX].tile == larder and state.tiles[larder].floor == "basement"
    assert "dynamite" in state.explorers[OX].cards
    legal_house(state)


def test_using_the_slide_leaves_the_room_by_its_rule(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    attic = put(state, "attic", "upper", 0, -1)  # door S, onto the Upper Landing
    at(state, OX, "attic")
    state.tiles[attic].tokens.append({"kind": "slide", "card": "mystic_slide"})
    dice.extend([2, 2, 1, 0, 0])  # Might 5: ride
    state, _ = apply(state, "act", what="mystic_slide-0")
    dice[:] = [0, 0, 0, 0]  # leaving the Attic: Speed 4 rolls 0, lose 1 Might
    state, events = choose(state, "Foyer")
    assert any("rolls Speed" in e for e in events)
    assert state.explorers[OX].traits["might"] == 1  # one step down
    assert state.explorers[OX].tile == tile(state, "foyer")


def test_falling_through_a_used_slide_leaves_the_room_by_its_rule(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    attic = put(state, "attic", "upper", 0, -1)
    at(state, OX, "attic")
    state.tiles[attic].tokens.append({"kind": "slide", "card": "mystic_slide"})
    _slide_fall_house(state)
    dice.extend([0, 0, 0, 0, 0, 0, 0, 0, 0, 0])  # Might 0: fall, 0 damage; Speed 0
    state, events = apply(state, "act", what="mystic_slide-0")
    while state.pending and state.pending.kind in ("spot", "spot_cell"):
        state, _ = choose(state, 0)
    assert any("rolls Speed" in e for e in events)
    assert state.explorers[OX].traits["might"] == 1
    assert state.explorers[OX].tile == tile(state, "wine_cellar")


def test_a_slide_in_the_basement_leads_nowhere(dice) -> None:  # type: ignore[no-untyped-def]
    """Not offered there (tokens.MysticSlide.actions); were its steps run anyway (a
    handler's own guard), riding or falling does nothing more."""
    from bot.core.errors import IllegalAction
    from bot.games.betrayal.context import Ctx
    from bot.games.betrayal.effects import run

    state = new_game()
    at(state, OX, "basement_landing")
    state.tiles[tile(state, "basement_landing")].tokens.append(
        {"kind": "slide", "card": "mystic_slide"})
    assert not [x for x in labels(state) if "slide" in x]
    with pytest.raises(IllegalAction):
        apply(state, "act", what="mystic_slide-0")
    here = {"token_tile": tile(state, "basement_landing"), "token_index": 0}
    for step in ("mystic_slide_ride", "mystic_slide_fall"):
        new = GAME.copy_state(state)
        ctx = Ctx(new)
        ctx.push([{"custom": step}], OX, "mystic_slide", "event", here)
        run(ctx)
        assert any("leads nowhere lower" in e.text for e in ctx.events)
        assert new.explorers[OX].tile == tile(state, "basement_landing")
        assert len(new.tiles) == len(state.tiles) and new.pending is None


# ---------------------------------------------------------------- Revolving Wall

def test_revolving_wall_finds_a_new_room_behind_the_wall() -> None:
    state = new_game()
    stack_top(state, "bloody_room")  # four doors: one way to lie
    deck_top(state, "item", "axe")
    hall = tile(state, "entrance_hall")
    state, _ = draw(state, "revolving_wall")  # the Hall's only wall: east
    room = tile(state, "bloody_room")
    assert cell_of(state.tiles[room]) == ("ground", 1, 0)
    assert state.explorers[OX].tile == room and state.turn.moves == 0
    assert "axe" in state.explorers[OX].cards  # its card symbol, as if explored
    assert tokens(state, "entrance_hall") == [{"kind": "wall_switch", "card": "revolving_wall",
                                               "link": room, "wall": "E"}]
    assert tokens(state, "bloody_room") == [{"kind": "wall_switch", "card": "revolving_wall",
                                             "link": hall, "wall": "W"}]
    assert not Layout.of(state).connected(("ground", 0, 0), "E")  # a wall, not a door
    legal_house(state)


def _one_way_out(state: BetrayalState) -> None:
    """Ground floor whose only open door (the Organ Room's S) leads to the cell east of
    the Entrance Hall, behind its wall."""
    put(state, "library", "ground", 0, -1, rotation=3)  # doors E, S
    put(state, "organ_room", "ground", 1, -1)  # doors S, W
    put(state, "graveyard", "ground", 0, 1, rotation=2)  # door N
    put(state, "chapel", "ground", -1, -1, rotation=2)  # door S
    put(state, "kitchen", "ground", -1, 1)  # doors N, E (E meets the Graveyard's wall)
    assert Layout.of(state).open_doors("ground") == [(("ground", 1, -1), "S")]


def test_revolving_wall_new_room_never_closes_its_floor() -> None:
    state = new_game()
    _one_way_out(state)
    stack_top(state, "dining_room")  # doors N, E: turned W, N it would seal the floor
    deck_top(state, "omen", "holy_symbol")
    state, _ = draw(state, "revolving_wall")
    assert state.pending and state.pending.kind == "wall_rotate" and state.pending.seat == OX
    assert state.pending.labels == ["Doors N, E", "Doors E, S", "Doors S, W"]
    state, _ = choose(state, "Doors S, W")
    room = tile(state, "dining_room")
    assert cell_of(state.tiles[room]) == ("ground", 1, 0)
    assert state.explorers[OX].tile == room and state.explorers[OX].cards == ["holy_symbol"]
    legal_house(state)


def test_revolving_wall_picks_a_wall_and_joins_a_placed_room() -> None:
    state = new_game()
    at(state, OX, "grand_staircase")  # door E only: walls N, S, W
    room = put(state, "bloody_room", "ground", -2, -1)
    tiles = len(state.tiles)
    state, _ = draw(state, "revolving_wall")
    assert state.pending and state.pending.kind == "wall_side" and state.pending.seat == OX
    assert state.pending.labels == ["The north wall (the Bloody Room behind it)",
                                    "The south wall (unexplored)", "The west wall (unexplored)"]
    state, _ = choose(state, "north")
    stairs = tile(state, "grand_staircase")
    assert len(state.tiles) == tiles and state.explorers[OX].tile == stairs
    assert tokens(state, "grand_staircase")[0]["link"] == room
    assert state.tiles[room].tokens[0]["link"] == stairs
    assert "Use the wall switch (Revolving Wall)" in labels(state)


def test_revolving_wall_on_an_unexplored_side_places_there() -> None:
    state = new_game()
    at(state, OX, "grand_staircase")
    stack_top(state, "creaky_hallway")
    state, _ = draw(state, "revolving_wall")
    state, _ = choose(state, "west")
    hallway = tile(state, "creaky_hallway")
    assert cell_of(state.tiles[hallway]) == ("ground", -3, 0)
    assert state.explorers[OX].tile == hallway
    legal_house(state)


def test_revolving_wall_in_a_room_of_doors_does_nothing() -> None:
    state = new_game()
    at(state, OX, "foyer")
    stack = list(state.stack)
    state, events = draw(state, "revolving_wall")
    assert "wall_switch" not in kinds(state) and state.stack == stack
    assert any("no wall to turn" in e for e in events)
    assert state.explorers[OX].tile == tile(state, "foyer")


def test_revolving_wall_with_no_room_left_is_discarded() -> None:
    state = new_game()
    for pile in (state.stack, state.room_discard):
        pile[:] = [r for r in pile if "ground" not in content.room(r).floors]
    tiles = len(state.tiles)
    state, events = draw(state, "revolving_wall")
    assert "wall_switch" not in kinds(state) and len(state.tiles) == tiles
    assert any("Wall Switch is discarded" in e for e in events)


def test_revolving_wall_choice_goes_to_its_drawer() -> None:
    state = new_game()
    at(state, MISSY, "grand_staircase")
    state, _ = draw(state, "revolving_wall", seat=MISSY)
    assert state.pending and state.pending.seat == MISSY
    assert GAME.options(state, OX) == []


@pytest.mark.parametrize(("faces", "through"), [([1, 1, 1], True), ([2, 2, 2], True),
                                                ([1, 1, 0], False), ([0, 0, 0], False)])
def test_revolving_wall_knowledge_three_passes(dice, faces: list[int],  # type: ignore[no-untyped-def]
                                               through: bool) -> None:
    state = new_game()
    stack_top(state, "bloody_room")
    deck_top(state, "item", "axe")
    state, _ = draw(state, "revolving_wall")
    room, hall = tile(state, "bloody_room"), tile(state, "entrance_hall")
    # From the far side, next turn: Ox's Knowledge 3.
    state.turn.moves = 0
    state.turn.movement_over = False
    assert "Use the wall switch (Revolving Wall)" in labels(state)
    dice.extend(faces)
    state, events = apply(state, "act", what="revolving_wall-0")
    assert rolled(events, "Knowledge") == faces
    assert state.explorers[OX].tile == (hall if through else room)
    if through:
        assert any("finds the switch" in e for e in events) and state.turn.moves == 1
    assert "Use the wall switch (Revolving Wall)" not in labels(state)  # once a turn


def test_passing_the_wall_leaves_the_room_by_its_rule(dice) -> None:  # type: ignore[no-untyped-def]
    from bot.games.betrayal.links import connect

    state = new_game()
    attic = put(state, "attic", "upper", 0, -1)  # door S: walls N, E, W
    room = put(state, "bloody_room", "upper", 1, -1)
    connect(state, "wall_switch", attic, room, "revolving_wall")
    at(state, OX, "attic")
    dice.extend([1, 1, 1, 0, 0, 0, 0])  # Knowledge 3: 3; leaving the Attic: Speed 0
    state, events = apply(state, "act", what="revolving_wall-0")
    assert state.explorers[OX].tile == room
    assert any("rolls Speed" in e for e in events)
    assert state.explorers[OX].traits["might"] == 1


def test_revolving_wall_works_from_either_side(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    stack_top(state, "bloody_room")
    deck_top(state, "item", "axe")
    state, _ = draw(state, "revolving_wall")
    state, _ = apply(state, "end_turn")
    assert state.turn.seat == MISSY  # Missy, in the Entrance Hall
    dice.extend([1, 1, 1, 0])  # Knowledge 4: 3
    state, events = apply(state, "act", what="revolving_wall-0")
    assert state.explorers[MISSY].tile == tile(state, "bloody_room")
    assert state.turn.moves == 1
    assert any("finds the switch" in e for e in events)


def test_a_wall_switch_not_found_costs_no_speed(dice) -> None:  # type: ignore[no-untyped-def]
    """Seed 003, Revolving Wall: 骰數總和是0至2，人物沒有找到旋轉門的開關 [0-2: the explorer
    does not find the switch]; and Speed goes by the rooms entered (每進入一個房間，人物即
    耗用1點速度 [each room entered costs 1 Speed]). A failed search leaves the explorer
    where it was with all its Speed."""
    state = new_game()
    stack_top(state, "bloody_room")
    deck_top(state, "item", "axe")
    state, _ = draw(state, "revolving_wall")
    state.turn.moves = 0
    state.turn.movement_over = False
    dice.extend([1, 1, 0])  # Ox's Knowledge 3: 2
    state, _ = apply(state, "act", what="revolving_wall-0")
    assert state.explorers[OX].tile == tile(state, "bloody_room")
    assert state.turn.moves == 0


SLOWING = ("敵對雙方的人物若同處某房間，當其中一方的人物/怪物要離開這房間時…房中每有一名敵手，"
           "人物則必須多耗用1點速度離開房間")


def _among_brutes(state: BetrayalState) -> int:
    """Darrin in the Foyer with two of the traitor's monsters: the Foyer's tile."""
    foyer = rig.place(state, "foyer", rig.DARRIN)
    rig.spawn(state, "brute", "foyer")
    rig.spawn(state, "brute", "foyer")
    return foyer


def test_the_slide_costs_what_leaving_past_opponents_costs(dice) -> None:  # type: ignore[no-untyped-def]
    """Seed 003, the haunt (SLOWING): when foes share a room, one who leaves it pays 1
    more Speed for each foe there. The Slide is a way out of its room: ridden past two
    monsters it costs 3 Speed, as a door would, not 1."""
    state = rig.rigged(rig.DARRIN)
    foyer = _among_brutes(state)
    state.tiles[foyer].tokens.append({"kind": "slide", "card": "mystic_slide"})
    dice.extend([2] * value(state, rig.DARRIN, "might"))  # 5+: ride
    state, _ = apply(state, "act", what="mystic_slide-0")
    state, _ = choose(state, "Basement Landing")
    assert state.explorers[rig.DARRIN].tile == tile(state, "basement_landing")
    assert state.turn.moves == 3


def test_the_wall_switch_costs_what_leaving_past_opponents_costs(dice) -> None:  # type: ignore[no-untyped-def]
    """Seed 003, the haunt (SLOWING), as for the Slide: passing the Revolving Wall past
    two monsters costs 3 Speed."""
    state = rig.rigged(rig.DARRIN)
    foyer = _among_brutes(state)
    hall = tile(state, "entrance_hall")
    connect(state, "wall_switch", foyer, hall, "revolving_wall")
    dice.extend([2] * value(state, rig.DARRIN, "knowledge"))  # 3+: through
    state, _ = apply(state, "act", what="revolving_wall-0")
    assert state.explorers[rig.DARRIN].tile == hall
    assert state.turn.moves == 3
