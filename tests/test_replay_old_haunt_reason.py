"""A Betrayal game decided before its winning reason's words were kept (format step
`haunt_words_kept`, state.py) still replays exactly: the same game played again keeps
`Haunt.reason_words`, which the stored end never had, and `BetrayalGame.as_compared`
leaves them out of the comparison (bot/replay.py's `same_game`)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.core.actions import Action
from bot.games.base import Game
from bot.games.betrayal import GAME
from bot.games.betrayal.haunting import sides
from bot.games.betrayal.state import STATE_FORMATS, BetrayalState, haunt_words_kept
from bot.replay import same_game
from tests.betrayal_haunt_helpers import haunted, turn_of


def _won() -> BetrayalState:
    """Pay the Piper won by the heroes as the engine decides it: every rat is dead, and
    the next action settles the game."""
    state = GAME.copy_state(haunted("pay_the_piper"))
    state.script.clear()
    state.pending = None
    for monster in state.monsters:
        monster.alive = False
    turn_of(state, sides.heroes(state)[0])
    state, _ = GAME.apply(state, state.turn.seat, Action("end_turn"))
    assert state.over and state.haunt is not None
    assert state.haunt.winner == sides.HERO and state.haunt.reason_words
    return state


def _stored_by_format_2(state: BetrayalState) -> BetrayalState:
    """The same end as a release before `haunt_words_kept` stored it: no reason_words
    (loading it runs the format step, which keeps none)."""
    raw: dict[str, Any] = GAME.dump(state)
    raw["format"] = STATE_FORMATS.steps.index(haunt_words_kept)
    raw["haunt"].pop("reason_words")
    return GAME.load(raw)


def test_an_old_haunt_end_replays_exactly() -> None:
    replayed = _won()
    old = _stored_by_format_2(replayed)
    assert old.haunt is not None and old.haunt.reason_words == {}
    assert old.haunt.reason == replayed.haunt.reason  # type: ignore[union-attr]
    assert same_game(GAME, replayed, old)


def test_a_new_haunt_end_still_compares_its_words() -> None:
    """What a state of today keeps is still compared: only a stored end without words
    leaves them out."""
    replayed = _won()
    stored = GAME.copy_state(replayed)
    assert stored.haunt is not None
    stored.haunt.reason_words = {**stored.haunt.reason_words, "key": "reason_traitor"}
    assert not same_game(GAME, replayed, stored)


def test_without_as_compared_the_old_end_differs(monkeypatch: pytest.MonkeyPatch) -> None:
    replayed = _won()
    old = _stored_by_format_2(replayed)
    monkeypatch.setattr(type(GAME), "as_compared", Game.as_compared)
    assert not same_game(GAME, replayed, old)
