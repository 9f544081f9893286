"""Betrayal haunt: attacks and death as seed 003 gives them for every haunt (lines
250-262: Might against Might, the margin hurts, the loser splits its damage, weapons,
the Ring and the Revolver, stealing on 2+; "death": the skull, the dropped cards, the
companions that follow, the dead who take no turns).

Rigged states (tests/betrayal_haunt_rig.py); the dice are scripted (`fixed`): the
attacker's dice first, then the defender's.
"""

from __future__ import annotations

from bot.games.betrayal import effects, traits
from bot.games.betrayal.cards import Cause
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.haunting import combat, flow, sides
from bot.games.betrayal.house import tile_at
from bot.games.betrayal.state import EXPLORE, HEROES, BetrayalState
from tests.betrayal_haunt_rig import (
    DARRIN,
    JENNY,
    LONGFELLOW,
    MISSY,
    act,
    attacks,
    choose,
    fixed,
    hold,
    labels,
    place,
    refusal,
    rig_plugin,
    rigged,
    set_trait,
    spawn,
    tile,
    trait,
)
from tests.test_betrayal_engine_helpers import put

__all__ = ["fixed", "rig_plugin"]


def duel(might_darrin: int = 4, might_jenny: int = 4) -> BetrayalState:
    """Darrin's turn, Darrin and the traitor Jenny in the Foyer."""
    state = rigged(DARRIN)
    place(state, "foyer", DARRIN, JENNY)
    set_trait(state, DARRIN, "might", might_darrin)
    set_trait(state, JENNY, "might", might_jenny)
    return state


def _index(state: BetrayalState, seat: int) -> dict[str, int]:
    return dict(state.explorers[seat].traits)


# ---------------------------------------------------------------- the fight

def test_might_against_might_the_higher_total_hits_by_the_difference(fixed: list[int]) -> None:
    state = duel()
    assert "Attack Jenny LeClerc: Might (4 dice)" in labels(state)
    before = _index(state, JENNY)
    fixed.extend([2, 2, 1, 0, 1, 1, 0, 0])  # Darrin 5, Jenny 2: she is hit for 3
    state, events = act(state, "attack", target=JENNY, trait="might")
    assert any("beats Jenny LeClerc by 3" in e for e in events)
    pending = state.pending
    assert pending is not None and pending.seat == JENNY and pending.kind == "damage_split"
    # One pick, any split but those that take her Might (4, two steps above the skull)
    # to the skull while Speed can take it (seed 003: a death only when unavoidable).
    assert [label.split(" (")[0] for label in pending.labels] == [
        "1 to Might", "All 3 to Speed"]
    state, _ = choose(state, "All 3 to Speed")  # the loser splits its damage as it likes
    after = _index(state, JENNY)
    assert after["speed"] == before["speed"] - 3 and after["might"] == before["might"]
    assert state.pending is None and state.turn.seat == DARRIN


def test_a_tie_hurts_no_one(fixed: list[int]) -> None:
    state = duel()
    before = [_index(state, s) for s in (DARRIN, JENNY)]
    fixed.extend([1, 1, 0, 0, 2, 0, 0, 0])  # 2 against 2
    state, events = act(state, "attack", target=JENNY, trait="might")
    assert any("evenly matched: no one is hurt" in e for e in events)
    assert state.pending is None
    assert [_index(state, s) for s in (DARRIN, JENNY)] == before


def test_the_attacker_can_lose_and_takes_the_damage(fixed: list[int]) -> None:
    state = duel()
    fixed.extend([0, 0, 0, 1, 2, 2, 2, 0])  # Darrin 1, Jenny 6
    state, events = act(state, "attack", target=JENNY, trait="might")
    assert any("Jenny LeClerc beats Darrin \"Flash\" Williams by 5" in e for e in events)
    assert state.pending is not None and state.pending.seat == DARRIN
    assert state.pending.kind == "damage_split"


def test_the_defender_rolls_its_bare_trait_the_attacker_may_add_a_weapon(fixed: list[int]) -> None:
    state = duel(might_darrin=4)
    hold(state, DARRIN, "axe", "spear", "blood_dagger")
    hold(state, JENNY, "spear")  # no weapon in defence
    set_trait(state, DARRIN, "speed", 6)
    found = labels(state)
    for text in ("Might (4 dice)", "Might (5 dice, with the Axe)",
                 "Might (6 dice, with the Spear)", "Might (7 dice, with the Blood Dagger)"):
        assert f"Attack Jenny LeClerc: {text}" in found
    speed = trait(state, DARRIN, "speed")
    fixed.extend([1] * 7 + [0] * 4)  # 7 dice for Darrin (7), 4 for Jenny (0)
    state, events = act(state, "attack", target=JENNY, trait="might", weapon="blood_dagger")
    assert any("rolls 7 dice: 1 1 1 1 1 1 1 = 7" in e for e in events)
    assert any("Jenny LeClerc rolls Might: 0 0 0 0 = 0" in e for e in events)
    assert trait(state, DARRIN, "speed") < speed  # the Blood Dagger's price: 1 Speed


