"""IT: Evil Below: the rules of seed 001 (and RULES.md's rulings), on arranged states.
Each test quotes the sentence of the rulebook it checks."""

from __future__ import annotations

import pytest

from bot import table as T
from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.games.base import HOST_SEAT, PlayerInfo
from bot.games.evilbelow import attacks, content
from bot.games.evilbelow.state import (
    ACTIONS,
    DRAINPIPE,
    FIGHT,
    LOSS_ATTACKS,
    LOSS_BRAVERY,
    LOSS_EMPTY,
    LOSS_INFLUENCE,
    ROLL,
    WIN,
    EvilBelowState,
)
from tests.evil_below_helpers import (
    APARTMENT,
    ARCADE,
    BALLOON,
    BARRENS,
    BOAT,
    BUTCHER,
    GAME,
    HAND,
    HEART,
    INHALER,
    NEIBOLT,
    PHARMACY,
    POSTCARD,
    ROCK,
    SQUARE,
    STANDPIPE,
    act,
    actions_phase,
    arrange,
    card,
    choose,
    fight_ready,
    kinds,
    rolled,
    take,
)

ATTACK = content.attack_ids()[0]


# ---------------------------------------------------------------- setup

def test_setup_follows_the_nine_steps() -> None:
    """'Place your mover on the game board in the location listed at the top of the
    Character board. Place a Bravery token on the "5" space' ... 'Place the Pennywise
    mover on the Drainpipe Space' ... 'Place the top 6 Totem cards and 1 Attack card
    facedown next to the Fight Stack indicator'."""
    players = [PlayerInfo(n) for n in ["A", "B", "C", "D", "E", "F", "G"]]
    state, _ = GAME.setup(players, 11, {})
    starts = {h.character: h.location for h in state.heroes}
    assert starts == {"bill": NEIBOLT, "bev": APARTMENT, "mike": BUTCHER, "richie": SQUARE,
                      "eddie": PHARMACY, "ben": BARRENS, "stan": STANDPIPE}
    assert all(h.bravery == 5 and not h.hand and not h.bike for h in state.heroes)
    # 'Randomly place one on each circle within the locations'
    tokens = [t for row in state.circles for t in row]
    assert sorted(tokens) == list(range(28)) and all(len(row) == 4 for row in state.circles)
    assert state.pennywise == DRAINPIPE
    # 'one Bike token in each of ... Butcher Shop, Town Square, House on Neibolt Street,
    # and The Standpipe'
    assert [i for i, n in enumerate(state.bikes) if n] == sorted([BUTCHER, SQUARE, NEIBOLT,
                                                                 STANDPIPE])
    assert sum(1 for c in state.fight_stack if content.is_attack(c)) == 1
    assert len(state.fight_stack) == 7
    assert len(state.totem_deck) == 43 and len(state.attack_pile) == 12
    # 'Separate the Weakness cards by reward — 1, 2, or 3 spaces.'
    assert [len(s) for s in state.weakness_stacks] == [6, 6, 6]
    for reward, stack in enumerate(state.weakness_stacks, start=1):
        assert {content.weakness(k).reward for k in stack} == {reward}
    assert state.strength == 0 and state.phase == ROLL


def test_the_youngest_player_starts() -> None:
    """'Give the youngest player the dice to start the game.'"""
    state, _ = GAME.setup([PlayerInfo("A"), PlayerInfo("B"), PlayerInfo("C")], 1,
                          {"youngest": "2"})
    assert GAME.to_act(state) == 2 and state.turn == 2
    with pytest.raises(IllegalAction):
        GAME.setup([PlayerInfo("A"), PlayerInfo("B")], 1, {"youngest": 5})


