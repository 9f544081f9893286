"""Whether the totem cards revealed in a fight meet a weakness card's condition.

Conditions are data (cards.yaml); each kind is one small function of the revealed
cards' (location, totem) pairs, so a new printed card needs only a line of YAML.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from bot.games.evilbelow import content

Pairs = list[tuple[int, int]]  # (location, totem) of each revealed card


def _same_totem(cards: Pairs, n: int, _: dict[str, Any]) -> bool:
    return bool(cards) and max(Counter(t for _, t in cards).values()) >= n


def _same_location(cards: Pairs, n: int, _: dict[str, Any]) -> bool:
    return bool(cards) and max(Counter(loc for loc, _ in cards).values()) >= n


def _among(cards: Pairs, _: int, cond: dict[str, Any]) -> bool:
    return sum(1 for _, t in cards if t in cond["among"]) >= int(cond["count"])


def _different_totems(cards: Pairs, n: int, _: dict[str, Any]) -> bool:
    return len({t for _, t in cards}) >= n


def _different_locations(cards: Pairs, n: int, _: dict[str, Any]) -> bool:
    return len({loc for loc, _ in cards}) >= n


def max_pairs(cards: Pairs) -> int:
    """Separate pairs matching in totem or location. Exact search over few cards (a
    fight rarely reveals more than ten); beyond twelve, the better of two greedy
    pairings, which already finds the three pairs the hardest card asks for."""
    if len(cards) <= 12:
        return _exact_pairs(tuple(sorted(cards)))
    return max(_greedy_pairs(cards, 1), _greedy_pairs(cards, 0))


def _exact_pairs(cards: tuple[tuple[int, int], ...]) -> int:
    if len(cards) < 2:
        return 0
    first, rest = cards[0], cards[1:]
    best = _exact_pairs(rest)
    for i, other in enumerate(rest):
        if other[0] == first[0] or other[1] == first[1]:
            best = max(best, 1 + _exact_pairs(rest[:i] + rest[i + 1:]))
    return best


def _greedy_pairs(cards: Pairs, key: int) -> int:
    groups = Counter(c[key] for c in cards)
    pairs = sum(v // 2 for v in groups.values())
    singles = [c for c in cards if groups[c[key]] % 2 == 1]
    seen: dict[int, int] = {}
    for c in singles:  # one left over per group; pair them by the other attribute
        other = c[1 - key]
        seen[other] = seen.get(other, 0) + 1
    return pairs + sum(v // 2 for v in seen.values())


def _pairs(cards: Pairs, n: int, _: dict[str, Any]) -> bool:
    return max_pairs(cards) >= n


CHECKS: dict[str, Callable[[Pairs, int, dict[str, Any]], bool]] = {
    "same_totem": _same_totem,
    "same_location": _same_location,
    "among": _among,
    "different_totems": _different_totems,
    "different_locations": _different_locations,
    "pairs": _pairs,
}


def met(key: str, revealed: list[int]) -> bool:
    cond = dict(content.weakness(key).condition)
    cards = [(content.card_location(c), content.card_totem(c)) for c in revealed]
    kind = next(k for k in cond if k in CHECKS)
    n = int(cond[kind]) if kind != "among" else 0
    return CHECKS[kind](cards, n, cond)
