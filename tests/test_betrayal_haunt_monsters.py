"""Betrayal haunt: monsters, the order of play and being slowed, as seed 003 gives them
for every haunt (lines 236-238, 300-309, 320-330): each kind rolls its Speed for its
moves (at least 1), heroes in its room slow it (it can always make one room), a stunned
monster only recovers in its next turn and slows no one, monsters never explore, may
climb the Coal Chute, are stunned (or killed, where their haunt says) when hit, carry
nothing and steal nothing; heroes from the traitor's left, then the traitor, then the
monsters; leaving a room with opponents costs 1 more per opponent.

Rigged states (tests/betrayal_haunt_rig.py); `fixed` scripts the dice.
"""

from __future__ import annotations

from bot.games.betrayal import content, explore
from bot.games.betrayal.haunting import monsters, sides
from bot.games.betrayal.haunting.words import haunt_line
from bot.games.betrayal.house import DIRS, through_door
from bot.games.betrayal.state import HEROES, MONSTERS, TRAITOR, BetrayalState
from tests.betrayal_haunt_rig import (
    DARRIN,
    HEROES_IN_ORDER,
    JENNY,
    LONGFELLOW,
    MISSY,
    act,
    choose,
    fixed,
    hold,
    labels,
    place,
    rig_plugin,
    rigged,
    set_trait,
    spawn,
    tile,
)
from tests.test_betrayal_engine_helpers import put

__all__ = ["fixed", "rig_plugin"]


def _monsters_turn(state: BetrayalState, dice: list[int], queue: list[int]) -> BetrayalState:
    """End the traitor's turn (the state is at its start): the monsters' turn begins."""
    assert state.turn.seat == JENNY
    queue.extend(dice)
    state, _ = act(state, "end_turn")
    assert state.haunt is not None and state.haunt.stage == MONSTERS
    return state


def _moves(state: BetrayalState, monster_id: int) -> list[int]:
    return [int(o.action.args["to"]) for o in _options(state)
            if o.action.kind == monsters.M_MOVE and o.action.args["m"] == monster_id]


def _options(state: BetrayalState) -> list:  # type: ignore[type-arg]
    from bot.games.betrayal import GAME

    seat = GAME.to_act(state)
    assert seat is not None
    return GAME.options(state, seat)


def _monster(state: BetrayalState, monster_id: int):  # type: ignore[no-untyped-def]
    found = sides.monster(state, f"m{monster_id}")
    assert found is not None
    return found


# ---------------------------------------------------------------- moves

def test_each_kind_rolls_its_speed_for_its_moves_at_least_one(fixed: list[int]) -> None:
    state = rigged(JENNY)
    brutes = [spawn(state, "brute", "basement_landing").id for _ in range(2)]
    rat = spawn(state, "rat", "basement_landing").id
    state = _monsters_turn(state, [2, 2, 1, 0, 0, 0, 0], fixed)  # Brute: 3 dice; Rat: 4
    assert state.haunt is not None and state.haunt.rolled == {"brute": 5, "rat": 1}
    assert [_monster(state, m).moves for m in brutes] == [5, 5]
    assert _monster(state, rat).moves == 1  # a roll of 0 still moves 1 room


def test_heroes_slow_a_monster_one_room_each(fixed: list[int]) -> None:
    state = rigged(JENNY)
    brute = spawn(state, "brute", "foyer").id
    place(state, "foyer", DARRIN, MISSY)
    state = _monsters_turn(state, [2, 2, 1], fixed)  # 5 moves
    state, _ = act(state, monsters.M_MOVE, m=brute, to=tile(state, "entrance_hall"))
    assert _monster(state, brute).moves == 2  # 1 room + 1 per hero left behind
    state, _ = act(state, monsters.M_MOVE, m=brute, to=tile(state, "foyer"))
    assert _monster(state, brute).moves == 1
    assert not monsters.can_step(state, _monster(state, brute))  # 3 needed to leave again


