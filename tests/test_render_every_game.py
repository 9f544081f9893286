"""Every registered game's board, as CONTRIBUTING.md asks of a new one ("one fixed
landscape canvas legible at Discord's inline 550 x 350", an alt text): checked for each
game found by its key, so a game added is held to it without a line here.

Why: tests/test_boards_at_chat_size.py measures each game's own drawing in detail, for
the games it names; a game added later was held to none of it.
"""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot import games
from bot.games.base import PlayerInfo
from renderers import ALT_TEXT_MAX, board

SHOWN = (550, 350)  # Discord's inline picture: a board smaller than this is blown up
PNG = b"\x89PNG\r\n\x1a\n"


def _ai_game(key: str, seed: int, cap: int = 300) -> list[object]:
    """An AI-only table's states, every tenth, and its last."""
    game = games.get(key)
    players = max(game.min_players, min(4, game.max_players))
    state, _ = game.setup([PlayerInfo(f"AI{i}", ai=True) for i in range(players)], seed, {})
    found = [state]
    for _ in range(cap):
        seat = game.to_act(state)
        if seat is None:
            break
        state, _ = game.apply(state, seat, game.ai_action(state, seat))
        found.append(state)
    return found[::10] + found[-1:]


@pytest.mark.parametrize("key", sorted(games.all_games()))
def test_each_games_board_is_one_landscape_canvas_with_its_alt_text(key: str) -> None:
    game = games.get(key)
    sizes = set()
    for state in _ai_game(key, seed=2):
        drawn = board(key, state)
        assert drawn.image.startswith(PNG), key
        with Image.open(io.BytesIO(drawn.image)) as image:
            sizes.add(image.size)
        assert 0 < len(drawn.alt) <= ALT_TEXT_MAX, key
        seat = game.to_act(state)
        if seat is not None:
            assert state.players[seat] in drawn.alt, (key, seat)  # type: ignore[attr-defined]
    assert len(sizes) == 1, (key, sizes)
    [(width, height)] = sizes
    assert width > height and width >= SHOWN[0] and height >= SHOWN[1], (key, width, height)
