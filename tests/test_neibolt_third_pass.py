"""A third rules pass over Betrayal at the Neibolt House (seed 000): the sentences of
the rulebook no earlier test quoted or drove, each tried on the engine. The edition's
set-up (the event deck, the {a/b/c/d} numbers at three and six seats), each scenario's "Once
during your turn" limits, and the places where one of the four rooms meets a
scenario's own rule (the Darkened Hallway's two events under Separate Nightmares'
number track and under The Ritual of Chüd's lowered dice).
"""

from __future__ import annotations

import re

import pytest

from bot.core.actions import Action
from bot.games.betrayal import GAME, content, effects, traits
from bot.games.betrayal.context import Ctx, explorer_name
from bot.games.betrayal.haunting import base, combat, sides
from bot.games.betrayal.state import HEROES, BetrayalState, Monster, Turn
from bot.games.neibolt import names
from bot.games.neibolt.scenarios import all_living_things_must_abide as al
from bot.games.neibolt.scenarios import henry_on_the_hunt as hh
from bot.games.neibolt.scenarios import lets_kill_this_clown as lk
from bot.games.neibolt.scenarios import separate_nightmares as sn
from bot.games.neibolt.scenarios import the_ritual_of_chud as rc
from tests.betrayal_haunt_helpers import house, started
from tests.betrayal_haunt_rig import fixed, tile
from tests.neibolt_rig import DARRIN, JENNY, LONGFELLOW, MISSY, answered, rig_house
from tests.test_betrayal_engine_helpers import apply, choose, deck_top, hold, put

__all__ = ["fixed"]  # a fixture, used by name


# ---------------------------------------------------------------- shared

def offer_ids(state: BetrayalState, seat: int) -> list[str]:
    return [str(o.action.args["what"]) for o in GAME.options(state, seat)
            if o.action.kind == "act"]


def act(state: BetrayalState, seat: int, what: str) -> tuple[BetrayalState, list[str]]:
    new, events = GAME.apply(state, seat, Action("act", {"what": what}))
    return new, [e.text for e in events]


def settle(state: BetrayalState, lines: list[str], pick: int | str = 0
           ) -> tuple[BetrayalState, list[str]]:
    """Every choice the acting hero is asked answered with `pick` (the rest by the AI)."""
    for _ in range(20):
        if state.pending is None:
            break
        if state.pending.seat == state.turn.seat and (
                isinstance(pick, int) or any(pick in label for label in state.pending.labels)):
            state, more = choose(state, pick)
        else:
            seat = state.pending.seat
            new, events = GAME.apply(state, seat, GAME.ai_action(state, seat))
            state, more = new, [e.text for e in events]
        lines = [*lines, *more]
    return state, lines


def hero_turn(state: BetrayalState) -> int:
    """The hero whose turn it is, every hand emptied (no card steps into a roll)."""
    assert state.haunt is not None and state.haunt.stage == HEROES and state.pending is None
    for explorer in state.explorers:
        for card in list(explorer.cards):
            explorer.cards.remove(card)
            state.discards[content.card(card).deck].append(card)
        explorer.side = None
    seat = state.turn.seat
    assert not sides.is_traitor(state, seat)
    return seat


def discover(state: BetrayalState, seat: int, tile_id: int) -> tuple[BetrayalState, list[str]]:
    """What exploring into this room runs once it is placed: its symbol's draw."""
    state = GAME.copy_state(state)
    ctx = Ctx(state)
    state.explorers[seat].tile, state.explorers[seat].side = tile_id, None
    ctx.push([{"_symbol": {"tile": tile_id}}], seat)
    effects.run(ctx)
    return state, [e.text for e in ctx.events]


def apart(state: BetrayalState, room: str, floor: str) -> int:
    """The room placed well away from the house (no door meets another), or where it
    lies if the seed's house holds it already."""
    found = state.tile_of(room)
    if found is not None:
        return found
    return put(state, room, floor, 40 + 3 * len(state.tiles), 40)


# ---------------------------------------------------------------- the edition's set-up

def test_the_event_deck_has_neither_strange_dust_nor_say_cheese() -> None:
    """Seed 000, How to Play: "Remove the following cards from the Event Deck: Strange
    Dust, Say Cheese." A Neibolt game's events, wherever they lie, hold neither."""
    state = house(4, 1, 25, "neibolt")
    cards = [*state.decks["event"], *state.discards["event"],
             *(k for e in state.explorers for k in e.cards)]
    found = {content.card(k).name.lower() for k in cards if content.card(k).deck == "event"}
    assert found and not found & {"strange dust", "say cheese"}


