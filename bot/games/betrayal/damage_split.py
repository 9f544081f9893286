"""How an explorer splits damage among its traits, as one choice.

A split used to be asked one point at a time (seven clicks for seven damage, a new board
each time). Now every legal split is one option; when there are more than one menu
holds (general damage, which four traits share), the first trait's share is asked first
and the rest after it, so every legal split stays reachable in two or three picks.

Only traits that can still lose are offered. A trait loses at most the steps it has
left (down to its lowest value before the haunt, to the skull after); points put on it
past that are lost, as "All 4 to Speed" always allowed. Once the skull can be reached, a
split that takes a trait to it is offered only when every split does: seed 003 has an
explorer die when a trait reaches the skull "unavoidably" (若無可避免地), so the damage
goes where it does not kill while it can.
A split is a list of [trait, points] pairs (points > 0), in the order the traits are
listed; a partial one (the first trait's share only) is flagged in the choice.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from bot.core.actions import MENU_LIMIT
from bot.games.betrayal import content, traits
from bot.games.betrayal.state import BetrayalState
from bot.texts import listed

Split = list[list[object]]  # [[trait, points], ...] as stored in the pending step


@dataclass(frozen=True)
class Choice:
    """One option of the split: its parts, and whether more is asked after it."""

    parts: tuple[tuple[str, int], ...]
    partial: bool = False


def room(state: BetrayalState, seat: int, trait: str) -> int:
    """The steps this trait can still lose now."""
    return max(0, traits.index(state, seat, trait) - traits.floor_index(state))


def _compositions(amount: int, count: int) -> Iterator[tuple[int, ...]]:
    """Every way to put `amount` points on `count` traits, the first trait's share largest
    first (so "all to the first" leads and "all to the last" ends)."""
    if count == 1:
        yield (amount,)
        return
    for first in range(amount, -1, -1):
        for tail in _compositions(amount - first, count - 1):
            yield (first, *tail)


def choices(state: BetrayalState, seat: int, names: list[str], amount: int) -> list[Choice]:
    """The options for `amount` points on these traits (those that can still lose): every
    split that leaves the traits differently (points past a trait's lowest are lost, so
    two splits may end the same; the first listed stands for both) if they fit in one
    menu, else the first trait's share, the rest asked after it."""
    caps = [room(state, seat, t) for t in names]
    spare = _spare(state, caps, amount)
    deadly = traits.floor_index(state) < 0
    seen: set[tuple[int, ...]] = set()
    full: list[Choice] = []
    for split in _compositions(amount, len(names)):
        if spare and _kills(split, caps):
            continue
        outcome = _outcome(split, caps, deadly=deadly)
        if outcome not in seen:
            seen.add(outcome)
            full.append(Choice(tuple((t, p) for t, p in zip(names, split, strict=True)
                                     if p > 0)))
    if len(full) <= MENU_LIMIT or len(names) <= 2:
        return full
    # A first share that kills ends it all alike, whatever it is: the largest stands for all.
    return [Choice(((names[0], p),) if p else (), partial=True)
            for p in range(amount, -1, -1)
            if not spare or (not _kills((p,), caps[:1])
                             and amount - p <= sum(c - 1 for c in caps[1:]))
            if not (deadly and caps[0] <= p < amount)]


def _outcome(split: tuple[int, ...], caps: list[int], *, deadly: bool) -> tuple[int, ...]:
    """The steps each trait really loses: no more than it has left, and once the skull
    can be reached, nothing after the share that reaches it (the explorer is dead, and
    effects._take_split stops there), so "All 3 to Might" and "2 to Might, 1 to Speed"
    with Might one step above the skull are one option, not two."""
    taken: list[int] = []
    for points, cap in zip(split, caps, strict=True):
        taken.append(min(points, cap))
        if deadly and points > 0 and points >= cap:
            break
    return (*taken, *([0] * (len(caps) - len(taken))))


def _spare(state: BetrayalState, caps: list[int], amount: int) -> bool:
    """Whether the skull can be reached now but the damage can all be taken without
    reaching it (each trait may lose one step less than it has left)."""
    return traits.floor_index(state) < 0 and amount <= sum(c - 1 for c in caps)


def _kills(split: tuple[int, ...], caps: list[int]) -> bool:
    """Whether a split takes some trait to the skull (every step it had left)."""
    return any(0 < p >= c for p, c in zip(split, caps, strict=False))


def label(state: BetrayalState, seat: int, choice: Choice, amount: int,
          first: str) -> str:
    """What the option reads: "All 3 to Might (5 → 2)", "2 to Might (5 → 3), 1 to Speed
    (4 → 3)", or for a first share "2 to Might (5 → 3), then the rest"."""
    if not choice.parts:  # a first share of nothing: the rest goes elsewhere
        return content.betrayal_line("labels.damage_none_to", trait=content.trait_name(first))
    words = [_part(state, seat, t, p, everything=p == amount and not choice.partial)
             for t, p in choice.parts]
    text = listed(words)
    return content.betrayal_line("labels.damage_then_rest", parts=text) if choice.partial else text


def _part(state: BetrayalState, seat: int, trait: str, points: int, *,
          everything: bool) -> str:
    before = traits.value(state, seat, trait)
    after_index = max(traits.floor_index(state), traits.index(state, seat, trait) - points)
    after = 0 if after_index < 0 else traits.track(state, seat, trait).values[after_index]
    name = content.trait_name(trait)
    if everything and points == 1:
        key = "trait_change" if before != after else "trait_same"
        return content.betrayal_line(f"labels.{key}", trait=name, before=before, after=after)
    kind = "all" if everything else "part"
    same = "_same" if before == after else ""
    return content.betrayal_line(f"labels.damage_{kind}_to{same}", amount=points, trait=name,
                                 before=before, after=after)


def to_data(choice: Choice) -> dict[str, object]:
    return {"parts": [[t, p] for t, p in choice.parts], "partial": choice.partial}


def from_data(raw: dict[str, object]) -> Choice:
    parts = raw.get("parts", [])
    assert isinstance(parts, list)
    return Choice(tuple((str(t), int(p)) for t, p in parts), bool(raw.get("partial")))