def test_a_slowed_monster_can_always_make_one_room(fixed: list[int]) -> None:
    state = rigged(JENNY)
    brute = spawn(state, "brute", "foyer").id
    place(state, "foyer", DARRIN, MISSY, LONGFELLOW)
    state = _monsters_turn(state, [1, 0, 0], fixed)  # 1 move; leaving costs 4
    assert tile(state, "entrance_hall") in _moves(state, brute)
    state, _ = act(state, monsters.M_MOVE, m=brute, to=tile(state, "entrance_hall"))
    assert _monster(state, brute).moves == 0 and _moves(state, brute) == []


def test_a_stunned_monster_skips_its_next_turn_and_recovers(fixed: list[int]) -> None:
    state = rigged(JENNY)
    brute = spawn(state, "brute", "foyer")
    brute.stunned = True
    place(state, "foyer", DARRIN)
    fixed.extend([2, 2, 2])
    state, events = act(state, "end_turn")
    assert any("The Brute shakes off its stun" in e for e in events)
    after = _monster(state, brute.id)
    assert not after.stunned and after.skip and after.moves == 0
    # No move, no attack: the monsters' turn ends by itself (docs/rulings.md, Turns 12),
    # and in the next round it slows heroes again.
    assert any("The monsters have nothing left to do" in e for e in events)
    assert state.turn.seat == DARRIN and sides.slowing(state, DARRIN) == 1


def test_a_stunned_monster_does_not_slow_heroes() -> None:
    state = rigged(DARRIN)
    place(state, "foyer", DARRIN)
    brute = spawn(state, "brute", "foyer")
    assert sides.slowing(state, DARRIN) == 1
    brute.stunned = True
    assert sides.slowing(state, DARRIN) == 0


def test_monsters_never_enter_unexplored_space(fixed: list[int]) -> None:
    state = rigged(JENNY)
    room = next(r for r in explore.unplaced(state)
                if len(content.room(r).doors) == 4 and "ground" in content.room(r).floors
                and not content.room(r).custom)
    alone = put(state, room, "ground", 40, 40)  # four doors onto nothing
    assert monsters.neighbours(state, alone) == []
    lost = spawn(state, "brute", room).id
    hall = spawn(state, "brute", "entrance_hall").id
    state = _monsters_turn(state, [2, 2, 2], fixed)
    assert _moves(state, lost) == []
    hall_tile = tile(state, "entrance_hall")
    doors = {t for d in DIRS if (t := through_door(state, hall_tile, d)) is not None}
    assert set(_moves(state, hall)) == doors  # placed rooms only, through doors


def test_monsters_climb_the_coal_chute_from_the_basement_landing(fixed: list[int]) -> None:
    state = rigged(JENNY)
    chute = state.tile_of("coal_chute")
    if chute is None:
        chute = put(state, "coal_chute", "ground", 40, 42)
    rat = spawn(state, "rat", "basement_landing").id
    state = _monsters_turn(state, [1, 0, 0, 0], fixed)
    assert chute in _moves(state, rat)
    state, events = act(state, monsters.M_MOVE, m=rat, to=chute)
    assert "The Rat moves from the Basement Landing to the Coal Chute." in events
    # Its one move spent, the monsters' turn ends by itself (docs/rulings.md, Turns 12),
    # and the Rat slides back down: no one stays in the chute as a turn ends.
    assert any("The monsters have nothing left to do" in e for e in events)
    assert _monster(state, rat).tile == tile(state, "basement_landing")
    assert tile(state, "basement_landing") in monsters.neighbours(state, chute)  # and down


