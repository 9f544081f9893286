"""The haunt roll (RULES.md, classic): after a turn in which an omen was drawn, roll six
dice; below the number of omens drawn so far, the haunt begins.

The haunt chart (data/betrayal/haunt_chart.yaml) then says which of the 8 haunts
(haunts.yaml) begins, from the omen and the room it turned up in. The game records who
revealed the haunt, with which omen, in which room, which haunt the chart gives and who
turns traitor (traitor.py, by the haunt's rule in haunts.yaml), says so publicly (in
Betrayal the traitor is known to all; only the books are secret), and hands over to
haunting/flow.py, which plays the haunt to a winner.

DESIGNED: a table of AI explorers only that finds no room and draws no omen for
STALL_ROUNDS rounds begins the haunt at once, with the last omen drawn (`stalled`), so
a game with no one at the table always ends. ai.py keeps that from being needed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from bot import yaml_files
from bot.games.betrayal import content
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.effects import step
from bot.games.betrayal.haunting import flow, has_plugin
from bot.games.betrayal.state import HAUNT, BetrayalState, Frame, Haunt
from bot.games.betrayal.traitor import choose_traitor
from bot.paths import DATA


@dataclass(frozen=True)
class HauntInfo:
    number: int
    key: str
    name: str
    teaser: str
    traitor: dict[str, Any] = field(default_factory=dict, compare=False)
    designed: bool = False


def _yaml(name: str) -> dict[str, Any]:
    return yaml_files.read(DATA / "betrayal" / f"{name}.yaml") or {}


@cache
def haunts() -> dict[str, HauntInfo]:
    """The 8 haunts by key, in chart-number order."""
    found = [HauntInfo(int(h["number"]), h["key"], h["name"], str(h["teaser"]),
                       dict(h.get("traitor") or {}), bool(h.get("designed", False)))
             for h in _yaml("haunts")["haunts"]]
    return {h.key: h for h in sorted(found, key=lambda h: h.number)}


@cache
def chart() -> dict[str, dict[str, str]]:
    """omen key -> omen-room key -> haunt key."""
    return {str(o): {str(r): str(h) for r, h in rooms.items()}
            for o, rooms in _yaml("haunt_chart")["chart"].items()}


def chart_haunt(state: BetrayalState, omen: str, room: str) -> HauntInfo | None:
    """The haunt the chart gives for this omen in this room. An omen found outside an
    omen-symbol room reads the omen room placed last in the house (designed). None when
    the chart has no line for the omen (a test's own content)."""
    row = chart().get(omen)
    if not row:
        return None
    if room not in row:
        room = next((t.room for t in reversed(state.tiles) if t.room in row), "")
    key = row.get(room)
    return haunts().get(key) if key else None


STALL_ROUNDS = 10  # AI-only tables: rounds with no room found and no omen drawn


def starts(total: int, omens: int) -> bool:
    return total < omens


def stalled(state: BetrayalState) -> bool:
    """A table of AI explorers only has found no room and drawn no omen for
    STALL_ROUNDS rounds (DESIGNED: so a game with no one at the table always ends;
    tables with people play by seed 003 alone)."""
    return (all(state.ai) and bool(state.last_omen)
            and state.quiet_turns >= STALL_ROUNDS * len(state.players))


@step("_haunt_check")
def _haunt_check(ctx: Ctx, frame: Frame, arg: Any) -> None:
    state = ctx.state
    total = int(frame.vars.get("roll", 0))
    if not starts(total, state.omens_drawn):
        ctx.say("events.haunt_not_yet", total=total, omens=state.omens_drawn)
        return
    ctx.say("events.haunt_begins", kind="haunt", who=ctx.who(frame.seat), total=total,
            omens=state.omens_drawn, omen=content.card(state.turn.omen).name,
            room=content.room(state.turn.omen_room).name,
            data={"revealer": frame.seat, "omen": state.turn.omen,
                  "room": state.turn.omen_room, "roll": total})
    begin(ctx, frame.seat, state.turn.omen, state.turn.omen_room, total)


def begin_stalled(ctx: Ctx, seat: int) -> None:
    """The stalled AI table's haunt: revealed by the explorer whose turn just ended,
    with the last omen drawn, where it turned up (roll -1: no roll was made)."""
    state = ctx.state
    ctx.say("events.haunt_stalled", kind="haunt", who=ctx.who(seat),
            rounds=STALL_ROUNDS, omen=content.card(state.last_omen).name,
            room=content.room(state.last_omen_room).name,
            data={"revealer": seat, "omen": state.last_omen, "room": state.last_omen_room,
                  "roll": -1})
    begin(ctx, seat, state.last_omen, state.last_omen_room, -1)


def begin(ctx: Ctx, seat: int, omen: str, room: str, total: int,
          chosen: HauntInfo | None = None) -> None:
    """The haunt begins: recorded with the haunt the chart gives (or `chosen`) and its
    traitor; then the haunt is played (haunting/flow.py), or, for a chart entry with
    no haunt written, the game ends."""
    state = ctx.state
    haunt = chosen or chart_haunt(state, omen, room)
    traitor = choose_traitor(state, haunt.key, seat) if haunt else None
    state.haunt = Haunt(revealer=seat, omen=omen, room=room, roll=total,
                        omens=state.omens_drawn, key=haunt.key if haunt else "",
                        number=haunt.number if haunt else 0, traitor=traitor)
    state.phase = HAUNT
    state.script.clear()
    state.pending = None
    # Every haunt we have is written for a traitor; a rule that names none ends here.
    playable = haunt is not None and has_plugin(haunt.key) and traitor is not None
    state.over = not playable
    if haunt:
        ctx.say("events.haunt_chart", kind="haunt", number=haunt.number, name=haunt.name,
                teaser=haunt.teaser, data={"haunt": haunt.key, "number": haunt.number})
        if traitor is None:
            ctx.say("events.haunt_no_traitor", kind="haunt", data={"traitor": None})
        else:
            ctx.say("events.haunt_traitor", kind="haunt", who=ctx.who(traitor),
                    player=state.players[traitor], data={"traitor": traitor})
    if playable:
        flow.start(ctx)
    elif haunt is not None and has_plugin(haunt.key):
        ctx.say("events.haunt_needs_traitor", kind="game_over")
    else:
        ctx.say("events.haunt_next", kind="game_over")
