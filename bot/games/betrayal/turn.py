"""The turn: who plays, when it starts and ends, and the haunt roll at its end.

Turns go clockwise (rising seat numbers). The first explorer is the one whose birthday
comes next after the game's start date (seed 003). Ending a turn runs, in order: the
room's end-of-turn rule (the Crypt's damage, the Library's once-per-explorer gain),
the passives watching the end of a turn (lasting events; the Coal Chute, which slides
down whoever is still in it), and the edition's haunt trigger (editions.py; the classic
game: if an omen was drawn this turn, the haunt roll of haunt_roll.py). A table of AI
explorers only that finds nothing for ten rounds begins the haunt at once (the
edition's `stalled`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.core.events import DETAIL
from bot.games.betrayal import content, editions, hooks, traits
from bot.games.betrayal.cards import TurnPassive
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.effects import step
from bot.games.betrayal.state import EXPLORE, HAUNT, BetrayalState, Frame, Turn

DAYS_IN_MONTH: tuple[int, ...] = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)

NextTurn = Callable[[Ctx, int], None]
# Who plays after a turn ends, by phase, when not the next seat clockwise. The haunt's
# turn order (haunting/flow.py) builds on this module, so it registers itself here.
NEXT_TURN: dict[str, NextTurn] = {}


def next_turn_in(phase: str) -> Callable[[NextTurn], NextTurn]:
    """Register who plays after a turn of this phase: `(ctx, seat) -> None`, `seat` the
    explorer whose turn ended."""
    def register(fn: NextTurn) -> NextTurn:
        NEXT_TURN[phase] = fn
        return fn
    return register


def day_of_year(mmdd: str) -> int:
    """0-based day of a non-leap year for "MM-DD" (Feb 29 counts as Mar 1)."""
    month, day = (int(p) for p in mmdd.split("-"))
    if not 1 <= month <= 12 or not 1 <= day <= (29 if month == 2 else DAYS_IN_MONTH[month - 1]):
        raise ValueError(mmdd)
    return sum(DAYS_IN_MONTH[: month - 1]) + min(day, DAYS_IN_MONTH[month - 1] + 1) - 1


def date_of(day: int) -> str:
    month = 0
    while day >= DAYS_IN_MONTH[month]:
        day -= DAYS_IN_MONTH[month]
        month += 1
    return f"{month + 1:02d}-{day + 1:02d}"


def first_player(birthdays: list[str], today: str) -> int:
    """The seat whose explorer's birthday comes next, counting from today (a birthday
    today is the nearest of all)."""
    now = day_of_year(today)
    return min(range(len(birthdays)), key=lambda s: ((day_of_year(birthdays[s]) - now) % 365, s))


def start_turn(ctx: Ctx, seat: int) -> None:
    state = ctx.state
    state.turn = Turn(seat=seat, number=state.turn.number + 1)
    ctx.say("events.turn", kind="turn", who=ctx.who(seat), player=state.players[seat],
            number=state.turn.number, data={"seat": seat, "turn": state.turn.number})
    ctx.push([{"_start_hooks": {}}], seat)


@step("_start_hooks")
def _start_hooks(ctx: Ctx, frame: Frame, arg: Any) -> None:
    for passive, ref in reversed(list(hooks.of_explorer(ctx.state, frame.seat, TurnPassive))):
        passive.start_turn(ctx, frame.seat, ref)


def end_turn(ctx: Ctx) -> None:
    seat = ctx.state.turn.seat
    ctx.say("events.end_turn", kind=DETAIL, who=ctx.who(seat))
    ctx.push([{"_room_end": {}}, {"_end_hooks": {}}, {"_turn_over": {}}, {"_next_turn": {}}],
             seat)


@step("_room_end")
def _room_end(ctx: Ctx, frame: Frame, arg: Any) -> None:
    state, seat = ctx.state, frame.seat
    explorer = state.explorers[seat]
    room = content.room(state.at(seat).room)
    if not room.on_end_turn or hooks.immune(state, seat, room.key):
        return
    if room.once_per_explorer:
        if room.key in explorer.benefits:
            ctx.say("events.benefit_used", kind=DETAIL, who=ctx.who(seat), room=room.name)
            return
        if _gains_something(state, seat, room.on_end_turn):
            # Seed 003: 每名人物只可得益於這房間一次 [each explorer may benefit from this
            # room once]: a gain onto a trait already at its top is no benefit, and
            # does not spend it.
            explorer.benefits.append(room.key)
    ctx.push(list(room.on_end_turn), seat, room.key, "room")


def _gains_something(state: BetrayalState, seat: int,
                     steps: tuple[dict[str, Any], ...]) -> bool:
    """Some `gain` among a room's steps would raise a trait (one it may choose) not yet
    at its top."""
    return any(traits.index(state, seat, str(t)) < traits.TOP
               for s in steps if "gain" in s
               for t in s["gain"].get("choose") or [s["gain"]["trait"]])


@step("_end_hooks")
def _end_hooks(ctx: Ctx, frame: Frame, arg: Any) -> None:
    """The passives watching the end of this turn: the explorer's cards, its room's own
    and its room's tokens, and the other rooms' own: a room's rule may reach whoever
    is in it as any turn ends (the Coal Chute: seed 003, 回合完結時，任何人物/怪物皆不可
    停留在煤導槽 [no one, explorer or monster, may stay in it as a turn ends])."""
    state, seat = ctx.state, frame.seat
    here = state.explorers[seat].tile
    found = [*hooks.of_explorer(state, seat, TurnPassive),
             *hooks.of_tile(state, here, TurnPassive)]
    found += [(passive, ref) for tile in range(len(state.tiles)) if tile != here
              for passive, ref in hooks.of_tile(state, tile, TurnPassive) if ref == tile]
    for passive, ref in reversed(found):
        passive.end_turn(ctx, seat, ref)


@step("_turn_over")
def _turn_over(ctx: Ctx, frame: Frame, arg: Any) -> None:
    """The edition's haunt trigger (the classic game: the haunt roll after an omen)."""
    if ctx.state.phase == EXPLORE:
        editions.for_state(ctx.state).turn_over(ctx, frame)


@step("_next_turn")
def _next_turn(ctx: Ctx, frame: Frame, arg: Any) -> None:
    state = ctx.state
    state.quiet_turns += 1
    if state.phase == HAUNT and state.haunt is not None and state.haunt.key:
        NEXT_TURN[HAUNT](ctx, frame.seat)  # haunting/flow.py's next_turn
        return
    edition = editions.for_state(state)
    if state.phase == EXPLORE and edition.stalled(state):
        edition.begin_stalled(ctx, frame.seat)
        return
    start_turn(ctx, (state.turn.seat + 1) % len(state.players))


def to_act(state: BetrayalState) -> int | None:
    if state.over:
        return None
    return state.pending.seat if state.pending else state.turn.seat