def test_a_monster_left_in_the_coal_chute_slides_down_as_the_monsters_turn_ends(
        fixed: list[int]) -> None:
    """Seed 003, Coal Chute: 回合完結時，任何人物/怪物皆不可停留在煤導槽 (at the end of a
    turn no explorer or monster may stay in the Coal Chute): it slides down to the
    Basement Landing, as an explorer does, and the table is told."""
    state = rigged(JENNY)
    chute = state.tile_of("coal_chute")
    if chute is None:
        chute = put(state, "coal_chute", "ground", 40, 42)
    landing = tile(state, "basement_landing")
    rat = spawn(state, "rat", "basement_landing").id
    stays = spawn(state, "brute", "foyer").id
    state = _monsters_turn(state, [1, 0, 0, 0, 0, 0, 0], fixed)
    state, _ = act(state, monsters.M_MOVE, m=rat, to=chute)
    state, events = act(state, monsters.M_END)
    assert _monster(state, rat).tile == landing
    assert _monster(state, stays).tile == tile(state, "foyer")
    said = haunt_line("events.monster_slides", monster="Rat",
                      source=content.room("coal_chute").name,
                      target=content.room("basement_landing").name)
    assert said in events
    assert events.index(said) < events.index(haunt_line("events.monsters_done"))


# ---------------------------------------------------------------- fights

def test_a_monster_hit_is_stunned_or_killed_where_its_haunt_says(fixed: list[int]) -> None:
    state = rigged(DARRIN)
    place(state, "foyer", DARRIN)
    set_trait(state, DARRIN, "might", 4)
    brute = spawn(state, "brute", "foyer").id
    fixed.extend([2, 2, 2, 2] + [0] * 5)
    state, events = act(state, "attack", target=f"m{brute}", trait="might")
    assert _monster(state, brute).stunned and state.pending is None
    state = rigged(DARRIN)
    place(state, "foyer", DARRIN)
    set_trait(state, DARRIN, "might", 4)
    rat = spawn(state, "rat", "foyer").id  # on_hit: kill
    fixed.extend([2, 2, 2, 2] + [0] * 2)
    state, events = act(state, "attack", target=f"m{rat}", trait="might")
    assert sides.monster(state, f"m{rat}") is None and sides.monsters(state) == []
    assert any("The Rat is destroyed" in e for e in events)


def test_monsters_carry_nothing_and_steal_nothing(fixed: list[int]) -> None:
    state = rigged(JENNY)
    brute = spawn(state, "brute", "foyer").id
    place(state, "foyer", DARRIN)
    set_trait(state, DARRIN, "might", 4)
    hold(state, DARRIN, "axe", "spear")
    state = _monsters_turn(state, [0, 0, 0], fixed)
    fixed.extend([2, 2, 2, 2, 2, 0, 0, 0, 0])  # the Brute's 10 against Darrin's 0
    state, events = act(state, monsters.M_ATTACK, m=brute, target=DARRIN)
    assert any("The Brute attacks" in e for e in events)
    pending = state.pending
    assert pending is not None and pending.seat == DARRIN and pending.kind == "damage_split"
    assert state.explorers[DARRIN].cards == ["axe", "spear"]
    assert not hasattr(_monster(state, brute), "cards")


def test_a_hero_who_wins_against_an_attacking_monster_stuns_it(fixed: list[int]) -> None:
    state = rigged(JENNY)
    brute = spawn(state, "brute", "foyer").id
    place(state, "foyer", DARRIN)
    set_trait(state, DARRIN, "might", 4)
    state = _monsters_turn(state, [0, 0, 0], fixed)
    fixed.extend([0] * 5 + [2, 2, 2, 2])
    state, events = act(state, monsters.M_ATTACK, m=brute, target=DARRIN)
    assert _monster(state, brute).stunned and state.pending is None
    # It does no more: the monsters' turn ends by itself (docs/rulings.md, Turns 12).
    assert any("The monsters have nothing left to do" in e for e in events)


# ---------------------------------------------------------------- the order of play

def _turns(state: BetrayalState, count: int) -> list[tuple[str, int]]:
    """End `count` turns (the monsters' too); (stage, seat) of each turn that follows."""
    seen = []
    for _ in range(count):
        kind = monsters.M_END if state.haunt and state.haunt.stage == MONSTERS else "end_turn"
        state, _ = act(state, kind)
        assert state.haunt is not None and state.pending is None
        seen.append((state.haunt.stage, state.turn.seat))
    return seen


