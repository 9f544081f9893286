"""Step 2 of a turn: the balloons rolled, resolved one die at a time in the dice' fixed
order (RULES.md), then Pennywise moves to where he is strongest.

An abduction may start an Evil Influence attack whose damage the active player
assigns; the rules' step loop resolves that before the next die, which is why the dice
still to resolve are kept in the state rather than in a Python loop.
"""

from __future__ import annotations

from typing import Any

from bot.core.choices import PendingChoice
from bot.core.events import Event
from bot.games.evilbelow import abilities, attacks, content, effects
from bot.games.evilbelow.content import BALLOON, evil_below_line
from bot.games.evilbelow.state import ACTIONS, LOSS_INFLUENCE, EvilBelowState

PICK_PENNYWISE = "pennywise"
PICK_EDDIE = "eddie"  # a card Eddie slips in before Pennywise leaves him (move_on)


def begin(state: EvilBelowState, events: list[Event]) -> None:
    state.sightings = [d for d, face in enumerate(state.dice) if face == BALLOON]
    state.sighted = []
    for d in state.sightings:
        state.dice_used[d] = True  # seed 001: set aside all dice with a Balloon


def step(state: EvilBelowState, events: list[Event]) -> None:
    """One die's sighting, or, when none are left, Pennywise's move."""
    if state.sightings:
        sight(state, state.sightings.pop(0), events)
        return
    state.phase = ACTIONS
    if not state.sighted:
        events.append(Event(evil_below_line("events.no_balloons"), kind="pennywise"))
        return
    if effects.check_losses(state, events):  # seed 001: "after Resolving Sightings"
        return
    best = max(state.missing(w) for w in state.sighted)
    strongest = sorted({w for w in state.sighted if state.missing(w) == best})
    if len(strongest) == 1:
        move_on(state, strongest[0], events)
        return
    names = content.board().names
    state.pending = PendingChoice(
        seat=state.turn, prompt=evil_below_line("prompts.pennywise"), kind=PICK_PENNYWISE,
        labels=[evil_below_line("labels.location", location=names[w]) for w in strongest],
        payload={"targets": strongest})
    events.append(Event(evil_below_line("events.pennywise_tie", player=state.players[state.turn]),
                        kind="choice"))


def choose(state: EvilBelowState, target: int, events: list[Event]) -> None:
    move_on(state, target, events)


def move_on(state: EvilBelowState, target: int, events: list[Event]) -> None:
    """Pennywise moves where he is strongest, once Eddie has had his chance. RULES.md:
    Eddie's ability triggers each time he and Pennywise come to share a location, but
    no card goes in while the dice resolve; an Evil Influence attack that brought
    Pennywise to him would then take him away unused. So before Pennywise leaves Eddie
    with his allowance unspent, Eddie is asked (out of turn) for each card."""
    seat = state.seat_of("eddie")
    if seat is None or state.eddie_left <= 0 or not state.heroes[seat].hand \
            or state.pennywise != state.heroes[seat].location or target == state.pennywise:
        effects.move_pennywise(state, target, events, "pennywise_moves")
        return
    cards = list(state.heroes[seat].hand)
    state.pending = PendingChoice(
        seat=seat, prompt=evil_below_line("prompts.eddie", left=state.eddie_left),
        kind=PICK_EDDIE,
        labels=[*(evil_below_line("labels.place", card=content.card_name(c)) for c in cards),
                evil_below_line("labels.eddie_keep")],
        payload={"cards": cards, "to": target})
    events.append(Event(evil_below_line("events.eddie_last_chance",
                                        player=state.players[seat]), kind="choice"))


def choose_eddie(state: EvilBelowState, payload: dict[str, Any], pick: int,
                 events: list[Event]) -> None:
    """Eddie's card into the Fight Stack (asked again while his allowance lasts), or
    none: Pennywise moves on."""
    target = int(payload["to"])
    cards = [int(c) for c in payload["cards"]]
    seat = state.seat_of("eddie")
    if pick >= len(cards) or seat is None:
        effects.move_pennywise(state, target, events, "pennywise_moves")
        return
    state.eddie_left -= 1
    effects.place_card(state, seat, cards[pick], events)
    move_on(state, target, events)


def sight(state: EvilBelowState, where: int, events: list[Event]) -> None:
    """Seed 001: the players there lose 1 Bravery (the game is lost at once if that
    was someone's last); the first victim left to right is taken (a child to the Evil
    Influence track, an attack token to the box and an attack card onto the Fight
    Stack); the last one taken reveals Pennywise there, and every later sighting there
    adds an attack card."""
    state.sighted.append(where)
    events.append(Event(evil_below_line("events.sighting", location=content.board().names[where]),
                        kind="sighting", data={"location": where}))
    for seat in state.at(where):
        effects.lose_bravery(state, seat, 1, events)
    # Seed 001: they lose it "immediately", and a Bravery at 0 loses the game: it ends
    # here, before this sighting's victim is taken (no attack, no full-track loss).
    if effects.check_losses(state, events):
        return
    circles = state.circles[where]
    if state.remaining(where) == 0:
        effects.attack_to_stack(state, events, "empty_sighting")
        return
    index = next(i for i, t in enumerate(circles) if t is not None)
    token = circles[index]
    assert token is not None
    circles[index] = None
    if token in state.face_up:
        state.face_up.remove(token)
    abilities.on_abduction(state, where, events)
    board = content.board()
    influence_attack = False
    if token < board.attack_tokens:
        state.box.append(token)
        effects.attack_to_stack(state, events, "attack_token")
    else:
        state.track.append(token)
        space = len(state.track)
        events.append(Event(evil_below_line("events.child", space=space,
                                            length=board.influence_length),
                            kind="influence", data={"space": space}))
        if space >= board.influence_length:
            effects.finish(state, LOSS_INFLUENCE, events)
            return
        influence_attack = space in board.influence_attacks
    if state.remaining(where) == 0:
        effects.attack_to_stack(state, events, "pennywise_revealed")
    if influence_attack:
        influence(state, events)


def influence(state: EvilBelowState, events: list[Event]) -> None:
    """Seed 001: Pennywise jumps to the active player and attacks with the top card,
    one line for each victim he has taken there (by the letters showing)."""
    where = state.heroes[state.turn].location
    effects.move_pennywise(state, where, events, "pennywise_jumps")
    if not state.attack_pile:
        return
    attacks.begin(state, state.attack_pile.pop(), where, "stack", events)
