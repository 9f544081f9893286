"""Questions whose every answer ends alike are not asked (the pointless-questions audit).

A choice between answers that all leave the same game wastes a click and reads as a bot
that does not know its own rules: where the rulebook requires an act and only one way of
it exists, the engine does it and says so in the log. Each test quotes the rule that
leaves the player no real choice.
"""

from __future__ import annotations

from dataclasses import replace

from bot.core.actions import Action
from bot.core.events import Event, to_player
from bot.games.betrayal import GAME as BETRAYAL
from bot.games.betrayal import effects, movement, traits
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.state import BetrayalState
from bot.games.evilbelow import attacks, content, rules
from bot.games.evilbelow.state import ACTIONS, LOSS_BRAVERY, EvilBelowState
from bot.games.neibolt.scenarios import all_living_things_must_abide as al
from tests import test_neibolt_all_living_things_must_abide as alta
from tests import test_neibolt_henry_on_the_hunt as henry
from tests.betrayal_haunt_helpers import house
from tests.betrayal_haunt_rig import DARRIN, JENNY, fixed, rig_plugin, rigged
from tests.evil_below_helpers import NEIBOLT, SQUARE, arrange, card, choose
from tests.test_betrayal_engine_helpers import OX, deck_top, dice, hold, new_game
from tests.test_betrayal_engine_helpers import choose as choose_label
from tests.test_betrayal_engine_traits import run_steps

__all__ = ["dice", "fixed", "rig_plugin"]

# 0/A: 1 Bravery, 2 cards; B: 1 Bravery (data/evilbelow/cards.yaml)
FLOATING = content.attack_ids()[1]
ROCK, POSTCARD = 1, 2


# ---------------------------------------------------------------- IT: Evil Below

def _attacked(state: EvilBelowState) -> tuple[EvilBelowState, list[Event]]:
    """Pennywise attacks Town Square with the floating card, its lines resolved as far
    as they go without a player."""
    state.phase = ACTIONS
    events: list[Event] = []
    attacks.begin(state, FLOATING, SQUARE, "stack", events)
    rules.advance(state, events)
    return state, events


def test_the_only_holder_losing_every_card_is_not_asked_which() -> None:
    """Seed 001: 'if the damage effect includes discarding cards and only one player in
    the location has cards in hand, they have to accept that entire Attack.' Ben holds
    two cards and the attack discards two: both go, whichever is named first."""
    state = arrange(["bev", "ben"], {0: SQUARE, 1: SQUARE})
    state.heroes[1].hand = [card(NEIBOLT, ROCK), card(NEIBOLT, POSTCARD)]
    state, events = _attacked(state)
    assert state.pending is None
    assert state.heroes[1].hand == [] and state.heroes[1].bravery == 4
    assert sorted(state.totem_discard) == [card(NEIBOLT, ROCK), card(NEIBOLT, POSTCARD)]
    assert sum(e.data.get("all_lost") == attacks.DISCARD for e in events) == 1


def test_cards_split_among_holders_are_not_asked_when_all_go() -> None:
    """Seed 001: 'the loss of Bravery and cards can be split amongst those players', but
    two cards lost with one card in each hand leaves nobody a card however it is split."""
    state = arrange(["bev", "ben"], {0: SQUARE, 1: SQUARE})
    state.heroes[0].hand = [card(NEIBOLT, ROCK)]
    state.heroes[1].hand = [card(NEIBOLT, POSTCARD)]
    state, events = _attacked(state)
    # the Bravery point is a real choice (5 and 5), asked first; the cards then go alone
    assert state.pending is not None and state.pending.kind == attacks.PICK_BRAVERY
    state, events = choose(state, 0)
    assert state.pending is None
    assert state.heroes[0].hand == [] and state.heroes[1].hand == []
    assert any(e.data.get("all_lost") == attacks.DISCARD for e in events)


def test_bravery_that_all_goes_is_not_asked_point_by_point() -> None:
    """Seed 001: 'The damage effects must still be satisfied to their full extent', and
    'After resolving the Attack, if any player's Bravery is reduced to zero ... all
    players lose.' Two points of Bravery on two Losers with one each: both fall to 0
    whoever is named first, so nobody is asked."""
    state = arrange(["bev", "ben"], {0: SQUARE, 1: SQUARE})
    state.circles[SQUARE][0] = None
    state.circles[SQUARE][1] = None  # A and B showing: two points of Bravery
    for hero in state.heroes:
        hero.bravery = 1
    state, events = _attacked(state)
    assert state.pending is None
    assert [h.bravery for h in state.heroes] == [0, 0]
    assert state.over and state.result == LOSS_BRAVERY
    assert sum(e.data.get("all_lost") == attacks.BRAVERY for e in events) == 1


