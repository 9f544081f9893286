"""Betrayal's own dice (seed 003): each die's six faces read 0, 0, 1, 1, 2 and 2, and a
roll never uses more than eight dice (RULES.md: nor fewer than one). Rolled with the
state's own Rng, like every die of every game (bot/core/dice.py)."""

from __future__ import annotations

from functools import cache

from bot.core.dice import roll
from bot.core.rng import Rng

FACES: tuple[int, ...] = (0, 0, 1, 1, 2, 2)
SHOWN: tuple[int, ...] = (0, 1, 2)  # what a die shows, each as likely (two faces each)
MOST_DICE = 8


def roll_betrayal(rng: Rng, count: int, cap: int = MOST_DICE) -> list[int]:
    """A Betrayal roll of `count` dice: at most `cap` of them, at least one."""
    return roll(rng, min(max(1, count), cap), FACES)


@cache
def odds(count: int, need: int) -> float:
    """The chance that `count` Betrayal dice show `need` or more in all (an AI's weighing
    of a roll it may make: a crossing, a haunt's own)."""
    totals = {0: 1.0}
    for _ in range(count):
        rolled: dict[int, float] = {}
        for total, chance in totals.items():
            for face in SHOWN:
                rolled[total + face] = rolled.get(total + face, 0.0) + chance / len(SHOWN)
        totals = rolled
    return sum(chance for total, chance in totals.items() if total >= need)
