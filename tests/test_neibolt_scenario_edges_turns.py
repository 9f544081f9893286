"""The five scenarios of Betrayal at the Neibolt House (seed 000) at their edges, driven
through the engine: a hero dying on Pennywise's turn with the red balloon or the Monster
Card, the last hero dying there, the designed last round's end, Pennywise losing his own
attack, the ritual that fails on the last hero, Henry's weapon search on a thin Item
deck, and the Ritual of Chüd's setup sending a room back into the stack in a house whose
Collapsed Room has been fallen through.
"""

from __future__ import annotations

import pytest

from bot.core.actions import Action
from bot.games.betrayal import GAME, content
from bot.games.betrayal.haunting import sides
from bot.games.betrayal.state import BetrayalState, Monster
from bot.games.neibolt import encounters
from bot.games.neibolt.scenarios import henry_on_the_hunt as hh
from bot.games.neibolt.scenarios import lets_kill_this_clown as lk
from bot.games.neibolt.scenarios import the_ritual_of_chud as rc
from tests.betrayal_haunt_helpers import begin, started
from tests.betrayal_haunt_rig import fixed, tile
from tests.neibolt_rig import DARRIN, JENNY, LONGFELLOW, MISSY, answered, rig_house
from tests.test_betrayal_engine_helpers import apply, deck_top, put

__all__ = ["fixed"]  # a fixture, used by name

HEROES_WIN, HOUSE_WINS = sides.HERO, sides.EVIL


def end_turn(state: BetrayalState) -> tuple[BetrayalState, list[str]]:
    return answered(*apply(state, "end_turn"))


def frail(state: BetrayalState, seat: int) -> None:
    """Might and Speed at their lowest step above the skull (index 0): a lost fight
    kills."""
    state.explorers[seat].traits.update({"might": 0, "speed": 0})


def spider_rig(seat: int, clown_at: str, **where: str) -> BetrayalState:
    state = rig_house(lk.KEY, lk.pennywise, seat, clown_at, where)
    assert state.haunt is not None
    state.haunt.progress["balloon"] = DARRIN
    return state


def spider(state: BetrayalState) -> Monster:
    found = lk.pennywise(state)
    assert found is not None
    return found


# ---------------------------------------------------------------- Let's Kill This Clown

def test_the_balloon_skips_the_dead_when_its_holder_dies_on_his_turn(fixed: list[int]) -> None:
    """Seed 000, scenario 5: "If a hero dies while they have the red balloon token, pass
    the token to the next remaining player to the left." Killed by his attack on the
    house's turn, with the hero on the left already dead: the balloon goes past them,
    and play goes on with the next hero."""
    state = spider_rig(DARRIN, "foyer", darrin="foyer")
    state.explorers[MISSY].alive = False  # Darrin's left (seat 3 -> 0)
    frail(state, DARRIN)
    deck_top(state, encounters.DECK, "blood_tendrils")  # attack the holder
    fixed.extend([2] * 6 + [0] * 8)  # his 6 dice: 12; Darrin's: 0
    state, lines = end_turn(state)
    assert not state.explorers[DARRIN].alive and not state.over
    assert state.haunt is not None and lk.holder(state) == LONGFELLOW
    assert any("The red balloon floats to Professor Longfellow" in t for t in lines)
    assert GAME.to_act(state) == LONGFELLOW


def test_the_last_hero_dying_on_his_turn_is_the_houses_win(fixed: list[int]) -> None:
    """Seed 000, scenario 5, "If You Lose": the house wins once no hero is left (RULES.md
    section 2: the bot plays Pennywise; the haunt engine ends a game with no living
    hero), at once, on his own turn, with the losing ending told."""
    state = spider_rig(DARRIN, "foyer", darrin="foyer")
    for seat in (MISSY, LONGFELLOW, JENNY):
        state.explorers[seat].alive = False
    frail(state, DARRIN)
    deck_top(state, encounters.DECK, "blood_tendrils")
    fixed.extend([2] * 6 + [0] * 8)
    state, lines = end_turn(state)
    assert state.over and state.haunt is not None and state.haunt.winner == HOUSE_WINS
    assert any(t.startswith("Your voice shakes and gives you away.") for t in lines)