@pytest.mark.parametrize(("key", "players", "track"), [
    (lk.KEY, 3, 5), (lk.KEY, 6, 8), (sn.KEY, 3, 6), (sn.KEY, 6, 9)])
def test_the_player_count_picks_the_number(key: str, players: int, track: int) -> None:
    """Seed 000, Variable Player Count: "1 = three-player game ... 9 = six-player game":
    the first of {5/6/7/8} and {6/7/8/9} at three seats, the last at six."""
    state, _ = started(key, players)
    assert state.haunt is not None and int(state.haunt.progress["track"]) == track


# ---------------------------------------------------------------- scenario 1

def _henry() -> tuple[BetrayalState, int]:
    state = GAME.copy_state(started(hh.KEY)[0])
    return state, hero_turn(state)


def _item_rooms(state: BetrayalState) -> list[int]:
    return [i for i, t in enumerate(state.tiles)
            if content.room(t.room).symbol == "item" and not hh.searched(state, i)]


def test_look_for_a_weapon_once_a_turn_even_in_another_item_room(fixed: list[int]) -> None:
    """Seed 000, Henry on the Hunt: "Once during your turn, you may: Look for a Weapon".
    A hero who searched one item room may walk into another, unsearched, and not search
    again that turn; its next turn it may."""
    state, seat = _henry()
    first, second = _item_rooms(state)[:2]
    state.explorers[seat].tile = first
    fixed.extend([0] * 16)
    state, lines = act(state, seat, "search")
    state, lines = settle(state, lines)
    assert hh.searched(state, first)
    state.explorers[seat].tile = second
    assert "search" not in offer_ids(state, seat)
    state.turn = Turn(seat=seat, number=state.turn.number + 1)
    assert "search" in offer_ids(state, seat)


def test_look_for_a_weapon_is_a_speed_or_knowledge_roll(fixed: list[int]) -> None:
    """Seed 000: "While on a tile with an Item symbol that doesn't have a Searched
    token on it, make a Speed or Knowledge roll." The searcher picks either trait."""
    state, seat = _henry()
    state.explorers[seat].tile = _item_rooms(state)[0]
    state, _ = act(state, seat, "search")
    assert state.pending is not None
    assert {"Speed", "Knowledge"} <= {label.split()[0] for label in state.pending.labels}
    fixed.extend([0] * 8)
    state, lines = choose(state, "Knowledge")
    assert any(t.startswith(f"{explorer_name(state, seat)} rolls Knowledge:") for t in lines)


def test_banish_hockstetter_once_a_turn(fixed: list[int]) -> None:
    """Seed 000: "Once during your turn, you may: Banish Zombie Hockstetter". A failed
    stare (0-4: 1 Mental damage) is not tried again that turn, Hockstetter still there."""
    state, seat = _henry()
    zombie = hh.hockstetter(state)
    assert zombie is not None
    state.explorers[seat].tile = zombie.tile
    fixed.extend([0] * 8)
    state, lines = act(state, seat, "banish")
    state, lines = settle(state, lines)
    assert hh.hockstetter(state) is not None and state.turn.seat == seat
    assert "banish" not in offer_ids(state, seat)


# ---------------------------------------------------------------- scenario 2

def _nightmares() -> tuple[BetrayalState, int]:
    state = GAME.copy_state(started(sn.KEY)[0])
    seat = hero_turn(state)
    assert state.haunt is not None
    state.haunt.progress["hand"] = []  # no nightmare asked of the traitor on discovery
    return state, seat


def test_the_darkened_hallway_moves_the_track_down_and_draws_no_event() -> None:
    """Seed 000, Separate Nightmares: "If the tile has one or more Event symbols, move
    the number track down one space for each Event symbol." The Darkened Hallway (one
    event symbol, RULES.md section 2) moves it one space and its two events are not
    drawn: the scenario's rule replaces the symbol's draw."""
    state, seat = _nightmares()
    hallway = apart(state, "darkened_hallway", "ground")
    events = list(state.decks["event"])
    before = sn.track(state)
    state, lines = discover(state, seat, hallway)
    assert sn.track(state) == before - 1
    assert state.decks["event"] == events and state.pending is None
    assert not any("two events" in t.lower() for t in lines)


