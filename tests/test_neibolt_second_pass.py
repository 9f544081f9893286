"""A second rules pass over Betrayal at the Neibolt House (seed 000): what seed 000's
"This tile counts as two unconnected tiles" (the Winding Tunnels) means for the
scenarios' rules that ask whether two heroes share a tile.

Seed 000, Winding Tunnels: "This tile counts as two unconnected tiles." and "The line
on the Winding Tunnels tile divides it into two separate rooms." So two heroes on
different halves are not "on the same tile": the Taunt's +1 and the Crush's +1 a hero
(scenario 5), handing a dead hero's artifact (scenario 4, a trade) and Help Another
Hero's "tile with another hero on it" (scenario 2) all go by the half. (Monsters in the
tunnels have no side: what Pennywise's own tile means there is a ruling left alone.)
"""

from __future__ import annotations

from bot.games.betrayal import GAME, traits
from bot.games.betrayal.haunting import sides
from bot.games.betrayal.state import BetrayalState, Monster
from bot.games.neibolt.scenarios import lets_kill_this_clown as lk
from bot.games.neibolt.scenarios import the_ritual_of_chud as rc
from tests.betrayal_haunt_rig import fixed
from tests.neibolt_rig import DARRIN, JENNY, MISSY, rig_house
from tests.test_betrayal_engine_helpers import apply, choose
from tests.test_neibolt_rooms import tunnels
from tests.test_neibolt_separate_nightmares import hero_turn, offer_ids, to_room
from tests.test_neibolt_separate_nightmares import rigged as nightmares

__all__ = ["fixed"]  # a fixture, used by name


def _halves(state: BetrayalState, **where: str) -> tuple[int, int, int]:
    """The Winding Tunnels laid out (west room, tunnels, east room), and each seat of
    `where` (seat name -> "W" | "E") on that half."""
    west, middle, east = tunnels(state)
    seats = {"darrin": DARRIN, "missy": MISSY, "jenny": JENNY}
    for name, half in where.items():
        explorer = state.explorers[seats[name]]
        explorer.tile, explorer.side = middle, half
    return west, middle, east


def _clown(state: BetrayalState) -> Monster:
    found = lk.pennywise(state)
    assert found is not None
    return found


def _balloon(state: BetrayalState) -> int:
    assert state.haunt is not None
    return int(state.haunt.progress["balloon"])


# ---------------------------------------------------------------- scenario 5

def test_the_taunt_bonus_needs_the_balloon_on_the_same_half(fixed: list[int]) -> None:
    """Seed 000, Taunt Pennywise: "Add 1 to your roll if you're on the same tile as the
    player with the red balloon token." Winding Tunnels: "This tile counts as two
    unconnected tiles": the holder on the other half is on another tile."""
    state = rig_house(lk.KEY, lk.pennywise, DARRIN, "foyer", {})
    assert state.haunt is not None
    state.haunt.progress["balloon"] = MISSY
    west, _, _ = _halves(state, darrin="W", missy="E")
    _clown(state).tile = west  # in sight of the west half's door
    taunts = [o.label for o in GAME.options(state, DARRIN) if "Taunt" in o.label]
    assert taunts and not any("+1" in t for t in taunts)
    fixed.extend([1, 1, 1, 0, 0, 0, 0, 0])  # 3: a 4 only with the +1
    state, _ = apply(state, "act", what="taunt-knowledge")
    while state.pending is not None:
        state, _ = choose(state, 0)
    assert _balloon(state) == MISSY and state.turn.seat != DARRIN  # failed: the turn ends


def test_the_taunt_bonus_counts_the_holder_on_the_same_half(fixed: list[int]) -> None:
    """The same taunt with the holder on the taker's own half of the tunnels: +1."""
    state = rig_house(lk.KEY, lk.pennywise, DARRIN, "foyer", {})
    assert state.haunt is not None
    state.haunt.progress["balloon"] = MISSY
    west, _, _ = _halves(state, darrin="W", missy="W")
    _clown(state).tile = west
    fixed.extend([1, 1, 1, 0, 0, 0, 0, 0])
    state, _ = apply(state, "act", what="taunt-knowledge")
    while state.pending is not None:
        state, _ = choose(state, 0)
    assert _balloon(state) == DARRIN


