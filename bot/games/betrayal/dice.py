"""Betrayal's own dice (seed 003): each die's six faces read 0, 0, 1, 1, 2 and 2, and a
roll never uses more than eight dice (RULES.md: nor fewer than one). Rolled with the
state's own Rng, like every die of every game (bot/core/dice.py)."""

from __future__ import annotations

from bot.core.dice import roll
from bot.core.rng import Rng

FACES: tuple[int, ...] = (0, 0, 1, 1, 2, 2)
MOST_DICE = 8


def roll_betrayal(rng: Rng, count: int, cap: int = MOST_DICE) -> list[int]:
    """A Betrayal roll of `count` dice: at most `cap` of them, at least one."""
    return roll(rng, min(max(1, count), cap), FACES)
