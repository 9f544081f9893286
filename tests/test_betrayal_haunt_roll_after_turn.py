"""Betrayal before the haunt: the turn's end, the haunt roll and what may touch it.

Each test quotes seed 003 (Chinese, with an English gloss) and drives the engine through
GAME.apply, with the house and the dice set up by hand.
"""

from __future__ import annotations

from bot.games.betrayal.state import BetrayalState
from tests.test_betrayal_engine_helpers import (
    MISSY,
    OX,
    apply,
    at,
    deck_top,
    dice,
    hold,
    new_game,
    put,
    stack_top,
)

__all__ = ["dice"]


def _ox_draws_an_omen(state: BetrayalState) -> BetrayalState:
    """Ox explores north of the Entrance Hall into the Abandoned Room and turns up the
    Book (it asks nothing)."""
    stack_top(state, "abandoned_room")
    deck_top(state, "omen", "book")
    state, _ = apply(state, "explore", dir="N")
    assert state.pending is None and "book" in state.explorers[OX].cards
    return state


def test_the_rabbits_foot_does_not_touch_the_haunt_roll(dice) -> None:  # type: ignore[no-untyped-def]
    """Seed 003, Haunt: 「每當一名玩家翻開一張預兆牌後，在該玩家完結其回合後，必須試圖揭露真相」
    [whoever turns up an omen must make the haunt roll *after* finishing their turn];
    Rabbit's Foot: 「人物在其回合中需要進行任何擲骰時，在擲出結果後玩家可選擇使用這幸運符」
    [the charm serves a roll made *during* its holder's turn]. The haunt roll comes once
    the turn is over (the table has just read "ends the turn"), so the Foot is not
    offered on it: the roll stands as the dice fell."""
    state = new_game()
    hold(state, OX, "rabbits_foot")
    state = _ox_draws_an_omen(state)
    dice[:] = [0, 0, 0, 0, 0, 1]  # 1: not under 1 omen
    state, events = apply(state, "end_turn")
    assert any("the haunt roll" in e for e in events)
    assert state.pending is None, state.pending and state.pending.labels
    assert any("Not yet" in e for e in events) and state.turn.seat == MISSY
    assert "rabbits_foot" in state.explorers[OX].cards


def test_the_rabbits_foot_still_serves_a_roll_on_its_holder_s_turn(dice) -> None:  # type: ignore[no-untyped-def]
    """The same card on a roll its holder makes during the turn (the Vault's Knowledge
    roll: 「人物需以知識進行能力考驗來開啟保險庫」) is still offered, once."""
    state = new_game()
    hold(state, OX, "rabbits_foot")
    put(state, "vault", "basement", 0, -1, rotation=2)
    at(state, OX, "vault", side="S")
    dice[:] = [0, 0, 0]  # Ox's Knowledge 3: 0
    state, _ = apply(state, "act", what="vault")
    assert state.pending is not None and state.pending.kind == "roll_post"
    assert any("Rabbit's Foot" in label for label in state.pending.labels)