def test_the_crush_counts_only_the_heroes_on_the_crushers_half(fixed: list[int]) -> None:
    """Seed 000, Crush Pennywise: "Add 1 to your roll for each other hero on the tile."
    A hero on the other half of the Winding Tunnels is on another tile (him stunned in
    the tunnels, which half is his is the ruling left alone: the crush is offered)."""
    state = rig_house(lk.KEY, lk.pennywise, DARRIN, "foyer", {})
    assert state.haunt is not None
    _, middle, _ = _halves(state, darrin="W", missy="E")
    clown = _clown(state)
    clown.tile, clown.stunned = middle, True
    state.haunt.progress["track"] = 1
    might = traits.value(state, DARRIN, "might")
    assert might >= 3
    fixed.extend([2, 2, 1] + [0] * (might - 3))  # 5, -1 for the track: 4, or 5 with Missy
    state, lines = apply(state, "act", what="crush")
    assert not state.over and state.haunt is not None, lines
    assert _balloon(state) == DARRIN and state.haunt.progress["track"] == 2


# ---------------------------------------------------------------- scenario 4

def test_an_artifact_is_handed_only_to_a_hero_on_the_same_half() -> None:
    """Seed 000: "Artifacts cannot be traded to another player unless the hero they
    belong to is dead." A trade is between explorers on the same tile (seed 003), and
    the halves of the Winding Tunnels are two tiles."""
    state = rig_house(rc.KEY, rc.pennywise, DARRIN, "foyer", {})
    state.explorers[JENNY].alive = False
    rc._set(state, JENNY, rc.HELD, DARRIN)
    _halves(state, darrin="W", missy="E")
    give = f"give-{JENNY}-{MISSY}"
    assert give not in [o.action.args.get("what") for o in GAME.options(state, DARRIN)]
    state.explorers[MISSY].side = "W"
    assert give in [o.action.args.get("what") for o in GAME.options(state, DARRIN)]


# ---------------------------------------------------------------- scenario 2

def test_help_another_hero_lands_on_the_half_where_a_hero_stands(fixed: list[int]) -> None:
    """Seed 000, Help Another Hero: "4+ Place your figure on any tile with another hero
    on it." Each half of the Winding Tunnels is a tile of its own: the helper lands on
    the half where the other heroes stand, not the other."""
    state, _ = nightmares()
    seat = hero_turn(state)
    to_room(state, seat, "foyer")
    _, middle, _ = tunnels(state, "ground")
    others = [h for h in sides.heroes(state) if h != seat]
    for other in others:
        state.explorers[other].tile, state.explorers[other].side = middle, "W"
    assert "help" in offer_ids(state, seat)
    assert state.haunt is not None
    state.haunt.progress["track"] = 0
    fixed.extend([2] * 8)
    state, _ = apply(state, "act", seat, what="help")
    state, _ = choose(state, "Sanity")
    assert state.pending is None
    assert state.explorers[seat].tile == middle and state.explorers[seat].side == "W"
    assert state.turn.seat != seat  # the turn has ended


def test_help_another_hero_picks_the_half_when_heroes_stand_on_both(fixed: list[int]) -> None:
    """Heroes on both halves: each half is a tile with a hero on it, so the helper
    chooses which (the first listed: a hero still cut off from the house)."""
    state, _ = nightmares()
    seat = hero_turn(state)
    to_room(state, seat, "foyer")
    _, middle, _ = tunnels(state, "ground")
    others = [h for h in sides.heroes(state) if h != seat]
    assert len(others) >= 2
    for other, half in zip(others, ("W", "E"), strict=False):
        state.explorers[other].tile, state.explorers[other].side = middle, half
    for other in others[2:]:
        to_room(state, other, "foyer")
    assert state.haunt is not None
    state.haunt.progress["track"] = 0
    fixed.extend([2] * 8)
    state, _ = apply(state, "act", seat, what="help")
    state, _ = choose(state, "Sanity")
    assert state.pending is not None and state.pending.kind == "sn_help_side"
    assert len(state.pending.labels) == 2
    state, _ = choose(state, "east")
    assert state.explorers[seat].tile == middle and state.explorers[seat].side == "E"
    assert state.turn.seat != seat