def test_weapon_dice_stop_at_eight(fixed: list[int]) -> None:
    state = duel(might_darrin=7)
    hold(state, DARRIN, "spear")
    assert "Attack Jenny LeClerc: Might (8 dice, with the Spear)" in labels(state)
    fixed.extend([1] * 8 + [0] * 4)
    _, events = act(state, "attack", target=JENNY, trait="might", weapon="spear")
    assert any("rolls 8 dice: 1 1 1 1 1 1 1 1 = 8" in e for e in events)


def test_only_one_attack_a_turn(fixed: list[int]) -> None:
    state = duel()
    fixed.extend([1, 1, 0, 0, 2, 0, 0, 0])  # a tie: nothing to answer
    state, _ = act(state, "attack", target=JENNY, trait="might")
    assert state.pending is None and attacks(state) == []
    assert refusal(state, "attack", target=JENNY, trait="might") == \
        "You have already made your attack this turn."


def test_no_attack_on_your_own_side_nor_out_of_the_room() -> None:
    state = rigged(DARRIN)
    place(state, "foyer", DARRIN, MISSY)
    place(state, "entrance_hall", JENNY)
    assert attacks(state) == []
    assert "You can't make that attack" in refusal(state, "attack", target=MISSY, trait="might")


# ---------------------------------------------------------------- stealing

def test_beating_a_foe_by_two_may_take_a_card_instead_never_the_armor_nor_a_companion(
        fixed) -> None:  # type: ignore[no-untyped-def]
    state = duel()
    hold(state, JENNY, "armor", "girl", "axe")
    before = _index(state, JENNY)
    fixed.extend([2, 2, 0, 0, 1, 1, 0, 0])  # 4 against 2
    state, _ = act(state, "attack", target=JENNY, trait="might")
    pending = state.pending
    assert pending is not None and pending.seat == DARRIN and pending.kind == "duel_spoils"
    assert pending.labels == ["Deal 2 physical damage", "Take the Axe instead"]
    state, _ = choose(state, "Take the Axe")
    assert "axe" in state.explorers[DARRIN].cards and "axe" not in state.explorers[JENNY].cards
    assert _index(state, JENNY) == before and state.pending is None


def test_a_margin_of_one_steals_nothing(fixed: list[int]) -> None:
    state = duel()
    hold(state, JENNY, "axe")
    fixed.extend([2, 1, 0, 0, 1, 1, 0, 0])  # 3 against 2
    state, _ = act(state, "attack", target=JENNY, trait="might")
    assert state.pending is not None and state.pending.kind == "damage_split"


# ---------------------------------------------------------------- the Ring

def test_the_ring_attacks_with_sanity_and_deals_mental_damage(fixed: list[int]) -> None:
    state = duel()
    assert not any(a["trait"] == "sanity" for a in attacks(state))  # not without the Ring
    hold(state, DARRIN, "ring")
    set_trait(state, DARRIN, "sanity", 4)
    set_trait(state, JENNY, "sanity", 4)
    state.explorers[JENNY].traits["knowledge"] = 7  # room for all 5 of it
    assert "Attack Jenny LeClerc: Sanity (4 dice)" in labels(state)
    fixed.extend([2, 2, 2, 0, 1, 0, 0, 0])  # 6 against 1
    state, events = act(state, "attack", target=JENNY, trait="sanity")
    assert any("Jenny LeClerc rolls Sanity" in e for e in events)
    pending = state.pending
    assert pending is not None and pending.seat == JENNY
    assert all("Sanity" in label or "Knowledge" in label for label in pending.labels)
    assert pending.labels[-1].startswith("All 5 to Knowledge")
    assert "mental" in pending.prompt


def test_the_ring_is_no_use_against_a_foe_without_sanity() -> None:
    state = rigged(DARRIN)
    place(state, "foyer", DARRIN)
    hold(state, DARRIN, "ring")
    brute = spawn(state, "brute", "foyer")  # Might, no Sanity
    ghost = spawn(state, "ghost", "foyer")  # Sanity, no Might
    found = {(a["target"], a["trait"]) for a in attacks(state)}
    assert found == {(f"m{brute.id}", "might"), (f"m{ghost.id}", "sanity")}
    assert "You can't make that attack" in refusal(state, "attack", target=f"m{brute.id}",
                                                   trait="sanity")
    assert "You can't make that attack" in refusal(state, "attack", target=f"m{ghost.id}",
                                                   trait="might")