def test_a_spider_beaten_in_his_own_attack_is_stunned(fixed: list[int]) -> None:
    """Seed 000, scenario 5: "If you stun Pennywise, put a large monster token facedown
    on top of the Pennywise Encounter deck." A hero who out-rolls his attack stuns him
    as a hero's attack would (seed 003: a monster that loses a fight is stunned), and on
    his next turn "If Pennywise is stunned, don't draw a card." """
    state = spider_rig(DARRIN, "foyer", darrin="foyer")
    deck_top(state, encounters.DECK, "blood_tendrils")
    fixed.extend([0] * 6 + [2] * 8)  # his 6 dice: 0; Darrin's beat them
    state, _ = end_turn(state)
    assert spider(state).stunned and state.haunt is not None and state.haunt.progress["token"]
    deck = list(state.decks[encounters.DECK])
    fixed.clear()
    fixed.extend([0] * 16)
    state, lines = end_turn(state)  # Missy ends; his turn: no card, he recovers
    assert state.decks[encounters.DECK] == deck and not spider(state).stunned
    assert any("no card is drawn" in t for t in lines)


def test_the_last_round_ends_after_his_turn_and_a_crush_in_it_still_wins(
        fixed: list[int]) -> None:
    """docs/rulings.md, Neibolt 11: the cooperative scenarios' last rounds are designed
    (`last_round`): he still "takes a turn after EVERY player" (seed 000) in the last
    round, then the house wins; a crush made in that round ("5+ The heroes win!") wins
    first."""
    state = spider_rig(DARRIN, "grand_staircase", darrin="upper_landing")
    assert state.haunt is not None
    last = lk.LetsKillThisClown().last_round(state)
    assert last is not None
    state.haunt.round = last
    state.turn.seat = sides.heroes(state)[-1]  # the round's last hero
    won = GAME.copy_state(state)
    deck_top(state, encounters.DECK, "the_eater_of_worlds")  # he moves, then strikes
    fixed.extend([1, 0, 0])
    state, lines = end_turn(state)
    assert any("Pennywise draws **THE EATER OF WORLDS**" in t for t in lines)
    assert state.over and state.haunt is not None and state.haunt.winner == HOUSE_WINS
    assert any("Pennywise has fed enough" in t for t in lines)
    seat = won.turn.seat
    won.explorers[seat].tile = spider(won).tile
    spider(won).stunned = True
    assert won.haunt is not None
    won.haunt.progress["track"] = 1
    fixed.clear()
    fixed.extend([2] * 8)
    won, lines = answered(*apply(won, "act", seat=seat, what="crush"))
    assert won.over and won.haunt is not None and won.haunt.winner == HEROES_WIN


# ---------------------------------------------------------------- The Ritual of Chüd

def test_the_card_passes_when_its_holder_dies_on_his_turn(fixed: list[int]) -> None:
    """Seed 000, scenario 4: "If a hero dies while they have the Monster Card, pass the
    card to the next remaining player to the left." Killed by his attack ("he moves
    toward his target, and attacks them if he reaches their tile"), with the hero on
    the left dead: the card goes past them; the artifact the dead carried lies there."""
    state = rig_house(rc.KEY, rc.pennywise, DARRIN, "foyer", {"darrin": "foyer"})
    assert state.haunt is not None
    state.haunt.progress["card"] = DARRIN
    rc._set(state, DARRIN, rc.HELD, DARRIN)
    state.explorers[MISSY].alive = False
    frail(state, DARRIN)
    fixed.extend([2] * 40)  # every die a 2: his 5 beat Darrin's 3
    state, lines = end_turn(state)
    assert not state.explorers[DARRIN].alive and not state.over
    assert any("The Monster Card passes to Professor Longfellow" in t for t in lines)
    assert rc.holder(state) == LONGFELLOW
    assert rc.artifacts(state)[str(DARRIN)] == {"at": rc.TILE, "where": tile(state, "foyer")}
    assert GAME.to_act(state) == LONGFELLOW