def test_the_host_is_the_youngest_unless_named() -> None:
    """RULES.md: 'the host names the youngest player in the lobby (default: the host)'.
    The table hands the host's seat to the setup: when the host left the lobby (an AI
    took seat 0) or a moderator gave the role to another, the host's seat starts."""
    ann, bo, mod = T.Actor(1, "Ann"), T.Actor(2, "Bo"), T.Actor(99, "Mod", moderator=True)
    table, _ = T.new_table("evilbelow", 10, 1, ann, 5)
    for actor, kind in ((ann, T.ADD_AI), (bo, T.JOIN), (ann, T.LEAVE), (bo, T.START)):
        table, _ = T.apply(table, actor, Action(kind))
    assert table.seats[0].ai and table.seat_of(table.host_id) == 1
    assert T.game_state(table).turn == 1
    table, _ = T.new_table("evilbelow", 11, 1, ann, 5)
    table, _ = T.apply(table, bo, Action(T.JOIN))
    table, _ = T.apply(table, mod, Action(T.HOST, {"user": 2}))
    table, _ = T.apply(table, bo, Action(T.START))
    assert T.game_state(table).turn == 1
    # Named in the lobby, the youngest starts whoever hosts; with no table, the first seat.
    players = [PlayerInfo("A"), PlayerInfo("B"), PlayerInfo("C")]
    state, _ = GAME.setup(players, 1, {HOST_SEAT: 1, "youngest": "0"})
    assert state.turn == 0
    state, _ = GAME.setup(players, 1, {HOST_SEAT: 2})
    assert state.turn == 2
    assert GAME.setup(players, 1, {})[0].turn == 0


def test_characters_are_picked_once_each() -> None:
    state, _ = GAME.setup([PlayerInfo("A"), PlayerInfo("B")], 1,
                          {"characters": ["stan", None]})
    assert [h.character for h in state.heroes] == ["stan", "bill"]
    with pytest.raises(IllegalAction):
        GAME.setup([PlayerInfo("A"), PlayerInfo("B")], 1, {"characters": ["ben", "ben"]})


# ---------------------------------------------------------------- the roll

def test_all_seven_dice_are_rolled_once() -> None:
    """'The active player must roll all 7 dice once. There are no rerolls.'"""
    state = arrange(["bill", "bev"])
    state, _ = act(state, 0, "roll")
    assert len(state.dice) == 7 and all(state.dice)
    assert "roll" not in kinds(state, 0)
    with pytest.raises(IllegalAction):
        act(state, 0, "roll")


# ---------------------------------------------------------------- sightings

def test_a_sighting_takes_the_first_victim_and_scares_who_is_there() -> None:
    """'Reveal the first available Victim token (working left to right ...)' and 'If any
    of the Balloons are for a location where a player's Character is present, that
    player immediately loses 1 Bravery.'"""
    state = arrange(["bev", "ben"], {0: BARRENS})
    first = state.circles[BARRENS][0]
    state, _ = rolled(state, {BARRENS: BALLOON})
    assert state.circles[BARRENS][0] is None and state.circles[BARRENS][1] is not None
    assert state.track == [first]  # 'place it on the lowest available space'
    assert [h.bravery for h in state.heroes] == [4, 4]


def test_an_attack_token_adds_a_face_down_attack_card() -> None:
    """'If the revealed token shows a Pennywise Attack symbol ... Place the top card of
    the Pennywise Attack pile ... on the top of the Fight Stack. Return all revealed
    Pennywise Attack symbol tokens to the box.'"""
    state = arrange(["bev", "ben"])
    state.circles[NEIBOLT][0] = 0  # an attack token, swapped with a child
    state.circles[SQUARE][3] = 3
    before = len(state.attack_pile)
    state, _ = rolled(state, {NEIBOLT: BALLOON})
    assert state.box == [0] and state.track == []
    assert content.is_attack(state.fight_stack[-1]) and len(state.attack_pile) == before - 1


def test_emptying_a_location_reveals_pennywise_and_later_sightings_add_attacks() -> None:
    """'if you remove the last Victim token from a Location, Pennywise is revealed. Place
    a Pennywise Attack card on the Fight Stack ... each successive time a Pennywise
    sighting happens in that Location, add another Pennywise Attack card'."""
    state = arrange(["bev", "ben"])
    state.circles[NEIBOLT] = [None, None, None, state.circles[NEIBOLT][3]]
    pile = len(state.attack_pile)
    state, _ = rolled(state, {NEIBOLT: BALLOON})
    assert state.remaining(NEIBOLT) == 0 and len(state.attack_pile) == pile - 1
    state.phase = ROLL
    state, _ = rolled(state, {NEIBOLT: BALLOON})
    assert len(state.attack_pile) == pile - 2 and len(state.track) == 1


