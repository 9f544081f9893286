"""IT: Evil Below: the seven characters' abilities (seed 001's Character boards, and
RULES.md's rulings on Eddie, Mike and Ben), on arranged states. Each test quotes the
sentence it checks. The rest of the rules are in tests/test_evil_below_rules.py."""

from __future__ import annotations

import pytest

from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.games.evilbelow import content, effects, sightings
from bot.games.evilbelow.state import (
    ACTIONS,
    ROLL,
)
from tests.evil_below_helpers import (
    APARTMENT,
    BALLOON,
    BARRENS,
    BUTCHER,
    CAP,
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
    pennywise_jumps_to_eddie_then_leaves,
    rolled,
)

ATTACK = content.attack_ids()[0]


# ---------------------------------------------------------------- abilities

def test_bill_draws_when_a_victim_is_taken_where_he_stands() -> None:
    """Bill: 'Whenever a Victim is abducted from your location, if you have two or fewer
    cards in hand, draw a card.'"""
    state = arrange(["bev", "bill"])
    state, _ = rolled(state, {NEIBOLT: BALLOON})
    assert len(state.heroes[1].hand) == 1
    state.phase = ROLL
    state.heroes[1].hand = [card(BARRENS, 0), card(BARRENS, 1), card(BARRENS, 2)]
    state, _ = rolled(state, {NEIBOLT: BALLOON})
    assert len(state.heroes[1].hand) == 3


def test_bev_cheers_up_everyone_with_her_at_the_start_of_her_turn() -> None:
    """Bev: 'At the beginning of your turn, if at least one other player is in your
    location, all players in that location gain 1 Bravery.'"""
    state = actions_phase(arrange(["bill", "bev"], {1: NEIBOLT}), {})
    state.heroes[0].bravery = state.heroes[1].bravery = 3
    state, _ = act(state, 0, "end_turn")
    assert [h.bravery for h in state.heroes] == [4, 4]


def test_mike_adds_his_only_card_to_the_fight() -> None:
    """Mike: 'Whenever you fight Pennywise, if you have only one card in hand, you may
    add it to the cards revealed in the Attack.'"""
    state = fight_ready(["mike", "bev"], [card(NEIBOLT, ROCK)])
    state.heroes[0].hand = [card(BARRENS, ROCK)]
    state, _ = act(state, 0, "fight")
    assert "mike" in kinds(state, 0)
    state, _ = act(state, 0, "mike")
    assert state.fight.revealed == [card(BARRENS, ROCK)]  # type: ignore[union-attr]
    assert "mike" not in kinds(state, 0)


def test_mikes_card_does_not_stand_for_a_card_from_the_stack() -> None:
    """'If a player chooses to fight Pennywise, at least one card must be revealed from
    the Fight Stack before the player may choose to stop.' Mike's card comes from his
    hand, so only a card from the stack opens the way to stopping."""
    state = fight_ready(["mike", "bev"], [card(NEIBOLT, ROCK), card(STANDPIPE, ROCK)])
    state.heroes[0].hand = [card(BARRENS, ROCK)]
    state, _ = act(state, 0, "fight")
    state, _ = act(state, 0, "mike")
    assert "stop" not in kinds(state, 0) and "reveal" in kinds(state, 0)
    with pytest.raises(IllegalAction):
        act(state, 0, "stop")
    state, _ = act(state, 0, "reveal")
    assert "stop" in kinds(state, 0)


def test_richie_pulls_pennywise_once_a_turn() -> None:
    """Richie: 'Once per turn on your turn, you may move Pennywise from an adjacent
    location into your location.'"""
    state = actions_phase(arrange(["richie", "bev"]), {})
    state.pennywise = APARTMENT  # next to Town Square
    state, _ = act(state, 0, "richie")
    assert state.pennywise == SQUARE and "richie" not in kinds(state, 0)
    state.pennywise = BARRENS  # not adjacent to Town Square
    state.richie_used = False
    assert "richie" not in kinds(state, 0)


def test_eddie_slips_two_cards_in_when_pennywise_joins_him() -> None:
    """Eddie: 'Whenever Pennywise is in your location, you may place up to two cards
    from your hand into the Fight Stack.' RULES.md: each time they come to share."""
    state = arrange(["bev", "eddie"])
    state.heroes[1].hand = [card(NEIBOLT, 0), card(BARRENS, 0), card(STANDPIPE, 0)]
    state, _ = rolled(state, {PHARMACY: BALLOON})
    assert state.pennywise == PHARMACY and "place" in kinds(state, 1)
    state, _ = act(state, 1, "place", card=card(NEIBOLT, 0))
    state, _ = act(state, 1, "place", card=card(BARRENS, 0))
    assert "place" not in kinds(state, 1) and len(state.heroes[1].hand) == 1


