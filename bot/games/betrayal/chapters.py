"""How a Betrayal game (any edition) is told on the channel's live message: the
exploring is one chapter, the haunt (an expansion's scenario too) the next; a turn per
explorer's turn, and per stage of a haunt round (the heroes, the traitor, the monsters)."""

from __future__ import annotations

from bot.games.betrayal.state import BetrayalState


def chapter(state: BetrayalState) -> str:
    return "explore" if state.haunt is None else f"haunt.{state.haunt.key}"


def turn_name(state: BetrayalState) -> str:
    stage = "" if state.haunt is None else f".{state.haunt.stage}.{state.haunt.round}"
    return f"turn.{state.turn.number}{stage}"