def test_pennywise_moves_where_he_is_strongest() -> None:
    """'Pennywise will move to the location where he is strongest. This is determined by
    the number of Victim tokens missing from each location.'"""
    state = arrange(["bev", "ben"])
    state.circles[BARRENS][0] = None  # the rulebook's example: The Barrens misses two
    state, _ = rolled(state, {STANDPIPE: BALLOON, BARRENS: BALLOON, APARTMENT: BALLOON})
    assert state.pennywise == BARRENS and state.phase == ACTIONS


def test_a_tie_is_the_players_choice() -> None:
    """'If there are two or more locations where Pennywise has equal strength, the
    players choose one of those locations to move Pennywise into.'"""
    state = arrange(["bev", "ben"], turn=1)
    state, _ = rolled(state, {STANDPIPE: BALLOON, APARTMENT: BALLOON})
    assert state.pending is not None and state.pending.seat == 1
    assert GAME.to_act(state) == 1 and GAME.options(state, 0) == []
    state, _ = choose(state, 1)
    assert state.pennywise == APARTMENT


def test_no_balloon_no_move() -> None:
    """'Note: if no Balloons are rolled, Pennywise does not move.'"""
    state = arrange(["bev", "ben"])
    state.pennywise = SQUARE
    state, _ = rolled(state, {})
    assert state.pennywise == SQUARE and state.phase == ACTIONS


def test_balloon_dice_are_set_aside() -> None:
    """'Set aside all dice with a Balloon.'"""
    state = arrange(["bev", "ben"], {0: STANDPIPE})
    state, _ = rolled(state, {STANDPIPE: BALLOON})
    assert state.dice_used[STANDPIPE]
    assert all(o.action.args.get("die") != STANDPIPE for o in GAME.options(state, 0))


# ---------------------------------------------------------------- Evil Influence attacks

def test_an_attack_space_makes_pennywise_attack_the_active_player() -> None:
    """'Every time a Victim token is placed on a Pennywise Attack symbol space on the
    Evil Influence track, Pennywise will attack the active player ... Immediately move
    Pennywise to the active player's location. ... Once the Attack is resolved, place
    the card facedown on the Fight Stack.'"""
    space = content.board().influence_attacks[0]
    state = arrange(["bev", "ben"], {0: SQUARE})
    take(state, space - 1)
    floating = content.attack_ids()[1]  # printed: 0/A 'Lower Bravery by 1 and discard 2'
    state.attack_pile.remove(floating) if floating in state.attack_pile else \
        state.fight_stack.remove(floating)
    state.attack_pile.append(floating)
    state, events = rolled(state, {BARRENS: BALLOON})
    assert len(state.track) == space
    assert any(e.kind == "pennywise" and e.data["pennywise"] == SQUARE for e in events)
    assert state.heroes[0].bravery == 4  # Town Square misses nothing: the 0/A line
    assert state.fight_stack[-1] == floating and state.held is None
    assert state.pennywise == BARRENS  # then he moves where he is strongest


def test_attack_lines_follow_the_letters_showing() -> None:
    """RULES.md: 'the "0/A" line when none or one victim is missing, A and B with two,
    A, B and C with three or more'."""
    assert [attacks.lines_showing(m) for m in range(5)] == [1, 1, 2, 3, 3]


def test_damage_is_split_by_the_active_player_one_point_at_a_time() -> None:
    """'If there are multiple players in a location attacked by Pennywise, those damage
    effects may be spread out among all the players there.'"""
    state = arrange(["bev", "ben"], {0: SQUARE, 1: SQUARE})
    state.circles[SQUARE][0] = None
    state.circles[SQUARE][1] = None  # A and B showing
    floating = content.attack_ids()[1]  # 0/A: 1 Bravery, 2 cards; B: 1 Bravery
    state.phase = ACTIONS
    events: list = []
    attacks.begin(state, floating, SQUARE, "stack", events)
    from bot.games.evilbelow import rules
    rules.advance(state, events)
    assert state.pending is not None and state.pending.kind == attacks.PICK_BRAVERY
    state, _ = choose(state, 1)  # Ben takes the first point
    # nobody holds cards: the discards fall away; the B line's point is asked again
    assert state.pending is not None
    state, _ = choose(state, 1)
    assert [h.bravery for h in state.heroes] == [5, 3]
    assert state.fight_stack[-1] == floating and state.held is None