def test_bravery_that_can_be_spread_is_still_asked() -> None:
    """'those damage effects may be spread out among all the players there': with a
    point to spare (2 and 1 against 2 points) where it lands still matters."""
    state = arrange(["bev", "ben"], {0: SQUARE, 1: SQUARE})
    state.circles[SQUARE][0] = None
    state.circles[SQUARE][1] = None
    state.heroes[0].bravery, state.heroes[1].bravery = 2, 1
    state, events = _attacked(state)
    assert state.pending is not None and state.pending.kind == attacks.PICK_BRAVERY
    assert not any("all_lost" in e.data for e in events)


# ---------------------------------------------------------------- Betrayal

def _hurt_in_the_haunt(indices: dict[str, int], amount: int) -> BetrayalState:
    state = rigged(DARRIN)
    assert state.haunt is not None
    state.haunt = replace(state.haunt, round=max(1, state.haunt.round))
    state.explorers[DARRIN].traits.update(indices)
    state, _ = run_steps(state, [{"damage": {"kind": "physical", "amount": amount}}],
                         seat=DARRIN)
    return state


def test_a_death_split_offers_each_way_to_die_once(fixed: list[int]) -> None:
    """Seed 003: 若無可避免地人物的某項能力下降到骷髏圖案，則該人物即已死亡 (an explorer dies
    when a trait unavoidably reaches the skull). Might one step above the skull and 5
    physical damage that Speed (3 steps above it) cannot all take: every split kills,
    and once Might falls the rest is never taken, so "All 5 to Might", "4 to Might, 1 to
    Speed" ... "1 to Might, 4 to Speed" are one answer, not five."""
    state = _hurt_in_the_haunt({"might": 0, "speed": 3}, 5)
    assert state.pending is not None and state.pending.kind == "damage_split"
    ends = set()
    for pick in range(len(state.pending.labels)):
        after, _ = BETRAYAL.apply(state, DARRIN, Action("choose", {"pick": pick}))
        assert not after.explorers[DARRIN].alive
        ends.add(tuple(sorted(after.explorers[DARRIN].traits.items())))
    assert len(ends) == len(state.pending.labels) == 2


# ---------------------------------------------------------------- Betrayal at the Neibolt House

def test_the_traitor_is_not_asked_to_move_the_only_searched_token(fixed: list[int]) -> None:
    """Seed 000 (All Living Things Must Abide): "If there are no more Searched tokens, the
    traitor takes one from the board and puts it on your tile." With one token on the
    board there is one to take: it moves, and the log says from where."""
    state = alta.start()
    seat = alta._at_the_start(state)
    assert state.haunt is not None
    foyer = state.tile_of("foyer")
    assert foyer is not None
    al._add_token(state, foyer)
    state.haunt.progress["supply"] = 0
    best = max(("knowledge", "sanity"), key=lambda t: traits.value(state, seat, t))
    fixed += [0] * alta.trait_dice(state, seat, best)
    state, _ = alta.act(state, seat, "search")
    state, said = alta.pick(state, 0)
    assert state.pending is None
    assert not al.has_token(state, foyer) and al.has_token(state, state.explorers[seat].tile)
    assert any(t.startswith("No Searched tokens are left: the traitor moves one") for t in said)


def _traitor_draws(card: str, items: list[str]) -> tuple[BetrayalState, list[str]]:
    state = rigged(JENNY)
    state.explorers[JENNY].cards[:] = items
    deck_top(state, "event", card)
    ctx = Ctx(state)
    ctx.push([{"draw": {"deck": "event"}}], JENNY)
    effects.run(ctx)
    return state, [e.text for e in ctx.events]


def test_the_traitor_is_not_asked_to_ignore_an_event_that_does_nothing() -> None:
    """Seed 003: 奸徒進行探險而翻開事件牌時，玩家可選擇不受該卡片影響 (the traitor who draws an
    event may choose not to be affected by it). Whoops! ("Discard one of your item cards
    at random") drawn with no item ends alike resolved or ignored: it is resolved, and
    its own line says it took nothing."""
    state, said = _traitor_draws("whoops", [])
    assert state.pending is None
    assert any("no item to lose" in line for line in said)
    assert "whoops" in state.discards["event"]


