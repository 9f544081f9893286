"""The characters' abilities, each where seed 001 (or our design, for Stan) makes it
trigger. Abilities that give a choice are actions (actions.py lists them); the ones
that simply happen are hooks the rules call from here, so each lives in one place.
Eddie's allowance is the exception: every move re-checks it, so it sits below the
effects that move people, in eddie.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.core.events import Event
from bot.games.evilbelow import content, effects
from bot.games.evilbelow.content import evil_below_line

if TYPE_CHECKING:
    from bot.games.evilbelow.state import EvilBelowState

def on_abduction(state: EvilBelowState, where: int, events: list[Event]) -> None:
    """Bill: a victim abducted from his location, two cards or fewer: draw one."""
    seat = state.seat_of("bill")
    if seat is None or state.heroes[seat].location != where:
        return
    if len(state.heroes[seat].hand) <= 2:
        events.append(Event(evil_below_line("events.bill"), kind="ability"))
        effects.draw_totem(state, seat, events)


def on_turn_start(state: EvilBelowState, events: list[Event]) -> None:
    """Bev: at the start of her turn, with another player beside her, all there +1."""
    if state.heroes[state.turn].character != "bev":
        return
    here = state.at(state.heroes[state.turn].location)
    if len(here) >= 2:
        events.append(Event(evil_below_line("events.bev"), kind="ability"))
        effects.gain_bravery(state, here, events)


def fighter_draws(state: EvilBelowState, events: list[Event]) -> None:
    """Ben: whenever he fights Pennywise, he draws a card (no hand limit)."""
    if state.heroes[state.turn].character == "ben":
        events.append(Event(evil_below_line("events.ben"), kind="ability"))
        effects.draw_totem(state, state.turn, events)


def can_pull(state: EvilBelowState, seat: int) -> bool:
    """Richie, once per turn on his turn: Pennywise from a neighbouring location."""
    hero = state.heroes[seat]
    return (hero.character == "richie" and seat == state.turn and not state.richie_used
            and state.pennywise in content.board().neighbours(hero.location))


def can_add(state: EvilBelowState, seat: int) -> bool:
    """Mike, fighting as the active player (RULES.md) with exactly one card in hand."""
    hero = state.heroes[seat]
    return (hero.character == "mike" and seat == state.turn and state.fight is not None
            and not state.fight.mike_used and len(hero.hand) == 1)


def can_peek(state: EvilBelowState) -> bool:
    """Stan (designed): once per fight, Stan where the fight is, a card left to see."""
    fight = state.fight
    seat = state.seat_of("stan")
    return (fight is not None and seat is not None and not fight.peeked
            and state.heroes[seat].location == fight.location and bool(state.fight_stack))


def special_bonus(state: EvilBelowState, card: int) -> str | None:
    """The character a special totem names, if that character is where the fight is."""
    who = content.specials().get(card)
    if who is None or state.fight is None:
        return None
    seat = state.seat_of(who)
    if seat is None or state.heroes[seat].location != state.fight.location:
        return None
    return who