def test_only_one_player_with_cards_takes_the_whole_attack() -> None:
    """'if the damage effect includes discarding cards and only one player in the
    location has cards in hand, they have to accept that entire Attack.'"""
    state = arrange(["bev", "ben"], {0: SQUARE, 1: SQUARE})
    state.heroes[1].hand = [card(NEIBOLT, ROCK)]
    state.phase = ACTIONS
    events: list = []
    attacks.begin(state, content.attack_ids()[1], SQUARE, "stack", events)
    from bot.games.evilbelow import rules
    rules.advance(state, events)
    assert state.pending is None
    assert state.heroes[1].bravery == 4 and state.heroes[1].hand == []
    assert state.heroes[0].bravery == 5


# ---------------------------------------------------------------- actions

def test_any_die_moves_to_an_adjacent_location() -> None:
    """'Regardless of color (or symbol), any die may be used to move your Character mover
    to an adjacent location. Set aside one die each time you move.'"""
    state = actions_phase(arrange(["bev", "ben"]), {PHARMACY: HEART})
    state, _ = act(state, 0, "move", die=PHARMACY, to=STANDPIPE)
    assert state.heroes[0].location == STANDPIPE and state.dice_used[PHARMACY]
    with pytest.raises(IllegalAction):
        act(state, 0, "move", die=PHARMACY, to=BARRENS)  # that die is spent
    with pytest.raises(IllegalAction):
        act(state, 0, "move", die=SQUARE, to=PHARMACY)  # not adjacent


def test_the_prepare_to_fight_example_walks_our_town() -> None:
    """The rulebook's example: Ben 'is currently in The Barrens and has four dice left
    ... He uses the first die to move to House on Neibolt Street and immediately puts his
    red card into the Fight Stack. Next he uses a die showing a red hand symbol to draw
    ... The new card is also red, so he puts that card into the Fight Stack as well. He
    then uses a die to move to Keene's Pharmacy and places the blue Keene's Pharmacy
    card ... Using his last die, he moves to Town Square, where Pennywise and Richie are
    located. ... He draws a card and sees that it is a purple Town Square card. He
    places that card into the Fight Stack'. Our designed map must allow each step."""
    state = arrange(["ben", "richie"], {0: BARRENS, 1: SQUARE})
    state.heroes[0].hand = [card(PHARMACY, INHALER), card(NEIBOLT, ROCK)]
    for top in (card(SQUARE, ARCADE), card(NEIBOLT, BOAT)):  # the red one drawn first
        for pile in (state.totem_deck, state.fight_stack, state.stack_hidden):
            if top in pile:
                pile.remove(top)
        state.totem_deck.append(top)
    state = actions_phase(state, {NEIBOLT: HAND, STANDPIPE: HEART, APARTMENT: HEART,
                                  BUTCHER: HEART, BARRENS: BALLOON, SQUARE: BALLOON,
                                  PHARMACY: BALLOON})
    state.dice_used = [face == BALLOON for face in state.dice]  # four dice left
    state.pennywise = SQUARE
    stack = len(state.fight_stack)
    state, _ = act(state, 0, "move", die=STANDPIPE, to=NEIBOLT)
    state, _ = act(state, 0, "place", card=card(NEIBOLT, ROCK))
    state, _ = act(state, 0, "pickup", die=NEIBOLT, what="draw")
    state, _ = act(state, 0, "place", card=card(NEIBOLT, BOAT))
    state, _ = act(state, 0, "move", die=APARTMENT, to=PHARMACY)
    state, _ = act(state, 0, "place", card=card(PHARMACY, INHALER))
    state, _ = act(state, 0, "move", die=BUTCHER, to=SQUARE)
    assert state.heroes[0].location == SQUARE and all(state.dice_used)
    state, _ = act(state, 0, "fight")
    state, _ = act(state, 0, "place", card=card(SQUARE, ARCADE))
    assert state.fight_stack[stack:] == [card(NEIBOLT, ROCK), card(NEIBOLT, BOAT),
                                         card(PHARMACY, INHALER), card(SQUARE, ARCADE)]
    board = content.board()
    for a, b in ((BARRENS, NEIBOLT), (NEIBOLT, PHARMACY), (PHARMACY, SQUARE)):
        assert b in board.neighbours(a) and a in board.neighbours(b)


