"""Betrayal haunt: the cards that force an attack (the Toy Monkey, seed 003 line 502;
Bloody Vision, line 639) reach monsters too, not only explorers.

Rigged states (tests/betrayal_haunt_rig.py): the brute has Speed 3 and Might 5, the
rat Speed 4 and Might 2, the ghost Speed 2 and no Might. The dice are scripted
(`fixed`) in the order they are rolled.
"""

from __future__ import annotations

import pytest

from bot.games.betrayal.haunting.base import MonsterKind
from bot.games.betrayal.state import BetrayalState
from tests.betrayal_haunt_rig import (
    DARRIN,
    JENNY,
    KINDS,
    act,
    choose,
    fixed,
    hold,
    place,
    rig_plugin,
    rigged,
    set_trait,
    spawn,
    trait,
)
from tests.test_betrayal_cards_events_a import draw, faces, rolled

__all__ = ["fixed", "rig_plugin"]
DARRIN_NAME = 'Darrin "Flash" Williams'


# ---------------------------------------------------------------- the Toy Monkey

def _monkey() -> BetrayalState:
    """Darrin's turn: he holds the Toy Monkey in the Foyer; no one is in the Entrance
    Hall (east of it) but what a test puts there."""
    state = rigged(DARRIN)
    hold(state, DARRIN, "toy_monkey")
    place(state, "foyer", DARRIN)
    return state


def test_toy_monkey_rolls_for_a_monster_and_attacks_it(fixed: list[int]) -> None:
    """當人物進入一個房間，若該房間內尚有其他人物/怪物，則擲骰2顆決定結果。骰數總和是1至2，
    玩具猴即針對一個同室的其他人物/怪物(玩家選擇)，進行一個3點速度Speed的襲擊。

    Entering a room with other explorers or monsters, roll 2 dice; on 1-2 the monkey
    makes a Speed 3 attack on one of them: a monster alone in the room is enough."""
    state = _monkey()
    brute = spawn(state, "brute", "entrance_hall")
    fixed.extend([1, 0, 2, 2, 0, 0, 0, 0])  # 1: it attacks; 4 against the brute's 0
    state, events = act(state, "move", dir="E")
    assert not fixed and state.pending is None
    assert any("The Toy Monkey attacks the Brute: 3 dice against Speed" in e for e in events)
    assert state.monsters[0].id == brute.id and state.monsters[0].stunned


def test_toy_monkey_beaten_by_a_monster_is_not_hurt(fixed: list[int]) -> None:
    """玩具猴不會因被擊敗而損壞。 The monkey is not damaged when it is beaten."""
    state = _monkey()
    spawn(state, "rat", "entrance_hall")
    fixed.extend([1, 1, 0, 0, 0, 2, 2, 2, 2])  # 2: it attacks; 0 against the rat's 8
    state, events = act(state, "move", dir="E")
    assert not fixed and state.pending is None
    assert "toy_monkey" in state.explorers[DARRIN].cards and state.monsters[0].alive
    assert not state.monsters[0].stunned and any("holds off the Toy Monkey" in e
                                                  for e in events)


def test_toy_monkey_kills_a_monster_its_haunt_kills(fixed: list[int]) -> None:
    state = _monkey()
    spawn(state, "rat", "entrance_hall")
    fixed.extend([1, 0, 2, 2, 2, 0, 0, 0, 0])
    state, _ = act(state, "move", dir="E")
    assert not fixed and not state.monsters[0].alive  # the rat's `on_hit: kill`


def test_toy_monkey_picks_among_explorers_and_monsters(fixed: list[int]) -> None:
    state = _monkey()
    place(state, "entrance_hall", JENNY)
    spawn(state, "brute", "entrance_hall")
    fixed.extend([1, 0])
    state, events = act(state, "move", dir="E")
    assert rolled(events, DARRIN_NAME, "2 dice") == [[1, 0]]
    assert state.pending and state.pending.kind == "monkey_target"
    assert state.pending.labels == ["Jenny LeClerc", "Brute"]  # the player's pick
    fixed.extend([2, 2, 0, 0, 0, 0])
    state, events = choose(state, "Brute")
    assert not fixed and state.monsters[0].stunned


