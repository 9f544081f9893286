"""Who turns traitor when the haunt begins (seed 003, rules text, haunt section).

Each haunt's rule is in data/betrayal/haunts.yaml (`traitor`): the first explorer
`named` who is in the game is the traitor (by name, never by colour: the other side of
the same character card does not count); otherwise the `else` rule:

  revealer            the explorer who revealed the haunt;
  left_of_revealer    the player on the revealer's left (clockwise, seat + 1);
  highest_<trait> / lowest_<trait>
                      the explorer with the highest / lowest current value in that
                      trait; a tie goes to the tied explorer nearest the revealer,
                      starting with the revealer and going left;
  none                no traitor: every explorer is a hero.

Pure: it reads the state and changes nothing. Every explorer is a candidate: before the
haunt no one dies (a trait holds just above the skull), so there are no dead explorers
to pass over yet.
"""

from __future__ import annotations

from typing import Any

from bot.games.betrayal import traits
from bot.games.betrayal.content import TRAITS
from bot.games.betrayal.haunt_list import haunts
from bot.games.betrayal.state import BetrayalState

SIMPLE_RULES = ("revealer", "left_of_revealer", "none")
RULES: tuple[str, ...] = SIMPLE_RULES + tuple(
    f"{side}_{trait}" for side in ("highest", "lowest") for trait in TRAITS)


def from_revealer(state: BetrayalState, revealer: int) -> list[int]:
    """Every seat, starting with the revealer and going left (clockwise, seat + 1)."""
    count = len(state.explorers)
    return [(revealer + step) % count for step in range(count)]


def by_rule(state: BetrayalState, revealer: int, rule: dict[str, Any]) -> int | None:
    """The traitor's seat under one haunts.yaml `traitor` rule, or None for no traitor."""
    seats = {e.key: seat for seat, e in enumerate(state.explorers)}
    for key in rule.get("named") or ():
        if key in seats:
            return seats[key]
    fallback = str(rule.get("else", ""))
    if fallback == "revealer":
        return revealer
    if fallback == "left_of_revealer":
        return (revealer + 1) % len(state.explorers)
    if fallback == "none":
        return None
    side, _, trait = fallback.partition("_")
    if side not in ("highest", "lowest") or trait not in TRAITS:
        raise ValueError(f"unknown traitor rule {fallback!r}")
    order = from_revealer(state, revealer)
    values = [traits.value(state, seat, trait) for seat in order]
    best = max(values) if side == "highest" else min(values)
    return order[values.index(best)]  # the first in order: nearest the revealer


def choose_traitor(state: BetrayalState, haunt_key: str,
                   revealer: int | None = None) -> int | None:
    """The traitor's seat for this haunt (haunts.yaml), or None when there is none
    (the rule says so, or the haunt is not one of ours). The revealer defaults to the
    one recorded in `state.haunt`."""
    haunt = haunts().get(haunt_key)
    if haunt is None:
        return None
    if revealer is None:
        if state.haunt is None:
            raise ValueError("no revealer: the haunt has not begun")
        revealer = state.haunt.revealer
    return by_rule(state, revealer, haunt.traitor)
