"""Every haunt, played by the AI on the first seeds' houses: each side wins some game
(the seed is searched, not pinned, so a change to the AI or the dice cannot quietly
pin the wrong outcome). That every game ends is tests/test_betrayal_haunt_endings.py's;
the haunts' own files add what is particular to each."""

from __future__ import annotations

import pytest

from bot.games.betrayal.haunt_roll import haunts
from tests.betrayal_haunt_helpers import outcome, seed_for

KEYS = sorted(haunts(""))


@pytest.mark.parametrize("winner", ["heroes", "traitor"])
@pytest.mark.parametrize("key", KEYS)
def test_each_side_wins_some_ai_game(key: str, winner: str) -> None:
    state = outcome(key, seed_for(key, winner))
    assert state.over and state.haunt is not None
    assert state.haunt.winner == winner, state.haunt.reason

