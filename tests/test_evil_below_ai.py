"""IT: Evil Below: the AI teammate plays like a careful friend, and whole AI games end."""

from __future__ import annotations

from bot.core.actions import Action
from bot.games.base import PlayerInfo
from bot.games.evil_below import ai, content
from bot.games.evil_below.state import FIGHT, EvilBelowState
from tests.evil_below_helpers import (
    APARTMENT,
    BARRENS,
    GAME,
    HEART,
    NEIBOLT,
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
    while (action := GAME.ai_action(state, 0)).kind != "end_turn":
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
    from bot.games.evil_below import attacks, rules

    state = actions_phase(arrange(["bev", "ben"], {0: SQUARE, 1: SQUARE}), {})
    state.heroes[0].bravery = 2
    events: list = []
    attacks.begin(state, content.attack_ids()[6], SQUARE, "stack", events)
    rules.advance(state, events)
    assert state.pending is not None
    pick = GAME.ai_action(state, 0)
    assert state.pending.payload["targets"][pick.int_arg("pick")] == 1
