"""Betrayal cards: the events A to L that make attacks before the haunt (Bloody Vision,
Creepy Puppet; cards/attacks.py) and the Toy Monkey (items.yaml, cards/events_a_to_l.py),
seed 003 lines 627-902.

The helpers and the explorers' starting dice are those of test_betrayal_cards_events_a.
"""

from __future__ import annotations

import pytest

from bot.games.betrayal.cards import attacks, events_a_to_l  # noqa: F401  (they register)
from bot.games.betrayal.state import BetrayalState
from tests.test_betrayal_cards_events_a import (
    draw,
    ends,
    faces,
    idx,
    pin,
    rolled,
    said,
)
from tests.test_betrayal_engine_helpers import (
    MISSY,
    OX,
    PETER,
    apply,
    at,
    choose,
    dice,
    hold,
    new_game,
    put,
    tile,
)

__all__ = ["dice"]


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
