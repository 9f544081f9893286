"""IT: Evil Below, a second rules audit of seed 001: the sentences the first pass left
untested, and the AI teammate's play at the end of a game. Each test quotes the rulebook
(or RULES.md / docs/rulings.md) sentence it checks."""

from __future__ import annotations

import pytest

from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.games.base import PlayerInfo
from bot.games.evilbelow import attacks, content, rules
from bot.games.evilbelow.state import ACTIONS, DRAINPIPE, FIGHT, ROLL, WIN, EvilBelowState
from tests.evil_below_helpers import (
    APARTMENT,
    ARCADE,
    BALLOON,
    BARRENS,
    BOAT,
    CAP,
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
)

LENGTH = content.board().strength_length
CHARACTERS = ["bev", "ben", "bill", "richie", "eddie", "mike", "stan"]


def _one_space_short(players: int, stack: list[int]) -> EvilBelowState:
    """The Strength token one space from the end; the active Loser and a friend in Town
    Square with Pennywise, every die spent, this Fight Stack (every card seen going in)
    and the one-space 'two with the same Totem' weakness face up beside two harder ones."""
    state = actions_phase(arrange(CHARACTERS[:players], {0: SQUARE, 1: SQUARE}), {})
    state.strength = LENGTH - 1
    state.pennywise = SQUARE
    state.fight_stack = list(stack)
    state.stack_hidden = []
    state.totem_deck = [c for c in range(content.totem_count()) if c not in stack]
    state.attack_pile = [c for c in content.attack_ids() if c not in stack]
    state.weakness_stacks = [["twin_totems"], ["all_over_town"], ["whole_club"]]
    state.dice_used = [True] * 7
    return state


# ---------------------------------------------------------------- the AI at the end

def test_the_ai_stops_a_fight_that_wins_the_game_when_it_stops() -> None:
    """'If the active player chooses to stop revealing cards from the Fight Stack before
    an Attack card is revealed, they gain the rewards for ALL Weakness cards whose
    conditions are met' and 'The players win only if they are able to move the Losers'
    Club Strength token to the end of the track.' Two Rocks are up with the token one
    space short: stopping wins; another card could be the attack card that throws the
    win away, and no weakness it might add is worth more than the game."""
    stack = [card(PHARMACY, t) for t in (INHALER, POSTCARD, BOAT, CAP, ARCADE, YEARBOOK)]
    state = _one_space_short(4, [*stack, content.attack_ids()[0]])
    state, _ = act(state, 0, "fight")
    assert state.phase == FIGHT and state.fight is not None
    state.fight.shuffled = True
    state.fight.revealed = [card(NEIBOLT, ROCK), card(BARRENS, ROCK)]  # twin_totems met
    state.totem_deck = [c for c in state.totem_deck if c not in state.fight.revealed]
    assert GAME.ai_action(state, 0) == Action("stop")
    state, _ = act(state, 0, "stop")
    assert state.over and state.result == WIN


def test_a_big_table_takes_the_fight_that_wins_the_game() -> None:
    """'To win the game, players must take advantage of Pennywise's weaknesses and
    advance the Losers' Club Strength token to the end of its track.' A bigger table
    waits for a healthy Fight Stack before it fights, but not when the fight in front
    of it cannot fail: three totems, no attack card, two of them Rocks, the token one
    space from the end."""
    stack = [card(NEIBOLT, ROCK), card(BARRENS, ROCK), card(STANDPIPE, POSTCARD)]
    for players in (4, 5, 7):
        state = _one_space_short(players, stack)
        assert GAME.ai_action(state, 0) == Action("fight"), players
        while not state.over and state.turn == 0:
            seat = GAME.to_act(state)
            assert seat is not None
            state, _ = GAME.apply(state, seat, GAME.ai_action(state, seat))
        assert state.result == WIN, players


# ---------------------------------------------------------------- set-up by player count

def test_two_to_seven_players_and_the_same_board_for_any_count() -> None:
    """'Cooperative ... 2-7 players' (RULES.md) and 'Each player chooses a member of the
    Losers' Club ... Return any remaining Character boards, Character movers and Bravery
    tokens to the box.' Nothing else of the set-up depends on the count: 'Place the top
    6 Totem cards and 1 Attack card facedown next to the Fight Stack indicator', a Bike
    in each of four locations, Pennywise on the Drainpipe."""
    for count in (1, 8):
        with pytest.raises(IllegalAction):
            GAME.setup([PlayerInfo(f"P{i}") for i in range(count)], 1, {})
    for count in range(2, 8):
        state, _ = GAME.setup([PlayerInfo(f"P{i}") for i in range(count)], count, {})
        assert len(state.heroes) == count
        assert len({h.character for h in state.heroes}) == count
        assert len(state.fight_stack) == 7 and sum(state.bikes) == 4
        assert state.pennywise == DRAINPIPE and state.strength == 0 and not state.track


