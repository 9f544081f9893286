"""Pennywise's attacks: an attack card's lines by the letters showing, turned into
single units of damage (one point of Bravery, one card) that the active player assigns
among the players in that location, one at a time, so that every legal split and only
legal splits can be made (seed 001: the effect must be satisfied to its full extent).
"""

from __future__ import annotations

from typing import Any

from bot.core.choices import PendingChoice
from bot.core.events import Event
from bot.games.evilbelow import content, effects
from bot.games.evilbelow.content import evil_below_line
from bot.games.evilbelow.state import EvilBelowState, HeldAttack
from bot.texts import grouped, listed

BRAVERY, DISCARD, MILL = "bravery", "discard", "mill"
PICK_BRAVERY, PICK_DISCARD = "damage_bravery", "damage_discard"


def lines_showing(missing: int) -> int:
    """RULES.md: the 0/A line with none or one victim missing, A and B with two, A, B
    and C with three or more."""
    return 1 if missing <= 1 else min(3, missing)


def begin(state: EvilBelowState, card: int, where: int, to: str,
          events: list[Event]) -> None:
    """Hold the card while its lines resolve in `where`; it goes `to` the Fight Stack
    (an Evil Influence attack) or the bottom of the Attack pile (a counterattack)."""
    state.held = HeldAttack(card, to)
    state.damage_at = where
    shown = lines_showing(state.missing(where))
    attack = content.attack_card(card)
    units: list[dict[str, Any]] = []
    for line in attack.lines[:shown]:
        for effect, amount in line:
            if effect == MILL:
                units.append({"kind": MILL, "n": amount})
            else:
                units += [{"kind": effect} for _ in range(amount)]
    here = state.at(where)
    holders = [s for s in here if state.heroes[s].hand]
    if len(here) > 1 and len(holders) == 1 and any(u["kind"] == DISCARD for u in units):
        # Seed 001: when only one player there holds cards, they take the whole attack.
        for unit in units:
            unit["seat"] = holders[0]
    state.damage = units
    letters = ["0/A", "B", "C"][:shown]
    events.append(Event(evil_below_line("events.attack_card", letters=listed(letters),
                                        location=effects.where_name(where),
                                        effects=describe(attack, shown)),
                        kind="attack", data={"card": card, "lines": shown}))


def describe(attack: content.AttackCard, shown: int) -> str:
    parts = []
    for line in attack.lines[:shown]:
        parts.append(listed([evil_below_line(f"effects.{effect}", n=amount)
                             for effect, amount in line]))
    return grouped(parts)


def resolve_next(state: EvilBelowState, events: list[Event]) -> None:
    """Resolve the first unit, or ask the active player where it lands."""
    unit = state.damage[0]
    here = state.at(state.damage_at)
    kind = unit["kind"]
    if kind == MILL:
        state.damage.pop(0)
        _mill(state, int(unit["n"]), events)
    elif kind == BRAVERY:
        targets = [unit["seat"]] if "seat" in unit else bravery_targets(state, here)
        if len(targets) > 1 and _all_goes(state, BRAVERY,
                                          sum(state.heroes[s].bravery for s in here)):
            _no_choice(state, BRAVERY, events)
            targets = targets[:1]
        if len(targets) == 1:
            state.damage.pop(0)
            effects.lose_bravery(state, targets[0], 1, events, joined=True)
        else:
            state.pending = PendingChoice(
                seat=state.turn, prompt=evil_below_line("prompts.bravery"), kind=PICK_BRAVERY,
                labels=[evil_below_line("labels.bravery_target", character=effects.hero_name(state,
                                                                                             s),
                                        bravery=state.heroes[s].bravery) for s in targets],
                payload={"targets": targets})
    else:
        cards = discard_targets(state, here)
        if not cards:
            state.damage.pop(0)
            # Said once for the attack's discards that find no card, not once a card.
            if not events or not events[-1].data.get("nothing_held"):
                events.append(Event(evil_below_line("events.nothing_to_discard"),
                                    kind="discard", data={"nothing_held": True}))
        elif len(cards) == 1 or _all_goes(state, DISCARD, len(cards)):
            if len(cards) > 1:
                _no_choice(state, DISCARD, events)
            state.damage.pop(0)
            effects.discard_totem(state, cards[0][0], cards[0][1], events)
        else:
            state.pending = PendingChoice(
                seat=state.turn, prompt=evil_below_line("prompts.discard"), kind=PICK_DISCARD,
                labels=[evil_below_line("labels.discard_target", character=effects.hero_name(state,
                                                                                             s),
                                        card=content.card_name(c)) for s, c in cards],
                payload={"targets": [[s, c] for s, c in cards]})
    if not state.damage and state.pending is None:
        _put_away(state, events)


def _all_goes(state: EvilBelowState, kind: str, there: int) -> bool:
    """Whether the points of this kind still to land (this one too) take all `there` is
    of it (every card in hand, every point of Bravery): then every way of placing them
    ends alike, and asking which would be a question without a difference."""
    return sum(1 for u in state.damage if u["kind"] == kind) >= there


def _no_choice(state: EvilBelowState, kind: str, events: list[Event]) -> None:
    """Say once why the active player is not asked: it is all lost whichever way."""
    if any(e.data.get("all_lost") == kind for e in events):
        return
    line = "events.all_bravery_lost" if kind == BRAVERY else "events.all_cards_lost"
    events.append(Event(evil_below_line(line, location=effects.where_name(state.damage_at)),
                        kind=kind, data={"all_lost": kind}))


def bravery_targets(state: EvilBelowState, here: list[int]) -> list[int]:
    """Who can take a point of Bravery: anyone there who still has some."""
    alive = [s for s in here if state.heroes[s].bravery > 0]
    return alive or here


def discard_targets(state: EvilBelowState, here: list[int]) -> list[tuple[int, int]]:
    return [(s, c) for s in here for c in state.heroes[s].hand]


def choose(state: EvilBelowState, kind: str, payload: dict[str, Any], pick: int,
           events: list[Event]) -> None:
    state.damage.pop(0)
    if kind == PICK_BRAVERY:
        effects.lose_bravery(state, int(payload["targets"][pick]), 1, events, joined=True)
    else:
        seat, card = payload["targets"][pick]
        effects.discard_totem(state, int(seat), int(card), events)
    if not state.damage:
        _put_away(state, events)


def _mill(state: EvilBelowState, n: int, events: list[Event]) -> None:
    """Seed 001: reveal the top cards of the Fight Stack, discard the totems among
    them. RULING (designed): attack cards revealed this way go back on top."""
    top = [state.fight_stack.pop() for _ in range(min(n, len(state.fight_stack)))]
    for card in top:
        state.seen(card)
    kept = [c for c in top if content.is_attack(c)]
    gone = [c for c in top if not content.is_attack(c)]
    state.totem_discard += gone
    state.fight_stack += reversed(kept)
    events.append(Event(evil_below_line("events.mill", n=len(top), totems=len(gone),
                                        attacks=len(kept)), kind="mill"))


def _put_away(state: EvilBelowState, events: list[Event]) -> None:
    held = state.held
    if held is None:
        return
    state.held = None
    if held.to == "stack":
        effects.attack_to_stack_card(state, held.card, events)
    else:
        state.attack_pile.insert(0, held.card)
        events.append(Event(evil_below_line("events.attack_to_pile"), kind="attack"))