def test_toy_monkey_does_nothing_to_a_monster_without_speed(
        fixed, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """玩具猴在面對沒有速度Speed的目標時無效。 It has no effect on a target without Speed:
    the monster sets off the roll, but on 1-2 there is no one to attack (it claps); on
    0 it still turns on its holder."""
    monkeypatch.setitem(KINDS, "statue", MonsterKind("statue", "Statue", {"might": 6},
                                                     "stun", "S"))
    state = _monkey()
    spawn(state, "statue", "entrance_hall")
    fixed.extend([1, 0])
    after, events = act(state, "move", dir="E")
    assert not fixed and after.pending is None and any("claps" in e for e in events)
    assert not after.monsters[0].stunned
    fixed.extend([0, 0] + [0, 0, 0] + [0] * 8)  # 0: it attacks Darrin
    _, events = act(state, "move", dir="E")
    assert any("The Toy Monkey attacks Darrin" in e for e in events)


def test_toy_monkey_with_no_one_nor_monster_does_not_roll(fixed: list[int]) -> None:
    state = _monkey()
    spawn(state, "brute", "grand_staircase")  # elsewhere
    state, events = act(state, "move", dir="E")
    assert state.pending is None and not rolled(events, DARRIN_NAME, "2 dice")


# ---------------------------------------------------------------- Bloody Vision

def _vision(state: BetrayalState, fixed: list[int], *more: int) -> tuple[BetrayalState, list[str]]:
    """Darrin draws Bloody Vision and rolls 1 on Sanity (the attack); then `more`."""
    fixed.extend(faces(1, trait(state, DARRIN, "sanity")))
    fixed.extend(more)
    return draw(state, "bloody_vision", DARRIN)


def _darrin_in_the_foyer() -> BetrayalState:
    state = rigged(DARRIN)
    place(state, "foyer", DARRIN)
    return state


def test_bloody_vision_attacks_a_monster_here(fixed: list[int]) -> None:
    """骰數總和是0至1，人物必須向同房的人物/怪物進行襲擊。

    On 0-1 the explorer must attack an explorer or a monster in its room."""
    state = _darrin_in_the_foyer()
    spawn(state, "brute", "foyer")
    might = trait(state, DARRIN, "might")
    state, events = _vision(state, fixed, *[2] * might, 0, 0, 0, 0, 0)  # the brute's 5: 0
    assert not fixed and state.pending is None
    assert any(f"attacks the Brute with Might ({might} dice)" in e for e in events)
    assert state.monsters[0].stunned and state.turn.flags.get("attacked") is None


def test_bloody_vision_picks_the_lowest_might_monster_or_explorer(fixed: list[int]) -> None:
    """多於一個襲擊目標時，揀選其中力量Might數值最小的: the lowest Might among them all."""
    state = _darrin_in_the_foyer()
    place(state, "foyer", JENNY)
    set_trait(state, JENNY, "might", 3)
    spawn(state, "brute", "foyer")  # Might 5
    spawn(state, "rat", "foyer")  # Might 2: the one struck
    might = trait(state, DARRIN, "might")
    state, events = _vision(state, fixed, *[2] * might, 0, 0)
    assert not fixed and state.pending is None
    assert any("attacks the Rat with Might" in e for e in events)
    assert [m.alive for m in state.monsters] == [True, False]  # the rat's `on_hit: kill`


def test_bloody_vision_ties_between_a_monster_and_an_explorer_are_the_drawers(
        fixed, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    state = _darrin_in_the_foyer()
    place(state, "foyer", JENNY)
    low = trait(state, JENNY, "might")
    monkeypatch.setitem(KINDS, "imp", MonsterKind("imp", "Imp", {"speed": 2, "might": low},
                                                  "stun", "I"))
    spawn(state, "imp", "foyer")  # as strong as Jenny
    spawn(state, "brute", "foyer")  # stronger than both
    state, _ = _vision(state, fixed)
    assert state.pending and state.pending.kind == "vision_target"
    assert state.pending.labels == [f"Jenny LeClerc (Might {low})", f"Imp (Might {low})"]
    might = trait(state, DARRIN, "might")
    fixed.extend([2] * might + [0] * low)
    state, _ = choose(state, 1)
    assert not fixed and state.monsters[0].stunned and not state.monsters[1].stunned


def test_bloody_vision_steps_to_a_monster_one_room_away(fixed: list[int]) -> None:
    """若同房並無其他人物/怪物，則檢視其他接鄰的房間: with no one here, a monster next door
    draws the explorer in."""
    state = _darrin_in_the_foyer()
    hall = spawn(state, "brute", "entrance_hall").tile
    might = trait(state, DARRIN, "might")
    state, events = _vision(state, fixed, *[2] * might, 0, 0, 0, 0, 0)
    assert not fixed and state.explorers[DARRIN].tile == hall
    assert any("lurches into the Entrance Hall" in e for e in events)
    assert state.monsters[0].stunned


def test_bloody_vision_a_monster_without_might_is_no_target(fixed: list[int]) -> None:
    state = _darrin_in_the_foyer()
    spawn(state, "ghost", "foyer")  # Sanity, no Might
    state, events = _vision(state, fixed)
    assert not fixed and state.pending is None
    assert any("no one is near" in e for e in events) and not state.monsters[0].stunned


def test_bloody_vision_on_a_monster_may_take_a_weapon(fixed: list[int]) -> None:
    state = _darrin_in_the_foyer()
    hold(state, DARRIN, "axe")
    spawn(state, "brute", "foyer")
    state, _ = _vision(state, fixed)
    assert state.pending and state.pending.kind == "strike_weapon"
    might = trait(state, DARRIN, "might")
    fixed.extend([2] * (might + 1) + [0] * 5)
    state, events = choose(state, 1)
    assert not fixed and any("with the Axe" in e for e in events)
    assert state.monsters[0].stunned
