"""The readings earlier rules passes marked "ambiguous" and left alone, each pinned here.

Where the rulebook's text settles the case, the test quotes that sentence; where it is
silent, the test quotes the ruling docs/rulings.md records, and holds the engine to it,
so that a later change of behaviour is a change of ruling, made on purpose.

Betrayal (seed 003, betrayal-facts.md), the Neibolt House (seed 000) and IT: Evil Below
(seed 001), in that order.
"""

from __future__ import annotations

import pytest

from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.games.betrayal import GAME, content, traits
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.effects import run
from bot.games.betrayal.state import BetrayalState
from bot.games.evilbelow import content as eb_content
from bot.games.evilbelow.state import ACTIONS, ROLL, EvilBelowState
from bot.games.neibolt.scenarios import lets_kill_this_clown as lk
from bot.games.neibolt.scenarios import separate_nightmares as sn
from bot.games.neibolt.scenarios import the_ritual_of_chud as rc
from tests import evil_below_helpers as eb
from tests import test_neibolt_separate_nightmares as nightmares
from tests.betrayal_haunt_rig import DARRIN as HERO
from tests.betrayal_haunt_rig import fixed, joined, place, rig_plugin, rigged
from tests.neibolt_rig import DARRIN, MISSY, rig_house
from tests.test_betrayal_engine_helpers import MISSY as MISSY_D
from tests.test_betrayal_engine_helpers import (
    OX,
    apply,
    choose,
    deck_top,
    dice,
    hold,
    new_game,
    put,
    tile,
)
from tests.test_betrayal_engine_traits import run_steps
from tests.test_neibolt_lets_kill_this_clown import tunnels_beside_the_landing

__all__ = ["dice", "fixed", "rig_plugin"]  # fixtures, used by name


def said(events: list[str], head: str) -> list[str]:
    return [e for e in events if e.startswith(head)]


def dice_rolled(line: str) -> int:
    """How many dice a roll line ("X rolls Might: 2 1 0 = 3.") shows."""
    return len(line.split(": ", 1)[1].split(" = ")[0].split())


def symbol_drawn(state: BetrayalState, seat: int, tile_id: int) -> BetrayalState:
    """What exploring into a placed room runs: its symbol's draw."""
    state = GAME.copy_state(state)
    ctx = Ctx(state)
    state.explorers[seat].tile = tile_id
    ctx.push([{"_symbol": {"tile": tile_id}}], seat)
    run(ctx)
    return state


# ================================================================ Betrayal (seed 003)

def test_the_vault_draws_one_event() -> None:
    """docs/rulings.md, Betrayal, Turns and movement: "The Vault shows an event symbol."
    Seed 003 line 587 reads 「翻開這房間時，玩家只可翻開1張預兆牌Omen card」 [on finding this
    room, draw only 1 omen], but its line 962 counts 「13個預兆(分別在13個不同的版塊)」 [13
    omens, on 13 different tiles] and betrayal-facts.md gives the Vault "E" among its 13
    omen rooms: the text contradicts itself, so the facts' symbol stands, and the
    "only 1" is the one card drawn (the two items wait behind the barrier)."""
    state = new_game()
    vault = put(state, "vault", "basement", 0, -1, rotation=2)  # its door S, to the Landing
    decks = {d: len(state.decks[d]) for d in ("omen", "item", "event")}
    state = symbol_drawn(state, OX, vault)
    assert content.room("vault").symbol == "event"
    assert len(state.decks["event"]) == decks["event"] - 1
    assert len(state.decks["omen"]) == decks["omen"] and len(state.decks["item"]) == decks["item"]
    assert not state.tiles[vault].flags.get("vault_empty")  # no item drawn with it


def test_one_trade_a_turn() -> None:
    """docs/rulings.md, Betrayal, Turns and movement: "One trade a turn, of one card."
    Seed 003 line 250, 「玩家僅可將1張卡片……轉交給與其人物同處同一房間的其他人物」 [a player
    may hand only 1 card to another explorer in the same room], does not say per turn;
    the bot reads the one card as the turn's."""
    state = new_game()
    hold(state, OX, "axe", "rope")
    state, _ = apply(state, "trade", **{"with": MISSY_D, "give": "axe"})
    assert state.explorers[MISSY_D].cards == ["axe"]
    assert "trade" not in {o.action.kind for o in GAME.options(state, OX)}
    with pytest.raises(IllegalAction):
        apply(state, "trade", **{"with": MISSY_D, "give": "rope"})


