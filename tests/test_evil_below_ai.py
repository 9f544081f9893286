"""IT: Evil Below: the AI teammate plays like a careful friend, and whole AI games end."""

from __future__ import annotations

from bot.core.actions import Action
from bot.games.base import PlayerInfo
from bot.games.evilbelow import ai, content
from bot.games.evilbelow.state import FIGHT, EvilBelowState
from tests.evil_below_helpers import (
    APARTMENT,
    BARRENS,
    BUTCHER,
    GAME,
    HEART,
    NEIBOLT,
    PHARMACY,
    SQUARE,
    act,
    actions_phase,
    arrange,
    card,
)

AI_STEP_CAP = 4000


def next_move(state: EvilBelowState) -> tuple[int, Action]:
    actor = GAME.to_act(state)
    assert actor is not None
    for seat in range(len(state.players)):
        if seat != actor and (offered := GAME.ai_offer(state, seat)) is not None:
            return seat, offered
    return actor, GAME.ai_action(state, actor)


def play_out(count: int, seed: int) -> EvilBelowState:
    state, _ = GAME.setup([PlayerInfo(f"AI{i}", ai=True) for i in range(count)], seed, {})
    for _ in range(AI_STEP_CAP):
        if state.over:
            break
        before = GAME.dump(state)
        seat, action = next_move(state)
        assert GAME.dump(state) == before  # the AI reads the state, never draws from it
        state, _ = GAME.apply(state, seat, action)
    return state


def test_every_player_count_plays_a_whole_ai_game() -> None:
    for count in range(2, 8):
        assert play_out(count, 500 + count).over


def test_a_careful_team_of_four_wins_some_and_loses_some() -> None:
    """bench/evil_below_balance.py measures this over 200 seeds; here a quick check
    that the designed numbers still leave the game open both ways."""
    results = [play_out(4, seed).result for seed in range(12)]
    assert 2 <= results.count("win") <= 10, results


def test_it_rescues_where_it_can() -> None:
    state = actions_phase(arrange(["bev", "ben"]), {APARTMENT: HEART})
    row = state.circles[APARTMENT]
    state.track = [row[0], row[1]]
    row[0] = row[1] = None
    assert GAME.ai_action(state, 0) == Action("courage", {"die": APARTMENT, "what": "rescue"})


def test_it_fills_the_fight_stack_first() -> None:
    state = actions_phase(arrange(["bev", "ben"]), {})
    state.heroes[0].hand = [card(APARTMENT, 3)]
    assert GAME.ai_action(state, 0) == Action("place", {"card": card(APARTMENT, 3)})


def test_it_uses_its_dice_to_reach_its_cards() -> None:
    state = actions_phase(arrange(["bill", "ben"]), {})
    state.heroes[0].hand = [card(BARRENS, 1), card(BARRENS, 2)]
    spent = 0
    # Its turn is over when it ends it, or when nothing is left to do and it ends by
    # itself (docs/rulings.md, Evil Below 14): the dice then pass on.
    while state.turn == 0 and (action := GAME.ai_action(state, 0)).kind != "end_turn":
        state, _ = GAME.apply(state, 0, action)
        spent += action.kind in ("move", "pickup", "courage")
    assert {card(BARRENS, 1), card(BARRENS, 2)} <= set(state.fight_stack)
    assert spent >= 2


def _fight(stack: list[int], revealed: list[int]) -> EvilBelowState:
    state = actions_phase(arrange(["bev", "bill"], {0: SQUARE, 1: SQUARE}), {})
    state.pennywise = SQUARE
    state.fight_stack = list(stack)
    state.attack_pile = [c for c in content.attack_ids() if c not in stack]
    state.totem_deck = [c for c in range(49) if c not in stack and c not in revealed]
    state, _ = act(state, 0, "fight")
    assert state.phase == FIGHT and state.fight is not None
    state.fight.shuffled = True
    state.fight.revealed = list(revealed)
    return state


def test_it_stops_revealing_when_the_odds_turn() -> None:
    attacks = content.attack_ids()
    met = [card(NEIBOLT, 1), card(BARRENS, 1)]  # two Rocks
    state = _fight([attacks[2], attacks[3], attacks[4], card(APARTMENT, 5)], met)
    state.weakness_stacks = [["twin_totems"], [], []]
    assert GAME.ai_action(state, 0) == Action("stop")
    # with a clean stack it goes on
    state = _fight([card(APARTMENT, 5), card(SQUARE, 1), card(APARTMENT, 2)],
                   [card(NEIBOLT, 1)])
    state.weakness_stacks = [["twin_totems"], [], []]
    assert GAME.ai_action(state, 0) == Action("reveal")


