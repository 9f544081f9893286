"""A fourth rules pass over Betrayal at the Neibolt House (seed 000), read top to bottom
as an outside checker would: the sentences no earlier pass drove on the engine. Who
plays first in scenarios 2 and 3, both cooperative scenarios' "Pennywise cannot use
the Mystic Elevator", a stun followed by
the crush in the same turn (his stun lasts only until his next turn, which comes after
every player's), and the ritual that waits for a dead hero's artifact too.
"""

from __future__ import annotations

import pytest

from bot.games.betrayal import GAME, traits
from bot.games.betrayal.haunting import sides
from bot.games.betrayal.house import cell_of
from bot.games.betrayal.links import walkable
from bot.games.betrayal.state import HEROES, BetrayalState, Monster
from bot.games.neibolt import encounters
from bot.games.neibolt.scenarios import all_living_things_must_abide as al
from bot.games.neibolt.scenarios import lets_kill_this_clown as lk
from bot.games.neibolt.scenarios import separate_nightmares as sn
from bot.games.neibolt.scenarios import the_ritual_of_chud as rc
from tests.betrayal_haunt_helpers import started
from tests.betrayal_haunt_rig import fixed, joined, tile
from tests.neibolt_rig import DARRIN, LONGFELLOW, MISSY, answered, rig_house
from tests.test_betrayal_engine_helpers import apply, choose, deck_top

__all__ = ["fixed"]  # a fixture, used by name

# What the Mystic Elevator says when it is set off (data/betrayal/texts.yaml).
RIDES = ("jolts and shudders", "finds nowhere to go", "carries its riders", "Mystic Elevator goes")


# ---------------------------------------------------------------- shared

def offer_ids(state: BetrayalState, seat: int) -> list[str]:
    return [str(o.action.args["what"]) for o in GAME.options(state, seat)
            if o.action.kind == "act"]


def end_turn(state: BetrayalState) -> tuple[BetrayalState, list[str]]:
    return answered(*apply(state, "end_turn"))


def lift_beside(state: BetrayalState, found: Monster) -> tuple[int, tuple[str, int, int]]:
    """The Mystic Elevator joined to the house, Pennywise in the room next to it, and
    where the lift lies now (a ride would move it)."""
    lift = joined(state, "mystic_elevator", "ground")
    found.tile = walkable(state, lift)[0]
    return lift, cell_of(state.tiles[lift])


def clown_rig(seat: int, clown_at: str, **where: str) -> BetrayalState:
    state = rig_house(lk.KEY, lk.pennywise, seat, clown_at, where)
    assert state.haunt is not None
    state.haunt.progress["balloon"] = DARRIN
    return state


def ritual_rig(seat: int, clown_at: str, card: int, **where: str) -> BetrayalState:
    state = rig_house(rc.KEY, rc.pennywise, seat, clown_at, where)
    assert state.haunt is not None
    state.haunt.progress["card"] = card
    return state


def spider(state: BetrayalState) -> Monster:
    found = lk.pennywise(state)
    assert found is not None
    return found


def clown(state: BetrayalState) -> Monster:
    found = rc.pennywise(state)
    assert found is not None
    return found


# ---------------------------------------------------------------- who plays first

@pytest.mark.parametrize("key", [sn.KEY, al.KEY])
def test_the_hero_on_the_traitors_left_goes_first(key: str) -> None:
    """Seed 000, Separate Nightmares and All Living Things Must Abide, Setup: "The player
    to the left of the traitor will take the first turn after setup." (Traitor: HAUNT
    REVEALER.)"""
    for seed in (1, 2):
        state, _ = started(key, seed=seed)
        assert state.haunt is not None and state.haunt.round == 1
        traitor = sides.traitor(state)
        assert traitor is not None and traitor == state.haunt.revealer
        assert state.haunt.stage == HEROES and state.pending is None
        assert state.turn.seat == (traitor + 1) % len(state.explorers)


# ---------------------------------------------------------------- the Mystic Elevator

