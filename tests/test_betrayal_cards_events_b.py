"""Betrayal cards: the events M to Z (seed 003, events 627-902), each as seed 003 says.

Every event whose key starts with M to Z is here or, for the ones that lay rooms
(The Beckoning's Patio, The Lost One, The Walls, What the...?), in
test_betrayal_cards_events_places.py; plain-step cards included, except
the token cards the engine's own tests cover (Mystic Slide, Revolving Wall, Secret
Passage, Secret Stairs, Skeletons, Smoke). Each card is drawn from the event deck and
run through the engine with scripted dice; every roll band and failure branch is
tried, and every choice is checked to go to the explorer it belongs to.

Dice: Ox Bellows rolls Speed 4, Might 5, Sanity 3, Knowledge 3 dice; Missy Dubourde
Speed 5, Might 3, Sanity 3, Knowledge 4; Peter Akimoto Speed 4, Might 3, Sanity 4,
Knowledge 4. All three start in the Entrance Hall; Ox plays first.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

import bot.games.betrayal.cards.events_m_to_z  # noqa: F401  (its handlers, without the whole game)
from bot.games.betrayal import content
from bot.games.betrayal.content import FLOORS
from bot.games.betrayal.house import DIRS, Layout, cell_of
from bot.games.betrayal.links import reachable
from bot.games.betrayal.state import HAUNT, BetrayalState
from tests.test_betrayal_engine_helpers import (
    MISSY,
    OX,
    PETER,
    at,
    choose,
    deck_top,
    dice,
    hold,
    landing_split,
    new_game,
    put,
    tile,
)
from tests.test_betrayal_engine_traits import run_steps

__all__ = ["dice"]

NAMES = {OX: "Ox Bellows", MISSY: "Missy Dubourde", PETER: "Peter Akimoto"}
KINDS = {"physical": ("might", "speed"), "mental": ("sanity", "knowledge")}


# ---------------------------------------------------------------- helpers

def draw(state: BetrayalState, card: str, seat: int = OX,
         *more: str) -> tuple[BetrayalState, list[str]]:
    """`seat` draws `card` from the event deck (`more` lie under it)."""
    deck_top(state, "event", card, *more)
    return run_steps(state, [{"draw": {"deck": "event", "count": 1}}], seat=seat)


def points(state: BetrayalState, seat: int, kind: str) -> int:
    """Steps on the tracks of one kind of damage (the sum of the clips' indexes)."""
    return sum(state.explorers[seat].traits[t] for t in KINDS[kind])


def settle(state: BetrayalState, asked: list[int] | None = None,
           events: list[str] | None = None) -> BetrayalState:
    """Take every damage split as it comes (the first trait filled first, no point lost),
    noting who was asked."""
    while state.pending is not None and state.pending.kind == "damage_split":
        if asked is not None:
            asked.append(state.pending.seat)
        state, said = choose(state, landing_split(state))
        if events is not None:
            events += said
    return state


def rollers(events: list[str], trait: str) -> list[str]:
    """Who rolled this trait, in order."""
    found = []
    for e in events:
        m = re.match(rf"(.+) rolls {trait.capitalize()}: ", e)
        if m:
            found.append(m.group(1))
    return found


def dice_rolled(events: list[str], who: str, trait: str) -> int:
    for e in events:
        m = re.match(rf"{who} rolls {trait.capitalize()}: ([0-9 ]+) = ", e)
        if m:
            return len(m.group(1).split())
    raise AssertionError(f"{who} did not roll {trait}")


def index(state: BetrayalState, seat: int, trait: str) -> int:
    return state.explorers[seat].traits[trait]


def assert_legal(state: BetrayalState, tile_id: int) -> None:
    """The tile is joined to a neighbour by a pair of doors, no floor is closed and
    every tile is still reached from the start rooms."""
    layout = Layout.of(state)
    cell = cell_of(state.tiles[tile_id])
    assert any(layout.connected(cell, d) for d in DIRS), cell
    assert sum(1 for t in state.tiles if cell_of(t) == cell) == 1
    for floor in FLOORS:
        assert layout.is_open(floor), floor
    assert reachable(state) == set(range(len(state.tiles)))


def discovered(state: BetrayalState) -> tuple[BetrayalState, int]:
    """Place the room found as if exploring (first spot offered); the new tile's id."""
    while state.pending is not None and state.pending.kind in ("spot", "spot_cell"):
        state, _ = choose(state, 0)
    return state, len(state.tiles) - 1


def only_rooms(state: BetrayalState, keep: Any) -> None:
    """Leave in the stack and discards only the rooms `keep(room)` accepts."""
    state.stack = [r for r in state.stack if keep(content.room(r))]
    state.room_discard = [r for r in state.room_discard if keep(content.room(r))]


# ---------------------------------------------------------------- Mists from the Walls

@pytest.mark.parametrize(("ox_roll", "missy_roll", "ox_dice", "missy_dice"), [
    ([1, 1, 2], [2, 2, 0], 0, 0),  # 4+: the faces are a trick of the light
    ([1, 0, 0], [1, 1, 1], 1, 2),  # 1-3: 1 die, 2 in a room with an event symbol
    ([0, 0, 0], [0, 0, 0], 1, 3),  # 0: 1 die, 3 in an event room
])
def test_mists_from_the_walls(dice, ox_roll: list[int], missy_roll: list[int],  # type: ignore[no-untyped-def]
                              ox_dice: int, missy_dice: int) -> None:
    state = new_game()
    at(state, OX, "basement_landing")  # no symbol
    put(state, "organ_room", "basement", -1, 0, rotation=1)  # event symbol
    at(state, MISSY, "organ_room")
    before = {s: points(state, s, "mental") for s in (OX, MISSY, PETER)}
    dice.extend([*ox_roll, *[1] * ox_dice, *missy_roll, *[1] * missy_dice])
    asked: list[int] = []
    state, events = draw(state, "mists_from_the_walls", PETER)  # Peter is upstairs
    state = settle(state, asked, events)
    assert rollers(events, "sanity") == [NAMES[OX], NAMES[MISSY]]
    assert points(state, OX, "mental") == before[OX] - ox_dice
    assert points(state, MISSY, "mental") == before[MISSY] - missy_dice
    assert points(state, PETER, "mental") == before[PETER]
    # each splits its own damage, in one choice
    assert list(dict.fromkeys(asked)) == [s for s, n in ((OX, ox_dice), (MISSY, missy_dice))
                                          if n]
    assert dice == [] and state.pending is None
    assert state.discards["event"] == ["mists_from_the_walls"]


def test_mists_reach_no_one_above_the_basement() -> None:
    state = new_game()
    state, events = draw(state, "mists_from_the_walls")
    assert rollers(events, "sanity") == []
    assert any(e == content.betrayal_line("events.no_one_affected", card="Mists from the Walls")
               for e in events)


# ---------------------------------------------------------------- Night View

@pytest.mark.parametrize(("faces", "gain"), [([2, 2, 1], 1), ([2, 2, 0], 0), ([0, 0, 0], 0)])
def test_night_view(dice, faces: list[int], gain: int) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    dice.extend(faces)
    after, events = draw(state, "night_view")
    assert rollers(events, "knowledge") == [NAMES[OX]]
    assert index(after, OX, "knowledge") == index(state, OX, "knowledge") + gain
    assert after.explorers[OX].traits == {**state.explorers[OX].traits,
                                          "knowledge": index(after, OX, "knowledge")}


# ---------------------------------------------------------------- Phone Call

@pytest.mark.parametrize(("faces", "trait", "kind", "amount"), [
    ([2, 2], "sanity", "", 1),  # 4: tea and cakes
    ([2, 1], "knowledge", "", 1),  # 3: sweetie pie
    ([1, 1, 2], "", "mental", 2),  # 2: a kiss, 1 die of mental damage
    ([1, 0, 1], "", "mental", 1),  # 1: the same
    ([0, 0, 1, 1], "", "physical", 2),  # 0: a spanking, 2 dice of physical damage
])
def test_phone_call(dice, faces: list[int], trait: str, kind: str,  # type: ignore[no-untyped-def]
                    amount: int) -> None:
    state = new_game()
    dice.extend(faces)
    after, _ = draw(state, "phone_call")
    after = settle(after)
    if trait:
        assert index(after, OX, trait) == index(state, OX, trait) + amount
    else:
        assert points(after, OX, kind) == points(state, OX, kind) - amount
        other = "mental" if kind == "physical" else "physical"
        assert points(after, OX, other) == points(state, OX, other)
    assert dice == [] and after.pending is None


# ---------------------------------------------------------------- Possession

def test_possession_success_gains_in_any_trait(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    state, _ = draw(state, "possession")
    assert state.pending.kind == "roll_trait" and state.pending.seat == OX
    assert state.pending.labels == ["Speed", "Might", "Sanity", "Knowledge"]
    dice.extend([2, 2, 0, 0, 0])  # Might 5 dice: 4
    state, events = choose(state, "Might")
    assert rollers(events, "might") == [NAMES[OX]]
    assert state.pending.kind == "trait_pick" and state.pending.seat == OX
    assert len(state.pending.labels) == 4
    before = dict(state.explorers[OX].traits)
    state, _ = choose(state, "Knowledge")
    assert state.explorers[OX].traits == {**before, "knowledge": before["knowledge"] + 1}


@pytest.mark.parametrize("phase", ["explore", HAUNT])
def test_possession_failure_drops_the_trait_to_its_lowest(dice, phase: str) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    state.phase = phase
    state, _ = draw(state, "possession")
    dice.extend([1, 1, 1])  # Sanity 3 dice: 3
    before = dict(state.explorers[OX].traits)
    state, _ = choose(state, "Sanity")
    assert state.pending is None
    # the lowest value, just above the skull, even once the haunt has begun
    assert state.explorers[OX].traits == {**before, "sanity": 0}


def test_possession_already_lowest_another_trait_falls(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    state.explorers[OX].traits["might"] = 0  # Might 4, its lowest
    state, _ = draw(state, "possession")
    dice.extend([0, 1, 1, 1])  # Might 4 dice: 3
    state, _ = choose(state, "Might")
    assert state.pending.kind == "possession_other" and state.pending.seat == OX
    assert state.pending.labels == ["Speed (4 → 2)", "Sanity (3 → 2)", "Knowledge (3 → 2)"]
    state, _ = choose(state, "Knowledge")
    assert state.explorers[OX].traits == {"speed": 4, "might": 0, "sanity": 2, "knowledge": 0}


def test_possession_with_one_trait_left_above_its_lowest(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    state.explorers[OX].traits.update(might=0, sanity=0, knowledge=0)
    state, _ = draw(state, "possession")
    dice.extend([0, 0, 0, 0])
    state, _ = choose(state, "Might")
    assert state.pending is None and state.explorers[OX].traits["speed"] == 0


def test_possession_with_every_trait_at_its_lowest(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    state.explorers[OX].traits.update(speed=0, might=0, sanity=0, knowledge=0)
    state, _ = draw(state, "possession")
    dice.extend([0, 0])  # Speed 2 dice
    state, events = choose(state, "Speed")
    assert state.pending is None and set(state.explorers[OX].traits.values()) == {0}
    assert any("already at its lowest" in e for e in events)


# ---------------------------------------------------------------- Rotten

LOST_ALL = {"speed": -1, "might": -1, "sanity": -1, "knowledge": -1}


@pytest.mark.parametrize(("rolls", "changes"), [
    # Ox (3 dice), Missy (3), Peter (4): each bears only its own result
    (([2, 2, 1], [2, 2, 0], [1, 0, 0, 0]),
     ({"sanity": 1}, {"might": -1}, {"might": -1, "speed": -1})),  # 5+, 4 (2-4 only), 1
    (([0, 0, 0], [1, 1, 0], [2, 2, 2, 2]),
     (LOST_ALL, {"might": -1}, {"sanity": 1})),  # 0, 2, 8
])
def test_rotten(dice, rolls: tuple[list[int], ...],  # type: ignore[no-untyped-def]
                changes: tuple[dict[str, int], ...]) -> None:
    state = new_game()
    at(state, MISSY, "basement_landing")
    at(state, PETER, "upper_landing")  # every explorer, wherever they are
    dice.extend([*rolls[1], *rolls[2], *rolls[0]])  # Missy draws: Missy, Peter, Ox
    after, events = draw(state, "rotten", MISSY)
    assert rollers(events, "sanity") == [NAMES[MISSY], NAMES[PETER], NAMES[OX]]
    order = {OX: 0, MISSY: 1, PETER: 2}
    for seat, i in order.items():
        expected = {t: v + changes[i].get(t, 0) for t, v in state.explorers[seat].traits.items()}
        assert after.explorers[seat].traits == expected, seat
    assert dice == [] and after.pending is None


def test_rotten_stops_at_the_lowest_value_before_the_haunt(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    state.explorers[OX].traits.update(speed=0, might=0, sanity=0, knowledge=0)
    dice.extend([0, 0, 2, 2, 2, 2, 2, 2, 2])  # Ox 2 dice: 0; Missy 6, Peter 8
    state, _ = draw(state, "rotten")
    assert set(state.explorers[OX].traits.values()) == {0} and state.explorers[OX].alive


# ---------------------------------------------------------------- Shrieking Wind and
# ---------------------------------------------------------------- The Beckoning: who

SURROUND = ((0, -1), (1, 0), (0, 1), (-1, 0))


def _place_missy(state: BetrayalState, room: str, floor: str, surrounded: bool) -> None:
    if state.tile_of(room) is None:
        put(state, room, floor, 5, 5)
        if surrounded:
            for (dx, dy), filler in zip(SURROUND, ("creaky_hallway", "dusty_hallway",
                                                  "bloody_room", "operating_laboratory"),
                                        strict=True):
                put(state, filler, floor, 5 + dx, 5 + dy)
    at(state, MISSY, room)


WHERE = [  # room, floor, surrounded, caught by the Wind, caught by the Beckoning
    ("gardens", "ground", False, True, True),
    ("graveyard", "ground", True, True, True),  # outdoors, whatever lies around it
    ("patio", "ground", False, True, False),
    ("tower", "upper", False, True, True),
    ("balcony", "upper", True, True, True),
    ("chapel", "ground", False, True, True),  # a window onto open ground
    ("chapel", "ground", True, False, False),  # rooms on every side: no outside window
    ("dining_room", "ground", False, True, True),
    ("master_bedroom", "upper", False, True, True),
    ("bedroom", "upper", True, False, False),
    ("grand_staircase", "ground", False, True, True),  # the start strip's end
    ("foyer", "ground", False, False, False),  # no window
    ("creaky_hallway", "upper", False, False, False),  # open sides, but no window
]


@pytest.mark.parametrize(("room", "floor", "surrounded", "wind", "beckoning"), WHERE)
@pytest.mark.parametrize("card", ["shrieking_wind", "the_beckoning"])
def test_who_the_wind_and_the_beckoning_reach(dice, card: str, room: str, floor: str,  # type: ignore[no-untyped-def]
                                              surrounded: bool, wind: bool,
                                              beckoning: bool) -> None:
    state = new_game()
    _place_missy(state, room, floor, surrounded)
    dice.extend([2, 2, 2])  # Missy passes either roll (Might 3, Sanity 3)
    after, events = draw(state, card)
    caught = wind if card == "shrieking_wind" else beckoning
    trait = "might" if card == "shrieking_wind" else "sanity"
    assert rollers(events, trait) == ([NAMES[MISSY]] if caught else [])
    assert after.explorers[MISSY].traits == state.explorers[MISSY].traits
    assert after.explorers[MISSY].tile == state.explorers[MISSY].tile
    if not caught:
        assert any("can reach them" in e for e in events)


# ---------------------------------------------------------------- Shrieking Wind: what

@pytest.mark.parametrize(("faces", "kind"), [
    ([2, 2, 1], ""),  # 5+: you stand firm
    ([2, 1, 1], "physical"),  # 3-4: knocked down
    ([1, 1, 1], "physical"),
    ([1, 1, 0], "mental"),  # 1-2: the cold chills your soul
    ([1, 0, 0], "mental"),
])
def test_shrieking_wind_bands(dice, faces: list[int], kind: str) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    put(state, "gardens", "ground", 0, -1)
    at(state, MISSY, "gardens")
    hold(state, MISSY, "axe")
    dice.extend([*faces, 1] if kind else faces)
    asked: list[int] = []
    after, _ = draw(state, "shrieking_wind")
    after = settle(after, asked)
    for k in KINDS:
        lost = 1 if k == kind else 0
        assert points(after, MISSY, k) == points(state, MISSY, k) - lost
    assert asked == ([MISSY] if kind else [])
    assert after.explorers[MISSY].cards == ["axe"]  # only a 0 loses an item
    assert dice == []


def test_shrieking_wind_zero_blows_an_item_to_the_entrance_hall(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    put(state, "gardens", "ground", 0, -1)
    at(state, MISSY, "gardens")
    hold(state, MISSY, "axe", "rope", "skull")
    dice.extend([0, 0, 0, 1])
    asked: list[int] = []
    after, _ = draw(state, "shrieking_wind")
    after = settle(after, asked)
    assert asked == [MISSY]
    assert points(after, MISSY, "physical") == points(state, MISSY, "physical") - 1
    assert after.pending.kind == "wind_item" and after.pending.seat == MISSY  # not Ox
    assert after.pending.labels == ["Axe", "Rope"]  # item cards only: the Skull stays
    after, events = choose(after, "Rope")
    assert after.explorers[MISSY].cards == ["axe", "skull"]
    assert after.tiles[tile(after, "entrance_hall")].items == ["rope"]
    assert any("Rope" in e and "Entrance Hall" in e for e in events)


@pytest.mark.parametrize(("held", "kept", "blown"), [
    (["axe"], [], ["axe"]), (["skull"], ["skull"], []), ([], [], []),
    (["blood_dagger"], ["blood_dagger"], []),  # never given up (seed 003)
    (["blood_dagger", "axe"], ["blood_dagger"], ["axe"])])  # the only one it can give
def test_shrieking_wind_zero_with_one_item_or_none(dice, held: list[str],  # type: ignore[no-untyped-def]
                                                   kept: list[str], blown: list[str]) -> None:
    state = new_game()
    put(state, "patio", "ground", 0, -1, rotation=0)
    at(state, MISSY, "patio")
    hold(state, MISSY, *held)
    dice.extend([0, 0, 0, 0])  # 0, then a blank for the damage
    after, _ = draw(state, "shrieking_wind")
    assert after.pending is None
    assert after.explorers[MISSY].cards == kept
    assert after.tiles[tile(after, "entrance_hall")].items == blown


# ---------------------------------------------------------------- Silence

@pytest.mark.parametrize(("ox_roll", "ox_dice"), [
    ([1, 1, 2], 0),  # 4+: you wait for your hearing to return
    ([1, 1, 1], 1),  # 1-3: a silent scream, 1 die of mental damage
    ([1, 0, 0], 1),
    ([0, 0, 0], 2),  # 0: 2 dice
])
def test_silence(dice, ox_roll: list[int], ox_dice: int) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    at(state, OX, "basement_landing")
    put(state, "wine_cellar", "basement", 0, -1)
    at(state, MISSY, "wine_cellar")
    hold(state, MISSY, "toy_monkey")  # Sanity 3 - 2 = 1 die
    before = {s: points(state, s, "mental") for s in (OX, MISSY, PETER)}
    dice.extend([*ox_roll, *[1] * ox_dice, 2])  # Missy's one die: 2, nothing
    asked: list[int] = []
    after, events = draw(state, "silence", PETER)
    after = settle(after, asked, events)
    assert rollers(events, "sanity") == [NAMES[OX], NAMES[MISSY]]  # not Peter upstairs
    assert dice_rolled(events, NAMES[OX], "sanity") == 3
    assert dice_rolled(events, NAMES[MISSY], "sanity") == 1
    assert points(after, OX, "mental") == before[OX] - ox_dice
    assert points(after, MISSY, "mental") == before[MISSY]
    assert points(after, PETER, "mental") == before[PETER]
    assert asked == [OX] * min(ox_dice, 1) and dice == []  # one split, however many points


def test_silence_the_toy_monkey_never_takes_the_last_die(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    at(state, OX, "basement_landing")
    hold(state, OX, "toy_monkey")
    state.explorers[OX].traits["sanity"] = 0  # Sanity 2, minus 2: still 1 die
    dice.extend([0, 1, 1])  # 0: 2 dice of mental damage
    state, events = draw(state, "silence")
    assert dice_rolled(events, NAMES[OX], "sanity") == 1
    state = settle(state)
    assert state.explorers[OX].traits["knowledge"] == 0  # Sanity was already lowest


# ---------------------------------------------------------------- Something Hidden

@pytest.mark.parametrize(("faces", "item", "sanity"), [
    ([2, 1, 1], True, 0), ([1, 1, 1], False, -1), ([0, 0, 0], False, -1)])
def test_something_hidden(dice, faces: list[int], item: bool, sanity: int) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    deck_top(state, "item", "axe")
    after, _ = draw(state, "something_hidden")
    assert after.pending.kind == "decline" and after.pending.seat == OX
    dice.extend(faces)
    after, events = choose(after, "Do it")
    assert rollers(events, "knowledge") == [NAMES[OX]]
    assert after.explorers[OX].cards == (["axe"] if item else [])
    assert index(after, OX, "sanity") == index(state, OX, "sanity") + sanity


def test_something_hidden_may_be_left_alone() -> None:
    state = new_game()
    after, _ = draw(state, "something_hidden")
    after, events = choose(after, "Leave it")
    assert rollers(events, "knowledge") == []
    assert after.explorers[OX] == state.explorers[OX]


# ---------------------------------------------------------------- Something Slimy

@pytest.mark.parametrize(("faces", "changes"), [
    ([1, 1, 1, 1], {"speed": 1}),  # 4+: you pull free
    ([1, 1, 1, 0], {"might": -1}),  # 1-3
    ([1, 0, 0, 0], {"might": -1}),
    ([0, 0, 0, 0], {"might": -1, "speed": -1}),  # 0
])
def test_something_slimy(dice, faces: list[int], changes: dict[str, int]) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    dice.extend(faces)
    after, events = draw(state, "something_slimy")
    assert rollers(events, "speed") == [NAMES[OX]]
    expected = {t: v + changes.get(t, 0) for t, v in state.explorers[OX].traits.items()}
    assert after.explorers[OX].traits == expected


# ---------------------------------------------------------------- Spider

@pytest.mark.parametrize(("trait", "faces", "gain", "damage"), [
    ("Speed", [1, 1, 1, 1], "speed", 0),  # brush it off: 4+
    ("Sanity", [2, 1, 1], "sanity", 0),  # hold still: 4+
    ("Sanity", [1, 1, 1, 2], "", 2),  # 1-3: stung, 1 die of physical damage
    ("Speed", [1, 0, 0, 0, 1], "", 1),
    ("Sanity", [0, 0, 0, 1, 1], "", 2),  # 0: bitten, 2 dice
])
def test_spider(dice, trait: str, faces: list[int], gain: str, damage: int) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    after, _ = draw(state, "spider")
    assert after.pending.kind == "roll_trait" and after.pending.seat == OX
    assert after.pending.labels == ["Speed", "Sanity"]
    dice.extend(faces)
    after, events = choose(after, trait)
    assert rollers(events, trait) == [NAMES[OX]]
    after = settle(after)
    if gain:
        expected = {**state.explorers[OX].traits, gain: index(state, OX, gain) + 1}
        assert after.explorers[OX].traits == expected
    else:
        assert points(after, OX, "physical") == points(state, OX, "physical") - damage
        assert points(after, OX, "mental") == points(state, OX, "mental")
    assert dice == []


# ---------------------------------------------------------------- The Voice

@pytest.mark.parametrize(("faces", "item"), [([2, 2, 0], True), ([2, 1, 0], False),
                                             ([0, 0, 0], False)])
def test_the_voice(dice, faces: list[int], item: bool) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    deck_top(state, "item", "rope")
    dice.extend(faces)
    after, events = draw(state, "the_voice")
    assert rollers(events, "knowledge") == [NAMES[OX]]
    assert after.explorers[OX].cards == (["rope"] if item else [])
    assert after.explorers[OX].traits == state.explorers[OX].traits


# ---------------------------------------------------------------- Webs

@pytest.mark.parametrize(("faces", "stuck"), [([1, 1, 1, 1, 0], False), ([1, 1, 1, 0, 0], True),
                                              ([0, 0, 0, 0, 0], True)])
def test_webs_on_draw(dice, faces: list[int], stuck: bool) -> None:  # type: ignore[no-untyped-def]
    """The draw only (the stuck explorer's rule is the `webs` passive, not this module's)."""
    state = new_game()
    dice.extend(faces)
    after, events = draw(state, "webs")
    assert rollers(events, "might") == [NAMES[OX]]
    if stuck:
        assert after.explorers[OX].lasting == ["webs"] and "webs" not in after.discards["event"]
        assert after.explorers[OX].traits == state.explorers[OX].traits
    else:
        assert after.explorers[OX].lasting == [] and after.discards["event"] == ["webs"]
        assert index(after, OX, "might") == index(state, OX, "might") + 1


# ---------------------------------------------------------------- Whoops!

def test_whoops_discards_an_item_at_random() -> None:
    lost = set()
    for seed in range(1, 30):
        state = new_game(seed=seed)
        hold(state, OX, "axe", "skull", "rope")
        after, _ = draw(state, "whoops")
        assert after.pending is None
        assert "skull" in after.explorers[OX].cards  # an omen is not an item card
        assert len(after.explorers[OX].cards) == 2
        (gone,) = {"axe", "rope"} - set(after.explorers[OX].cards)
        assert after.discards["item"] == [gone]
        lost.add(gone)
    assert lost == {"axe", "rope"}  # either may go: it is random


def test_whoops_with_no_item() -> None:
    state = new_game()
    hold(state, OX, "skull")
    after, events = draw(state, "whoops")
    assert after.explorers[OX].cards == ["skull"] and after.discards["item"] == []
    assert any("no item to lose" in e for e in events)


def test_whoops_never_takes_the_blood_dagger() -> None:
    """Seed 003, the Blood Dagger: "這物品不可轉交或丟棄" (it cannot be handed over or
    discarded); Whoops! discards an item card at random: one that may be discarded."""
    for seed in range(1, 15):
        state = new_game(seed=seed)
        hold(state, OX, "blood_dagger", "axe")
        after, _ = draw(state, "whoops")
        assert "blood_dagger" in after.explorers[OX].cards
        assert after.discards["item"] == ["axe"]
    state = new_game()
    hold(state, OX, "blood_dagger")
    after, events = draw(state, "whoops")
    assert after.explorers[OX].cards == ["blood_dagger"] and after.discards["item"] == []
    assert any("no item to lose" in e for e in events)


def test_whoops_runs_the_items_loss() -> None:
    """A card leaving the hand takes back what it gave (the Toy Monkey's gains)."""
    state = new_game()
    hold(state, OX, "toy_monkey")
    after, _ = draw(state, "whoops")
    assert after.discards["item"] == ["toy_monkey"]
    assert index(after, OX, "speed") == index(state, OX, "speed") - 1
    assert index(after, OX, "knowledge") == index(state, OX, "knowledge") - 1


# ---------------------------------------------------------------- coverage of the deck

COVERED = {"mists_from_the_walls", "night_view", "phone_call", "possession", "rotten",
           "shrieking_wind", "silence", "something_hidden", "something_slimy", "spider",
           "the_beckoning", "the_lost_one", "the_voice", "the_walls", "webs", "what_the",
           "whoops"}
TOKEN_CARDS = {"mystic_slide", "revolving_wall", "secret_passage", "secret_stairs",
               "skeletons", "smoke"}


def test_every_event_m_to_z_is_tested_here() -> None:
    keys = {k for k in content.get().deck("event") if "m" <= k[0] <= "z"}
    assert keys - TOKEN_CARDS == COVERED


def test_every_custom_name_of_these_cards_has_a_handler() -> None:
    from bot.games.betrayal.cards import handled

    names = {"mists_from_the_walls", "possession", "rotten", "shrieking_wind", "silence",
             "spider", "the_beckoning", "the_lost_one_basement", "the_lost_one_upper",
             "the_walls", "what_the", "whoops"}
    assert all(handled(n) for n in names)
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("custom"), str):
                found.add(node["custom"])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    for key in COVERED:
        walk(content.card(key).raw)
    assert found - names == {"may_decline", "webs"}  # shared plumbing; Webs' own passive