def test_it_rides_a_bike_to_make_up_a_fight() -> None:
    state = actions_phase(arrange(["bev", "ben"], {0: SQUARE, 1: NEIBOLT}), {})
    state.pennywise = SQUARE
    state.heroes[1].bike = True
    state.fight_stack = [c for c in range(12)]
    assert ai.stack_is_good(state)
    assert GAME.ai_offer(state, 1) == Action("ride", {"to": SQUARE})
    assert GAME.ai_offer(state, 0) is None  # the active seat is asked through ai_action


def test_it_spreads_damage_to_whoever_can_take_it() -> None:
    from bot.games.evilbelow import attacks, rules

    state = actions_phase(arrange(["bev", "ben"], {0: SQUARE, 1: SQUARE}), {})
    state.heroes[0].bravery = 2
    events: list = []
    attacks.begin(state, content.attack_ids()[6], SQUARE, "stack", events)
    rules.advance(state, events)
    assert state.pending is not None
    pick = GAME.ai_action(state, 0)
    assert state.pending.payload["targets"][pick.int_arg("pick")] == 1


# ---------------------------------------------------------------- seeking a fight

def _beside_pennywise(players: int, stack: list[int]) -> EvilBelowState:
    """The active Loser and a friend in Town Square with Pennywise, every die spent:
    the turn's last question is whether to fight."""
    chars = ["bev", "ben", "bill", "richie", "eddie", "mike", "stan"][:players]
    state = actions_phase(arrange(chars, {0: SQUARE, 1: SQUARE}), {})
    state.pennywise = SQUARE
    state.fight_stack = list(stack)
    state.stack_hidden = []
    state.totem_deck = [c for c in range(49) if c not in stack]
    state.attack_pile = [c for c in content.attack_ids() if c not in stack]
    state.weakness_stacks = [["twin_totems"], [], []]
    state.dice_used = [True] * 7
    return state


SMALL_FAIR_STACK = [card(NEIBOLT, 1), card(BARRENS, 1), card(SQUARE, 1), card(BUTCHER, 1),
                    card(APARTMENT, 2), content.attack_ids()[0]]  # Rocks: twin_totems


def test_a_small_table_takes_a_fair_fight_a_bigger_one_waits_for_a_healthy_stack() -> None:
    """Two or three Losers rarely meet beside Pennywise: a fight that is a fair bet is
    taken. Four or more can make one up whenever they like, and wait for a stack that
    meets weaknesses several at once."""
    for players in (2, 3):
        state = _beside_pennywise(players, SMALL_FAIR_STACK)
        assert GAME.ai_action(state, 0) == Action("fight"), players
    for players in (4, 5, 7):
        state = _beside_pennywise(players, SMALL_FAIR_STACK)
        assert GAME.ai_action(state, 0) == Action("end_turn"), players
        big = [*SMALL_FAIR_STACK, *[card(PHARMACY, t) for t in range(5)]]
        assert GAME.ai_action(_beside_pennywise(players, big), 0) == Action("fight")


def test_a_small_table_does_not_take_a_bad_bet() -> None:
    """One totem among four attack cards, three victims gone from Town Square (all three
    lines of a counterattack) and both Losers there down to their last Bravery: a
    counterattack would end the game, and the first card is most likely one."""
    attacks = content.attack_ids()
    state = _beside_pennywise(2, [card(NEIBOLT, 1), *attacks[:4]])
    state.circles[SQUARE] = [None, None, None, state.circles[SQUARE][3]]
    for hero in state.heroes:
        hero.bravery = 1
    assert GAME.ai_action(state, 0) == Action("end_turn")


def test_a_counterattack_that_could_fell_a_loser_costs_more_than_the_track() -> None:
    """The AI weighs a counterattack by the Bravery its Losers can spare between them."""
    whole = content.board().strength_length
    assert ai.counter_cost(_beside_pennywise(2, SMALL_FAIR_STACK), SQUARE) < 1
    assert ai._counter(3, 0) > whole  # nobody can spare a point: the game is at stake
    assert ai._counter(3, 0) > ai._counter(3, 2) > ai._counter(3, 8)
    assert ai._counter(1, 8) < ai._counter(2, 8) < ai._counter(3, 8)


def test_a_small_table_waits_beside_pennywise_while_there_is_a_stack() -> None:
    """Where to end a turn: beside Pennywise, where a friend can make up a fight when
    the stack is worth it; a bigger table gathers only for a healthy stack."""
    state = _beside_pennywise(2, [card(NEIBOLT, 1), content.attack_ids()[0]])
    assert ai.fight_coming(state)
    state = _beside_pennywise(5, SMALL_FAIR_STACK)
    assert not ai.fight_coming(state)
    assert not ai.fight_coming(_beside_pennywise(2, content.attack_ids()[:2]))