def test_crossing_a_split_room_and_back_rolls_each_time(dice: list[int]) -> None:
    """docs/rulings.md, Betrayal, Turns and movement: "Every crossing of a split room is
    a roll." Seed 003 line 244 lets a voluntary roll (「走捷徑」 [a shortcut], the Vault)
    be made once a turn, but line 573 asks the Chasm's roll of whoever 「要由另一門扉離開」
    [would leave by the other door], each time: Ox crosses east, comes back in by the
    east door, and leaves west: two Speed rolls in one turn."""
    state = new_game()
    hold(state, OX, "bottle")  # something left to do: his turn waits for him
    put(state, "chasm", "basement", 1, 0)  # doors E W: its W meets the Landing's E
    put(state, "creaky_hallway", "basement", 2, 0)
    state.explorers[OX].tile, state.explorers[OX].side = tile(state, "chasm"), "W"
    dice.extend([2, 2, 0, 0, 2, 2, 0, 0])  # Speed 4: 4 twice, 3+ both times
    state, first = apply(state, "move", dir="E")
    state, _ = apply(state, "move", dir="W")
    assert state.explorers[OX].side == "E"
    state, second = apply(state, "move", dir="W")
    assert len(said(first + second, "Ox Bellows rolls Speed")) == 2
    assert state.explorers[OX].tile == tile(state, "basement_landing")


def test_the_elevators_zero_uses_its_move_for_the_turn(dice: list[int]) -> None:
    """docs/rulings.md, Betrayal, Turns and movement: "A Mystic Elevator roll of 0 uses
    its move." Seed 003 line 541: 「每回合升降梯Mystic Elevator只會移動一次」 [the elevator
    moves once a turn]; line 540 gives a 0 its jolt instead of a floor. The jolt is the
    turn's ride: walking out and back in rolls nothing."""
    state = new_game()
    hold(state, OX, "bottle")
    put(state, "mystic_elevator", "ground", 0, 1)  # door N, to the Hall's S
    dice.extend([0, 0, 0])  # the elevator's 0, then Ox's 1 die of damage: 0
    state, first = apply(state, "move", dir="S")
    assert any("jolts" in e for e in first) and state.turn.elevator
    state, _ = apply(state, "move", dir="N")
    state, again = apply(state, "move", dir="S")
    assert not said(again, "Ox Bellows rolls 2 dice")
    assert state.explorers[OX].tile == tile(state, "mystic_elevator")


def test_the_candle_adds_its_die_to_a_later_roll_at_an_events_token(dice: list[int]) -> None:
    """docs/rulings.md, Betrayal, Cards (Candle): "a later roll at an event's token is an
    event's roll." Seed 003 line 428: 「每當玩家因翻開事件牌Event card後而需作能力考驗trait
    roll時，可多擲1顆遊戲骰」 [whenever an event drawn asks for a trait roll, 1 more die]
    does not say whether the roll a token asks for later counts: it does. Missy draws the
    Locked Safe; Ox, holding the Candle, opens it: Knowledge 3 + 1 = 4 dice."""
    state = new_game()
    deck_top(state, "event", "locked_safe")
    state, _ = run_steps(state, [{"draw": {"deck": "event", "count": 1}}], seat=MISSY_D)
    assert state.tiles[tile(state, "entrance_hall")].tokens[0]["card"] == "locked_safe"
    hold(state, OX, "candle")
    dice.extend([0, 0, 0, 0, 1, 1])  # 0: 2 dice of physical damage follow
    state, events = apply(state, "act", what="locked_safe-0")
    line = said(events, "Ox Bellows rolls Knowledge")
    assert len(line) == 1 and dice_rolled(line[0]) == traits.value(state, OX, "knowledge") + 1


def test_the_toy_monkey_rolls_when_a_card_moves_its_holder(dice: list[int]) -> None:
    """docs/rulings.md, Betrayal, Cards (Toy Monkey): "a card's move enters the room."
    Seed 003 line 506: 「當人物進入一個房間，若該房間內尚有其他人物/怪物，則擲骰2顆」 [when the
    explorer enters a room where others are, roll 2 dice] does not say how it came in;
    line 237 has a card's move draw the new room's card as entering does. Ox, moved by a
    card into the Foyer where Missy stands, rolls for the Monkey."""
    state = new_game()
    hold(state, OX, "toy_monkey")
    state.explorers[MISSY_D].tile = tile(state, "foyer")
    dice.extend([2, 1])  # 3: it claps
    state, events = run_steps(state, [{"move": {"to": "foyer"}}])
    assert said(events, "Ox Bellows rolls 2 dice")
    assert any("Toy Monkey claps" in e for e in events)


