"""Every haunt, played by the AI on the first seeds' houses: each side wins some game
(the seed is searched, not pinned, so a change to the AI or the dice cannot quietly
pin the wrong outcome). The haunts' own files add what is particular to each."""

from __future__ import annotations

import pytest

from bot.games.betrayal.haunt import haunts
from tests.betrayal_haunt_helpers import outcome, seed_for

KEYS = sorted(haunts())


@pytest.mark.parametrize("winner", ["heroes", "traitor"])
@pytest.mark.parametrize("key", KEYS)
def test_each_side_wins_some_ai_game(key: str, winner: str) -> None:
    state = outcome(key, seed_for(key, winner))
    assert state.over and state.haunt is not None
    assert state.haunt.winner == winner, state.haunt.reason


@pytest.mark.parametrize("key", ["wail_of_the_banshee", "the_ghost_bride"])
def test_every_game_of_a_batch_ends(key: str) -> None:
    for seed in range(1, 13):
        state = outcome(key, seed)
        assert state.over and state.haunt.winner in ("heroes", "traitor"), seed
