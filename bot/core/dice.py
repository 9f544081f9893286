"""Dice the games use. Faces are data, rolling needs the game's own Rng."""

from __future__ import annotations

from bot.core.rng import Rng

BETRAYAL_FACES: tuple[int, ...] = (0, 0, 1, 1, 2, 2)
D6_FACES: tuple[int, ...] = (1, 2, 3, 4, 5, 6)


def roll(rng: Rng, count: int, faces: tuple[int, ...] = D6_FACES) -> list[int]:
    """Roll `count` dice; a roll never uses fewer than one die (RULES.md)."""
    return [rng.choice(faces) for _ in range(max(1, count))]


def roll_betrayal(rng: Rng, count: int, cap: int = 8) -> list[int]:
    """Betrayal dice: at most `cap` dice, at least one."""
    return roll(rng, min(max(1, count), cap), BETRAYAL_FACES)