def test_a_failed_ritual_that_kills_the_last_hero_is_the_houses_win(fixed: list[int]) -> None:
    """Seed 000, Complete the Ritual: "If the combined total is less than the number of
    dice rolled, the player that started takes Mental damage equal to the total number
    of dice rolled". The last hero, one die, rolls 0 and takes 1: at the lowest step above
    the skull it dies, and no hero is left to win."""
    state = rig_house(rc.KEY, rc.pennywise, MISSY, "grand_staircase",
                      {"missy": "entrance_hall"})
    where = tile(state, "entrance_hall")
    assert state.haunt is not None
    state.haunt.progress.update({"altar": where, "card": DARRIN})
    state.tiles[where].tokens.append({"kind": rc.ALTAR, "card": "", "haunt": rc.KEY})
    for seat in range(len(state.explorers)):
        rc._set(state, seat, rc.DONE)
        if seat != MISSY:
            state.explorers[seat].alive = False
    state.explorers[MISSY].traits.update({"sanity": 0, "knowledge": 0})
    fixed.extend([0] * 8)
    state, lines = answered(*apply(state, "act", what="ritual"))
    assert any("(1 die)" in t for t in lines)
    assert state.over and state.haunt is not None and state.haunt.winner == HOUSE_WINS


def test_a_ritual_room_sent_back_leaves_the_collapsed_rooms_hole_where_it_was() -> None:
    """Seed 000, The Ritual of Chüd, Setup: "If the Old Well, Ancient Den, Ritual Room,
    Nursery, and Bloody Room have all been discovered, shuffle one of them into the tile
    stack. Reorganize the house if needed. Choose the tile that disrupts the house the
    least." The room gone takes its place in the house with it, and nothing else: the
    Collapsed Room's hole still leads into the room it fell into (seed 003: the room
    below is marked Below Collapsed Room), not into the room after it, nor past the
    house's end."""
    house = GAME.copy_state(started(rc.KEY)[0])
    house.haunt, house.monsters = None, []
    for n, room in enumerate(sorted(rc.ritual_rooms())):
        if house.tile_of(room) is None:
            put(house, room, "basement", 10 + 2 * n, 10)  # apart: no doors needed
    hole = house.tile_of("collapsed_room")
    if hole is None:
        hole = put(house, "collapsed_room", "upper", 30, 30)
    below_room = next(r for r in ("catacombs", "chasm", "furnace_room", "wine_cellar")
                      if house.tile_of(r) is None)
    below = put(house, below_room, "basement", 40, 40)  # placed last: the highest id
    house.tiles[below].tokens.append({"kind": "below_collapsed", "card": ""})
    house.tiles[hole].flags["below"] = below
    state, events = begin(house, rc.KEY, revealer=JENNY)
    assert any("goes back into the room stack" in e.text for e in events)
    assert len(state.tiles) == len(house.tiles) - 1
    fell = state.tiles[tile(state, "collapsed_room")].flags.get("below")
    assert fell is not None and state.tiles[int(fell)].room == below_room


# ---------------------------------------------------------------- Henry on the Hunt

@pytest.mark.parametrize("cards", [0, 1, 2])
def test_look_for_a_weapon_on_a_thin_item_deck(fixed: list[int], cards: int) -> None:
    """Seed 000, Look for a Weapon: "3+ Put a Searched token on your tile. Look at the
    top three cards of the Item deck. Take one of them and bury the rest." With fewer
    than three (and no discards to reshuffle) the hero looks at what is there: none
    leaves the token and nothing found; one is taken; of two, one is kept, one buried."""
    state = GAME.copy_state(started(hh.KEY)[0])
    seat = state.turn.seat
    assert not sides.is_traitor(state, seat)
    state.explorers[seat].cards.clear()
    room = next(i for i, t in enumerate(state.tiles) if content.room(t.room).symbol == "item"
                and not hh.searched(state, i))
    state.explorers[seat].tile = room
    deck = state.decks["item"][:cards]
    state.decks["item"], state.discards["item"] = list(deck), []
    fixed.extend([2] * 8)
    state, said = GAME.apply(state, seat, Action("act", {"what": "search"}))
    state, lines = answered(state, [e.text for e in said])
    assert hh.searched(state, room) and state.pending is None
    assert len(state.explorers[seat].cards) == min(cards, 1)
    assert len(state.decks["item"]) == max(cards - 1, 0)
    if not cards:
        assert "The Item deck is empty: there is nothing to find." in lines
