"""One action played on a copy of a state: the body of `BetrayalGame.apply` (rules.py),
which checks who may act first, and what the AI plays on a copy of its own view to
see where an action leads (ai.py: the win it can take now). Kept apart from rules.py,
which imports the AI."""

from __future__ import annotations

from bot.core.actions import Action
from bot.core.choices import CHOOSE
from bot.core.errors import IllegalAction
from bot.core.events import Event
from bot.core.plain import copy_plain
from bot.games.betrayal import actions, effects, links
from bot.games.betrayal.content import betrayal_line
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.haunting import flow
from bot.games.betrayal.state import BetrayalState


def play(state: BetrayalState, seat: int, action: Action) -> tuple[BetrayalState, list[Event]]:
    """`action` played by `seat` on a copy of `state` (left as it was): the copy after
    it, and what was said. IllegalAction, with nothing changed, where the rules say no."""
    new = copy_plain(state)
    ctx = Ctx(new)
    if new.pending is not None:
        pick = new.pending.pick(seat, action)
        effects.resume(ctx, pick)
    elif action.kind == CHOOSE:
        raise IllegalAction(betrayal_line("errors.nothing_to_choose"))
    else:
        actions.perform(ctx, seat, action)
        effects.run(ctx)
    flow.after_action(ctx)
    links.remember(new)
    return new, ctx.events
