"""One action played on a copy of a state: the body of `BetrayalGame.apply` (rules.py),
which checks who may act first, and what the AI plays on a copy of its own view to
see where an action leads (ai.py: the win it can take now). Kept apart from rules.py,
which imports the AI.

A turn left with nothing to decide ends by itself (`_close_idle_turns`): seed 003 has
the player say when the turn is over because they might still do something (line
223); once the only option left to the explorer whose turn it is (or to the traitor in
the monsters' turn) is ending it, no one else may act, and waiting on that click only
keeps the table waiting. The end is played exactly as the click would play it (the
same steps, events and dice), with one line more, inside the action it followed: one
move for the undo, the timers and the replays.
"""

from __future__ import annotations

from bot.core.actions import Action
from bot.core.choices import CHOOSE
from bot.core.errors import IllegalAction
from bot.core.events import DETAIL, Event
from bot.core.plain import copy_plain
from bot.games.betrayal import actions, effects, links, movement
from bot.games.betrayal.content import betrayal_line
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.haunting import actions as haunt_actions
from bot.games.betrayal.haunting import flow, monsters
from bot.games.betrayal.state import BetrayalState

TURN_ENDS = frozenset({actions.END_TURN, monsters.M_END})
# The turns that may end by themselves after one action, at most: each is a whole turn
# in which the seat could do nothing at all, which the rules never make endless; the
# bound only keeps a content mistake from looping (the click is then asked for).
IDLE_TURNS = 16


def play(state: BetrayalState, seat: int, action: Action) -> tuple[BetrayalState, list[Event]]:
    """`action` played by `seat` on a copy of `state` (left as it was): the copy after
    it, and what was said. IllegalAction, with nothing changed, where the rules say no."""
    new = copy_plain(state)
    ctx = Ctx(new)
    _carry_out(ctx, seat, action)
    _close_idle_turns(ctx)
    return new, ctx.events


def _carry_out(ctx: Ctx, seat: int, action: Action) -> None:
    state = ctx.state
    if state.pending is not None:
        pick = state.pending.pick(seat, action)
        effects.resume(ctx, pick)
    elif action.kind == CHOOSE:
        raise IllegalAction(betrayal_line("errors.nothing_to_choose"))
    else:
        actions.perform(ctx, seat, action)
        effects.run(ctx)
    flow.after_action(ctx)
    links.remember(state)


def lone_end(state: BetrayalState) -> Action | None:
    """The end of the turn, when it is all the seat whose turn it is may do: no choice
    pending, and its options (what `BetrayalGame.options` lists) that one action."""
    if state.over or state.pending is not None:
        return None
    seat = state.turn.seat
    # Most actions leave a move to make: `legal` lists one for each of these, and
    # finding one here costs no labels (listing every action with its words after every
    # action cost the haunt's actions 0.4 ms more, issue 23).
    if not haunt_actions.monster_stage(state) and movement.can_move(state, seat):
        return None
    found = actions.listed(state, seat)
    if len(found) == 1 and found[0].kind in TURN_ENDS:
        return found[0]
    return None


def _close_idle_turns(ctx: Ctx) -> None:
    state = ctx.state
    for _ in range(IDLE_TURNS):
        end = lone_end(state)
        if end is None:
            return
        seat = state.turn.seat
        if end.kind == monsters.M_END:
            monsters.nothing_left(ctx)
        else:
            # the log's, as "ends the turn." is: the live message keeps the seat's
            # last deed as its newest line, not why the turn ended
            ctx.say("events.nothing_left", kind=DETAIL, who=ctx.who(seat),
                    player=state.players[seat])
        _carry_out(ctx, seat, end)