# ---------------------------------------------------------------- turns

def test_the_dice_pass_to_the_left_round_the_table() -> None:
    """'the turn ends and the active player passes the dice to the player on their left
    to start a new turn.'"""
    state = actions_phase(arrange(["bill", "ben", "mike"], turn=2), {})
    state, _ = act(state, 2, "end_turn")
    assert state.turn == 0 and state.phase == ROLL and not any(state.dice)
    with pytest.raises(IllegalAction):  # step 1 first: no fight, move or end before the roll
        act(state, 0, "end_turn")


def test_no_fight_before_the_dice_are_rolled() -> None:
    """'Each turn, the active player works through these steps in order: 1. Roll Dice
    ... 4. Fight Pennywise (Optional)'."""
    state = fight_ready(["bev", "bill"], [card(NEIBOLT, ROCK)])
    state.phase = ROLL
    assert "fight" not in kinds(state, 0)
    with pytest.raises(IllegalAction):
        act(state, 0, "fight")


# ---------------------------------------------------------------- abilities

def test_bill_draws_nothing_from_a_sighting_in_an_empty_location() -> None:
    """Bill: 'Whenever a Victim is abducted from your location ... draw a card.' A
    sighting where no victim is left abducts nobody ('each successive time a Pennywise
    sighting happens in that Location, add another Pennywise Attack card')."""
    state = arrange(["bev", "bill"])
    state.box += [t for t in state.circles[NEIBOLT] if t is not None and t < 3]
    state.track += [t for t in state.circles[NEIBOLT] if t is not None and t >= 3]
    state.circles[NEIBOLT] = [None] * 4
    pile = len(state.attack_pile)
    state, _ = rolled(state, {NEIBOLT: BALLOON})
    assert state.heroes[1].hand == [] and len(state.attack_pile) == pile - 1


def test_bev_alone_cheers_nobody() -> None:
    """Bev: 'At the beginning of your turn, if at least one other player is in your
    location, all players in that location gain 1 Bravery.'"""
    state = actions_phase(arrange(["bill", "bev"]), {})  # Bev at her Apartment, alone
    state.heroes[1].bravery = 3
    state, _ = act(state, 0, "end_turn")
    assert state.heroes[1].bravery == 3


def test_richie_pulls_only_on_his_turn_and_never_out_of_the_drainpipe() -> None:
    """Richie: 'Once per turn on your turn, you may move Pennywise from an adjacent
    location into your location.' docs/rulings.md 12: 'The Drainpipe is no location ...
    Richie cannot pull Pennywise out of it.'"""
    state = actions_phase(arrange(["richie", "bev"]), {})
    assert state.pennywise == DRAINPIPE and "richie" not in kinds(state, 0)
    state.pennywise = APARTMENT
    state.turn = 1
    assert "richie" not in kinds(state, 0)
    with pytest.raises(IllegalAction):
        act(state, 0, "richie")


def test_mike_adds_a_card_only_holding_exactly_one_and_fighting_himself() -> None:
    """Mike: 'Whenever you fight Pennywise, if you have only one card in hand, you may
    add it to the cards revealed'. RULES.md: 'Mike's only when he is the active
    player'."""
    state = fight_ready(["mike", "bev"], [card(NEIBOLT, ROCK), card(BARRENS, ROCK)])
    state.heroes[0].hand = [card(BARRENS, INHALER), card(PHARMACY, INHALER)]
    state, _ = act(state, 0, "fight")
    assert "mike" not in kinds(state, 0)
    state = fight_ready(["bev", "mike"], [card(NEIBOLT, ROCK)])
    state.heroes[1].hand = [card(BARRENS, INHALER)]
    state, _ = act(state, 0, "fight")
    assert "mike" not in kinds(state, 0) and "mike" not in kinds(state, 1)


