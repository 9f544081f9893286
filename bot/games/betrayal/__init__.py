"""Betrayal at House on the Hill (seed 003): exploring the house until the haunt begins.

`map_view(state)` and `sheet_view(state, seat)` build the pictures' data (pictures.py).
"""

from bot.games.betrayal.rules import BetrayalGame
from bot.games.betrayal.shown import map_view, sheet_view

GAME = BetrayalGame()

__all__ = ["GAME", "BetrayalGame", "map_view", "sheet_view"]
