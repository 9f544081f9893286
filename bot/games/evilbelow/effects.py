"""The small changes every rule is made of: draw, lose or gain Bravery, push an attack
card into the Fight Stack, move a mover, end the game. Each checks the limits seed 001
puts on it (hand size, Bravery 0-5) so that no caller has to remember them, and each
movement re-checks the ability that triggers on who shares a location (eddie.py).
"""

from __future__ import annotations

from bot.core.events import Event
from bot.games.evilbelow import content, eddie
from bot.games.evilbelow.content import evil_below_line
from bot.games.evilbelow.state import (
    DRAINPIPE,
    LOSS_ATTACKS,
    LOSS_BRAVERY,
    LOSS_EMPTY,
    OVER,
    SIGHTINGS,
    WIN,
    EvilBelowState,
)
from bot.texts import listed

MAX_BRAVERY = 5
HAND_LIMIT = 3
EMPTY_LOSS = 3  # seed 001: three locations without victims


def where_name(where: int) -> str:
    return content.board().drainpipe if where == DRAINPIPE else content.board().names[where]


def hero_name(state: EvilBelowState, seat: int) -> str:
    return content.character(state.heroes[seat].character).name


def hand_limit(state: EvilBelowState, seat: int) -> int | None:
    """Seed 001: 3 cards; Ben has no maximum hand size."""
    return None if state.heroes[seat].character == "ben" else HAND_LIMIT


def draw_totem(state: EvilBelowState, seat: int, events: list[Event]) -> int | None:
    """The top totem card into this seat's hand; an empty pile is refilled from the
    shuffled discards (seed 001). None when both are empty."""
    if not state.totem_deck and state.totem_discard:
        state.totem_deck = state.totem_discard
        state.totem_discard = []
        state.rng.shuffle(state.totem_deck)
        events.append(Event(evil_below_line("events.reshuffle"), kind="reshuffle"))
    if not state.totem_deck:
        events.append(Event(evil_below_line("events.no_totems"), kind="draw"))
        return None
    card = state.totem_deck.pop()
    state.heroes[seat].hand.append(card)
    events.append(Event(evil_below_line("events.draw", character=hero_name(state, seat),
                                        card=content.card_name(card)), kind="draw",
                        data={"seat": seat, "card": card}))
    return card


def lose_bravery(state: EvilBelowState, seat: int, amount: int, events: list[Event], *,
                 joined: bool = False) -> None:
    """`joined`: one point of an attack's lines, which land one at a time (seed 001: the
    effect is satisfied to its full extent). Points landing on the same Loser one after
    another are told as one line: what they took and what is left, once, not "loses 1
    Bravery, but has none left to lose (0)" for every point past the last."""
    hero = state.heroes[seat]
    lost = min(hero.bravery, amount)
    hero.bravery -= lost
    last = events[-1] if events else None
    if joined and last is not None and last.kind == "bravery" \
            and last.data.get("seat") == seat and "asked" in last.data:
        events.pop()
        amount += int(last.data["asked"])
        lost += int(last.data["lost"])
    if lost == amount:
        line = "events.bravery_lost"
    else:
        line = "events.bravery_none" if lost == 0 else "events.bravery_spent"
    data: dict[str, int] = {"seat": seat, "bravery": hero.bravery}
    if joined:
        data |= {"asked": amount, "lost": lost}
    events.append(Event(evil_below_line(line, character=hero_name(state, seat),
                                        amount=lost or amount, bravery=hero.bravery),
                        kind="bravery", data=data))


def gain_bravery(state: EvilBelowState, seats: list[int], events: list[Event]) -> None:
    """+1 each, never above 5 (seed 001)."""
    topped: list[int] = []  # already at the top: their Bravery stays, and the line says so
    for seat in seats:
        hero = state.heroes[seat]
        if hero.bravery >= MAX_BRAVERY:
            topped.append(seat)
        hero.bravery = min(MAX_BRAVERY, hero.bravery + 1)
    if seats:
        names = listed([
            evil_below_line("events.bravery_top", name=hero_name(state, s),
                            bravery=state.heroes[s].bravery)
            if s in topped else f"{hero_name(state, s)} {state.heroes[s].bravery}"
            for s in seats])
        events.append(Event(evil_below_line("events.bravery_gained", names=names), kind="bravery"))


