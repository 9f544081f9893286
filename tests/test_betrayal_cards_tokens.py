"""Betrayal cards: the ten token events (events.yaml, seed 003 events): drawing each lays
its token(s) where seed 003 says, and the link or the use works afterwards with its cost
and rolls, every roll band and failure branch included. Rooms placed "as if exploring"
keep the house legal (doors, open floors, every room reachable)."""

from __future__ import annotations

import re
from typing import Any

import pytest

import bot.games.betrayal.cards.token_events  # noqa: F401  (its handlers, without the whole game)
from bot.games.betrayal import GAME, content
from bot.games.betrayal.cards import HANDLERS
from bot.games.betrayal.house import Layout, cell_of, tile_at
from bot.games.betrayal.links import connect, reachable
from bot.games.betrayal.state import HAUNT, BetrayalState, Haunt
from bot.texts import plural
from tests import betrayal_haunt_rig as rig
from tests.betrayal_haunt_rig import rig_plugin
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
from tests.test_betrayal_engine_traits import run_steps

__all__ = ["dice", "rig_plugin"]

HANDLED = ("secret_passage_any", "secret_passage_upper", "secret_passage_ground",
           "secret_passage_basement", "secret_stairs_other_end", "secret_stairs_climb",
           "mystic_slide_pass", "mystic_slide_ride", "mystic_slide_fall",
           "revolving_wall_place", "revolving_wall_pass")


def draw(state: BetrayalState, *cards: str, seat: int = OX) -> tuple[BetrayalState, list[str]]:
    """The explorer at `seat` draws the first of these events (the others wait on top)."""
    deck_top(state, "event", *cards)
    return run_steps(state, [{"draw": {"deck": "event", "count": 1}}], seat=seat)


def tokens(state: BetrayalState, room: str) -> list[dict[str, Any]]:
    return state.tiles[tile(state, room)].tokens


def kinds(state: BetrayalState) -> list[str]:
    return [t["kind"] for tl in state.tiles for t in tl.tokens]


def rolled(events: list[str], what: str) -> list[int]:
    """The faces of the first roll of `what` ("Might", "2 dice") in the events."""
    for e in events:
        m = re.search(rf"rolls {what}: ([\d ]+) =", e)
        if m:
            return [int(d) for d in m.group(1).split()]
    raise AssertionError(f"no {what} roll in {events}")


def legal_house(state: BetrayalState) -> None:
    layout = Layout.of(state)
    assert len({cell_of(t) for t in state.tiles}) == len(state.tiles)
    assert all(layout.is_open(f) for f in ("upper", "ground", "basement"))
    assert reachable(state) == set(range(len(state.tiles)))
    for t in state.tiles:
        assert t.floor in content.room(t.room).floors


def test_every_token_step_is_registered() -> None:
    assert set(HANDLED) <= set(HANDLERS)
    names = {s["custom"] for c in ("secret_passage", "secret_stairs", "mystic_slide",
                                   "revolving_wall")
             for s in _walk([*content.card(c).on_draw, *content.card(c).use]) if "custom" in s}
    assert names == set(HANDLED)


