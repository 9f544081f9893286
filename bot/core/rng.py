"""A seeded random generator whose whole state is one integer.

Games keep their RNG inside their saved state so a game replays exactly from its seed
and actions. `random.Random` would work but its state is 625 integers; splitmix64 is
tiny to store, fast, and good enough for dice and shuffles.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1


@dataclass
class Rng:
    state: int

    @classmethod
    def from_seed(cls, seed: int | str) -> Rng:
        if isinstance(seed, str):
            value = 0
            for ch in seed.encode():
                value = (value * 131 + ch) & _MASK
            seed = value
        return cls(seed & _MASK)

    def next_u64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def randint(self, lo: int, hi: int) -> int:
        """Inclusive on both ends, like random.randint."""
        return lo + self.below(hi - lo + 1)

    def random(self) -> float:
        return (self.next_u64() >> 11) / float(1 << 53)

    def choice(self, items: Sequence[T]) -> T:
        if not items:
            raise IndexError("choice from an empty sequence")
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        pool = list(items)
        self.shuffle(pool)
        return pool[:k]
