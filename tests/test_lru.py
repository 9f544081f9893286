"""bot/core/lru.py: never more than its size or its bytes, what goes first is what was
used longest ago (a hit counts as a use), and the bytes it reports are exactly those of
what it keeps."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.lru import Lru, RecentDict, RecentSet, SmallCached, lru_by_bytes


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


def test_it_evicts_by_bytes_oldest_first_and_keeps_the_newest() -> None:
    kept: Lru[str, str] = Lru(100, 50)
    for key, weight in (("a", 20), ("b", 20), ("c", 5)):
        kept.put(key, key.upper(), weight)
    assert kept.get("a") == "A"  # a is now the most recent: b goes first
    kept.put("d", "D", 20)  # 65 bytes: b (20) must go, and then 45 fit
    assert kept.get("b") is None
    assert [kept.get(k) for k in "acd"] == ["A", "C", "D"]
    assert kept.cache_info().currbytes == 45
    kept.put("e", "E", 50)  # exactly the budget: everything else goes, e stays
    assert kept.get("e") == "E" and len(kept) == 1 and kept.cache_info().currbytes == 50


def test_an_entry_heavier_than_the_budget_is_not_kept_and_pushes_nothing_out() -> None:
    kept: Lru[str, str] = Lru(100, 50)
    kept.put("a", "A", 30)
    kept.put("huge", "H", 51)
    assert kept.get("huge") is None and kept.get("a") == "A"
    assert kept.cache_info().currbytes == 30
    kept.put("a", "A2", 60)  # a heavier new value for a kept key: the old one goes too
    assert kept.get("a") is None and kept.cache_info().currbytes == 0


def test_pop_and_peek_and_what_the_limits_push_out_is_told() -> None:
    """`peek` is no use (the order and the counts stay), `pop` frees its bytes, and
    `on_drop` hears of each entry the limits push out, and of nothing else."""
    told: list[tuple[str, str]] = []
    kept: Lru[str, str] = Lru(2, 50, on_drop=lambda key, value: told.append((key, value)))
    kept.put("a", "A", 20)
    kept.put("b", "B", 20)
    assert kept.peek("a") == "A" and kept.cache_info().hits == 0
    kept.put("c", "C", 20)  # a was used longest ago: the peek did not count as a use
    assert told == [("a", "A")] and kept.peek("a") is None
    assert kept.pop("b") == "B" and kept.pop("b") is None
    assert kept.cache_info().currbytes == 20 and told == [("a", "A")]
    kept.cache_clear()
    assert told == [("a", "A")]


def test_weights_must_make_sense() -> None:
    with pytest.raises(ValueError):
        Lru(3, 0)
    with pytest.raises(ValueError):
        Lru(3, 10).put("a", "A", -1)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 8), st.integers(1, 60),
       st.lists(st.tuples(st.booleans(), st.integers(0, 9), st.integers(0, 30)),
                max_size=60))
def test_random_puts_and_gets_agree_with_a_plain_model(size: int, budget: int,
                                                       steps: list[tuple[bool, int, int]]
                                                       ) -> None:
    """Against a list in recency order: the same hits, the same entries in the same
    order, and the bytes held are exactly the sum of the kept entries' weights."""
    kept: Lru[int, tuple[int, int]] = Lru(size, budget)
    model: list[tuple[int, int]] = []  # (key, weight), least recent first
    for n, (is_put, key, weight) in enumerate(steps):
        if is_put:
            model = [(k, w) for k, w in model if k != key]
            if weight <= budget:
                model.append((key, weight))
                while len(model) > size or sum(w for _, w in model) > budget:
                    model.pop(0)
            kept.put(key, (n, weight), weight)
        else:
            found = kept.get(key)
            held = [(k, w) for k, w in model if k == key]
            assert (found is None) == (not held)
            if held:
                assert found is not None and found[1] == held[0][1]
                model = [(k, w) for k, w in model if k != key] + held
        info = kept.cache_info()
        assert info.currsize == len(model) <= size
        assert info.currbytes == sum(w for _, w in model) <= budget
        assert [k for k, _ in model] == [k for k in model_order(kept)]


def model_order(kept: Lru[int, tuple[int, int]]) -> list[int]:
    """The Lru's keys, least recent first, read without touching its order."""
    return list(kept._entries)


def test_lru_by_bytes_caches_by_arguments_within_its_budget() -> None:
    calls: list[int] = []

    @lru_by_bytes(100, weigh=len)
    def letters(n: int, fill: str = "x") -> str:
        calls.append(n)
        return fill * n

    assert letters(30) == letters(30) == "x" * 30 and calls == [30]
    assert letters(30, fill="y") == "y" * 30 and calls == [30, 30]  # keyword: its own key
    letters(50)  # 110 bytes: the first 30 goes
    assert letters.cache_info().currbytes == 80 and letters.cache_info().misses == 3
    letters(30)
    assert calls == [30, 30, 50, 30]
    letters.cache_clear()
    assert letters.cache_info().currsize == 0


def test_a_small_cache_weighs_key_and_result_and_stays_in_its_bytes() -> None:
    """SmallCached (the renderers' fonts, measures, layouts): a hit is the kept result,
    each entry weighs its key and its result, the first made goes first past the
    budget, and a result heavier than the budget is returned but not kept."""
    calls: list[str] = []

    def shout(text: str) -> str:
        calls.append(text)
        return text.upper()

    cached = SmallCached(shout, 100, len, lambda key: 10 * len(key))
    assert cached("ab") == "AB" and cached("ab") == "AB"
    assert calls == ["ab"]  # the second was a hit
    info = cached.cache_info()
    assert (info.hits, info.misses, info.currsize, info.currbytes) == (1, 1, 1, 2 + 10)
    for text in ("cd" * 10, "ef" * 10, "gh" * 10):  # 30 bytes each
        cached(text)
    info = cached.cache_info()
    assert info.currbytes <= 100 and info.currsize == 3  # "ab" went first
    calls.clear()
    cached("ab")
    assert calls == ["ab"]
    calls.clear()
    assert cached("x" * 200) == "X" * 200 and cached("x" * 200) == "X" * 200
    assert calls == ["x" * 200] * 2  # too heavy to keep: made again
    assert cached.cache_info().currbytes <= 100
    cached.cache_clear()
    assert cached.cache_info().currsize == 0 and cached.cache_info().currbytes == 0


def test_recent_dict_and_set_keep_the_most_recently_written() -> None:
    d: RecentDict[int, str] = RecentDict(3)
    for n in range(5):
        d[n] = str(n)
    assert list(d) == [2, 3, 4]
    d[2] = "again"  # a write counts as recent
    d[5] = "5"
    assert dict(d) == {4: "4", 2: "again", 5: "5"}
    assert d.pop(4) == "4" and d.get(4) is None and len(d) == 2
    s: RecentSet[int] = RecentSet(2)
    for n in (1, 2, 1, 3):
        s.add(n)
    assert set(s) == {1, 3} and 2 not in s
    s.discard(1)
    s.discard(9)
    assert set(s) == {3}
    with pytest.raises(ValueError):
        RecentDict(0)