def test_pick_up_draws_only_with_the_die_of_where_you_stand() -> None:
    """'A Pick Up (hand) die can be used ... when in that die's corresponding location:
    Draw a card' ... 'Hand size is limited to 3 cards.'"""
    state = actions_phase(arrange(["bev", "ben"]), {APARTMENT: HAND, NEIBOLT: HAND})
    with pytest.raises(IllegalAction):
        act(state, 0, "pickup", die=NEIBOLT, what="draw")
    state.heroes[0].hand = [card(NEIBOLT, 0), card(NEIBOLT, 1), card(NEIBOLT, 2)]
    assert "pickup" not in kinds(state, 0)
    state.heroes[0].hand = []
    state, _ = act(state, 0, "pickup", die=APARTMENT, what="draw")
    assert len(state.heroes[0].hand) == 1


def test_only_one_action_per_location_each_turn() -> None:
    """'only one action will be able to be resolved in each Location on a player's
    turn.'"""
    state = actions_phase(arrange(["bev", "ben"], {0: NEIBOLT}), {NEIBOLT: HAND})
    state, _ = act(state, 0, "pickup", die=NEIBOLT, what="draw")
    assert "pickup" not in kinds(state, 0)
    assert state.acted == [NEIBOLT]


def test_one_bike_at_a_time_and_ride_anywhere_on_any_turn() -> None:
    """'You may not have more than one Bike token in your possession at a time.' and
    'Players with a Bike token can move ... to any other location ... on any player's
    turn. Once they've moved, return the Bike token to the board in the destination'."""
    state = actions_phase(arrange(["bev", "ben"], {1: NEIBOLT}), {})
    state.heroes[1].bike = True
    state.bikes[NEIBOLT] = 1
    assert "ride" in kinds(state, 1) and "move" not in kinds(state, 1)
    state, _ = act(state, 1, "ride", to=PHARMACY)
    assert state.heroes[1].location == PHARMACY and not state.heroes[1].bike
    assert state.bikes[PHARMACY] == 1
    # on his own turn, a Bike holder cannot pick up a second one
    state = actions_phase(arrange(["bev", "bill"], {0: NEIBOLT}), {NEIBOLT: HAND})
    state.heroes[0].bike = True
    assert all(o.action.args.get("what") != "bike" for o in GAME.options(state, 0))


def test_a_rider_may_place_totems_where_they_arrive() -> None:
    """RULES.md: 'a player who rides a Bike on another's turn may put totems into the
    Fight Stack there'."""
    state = actions_phase(arrange(["bev", "ben"]), {})
    state.heroes[1].bike = True
    state.heroes[1].hand = [card(PHARMACY, ROCK), card(NEIBOLT, ROCK)]
    assert "place" not in kinds(state, 1)
    state, _ = act(state, 1, "ride", to=PHARMACY)
    assert [o.action.args["card"] for o in GAME.options(state, 1)
            if o.action.kind == "place"] == [card(PHARMACY, ROCK)]


def test_courage_raises_bravery_of_everyone_there_up_to_five() -> None:
    """'Every player in the Location can increase their Bravery level by 1. A player's
    Bravery may never go above 5.'"""
    state = actions_phase(arrange(["bev", "ben", "bill"], {1: APARTMENT}), {APARTMENT: HEART})
    state.heroes[0].bravery, state.heroes[1].bravery = 5, 2
    state, _ = act(state, 0, "courage", die=APARTMENT, what="bravery")
    assert [h.bravery for h in state.heroes] == [5, 3, 5]


def test_rescue_returns_the_topmost_victim_to_the_rightmost_open_space() -> None:
    """'Return the topmost Victim token from the Evil Influence track to the rightmost
    (or bottommost) open space in the location.'"""
    state = actions_phase(arrange(["bev", "ben"]), {APARTMENT: HEART})
    row = state.circles[APARTMENT]
    taken = [row[0], row[1]]
    row[0] = row[1] = None
    state.track = list(taken)
    state, _ = act(state, 0, "courage", die=APARTMENT, what="rescue")
    assert state.track == [taken[0]] and state.circles[APARTMENT][1] == taken[1]
    assert state.circles[APARTMENT][0] is None