def test_the_traitor_is_still_asked_when_the_event_would_do_something() -> None:
    """'若玩家貪圖卡片的回報而接受測試，則奸徒必須承受一切好/壞的後果' (resolved, the traitor bears
    all of it): with an item to lose, ignoring Whoops! keeps it, so the choice stands."""
    state, _ = _traitor_draws("whoops", ["axe"])
    assert state.pending is not None and state.pending.seat == JENNY
    assert state.pending.labels == ["Resolve it", "Ignore it"]


def test_a_floor_with_one_room_to_pick_asks_no_room() -> None:
    """The Dog (data/betrayal/omens.yaml, seed 003's card in our words): "send it up to 6
    rooms away" -- a room the player picks. Past 20 candidates the floor is asked first
    (movement.PICK_LIMIT); a floor holding one candidate leaves one answer, so the room
    is not asked again (seen in play: "Where does the Dog run?" with one button)."""
    state = BETRAYAL.copy_state(house(4, 1, tiles=30))
    basement = [i for i, t in enumerate(state.tiles) if t.floor == "basement"]
    others = [i for i, t in enumerate(state.tiles) if t.floor != "basement"]
    assert len(others) > movement.PICK_LIMIT
    seat = state.turn.seat
    ctx = Ctx(state)
    ctx.push([{"heal": {"traits": []}}], seat)
    movement.ask_tile(ctx, state.script[-1], {"_move_to": {}}, "Where to?",
                      [*others, basement[0]])
    assert state.pending is not None and state.pending.kind == "floor_pick"
    floor = state.pending.labels.index("basement")
    state, _ = BETRAYAL.apply(state, seat, Action("choose", {"pick": floor}))
    assert state.pending is None
    assert state.explorers[seat].tile == basement[0]


def test_a_search_that_finds_one_card_left_takes_it_unasked(fixed: list[int]) -> None:
    """Seed 000 (All Living Things Must Abide): "4+ Place a Searched token in the room.
    Then look at the top three cards of the Item or Omen deck. Take one of them and bury
    the rest." With one card left in the Item deck and none in the Omen deck, there is
    one card to take: it is taken, and the log says so."""
    state = alta.start()
    seat = alta._at_the_start(state)
    assert state.haunt is not None
    state.haunt.progress["left"] = 1  # the track: a roll of 5+ will do
    last = state.decks["item"][0]
    state.decks["item"][:] = [last]
    state.decks["omen"][:] = []
    best = max(("knowledge", "sanity"), key=lambda t: traits.value(state, seat, t))
    fixed += [2] * alta.trait_dice(state, seat, best)
    state, _ = alta.act(state, seat, "search")
    state, said = alta.pick(state, 0)
    assert state.pending is None
    assert last in state.explorers[seat].cards and state.decks["item"] == []
    assert any("the last card of the Item deck" in t for t in said)


def test_henrys_hunter_keeps_the_last_item_unasked(dice: list[int]) -> None:
    """Seed 000 (Henry on the Hunt): "3+ Put a Searched token on your tile. Look at the
    top three cards of the Item deck. Take one of them and bury the rest." With one card
    in the Item deck (and no discards to shuffle in) there is one to take: it is kept."""
    state, _ = henry.start()
    seat, _room = henry._searching(state)
    last = state.decks["item"][0]
    state.decks["item"][:] = [last]
    state.discards["item"][:] = []
    state, _ = henry.act(state, seat, "search")
    dice += [2, 1] + [0] * 6  # a total of 3 on whichever trait
    state, _ = choose_label(state, "Knowledge")
    assert state.pending is None or state.pending.kind != "henry_keep"
    assert last in state.explorers[seat].cards and state.decks["item"] == []


def test_the_crystal_ball_on_a_deck_of_one_card_asks_no_card(dice: list[int]) -> None:
    """The Crystal Ball (data/betrayal/omens.yaml, seed 003's card in our words): "4+:
    search the item or event deck, set one card aside, shuffle, put it on top." An event
    deck of one card (the item deck gone to its discards) has one card to set aside: it
    goes on top, and its finder is told which, in private, as a pick would tell them."""
    state = new_game()
    hold(state, OX, "crystal_ball")
    state.discards["item"], state.decks["item"] = state.decks["item"], []
    state.decks["event"][:] = ["webs"]
    dice.extend([2, 2, 2])
    state, events = BETRAYAL.apply(state, OX, Action("use", {"card": "crystal_ball"}))
    assert state.pending is None and state.decks["event"] == ["webs"]
    assert any(e.audience == to_player(OX) and "Webs" in e.text for e in events)