def test_eddie_is_asked_before_pennywise_leaves_him_after_the_sightings() -> None:
    """Eddie: 'Whenever Pennywise is in your location, you may place up to two cards
    from your hand into the Fight Stack.' RULES.md: 'Eddie's ability triggers each time
    he and Pennywise come to share a location'. No card goes in while the dice resolve,
    so when an Evil Influence attack brings Pennywise to Eddie and he would move on
    before Eddie could act, Eddie (out of turn) is asked first, up to two cards."""
    state, events = pennywise_jumps_to_eddie_then_leaves()
    assert any(e.kind == "ability" for e in events)  # his ability is announced,
    assert state.pennywise == PHARMACY  # and Pennywise waits with Eddie
    assert state.pending is not None and state.pending.kind == sightings.PICK_EDDIE
    assert state.pending.seat == 1 and GAME.to_act(state) == 1
    assert len(state.pending.labels) == 4  # each card, or none
    assert GAME.ai_action(state, 1) == Action("choose", {"pick": 0})  # an AI Eddie places
    stack = len(state.fight_stack)
    state, _ = choose(state, 2)  # the Town Square card, of no location there
    assert state.pending is not None and state.pending.kind == sightings.PICK_EDDIE
    state, _ = choose(state, 0)
    assert state.fight_stack[stack:] == [card(SQUARE, ROCK), card(NEIBOLT, ROCK)]
    assert state.heroes[1].hand == [card(BARRENS, ROCK)]
    assert state.pending is None and state.pennywise == BARRENS and state.eddie_left == 0
    assert state.phase == ACTIONS and GAME.to_act(state) == 0
    state, _ = pennywise_jumps_to_eddie_then_leaves()
    assert state.pending is not None
    state, _ = choose(state, len(state.pending.labels) - 1)  # Eddie keeps his cards
    assert state.pending is None and state.pennywise == BARRENS
    assert len(state.heroes[1].hand) == 3


def test_eddies_allowance_lasts_while_he_and_pennywise_stay_together() -> None:
    """Eddie: 'Whenever Pennywise is in your location, you may place up to two cards
    from your hand into the Fight Stack.' A fight's shuffle shuts the stack for that
    fight only; once it is over and they still share a location, the cards he has not
    placed may still go in (the eddie topic says so)."""
    state = fight_ready(["bev", "eddie"], [card(SQUARE, ROCK), card(SQUARE, CAP)])
    state.pennywise = BUTCHER
    effects.move_pennywise(state, SQUARE, [], "richie")  # he comes to them
    state.heroes[1].hand = [card(NEIBOLT, ROCK), card(BARRENS, ROCK)]
    assert state.eddie_left == 2 and "place" in kinds(state, 1)
    state, _ = act(state, 0, "fight")
    state, _ = act(state, 0, "reveal")
    assert "place" not in kinds(state, 1)  # the stack is shuffled: not in this fight
    state, _ = act(state, 0, "stop")
    assert state.turn == 1 and state.pennywise == state.heroes[1].location == SQUARE
    assert {o.action.args.get("card") for o in GAME.options(state, 1)
            if o.action.kind == "place"} == {card(NEIBOLT, ROCK), card(BARRENS, ROCK)}


def test_ben_has_no_hand_limit_and_draws_when_he_fights() -> None:
    """Ben: 'You have no maximum hand size. Whenever you fight Pennywise, draw a card.'"""
    state = fight_ready(["ben", "bev"], [card(NEIBOLT, ROCK)])
    state.heroes[0].hand = [card(NEIBOLT, 0), card(NEIBOLT, 1), card(NEIBOLT, 2)]
    state, _ = act(state, 0, "fight")
    assert len(state.heroes[0].hand) == 4


def test_stan_peeks_at_the_next_card_once_a_fight() -> None:
    """Stan (designed): once per fight, with Stan where the fight is, the fighter may
    look at the next card of the Fight Stack."""
    state = fight_ready(["bev", "stan"], [card(NEIBOLT, ROCK), card(BARRENS, ROCK)])
    state, _ = act(state, 0, "fight")
    state, events = act(state, 0, "peek")
    top = state.fight_stack[-1]
    assert any(e.kind == "peek" and e.data["card"] == top for e in events)
    assert "peek" not in kinds(state, 0)
    state, _ = act(state, 0, "reveal")
    assert state.fight.revealed == [top]  # type: ignore[union-attr]
