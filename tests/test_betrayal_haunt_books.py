"""The classic haunts checked against the books their players read (data/betrayal/haunts/
<key>.yaml): where the engine did something a book's sentence does not allow.

Rigged states (tests/betrayal_haunt_rig.py): seed 1's house with every explorer on the
Upper Landing, cards emptied, the rigged haunt swapped for the one a test names. The
Grand Staircase, the Foyer and the Entrance Hall lie in a line joined by doors, west to
east.
"""

from __future__ import annotations

from bot.games.betrayal import GAME, explore
from bot.games.betrayal.haunting import combat, sides
from bot.games.betrayal.state import BetrayalState
from tests.betrayal_haunt_rig import (
    DARRIN,
    JENNY,
    act,
    attacks,
    fixed,
    hold,
    place,
    rig_plugin,
    rigged,
    spawn,
)
from tests.test_betrayal_engine_helpers import deck_top, stack_top

__all__ = ["fixed", "rig_plugin"]


def _haunt(state: BetrayalState, key: str) -> None:
    assert state.haunt is not None
    state.haunt.key = key


# ---------------------------------------------------------------- Wail of the Banshee

def _banshee_next_door(*cards: str) -> BetrayalState:
    """Darrin's turn in the Foyer holding `cards`; the banshee in the Entrance Hall, east
    of him through a door (in his line of sight); the traitor upstairs, out of the way."""
    state = rigged(DARRIN)
    _haunt(state, "wail_of_the_banshee")
    hold(state, DARRIN, *cards)
    place(state, "foyer", DARRIN)
    spawn(state, "banshee", "entrance_hall")
    return state


def test_the_revolver_cannot_fight_the_banshee() -> None:
    """Her books: "She can only be fought with Sanity; a hit stuns her." and "The banshee
    cannot be hurt by strength, only by will: fight her with Sanity." The Revolver's
    attack is a Speed attack (seed 003: 持有手槍Revolver的人物可作長程襲擊), and she
    has Speed only to move by: no shot at her, from afar or beside her."""
    state = _banshee_next_door("revolver")
    assert attacks(state) == []  # from the Foyer, along the line of doors
    place(state, "entrance_hall", DARRIN)
    banshee = f"m{sides.monsters(state, 'banshee')[0].id}"
    assert attacks(state) == [{"target": banshee, "trait": "sanity"}]


def test_the_toy_monkey_cannot_fight_the_banshee(fixed: list[int]) -> None:
    """"She can only be fought with Sanity": the Toy Monkey's attack is a Speed attack
    (seed 003: 進行一個3點速度Speed的襲擊), so on 1-2 it finds no one it may attack in
    her room and only claps, as it does beside a monster with no Speed."""
    state = _banshee_next_door("toy_monkey")
    fixed.extend([1, 0])  # 1: the monkey would attack
    state, events = act(state, "move", dir="E")
    assert not fixed and state.pending is None
    assert any("claps" in e for e in events), events
    assert not any("The Toy Monkey attacks the Banshee" in e for e in events)
    assert not sides.monsters(state, "banshee")[0].stunned


def test_the_banshee_is_still_fought_with_sanity() -> None:
    """"Attack her with Sanity (you may attack with Sanity in this haunt)"."""
    state = _banshee_next_door()
    place(state, "entrance_hall", DARRIN)
    banshee = sides.monsters(state, "banshee")[0]
    assert combat.card_targets(state, DARRIN, banshee.tile, "sanity") == [banshee]
    assert combat.card_targets(state, DARRIN, banshee.tile, "speed") == []


# ---------------------------------------------------------------- It's Alive!

def test_the_brain_appears_as_soon_as_the_attic_is_found() -> None:
    """Its books: "The Heart (Might 7) beats in the Organ Room, the Brain (Might 5) thinks
    in the Attic, as soon as each room is in the house." and "Drive the Spear: the
    Spear's holder, in the organ's room, attacks it". A hero who finds the Attic with the
    Spear in hand stands with the Brain at once, and may drive the Spear into it in the
    same turn (seed 003: after a card is drawn the explorer moves no more, but may still
    attack)."""
    state = rigged(DARRIN)
    _haunt(state, "its_alive")
    assert state.haunt is not None
    state.haunt.progress = {"grown": []}
    assert state.tile_of("attic") is None, "the rig's house must not hold the Attic yet"
    hold(state, DARRIN, "spear")
    place(state, "foyer", JENNY)
    ways = [(i, d) for i, t in enumerate(state.tiles) if t.floor == "upper"
            for d in "NESW" if explore.can_explore_from(state, i, d)]
    assert ways, "the rig's upper floor must have a door onto unexplored space"
    where, way = ways[0]
    state.explorers[DARRIN].tile = where
    stack_top(state, "attic")
    deck_top(state, "event", "drip_drip_drip")  # an event that asks nothing
    state, _ = act(state, "explore", DARRIN, dir=way)
    assert state.pending is None and state.turn.seat == DARRIN
    attic = state.tile_of("attic")
    assert attic is not None and state.explorers[DARRIN].tile == attic
    brains = sides.monsters(state, "brain")
    assert [m.tile for m in brains] == [attic]
    offers = [str(o.action.args["what"]) for o in GAME.options(state, DARRIN)
              if o.action.kind == "act"]
    assert f"pierce-{brains[0].id}" in offers