def test_the_coal_chute_still_slides_to_the_basement_landing() -> None:
    """Seed 000, This House Is Moving: "The other regions (Basement and Upper Floor) no
    longer exist. However, tiles or cards that move you to the Basement Landing still
    do." A hero in the Coal Chute still slides to the Basement Landing."""
    state, seat = _nightmares()
    chute = apart(state, "coal_chute", "ground")
    state.explorers[seat].tile = chute
    landing = tile(state, "basement_landing")
    slides = [o for o in GAME.options(state, seat) if o.action.kind == "move"
              and "Basement Landing" in o.label]
    assert slides, [o.label for o in GAME.options(state, seat)]
    state, _ = GAME.apply(state, seat, slides[0].action)
    assert state.explorers[seat].tile == landing


def test_help_another_hero_once_a_turn(fixed: list[int]) -> None:
    """Seed 000: "Once during your turn, you may: Help Another Hero". "0-3 Nothing
    happens. You can't get back in!": the hero stays, the turn goes on, and it is not
    tried again that turn."""
    state, seat = _nightmares()
    state.explorers[seat].tile = tile(state, "foyer")
    assert "help" in offer_ids(state, seat)
    fixed.extend([0] * 8)
    state, lines = act(state, seat, "help")
    state, lines = settle(state, lines, "Sanity")
    assert state.turn.seat == seat and state.explorers[seat].tile == tile(state, "foyer")
    assert "help" not in offer_ids(state, seat)


def test_find_a_way_out_counts_only_the_remaining_heroes(fixed: list[int]) -> None:
    """Seed 000, Find a Way Out: "While all remaining heroes are in the entrance hall,
    everyone makes a Sanity roll." A dead hero elsewhere does not stop it, and rolls
    nothing."""
    state, seat = _nightmares()
    heroes = sides.heroes(state)
    dead = next(h for h in heroes if h != seat)
    state.explorers[dead].alive = False
    hall = tile(state, "entrance_hall")
    for h in heroes:
        if h != dead:
            state.explorers[h].tile = hall
    assert "out" in offer_ids(state, seat)
    fixed.extend([0] * 30)
    state, lines = act(state, seat, "out")
    state, lines = settle(state, lines)
    rolled = [t for t in lines if re.search(r"rolls Sanity: [0-9 ]+= [0-9]+[.]$", t)]
    assert len(rolled) == len(heroes) - 1
    assert explorer_name(state, dead) not in " ".join(rolled)


def test_find_a_way_out_once_a_turn(fixed: list[int]) -> None:
    """Seed 000: "Once during your turn, you may: Find a Way Out". "0-3 Nothing
    happens. The door won't open!": not tried again that turn."""
    state, seat = _nightmares()
    hall = tile(state, "entrance_hall")
    for h in sides.heroes(state):
        state.explorers[h].tile = hall
    fixed.extend([0] * 30)
    state, lines = act(state, seat, "out")
    state, lines = settle(state, lines)
    assert not state.over and state.turn.seat == seat
    assert "out" not in offer_ids(state, seat)


# ---------------------------------------------------------------- scenario 3

def _forms() -> tuple[BetrayalState, int, Monster]:
    state = GAME.copy_state(started(al.KEY)[0])
    seat = hero_turn(state)
    found = al.form(state)
    assert found is not None
    return state, seat, found


@pytest.mark.parametrize("room", ["Ritual Room", "Library", "Specimen Room", "Gallery",
                                  "Laboratory"])
def test_each_room_with_clues_offers_the_discovery(room: str) -> None:
    """Seed 000, All Living Things Must Abide, "Rooms With Clues About It": Ritual Room,
    Library, Specimen Room, Gallery, Laboratory (ours: RULES.md section 2). In each,
    unsearched, Discover the Monster's Weakness is offered; in a room of the triple
    tile, not."""
    state, seat, _ = _forms()
    key = sorted(names.rooms(room))[0]
    floor = content.room(key).floors[0]
    where = apart(state, key, floor)
    state.explorers[seat].tile = where
    assert "discover" in offer_ids(state, seat)
    state.explorers[seat].tile = tile(state, "foyer")
    assert "discover" not in offer_ids(state, seat)


def test_discover_once_a_turn(fixed: list[int]) -> None:
    """Seed 000: "Once during your turn, you may: Discover the Monster's Weakness". A
    failed roll (0-4 Nothing useful) in one clue room is not tried again in another."""
    state, seat, _ = _forms()
    first = apart(state, "library", "upper")
    second = apart(state, "gallery", "upper")
    state.explorers[seat].tile = first
    fixed.extend([0] * 8)
    state, lines = act(state, seat, "discover")
    assert any("Nothing useful" in t for t in lines)
    state.explorers[seat].tile = second
    assert "discover" not in offer_ids(state, seat)