def test_no_rescue_once_the_attack_symbol_shows() -> None:
    """'Once the Pennywise Attack symbol on the game board is revealed in a Location,
    Victims can no longer be rescued there.'"""
    state = actions_phase(arrange(["bev", "ben"]), {APARTMENT: HEART})
    state.track = [t for t in state.circles[APARTMENT] if t is not None]
    state.circles[APARTMENT] = [None] * 4
    options = GAME.options(state, 0)
    assert all(o.action.args.get("what") != "rescue" for o in options)


def test_totems_go_into_the_fight_stack_for_free_where_they_belong() -> None:
    """'if their mover is in a location that matches the location of one or more Totem
    cards in their hand, they may place it in the Fight Stack facedown ... and does not
    require using a die.'"""
    state = actions_phase(arrange(["bev", "ben"]), {})
    state.heroes[0].hand = [card(APARTMENT, ROCK), card(NEIBOLT, ROCK)]
    size = len(state.fight_stack)
    state, _ = act(state, 0, "place", card=card(APARTMENT, ROCK))
    assert len(state.fight_stack) == size + 1 and not any(state.dice_used)
    with pytest.raises(IllegalAction):
        act(state, 0, "place", card=card(NEIBOLT, ROCK))


# ---------------------------------------------------------------- fights

def test_a_fight_needs_pennywise_the_active_player_and_a_friend() -> None:
    """'To fight Pennywise, the active player and at least one other player must be in
    the same location as Pennywise.' ... 'If the Fight Stack is empty, players may not
    initiate a fight'."""
    state = fight_ready(["bev", "bill"], [card(NEIBOLT, ROCK)])
    assert "fight" in kinds(state, 0)
    state.heroes[1].location = NEIBOLT
    assert "fight" not in kinds(state, 0)
    state.heroes[1].location = SQUARE
    state.fight_stack = []
    assert "fight" not in kinds(state, 0)


def test_reveal_at_least_one_then_stop_collects_every_weakness_met() -> None:
    """'at least one card must be revealed from the Fight Stack before the player may
    choose to stop' and 'they gain the rewards for ALL Weakness cards whose conditions
    are met. It is possible for the same Totem cards to be used to complete multiple
    Weaknesses in one fight.'"""
    stack = [card(NEIBOLT, ROCK), card(BARRENS, ROCK), card(STANDPIPE, POSTCARD)]
    state = fight_ready(["bev", "bill"], stack)
    state.weakness_stacks = [["twin_totems"], ["all_over_town"], ["whole_club"]]
    state, _ = act(state, 0, "fight")
    assert state.phase == FIGHT and "stop" not in kinds(state, 0)
    state.fight.shuffled = True  # type: ignore[union-attr]  # keep the arranged order
    state, _ = act(state, 0, "reveal")
    state, _ = act(state, 0, "reveal")
    assert state.fight.revealed == [card(STANDPIPE, POSTCARD), card(BARRENS, ROCK)]  # type: ignore[union-attr]
    state, _ = act(state, 0, "reveal")
    state, _ = act(state, 0, "stop") if not state.over and state.phase == FIGHT else (state, [])
    # two Rocks: twin_totems (1); keepsakes-like cards do not count for others here
    assert state.strength == 1 and state.weakness_done == ["twin_totems"]
    assert set(stack) <= set(state.totem_discard)
    assert state.turn == 1 and state.phase == ROLL  # the turn ended


def test_revealing_an_attack_card_ends_the_fight_with_a_counterattack() -> None:
    """'When the active player reveals a Pennywise Attack card ... All Totem cards
    revealed must be discarded ... Pennywise counterattacks ... Place the Pennywise
    Attack card facedown on the bottom of the Attack card draw pile.'"""
    werewolf = content.attack_ids()[6]  # designed: 0/A lose 1 Bravery
    state = fight_ready(["bev", "bill"], [werewolf, card(NEIBOLT, ROCK)])
    state, _ = act(state, 0, "fight")
    state.fight.shuffled = True  # type: ignore[union-attr]
    state, _ = act(state, 0, "reveal")
    state, _ = act(state, 0, "reveal")
    assert state.pending is not None  # who loses the point: two Losers there
    state, _ = choose(state, 0)
    assert state.heroes[0].bravery == 4
    assert state.attack_pile[0] == werewolf and werewolf not in state.fight_stack
    assert card(NEIBOLT, ROCK) in state.totem_discard and state.strength == 0


