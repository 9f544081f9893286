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
from bot.games.betrayal.links import reachable
from bot.games.betrayal.state import HAUNT, BetrayalState, Haunt
from bot.texts import plural
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
    tile,
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
