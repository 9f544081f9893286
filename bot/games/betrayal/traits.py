"""Trait tracks: an explorer's four traits are clips on tracks of eight values.

The state keeps the clip's index (0 = the lowest value above the skull, 7 = the top);
the value is `track[index]`. Before the haunt nobody dies: a trait never goes below
index 0 (seed 003). After it, -1 is the skull, which is death (haunting/death.py).
"""

from __future__ import annotations

from bot.games.betrayal import content
from bot.games.betrayal.content import MENTAL, PHYSICAL, TRAITS
from bot.games.betrayal.state import EXPLORE, BetrayalState

TOP = 7
DAMAGE_TRAITS: dict[str, tuple[str, ...]] = {
    "physical": PHYSICAL, "mental": MENTAL, "general": TRAITS,
}


def track(state: BetrayalState, seat: int, trait: str) -> content.Track:
    return content.explorer(state.explorers[seat].key).traits[trait]


def value(state: BetrayalState, seat: int, trait: str) -> int:
    """The trait's current value (0 on the skull)."""
    index = state.explorers[seat].traits[trait]
    return 0 if index < 0 else track(state, seat, trait).values[index]


def index(state: BetrayalState, seat: int, trait: str) -> int:
    return state.explorers[seat].traits[trait]


def floor_index(state: BetrayalState) -> int:
    """The lowest index a trait may reach: 0 before the haunt and during its setup
    (seed 003: a trait that a haunt's setup would take to the skull stops just above
    it), the skull once the haunt's first round has begun."""
    if state.phase == EXPLORE or (state.haunt is not None and state.haunt.round == 0):
        return 0
    return -1


def shift(state: BetrayalState, seat: int, trait: str, amount: int) -> int:
    """Move a clip by `amount` steps (negative = down) within the bounds; return the
    number of steps it actually moved (signed)."""
    if trait not in TRAITS:
        raise ValueError(f"unknown trait {trait!r}")
    traits = state.explorers[seat].traits
    before = traits[trait]
    traits[trait] = max(floor_index(state), min(TOP, before + amount))
    return traits[trait] - before


def can_lower(state: BetrayalState, seat: int, trait: str) -> bool:
    return state.explorers[seat].traits[trait] > floor_index(state)


def below_start(state: BetrayalState, seat: int, trait: str) -> bool:
    return state.explorers[seat].traits[trait] < track(state, seat, trait).start


def heal(state: BetrayalState, seat: int, trait: str) -> int:
    """Raise a trait below its starting value back to it; return the steps gained."""
    start = track(state, seat, trait).start
    traits = state.explorers[seat].traits
    gained = max(0, start - traits[trait])
    traits[trait] += gained
    return gained


def in_bounds(state: BetrayalState) -> bool:
    """Every clip on its track (what the property tests check)."""
    low = floor_index(state)
    return all(low <= i <= TOP for e in state.explorers for i in e.traits.values())


def sheet_line(state: BetrayalState, seat: int) -> str:
    """`Speed 4 · Might 3 · Sanity 3 · Knowledge 4` for status lines."""
    return " · ".join(f"{content.trait_name(t)} {value(state, seat, t)}" for t in TRAITS)
