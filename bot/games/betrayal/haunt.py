"""The haunt roll (RULES.md, classic): after a turn in which an omen was drawn, roll six
dice; below the number of omens drawn so far, the haunt begins.

The haunt chart, the traitor and the scenarios are the next issue. Until then the game
records who revealed the haunt, with which omen and in which room, says so publicly,
and ends there (`state.over`).
"""

from __future__ import annotations

from typing import Any

from bot.games.betrayal import content
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.effects import step
from bot.games.betrayal.state import HAUNT, Frame, Haunt


def starts(total: int, omens: int) -> bool:
    return total < omens


@step("_haunt_check")
def _haunt_check(ctx: Ctx, frame: Frame, arg: Any) -> None:
    state = ctx.state
    total = int(frame.vars.get("roll", 0))
    if not starts(total, state.omens_drawn):
        ctx.say("events.haunt_not_yet", total=total, omens=state.omens_drawn)
        return
    omen, room = state.turn.omen, state.turn.omen_room
    state.haunt = Haunt(revealer=frame.seat, omen=omen, room=room, roll=total,
                        omens=state.omens_drawn)
    state.phase = HAUNT
    state.over = True
    state.script.clear()
    state.pending = None
    ctx.say("events.haunt_begins", kind="haunt", who=ctx.who(frame.seat), total=total,
            omens=state.omens_drawn, omen=content.card(omen).name,
            room=content.room(room).name,
            data={"revealer": frame.seat, "omen": omen, "room": room, "roll": total})
    ctx.say("events.haunt_next", kind="game_over")