def test_discover_with_no_searched_token_left_still_reveals(fixed: list[int]) -> None:
    """Seed 000: "5+ Place a Searched token in the room if there are any left. The
    traitor reveals the weakness of the form they currently inhabit." With none left,
    no token goes down, and the weakness is told all the same."""
    state, seat, form = _forms()
    assert state.haunt is not None
    state.haunt.progress["supply"] = 0
    where = apart(state, "library", "upper")
    state.explorers[seat].tile = where
    fixed.extend([2] * 8)
    state, lines = act(state, seat, "discover")
    assert not al.has_token(state, where)
    assert form.kind in state.haunt.progress["revealed"]
    assert any(str(al.forms_data()[form.kind]["text"]) in t for t in lines)


def test_search_for_something_to_kill_it_once_a_turn(fixed: list[int]) -> None:
    """Seed 000: "Once during your turn, you may: Search for Something to Kill It". On
    another room of the triple tile the same turn, it is not offered again."""
    state, seat, _ = _forms()
    state.explorers[seat].tile = tile(state, "foyer")
    fixed.extend([0] * 8)
    state, lines = act(state, seat, "search")
    state, lines = settle(state, lines)
    state.explorers[seat].tile = tile(state, "entrance_hall")
    assert "search" not in offer_ids(state, seat)


def test_banish_its_form_after_an_attack_this_turn(fixed: list[int]) -> None:
    """Seed 000, Banish It's Form: "You can do this even if you already attacked this
    turn." A hero who has just fought the form and stunned it (a win by the designed
    `overpower` or more) may still banish it, the same turn."""
    state, seat, form = _forms()
    state.explorers[seat].tile = form.tile
    might = traits.value(state, seat, "might")
    defence = combat.monster_trait(state, form, "might") or 0
    fixed.extend([2] * min(might, 8) + [0] * max(defence, 1))
    state, lines = GAME.apply(state, seat, Action("attack", {"target": f"m{form.id}",
                                                             "trait": "might"}))
    state, said = settle(state, [e.text for e in lines])
    stunned = al.form(state)
    assert stunned is not None and stunned.stunned, said
    assert state.turn.flags.get(combat.ATTACKED) and state.turn.seat == seat
    assert "banish" in offer_ids(state, seat)


def test_banish_its_form_is_sanity_against_sanity(fixed: list[int]) -> None:
    """Seed 000: "make a Sanity attack against the monster (they defend with Sanity)":
    the hero rolls its Sanity's dice, the form as many dice as its Sanity."""
    state, seat, form = _forms()
    state.explorers[seat].tile = form.tile
    form.stunned = True
    sanity = traits.value(state, seat, "sanity")
    defence = combat.monster_trait(state, form, "sanity")
    assert defence is not None and defence >= 1
    fixed.extend([2] * min(sanity, 8) + [0] * defence)
    state, lines = act(state, seat, "banish")
    rolled = next(t for t in lines if "rolls" in t and "= 0" in t)
    assert len(rolled.split(":")[1].split("=")[0].split()) == defence
    assert al.form(state) is None  # won: the form is gone


# ---------------------------------------------------------------- scenario 4

def _ritual(seat: int = DARRIN, clown_at: str = "grand_staircase", card: int = DARRIN,
            **where: str) -> BetrayalState:
    state = rig_house(rc.KEY, rc.pennywise, seat, clown_at, where)
    assert state.haunt is not None
    state.haunt.progress["card"] = card
    return state


def _altar(state: BetrayalState, room: str) -> int:
    where = tile(state, room)
    assert state.haunt is not None
    state.haunt.progress["altar"] = where
    state.tiles[where].tokens.append({"kind": rc.ALTAR, "card": "", "haunt": rc.KEY})
    return where


def test_pennywise_the_clown_of_the_ritual_has_the_printed_traits() -> None:
    """Seed 000, The Ritual of Chüd: "Monster: Pennywise the Clown. Might 5 Speed 4
    Sanity 5 Knowledge 4"."""
    state = _ritual()
    clown = rc.pennywise(state)
    assert clown is not None
    assert {t: combat.monster_trait(state, clown, t) for t in content.TRAITS} == {
        "might": 5, "speed": 4, "sanity": 5, "knowledge": 4}


