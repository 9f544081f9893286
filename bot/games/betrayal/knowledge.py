"""What a seat of Betrayal (any edition) may know: the view its AI decides from, and
the house's when it plays a cooperative haunt's monsters.

Seed 003 plays nearly everything face up: the house, every explorer's traits and
cards, the discards, the traitor once the haunt has begun. Face down for everyone,
and dealt anew in a view: the order of the three decks (and an edition's own, the
Pennywise Encounter deck), the room stack's order (a tile found and being placed lies
face up on top, and stays there), and the Rng. The books hold the rest: a haunt's
secret, told to one side only (the lover the ghost names to the traitor), is dealt anew
by the haunt's own `hide` for every seat it was not told to, by the audience the
haunt told it with (`Audience.reaches`). A choice pending for another seat that only
its chooser may read (a Crystal Ball's look) shows no labels in the view.

A seat of None is the house's view (haunting/house.py): told only what is public.
"""

from __future__ import annotations

from bot.core.plain import copy_plain
from bot.core.rng import Rng
from bot.core.views import mark, redeal, view_rng
from bot.games.betrayal.haunting import base
from bot.games.betrayal.haunting.parts import BoardHooks
from bot.games.betrayal.state import BetrayalState

PLACING = ("_place", "_place_spot")  # the steps that place a tile found on the stack


def seat_view(state: BetrayalState, seat: int | None) -> BetrayalState:
    view = copy_plain(state)
    haunt = view.haunt
    rng = view_rng("betrayal", seat, view.turn.seat, view.turn.number, view.turn.moves,
                   len(view.tiles), len(view.stack), view.omens_drawn, view.phase,
                   haunt.round if haunt else -1, haunt.stage if haunt else "",
                   len(view.script), view.pending.kind if view.pending else "",
                   tuple((m.id, m.tile, m.moves) for m in view.monsters))
    _redeal(view, rng)
    pending = view.pending
    if pending is not None and pending.private and pending.seat != seat:
        pending.labels = ["?"] * len(pending.labels)
        pending.payload = {}
        pending.texts = {}  # the same labels in other languages
        _blank_paused_step(view)
    if haunt is not None:
        base.hooks(view, BoardHooks).hide(view, seat, rng)
    view.rng = rng
    return mark(view)


def dealt_otherwise(view: BetrayalState, seat: int, rng: Rng) -> BetrayalState:
    """A copy of this seat's view with all it cannot see dealt anew from `rng` (the decks,
    the room stack, the haunt's secrets it was not told) and other dice to come: a world
    the seat cannot tell from its view's, for an AI that tries an action in more than
    one (ai.py: a win it can take now must hold in each). The view is left as it was."""
    world = copy_plain(view)
    _redeal(world, rng)
    if world.haunt is not None:
        base.hooks(world, BoardHooks).hide(world, seat, rng)
    world.rng = Rng(rng.next_u64())
    return world


def _redeal(view: BetrayalState, rng: Rng) -> None:
    """The decks' order and the room stack's (a tile being placed stays on top)."""
    for deck in sorted(view.decks):
        redeal(rng, [view.decks[deck]])
    top = view.stack[:1] if view.stack and view.stack[0] in _placing(view) else []
    rest = view.stack[len(top):]
    redeal(rng, [rest])
    view.stack = [*top, *rest]


def _blank_paused_step(view: BetrayalState) -> None:
    """The step a pending choice paused keeps what its chooser is shown (the den's two
    cards, the order of a deck's top three): in another seat's view only its name is
    left. The choice resumes from the last frame's first step (effects.resume)."""
    if view.script and view.script[-1].steps:
        steps = view.script[-1].steps
        steps[0] = {name: {} for name in steps[0]}


def house_view(state: BetrayalState) -> BetrayalState:
    """What the house may know when it plays a cooperative haunt: the public table."""
    return seat_view(state, None)


def _placing(state: BetrayalState) -> set[str]:
    """The rooms being placed now (drawn, face up, waiting on the stack's top)."""
    return {str(step[name]["room"]) for frame in state.script for step in frame.steps
            for name in PLACING if name in step and "room" in step[name]}