def _walk(steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    found = []
    for s in steps:
        found.append(s)
        for o in s.get("roll", {}).get("outcomes", []):
            found += _walk(o.get("do") or [])
    return found


# ---------------------------------------------------------------- Secret Passage

def _passage_house(state: BetrayalState) -> None:
    put(state, "bloody_room", "upper", 0, -1)
    put(state, "wine_cellar", "basement", 0, -1)


BANDS = [  # the 3 dice, the floor of the far end (None: any floor)
    ([2, 2, 2], None), ([2, 2, 1], "upper"), ([2, 1, 1], "upper"), ([1, 1, 1], "ground"),
    ([1, 1, 0], "ground"), ([1, 0, 0], "basement"), ([0, 0, 0], "basement"),
]


@pytest.mark.parametrize(("faces", "floor"), BANDS)
def test_secret_passage_far_end_on_the_rolled_floor(dice, faces: list[int],  # type: ignore[no-untyped-def]
                                                    floor: str | None) -> None:
    state = new_game()
    _passage_house(state)
    hall = tile(state, "entrance_hall")
    dice.extend(faces)
    state, _ = draw(state, "secret_passage")
    assert state.tiles[hall].tokens[0]["kind"] == "secret_passage"
    assert state.pending and state.pending.kind == "tile_pick" and state.pending.seat == OX
    expected = {content.room(t.room).name for i, t in enumerate(state.tiles)
                if i != hall and (floor is None or t.floor == floor)}
    assert set(state.pending.labels) == expected
    far_name = state.pending.labels[-1]
    state, _ = choose(state, far_name)
    far = next(i for i, t in enumerate(state.tiles) if content.room(t.room).name == far_name)
    assert state.tiles[hall].tokens == [{"kind": "secret_passage", "card": "secret_passage",
                                         "link": far}]
    assert state.tiles[far].tokens == [{"kind": "secret_passage", "card": "secret_passage",
                                        "link": hall}]
    assert state.discards["event"] == ["secret_passage"] and not state.script


def test_secret_passage_is_a_door_that_costs_one_move(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    _passage_house(state)
    dice.extend([0, 0, 0])
    state, _ = draw(state, "secret_passage")
    state, _ = choose(state, "Wine Cellar")
    cellar, hall = tile(state, "wine_cellar"), tile(state, "entrance_hall")
    assert "Take the secret passage to the Wine Cellar" in labels(state)
    state, events = apply(state, "move", via="secret_passage", to=cellar)
    assert state.explorers[OX].tile == cellar and state.turn.moves == 1
    assert any("takes the secret passage" in e for e in events)
    assert "Take the secret passage to the Entrance Hall" in labels(state)
    state, _ = apply(state, "move", via="secret_passage", to=hall)
    assert state.explorers[OX].tile == hall and state.turn.moves == 2
    state.turn.moves = 4  # Ox's Speed 4 is spent
    assert "Take the secret passage to the Wine Cellar" not in labels(state)


def test_secret_passage_with_one_room_on_the_floor_needs_no_choice(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    dice.extend([2, 2, 0])  # 4: upper, where only the Upper Landing lies
    state, _ = draw(state, "secret_passage")
    assert state.pending is None
    landing = tile(state, "upper_landing")
    assert tokens(state, "entrance_hall")[0]["link"] == landing
    assert tokens(state, "upper_landing")[0]["link"] == tile(state, "entrance_hall")


def test_secret_passage_to_nowhere_takes_its_token_away(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    at(state, OX, "upper_landing")
    dice.extend([2, 1, 1])  # 4: upper, and the Upper Landing is the only upper room
    state, events = draw(state, "secret_passage")
    assert state.pending is None and "secret_passage" not in kinds(state)
    assert any("leads nowhere" in e for e in events)


def test_secret_passage_choice_goes_to_its_drawer(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    _passage_house(state)
    at(state, MISSY, "foyer")
    dice.extend([1, 1, 0])  # ground
    state, _ = draw(state, "secret_passage", seat=MISSY)
    assert state.pending and state.pending.seat == MISSY and GAME.options(state, OX) == []
    assert set(state.pending.labels) == {"Entrance Hall", "Grand Staircase"}
    state, _ = choose(state, "Grand Staircase")
    assert tokens(state, "foyer")[0]["link"] == tile(state, "grand_staircase")


SPLIT_PASSAGE = ("若崩塌的房間Collapsed Room(房間)、隱藏甬道Secret Passage(事件)、或隱藏梯間"
                 "Secret Stairs(事件)連接上這房間，玩家只可將標記放在其中一度門扉door前。"
                 "經由這些特殊通道到達這房間的人物，若要前進至另一門扉時仍需通過能力考驗")


def _by_the_catacombs(dice: list[int], drawer_side: str | None) -> BetrayalState:
    """A Secret Passage between the Foyer and the Catacombs (doors N and S, Sanity 6+ to
    cross): drawn by Ox in the Catacombs on `drawer_side` (the far end in the Upper
    Landing), or with None in the Foyer (the far end in the Catacombs)."""
    state = new_game()
    put(state, "catacombs", "basement", 0, 1)
    if drawer_side is None:
        at(state, OX, "foyer")
        dice.extend([0, 0, 0])  # basement
        state, _ = draw(state, "secret_passage")
        state, _ = choose(state, "Catacombs")
    else:
        at(state, OX, "catacombs", side=drawer_side)
        dice.extend([2, 2, 0])  # upper: the Upper Landing alone
        state, _ = draw(state, "secret_passage")
    assert state.pending is None
    state.turn.moves, state.turn.movement_over = 0, False
    return state


def test_a_far_end_in_a_split_room_lies_by_one_door(dice) -> None:  # type: ignore[no-untyped-def]
    """Seed 003, the split rooms (SPLIT_PASSAGE): a passage's token in a split room lies
    before one of its doors, and one who comes by it must roll to reach the other door.
    The far end laid in the Catacombs lies by its first door (N), where arrivals stand:
    from the S side the passage is reached only by crossing (Sanity 6+)."""
    state = _by_the_catacombs(dice, None)
    catacombs = tile(state, "catacombs")
    assert state.tiles[catacombs].tokens[0]["side"] == "N"
    at(state, OX, "catacombs", side="S")
    assert "Take the secret passage to the Foyer (cross first: Sanity 6+)" in labels(state)
    at(state, OX, "catacombs", side="N")
    assert "Take the secret passage to the Foyer" in labels(state)
    at(state, OX, "foyer")
    state, _ = apply(state, "move", via="secret_passage", to=catacombs)
    assert state.explorers[OX].side == "N"


def test_one_arrives_by_a_passage_at_its_door(dice) -> None:  # type: ignore[no-untyped-def]
    """Seed 003 (SPLIT_PASSAGE), the near end: Ox lays the passage standing on the S side
    of the Catacombs. Whoever comes through it from the Upper Landing steps out by that
    S door: back through it with no roll, north only across the barrier."""
    state = _by_the_catacombs(dice, "S")
    catacombs = tile(state, "catacombs")
    assert state.tiles[catacombs].tokens[0]["side"] == "S"
    at(state, OX, "upper_landing")
    state, _ = apply(state, "move", via="secret_passage", to=catacombs)
    assert state.explorers[OX].side == "S"
    assert "Take the secret passage to the Upper Landing" in labels(state)
    assert "Move north to the Basement Landing (cross first: Sanity 6+)" in labels(state)


# ---------------------------------------------------------------- Secret Stairs

def test_secret_stairs_other_end_is_on_another_floor() -> None:
    state = new_game()
    _passage_house(state)
    state, _ = draw(state, "secret_stairs")
    assert tokens(state, "entrance_hall")[0]["kind"] == "secret_stairs"
    assert state.pending and state.pending.kind == "tile_pick" and state.pending.seat == OX
    assert set(state.pending.labels) == {"Upper Landing", "Bloody Room", "Basement Landing",
                                         "Wine Cellar"}
    state, _ = choose(state, "Bloody Room")
    room, hall = tile(state, "bloody_room"), tile(state, "entrance_hall")
    assert tokens(state, "entrance_hall")[0]["link"] == room
    assert tokens(state, "bloody_room")[0] == {"kind": "secret_stairs",
                                               "card": "secret_stairs", "link": hall}
    assert state.pending and state.pending.kind == "stairs_climb"
    assert state.pending.seat == OX and "Bloody Room" in state.pending.prompt


def test_secret_stairs_left_for_later_cost_one_move() -> None:
    state = new_game()
    state, _ = draw(state, "secret_stairs", "night_view")
    state, _ = choose(state, "Basement Landing")
    state, events = choose(state, "Leave it")
    hall, landing = tile(state, "entrance_hall"), tile(state, "basement_landing")
    assert state.explorers[OX].tile == hall and state.turn.moves == 0
    assert any("leaves the Secret Stairs" in e for e in events)
    assert state.decks["event"][0] == "night_view"  # no extra event
    assert state.discards["event"] == ["secret_stairs"] and not state.script
    assert "Take the secret stairs to the Basement Landing" in labels(state)
    state, _ = apply(state, "move", via="secret_stairs", to=landing)
    assert state.explorers[OX].tile == landing and state.turn.moves == 1
    assert "Take the secret stairs to the Entrance Hall" in labels(state)


def test_secret_stairs_taken_at_once_draw_one_more_event() -> None:
    state = new_game()
    deck_top(state, "item", "axe")
    state, _ = draw(state, "secret_stairs", "image_in_the_mirror_reversed")
    state, _ = choose(state, "Upper Landing")
    state, events = choose(state, "Do it")
    assert state.explorers[OX].tile == tile(state, "upper_landing")
    assert state.turn.moves == 0  # a card move: no Speed
    assert any("takes the secret stairs" in e for e in events)
    assert state.discards["event"] == ["image_in_the_mirror_reversed", "secret_stairs"]
    assert state.explorers[OX].cards == ["axe"]  # the extra event's item
    assert not state.script and state.pending is None


def test_secret_stairs_choices_go_to_their_drawer() -> None:
    state = new_game()
    at(state, PETER, "foyer")
    state, _ = draw(state, "secret_stairs", seat=PETER)
    assert state.pending and state.pending.seat == PETER
    assert "Foyer" not in state.pending.labels and "Entrance Hall" not in state.pending.labels
    state, _ = choose(state, "Basement Landing")
    assert state.pending and state.pending.seat == PETER
    state, _ = choose(state, "Do it")
    assert state.explorers[PETER].tile == tile(state, "basement_landing")
    assert state.explorers[OX].tile == tile(state, "entrance_hall")


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


# ---------------------------------------------------------------- Closet Door

@pytest.mark.parametrize(("faces", "branch"), [
    ([2, 2], "item"), ([2, 1], "event"), ([1, 1], "event"), ([1, 0], "gone"), ([0, 0], "gone")])
def test_closet_door(dice, faces: list[int], branch: str) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    state, _ = draw(state, "closet_door")
    assert tokens(state, "entrance_hall") == [{"kind": "closet", "card": "closet_door"}]
    state.turn.moves = 4  # opening it is no move: Speed spent or not
    assert "Use the closet (Closet Door)" in labels(state)
    deck_top(state, "event", "image_in_the_mirror_reversed")
    deck_top(state, "item", "axe")
    dice.extend(faces)
    state, events = apply(state, "act", what="closet_door-0")
    assert rolled(events, "2 dice") == faces
    assert state.explorers[OX].cards == ["axe"]  # the item, or the event's item
    drew_event = "image_in_the_mirror_reversed" in state.discards["event"]
    assert drew_event == (branch != "item")
    closet = [t for t in tokens(state, "entrance_hall") if t["kind"] == "closet"]
    assert bool(closet) == (branch != "gone")


def test_closet_door_is_opened_by_whoever_stands_there(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    at(state, MISSY, "foyer")
    state, _ = draw(state, "closet_door", seat=MISSY)
    assert tokens(state, "foyer") == [{"kind": "closet", "card": "closet_door"}]
    assert "Use the closet (Closet Door)" not in labels(state)  # Ox is in the Hall
    at(state, OX, "foyer")
    assert "Use the closet (Closet Door)" in labels(state)


# ---------------------------------------------------------------- Locked Safe

def test_locked_safe_opens_on_five(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    state, _ = draw(state, "locked_safe")
    assert tokens(state, "entrance_hall") == [{"kind": "safe", "card": "locked_safe"}]
    deck_top(state, "item", "axe", "dynamite")
    dice.extend([2, 2, 1])  # Knowledge 3: 5
    state, events = apply(state, "act", what="locked_safe-0")
    assert rolled(events, "Knowledge") == [2, 2, 1]
    assert state.explorers[OX].cards == ["axe", "dynamite"]
    assert tokens(state, "entrance_hall") == []


@pytest.mark.parametrize(("faces", "hurt"), [([2, 2, 0], [3]), ([1, 1, 0], [2]),
                                             ([1, 0, 0], [1, 1]), ([0, 0, 0], [2, 1])])
def test_locked_safe_hurts_when_it_stays_shut(dice, faces: list[int],  # type: ignore[no-untyped-def]
                                              hurt: list[int]) -> None:
    state = new_game()
    state, _ = draw(state, "locked_safe")
    dice.extend([*faces, *hurt])  # 2-4: 1 die of physical damage; 0-1: 2 dice
    state, events = apply(state, "act", what="locked_safe-0")
    assert rolled(events, plural(len(hurt), "die", "dice")) == hurt
    assert state.pending and state.pending.kind == "damage_split" and state.pending.seat == OX
    assert tokens(state, "entrance_hall") == [{"kind": "safe", "card": "locked_safe"}]
    assert state.explorers[OX].cards == []


def test_the_skeleton_key_opens_the_drawn_safe() -> None:
    state = new_game()
    state, _ = draw(state, "locked_safe")
    hold(state, OX, "skeleton_key")
    state, _ = apply(state, "act", what="locked_safe-0-key")
    assert len(state.explorers[OX].cards) == 3 and tokens(state, "entrance_hall") == []


# ---------------------------------------------------------------- Skeletons

def test_skeletons_hurt_their_finder(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    dice.extend([2])
    state, events = draw(state, "skeletons")
    assert tokens(state, "entrance_hall") == [{"kind": "skeletons", "card": "skeletons"}]
    assert rolled(events, "1 die") == [2]
    assert state.pending and state.pending.kind == "damage_split" and state.pending.seat == OX
    assert "2 mental" in state.pending.prompt


def test_skeletons_searched_on_five(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    dice.extend([0])
    state, _ = draw(state, "skeletons")  # 0 damage
    deck_top(state, "item", "axe")
    dice[:] = [2, 2, 1]  # Sanity 3: 5
    state, events = apply(state, "act", what="skeletons-0")
    assert rolled(events, "Sanity") == [2, 2, 1]
    assert state.explorers[OX].cards == ["axe"] and tokens(state, "entrance_hall") == []


@pytest.mark.parametrize("faces", [[2, 2, 0], [0, 0, 0]])
def test_skeletons_search_fails_under_five(dice, faces: list[int]) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    dice.extend([0])
    state, _ = draw(state, "skeletons")
    dice[:] = [*faces, 1]
    state, events = apply(state, "act", what="skeletons-0")
    assert rolled(events, "1 die") == [1]
    assert state.pending and state.pending.kind == "damage_split"
    assert "1 mental" in state.pending.prompt
    assert state.explorers[OX].cards == [] and len(tokens(state, "entrance_hall")) == 1


# ---------------------------------------------------------------- Smoke, Drip, Blessing

ROOM_DICE = [("smoke", "smoke", -2), ("drip_drip_drip", "drip", -1),
             ("a_moment_of_hope", "blessing", 1)]


@pytest.mark.parametrize(("card", "kind", "delta"), ROOM_DICE)
def test_room_tokens_change_trait_rolls_made_there(dice, card: str, kind: str,  # type: ignore[no-untyped-def]
                                                   delta: int) -> None:
    state = new_game()
    state, _ = draw(state, card)
    assert tokens(state, "entrance_hall") == [{"kind": kind, "card": card}]
    dice.extend([1] * 16)
    roll = [{"roll": {"trait": "might", "outcomes": []}}]
    _, events = run_steps(state, roll)
    assert len(rolled(events, "Might")) == 5 + delta  # Ox's Might 5
    _, events = run_steps(state, [{"attack": {"trait": "might", "dice": 2}}])
    assert len(rolled(events, "Might")) == 5  # attacks are not trait rolls
    at(state, OX, "foyer")
    dice[:] = [1] * 16
    _, events = run_steps(state, roll)
    assert len(rolled(events, "Might")) == 5  # only in its room


def test_the_blessing_is_for_heroes_not_the_traitor(dice) -> None:  # type: ignore[no-untyped-def]
    """Seed 003 (希望湧現): 「英雄Hero在這房間內進行任何能力考驗trait roll時，可多擲1顆遊戲骰」
    A hero making a trait roll in this room rolls 1 extra die: once the haunt has
    begun, the traitor rolls there without it; a hero beside them still gets it."""
    state = new_game()
    state, _ = draw(state, "a_moment_of_hope")
    state.phase = HAUNT
    state.haunt = Haunt(revealer=OX, omen="spear", room="entrance_hall", roll=2, omens=5,
                        traitor=OX)
    dice.extend([1] * 16)
    roll = [{"roll": {"trait": "might", "outcomes": []}}]
    _, events = run_steps(state, roll)
    assert len(rolled(events, "Might")) == 5  # Ox, the traitor: Might 5, no Blessing
    _, events = run_steps(state, [{"roll": {"trait": "sanity", "outcomes": []}}], seat=MISSY)
    assert len(rolled(events, "Sanity")) == 3 + 1  # Missy, a hero there: Sanity 3 + 1
    state.haunt.traitor = MISSY
    dice[:] = [1] * 16
    _, events = run_steps(state, roll)
    assert len(rolled(events, "Might")) == 5 + 1  # Ox a hero now: the Blessing is his


def test_room_dice_stay_between_one_and_eight(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    state, _ = draw(state, "smoke")
    state, _ = draw(state, "drip_drip_drip")
    dice.extend([1] * 16)
    _, events = run_steps(state, [{"roll": {"trait": "sanity", "outcomes": []}}])
    assert len(rolled(events, "Sanity")) == 1  # 3 - 2 - 1: never fewer than 1
    state = new_game()
    state, _ = draw(state, "a_moment_of_hope")
    state.explorers[OX].traits["might"] = 7  # Might 8
    _, events = run_steps(state, [{"roll": {"trait": "might", "outcomes": []}}])
    assert len(rolled(events, "Might")) == 8  # never more than 8


def test_a_token_goes_in_its_drawers_room() -> None:
    state = new_game()
    at(state, PETER, "upper_landing")
    state, _ = draw(state, "smoke", seat=PETER)
    assert tokens(state, "upper_landing") == [{"kind": "smoke", "card": "smoke"}]
    assert tokens(state, "entrance_hall") == []
    assert tile_at(state, ("upper", 0, 0)) == tile(state, "upper_landing")