@pytest.mark.parametrize("room", ["Old Well", "Ancient Den", "Ritual Room", "Nursery",
                                  "Bloody Room"])
def test_each_ritual_room_takes_the_altar(room: str) -> None:
    """Seed 000, "Rooms Where You Can Perform the Ritual": Old Well, Ancient Den, Ritual
    Room, Nursery, Bloody Room. "When you discover a room where you can complete the
    ritual… Take the Monster Card. ... Place the Altar token on your tile if it hasn't
    already been placed." """
    state = _ritual(MISSY, card=DARRIN)
    key = sorted(names.rooms(room))[0]
    where = apart(state, key, content.room(key).floors[0])
    state, _ = discover(state, MISSY, where)
    state, _ = answered(state, [])
    assert rc.altar(state) == where and rc.holder(state) == MISSY


def test_a_dead_heros_artifact_is_deposited_on_their_behalf(fixed: list[int]) -> None:
    """Seed 000: "If another player is dead, you can return their artifact to the box
    on their behalf, but only once you've found it or taken it from their body." """
    state = _ritual(MISSY, card=DARRIN, missy="entrance_hall")
    _altar(state, "entrance_hall")
    state.explorers[LONGFELLOW].alive = False
    assert "deposit" not in offer_ids(state, MISSY)  # not found yet: nothing to lay
    rc._set(state, LONGFELLOW, rc.HELD, MISSY)
    assert "deposit" in offer_ids(state, MISSY)
    fixed.extend([2, 2] + [0] * 6)
    state, _ = act(state, MISSY, "deposit")
    assert rc.artifacts(state)[str(LONGFELLOW)]["at"] == rc.DONE


def test_deposit_an_artifact_once_a_turn(fixed: list[int]) -> None:
    """Seed 000: "Once during your turn, you may: Deposit an Artifact". A hero carrying
    its own and a dead hero's lays one of them a turn."""
    state = _ritual(MISSY, card=DARRIN, missy="entrance_hall")
    _altar(state, "entrance_hall")
    state.explorers[LONGFELLOW].alive = False
    rc._set(state, MISSY, rc.HELD, MISSY)
    rc._set(state, LONGFELLOW, rc.HELD, MISSY)
    fixed.extend([2, 2] + [0] * 6)
    state, _ = act(state, MISSY, "deposit")
    assert rc.artifacts(state)[str(MISSY)]["at"] == rc.DONE
    assert rc.carried(state, MISSY) == [LONGFELLOW]
    assert "deposit" not in offer_ids(state, MISSY)


def test_the_ritual_rolls_one_die_for_each_remaining_hero(fixed: list[int]) -> None:
    """Seed 000, Complete the Ritual: "Each remaining hero takes a die and rolls it."
    With one hero dead, three dice; failed, the starter takes 3 Mental damage."""
    state = _ritual(MISSY, card=DARRIN, missy="entrance_hall")
    _altar(state, "entrance_hall")
    state.explorers[JENNY].alive = False
    for seat in range(4):
        rc._set(state, seat, rc.DONE)
    fixed.extend([0, 0, 0, 2, 2])
    state, lines = act(state, MISSY, "ritual")
    assert any("0 0 0" in t and "= 0" in t for t in lines), lines
    assert any("takes 3 mental damage" in t for t in lines)
    assert rc.holder(state) == MISSY


def test_one_sanity_roll_lets_the_hero_both_enter_and_attack(fixed: list[int]) -> None:
    """Seed 000: "If you succeed, you can both enter Pennywise's tile and attack him.
    You do not need to roll a second time." """
    state = _ritual(MISSY, "foyer", card=DARRIN, missy="entrance_hall")
    clown = rc.pennywise(state)
    assert clown is not None
    fixed.extend([2] * 8)
    state, _ = act(state, MISSY, "face")
    state, _ = apply(state, "move", MISSY, dir="W")
    assert state.explorers[MISSY].tile == tile(state, "foyer")
    attacks = [o for o in GAME.options(state, MISSY) if o.action.kind == "attack"
               and o.action.args.get("target") == f"m{clown.id}"]
    assert attacks and "face" not in offer_ids(state, MISSY)


