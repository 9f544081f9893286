"""Dice the games use. Faces are data (a game with dice of its own keeps their faces in
its package), rolling needs the game's own Rng."""

from __future__ import annotations

from bot.core.rng import Rng

D6_FACES: tuple[int, ...] = (1, 2, 3, 4, 5, 6)


def roll(rng: Rng, count: int, faces: tuple[int, ...] = D6_FACES) -> list[int]:
    """Roll `count` dice; a roll never uses fewer than one die (RULES.md)."""
    return [rng.choice(faces) for _ in range(max(1, count))]
