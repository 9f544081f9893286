"""IT: Evil Below's end-of-game story counts the turns the table played."""

from __future__ import annotations

import pytest

from bot.core.story import LogLine
from bot.games.base import PlayerInfo
from tests.evil_below_helpers import GAME


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_story_counts_the_turn_the_game_ended_in(seed: int) -> None:
    """Every end comes during a turn (a fight, a sighting, a lost Bravery): the board's
    header reads "Turn N" then, and the story's "after N turns" must say the same N,
    the number of turns the table was told began."""
    state, events = GAME.setup([PlayerInfo(f"AI{i}", ai=True) for i in range(4)], seed, {})
    log = [LogLine(e.kind, "public", e.text) for e in events]
    for _ in range(3000):
        seat = GAME.to_act(state)
        if seat is None:
            break
        state, events = GAME.apply(state, seat, GAME.ai_action(state, seat))
        log += [LogLine(e.kind, "public", e.text) for e in events]
    assert GAME.is_over(state)
    begun = sum(1 for line in log if line.kind == "turn")
    outcome = GAME.story(state, log).outcome
    assert f"after {begun} turn" in outcome, (begun, outcome)