def test_a_failed_face_may_be_tried_again_next_turn(fixed: list[int]) -> None:
    """Seed 000: "If you fail, you cannot try again until your next turn." """
    state = _ritual(MISSY, "foyer", card=DARRIN, missy="entrance_hall")
    fixed.extend([0] * 8)
    state, lines = act(state, MISSY, "face")
    state, lines = settle(state, lines)
    assert "face" not in offer_ids(state, MISSY)
    state.turn = Turn(seat=MISSY, number=state.turn.number + 1)
    assert "face" in offer_ids(state, MISSY)


def test_the_hallway_s_two_events_each_drop_their_highest_die(fixed: list[int]) -> None:
    """Seed 000, The Ritual of Chüd: "When you discover a tile with an Event symbol…
    If you need to make any rolls on the Event card, ignore the highest die of the
    roll." The Darkened Hallway ("Draw both events, resolve them one at a time"): the
    rolls of both its events drop their highest die."""
    state = _ritual(MISSY, card=DARRIN)
    hallway = apart(state, "darkened_hallway", "ground")
    deck_top(state, "event", "night_view", "something_slimy")
    knowledge = traits.value(state, MISSY, "knowledge")
    speed = traits.value(state, MISSY, "speed")
    fixed.extend([2] + [0] * (knowledge - 1) + [2] + [0] * (speed - 1))
    state, lines = discover(state, MISSY, hallway)
    state, lines = answered(state, lines)
    dropped = [t for t in lines if "highest die (2) does not count" in t]
    assert len(dropped) == 2, lines
    assert rc.holder(state) == MISSY


# ---------------------------------------------------------------- scenario 5

def _clown_rig(seat: int = DARRIN, clown_at: str = "grand_staircase",
               **where: str) -> BetrayalState:
    state = rig_house(lk.KEY, lk.pennywise, seat, clown_at, where)
    assert state.haunt is not None
    state.haunt.progress["balloon"] = DARRIN
    return state


def test_pennywise_the_spider_has_the_printed_traits() -> None:
    """Seed 000, Let's Kill This Clown: "Monster: Pennywise the Clown. Might 6 Speed 6
    Sanity 6 Knowledge 6"."""
    state = _clown_rig()
    clown = lk.pennywise(state)
    assert clown is not None
    assert {t: combat.monster_trait(state, clown, t) for t in content.TRAITS} == dict.fromkeys(
        content.TRAITS, 6)


def test_the_crush_takes_no_help_from_items_or_omens(fixed: list[int]) -> None:
    """Seed 000, Crush Pennywise: "You cannot use any items or omens to modify or affect
    your roll." With the Rabbit's Foot and the Lucky Stone in hand (rerolls after any
    roll), the crush asks for none: its dice stand."""
    state = _clown_rig(MISSY, "foyer", missy="foyer")
    clown = lk.pennywise(state)
    assert clown is not None
    clown.stunned = True
    hold(state, MISSY, "rabbits_foot", "lucky_stone")
    fixed.extend([0] * 8)
    state, _ = act(state, MISSY, "crush")
    assert state.pending is None
    assert state.explorers[MISSY].cards == ["rabbits_foot", "lucky_stone"]
    assert state.haunt is not None and state.haunt.progress["balloon"] == MISSY


def test_crush_pennywise_once_a_turn(fixed: list[int]) -> None:
    """Seed 000: "Once during your turn, you may: Crush Pennywise". A failed crush
    (0-4) leaves him stunned, and it is not tried again that turn."""
    state = _clown_rig(MISSY, "foyer", missy="foyer")
    clown = lk.pennywise(state)
    assert clown is not None
    clown.stunned = True
    fixed.extend([0] * 8)
    state, _ = act(state, MISSY, "crush")
    clown = lk.pennywise(state)
    assert clown is not None and clown.stunned and not state.over
    assert "crush" not in offer_ids(state, MISSY)


def test_pennywise_hunts_whoever_holds_the_balloon() -> None:
    """Seed 000, The Red Balloon Token: "Whoever has the red balloon token is Pennywise's
    target. Pennywise will move toward them"; taken by a taunt, his target changes."""
    state = _clown_rig(MISSY, "foyer", missy="entrance_hall", darrin="grand_staircase")
    clown = lk.pennywise(state)
    assert clown is not None
    plugin = base.PLUGINS[lk.KEY]
    assert isinstance(plugin, lk.LetsKillThisClown)
    assert plugin.monster_goals(state, clown) == {tile(state, "grand_staircase")}
    assert state.haunt is not None
    state.haunt.progress["balloon"] = MISSY
    assert plugin.monster_goals(state, clown) == {tile(state, "entrance_hall")}
