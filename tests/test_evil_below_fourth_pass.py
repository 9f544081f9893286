"""IT: Evil Below, a fourth rules audit of seed 001, sentence by sentence: what the
first three passes left unquoted (the box's contents against data/, the shuffles of
setup and of a fight, Pennywise going only where a balloon was rolled, an Evil
Influence attack counted where the active player stands, a rescued victim taken
first again, an attack space that strikes again once a rescue frees it, a friend
riding in to make a fight, hands on the table, a whole attack before its loss, a
special totem that wins at once). Each test quotes the sentence it checks, and drives
the engine."""

from __future__ import annotations

import pytest

from bot.core.errors import IllegalAction
from bot.core.rng import Rng
from bot.games.base import PlayerInfo
from bot.games.evilbelow import attacks, content, eddie, effects, rules
from bot.games.evilbelow.content import BALLOON, HAND, HEART
from bot.games.evilbelow.setup import FIGHT_ATTACKS, FIGHT_TOTEMS, START_BRAVERY
from bot.games.evilbelow.state import ACTIONS, FIGHT, LOSS_BRAVERY, WIN, EvilBelowState
from tests.evil_below_helpers import (
    APARTMENT,
    BARRENS,
    BOAT,
    BUTCHER,
    DEEP_WATER,
    FLOATING,
    GAME,
    NEIBOLT,
    PHARMACY,
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


def _next_attack(state: EvilBelowState, attack: int) -> None:
    """This attack card next off the Attack pile."""
    for pile in (state.attack_pile, state.fight_stack, state.stack_hidden):
        if attack in pile:
            pile.remove(attack)
    state.attack_pile.append(attack)


# ---------------------------------------------------------------- the box and setup

def test_the_box_holds_what_the_contents_list() -> None:
    """Contents: '7 Character Boards, 8 Character Movers, 49 Totem Encounter Cards, 13
    Attack Encounter Cards, 18 Pennywise Weakness Cards, 7 Custom Dice, 7 Bravery
    Tokens, 4 Bike Tokens, 1 Losers' Club Strength Token, 28 Pennywise Victim Tokens'.
    Setup: 'Place a Bravery token on the "5" space', 'Place the top 6 Totem cards and 1
    Attack card facedown next to the Fight Stack indicator', 'Separate the Weakness
    cards by reward — 1, 2, or 3 spaces'."""
    board = content.board()
    assert len(content.characters()) == 7  # seven boards; movers: these and Pennywise
    assert GAME.max_players == 7  # seven Bravery tokens, one a player
    assert content.totem_count() == 49 and len(content.totem_names()) == 7
    assert len(content.attack_ids()) == 13
    assert len(content.weaknesses()) == 18
    assert sorted(w.reward for w in content.weaknesses()) == [1] * 6 + [2] * 6 + [3] * 6
    assert len(content.dice_faces()) == 7 == len(board.keys)
    assert len(board.bikes) == 4
    assert board.victims == 28 == board.circles * len(board.keys)
    assert (START_BRAVERY, effects.MAX_BRAVERY, effects.HAND_LIMIT) == (5, 5, 3)
    assert (FIGHT_TOTEMS, FIGHT_ATTACKS, eddie.EDDIE_CARDS, effects.EMPTY_LOSS) == (6, 1, 2, 3)
    assert len(content.specials()) == 7  # 'Seven of the Totem cards have an effect'
    assert set(content.specials().values()) == set(content.character_keys())


def test_each_pile_is_shuffled_at_setup() -> None:
    """'Shuffle the tokens. Randomly place one on each circle', 'Separate the Encounter
    cards into two piles ... Shuffle them separately' and 'Separate the Weakness cards
    by reward — 1, 2, or 3 spaces. Shuffle each stack separately and place face-up'."""
    seen: dict[str, set[object]] = {"circles": set(), "totems": set(), "attacks": set(),
                                    "weak1": set(), "weak2": set(), "weak3": set()}
    for seed in range(20):
        state, _ = GAME.setup([PlayerInfo("A"), PlayerInfo("B")], seed, {})
        seen["circles"].add(tuple(tuple(row) for row in state.circles))
        seen["totems"].add(tuple(state.totem_deck))
        seen["attacks"].add(tuple(state.attack_pile))
        for reward, stack in enumerate(state.weakness_stacks, start=1):
            assert {content.weakness(k).reward for k in stack} == {reward}
            seen[f"weak{reward}"].add(stack[-1])  # the face-up card
    assert all(len(found) > 1 for found in seen.values()), seen


# ---------------------------------------------------------------- sightings

def test_a_sighting_where_no_victim_is_left_still_scares_who_stands_there() -> None:
    """'If any of the Balloons are for a location where a player's Character is present,
    that player immediately loses 1 Bravery.' An emptied location has no victim left to
    take, but its balloon is still a sighting there ('each successive time a Pennywise
    sighting happens in that Location, add another Pennywise Attack card')."""
    state = arrange(["bev", "ben"], {1: NEIBOLT})
    state.track += [t for t in state.circles[NEIBOLT] if t is not None]
    state.circles[NEIBOLT] = [None] * 4
    pile = len(state.attack_pile)
    state, _ = rolled(state, {NEIBOLT: BALLOON})
    assert [h.bravery for h in state.heroes] == [5, 4]
    assert len(state.attack_pile) == pile - 1


def test_pennywise_goes_only_where_a_balloon_was_rolled() -> None:
    """'Of the sightings rolled, Pennywise will move to the location where he is
    strongest.' The Barrens misses three victims, but no balloon was rolled for it: he
    goes to the Standpipe, the one location sighted."""
    state = arrange(["bev", "ben"])
    take(state, 3, (BARRENS,))
    state, _ = rolled(state, {STANDPIPE: BALLOON})
    assert state.missing(BARRENS) == 3 and state.missing(STANDPIPE) == 1
    assert state.pennywise == STANDPIPE


def test_a_rescued_victim_is_the_first_taken_again() -> None:
    """'Reveal the first available Victim token (working left to right or top to
    bottom)' and 'Return the topmost Victim token from the Evil Influence track to the
    rightmost (or bottommost) open space': the child rescued into the Apartment's second
    circle is the next one Pennywise takes there."""
    state = actions_phase(arrange(["bev", "ben"]), {APARTMENT: HEART})
    take(state, 2, (APARTMENT,))
    first, second = state.track
    state, _ = act(state, 0, "courage", die=APARTMENT, what="rescue")
    assert state.circles[APARTMENT][:2] == [None, second]
    state, _ = act(state, 0, "end_turn")
    state, _ = rolled(state, {APARTMENT: BALLOON})
    assert state.track == [first, second] and state.circles[APARTMENT][1] is None


# ---------------------------------------------------------------- Evil Influence attacks

def test_an_evil_influence_attack_counts_the_victims_missing_where_the_active_player_is(
) -> None:
    """'Immediately move Pennywise to the active player's location. Reveal the top card
    from Pennywise Attack pile. For each Victim Pennywise has abducted in that location,
    he will Attack.' The balloon is Neibolt's, but Bev stands in the Barrens, which
    misses two victims: the printed Attack Encounter card's 0/A and B lines (Bravery 1
    and 2 cards, then Bravery 1), not the 0/A line alone of untouched Neibolt."""
    state = arrange(["bev", "ben"], {0: BARRENS})
    space = content.board().influence_attacks[0]
    take(state, 2, (BARRENS,))
    take(state, space - 3, (STANDPIPE,))
    state.heroes[0].hand = [card(NEIBOLT, ROCK), card(PHARMACY, ROCK)]
    _next_attack(state, FLOATING)
    state, events = rolled(state, {NEIBOLT: BALLOON})
    assert len(state.track) == space
    assert [e.data["lines"] for e in events if e.kind == "attack"] == [2]
    assert state.heroes[0].bravery == 3 and state.heroes[0].hand == []
    assert state.heroes[1].bravery == 5
    assert state.fight_stack[-1] == FLOATING


def test_an_attack_space_strikes_again_once_a_rescue_frees_it() -> None:
    """'Every time a Victim token is placed on a Pennywise Attack symbol space on the
    Evil Influence track, Pennywise will attack the active player.' A rescue takes the
    child off that space; the next child placed there brings another attack."""
    space = content.board().influence_attacks[0]
    state = actions_phase(arrange(["bev", "ben"]), {APARTMENT: HEART})
    take(state, space, (STANDPIPE, APARTMENT))
    state, _ = act(state, 0, "courage", die=APARTMENT, what="rescue")
    assert len(state.track) == space - 1
    state, _ = act(state, 0, "end_turn")
    state, events = rolled(state, {NEIBOLT: BALLOON})
    assert len(state.track) == space
    assert sum(1 for e in events if e.kind == "attack") == 1


def test_a_whole_attack_resolves_before_a_broken_bravery_loses() -> None:
    """'After resolving the Attack, if any player's Bravery is reduced to zero,
    Pennywise claims that player as his final victim and all players lose.' Bev, alone
    with 1 Bravery and two cards, takes the printed card's 0/A line: the point breaks
    her, the two discards and the card's return to the Fight Stack still resolve, then
    the game is lost."""
    state = arrange(["bev", "ben"], {0: SQUARE})
    state.heroes[0].bravery = 1
    state.heroes[0].hand = [card(NEIBOLT, ROCK), card(PHARMACY, ROCK)]
    state.phase = ACTIONS
    _next_attack(state, FLOATING)
    state.attack_pile.pop()
    events: list = []
    attacks.begin(state, FLOATING, SQUARE, "stack", events)
    rules.advance(state, events)
    assert state.over and state.result == LOSS_BRAVERY
    assert state.heroes[0].hand == [] and state.fight_stack[-1] == FLOATING
    kinds_told = [e.kind for e in events]
    assert kinds_told.index("game_over") > max(i for i, k in enumerate(kinds_told)
                                               if k == "discard")


# ---------------------------------------------------------------- actions

def test_courage_needs_the_die_of_where_you_stand() -> None:
    """'A Courage (heart) die can be used for one of two actions when in that die's
    corresponding location: Increase Bravery or Rescue a Victim.'"""
    state = actions_phase(arrange(["bev", "ben"]), {NEIBOLT: HEART, APARTMENT: HAND})
    state.heroes[0].bravery = 3
    take(state, 1, (APARTMENT,))
    assert "courage" not in kinds(state, 0)
    for what in ("bravery", "rescue"):
        with pytest.raises(IllegalAction):
            act(state, 0, "courage", die=NEIBOLT, what=what)


def test_every_hand_lies_face_up_for_the_table() -> None:
    """'Drawn cards are kept faceup in front of you.' Another seat's view shows the same
    cards in Bev's hand (and Ben's AI decides from that view)."""
    state = actions_phase(arrange(["bev", "ben", "bill"]), {APARTMENT: HAND})
    state, _ = act(state, 0, "pickup", die=APARTMENT, what="draw")
    assert len(state.heroes[0].hand) == 1
    for seat in (1, 2):
        assert GAME.seat_view(state, seat).heroes[0].hand == state.heroes[0].hand


def test_a_friend_rides_in_to_make_the_fight() -> None:
    """'To fight Pennywise, the active player and at least one other player must be in
    the same location as Pennywise. Remember, the use of Bike tokens can happen on any
    player's turn.' Bev faces Pennywise alone in Town Square; Ben rides in from the
    Barrens on her turn, and she may fight."""
    state = fight_ready(["bev", "ben"], [card(NEIBOLT, ROCK)])
    state.heroes[1].location = BARRENS
    state.heroes[1].bike = True
    assert "fight" not in kinds(state, 0)
    state, _ = act(state, 1, "ride", to=SQUARE)
    assert state.heroes[1].location == SQUARE and state.bikes[SQUARE] >= 1
    assert "fight" in kinds(state, 0)
    state, _ = act(state, 0, "fight")
    assert state.phase == FIGHT


# ---------------------------------------------------------------- fights

def test_the_fight_stack_is_shuffled_then_revealed_one_card_at_a_time() -> None:
    """'The active player shuffles the Fight Stack and reveals cards from it one at a
    time.' The arranged top card is not always the first revealed, and each reveal
    turns one card."""
    stack = [card(loc, ROCK) for loc in range(6)]
    firsts = set()
    for seed in range(12):
        state = fight_ready(["bev", "bill"], stack)
        state.weakness_stacks = [[], [], []]
        state.rng = Rng(seed)
        state, _ = act(state, 0, "fight")
        state, _ = act(state, 0, "reveal")
        assert state.fight is not None and len(state.fight.revealed) == 1
        assert len(state.fight_stack) == len(stack) - 1
        firsts.add(state.fight.revealed[0])
    assert len(firsts) > 1


def test_a_special_totem_that_reaches_the_end_wins_at_once() -> None:
    """'The bonus is granted when the Totem card is revealed' and 'The players win only
    if they are able to move the Losers' Club Strength token to the end of the track':
    Bill's totem turned with Bill at the fight, one space short, wins there, with no
    stop and before the attack card under it."""
    boat = card(NEIBOLT, BOAT)
    assert content.specials()[boat] == "bill"
    state = fight_ready(["bev", "bill"], [DEEP_WATER, boat])
    state.strength = content.board().strength_length - 1
    state, _ = act(state, 0, "fight")
    assert state.fight is not None
    state.fight.shuffled = True  # keep the arranged order: the totem on top
    state, _ = act(state, 0, "reveal")
    assert state.over and state.result == WIN
    assert DEEP_WATER in state.fight_stack


def test_a_counterattack_splits_among_everyone_at_the_fight() -> None:
    """'Remember, the effects from the Attack can be split amongst all players in the
    location.' Three Losers at the fight; the active player puts the counterattack's
    point on the third, who is not the fighter."""
    werewolf = content.attack_ids()[6]  # designed: 0/A lose 1 Bravery
    state = fight_ready(["bev", "bill", "ben"], [werewolf])
    state, _ = act(state, 0, "fight")
    state, _ = act(state, 0, "reveal")
    assert state.pending is not None and state.pending.seat == 0
    assert state.pending.payload["targets"] == [0, 1, 2]
    state, _ = choose(state, 2)
    assert [h.bravery for h in state.heroes] == [5, 5, 4]
    assert state.attack_pile[0] == werewolf and state.turn == 1


def test_bev_never_lifts_anyone_above_five() -> None:
    """Bev: 'all players in that location gain 1 Bravery' and 'A player's Bravery may
    never go above 5.'"""
    state = actions_phase(arrange(["bill", "bev", "ben"], {0: APARTMENT, 2: APARTMENT}), {})
    state.heroes[0].bravery, state.heroes[1].bravery, state.heroes[2].bravery = 5, 4, 2
    state, _ = act(state, 0, "end_turn")
    assert [h.bravery for h in state.heroes] == [5, 5, 3]


def test_richie_pulls_only_from_a_location_next_to_his() -> None:
    """Richie: 'Once per turn on your turn, you may move Pennywise from an adjacent
    location into your location.' From the Barrens, two moves from Town Square, he
    cannot; from the Butcher Shop next door he can, once."""
    board = content.board()
    assert BARRENS not in board.neighbours(SQUARE) and BUTCHER in board.neighbours(SQUARE)
    state = actions_phase(arrange(["richie", "bev"]), {})
    state.pennywise = BARRENS
    assert "richie" not in kinds(state, 0)
    state.pennywise = BUTCHER
    state, _ = act(state, 0, "richie")
    assert state.pennywise == SQUARE
    state.pennywise = BUTCHER
    assert "richie" not in kinds(state, 0)