def test_ben_draws_past_three_cards_with_a_pick_up_die() -> None:
    """Ben: 'You have no maximum hand size.' against 'Hand size is limited to 3
    cards.'"""
    state = actions_phase(arrange(["ben", "bill"], {1: NEIBOLT}), {BARRENS: "hand",
                                                                    NEIBOLT: "hand"})
    state.heroes[0].hand = [card(NEIBOLT, t) for t in range(4)]
    state, _ = act(state, 0, "pickup", die=BARRENS, what="draw")
    assert len(state.heroes[0].hand) == 5
    state.turn = 1
    state.heroes[1].hand = [card(BARRENS, t) for t in range(3)]
    assert all(o.action.args.get("what") != "draw" for o in GAME.options(state, 1))


# ---------------------------------------------------------------- fights

def test_the_two_pairs_weakness_cheers_everyone_at_the_fight() -> None:
    """The printed card: 'Turn over two pairs of encounter cards with matching Totems
    and/or locations — 3 spaces ... All players in the active player's location gain a
    Bravery.'"""
    stack = [card(NEIBOLT, ROCK), card(BARRENS, ROCK), card(PHARMACY, CAP),
             card(PHARMACY, BOAT)]
    state = fight_ready(["bev", "bill", "ben"], stack)
    state.heroes[2].location = NEIBOLT  # not at the fight
    for hero in state.heroes:
        hero.bravery = 3
    state.weakness_stacks = [[], [], ["two_pairs"]]
    state, _ = act(state, 0, "fight")
    for _ in stack:
        if state.phase == FIGHT:
            state, _ = act(state, 0, "reveal")
    assert state.strength == 3 and state.weakness_done == ["two_pairs"]
    assert [h.bravery for h in state.heroes] == [4, 4, 3]


def test_a_counterattack_strikes_with_the_letters_showing_where_the_fight_is() -> None:
    """'Look at the Location on the game board where the fight is taking place. Resolve
    the effects on the revealed Pennywise Attack card corresponding to the lettered
    spaces visible in the location.' Three victims gone from Town Square: all three
    lines of the printed card (0/A mill 2; B and C: Bravery 2 and 2 cards each)."""
    deep_water = content.attack_ids()[0]
    assert content.attack_card(deep_water).key == "deep_water"
    state = fight_ready(["bev", "bill"], [card(NEIBOLT, ROCK), deep_water])
    state.circles[SQUARE] = [None, None, None, state.circles[SQUARE][3]]
    state, _ = act(state, 0, "fight")
    assert state.fight is not None
    state.fight.shuffled = True  # keep the arranged order: the attack card on top
    state, events = act(state, 0, "reveal")
    assert [e.data["lines"] for e in events if e.kind == "attack"] == [3]
    while state.pending is not None:
        state, _ = choose(state, 0)
    assert sum(5 - h.bravery for h in state.heroes) == 4
    assert state.attack_pile[0] == deep_water and state.turn == 1


def test_nobody_rides_during_a_fight() -> None:
    """docs/rulings.md 7: Bikes are ridden 'while the active player rolls or acts, not
    during a fight or while a choice waits'."""
    state = fight_ready(["bev", "bill", "ben"], [card(NEIBOLT, ROCK), card(BARRENS, ROCK)])
    state.heroes[2].location = NEIBOLT
    state.heroes[2].bike = True
    assert "ride" in kinds(state, 2)
    state, _ = act(state, 0, "fight")
    assert "ride" not in kinds(state, 2)
    with pytest.raises(IllegalAction):
        act(state, 2, "ride", to=PHARMACY)


def test_an_evil_influence_attack_waits_for_the_active_players_split() -> None:
    """'If there are multiple players in a location attacked by Pennywise, those damage
    effects may be spread out among all the players there.' RULES.md: 'the active
    player assigns a split attack': the choice is the active player's, and the other
    seats can do nothing meanwhile, not even ride."""
    state = actions_phase(arrange(["bev", "ben", "bill"], {0: SQUARE, 1: SQUARE}), {})
    state.heroes[2].bike = True
    events: list = []
    attacks.begin(state, content.attack_ids()[6], SQUARE, "stack", events)  # 1 Bravery
    rules.advance(state, events)
    assert state.pending is not None and state.pending.seat == 0
    assert GAME.options(state, 1) == [] and GAME.options(state, 2) == []
    state, _ = choose(state, 1)
    assert [h.bravery for h in state.heroes] == [5, 4, 5] and state.phase == ACTIONS
