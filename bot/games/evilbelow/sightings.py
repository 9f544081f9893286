"""Step 2 of a turn: the balloons rolled, resolved one die at a time in the dice' fixed
order (RULES.md), then Pennywise moves to where he is strongest.

An abduction may start an Evil Influence attack whose damage the active player
assigns; the rules' step loop resolves that before the next die, which is why the dice
still to resolve are kept in the state rather than in a Python loop.
"""

from __future__ import annotations

from bot.core.choices import PendingChoice
from bot.core.events import Event
from bot.games.evilbelow import abilities, attacks, content, effects
from bot.games.evilbelow.content import BALLOON, evil_below_line
from bot.games.evilbelow.state import ACTIONS, LOSS_INFLUENCE, EvilBelowState

PICK_PENNYWISE = "pennywise"


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
        effects.move_pennywise(state, strongest[0], events, "pennywise_moves")
        return
    names = content.board().names
    state.pending = PendingChoice(
        seat=state.turn, prompt=evil_below_line("prompts.pennywise"), kind=PICK_PENNYWISE,
        labels=[evil_below_line("labels.location", location=names[w]) for w in strongest],
        payload={"targets": strongest})
    events.append(Event(evil_below_line("events.pennywise_tie", player=state.players[state.turn]),
                        kind="choice"))


def choose(state: EvilBelowState, target: int, events: list[Event]) -> None:
    effects.move_pennywise(state, target, events, "pennywise_moves")


def sight(state: EvilBelowState, where: int, events: list[Event]) -> None:
    """Seed 001: the players there lose 1 Bravery; the first victim left to right is
    taken (a child to the Evil Influence track, an attack token to the box and an
    attack card onto the Fight Stack); the last one taken reveals Pennywise there, and
    every later sighting there adds an attack card."""
    state.sighted.append(where)
    events.append(Event(evil_below_line("events.sighting", location=content.board().names[where]),
                        kind="sighting", data={"location": where}))
    for seat in state.at(where):
        effects.lose_bravery(state, seat, 1, events)
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