def test_a_special_totem_pays_out_even_if_an_attack_follows() -> None:
    """'The bonus is granted when the Totem card is revealed, and cannot be cancelled
    even if a Pennywise Attack card is revealed.'"""
    boat = card(NEIBOLT, BOAT)  # Bill's special totem (designed)
    assert content.specials()[boat] == "bill"
    state = fight_ready(["bev", "bill"], [content.attack_ids()[6], boat])
    state, _ = act(state, 0, "fight")
    state.fight.shuffled = True  # type: ignore[union-attr]
    state, _ = act(state, 0, "reveal")
    assert state.strength == 1
    state, _ = act(state, 0, "reveal")
    state, _ = choose(state, 0)
    assert state.strength == 1


# ---------------------------------------------------------------- the end

def test_a_player_at_zero_bravery_loses_the_game() -> None:
    """'Any player's Bravery falls to 0.'"""
    state = arrange(["bev", "ben"], {1: BARRENS})
    state.heroes[1].bravery = 1
    state, _ = rolled(state, {BARRENS: BALLOON})
    assert state.over and state.result == LOSS_BRAVERY and GAME.to_act(state) is None


def test_a_sighting_that_breaks_a_losers_bravery_loses_at_once() -> None:
    """'If any of the Balloons are for a location where a player's Character is present,
    that player immediately loses 1 Bravery.' and the game is lost when 'Any player's
    Bravery falls to 0.': the game ends there, a Bravery loss, before that sighting's
    victim is taken, whether that child would land on an Evil Influence attack space
    (no attack plays out) or fill the track's last space (not an Evil Influence loss)."""
    board = content.board()
    for before in (board.influence_attacks[0] - 1, board.influence_length - 1):
        state = arrange(["bev", "ben"], {0: BARRENS, 1: BARRENS})
        take(state, before)
        state.heroes[0].bravery = 1
        state.heroes[0].hand = [card(NEIBOLT, ROCK)]
        state.heroes[1].hand = [card(NEIBOLT, INHALER)]
        state, events = rolled(state, {BARRENS: BALLOON})
        assert state.over and state.result == LOSS_BRAVERY
        assert state.pending is None and state.damage == [] and state.held is None
        assert len(state.track) == before and not any(e.kind == "attack" for e in events)
        assert [h.hand for h in state.heroes] == [[card(NEIBOLT, ROCK)],
                                                  [card(NEIBOLT, INHALER)]]
        assert [h.bravery for h in state.heroes] == [0, 4]  # both were there


def test_a_full_evil_influence_track_loses() -> None:
    """'All of the spaces in the Evil Influence track are filled with Victim tokens.'
    RULES.md: 'a full Evil Influence track ends the game before its attack resolves'."""
    state = arrange(["bev", "ben"])
    take(state, content.board().influence_length - 1)
    state, _ = rolled(state, {BARRENS: BALLOON})
    assert state.over and state.result == LOSS_INFLUENCE and state.held is None


def test_three_empty_locations_lose() -> None:
    """'If three (or more) Locations have no Victim tokens remaining after Resolving
    Sightings, Pennywise wins immediately.'"""
    state = arrange(["bev", "ben"])
    for loc in (NEIBOLT, BARRENS):
        state.box += [t for t in state.circles[loc] if t is not None]
        state.circles[loc] = [None] * 4
    state.circles[STANDPIPE] = [None, None, None, state.circles[STANDPIPE][3]]
    state, _ = rolled(state, {STANDPIPE: BALLOON})
    assert state.over and state.result == LOSS_EMPTY


def _two_empty_and_one_left_in_the_standpipe(state: EvilBelowState,
                                             track: int = 0) -> None:
    """The Neibolt house and the Barrens emptied, one victim left in the Standpipe, and
    `track` children on the Evil Influence track (from the Butcher Shop too)."""
    for loc in (NEIBOLT, BARRENS):
        state.box += [t for t in state.circles[loc] if t is not None]
        state.circles[loc] = [None] * 4
    moved = [t for t in state.box if t >= content.board().attack_tokens][:track]
    state.track += moved
    state.box = [t for t in state.box if t not in moved]
    take(state, track - len(state.track), (BUTCHER,))
    state.circles[STANDPIPE] = [None, None, None, state.circles[STANDPIPE][3]]