def attack_to_stack(state: EvilBelowState, events: list[Event], why: str) -> None:
    """The top Attack card, unseen, onto the Fight Stack."""
    if not state.attack_pile:
        return
    state.fight_stack.append(state.attack_pile.pop())
    state.stack_hidden.append(state.fight_stack[-1])
    attacks = sum(1 for c in state.fight_stack if content.is_attack(c))
    events.append(Event(evil_below_line(f"events.{why}", attacks=attacks,
                                        size=len(state.fight_stack)),
                        kind="fight_stack", data={"attacks": attacks}))


def attack_to_stack_card(state: EvilBelowState, card: int, events: list[Event]) -> None:
    """An attack card that has just resolved goes face down onto the Fight Stack."""
    state.fight_stack.append(card)
    attacks = sum(1 for c in state.fight_stack if content.is_attack(c))
    events.append(Event(evil_below_line("events.attack_to_stack", attacks=attacks,
                                        size=len(state.fight_stack)), kind="fight_stack",
                        data={"attacks": attacks}))


def place_card(state: EvilBelowState, seat: int, card: int, events: list[Event]) -> None:
    """A card from this seat's face-up hand into the Fight Stack, openly."""
    state.heroes[seat].hand.remove(card)
    state.fight_stack.append(card)
    events.append(Event(evil_below_line("events.place", character=hero_name(state, seat),
                                        card=content.card_name(card), size=len(state.fight_stack)),
                        kind="place", data={"seat": seat, "card": card}))


def discard_totem(state: EvilBelowState, seat: int, card: int, events: list[Event]) -> None:
    state.heroes[seat].hand.remove(card)
    state.totem_discard.append(card)
    events.append(Event(evil_below_line("events.discard", character=hero_name(state, seat),
                                        card=content.card_name(card)), kind="discard",
                        data={"seat": seat, "card": card}))


def move_pennywise(state: EvilBelowState, where: int, events: list[Event], why: str) -> None:
    state.pennywise = where
    events.append(Event(evil_below_line(f"events.{why}", location=where_name(where)),
                        kind="pennywise",
                        data={"pennywise": where}))
    eddie.eddie_check(state, events)


def move_hero(state: EvilBelowState, seat: int, where: int, events: list[Event],
              why: str = "move") -> None:
    source = state.heroes[seat].location
    state.heroes[seat].location = where
    state.moved.append([seat, source, where])
    events.append(Event(evil_below_line(f"events.{why}", character=hero_name(state, seat),
                                        source=where_name(source), target=where_name(where)),
                        kind="move", data={"seat": seat, "from": source, "to": where}))
    eddie.eddie_check(state, events)


def finish(state: EvilBelowState, result: str, events: list[Event]) -> None:
    if state.over:
        return
    state.phase = OVER
    state.result = result
    state.pending = None
    events.append(Event(evil_below_line(f"events.end_{result}"), kind="game_over",
                        data={"result": result, "win": result == WIN}))


def check_losses(state: EvilBelowState, events: list[Event]) -> bool:
    """Seed 001's losses that can be checked at rest, each at its own moment: a
    Bravery at 0 and every attack card in the Fight Stack lose as soon as they happen
    (between two dice too; a sighting's Bravery loss is checked before its victim is
    taken, sightings.py; an attack's damage all resolves first: "After resolving the
    Attack, if any player's Bravery is reduced to zero ... all players lose"), but
    three empty locations lose only "after Resolving Sightings", so not while the roll
    still has balloons to resolve (sightings.py checks once the last one is done). The
    full Evil Influence track ends the game where the child lands (sightings.py). True
    once the game is over."""
    if state.over:
        return True
    if any(h.bravery <= 0 for h in state.heroes):
        finish(state, LOSS_BRAVERY, events)
    elif state.phase != SIGHTINGS and len(state.empty()) >= EMPTY_LOSS:
        finish(state, LOSS_EMPTY, events)
    elif not state.attack_pile and state.held is None:
        finish(state, LOSS_ATTACKS, events)
    return state.over


def advance_strength(state: EvilBelowState, spaces: int, events: list[Event]) -> None:
    length = content.board().strength_length
    state.strength = min(length, state.strength + spaces)
    events.append(Event(evil_below_line("events.strength", spaces=spaces, strength=state.strength,
                                        length=length), kind="strength",
                        data={"strength": state.strength}))
    if state.strength >= length:
        finish(state, WIN, events)
