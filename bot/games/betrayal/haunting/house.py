"""The house's own turn, in a cooperative haunt (HauntPlugin.cooperative): no traitor,
every explorer a hero, and the house the other side.

No seat plays the house, so `to_act` never names one for it: its turn runs as steps
inside the `apply` of the action that ended the turn it follows (flow.next_turn pushes
`_house_turn` then `_after_house`). The plugin says when it plays (`house_turn_after`)
and what it does (`house_turn`: by default its monsters roll and move as in seed 003,
"Monsters"); the monster AI (haunting/ai.py) picks every step from the house's view
(knowledge.house_view: the public table, the decks dealt anew, an Rng of its own),
the dice from state.rng, so the same game always plays out the same. A hero the house
attacks still rolls and chooses for itself (a damage split pauses the house's turn for
that hero's choice; a game saved then resumes mid-turn, as the steps are plain data).
Everything the house does is said to the table: it has no secrets. Its frames carry
the source `death.HOUSE`, so they run even when the hero they follow has died.
"""

from __future__ import annotations

from typing import Any

from bot.games.betrayal.context import Ctx
from bot.games.betrayal.effects import step
from bot.games.betrayal.haunting import ai, base, flow, monsters
from bot.games.betrayal.haunting.parts import HouseHooks
from bot.games.betrayal.haunting.words import tell
from bot.games.betrayal.knowledge import house_view
from bot.games.betrayal.state import Frame

# How many monster steps one house turn may take at most (each step spends a move or
# an attack, so a real turn is far shorter): a runaway AI ends the turn instead.
STEP_LIMIT = 200


@step("_house_turn")
def _house_turn(ctx: Ctx, frame: Frame, arg: Any) -> None:
    state = ctx.state
    assert state.haunt is not None
    state.haunt.house = frame.seat
    tell(ctx, "events.house_turn", kind="turn", data={"house": True, "after": frame.seat})
    base.hooks(state, HouseHooks).house_turn(ctx, frame)


@step("_house_monsters")
def _house_monsters(ctx: Ctx, frame: Frame, arg: Any) -> None:
    """The default house turn: the monsters roll their moves, then the AI plays them."""
    monsters.start_turn(ctx)
    ctx.push_child(frame, [{"_house_step": {}}])


@step("_house_step")
def _house_step(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    """One monster action chosen by the monster AI (`attack: false`: moves only);
    the next step is queued first, so what the action pushes (an attack and the
    hero's defence roll) runs before it."""
    state = ctx.state
    spec = dict(arg or {})
    done = int(spec.get("done", 0))
    action = ai.monster_action(house_view(state), attack=bool(spec.get("attack", True)))
    if action.kind == monsters.M_END or done >= STEP_LIMIT:
        monsters.end_turn(ctx)
        return
    frame.steps.insert(0, {"_house_step": {**spec, "done": done + 1}})
    monsters.perform(ctx, action)


@step("_after_house")
def _after_house(ctx: Ctx, frame: Frame, arg: Any) -> None:
    state = ctx.state
    assert state.haunt is not None
    monsters.tell_moves(ctx)
    state.haunt.house = None
    tell(ctx, "events.house_done", kind="turn")
    flow.settle(ctx)
    if not state.over:
        flow.pass_turn(ctx, frame.seat)