# ---------------------------------------------------------------- the Revolver

def _line(state: BetrayalState) -> None:
    """Darrin in the Entrance Hall with the Revolver; the Foyer and the Grand Staircase
    lie west of it, in a straight line through doors."""
    place(state, "entrance_hall", DARRIN)
    hold(state, DARRIN, "revolver")
    set_trait(state, DARRIN, "speed", 4)


def test_the_revolver_shoots_along_a_line_of_doors() -> None:
    state = rigged(DARRIN)
    _line(state)
    place(state, "grand_staircase", JENNY)
    sight = combat.line_of_sight(state, tile(state, "entrance_hall"))
    assert {tile(state, "foyer"), tile(state, "grand_staircase")} <= set(sight)
    assert attacks(state) == [{"target": JENNY, "trait": "speed", "weapon": "revolver",
                               "ranged": 1}]
    assert "Shoot Jenny LeClerc from afar: Speed (5 dice, with the Revolver)" in labels(state)


def test_a_wall_stops_the_revolver() -> None:
    state = rigged(DARRIN)
    _line(state)
    hall = state.tiles[tile(state, "entrance_hall")]
    east = tile_at(state, ("ground", hall.x + 1, hall.y))
    if east is None:  # the Entrance Hall has no east door: a room there is behind a wall
        east = put(state, "ballroom", "ground", hall.x + 1, hall.y)
    state.explorers[JENNY].tile = east
    assert east not in combat.line_of_sight(state, tile(state, "entrance_hall"))
    assert attacks(state) == []


def test_a_lost_shot_from_afar_hurts_no_one(fixed: list[int]) -> None:
    state = rigged(DARRIN)
    _line(state)
    place(state, "foyer", JENNY)
    set_trait(state, JENNY, "speed", 4)
    before = [_index(state, s) for s in (DARRIN, JENNY)]
    fixed.extend([0] * 5 + [2, 2, 2, 2])
    state, events = act(state, "attack", target=JENNY, trait="speed", weapon="revolver",
                        ranged=1)
    assert any("shot at Jenny LeClerc misses; at that range nobody is hurt" in e
               for e in events)
    assert state.pending is None and [_index(state, s) for s in (DARRIN, JENNY)] == before


def test_a_shot_from_afar_steals_nothing(fixed: list[int]) -> None:
    state = rigged(DARRIN)
    _line(state)
    place(state, "foyer", JENNY)
    set_trait(state, JENNY, "speed", 4)
    hold(state, JENNY, "axe")
    fixed.extend([2] * 5 + [0] * 4)  # 10 against 0
    state, _ = act(state, "attack", target=JENNY, trait="speed", weapon="revolver", ranged=1)
    assert state.pending is not None and state.pending.kind == "damage_split"
    assert state.pending.seat == JENNY


def test_a_lost_shot_in_the_same_room_hurts_the_shooter(fixed: list[int]) -> None:
    state = rigged(DARRIN)
    _line(state)
    place(state, "entrance_hall", JENNY)
    set_trait(state, JENNY, "speed", 4)
    assert {"target": JENNY, "trait": "speed", "weapon": "revolver"} in attacks(state)
    fixed.extend([0] * 5 + [2, 2, 2, 2])
    state, _ = act(state, "attack", target=JENNY, trait="speed", weapon="revolver")
    assert state.pending is not None and state.pending.seat == DARRIN


def test_a_shot_at_a_monster_from_afar_that_misses_hurts_no_one(fixed: list[int]) -> None:
    state = rigged(DARRIN)
    _line(state)
    brute = spawn(state, "brute", "grand_staircase")  # Speed 3
    fixed.extend([0] * 5 + [2, 2, 2])
    state, events = act(state, "attack", target=f"m{brute.id}", trait="speed",
                        weapon="revolver", ranged=1)
    assert any("misses; at that range nobody is hurt" in e for e in events)
    after = sides.monster(state, f"m{brute.id}")
    assert state.pending is None and after is not None and not after.stunned


# ---------------------------------------------------------------- fights with monsters

def test_an_explorer_who_loses_to_a_monster_splits_physical_damage(fixed: list[int]) -> None:
    state = rigged(DARRIN)
    place(state, "foyer", DARRIN)
    set_trait(state, DARRIN, "might", 4)
    brute = spawn(state, "brute", "foyer")
    fixed.extend([0, 0, 0, 0, 2, 2, 0, 0, 0])  # 0 against 4
    state, events = act(state, "attack", target=f"m{brute.id}", trait="might")
    assert any("loses to the Brute by 4" in e for e in events)
    pending = state.pending
    assert pending is not None and pending.seat == DARRIN and "physical" in pending.prompt


