"""IT: Evil Below (seed 001), cooperative, 2-7 players against Pennywise."""

from bot.games.evilbelow.rules import EvilBelowGame

GAME = EvilBelowGame()

__all__ = ["GAME", "EvilBelowGame"]
