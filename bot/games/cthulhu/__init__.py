"""Cthulhu in the House (seed 002): hidden identities in a twelve-room house."""

from bot.games.cthulhu.rules import CthulhuGame

GAME = CthulhuGame()

__all__ = ["GAME", "CthulhuGame"]
