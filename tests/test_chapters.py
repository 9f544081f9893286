"""Each game's chapters and turns (Game.chapter, Game.turn_name), which the live message
follows: all-AI games played through the engines, a chapter never comes back once left,
there are fewer chapters than turns, and each game has more than one chapter."""

from __future__ import annotations

import pytest

from bot import games
from bot.games.base import PlayerInfo

STEPS = 3000


@pytest.mark.parametrize("kind", ["cthulhu", "betrayal", "evilbelow"])
def test_chapters_move_forward_and_hold_several_turns(kind: str) -> None:
    game = games.get(kind)
    state, _ = game.setup([PlayerInfo(f"AI{n}", ai=True) for n in range(4)], 3, {})
    chapters, turns = [game.chapter(state)], [game.turn_name(state)]
    for _ in range(STEPS):
        seat = game.to_act(state)
        if seat is None or game.is_over(state):
            break
        state, _ = game.apply(state, seat, game.ai_action(state, seat))
        chapter, turn = game.chapter(state), game.turn_name(state)
        if chapter != chapters[-1]:
            assert chapter not in chapters, f"{kind}: chapter {chapter} came back"
            chapters.append(chapter)
        if turn != turns[-1]:
            turns.append(turn)
    assert len(chapters) >= 2 and len(turns) > 2 * len(chapters), (chapters, len(turns))