def test_a_deadly_split_asks_which_trait_shows_the_skull(fixed: list[int]) -> None:
    """Seed 003 line 262: 「損傷的分配由敗方決定」 [the loser decides how the damage is split].
    When every split kills, the dying explorer still picks where the damage goes, so
    which trait falls to the skull: two answers, one per trait that can reach it."""
    doomed = rigged(HERO)
    assert doomed.haunt is not None
    doomed.haunt.round = max(1, doomed.haunt.round)  # the skull can be reached
    doomed.explorers[HERO].traits.update({"might": 0, "speed": 0})
    doomed, _ = run_steps(doomed, [{"damage": {"kind": "physical", "amount": 3}}], seat=HERO)
    assert doomed.pending is not None and len(doomed.pending.labels) == 2
    skulls = set()
    for pick in range(2):
        after, _ = GAME.apply(doomed, doomed.pending.seat, Action("choose", {"pick": pick}))
        dead = after.explorers[doomed.pending.seat]
        assert not dead.alive
        skulls |= {t for t, i in dead.traits.items() if i < 0}
    assert skulls == {"might", "speed"}


def test_the_dynamite_may_go_into_either_of_two_empty_rooms(fixed: list[int]) -> None:
    """Seed 003 line 440: 「人物可把炸藥從門扉拋往隔鄰的房間」 [the explorer may throw the
    Dynamite through a door into the next room]: any next room, no one need be there.
    Two empty rooms are two throws to choose from; either spends the card and the
    turn's attack."""
    state = rigged(DARRIN)
    place(state, "foyer", DARRIN)
    hold(state, DARRIN, "dynamite")
    state, _ = apply(state, "use", card="dynamite")
    assert state.pending is not None and state.pending.kind == "tile_pick"
    assert {"Entrance Hall", "Grand Staircase"} <= set(state.pending.labels)
    state, events = choose(state, "Grand Staircase")
    assert any("throws it into the Grand Staircase" in e for e in events)
    assert "dynamite" not in state.explorers[DARRIN].cards
    assert "Use the Dynamite" not in [o.label for o in GAME.options(state, DARRIN)]


# ================================================================ Neibolt (seed 000)

def test_the_darkened_hallway_moves_the_nightmare_track_once() -> None:
    """RULES.md section 2: "Darkened Hallway is upper/ground with doors N S and an event
    symbol": one symbol, so seed 000's "move the number track down one space for each
    Event symbol" moves it once, and neither of its two events is drawn."""
    state, seat = nightmares.rigged()
    assert state.tile_of("darkened_hallway") is None
    events = (list(state.decks["event"]), list(state.discards["event"]))
    state, _ = nightmares.explore_with(state, seat, "darkened_hallway")
    assert state.pending is not None and state.pending.kind == sn.NIGHTMARE_PICK
    state, _ = choose(state, nightmares.PLUGIN.text("no_nightmare"))
    assert sn.track(state) == 6  # from {6/7/8/9} at 4 players: 7
    assert (state.decks["event"], state.discards["event"]) == events


def test_the_old_well_rolls_nothing_when_the_artifact_is_taken_instead(
        fixed: list[int]) -> None:
    """docs/rulings.md, Neibolt: "An artifact found instead skips the Old Well's roll."
    Seed 000 asks the Well's Knowledge roll "before you draw your Item", and scenario 4's
    "Skip drawing a card and take your hero token" skips that draw: the roll goes with
    it. Drawing the card instead, the roll is made."""
    base = rig_house(rc.KEY, rc.pennywise, MISSY, "grand_staircase", {})
    assert base.haunt is not None
    base.haunt.progress["card"] = DARRIN
    well = joined(base, "old_well", "basement")
    state = GAME.copy_state(base)
    ctx = Ctx(state)
    state.explorers[MISSY].tile = well
    ctx.push([{"_symbol": {"tile": well}}], MISSY)
    run(ctx)
    assert state.pending is not None and state.pending.labels[-1] == "Draw the card"
    fixed.extend([2] * 8)
    found, events = apply(state, "choose", pick=0)
    assert rc.carried(found, MISSY) == [MISSY]
    assert not said(events, "Missy Dubourde rolls Knowledge")
    _, events = apply(state, "choose", pick=len(state.pending.labels) - 1)
    assert said(events, "Missy Dubourde rolls Knowledge")


