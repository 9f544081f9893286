"""bot/core/lru.py: never more than its size, and what goes first is what was used
longest ago (a hit counts as a use)."""

from __future__ import annotations

import pytest

from bot.core.lru import Lru


def test_it_keeps_at_most_its_size_dropping_the_least_recently_used() -> None:
    kept: Lru[str, int] = Lru(3)
    for n, key in enumerate("abc"):
        kept.put(key, n)
    assert kept.get("a") == 0  # a is now the most recent
    kept.put("d", 3)
    assert len(kept) == 3
    assert kept.get("b") is None  # b was used longest ago
    assert [kept.get(k) for k in "acd"] == [0, 2, 3]
    kept.put("c", 9)  # a new value for a key counts as a use, not a new entry
    assert len(kept) == 3 and kept.get("c") == 9
    kept.cache_clear()
    assert len(kept) == 0 and kept.get("a") is None


def test_it_needs_room_for_one() -> None:
    with pytest.raises(ValueError):
        Lru(0)