def test_three_empty_locations_lose_only_after_every_sighting_of_the_roll() -> None:
    """'If three (or more) Locations have no Victim tokens remaining after Resolving
    Sightings, Pennywise wins immediately.' The Standpipe's die empties the third
    location; the Apartment's die, later in the dice' order, still takes its victim
    (and its Bravery) before Pennywise wins."""
    state = arrange(["bev", "ben"], {1: APARTMENT})
    _two_empty_and_one_left_in_the_standpipe(state)
    before = state.remaining(APARTMENT)
    state, events = rolled(state, {STANDPIPE: BALLOON, APARTMENT: BALLOON})
    assert [e.data["location"] for e in events if e.kind == "sighting"] == [STANDPIPE,
                                                                            APARTMENT]
    assert state.remaining(APARTMENT) == before - 1
    assert state.heroes[1].bravery == 4
    assert state.over and state.result == LOSS_EMPTY
    assert [e.kind for e in events].index("game_over") > max(
        i for i, e in enumerate(events) if e.kind == "sighting")


def test_other_losses_keep_their_moment_within_the_roll() -> None:
    """'Any player's Bravery falls to 0.' and 'All of the spaces in the Evil Influence
    track are filled with Victim tokens.' end the game when they happen, even in a roll
    that has already emptied a third location (which loses only 'after Resolving
    Sightings')."""
    state = arrange(["bev", "ben"], {1: APARTMENT})
    _two_empty_and_one_left_in_the_standpipe(state)
    state.heroes[1].bravery = 1
    state, events = rolled(state, {STANDPIPE: BALLOON, APARTMENT: BALLOON,
                                   SQUARE: BALLOON})
    assert state.over and state.result == LOSS_BRAVERY
    assert [e.data["location"] for e in events if e.kind == "sighting"] == [STANDPIPE,
                                                                            APARTMENT]
    state = arrange(["bev", "ben"])
    _two_empty_and_one_left_in_the_standpipe(state, content.board().influence_length - 2)
    state, events = rolled(state, {STANDPIPE: BALLOON, APARTMENT: BALLOON,
                                   SQUARE: BALLOON})
    assert state.over and state.result == LOSS_INFLUENCE
    assert [e.data["location"] for e in events if e.kind == "sighting"] == [STANDPIPE,
                                                                            APARTMENT]


def test_all_thirteen_attacks_in_the_fight_stack_lose() -> None:
    """'All 13 Pennywise Attack cards are in the Fight Stack.'"""
    state = arrange(["bev", "ben"])
    state.fight_stack += state.attack_pile[:-1]
    state.attack_pile = state.attack_pile[-1:]
    state.circles[NEIBOLT][0] = 0
    state.circles[SQUARE][3] = 3
    state, _ = rolled(state, {NEIBOLT: BALLOON})
    assert state.over and state.result == LOSS_ATTACKS


def test_the_strength_token_at_the_end_wins() -> None:
    """'The players win only if they are able to move the Losers' Club Strength token to
    the end of the track.'"""
    stack = [card(NEIBOLT, ROCK), card(BARRENS, ROCK)]
    state = fight_ready(["bev", "bill"], stack)
    state.strength = content.board().strength_length - 1
    state.weakness_stacks = [["twin_totems"], [], []]
    state, _ = act(state, 0, "fight")
    state, _ = act(state, 0, "reveal")
    state, _ = act(state, 0, "reveal") if state.phase == FIGHT else (state, [])
    if state.phase == FIGHT:
        state, _ = act(state, 0, "stop")
    assert state.over and state.result == WIN


def test_out_of_turn_actions_are_offered_to_their_seats_only() -> None:
    """Several seats may act: the active player's controls, and a Bike holder's ride."""
    state = actions_phase(arrange(["bev", "ben", "bill"]), {})
    state.heroes[2].bike = True
    assert GAME.to_act(state) == 0
    assert kinds(state, 2) == {"ride"} and kinds(state, 1) == set()
    assert GAME.out_of_turn(state) == [2]
    with pytest.raises(IllegalAction):
        GAME.apply(state, 1, Action("end_turn"))