def test_the_balloon_holders_own_taunt_has_no_plus_one() -> None:
    """docs/rulings.md, Neibolt: "The balloon's holder taunts without the +1." Seed 000:
    "Add 1 to your roll if you're on the same tile as the player with the red balloon
    token" does not say whether the holder counts as beside itself: it does not."""
    state = rig_house(lk.KEY, lk.pennywise, DARRIN, "grand_staircase",
                      {"darrin": "entrance_hall", "missy": "entrance_hall"})
    assert state.haunt is not None
    state.haunt.progress["balloon"] = DARRIN
    labels = [o.label for o in GAME.options(state, DARRIN) if "Taunt" in o.label]
    assert labels and not any("+1" in t for t in labels)
    assert lk.LetsKillThisClown().taunt_bonus(state, MISSY) == 1  # beside the holder


def _crush_rig() -> BetrayalState:
    state = rig_house(lk.KEY, lk.pennywise, DARRIN, "foyer", {"darrin": "foyer"})
    assert state.haunt is not None
    state.haunt.progress.update({"balloon": DARRIN, "track": 1})
    found = lk.pennywise(state)
    assert found is not None
    found.stunned = True
    return state


@pytest.mark.parametrize(("card", "kind", "change"), [
    ("a_moment_of_hope", "blessing", 1), ("drip_drip_drip", "drip", -1)])
def test_the_crush_counts_an_events_token_in_the_room(fixed: list[int], card: str, kind: str,
                                                      change: int) -> None:
    """Seed 000, Crush Pennywise: "make a Might roll ... You cannot use any items or omens
    to modify or affect your roll." Only items and omens are barred; seed 003 line 631
    gives the Blessing 「英雄Hero在這房間內進行任何能力考驗trait roll時，可多擲1顆」 [a hero's
    every trait roll in this room, 1 more die], line 685 the Drip 「將少擲1顆」 [1 die
    fewer]: an event's token in the room still counts."""
    state = _crush_rig()
    state.tiles[tile(state, "foyer")].tokens.append({"kind": kind, "card": card})
    hold(state, DARRIN, "axe")  # an item: it changes nothing
    might = traits.value(state, DARRIN, "might")
    fixed.extend([0] * 8)
    label = next(o.label for o in GAME.options(state, DARRIN) if "Crush" in o.label)
    assert f"Might {might + change} " in label
    state, lines = apply(state, "act", what="crush")
    line = next(t for t in lines if "tries to crush Pennywise" in t)
    assert len(line.split(": ", 1)[1].split(" = ")[0].split()) == might + change


def test_a_monster_in_the_winding_tunnels_stands_on_neither_half(fixed: list[int]) -> None:
    """docs/rulings.md, Neibolt: "A monster in the Winding Tunnels is on no half." Seed
    000's "This tile counts as two unconnected tiles" and "Monsters ... do not have to
    roll to cross" do not place a monster on one half: it stands beside a hero on
    either, as in the classic split rooms, so either may crush it once it is stunned."""
    state = rig_house(lk.KEY, lk.pennywise, DARRIN, "basement_landing", {})
    middle, near, far = tunnels_beside_the_landing(state)
    for seat, half in ((DARRIN, near), (MISSY, far)):
        state.explorers[seat].tile, state.explorers[seat].side = middle, half
    found = lk.pennywise(state)
    assert found is not None
    found.tile, found.stunned = middle, True
    assert any("Crush" in o.label for o in GAME.options(state, DARRIN))
    other = GAME.copy_state(state)
    other.turn.seat = MISSY
    assert any("Crush" in o.label for o in GAME.options(other, MISSY))


# ================================================================ Evil Below (seed 001)

def _richie_beside_pennywise() -> EvilBelowState:
    state = eb.arrange(["richie", "bev"])
    here = state.heroes[0].location
    state.pennywise = min(eb_content.board().neighbours(here))
    return state