def test_heroes_from_the_traitors_left_then_the_traitor_then_the_monsters() -> None:
    state = rigged(DARRIN)
    spawn(state, "brute", "basement_landing")
    assert sides.heroes(state) == HEROES_IN_ORDER
    assert _turns(state, 5) == [(HEROES, MISSY), (HEROES, LONGFELLOW), (TRAITOR, JENNY),
                                (MONSTERS, JENNY), (HEROES, DARRIN)]


def test_a_new_round_after_the_monsters(fixed: list[int]) -> None:
    state = rigged(JENNY)
    spawn(state, "brute", "basement_landing")
    assert state.haunt is not None
    number = state.haunt.round
    state = _monsters_turn(state, [1, 1, 1], fixed)
    state, events = act(state, monsters.M_END)
    assert state.haunt is not None and state.haunt.round == number + 1
    assert any(f"Haunt round {number + 1}" in e for e in events)
    assert state.turn.seat == DARRIN


def test_dead_heroes_are_skipped() -> None:
    state = rigged(DARRIN)
    spawn(state, "brute", "basement_landing")
    state.explorers[MISSY].alive = False
    assert _turns(state, 4) == [(HEROES, LONGFELLOW), (TRAITOR, JENNY), (MONSTERS, JENNY),
                                (HEROES, DARRIN)]


def test_no_monsters_no_monsters_turn() -> None:
    state = rigged(LONGFELLOW)
    assert _turns(state, 2) == [(TRAITOR, JENNY), (HEROES, DARRIN)]


# ---------------------------------------------------------------- explorers slowed

def test_leaving_a_room_with_opponents_costs_one_more_each() -> None:
    state = rigged(DARRIN)
    place(state, "foyer", DARRIN, JENNY)
    set_trait(state, DARRIN, "speed", 4)
    spawn(state, "brute", "foyer")
    assert sides.slowing(state, DARRIN) == 2
    state, _ = act(state, "move", dir="E")  # 1 + 2 of Darrin's 4
    assert state.turn.moves == 3 and state.explorers[DARRIN].tile == tile(state, "entrance_hall")
    state, _ = act(state, "move", dir="W")  # the last point: back into the Foyer
    assert state.turn.moves == 4
    assert not any(o.action.kind == "move" for o in _options(state))


def test_an_explorer_can_always_move_one_room() -> None:
    state = rigged(DARRIN)
    place(state, "foyer", DARRIN, JENNY)
    set_trait(state, DARRIN, "speed", 4)
    for _ in range(4):
        spawn(state, "brute", "foyer")
    assert sides.slowing(state, DARRIN) == 5  # 1 + 5 is more than Speed 4
    hold(state, DARRIN, "bottle")  # something left to do: his turn waits for him
    assert any("Move east" in label for label in labels(state))
    state, _ = act(state, "move", dir="E")
    assert state.explorers[DARRIN].tile == tile(state, "entrance_hall")
    assert not any(o.action.kind == "move" for o in _options(state))


def test_the_traitor_is_slowed_by_heroes_not_by_monsters() -> None:
    state = rigged(JENNY)
    place(state, "foyer", JENNY, DARRIN)
    spawn(state, "brute", "foyer")
    assert sides.slowing(state, JENNY) == 1
    state.explorers[DARRIN].tile = tile(state, "entrance_hall")
    assert sides.slowing(state, JENNY) == 0


def test_the_damage_split_waits_for_its_explorer(fixed: list[int]) -> None:
    """A hero hurt in the monsters' turn chooses, then the traitor goes on."""
    state = rigged(JENNY)
    brute = spawn(state, "brute", "foyer").id
    place(state, "foyer", DARRIN)
    set_trait(state, DARRIN, "might", 4)
    state = _monsters_turn(state, [0, 0, 0], fixed)
    fixed.extend([2, 0, 0, 0, 0, 0, 0, 0, 0])  # the Brute's 2 against 0
    state, _ = act(state, monsters.M_ATTACK, m=brute, target=DARRIN)
    assert state.pending is not None and state.pending.seat == DARRIN
    state, _ = choose(state, "All 2 to Speed")
    assert state.pending is None and state.turn.seat == JENNY
    assert state.haunt is not None and state.haunt.stage == MONSTERS
