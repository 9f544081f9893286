"""IT: Evil Below, a third rules audit of seed 001, sentence by sentence: what the first
two passes left unquoted (the dice, a second Evil Influence attack in one roll, the
discard pile and its reshuffle, the Bikes, the printed weakness and attack cards, the
special totems, a fight's ends), and the 2-7 player range through the lobby, the AI seats,
the set-up and the board drawn for seven. Each test quotes the sentence it checks."""

from __future__ import annotations

import pytest

from bot import table as T
from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.games.base import PlayerInfo
from bot.games.evilbelow import attacks, content, rules, weaknesses
from bot.games.evilbelow.content import BALLOON, HAND, HEART
from bot.games.evilbelow.pictures import board_view
from bot.games.evilbelow.state import ACTIONS, FIGHT, ROLL, EvilBelowState
from renderers.evilbelow import render_board
from renderers.evilbelow.draw import geometry
from tests.evil_below_helpers import (
    APARTMENT,
    ARCADE,
    BARRENS,
    BOAT,
    BUTCHER,
    CAP,
    DEEP_WATER,
    FLOATING,
    GAME,
    INHALER,
    NEIBOLT,
    PHARMACY,
    POSTCARD,
    ROCK,
    SQUARE,
    STANDPIPE,
    YEARBOOK,
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

WEREWOLF, BIRD = content.attack_ids()[6], content.attack_ids()[11]  # 0/A: 1 Bravery
SEVEN = ["bill", "bev", "mike", "richie", "eddie", "ben", "stan"]


def _on_top_of_the_attack_pile(state: EvilBelowState, *cards: int) -> None:
    """These attack cards next off the Attack pile, the last named first."""
    for c in cards:
        for pile in (state.attack_pile, state.fight_stack, state.stack_hidden):
            if c in pile:
                pile.remove(c)
    state.attack_pile += list(cards)


def _strike(state: EvilBelowState, attack: int, where: int) -> tuple[EvilBelowState, list]:
    """An attack card resolving in `where` (as an Evil Influence attack would), each
    card to discard picked first in the order offered."""
    events: list = []
    state.phase = ACTIONS
    attacks.begin(state, attack, where, "stack", events)
    rules.advance(state, events)
    while state.pending is not None and state.pending.kind == attacks.PICK_DISCARD:
        state, more = choose(state, 0)
        events += more
    return state, events


def _fight_in_order(state: EvilBelowState) -> EvilBelowState:
    """Start the fight, the Fight Stack kept in the order arranged (top = end)."""
    state, _ = act(state, 0, "fight")
    assert state.fight is not None
    state.fight.shuffled = True
    return state


# ---------------------------------------------------------------- the dice

def test_seven_dice_of_three_symbols_one_for_each_location() -> None:
    """'The dice have three different symbols: Balloon ... Pick Up (a hand) ... Courage
    (a heart)' and 'Each of the seven dice has colored symbols relating to one of the
    seven locations on the game board.'"""
    faces = content.dice_faces()
    assert len(faces) == len(content.board().keys) == 7
    assert all(set(die) == {BALLOON, HAND, HEART} for die in faces)
    state = arrange(["bev", "ben"])
    state, _ = act(state, 0, "roll")
    assert all(face in faces[d] for d, face in enumerate(state.dice))


def test_only_the_active_player_spends_the_dice() -> None:
    """'Any remaining dice in the active player's pool can be used to take actions.' A
    friend standing where a die shows a heart has nothing to spend it on."""
    state = actions_phase(arrange(["bev", "ben"], {1: APARTMENT}), {APARTMENT: HEART})
    state.heroes[1].bravery = 3
    assert kinds(state, 1) == set()
    for kind, args in (("courage", {"die": APARTMENT, "what": "bravery"}),
                       ("move", {"die": APARTMENT, "to": STANDPIPE})):
        with pytest.raises(IllegalAction):
            GAME.apply(state, 1, Action(kind, args))
    state, _ = act(state, 0, "courage", die=APARTMENT, what="bravery")
    assert state.heroes[1].bravery == 4  # the active player's die lifted both


# ---------------------------------------------------------------- sightings and attacks

def test_two_evil_influence_attacks_can_strike_in_one_roll() -> None:
    """'Every time a Victim token is placed on a Pennywise Attack symbol space on the
    Evil Influence track, Pennywise will attack the active player. This can happen
    multiple times in one turn.' Four children on the track, five balloons: the 5th and
    the 9th spaces both fill, and each attack plays out and goes onto the Fight Stack."""
    board = content.board()
    assert board.influence_attacks == (5, 9)
    state = arrange(["bev", "ben"], {0: APARTMENT, 1: PHARMACY})
    take(state, 2, (BUTCHER,))
    take(state, 2, (PHARMACY,))
    _on_top_of_the_attack_pile(state, BIRD, WEREWOLF)
    state, events = rolled(state, {NEIBOLT: BALLOON, BARRENS: BALLOON, STANDPIPE: BALLOON,
                                   SQUARE: BALLOON, BUTCHER: BALLOON})
    assert len(state.track) == 9 and not state.over
    struck = [e.data["card"] for e in events if e.kind == "attack"]
    assert struck == [WEREWOLF, BIRD]
    assert state.heroes[0].bravery == 3 and state.heroes[1].bravery == 5
    assert state.fight_stack[-2:] == [WEREWOLF, BIRD] and state.held is None


def test_the_rulebooks_barrens_attack_resolves_the_a_and_b_lines() -> None:
    """'In the previous example, Pennywise took two victims from The Barrens, revealing
    the letters "A" and "B". When Pennywise Attacks in that location, both the "A" and
    "B" Attacks on the card are resolved.' The printed Attack Encounter card there: 0/A
    'Lower Bravery by 1 and discard 2 Totem cards', B 'Lower Bravery by 1' (not C's 2)."""
    assert content.attack_card(FLOATING).lines == ((("bravery", 1), ("discard", 2)),
                                                   (("bravery", 1),), (("bravery", 2),))
    state = arrange(["bev", "ben"], {1: BARRENS})
    take(state, 2, (BARRENS,))
    state.heroes[1].hand = [card(NEIBOLT, ROCK), card(SQUARE, ROCK)]
    state, events = _strike(state, FLOATING, BARRENS)
    assert state.heroes[1].bravery == 3 and state.heroes[1].hand == []
    assert next(e for e in events if e.kind == "attack").data["lines"] == 2


def test_damage_split_among_players_is_still_paid_in_full() -> None:
    """'Otherwise, the loss of Bravery and cards can be split amongst those players.' but
    'The damage effects must still be satisfied to their full extent.' All three lines of
    the printed Attack Encounter card (1 + 1 + 2 Bravery) cost four points, however the
    active player hands them out."""
    for picks in ((0, 0, 0, 0), (0, 1, 0, 1), (1, 1, 1, 0)):
        state = arrange(["bev", "ben"], {0: BARRENS, 1: BARRENS})
        take(state, 3, (BARRENS,))
        state, _ = _strike(state, FLOATING, BARRENS)
        for pick in picks:
            assert state.pending is not None and state.pending.kind == attacks.PICK_BRAVERY
            state, _ = choose(state, pick)
        assert state.pending is None and state.held is None
        assert sum(5 - h.bravery for h in state.heroes) == 4


def test_discarded_totems_go_to_the_discard_pile() -> None:
    """'Discarded Totem cards should be placed in a discard pile to the left of the
    Totem cards draw pile.'"""
    state = arrange(["bev", "ben"], {1: SQUARE})
    held = [card(NEIBOLT, ROCK), card(SQUARE, CAP)]
    state.heroes[1].hand = list(held)
    deck = list(state.totem_deck)
    state, _ = _strike(state, FLOATING, SQUARE)
    assert state.totem_discard == held and state.totem_deck == deck


# ---------------------------------------------------------------- player actions

def test_an_empty_draw_pile_is_made_anew_from_the_discards() -> None:
    """'If the draw pile is ever empty, shuffle the Totem card discard pile and make a new
    draw pile.'"""
    state = actions_phase(arrange(["bev", "ben"]), {APARTMENT: HAND})
    discards = [card(NEIBOLT, ROCK), card(BARRENS, CAP), card(SQUARE, BOAT)]
    state.totem_deck, state.totem_discard = [], list(discards)
    state, events = act(state, 0, "pickup", die=APARTMENT, what="draw")
    assert any(e.kind == "reshuffle" for e in events)
    assert state.totem_discard == [] and len(state.totem_deck) == 2
    assert sorted(state.totem_deck + state.heroes[0].hand) == sorted(discards)


def test_a_full_hand_draws_no_more_but_may_still_take_a_bike() -> None:
    """'Hand size is limited to 3 cards. If you already have three cards in hand, you
    cannot draw any more cards.' ... 'Alternatively, use a Pick Up die to take a Bike
    token from a Location.'"""
    state = actions_phase(arrange(["bill", "bev"]), {NEIBOLT: HAND})
    state.heroes[0].hand = [card(BARRENS, t) for t in (ROCK, CAP, BOAT)]
    picks = [o.action.args["what"] for o in GAME.options(state, 0) if o.action.kind == "pickup"]
    assert picks == ["bike"]
    with pytest.raises(IllegalAction):
        act(state, 0, "pickup", die=NEIBOLT, what="draw")
    state, _ = act(state, 0, "pickup", die=NEIBOLT, what="bike")
    assert state.heroes[0].bike and len(state.heroes[0].hand) == 3


def test_a_bike_left_by_one_loser_is_anyones() -> None:
    """'Bikes do not belong to any player, and can be picked up by anyone regardless of
    whether another player has already used it.' Ben rides to Bev's Apartment on her
    turn; she takes the Bike he left there with her hand die."""
    state = actions_phase(arrange(["bev", "ben"]), {APARTMENT: HAND})
    state.heroes[1].bike = True
    state.bikes = [0] * 7
    state, _ = act(state, 1, "ride", to=APARTMENT)
    assert state.bikes[APARTMENT] == 1 and not state.heroes[1].bike
    state, _ = act(state, 0, "pickup", die=APARTMENT, what="bike")
    assert state.heroes[0].bike and state.bikes[APARTMENT] == 0


def test_a_card_drawn_elsewhere_goes_in_once_you_reach_its_location() -> None:
    """'Drawn cards can be added to the Fight Stack whenever you are in the corresponding
    Location.'"""
    state = actions_phase(arrange(["bev", "ben"], {0: NEIBOLT}), {BUTCHER: HAND})
    state.heroes[0].hand = [card(PHARMACY, ROCK)]
    assert "place" not in kinds(state, 0)
    state, _ = act(state, 0, "move", die=BUTCHER, to=PHARMACY)
    state, _ = act(state, 0, "place", card=card(PHARMACY, ROCK))
    assert state.fight_stack[-1] == card(PHARMACY, ROCK) and state.heroes[0].hand == []


def test_bill_draws_only_while_he_holds_two_cards_or_fewer() -> None:
    """Bill: 'Whenever a Victim is abducted from your location, if you have two or fewer
    cards in hand, draw a card.'"""
    for held, after in ((2, 3), (3, 3)):
        state = arrange(["bev", "bill"], {1: BARRENS})
        state.heroes[1].hand = [card(SQUARE, t) for t in range(held)]
        state, _ = rolled(state, {BARRENS: BALLOON})
        assert len(state.heroes[1].hand) == after


# ---------------------------------------------------------------- the fight

def test_a_fight_needs_no_die() -> None:
    """'Fighting Pennywise is an optional action and does not require a player to use a
    die.' Every die spent, the fight is still on offer; declining it is ending the turn."""
    state = fight_ready(["bev", "bill"], [card(NEIBOLT, ROCK)])
    state.dice_used = [True] * 7
    assert {"fight", "end_turn"} <= kinds(state, 0)
    state, _ = act(state, 0, "end_turn")
    assert state.turn == 1 and state.phase == ROLL


def test_ben_places_the_card_he_draws_to_fight_before_the_first_reveal() -> None:
    """The example: 'Ben announces his intent to fight Pennywise. ... He draws a card and
    sees that it is a purple Town Square card. He places that card into the Fight Stack,
    then proceeds to the Fight Pennywise step.' Once the first card is revealed, no card
    goes in."""
    state = fight_ready(["ben", "richie"], [card(NEIBOLT, ROCK), card(BARRENS, ROCK)])
    state.totem_deck.remove(card(SQUARE, ARCADE))
    state.totem_deck += [card(PHARMACY, CAP), card(SQUARE, ARCADE)]
    state, _ = act(state, 0, "fight")
    assert state.heroes[0].hand == [card(SQUARE, ARCADE)] and state.phase == FIGHT
    state, _ = act(state, 0, "place", card=card(SQUARE, ARCADE))
    assert card(SQUARE, ARCADE) in state.fight_stack
    state.heroes[0].hand = [card(SQUARE, INHALER)]
    state, _ = act(state, 0, "reveal")
    assert state.phase == FIGHT and len(state.fight_stack) == 2
    assert "place" not in kinds(state, 0)
    with pytest.raises(IllegalAction):
        act(state, 0, "place", card=card(SQUARE, INHALER))


def test_every_face_up_weakness_met_pays_when_the_fighter_stops() -> None:
    """'they gain the rewards for ALL Weakness cards whose conditions are met.' Six cards
    meet the three face-up printed cards at once: two Rocks (1), four different locations
    (2) and five different Totems (3): six spaces."""
    stack = [card(NEIBOLT, ROCK), card(BARRENS, ROCK), card(STANDPIPE, INHALER),
             card(APARTMENT, POSTCARD), card(SQUARE, BOAT), card(BUTCHER, CAP)]
    state = fight_ready(["bev", "bill"], [card(PHARMACY, YEARBOOK), *stack])
    state.weakness_stacks = [["twin_totems"], ["all_over_town"], ["whole_club"]]
    state = _fight_in_order(state)
    for _ in stack:
        state, _ = act(state, 0, "reveal")
    state, _ = act(state, 0, "stop")
    assert state.strength == 6 and not state.over
    assert state.weakness_done == ["twin_totems", "all_over_town", "whole_club"]


def test_completed_weaknesses_are_put_away_and_the_next_turns_up() -> None:
    """'Place the completed Weakness cards facedown on the Pennywise Weakness discard
    space.' The card under it in its stack is the one face up now; the other stacks keep
    theirs."""
    stack = [card(SQUARE, INHALER), card(NEIBOLT, ROCK), card(BARRENS, ROCK)]
    state = fight_ready(["bev", "bill"], stack)
    state.weakness_stacks = [["same_street", "twin_totems"], ["all_over_town"],
                             ["whole_club"]]
    state = _fight_in_order(state)
    state, _ = act(state, 0, "reveal")
    state, _ = act(state, 0, "reveal")
    state, _ = act(state, 0, "stop")
    assert state.weakness_done == ["twin_totems"] and state.strength == 1
    assert state.weakness_stacks == [["same_street"], ["all_over_town"], ["whole_club"]]


def test_the_revealed_totems_become_the_discards_a_new_deck_is_made_of() -> None:
    """'All Totem cards revealed from the Fight Stack are placed facedown next to the
    Totem card draw deck to form a discard pile.' and 'If the draw pile is ever empty,
    shuffle the Totem card discard pile and make a new draw pile.'"""
    stack = [card(SQUARE, INHALER), card(NEIBOLT, ROCK), card(BARRENS, CAP)]
    state = fight_ready(["bev", "bill"], stack)
    state = _fight_in_order(state)
    state, _ = act(state, 0, "reveal")
    state, _ = act(state, 0, "reveal")
    state, _ = act(state, 0, "stop")
    assert state.totem_discard == [card(BARRENS, CAP), card(NEIBOLT, ROCK)]
    state = actions_phase(state, {BARRENS: HAND})
    state.heroes[1].location = BARRENS
    state.totem_deck = []
    state, _ = act(state, 1, "pickup", die=BARRENS, what="draw")
    assert state.heroes[1].hand[0] in (card(BARRENS, CAP), card(NEIBOLT, ROCK))


def test_an_attack_card_ends_the_reveals_and_no_weakness_pays() -> None:
    """'Players can continue to reveal cards until they choose to stop OR they reveal a
    Pennywise Attack card.' ... 'Weakness cards cannot be resolved because no cards
    remain in the Fight.' Two Rocks meet the face-up card, then the attack card: nothing
    is scored and the stack under the weakness is untouched."""
    stack = [WEREWOLF, card(NEIBOLT, ROCK), card(BARRENS, ROCK)]
    state = fight_ready(["bev", "bill"], stack)
    state.weakness_stacks = [["twin_totems"], [], []]
    state = _fight_in_order(state)
    state, _ = act(state, 0, "reveal")
    state, _ = act(state, 0, "reveal")
    state, _ = act(state, 0, "reveal")
    assert state.pending is not None  # the counterattack's point: which Loser pays it
    assert kinds(state, 0) == {"choose"}
    state, _ = choose(state, 1)
    assert state.strength == 0 and state.weakness_stacks == [["twin_totems"], [], []]
    assert state.weakness_done == [] and state.turn == 1 and state.phase == ROLL


def test_the_printed_pennywise_attack_card_strikes_back_with_a_and_b() -> None:
    """The Pennywise Attack card as printed: '0/A — Reveal the top 2 cards of the Fight
    deck. Discard all Totems revealed this way. B — Lower Bravery by 2 and discard 2
    Totem cards.' Two victims gone from Town Square show A and B: the two cards under it
    are turned and discarded, and Bill, the only one there holding cards, takes the rest
    ('they have to accept that entire Attack')."""
    assert content.attack_card(DEEP_WATER).lines == ((("mill", 2),),
                                                     (("bravery", 2), ("discard", 2)),
                                                     (("bravery", 2), ("discard", 2)))
    under = [card(BARRENS, INHALER), card(NEIBOLT, INHALER)]
    state = fight_ready(["bev", "bill"], [card(APARTMENT, CAP), *under, DEEP_WATER])
    state.circles[SQUARE][0] = state.circles[SQUARE][1] = None
    state.heroes[1].hand = [card(PHARMACY, ROCK), card(STANDPIPE, ROCK)]
    state = _fight_in_order(state)
    state, events = act(state, 0, "reveal")
    # Bill's two cards are both lost: which goes first is no question (the audit of
    # pointless questions, tests/test_pointless_choices.py), so none is asked
    assert state.pending is None and not state.over
    assert any(e.data.get("all_lost") == attacks.DISCARD for e in events)
    assert state.fight_stack == [card(APARTMENT, CAP)]
    assert set([*under, card(PHARMACY, ROCK), card(STANDPIPE, ROCK)]) <= set(
        state.totem_discard)
    assert [h.bravery for h in state.heroes] == [5, 3] and state.heroes[1].hand == []
    assert state.attack_pile[0] == DEEP_WATER


def test_seven_special_totems_one_for_each_character() -> None:
    """'Seven of the Totem cards have an effect that moves the Losers' Club Strength
    token forward if the specific character is present where the fight occurs.'"""
    specials = content.specials()
    assert len(specials) == 7 and sorted(specials.values()) == sorted(SEVEN)
    assert all(not content.is_attack(c) for c in specials)


def test_a_special_totem_pays_nothing_without_its_character_at_the_fight() -> None:
    """'... moves the Losers' Club Strength token forward if the specific character is
    present where the fight occurs.' Bill's Paper Boat turned while Bill stands at
    Neibolt, away from the fight, is just a totem; with Bill there it pays."""
    boat = card(NEIBOLT, BOAT)
    assert content.specials()[boat] == "bill"
    for bill_at, paid in ((NEIBOLT, 0), (SQUARE, 1)):
        state = fight_ready(["bev", "ben", "bill"], [card(SQUARE, ROCK), boat])
        state.heroes[2].location = bill_at
        state.weakness_stacks = [[], [], []]
        state = _fight_in_order(state)
        state, _ = act(state, 0, "reveal")
        assert state.strength == paid


PRINTED = {
    # 'Turn over two encounter cards with the same Totem — 1 space.'
    "twin_totems": (1, [card(NEIBOLT, ROCK), card(PHARMACY, ROCK)],
                    [card(NEIBOLT, ROCK), card(NEIBOLT, CAP)]),
    # 'Turn over two encounter cards with the Inhaler, Rock, and/or Postcard — 1 space.'
    "keepsakes": (1, [card(NEIBOLT, INHALER), card(BARRENS, POSTCARD)],
                  [card(NEIBOLT, INHALER), card(BARRENS, CAP), card(SQUARE, BOAT)]),
    # 'Turn over two encounter cards with the Paper Boat and/or Shower Cap — 2 spaces.'
    "bath_and_boat": (2, [card(NEIBOLT, BOAT), card(BARRENS, BOAT)],
                      [card(NEIBOLT, CAP), card(BARRENS, ROCK), card(SQUARE, ARCADE)]),
    # 'Turn over three encounter cards with the Postcard, Arcade Token, and/or Yearbook
    # Page — 2 spaces.'
    "memories": (2, [card(NEIBOLT, POSTCARD), card(BARRENS, ARCADE), card(SQUARE, ARCADE)],
                 [card(NEIBOLT, POSTCARD), card(BARRENS, YEARBOOK), card(SQUARE, ROCK)]),
    # 'Turn over four encounter cards with different locations — 2 spaces.'
    "all_over_town": (2, [card(NEIBOLT, ROCK), card(BARRENS, ROCK), card(SQUARE, ROCK),
                          card(PHARMACY, ROCK)],
                      [card(NEIBOLT, ROCK), card(BARRENS, CAP), card(SQUARE, BOAT),
                       card(SQUARE, INHALER)]),
    # 'Turn over five encounter cards with different Totems — 3 spaces.'
    "whole_club": (3, [card(NEIBOLT, t) for t in (ROCK, CAP, BOAT, INHALER, POSTCARD)],
                   [card(NEIBOLT, t) for t in (ROCK, CAP, BOAT, INHALER, INHALER)]),
    # 'Turn over two pairs of encounter cards with matching Totems and/or locations — 3
    # spaces.'
    "two_pairs": (3, [card(NEIBOLT, ROCK), card(BARRENS, ROCK), card(SQUARE, CAP),
                      card(SQUARE, BOAT)],
                  [card(NEIBOLT, ROCK), card(BARRENS, ROCK), card(SQUARE, CAP),
                   card(PHARMACY, BOAT)]),
}


@pytest.mark.parametrize("key", sorted(PRINTED))
def test_the_printed_weakness_cards_ask_what_they_print(key: str) -> None:
    """The Weakness cards the rulebook shows, each 'with its printed condition and
    reward': the cards that meet it, and a set that just misses it."""
    reward, meets, misses = PRINTED[key]
    assert content.weakness(key).reward == reward
    assert weaknesses.met(key, meets) and not weaknesses.met(key, misses)


# ---------------------------------------------------------------- 2-7 players

def test_a_lobby_seats_seven_with_ai_and_refuses_an_eighth() -> None:
    """RULES.md: 'IT: Evil Below (seed 001), cooperative, 2-7 players'. The host and six
    AI seats start a game of seven Losers, the youngest named in the lobby among all
    seven seats; an eighth seat is refused."""
    ann = T.Actor(1, "Ann")
    table, _ = T.new_table("evilbelow", 70, 1, ann, 5)
    for _ in range(6):
        table, _ = T.apply(table, ann, Action(T.ADD_AI))
    with pytest.raises(IllegalAction):
        T.apply(table, ann, Action(T.ADD_AI))
    with pytest.raises(IllegalAction):
        T.apply(table, T.Actor(2, "Bo"), Action(T.JOIN))
    assert len({s.name for s in table.seats}) == 7
    offered = [value for value, _ in GAME.setup_choices()["youngest"]]
    assert len(offered) == 7
    table.options["youngest"] = offered[-1]
    table, _ = T.apply(table, ann, Action(T.START))
    state = T.game_state(table)
    assert len(state.heroes) == 7 and sorted(h.character for h in state.heroes) == sorted(SEVEN)
    assert state.turn == 6 and state.ai == [False] + [True] * 6


def test_seven_losers_in_one_place_fit_the_board_at_chat_size() -> None:
    """Seven players (RULES.md: 2-7) all at Town Square with Pennywise: seven pawns apart
    from one another inside the location, and seven rows of Losers inside the 550 x 350
    board Discord shows."""
    state = arrange(SEVEN, {s: SQUARE for s in range(7)})
    state.pennywise = SQUARE
    for hero in state.heroes:
        hero.hand = [card(PHARMACY, t) for t in range(3)]
    geo = geometry(board_view(state))
    x0, y0, x1, y1 = geo.locations[SQUARE]
    pawns = [geo.pawns[s] for s in range(7)]
    assert len(set(pawns)) == 7
    assert all(x0 < x < x1 and y0 < y < y1 for x, y in pawns)
    assert len(geo.hero_rows) == 7 and all(row[3] <= geo.height for row in geo.hero_rows)
    assert geo.width * 350 == geo.height * 550
    assert render_board(state).startswith(b"\x89PNG")


def test_every_table_size_plays_its_first_turn() -> None:
    """'Each player chooses a member of the Losers' Club' (2-7 players): every size sets
    up, rolls and passes the dice to the left."""
    for count in range(2, 8):
        state, _ = GAME.setup([PlayerInfo(f"P{i}", ai=i > 0) for i in range(count)], count,
                              {})
        state, _ = act(state, 0, "roll")
        for _ in range(200):  # a turn is a few dozen steps at most
            if state.over or state.turn != 0:
                break
            seat = GAME.to_act(state)
            assert seat is not None
            state, _ = GAME.apply(state, seat, GAME.ai_action(state, seat))
        assert state.over or (state.turn == 1 and state.phase == ROLL)