def test_a_ghost_beaten_with_the_ring_is_stunned(fixed: list[int]) -> None:
    state = rigged(DARRIN)
    place(state, "foyer", DARRIN)
    hold(state, DARRIN, "ring")
    set_trait(state, DARRIN, "sanity", 4)
    ghost = spawn(state, "ghost", "foyer")
    fixed.extend([2, 2, 2, 2, 0, 0, 0, 0])
    state, events = act(state, "attack", target=f"m{ghost.id}", trait="sanity")
    assert any("The Ghost is stunned" in e for e in events)
    assert sides.monster(state, f"m{ghost.id}").stunned  # type: ignore[union-attr]


# ---------------------------------------------------------------- death

def test_a_trait_at_the_skull_kills_only_in_the_haunt() -> None:
    state = rigged(DARRIN)
    state.phase = EXPLORE  # before the haunt: the clip stops on the lowest value
    set_trait(state, MISSY, "might", 2)
    effects.change(Ctx(state), MISSY, "might", -3, Cause())
    assert traits.index(state, MISSY, "might") == 0 and state.explorers[MISSY].alive
    state = rigged(DARRIN)
    set_trait(state, MISSY, "might", 2)
    effects.change(Ctx(state), MISSY, "might", -1, Cause())
    assert not state.explorers[MISSY].alive


def test_the_dead_drop_every_card_companions_too(fixed: list[int]) -> None:
    state = duel(might_darrin=7, might_jenny=3)
    hold(state, JENNY, "axe", "girl", "armor")
    set_trait(state, JENNY, "speed", 2)  # both physical traits on their lowest step
    fixed.extend([2] * 7 + [0] * 3)  # 14 against 0: enough to kill whatever she picks
    state, _ = act(state, "attack", target=JENNY, trait="might")
    state, _ = choose(state, "Deal")
    state, events = choose(state, "All")
    assert not state.explorers[JENNY].alive and state.explorers[JENNY].cards == []
    foyer = state.tiles[tile(state, "foyer")]
    assert sorted(foyer.items) == ["armor", "axe", "girl"]
    assert any("Jenny LeClerc" in e and "is dead" in e for e in events)
    assert state.pending is None  # the dead split no more damage


def test_a_companion_follows_the_first_living_explorer_to_come_in() -> None:
    state = rigged(LONGFELLOW)
    place(state, "entrance_hall", LONGFELLOW)
    foyer = place(state, "foyer", MISSY)
    hold(state, MISSY, "girl", "axe")
    sanity = trait(state, LONGFELLOW, "sanity")
    ctx = Ctx(state)
    effects.change(ctx, MISSY, "might", -8, Cause())
    assert not state.explorers[MISSY].alive
    state.turn.moves = 0
    state, events = act(state, "move", dir="W")
    assert state.explorers[LONGFELLOW].tile == foyer
    assert "girl" in state.explorers[LONGFELLOW].cards
    assert state.tiles[foyer].items == ["axe"]  # an item waits to be picked up
    assert trait(state, LONGFELLOW, "sanity") > sanity  # the Girl's gift
    assert any("The Girl goes with Professor Longfellow" in e for e in events)


def test_the_dead_take_no_turns() -> None:
    state = rigged(DARRIN)
    effects.change(Ctx(state), MISSY, "might", -8, Cause())
    state, _ = act(state, "end_turn")
    assert state.turn.seat == LONGFELLOW and state.haunt is not None
    assert state.haunt.stage == HEROES
    assert MISSY not in sides.heroes(state) and MISSY in sides.heroes(state, alive=False)


def test_an_explorer_who_dies_on_its_own_turn_ends_it(fixed: list[int]) -> None:
    state = duel(might_darrin=2, might_jenny=8)
    set_trait(state, DARRIN, "speed", 6)
    speed = traits.index(state, DARRIN, "speed")
    fixed.extend([0, 0] + [2] * 8)  # 0 against 16
    state, _ = act(state, "attack", target=JENNY, trait="might")
    state, events = choose(state, "Might")  # one point to the skull: dead
    assert not state.explorers[DARRIN].alive
    assert traits.index(state, DARRIN, "speed") == speed  # the dead take no more damage
    assert not any("loses" in e and "Speed" in e for e in events)
    assert state.pending is None and state.turn.seat == MISSY
    assert any("Turn" in e and "Missy Dubourde" in e for e in events)
    assert flow.is_haunt(state)
