"""Betrayal cards: every event A to L (events.yaml, by key) does what seed 003 says
(lines 627-902), every roll band and branch, lasting cards lasting until exactly their
end condition, choices handed to the right explorer; and the Toy Monkey (items.yaml).

Explorers (see test_betrayal_engine_helpers): Ox Bellows, Missy Dubourde, Peter
Akimoto, all in the Entrance Hall at the start, Ox to play. Trait dice at the start:
Ox Speed 4, Might 5, Sanity 3, Knowledge 3; Missy Speed 5, Might 3, Sanity 3,
Knowledge 4; Peter Speed 4, Might 3, Sanity 4, Knowledge 4.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.games.betrayal import content
from bot.games.betrayal.cards import attacks, events_a  # noqa: F401  (they register)
from bot.games.betrayal.state import BetrayalState
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

__all__ = ["dice"]

TRAIT_NAMES = ("speed", "might", "sanity", "knowledge")


# ---------------------------------------------------------------- helpers

def faces(total: int, count: int) -> list[int]:
    """`count` dice showing `total` (2s first)."""
    assert 0 <= total <= 2 * count, (total, count)
    out = []
    for _ in range(count):
        face = min(2, total)
        out.append(face)
        total -= face
    return out


def draw(state: BetrayalState, key: str, seat: int = OX) -> tuple[BetrayalState, list[str]]:
    """`seat` draws this event, as on discovering a room with an event symbol."""
    deck_top(state, "event", key)
    return run_steps(state, [{"draw": {"deck": "event", "count": 1}}], seat)


def idx(state: BetrayalState, seat: int) -> dict[str, int]:
    return dict(state.explorers[seat].traits)


def pin(state: BetrayalState, seat: int, *names: str) -> None:
    """Put these traits at their lowest, so damage of their kind goes to the other."""
    for name in names:
        state.explorers[seat].traits[name] = 0


def rolled(events: list[str], who: str, what: str) -> list[list[int]]:
    """The dice of each roll `who` made of `what` ("Might", "2 dice")."""
    found = []
    for e in events:
        head = f"{who} rolls {what}: "
        if e.startswith(head):
            found.append([int(d) for d in e[len(head):].split(" = ")[0].split()])
    return found


def said(events: list[str], fragment: str) -> bool:
    return any(fragment in e for e in events)


def ends(state: BetrayalState) -> BetrayalState:
    """End the current turn (no choices expected on the way)."""
    state, _ = apply(state, "end_turn")
    assert state.pending is None
    return state


def alone(state: BetrayalState, seat: int = OX) -> None:
    """Everyone else waits on the upper floor."""
    for other in (OX, MISSY, PETER):
        if other != seat:
            at(state, other, "upper_landing")


# ---------------------------------------------------------------- A Moment of Hope

def test_a_moment_of_hope_blesses_trait_rolls_in_its_room(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    state, events = draw(state, "a_moment_of_hope")
    here = tile(state, "entrance_hall")
    assert [t["kind"] for t in state.tiles[here].tokens] == ["blessing"]
    roll = [{"roll": {"trait": "might", "outcomes": []}}]
    _, events = run_steps(state, roll)
    assert [len(d) for d in rolled(events, "Ox Bellows", "Might")] == [6]  # 5 + 1
    dice.extend([0, 0, 0, 0])  # an attack: the defence is not a trait roll
    _, events = run_steps(state, [{"attack": {"trait": "might", "dice": 4}}])
    assert [len(d) for d in rolled(events, "Ox Bellows", "Might")] == [5]
    at(state, OX, "foyer")
    _, events = run_steps(state, roll)
    assert [len(d) for d in rolled(events, "Ox Bellows", "Might")] == [5]


def test_the_blessing_never_goes_past_eight_dice() -> None:
    state = new_game()
    state, _ = draw(state, "a_moment_of_hope")
    state.explorers[OX].traits["might"] = 7  # Might 8
    _, events = run_steps(state, [{"roll": {"trait": "might", "outcomes": []}}])
    assert [len(d) for d in rolled(events, "Ox Bellows", "Might")] == [8]


# ---------------------------------------------------------------- Angry Being

@pytest.mark.parametrize(("total", "speed", "mental", "physical"), [
    (8, 1, 0, 0), (5, 1, 0, 0), (4, 0, 1, 0), (2, 0, 1, 0), (1, 0, 1, 1), (0, 0, 1, 1)])
def test_angry_being(dice, total: int, speed: int, mental: int,  # type: ignore[no-untyped-def]
                     physical: int) -> None:
    state = new_game()
    pin(state, OX, "knowledge", "might")  # mental damage to Sanity, physical to Speed
    before = idx(state, OX)
    dice.extend(faces(total, 4))  # Speed 4
    dice.extend([1] * mental + [2] * physical)  # 1 die each: 1 mental, 2 physical
    state, events = draw(state, "angry_being")
    assert not dice and state.pending is None
    after = idx(state, OX)
    assert after["speed"] == before["speed"] + speed - 2 * physical
    assert after["sanity"] == before["sanity"] - mental
    assert said(events, "takes 1 mental damage") == bool(mental)


# ---------------------------------------------------------------- Bloody Vision

@pytest.mark.parametrize(("total", "sanity"), [(6, 1), (4, 1), (3, -1), (2, -1)])
def test_bloody_vision_sanity_bands(dice, total: int, sanity: int) -> None:  # type: ignore[no-untyped-def]
    state = new_game()  # everyone in the Entrance Hall: no attack unless 0-1
    before = idx(state, OX)
    dice.extend(faces(total, 3))
    state, events = draw(state, "bloody_vision")
    assert not dice and state.pending is None
    assert idx(state, OX)["sanity"] == before["sanity"] + sanity
    assert not said(events, "attacks")


def vision(state: BetrayalState, dice: list[int], *more: int) -> tuple[BetrayalState, list[str]]:
    """Ox draws Bloody Vision and rolls 1 (the attack); then the scripted dice."""
    dice.extend([1, 0, 0])
    dice.extend(more)
    return draw(state, "bloody_vision")


def test_bloody_vision_attacks_the_one_here(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    at(state, PETER, "upper_landing")
    state, events = vision(state, dice, 2, 2, 1, 0, 0,  # Ox: 5 dice of Might, 5
                           1, 1, 0)  # Missy: 3 dice, 2
    assert not dice and said(events, "Ox Bellows attacks Missy Dubourde with Might (5 dice)")
    assert state.pending and state.pending.seat == MISSY  # the loser splits its damage
    assert state.pending.kind == "damage_split" and "3 physical" in state.pending.prompt
    state, _ = choose(state, "All 3 to Might")
    assert state.explorers[MISSY].traits["might"] == 0 and state.pending is None


def test_bloody_vision_the_defender_can_win(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    at(state, PETER, "upper_landing")
    state, _ = vision(state, dice, 0, 0, 0, 0, 0, 2, 2, 2)
    assert state.pending and state.pending.seat == OX and "6 physical" in state.pending.prompt


def test_bloody_vision_a_tie_hurts_no_one(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    at(state, PETER, "upper_landing")
    before = [idx(state, s) for s in (OX, MISSY)]
    state, events = vision(state, dice, 1, 1, 0, 0, 0, 1, 1, 0)
    assert state.pending is None and said(events, "evenly matched")
    assert idx(state, OX)["sanity"] == before[0]["sanity"]
    assert idx(state, MISSY) == before[1]


def test_bloody_vision_picks_the_lowest_might(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    state.explorers[PETER].traits["might"] = 5  # Peter Might 5, Missy 3
    state, events = vision(state, dice, 0, 0, 0, 0, 0, 0, 0, 0)
    assert not dice and rolled(events, "Missy Dubourde", "Might")
    assert not rolled(events, "Peter Akimoto", "Might")


def test_bloody_vision_a_tie_in_might_is_the_drawers_pick(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()  # Missy and Peter both Might 3
    state, _ = vision(state, dice)
    assert state.pending and state.pending.seat == OX and state.pending.kind == "vision_target"
    assert state.pending.labels == ["Missy Dubourde (Might 3)", "Peter Akimoto (Might 3)"]
    dice.extend([0] * 5 + [0] * 3)
    state, events = choose(state, "Peter")
    assert rolled(events, "Peter Akimoto", "Might") and not rolled(events, "Missy Dubourde",
                                                                     "Might")


def test_bloody_vision_steps_next_door_when_no_one_is_here(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    at(state, MISSY, "foyer")
    at(state, PETER, "upper_landing")
    state, events = vision(state, dice, 0, 0, 0, 0, 0, 0, 0, 0)
    assert state.explorers[OX].tile == tile(state, "foyer")
    assert rolled(events, "Missy Dubourde", "Might") and not dice


def test_bloody_vision_picks_among_rooms_next_door(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    at(state, OX, "foyer")
    at(state, PETER, "grand_staircase")  # Missy stays in the Entrance Hall
    state, _ = vision(state, dice)
    assert state.pending and state.pending.seat == OX and state.pending.kind == "vision_room"
    assert sorted(state.pending.labels) == ["Entrance Hall", "Grand Staircase"]
    dice.extend([0] * 5 + [0] * 3)
    state, events = choose(state, "Grand Staircase")
    assert state.explorers[OX].tile == tile(state, "grand_staircase")
    assert rolled(events, "Peter Akimoto", "Might")


def test_bloody_vision_steps_through_a_link(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    at(state, OX, "grand_staircase")
    at(state, MISSY, "upper_landing")
    at(state, PETER, "foyer")  # one move away too: the drawer picks
    state, _ = vision(state, dice)
    assert state.pending and sorted(state.pending.labels) == ["Foyer", "Upper Landing"]
    dice.extend([0] * 8)
    state, _ = choose(state, "Upper Landing")
    assert state.explorers[OX].tile == tile(state, "upper_landing")


def test_bloody_vision_with_no_one_near_does_nothing(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    at(state, OX, "grand_staircase")
    at(state, MISSY, "entrance_hall")  # two rooms away
    at(state, PETER, "entrance_hall")
    before = [idx(state, s) for s in (OX, MISSY, PETER)]
    state, events = vision(state, dice)
    assert not dice and state.pending is None and said(events, "no one is near")
    assert state.explorers[OX].tile == tile(state, "grand_staircase")
    assert [idx(state, s) for s in (OX, MISSY, PETER)] == before


@pytest.mark.parametrize(("side", "steps"), [("W", False), ("E", True)])
def test_bloody_vision_does_not_cross_a_split_room(dice, side: str,  # type: ignore[no-untyped-def]
                                                   steps: bool) -> None:
    state = new_game()
    put(state, "tower", "upper", 1, 0)  # W meets the Upper Landing
    put(state, "creaky_hallway", "upper", 2, 0)  # beyond the Tower's E door
    at(state, OX, "tower", side)
    at(state, MISSY, "creaky_hallway")
    at(state, PETER, "entrance_hall")
    state, events = vision(state, dice, *([0] * 8 if steps else []))
    assert not dice and state.pending is None
    assert (state.explorers[OX].tile == tile(state, "creaky_hallway")) == steps
    assert bool(rolled(events, "Missy Dubourde", "Might")) == steps


def test_the_attacker_may_swing_a_weapon_on_its_turn(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    at(state, PETER, "upper_landing")
    hold(state, OX, "axe", "blood_dagger")
    state, _ = vision(state, dice)
    assert state.pending and state.pending.seat == OX and state.pending.kind == "duel_weapon"
    assert state.pending.labels == ["No weapon (5 dice)", "The Axe (6 dice)",
                                    "The Blood Dagger (8 dice)"]
    dice.extend([0] * 6 + [0] * 3)
    with_axe, events = choose(state, "Axe")
    assert [len(d) for d in rolled(events, "Ox Bellows", "6 dice")] == [6] and not dice
    dice.extend([0] * 8 + [0] * 3)
    speed = idx(state, OX)["speed"]
    with_dagger, events = choose(state, "Blood Dagger")
    assert rolled(events, "Ox Bellows", "8 dice") and not dice
    assert idx(with_dagger, OX)["speed"] == speed - 1  # the dagger's price
    assert idx(with_axe, OX)["speed"] == speed


def test_no_weapon_off_the_attackers_turn(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    at(state, PETER, "upper_landing")
    hold(state, OX, "axe")
    state.turn.seat = MISSY
    state, events = vision(state, dice, *[0] * 8)
    assert state.pending is None and rolled(events, "Ox Bellows", "5 dice") and not dice


def test_a_winner_by_two_may_steal_instead(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    at(state, PETER, "upper_landing")
    hold(state, MISSY, "bottle", "dog")  # the Dog is a companion: never taken
    before = idx(state, MISSY)
    state, _ = vision(state, dice, 1, 1, 0, 0, 0, 0, 0, 0)
    assert state.pending and state.pending.seat == OX and state.pending.kind == "duel_spoils"
    assert state.pending.labels == ["Deal 2 physical damage", "Take the Bottle instead"]
    stolen, _ = choose(state, "Bottle")
    assert "bottle" in stolen.explorers[OX].cards and "bottle" not in \
        stolen.explorers[MISSY].cards
    assert idx(stolen, MISSY) == before and stolen.pending is None
    hurt, _ = choose(state, "Deal")
    assert hurt.pending and hurt.pending.seat == MISSY and "bottle" in hurt.explorers[MISSY].cards


def test_no_steal_by_one_nor_of_the_armor(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    at(state, PETER, "upper_landing")
    hold(state, MISSY, "bottle")
    one, _ = vision(state, dice, 1, 0, 0, 0, 0, 0, 0, 0)
    assert one.pending and one.pending.kind == "damage_split" and one.pending.seat == MISSY
    state = new_game()
    at(state, PETER, "upper_landing")
    hold(state, MISSY, "armor")
    pin(state, MISSY, "speed")
    state, events = vision(state, dice, 1, 1, 0, 0, 0, 0, 0, 0)
    assert state.pending is None and "armor" in state.explorers[MISSY].cards
    assert said(events, "soaks up 1") and state.explorers[MISSY].traits["might"] == 2


def test_a_stolen_blood_dagger_cuts_its_loser(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    at(state, PETER, "upper_landing")
    hold(state, MISSY, "blood_dagger")
    pin(state, MISSY, "speed")
    state, _ = vision(state, dice, 1, 1, 0, 0, 0, 0, 0, 0)
    dice.extend([2, 1])  # the dagger's 2 dice: 3 physical damage
    state, _ = choose(state, "Blood Dagger")
    assert "blood_dagger" in state.explorers[OX].cards and not dice
    assert state.explorers[MISSY].traits["might"] == 0  # 3 - 3


# ---------------------------------------------------------------- Burning Man

@pytest.mark.parametrize(("total", "sanity", "moved", "burnt"), [
    (6, 1, False, False), (4, 1, False, False), (3, 0, True, False), (2, 0, True, False),
    (1, 0, False, True), (0, 0, False, True)])
def test_burning_man(dice, total: int, sanity: int, moved: bool,  # type: ignore[no-untyped-def]
                     burnt: bool) -> None:
    state = new_game()
    at(state, OX, "foyer")
    pin(state, OX, "speed", "knowledge")
    before = idx(state, OX)
    dice.extend(faces(total, 3))
    if burnt:
        dice.extend([2, 1])  # 2 physical, then 1 mental
    state, _ = draw(state, "burning_man")
    assert not dice and state.pending is None
    after = idx(state, OX)
    assert state.explorers[OX].tile == tile(state, "entrance_hall" if moved else "foyer")
    assert after["sanity"] == before["sanity"] + sanity - (1 if burnt else 0)
    assert after["might"] == before["might"] - (2 if burnt else 0)


# ---------------------------------------------------------------- Closet Door

@pytest.mark.parametrize(("roll", "item", "event", "token_stays"), [
    ([2, 2], True, False, True), ([2, 1], False, True, True), ([1, 1], False, True, True),
    ([1, 0], False, True, False), ([0, 0], False, True, False)])
def test_closet_door(dice, roll: list[int], item: bool, event: bool,  # type: ignore[no-untyped-def]
                     token_stays: bool) -> None:
    state = new_game()
    state, _ = draw(state, "closet_door")
    here = tile(state, "entrance_hall")
    assert [t["kind"] for t in state.tiles[here].tokens] == ["closet"]
    deck_top(state, "item", "bottle")
    deck_top(state, "event", "night_view")
    dice.extend(roll)
    if event:
        dice.extend([0, 0, 0])  # Night View: Knowledge, nothing
    assert "Use the closet (Closet Door)" in labels(state)
    state, _ = apply(state, "act", what="closet_door-0")
    assert not dice and state.pending is None
    assert ("bottle" in state.explorers[OX].cards) == item
    assert ("night_view" in state.discards["event"]) == event
    assert bool(state.tiles[here].tokens) == token_stays
    assert "Use the closet (Closet Door)" not in labels(state)  # once a turn


# ---------------------------------------------------------------- Creepy Crawlies

@pytest.mark.parametrize(("total", "sanity"), [(6, 1), (5, 1), (4, -1), (1, -1), (0, -2)])
def test_creepy_crawlies(dice, total: int, sanity: int) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    before = idx(state, OX)["sanity"]
    dice.extend(faces(total, 3))
    state, _ = draw(state, "creepy_crawlies")
    assert not dice and idx(state, OX)["sanity"] == before + sanity


# ---------------------------------------------------------------- Creepy Puppet

@pytest.mark.parametrize(("puppet", "ox", "spear_gain"), [
    (0, 0, 0),  # a tie: Ox wins, nothing happens
    (2, 3, 0),  # Ox wins
    (8, 1, 2),  # Ox takes 7 physical: the Spear's holder gains 2 Might
    (1, 0, 2)])
def test_creepy_puppet(dice, puppet: int, ox: int, spear_gain: int) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    hold(state, MISSY, "spear")
    pin(state, OX, "speed")
    might = idx(state, OX)["might"]
    missy = idx(state, MISSY)["might"]
    dice.extend(faces(puppet, 4) + faces(ox, 5))
    state, _ = draw(state, "creepy_puppet")
    assert not dice and state.pending is None
    hurt = max(0, puppet - ox)
    assert idx(state, OX)["might"] == max(0, might - hurt)  # never below the lowest
    assert idx(state, MISSY)["might"] == missy + spear_gain


def test_creepy_puppet_the_spear_in_the_victims_hand_gains_nothing(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    hold(state, OX, "spear")
    pin(state, OX, "speed")
    dice.extend([2, 2, 2, 2] + [0] * 5)
    state, _ = draw(state, "creepy_puppet")
    assert idx(state, OX)["might"] == 0 and not dice


def test_creepy_puppet_damage_the_armor_soaks_is_not_taken(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    hold(state, MISSY, "spear")
    hold(state, OX, "armor")
    pin(state, OX, "speed")
    missy = idx(state, MISSY)["might"]
    dice.extend([1, 0, 0, 0] + [0] * 5)  # 1 damage, the Armor takes it
    state, _ = draw(state, "creepy_puppet")
    assert idx(state, MISSY)["might"] == missy
    dice.extend([2, 0, 0, 0] + [0] * 5)  # 2 damage: 1 gets through
    state, _ = draw(state, "creepy_puppet")
    assert idx(state, MISSY)["might"] == missy + 2


# ---------------------------------------------------------------- Debris and Webs

@pytest.mark.parametrize(("total", "speed", "damage_dice", "held"), [
    (8, 1, [], False), (3, 1, [], False), (2, 0, [1], True), (1, 0, [2], True),
    (0, 0, [2, 1], True)])
def test_debris_bands(dice, total: int, speed: int, damage_dice: list[int],  # type: ignore[no-untyped-def]
                      held: bool) -> None:
    state = new_game()
    pin(state, OX, "might")  # physical damage goes to Speed
    before = idx(state, OX)["speed"]
    dice.extend(faces(total, 4) + damage_dice)
    state, _ = draw(state, "debris")
    assert not dice and state.pending is None
    assert idx(state, OX)["speed"] == before + speed - sum(damage_dice)
    assert (state.explorers[OX].lasting == ["debris"]) == held
    assert ("debris" in state.discards["event"]) == (not held)


@pytest.mark.parametrize(("total", "might", "held"), [(10, 1, False), (4, 1, False),
                                                     (3, 0, True), (0, 0, True)])
def test_webs_bands(dice, total: int, might: int, held: bool) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    before = idx(state, OX)["might"]
    dice.extend(faces(total, 5))
    state, _ = draw(state, "webs")
    assert not dice and idx(state, OX)["might"] == before + might
    assert (state.explorers[OX].lasting == ["webs"]) == held


def caught(dice: list[int], card: str) -> BetrayalState:
    """Ox is held by `card` in the Entrance Hall (with Missy); Peter is upstairs."""
    state = new_game()
    at(state, PETER, "upper_landing")
    hold(state, OX, "mystic_coin")
    dice.extend([0] * 5 if card == "webs" else [0] * 4 + [0, 0])
    state, _ = draw(state, card)
    assert state.explorers[OX].lasting == [card] and not dice
    return state


HELD = ("webs", "debris")


@pytest.mark.parametrize("card", HELD)
def test_held_fast_the_explorer_can_do_nothing(dice, card: str) -> None:  # type: ignore[no-untyped-def]
    state = caught(dice, card)
    assert labels(state) == ["End turn"]  # no move, explore, item, trade, drop, nor try yet
    state = ends(state)
    here = tile(state, "entrance_hall")
    assert [t["kind"] for t in state.tiles[here].tokens] == [card]
    name = content.card(card).name
    assert f"Try to free Ox Bellows from the {name} (Might 4+)" in labels(state)  # Missy


@pytest.mark.parametrize("card", HELD)
def test_someone_in_the_room_frees_the_held(dice, card: str) -> None:  # type: ignore[no-untyped-def]
    state = ends(caught(dice, card))
    dice.extend([2, 2, 0])  # Missy's Might 3 dice: 4
    state, events = apply(state, "act", what=f"{card}-free-{OX}")
    assert not dice and said(events, "is free of the")
    assert state.explorers[OX].lasting == [] and card in state.discards["event"]
    assert not state.tiles[tile(state, "entrance_hall")].tokens
    state = ends(ends(state))  # Peter, then Ox's turn: free to move
    assert state.turn.seat == OX and "Move west to the Foyer" in labels(state)


@pytest.mark.parametrize("card", HELD)
def test_three_failed_tries_free_the_held(dice, card: str) -> None:  # type: ignore[no-untyped-def]
    state = ends(caught(dice, card))
    offer = f"{card}-free-{OX}"
    dice.extend([1, 1, 1])  # Missy: 3, one short
    state, events = apply(state, "act", what=offer)
    assert said(events, "1 of 3 tries failed") and state.explorers[OX].lasting == [card]
    assert offer not in [o.action.args.get("what") for o in _options(state)]  # once a turn
    state = ends(state)  # Peter, upstairs: nothing to try
    assert not any("Try to free" in label for label in labels(state))
    state = ends(state)  # Ox
    self_try = f"Try to break free of the {content.card(card).name} (Might 4+)"
    assert labels(state) == [self_try, "End turn"]
    dice.extend([1, 1, 1, 0, 0])  # Ox: 3
    state, events = apply(state, "act", what=f"{card}-self")
    assert said(events, "2 of 3 tries failed") and state.explorers[OX].lasting == [card]
    assert labels(state) == ["End turn"]
    state = ends(state)
    dice.extend([0, 0, 0])  # Missy fails again: the third
    state, events = apply(state, "act", what=offer)
    assert said(events, "After 3 failed tries, Ox Bellows works free")
    assert state.explorers[OX].lasting == [] and card in state.discards["event"]
    assert not state.explorers[OX].flags


@pytest.mark.parametrize("card", HELD)
def test_the_held_breaks_free_on_a_later_turn(dice, card: str) -> None:  # type: ignore[no-untyped-def]
    state = caught(dice, card)
    at(state, MISSY, "upper_landing")
    state = ends(ends(ends(state)))  # Ox, Missy, Peter: back to Ox
    assert not any("Try to free" in label for label in labels(state, OX))
    dice.extend([2, 2, 0, 0, 0])
    state, _ = apply(state, "act", what=f"{card}-self")
    assert state.explorers[OX].lasting == [] and not dice
    assert "Move west to the Foyer" in labels(state)  # the rest of the turn is its own
    assert "Use the Mystic Coin" in labels(state)


@pytest.mark.parametrize("card", HELD)
def test_no_rescue_from_another_room(dice, card: str) -> None:  # type: ignore[no-untyped-def]
    state = ends(caught(dice, card))
    at(state, MISSY, "foyer")
    assert not any("Try to free" in label for label in labels(state))
    at(state, MISSY, "entrance_hall")
    assert any("Try to free" in label for label in labels(state))


@pytest.mark.parametrize("card", HELD)
def test_a_rescuer_must_stand_on_the_same_side_of_a_split_room(dice, card: str) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    put(state, "tower", "upper", 1, 0)  # doors E W: W meets the Upper Landing
    at(state, OX, "tower", "W")
    at(state, MISSY, "tower", "E")
    at(state, PETER, "upper_landing")
    dice.extend([0] * 5 if card == "webs" else [0] * 4 + [0, 0])
    state, _ = draw(state, card)
    state = ends(state)
    assert state.turn.seat == MISSY
    assert not any("Try to free" in label for label in labels(state))
    state.explorers[MISSY].side = "W"
    assert any("Try to free" in label for label in labels(state))


@pytest.mark.parametrize("card", HELD)
def test_the_hold_follows_its_explorer_when_a_card_moves_it(dice, card: str) -> None:  # type: ignore[no-untyped-def]
    state = ends(caught(dice, card))  # Missy's turn; the token lies in the Entrance Hall
    state, _ = run_steps(state, [{"move": {"to": "foyer"}}], OX)  # a card carries Ox off
    assert [t["kind"] for t in state.at(OX).tokens] == [card]
    assert not state.tiles[tile(state, "entrance_hall")].tokens
    assert state.explorers[OX].lasting == [card]  # still held
    assert not any("Try to free" in label for label in labels(state))
    at(state, MISSY, "foyer")
    assert any("Try to free" in label for label in labels(state))


def _options(state: BetrayalState) -> list[Any]:
    from bot.games.betrayal import GAME

    seat = GAME.to_act(state)
    assert seat is not None
    return GAME.options(state, seat)


# ---------------------------------------------------------------- Disquieting Sounds

@pytest.mark.parametrize(("omens", "total", "gain"), [
    (2, 2, True), (2, 1, False), (2, 3, False), (0, 0, True), (0, 1, False), (5, 6, False),
    (5, 5, True)])
def test_disquieting_sounds_equal_to_the_omens(dice, omens: int, total: int,  # type: ignore[no-untyped-def]
                                               gain: bool) -> None:
    state = new_game()
    state.omens_drawn = omens
    pin(state, OX, "knowledge")
    before = idx(state, OX)["sanity"]
    dice.extend(faces(total, 6))
    if not gain:
        dice.append(1)  # 1 die of mental damage
    state, events = draw(state, "disquieting_sounds")
    assert not dice and [len(d) for d in rolled(events, "Ox Bellows", "6 dice")] == [6]
    assert idx(state, OX)["sanity"] == before + (1 if gain else -1)


# ---------------------------------------------------------------- Drip...Drip...Drip...

def test_drip_takes_a_die_from_trait_rolls_here(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    state, _ = draw(state, "drip_drip_drip")
    assert [t["kind"] for t in state.at(OX).tokens] == ["drip"]
    _, events = run_steps(state, [{"roll": {"trait": "might", "outcomes": []}}])
    assert [len(d) for d in rolled(events, "Ox Bellows", "Might")] == [4]
    pin(state, MISSY, "sanity")  # Missy's lowest Sanity is 1: still 1 die
    _, events = run_steps(state, [{"roll": {"trait": "sanity", "outcomes": []}}], MISSY)
    assert [len(d) for d in rolled(events, "Missy Dubourde", "Sanity")] == [1]
    dice.extend([0, 0, 0, 0])
    _, events = run_steps(state, [{"attack": {"trait": "might", "dice": 4}}])
    assert [len(d) for d in rolled(events, "Ox Bellows", "Might")] == [5]


# ---------------------------------------------------------------- Footsteps

def crypt_house(state: BetrayalState) -> None:
    """A Crypt west of the Basement Landing, joined by a door."""
    put(state, "crypt", "basement", -1, 0)  # doors N E: E meets the Landing


@pytest.mark.parametrize(("face", "trait", "change"), [(2, "sanity", -1), (1, "speed", -1)])
def test_footsteps_one_die(dice, face: int, trait: str, change: int) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    before = [idx(state, s) for s in (OX, MISSY, PETER)]
    dice.append(face)
    state, events = draw(state, "footsteps")
    assert not dice and [len(d) for d in rolled(events, "Ox Bellows", "1 dice")] == [1]
    assert idx(state, OX)[trait] == before[0][trait] + change
    assert [idx(state, s) for s in (MISSY, PETER)] == before[1:]


def test_footsteps_zero_everyone_picks_a_trait(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    before = [idx(state, s) for s in (OX, MISSY, PETER)]
    dice.append(0)
    state, _ = draw(state, "footsteps")
    picks = {OX: "Might", MISSY: "Knowledge", PETER: "Speed"}
    for seat in (OX, MISSY, PETER):  # the drawer first, then clockwise
        assert state.pending and state.pending.seat == seat
        assert state.pending.kind == "trait_pick" and len(state.pending.labels) == 4
        state, _ = choose(state, picks[seat])
    assert state.pending is None
    for seat, trait in picks.items():
        assert idx(state, seat)[trait.lower()] == before[seat][trait.lower()] - 1


@pytest.mark.parametrize(("roll", "ox_might", "missy"), [
    ([2, 2], 1, ("might", 1)), ([2, 1], 1, ("sanity", -1))])
def test_footsteps_in_the_crypt_reach_the_nearest(dice, roll: list[int], ox_might: int,  # type: ignore[no-untyped-def]
                                                  missy: tuple[str, int]) -> None:
    state = new_game()
    crypt_house(state)
    at(state, OX, "crypt")
    at(state, MISSY, "basement_landing")  # one move away; Peter far off upstairs
    at(state, PETER, "upper_landing")
    before = [idx(state, s) for s in (OX, MISSY, PETER)]
    dice.extend(roll)
    state, events = draw(state, "footsteps")
    assert not dice and [len(d) for d in rolled(events, "Ox Bellows", "2 dice")] == [2]
    assert idx(state, OX)["might"] == before[0]["might"] + ox_might
    assert idx(state, MISSY)[missy[0]] == before[1][missy[0]] + missy[1]
    assert idx(state, PETER) == before[2]


def test_footsteps_the_same_room_is_nearest_and_ties_are_the_drawers(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    crypt_house(state)
    at(state, OX, "crypt")
    at(state, PETER, "crypt")
    at(state, MISSY, "basement_landing")
    peter = idx(state, PETER)["might"]
    dice.extend([2, 2])
    state, _ = draw(state, "footsteps")
    assert idx(state, PETER)["might"] == peter + 1 and state.pending is None
    state = new_game()
    crypt_house(state)
    at(state, OX, "crypt")
    at(state, MISSY, "basement_landing")
    at(state, PETER, "basement_landing")
    dice.extend([2, 2])
    state, _ = draw(state, "footsteps")
    assert state.pending and state.pending.seat == OX and state.pending.kind == "footsteps_near"
    assert state.pending.labels == ["Missy Dubourde", "Peter Akimoto"]
    missy = idx(state, MISSY)["might"]
    state, _ = choose(state, "Missy")
    assert idx(state, MISSY)["might"] == missy + 1


def test_footsteps_two_with_two_dice_in_the_crypt(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    crypt_house(state)
    at(state, OX, "crypt")
    sanity = idx(state, OX)["sanity"]
    dice.extend([1, 1])
    state, _ = draw(state, "footsteps")
    assert idx(state, OX)["sanity"] == sanity - 1 and not dice


# ---------------------------------------------------------------- Funeral

@pytest.mark.parametrize(("total", "sanity"), [(6, 1), (4, 1), (3, -1), (2, -1)])
def test_funeral_bands(dice, total: int, sanity: int) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    crypt_house(state)
    before = idx(state, OX)
    dice.extend(faces(total, 3))
    state, _ = draw(state, "funeral")
    assert not dice and idx(state, OX)["sanity"] == before["sanity"] + sanity
    assert idx(state, OX)["might"] == before["might"]
    assert state.explorers[OX].tile == tile(state, "entrance_hall")


@pytest.mark.parametrize(("rooms", "lands"), [
    ((), "entrance_hall"), (("crypt",), "crypt"), (("graveyard",), "graveyard")])
def test_funeral_climbs_out_where_it_can(dice, rooms: tuple[str, ...],  # type: ignore[no-untyped-def]
                                         lands: str) -> None:
    state = new_game()
    if "crypt" in rooms:
        crypt_house(state)
    if "graveyard" in rooms:
        put(state, "graveyard", "ground", 0, -1, rotation=0)
    before = idx(state, OX)
    dice.extend([1, 0, 0])
    state, _ = draw(state, "funeral")
    assert state.pending is None and not dice
    assert idx(state, OX)["might"] == before["might"] - 1
    assert idx(state, OX)["sanity"] == before["sanity"] - 1
    assert state.explorers[OX].tile == tile(state, lands)


def test_funeral_with_both_rooms_the_explorer_picks(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    crypt_house(state)
    put(state, "graveyard", "ground", 0, -1)
    dice.extend([0, 0, 0])
    state, _ = draw(state, "funeral")
    assert state.pending and state.pending.seat == OX and state.pending.kind == "tile_pick"
    assert sorted(state.pending.labels) == ["Crypt", "Graveyard"]
    state, _ = choose(state, "Graveyard")
    assert state.explorers[OX].tile == tile(state, "graveyard")


# ---------------------------------------------------------------- Grave Dirt

@pytest.mark.parametrize(("total", "might", "kept"), [(10, 1, False), (4, 1, False),
                                                     (3, 0, True), (0, 0, True)])
def test_grave_dirt_bands(dice, total: int, might: int, kept: bool) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    before = idx(state, OX)["might"]
    dice.extend(faces(total, 5))
    state, _ = draw(state, "grave_dirt")
    assert not dice and idx(state, OX)["might"] == before + might
    assert (state.explorers[OX].lasting == ["grave_dirt"]) == kept


def dirty(dice: list[int]) -> BetrayalState:
    state = new_game()
    pin(state, OX, "speed")  # its physical damage goes to Might
    dice.extend([0] * 5)
    state, _ = draw(state, "grave_dirt")
    assert state.explorers[OX].lasting == ["grave_dirt"]
    return state


def test_grave_dirt_hurts_as_each_turn_starts(dice) -> None:  # type: ignore[no-untyped-def]
    state = dirty(dice)
    might = idx(state, OX)["might"]
    state = ends(state)  # Ox ends in the Entrance Hall: kept, no harm yet
    assert idx(state, OX)["might"] == might and state.explorers[OX].lasting == ["grave_dirt"]
    state = ends(ends(state))  # Missy, Peter: Ox's turn starts
    assert state.turn.seat == OX and idx(state, OX)["might"] == might - 1
    state = ends(ends(ends(state)))
    assert idx(state, OX)["might"] == max(0, might - 2)
    assert idx(state, MISSY)["might"] == new_game().explorers[MISSY].traits["might"]


@pytest.mark.parametrize(("room", "floor"), [
    ("balcony", "upper"), ("gardens", "ground"), ("graveyard", "ground"),
    ("gymnasium", "upper"), ("larder", "basement"), ("patio", "ground"), ("tower", "upper")])
def test_grave_dirt_ends_in_the_open_rooms(dice, room: str, floor: str) -> None:  # type: ignore[no-untyped-def]
    state = dirty(dice)
    put(state, room, floor, 5, 5)
    at(state, OX, room, "W" if room == "tower" else None)
    assert state.explorers[OX].lasting == ["grave_dirt"]  # only once the turn ends there
    state = ends(state)
    assert state.explorers[OX].lasting == [] and "grave_dirt" in state.discards["event"]
    might = idx(state, OX)["might"]
    state = ends(ends(state))
    assert idx(state, OX)["might"] == might  # no more harm


def test_grave_dirt_stays_elsewhere(dice) -> None:  # type: ignore[no-untyped-def]
    state = dirty(dice)
    put(state, "kitchen", "ground", 5, 5)
    at(state, OX, "kitchen")
    state = ends(state)
    assert state.explorers[OX].lasting == ["grave_dirt"]


# ---------------------------------------------------------------- Groundskeeper

@pytest.mark.parametrize(("total", "item"), [(6, True), (4, True), (3, False), (2, False),
                                             (1, False), (0, False)])
def test_groundskeeper(dice, total: int, item: bool) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    pin(state, OX, "speed")
    might = idx(state, OX)["might"]
    deck_top(state, "item", "bottle")
    dice.extend(faces(total, 3))  # Knowledge 3
    if not item:
        dice.extend([2, 2, 1, 0, 1, 0, 0, 0, 0])  # the gardener 5, then Ox's Might 1
    state, events = draw(state, "groundskeeper")
    assert not dice and state.pending is None
    assert ("bottle" in state.explorers[OX].cards) == item
    assert idx(state, OX)["might"] == (might if item else max(0, might - 4))
    assert said(events, "attacks Ox Bellows: 4 dice against Might") == (not item)


def test_groundskeeper_two_dice_fewer_in_the_gardens(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    put(state, "gardens", "ground", 0, -1)
    at(state, OX, "gardens")
    at(state, MISSY, "gardens")
    deck_top(state, "item", "bottle")
    dice.extend([2])  # 1 die (3 - 2): a 2 brings the attack
    dice.extend([0, 0, 0, 0] + [0] * 5)
    state, events = draw(state, "groundskeeper")
    assert [len(d) for d in rolled(events, "Ox Bellows", "Knowledge")] == [1] and not dice
    deck_top(state, "item", "rope")
    dice.extend([2, 2])  # Missy: Knowledge 4, 2 dice: 4 finds an item
    state, events = draw(state, "groundskeeper", MISSY)
    assert [len(d) for d in rolled(events, "Missy Dubourde", "Knowledge")] == [2]
    assert "rope" in state.explorers[MISSY].cards
    state.explorers[OX].traits["knowledge"] = 0  # Knowledge 2: still 1 die
    dice.extend([2, 0, 0, 0, 0, 2, 2, 2, 2, 2])  # 2: the gardener 0, Ox 10
    _, events = draw(state, "groundskeeper")
    assert [len(d) for d in rolled(events, "Ox Bellows", "Knowledge")] == [1]


# ---------------------------------------------------------------- Hanged Men

def hanged(state: BetrayalState, totals: dict[str, int], dice: list[int]
           ) -> tuple[BetrayalState, list[str]]:
    for trait in TRAIT_NAMES:  # the card's order: Speed, Might, Sanity, Knowledge
        dice.extend(faces(totals[trait], {"speed": 4, "might": 5, "sanity": 3,
                                          "knowledge": 3}[trait]))
    return draw(state, "hanged_men")


def test_hanged_men_all_firm_gains_a_trait_of_choice(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    before = idx(state, OX)
    state, _ = hanged(state, {t: 2 for t in TRAIT_NAMES}, dice)
    assert not dice and idx(state, OX) == before
    assert state.pending and state.pending.seat == OX and state.pending.kind == "trait_pick"
    assert len(state.pending.labels) == 4
    state, _ = choose(state, "Knowledge")
    assert idx(state, OX) == {**before, "knowledge": before["knowledge"] + 1}


@pytest.mark.parametrize("failed", TRAIT_NAMES)
@pytest.mark.parametrize("total", [1, 0])
def test_hanged_men_a_low_roll_loses_that_trait(dice, failed: str, total: int) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    before = idx(state, OX)
    totals = {t: 4 for t in TRAIT_NAMES}
    totals[failed] = total
    state, _ = hanged(state, totals, dice)
    assert not dice and state.pending is None  # no bonus
    assert idx(state, OX) == {**before, failed: before[failed] - 1}


# ---------------------------------------------------------------- Hideous Shriek

@pytest.mark.parametrize(("total", "damage_dice"), [(6, []), (4, []), (3, [1]), (1, [2]),
                                                    (0, [2, 1])])
def test_hideous_shriek_bands(dice, total: int, damage_dice: list[int]) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    pin(state, OX, "knowledge")
    alone(state)
    sanity = idx(state, OX)["sanity"]
    dice.extend(faces(total, 3) + damage_dice)
    dice.extend([2] * 3 + [2] * 4)  # Missy and Peter hold firm
    state, _ = draw(state, "hideous_shriek")
    assert not dice and state.pending is None
    assert idx(state, OX)["sanity"] == max(0, sanity - sum(damage_dice))


def test_hideous_shriek_everyone_rolls_and_bears_their_own(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    at(state, PETER, "upper_landing")  # wherever they are
    for seat in (OX, MISSY, PETER):
        pin(state, seat, "knowledge")
    before = [idx(state, s) for s in (OX, MISSY, PETER)]
    dice.extend([2, 2, 0])  # Ox: 4, nothing
    dice.extend([1, 1, 1, 2])  # Missy: 3, then 1 die: 2
    dice.extend([0, 0, 0, 0, 2, 1])  # Peter: 0, then 2 dice: 3
    state, events = draw(state, "hideous_shriek")
    assert not dice and state.pending is None
    assert [rolled(events, who, "Sanity") for who in
            ("Ox Bellows", "Missy Dubourde", "Peter Akimoto")] == \
        [[[2, 2, 0]], [[1, 1, 1]], [[0, 0, 0, 0]]]  # the drawer first, then clockwise
    assert idx(state, OX) == before[0]
    assert idx(state, MISSY)["sanity"] == before[1]["sanity"] - 2
    assert idx(state, PETER)["sanity"] == max(0, before[2]["sanity"] - 3)


def test_hideous_shriek_each_splits_their_own_damage(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    dice.extend([2, 2, 0, 1, 1, 1, 1])  # Ox: 4, nothing; Missy: 3, then 1 die: 1
    state, _ = draw(state, "hideous_shriek")
    assert state.pending and state.pending.seat == MISSY and "1 mental" in state.pending.prompt
    dice.extend([2, 2, 0, 0])  # Peter: 4, nothing
    state, _ = choose(state, "Knowledge")
    assert state.pending is None and not dice


# ---------------------------------------------------------------- Image in the Mirror

def test_image_in_the_mirror_sends_an_item_back(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    hold(state, OX, "bottle", "rope", "crystal_ball")  # an omen is not an item card
    knowledge = idx(state, OX)["knowledge"]
    state, _ = draw(state, "image_in_the_mirror_forward")
    assert state.pending and state.pending.seat == OX and state.pending.kind == "mirror_item"
    assert state.pending.labels == ["Bottle", "Rope"]
    state, _ = choose(state, "Rope")
    assert state.explorers[OX].cards == ["bottle", "crystal_ball"]
    assert "rope" in state.decks["item"] and idx(state, OX)["knowledge"] == knowledge + 1
    assert "image_in_the_mirror_forward" in state.discards["event"]


def test_image_in_the_mirror_passes_left_to_an_item_holder() -> None:
    state = new_game()
    hold(state, OX, "crystal_ball")
    hold(state, PETER, "bottle")
    before = [idx(state, s) for s in (OX, MISSY, PETER)]
    state, events = draw(state, "image_in_the_mirror_forward")
    assert said(events, "the mirror turns to Peter Akimoto") and state.pending is None
    assert state.explorers[PETER].cards == [] and "bottle" in state.decks["item"]
    assert idx(state, PETER)["knowledge"] == before[2]["knowledge"] + 1
    assert [idx(state, s) for s in (OX, MISSY)] == before[:2]
    state = new_game()
    hold(state, MISSY, "bottle", "rope")
    state, _ = draw(state, "image_in_the_mirror_forward", PETER)  # Peter's left: Ox, then Missy
    assert state.pending and state.pending.seat == MISSY


def test_image_in_the_mirror_with_no_items_is_discarded() -> None:
    state = new_game()
    hold(state, MISSY, "crystal_ball")
    before = [idx(state, s) for s in (OX, MISSY, PETER)]
    state, events = draw(state, "image_in_the_mirror_forward")
    assert said(events, "goes dark") and state.pending is None
    assert [idx(state, s) for s in (OX, MISSY, PETER)] == before
    assert "image_in_the_mirror_forward" in state.discards["event"]


def test_image_in_the_mirror_reversed_gives_an_item() -> None:
    state = new_game()
    deck_top(state, "item", "rope")
    state, _ = draw(state, "image_in_the_mirror_reversed")
    assert state.explorers[OX].cards == ["rope"]


# ---------------------------------------------------------------- It is meant to be

def test_it_is_meant_to_be_reorders_the_top_three() -> None:
    state = new_game()
    deck_top(state, "omen", "bite", "book", "dog")
    state, _ = draw(state, "it_is_meant_to_be")
    assert state.pending and state.pending.seat == OX and len(state.pending.labels) == 5
    state, _ = choose(state, "omen deck")
    assert state.pending and len(state.pending.labels) == 6  # every order of the three
    state, _ = choose(state, "Dog, Book, Bite")
    assert state.decks["omen"][:3] == ["dog", "book", "bite"]
    state = new_game()
    top = state.stack[:3]
    state, _ = draw(state, "it_is_meant_to_be")
    state, _ = choose(state, "room stack")
    state, _ = choose(state, len(state.pending.labels) - 1)
    assert state.stack[:3] == top[::-1]


def test_it_is_meant_to_be_keeps_a_roll_for_once_later(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    state, _ = draw(state, "it_is_meant_to_be")
    dice.extend([2, 2, 1, 0])
    state, _ = choose(state, "Roll 4 dice")
    roll = [{"roll": {"trait": "might", "outcomes": [
        {"min": 5, "do": [{"gain": {"trait": "sanity", "amount": 1}}]}, {"max": 4, "do": []}]}}]
    state, _ = run_steps(state, roll)
    assert state.pending and "Use your foreseen roll: 5" in state.pending.labels
    sanity = idx(state, OX)["sanity"]
    state, _ = choose(state, "foreseen")
    assert idx(state, OX)["sanity"] == sanity + 1 and not state.explorers[OX].flags
    dice.extend([0] * 5)
    again, _ = run_steps(state, roll)  # used once: the next roll is rolled
    assert again.pending is None and not dice and idx(again, OX)["sanity"] == sanity + 1


# ---------------------------------------------------------------- Jonah's Turn

def test_jonahs_turn_trades_the_box_and_the_monkey(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    hold(state, OX, "puzzle_box", "toy_monkey", "axe")
    before = idx(state, OX)
    deck_top(state, "item", "bottle", "rope")
    state, _ = draw(state, "jonahs_turn")
    assert state.pending is None and state.explorers[OX].cards == ["axe", "bottle", "rope"]
    assert {"puzzle_box", "toy_monkey"} <= set(state.discards["item"])
    after = idx(state, OX)
    assert after["sanity"] == before["sanity"] + 2
    assert after["speed"] == before["speed"] - 1  # the monkey's own loss as it leaves
    assert after["knowledge"] == before["knowledge"] - 1


def test_jonahs_turn_one_card_one_item(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    hold(state, OX, "puzzle_box")
    before = idx(state, OX)
    deck_top(state, "item", "bottle", "rope")
    state, _ = draw(state, "jonahs_turn")
    assert state.explorers[OX].cards == ["bottle"]
    assert idx(state, OX) == {**before, "sanity": before["sanity"] + 1}


def test_jonahs_turn_holding_neither_hurts(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    pin(state, OX, "knowledge")
    hold(state, MISSY, "toy_monkey")  # someone else's monkey does not count
    sanity = idx(state, OX)["sanity"]
    dice.append(1)
    state, _ = draw(state, "jonahs_turn")
    assert idx(state, OX)["sanity"] == sanity - 1 and not dice
    assert "toy_monkey" in state.explorers[MISSY].cards


# ---------------------------------------------------------------- Lights Out

def dark(state: BetrayalState | None = None) -> BetrayalState:
    state, events = draw(state or new_game(), "lights_out")
    assert state.explorers[OX].lasting == ["lights_out"] and said(events, "keeps Lights Out")
    return state


def moves(state: BetrayalState) -> list[str]:
    return [label for label in labels(state) if label.startswith(("Move", "Explore"))]


def test_lights_out_one_room_a_turn() -> None:
    state = dark()
    at(state, MISSY, "upper_landing")
    at(state, PETER, "upper_landing")
    state, _ = apply(state, "move", dir="W")
    assert state.explorers[OX].tile == tile(state, "foyer") and moves(state) == []
    state = ends(state)  # alone in the Foyer: kept
    assert state.explorers[OX].lasting == ["lights_out"]
    state = ends(ends(state))
    state, _ = apply(state, "move", dir="W")
    assert moves(state) == [] and state.explorers[OX].lasting == ["lights_out"]


def test_lights_out_ends_with_company_at_the_end_of_the_turn() -> None:
    state = dark()  # Missy and Peter in the Entrance Hall too
    assert state.explorers[OX].lasting == ["lights_out"]  # not before the turn ends
    state = ends(state)
    assert state.explorers[OX].lasting == [] and "lights_out" in state.discards["event"]
    state = ends(ends(state))
    state, _ = apply(state, "move", dir="W")
    assert moves(state)  # free to go on


def test_lights_out_ends_in_the_furnace_room() -> None:
    state = new_game()
    put(state, "furnace_room", "basement", 5, 5)
    at(state, OX, "furnace_room")
    state = dark(state)
    pin(state, OX, "speed")
    state, _ = apply(state, "end_turn")
    assert state.explorers[OX].lasting == [] and "lights_out" in state.discards["event"]


def test_lights_out_ends_at_once_with_the_candle() -> None:
    state = dark()
    at(state, MISSY, "upper_landing")
    at(state, PETER, "upper_landing")
    state.decks["item"].remove("candle")
    state.at(OX).items.append("candle")
    state, events = apply(state, "pickup", card="candle")
    assert state.explorers[OX].lasting == [] and said(events, "rid of the Lights Out")
    state, _ = apply(state, "move", dir="W")
    assert moves(state)


def test_lights_out_drawn_while_holding_the_candle_has_no_hold() -> None:
    state = new_game()
    hold(state, OX, "candle")
    alone(state)
    state = dark(state)
    state, _ = apply(state, "move", dir="W")
    assert moves(state)  # the Candle lights the way
    state = ends(state)
    assert state.explorers[OX].lasting == [] and "lights_out" in state.discards["event"]


# ---------------------------------------------------------------- Locked Safe

@pytest.mark.parametrize(("roll", "items", "damage_dice", "token_stays"), [
    ([2, 2, 2], 2, [], False), ([2, 2, 1], 2, [], False), ([2, 2, 0], 0, [1], True),
    ([1, 1, 0], 0, [2], True), ([1, 0, 0], 0, [1, 1], True), ([0, 0, 0], 0, [2, 0], True)])
def test_locked_safe(dice, roll: list[int], items: int, damage_dice: list[int],  # type: ignore[no-untyped-def]
                     token_stays: bool) -> None:
    state = new_game()
    state, _ = draw(state, "locked_safe")
    here = tile(state, "entrance_hall")
    assert [t["kind"] for t in state.tiles[here].tokens] == ["safe"]
    pin(state, OX, "speed")
    might = idx(state, OX)["might"]
    deck_top(state, "item", "bottle", "rope")
    dice.extend(roll + damage_dice)
    state, _ = apply(state, "act", what="locked_safe-0")
    assert not dice and state.pending is None
    assert len(state.explorers[OX].cards) == items
    assert idx(state, OX)["might"] == max(0, might - sum(damage_dice))
    assert bool(state.tiles[here].tokens) == token_stays


def test_locked_safe_opens_to_the_skeleton_key() -> None:
    state = new_game()
    hold(state, OX, "skeleton_key")
    state, _ = draw(state, "locked_safe")
    deck_top(state, "item", "bottle", "rope")
    state, events = apply(state, "act", what="locked_safe-0-key")
    assert state.explorers[OX].cards == ["skeleton_key", "bottle", "rope"]
    assert not any(" rolls " in e for e in events) and not state.at(OX).tokens


# ---------------------------------------------------------------- the Toy Monkey

def monkey_house(*others: int) -> BetrayalState:
    """Ox, holding the Toy Monkey, in the Foyer; `others` in the Entrance Hall."""
    state = new_game()
    hold(state, OX, "toy_monkey")
    at(state, OX, "foyer")
    for seat in (MISSY, PETER):
        at(state, seat, "entrance_hall" if seat in others else "upper_landing")
    return state


def test_toy_monkey_claps(dice) -> None:  # type: ignore[no-untyped-def]
    state = monkey_house(MISSY)
    before = [idx(state, s) for s in (OX, MISSY)]
    for roll in ([2, 2], [2, 1]):
        dice.extend(roll)
        after, events = apply(state, "move", dir="E")
        assert not dice and said(events, "claps") and after.pending is None
        assert [idx(after, s) for s in (OX, MISSY)] == before


def test_toy_monkey_attacks_someone_here(dice) -> None:  # type: ignore[no-untyped-def]
    state = monkey_house(MISSY)
    pin(state, MISSY, "might")
    speed = idx(state, MISSY)["speed"]
    for roll in ([1, 1], [1, 0]):
        dice.extend(roll + [2, 1, 0] + [0] * 5)  # the monkey: 3; Missy's Speed 5 dice: 0
        after, events = apply(state, "move", dir="E")
        assert not dice and said(events, "The Toy Monkey attacks Missy Dubourde: 3 dice "
                                         "against Speed")
        assert idx(after, MISSY)["speed"] == speed - 2  # 3, from index 2 down to the lowest
    dice.extend([1, 0] + [0, 0, 0] + [1] * 5)  # Missy wins: the monkey is not hurt
    after, _ = apply(state, "move", dir="E")
    assert idx(after, OX) == idx(state, OX) and idx(after, MISSY)["speed"] == speed


def test_toy_monkey_picks_among_several(dice) -> None:  # type: ignore[no-untyped-def]
    state = monkey_house(MISSY, PETER)
    dice.extend([1, 0])
    state, _ = apply(state, "move", dir="E")
    assert state.pending and state.pending.seat == OX and state.pending.kind == "monkey_target"
    assert state.pending.labels == ["Missy Dubourde", "Peter Akimoto"]
    dice.extend([0, 0, 0] + [0] * 4)
    state, events = choose(state, "Peter")
    assert said(events, "The Toy Monkey attacks Peter Akimoto") and not dice


def test_toy_monkey_turns_on_its_holder(dice) -> None:  # type: ignore[no-untyped-def]
    state = monkey_house(MISSY)
    pin(state, OX, "might")
    speed = idx(state, OX)["speed"]
    dice.extend([0, 0] + [2, 2, 0] + [0] * 4)  # the monkey: 4 against Ox's Speed 4 dice: 0
    state, events = apply(state, "move", dir="E")
    assert said(events, "The Toy Monkey attacks Ox Bellows") and not dice
    assert idx(state, OX)["speed"] == speed - 4


def test_toy_monkey_once_a_turn_and_only_with_company(dice) -> None:  # type: ignore[no-untyped-def]
    state = monkey_house(MISSY)
    dice.extend([1, 0] + [0, 0, 0] + [0] * 5)
    state, _ = apply(state, "move", dir="E")
    assert not dice
    state, events = apply(state, "move", dir="W")  # the Foyer: no one there, no roll
    assert not rolled(events, "Ox Bellows", "2 dice")
    state, events = apply(state, "move", dir="E")  # company again, but it has attacked
    assert not rolled(events, "Ox Bellows", "2 dice")
    state = ends(ends(ends(state)))  # a new turn: it rolls again
    state, _ = apply(state, "move", dir="W")
    dice.extend([2, 2])
    state, events = apply(state, "move", dir="E")
    assert rolled(events, "Ox Bellows", "2 dice") == [[2, 2]]


# ---------------------------------------------------------------- coverage of the deck

def test_every_event_a_to_l_is_covered_here() -> None:
    """Each event from A to L (by key) has a test above naming it."""
    keys = sorted(k for k in content.get().deck("event") if "a" <= k[0] <= "l")
    assert len(keys) == 22
    source = Path(__file__).read_text(encoding="utf-8")
    for key in keys:
        assert f'"{key}"' in source, key