def test_richie_pulls_only_after_the_roll() -> None:
    """docs/rulings.md, IT: Evil Below: "Richie pulls in step 3." His "Once per turn on
    your turn, you may move Pennywise from an adjacent location into your location" does
    not name a step; the bot offers it with the player actions, after the roll and its
    sightings."""
    state = _richie_beside_pennywise()
    assert state.phase == ROLL
    assert "richie" not in eb.kinds(state, 0)
    with pytest.raises(IllegalAction):
        eb.act(state, 0, "richie")
    state = eb.actions_phase(state, {})
    assert state.phase == ACTIONS and "richie" in eb.kinds(state, 0)


def test_bill_draws_when_an_attack_token_is_taken_from_his_location() -> None:
    """Seed 001: "For each Balloon shown on the dice, Pennywise will abduct a victim" and
    then "Reveal the first available Victim token": the abduction comes before the
    token shows its face, and all 28 are "Pennywise Victim Tokens". Bill's "Whenever a
    Victim is abducted from your location" so counts an attack token too."""
    state = eb.arrange(["bill", "bev"], {0: eb.NEIBOLT})
    state.circles[eb.NEIBOLT][0] = 0  # an attack token, swapped with a child
    state.circles[eb.SQUARE][3] = 3
    state, _ = eb.rolled(state, {eb.NEIBOLT: eb.BALLOON})
    assert state.box == [0] and len(state.heroes[0].hand) == 1


def test_the_last_victim_an_attack_token_adds_two_attack_cards() -> None:
    """docs/rulings.md, IT: Evil Below: "The last victim an attack token: two attack
    cards." Seed 001 adds a card for "a Pennywise Attack symbol" and one when "you
    remove the last Victim token from a Location"; it does not say the two are one when
    the last token is the symbol: both are placed."""
    state = eb.arrange(["bev", "ben"])
    state.circles[eb.SQUARE] = [None, None, None, 0]  # its attack token, the last one
    pile = len(state.attack_pile)
    state, _ = eb.rolled(state, {eb.SQUARE: eb.BALLOON})
    assert state.remaining(eb.SQUARE) == 0 and state.box == [0]
    assert len(state.attack_pile) == pile - 2


def test_a_weakness_turned_up_by_a_stop_waits_for_the_next_fight() -> None:
    """docs/rulings.md, IT: Evil Below: "A weakness turned up by a stop waits." Seed
    001: "they gain the rewards for ALL Weakness cards whose conditions are met" does
    not say whether the card under a completed one counts in the same stop: it does not
    (only the face-up cards at the stop are checked). Two Rocks and two Neibolt cards
    meet Twin Totems and the Same Street under it: only Twin Totems pays."""
    stack = [eb.card(eb.NEIBOLT, eb.ROCK), eb.card(eb.BARRENS, eb.ROCK),
             eb.card(eb.NEIBOLT, 0)]
    state = eb.fight_ready(["bev", "bill"], [eb.card(eb.PHARMACY, 6), *stack])  # one left
    state.weakness_stacks = [["same_street", "twin_totems"], [], []]
    state, _ = eb.act(state, 0, "fight")
    assert state.fight is not None
    state.fight.shuffled = True
    for _ in stack:
        state, _ = eb.act(state, 0, "reveal")
    state, _ = eb.act(state, 0, "stop")
    assert state.weakness_done == ["twin_totems"] and state.strength == 1
    assert state.weakness_stacks == [["same_street"], [], []]


def test_no_bravery_is_offered_where_everyone_is_at_five() -> None:
    """docs/rulings.md, IT: Evil Below: "No Bravery for a place where all are at 5."
    Seed 001: "Every player in the Location can increase their Bravery level by 1. A
    player's Bravery may never go above 5." The action would change nothing, so it is
    not offered; once someone there is below 5 it is, and lifts only them."""
    state = eb.arrange(["bev", "ben"], {0: eb.NEIBOLT, 1: eb.NEIBOLT})
    state = eb.actions_phase(state, {eb.NEIBOLT: eb.HEART})
    assert all(hero.bravery == 5 for hero in state.heroes)
    labels = [o.label for o in eb.GAME.options(state, 0) if o.action.kind == "courage"]
    assert not any(o.action.args.get("what") == "bravery"
                   for o in eb.GAME.options(state, 0) if o.action.kind == "courage"), labels
    state.heroes[1].bravery = 3
    picks = [o.action for o in eb.GAME.options(state, 0)
             if o.action.kind == "courage" and o.action.args.get("what") == "bravery"]
    assert len(picks) == 1
    state, _ = eb.GAME.apply(state, 0, picks[0])
    assert [hero.bravery for hero in state.heroes] == [5, 4]
