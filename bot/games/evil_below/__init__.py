"""IT: Evil Below (seed 001), cooperative, 2-7 players against Pennywise.

Not registered yet: no `GAME` here until the Discord part exists, so the lobby does not
offer an unfinished game. Tests use the engine class directly.
"""

from bot.games.evil_below.rules import EvilBelowGame

__all__ = ["EvilBelowGame"]
