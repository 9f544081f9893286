"""How an Evil Below game is told on the channel's live message: a chapter per round
(every Loser has had a turn), a turn per turn played; a fight is told on the message of
the turn it happens in, card by card."""

from __future__ import annotations

from bot.games.evilbelow.state import EvilBelowState


def chapter(state: EvilBelowState) -> str:
    return f"round.{state.turns_played // max(1, len(state.players))}"


def turn_name(state: EvilBelowState) -> str:
    return f"turn.{state.turns_played}"