def test_the_clown_of_the_ritual_does_not_ride_the_mystic_elevator(fixed: list[int]) -> None:
    """Seed 000, The Ritual of Chüd: "Pennywise cannot use the Mystic Elevator." He walks
    into it after the Monster Card's holder, and it stays where it is: no roll, no ride."""
    state = ritual_rig(DARRIN, "foyer", DARRIN)
    lift, lies = lift_beside(state, clown(state))
    state.explorers[DARRIN].tile = lift
    fixed.extend([1, 0, 0, 0] + [0] * 16)  # his move (1), then no one hurts anyone
    state, lines = end_turn(state)
    assert clown(state).tile == lift
    assert cell_of(state.tiles[lift]) == lies
    assert not any(ride in t for t in lines for ride in RIDES), lines


def test_the_spider_does_not_ride_the_mystic_elevator(fixed: list[int]) -> None:
    """Seed 000, Let's Kill This Clown: "Pennywise cannot use the Mystic Elevator." His
    card moves him into it after the red balloon, and it stays where it is."""
    state = clown_rig(DARRIN, "foyer")
    lift, lies = lift_beside(state, spider(state))
    state.explorers[DARRIN].tile = lift
    deck_top(state, encounters.DECK, "a_pop_of_red")  # move
    fixed.extend([1, 0, 0])
    state, lines = end_turn(state)
    assert spider(state).tile == lift
    assert cell_of(state.tiles[lift]) == lies
    assert not any(ride in t for t in lines for ride in RIDES), lines


# ---------------------------------------------------------------- the crush

def test_a_hero_who_stuns_him_may_crush_him_the_same_turn(fixed: list[int]) -> None:
    """Seed 000, Crush Pennywise: "You can only do this if Pennywise is stunned. 5+ The
    heroes win!" His stun ends on his next turn ("If Pennywise is stunned, don't draw a
    card. Instead, remove the large monster token"), which follows this very turn, so
    the hero who stuns him crushes him before the turn ends."""
    state = clown_rig(DARRIN, "foyer", darrin="foyer", missy="foyer", longfellow="foyer")
    assert state.haunt is not None
    state.haunt.progress["track"] = 1
    assert "crush" not in offer_ids(state, DARRIN)
    might = traits.value(state, DARRIN, "might")
    fixed.extend([2] * might + [0] * 6)  # Darrin's Might dice, then his 6: stunned
    attack = next(o.action for o in GAME.options(state, DARRIN) if o.action.kind == "attack")
    state, _ = GAME.apply(state, DARRIN, attack)
    while state.pending is not None:
        state, _ = choose(state, 0)
    assert spider(state).stunned and state.turn.seat == DARRIN
    assert "crush" in offer_ids(state, DARRIN)
    fixed.clear()
    fixed.extend([2] * 8)  # Might dice + 2 beside - 1 for the track: 5 or more
    state, lines = apply(state, "act", what="crush")
    assert state.over and state.haunt is not None and state.haunt.winner == "heroes", lines


# ---------------------------------------------------------------- the ritual

def test_the_ritual_waits_for_a_dead_heros_artifact(fixed: list[int]) -> None:
    """Seed 000, Complete the Ritual: "While on the tile with the Altar token, and after
    all artifacts have been deposited". A dead hero's artifact is one of them ("you can
    return their artifact to the box on their behalf"): until it is laid, no ritual."""
    state = ritual_rig(MISSY, "grand_staircase", DARRIN, missy="entrance_hall")
    where = tile(state, "entrance_hall")
    assert state.haunt is not None
    state.haunt.progress["altar"] = where
    state.tiles[where].tokens.append({"kind": rc.ALTAR, "card": "", "haunt": rc.KEY})
    state.explorers[LONGFELLOW].alive = False
    for seat in range(len(state.explorers)):
        if seat != LONGFELLOW:
            rc._set(state, seat, rc.DONE)
    assert "ritual" not in offer_ids(state, MISSY)
    rc._set(state, LONGFELLOW, rc.HELD, MISSY)
    assert "ritual" not in offer_ids(state, MISSY) and "deposit" in offer_ids(state, MISSY)
    rc._set(state, LONGFELLOW, rc.DONE)
    assert "ritual" in offer_ids(state, MISSY)
