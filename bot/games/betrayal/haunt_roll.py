"""The haunt roll (RULES.md, classic): after a turn in which an omen was drawn, roll six
dice; below the number of omens drawn so far, the haunt begins. Seed 003 has the player
who turned up the omen roll, after its own turn: an omen drawn on another's turn (a
Mystic Slide passed to it) is rolled for when the drawer's turn ends (`roll_owed`), and
the one who rolls is the revealer.

The haunt chart (data/betrayal/haunt_chart.yaml) then says which of the 8 haunts
(haunts.yaml) begins, from the omen and the room it turned up in. The game records who
revealed the haunt, with which omen, in which room, which haunt the chart gives and who
turns traitor (traitor.py, by the haunt's rule in haunts.yaml), says so publicly (in
Betrayal the traitor is known to all; only the books are secret), and hands over to
haunting/flow.py, which plays the haunt to a winner.

Seed 003, "故事揀選 Selecting the Haunt": a table that has played the haunt the chart
gives may choose another. `fresh_haunt` does it, when the lobby left the `fresh` option
on and the haunt is among `state.played` (the haunts this server has played, handed in
through the setup options): the chart is read again with the same omen in each other
omen room of the house, nearest the revealer first; if none gives a new haunt, new
omens are drawn, one by one, to replace the revealer's, until one does. The revealer
keeps the last omen drawn; the ones it replaced are shuffled back into the deck. The
haunt's chart event names it in `data["played"]`, so the server remembers it.

DESIGNED: a table of AI explorers only that finds no room and draws no omen for
STALL_ROUNDS rounds begins the haunt at once, with the last omen drawn (`stalled`), so
a game with no one at the table always ends. ai.py keeps that from being needed.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from bot import yaml_files
from bot.core.events import Event
from bot.games.base import PLAYED
from bot.games.betrayal import content, editions
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.decks import give_card, take_card
from bot.games.betrayal.effects import run, step
from bot.games.betrayal.haunt_list import HauntInfo, haunts
from bot.games.betrayal.haunting import base, flow, has_plugin
from bot.games.betrayal.links import distances
from bot.games.betrayal.state import HAUNT, BetrayalState, Frame, Haunt
from bot.games.betrayal.traitor import choose_traitor
from bot.paths import DATA


def _yaml(name: str) -> dict[str, Any]:
    return yaml_files.read(DATA / "betrayal" / f"{name}.yaml") or {}


@cache
def chart() -> dict[str, dict[str, str]]:
    """omen key -> omen-room key -> haunt key."""
    return {str(o): {str(r): str(h) for r, h in rooms.items()}
            for o, rooms in _yaml("haunt_chart")["chart"].items()}


def chart_room(state: BetrayalState, omen: str, room: str) -> str:
    """The omen room the chart is read in: the room itself, or, for an omen found
    outside an omen-symbol room, the omen room placed last in the house (designed)."""
    row = chart().get(omen) or {}
    if room in row:
        return room
    return next((t.room for t in reversed(state.tiles) if t.room in row), "")


def chart_haunt(state: BetrayalState, omen: str, room: str) -> HauntInfo | None:
    """The haunt the chart gives for this omen in this room (see `chart_room`). None
    when the chart has no line for the omen (a test's own content)."""
    row = chart().get(omen)
    if not row:
        return None
    key = row.get(chart_room(state, omen, room))
    return haunts().get(key) if key else None


def _is_fresh(state: BetrayalState, haunt: HauntInfo | None) -> bool:
    return haunt is not None and haunt.key not in state.played


def other_omen_rooms(state: BetrayalState, seat: int, omen: str, used: str) -> list[str]:
    """The house's other omen rooms, nearest the revealer first (seed 003: 最近揭露者),
    ties in the order they were placed; rooms out of walking reach come last."""
    row = chart().get(omen) or {}
    near = distances(state, {state.explorers[seat].tile})
    found = [(near.get(i, len(state.tiles)), i, t.room) for i, t in enumerate(state.tiles)
             if t.room in row and t.room != used]
    return [room for _, _, room in sorted(found)]


def fresh_haunt(ctx: Ctx, seat: int, omen: str, room: str
                ) -> tuple[HauntInfo | None, str, str]:
    """Seed 003, Selecting the Haunt: (the haunt, the omen it was read with, the room
    it was read in), a haunt this table has not played if the rule finds one.

    First the same omen in each other omen room, nearest the revealer first; then new
    omens from the deck, in the revealer's omen room, until one gives a new haunt. The
    revealer keeps the last omen drawn; every omen it replaced is shuffled back into the
    deck. RULING: when the deck runs out with no new haunt found, the omens drawn go
    back and the chart's first haunt stands (the rule draws "until" one is found).
    """
    state = ctx.state
    used = chart_room(state, omen, room)
    first = chart_haunt(state, omen, room)
    if not state.fresh or first is None or _is_fresh(state, first):
        return first, omen, used
    for other in other_omen_rooms(state, seat, omen, used):
        found = chart_haunt(state, omen, other)
        if _is_fresh(state, found):
            ctx.say("events.haunt_swapped_room", kind="haunt", old=first.name,
                    room=content.room(other).name,
                    data={"replaced": first.key, "room": other})
            return found, omen, other
    if set(haunts("")) <= set(state.played):  # nothing new to find: the deck stays
        ctx.say("events.haunt_no_fresh", kind="haunt", old=first.name)
        return first, omen, used
    drawn: list[str] = []
    deck = state.decks["omen"]
    while deck:
        card = deck.pop(0)
        drawn.append(card)
        found = chart_haunt(state, card, used)
        if _is_fresh(state, found):
            _swap_omen(ctx, seat, omen, card, drawn[:-1])
            ctx.say("events.haunt_swapped_omen", kind="haunt", old=first.name,
                    omen=content.card(card).name, drawn=len(drawn),
                    data={"replaced": first.key, "omen": card})
            return found, card, used
    deck.extend(drawn)
    state.rng.shuffle(deck)
    ctx.say("events.haunt_no_fresh", kind="haunt", old=first.name)
    return first, omen, used


def _swap_omen(ctx: Ctx, seat: int, old: str, new: str, passed: list[str]) -> None:
    """The revealer gives back `old` and keeps `new`; `old` and the omens drawn before
    `new` are shuffled into the deck. An omen the revealer no longer holds (traded
    away before the roll) stays where it is."""
    state = ctx.state
    back = list(passed)
    if old in state.explorers[seat].cards:
        take_card(ctx, seat, old, to="none")
        back.append(old)
    elif old in state.omen_table:
        state.omen_table.remove(old)
        back.append(old)
    if content.card(new).keep:
        give_card(ctx, seat, new)
    else:
        state.omen_table.append(new)
    state.decks["omen"].extend(back)
    state.rng.shuffle(state.decks["omen"])
    # The omens' on_lose / on_gain (traits, the Mask) run now, before the haunt's own
    # steps: they ask nothing, and the traitor's book is read with the traits they give.
    run(ctx)


STALL_ROUNDS = 10  # AI-only tables: rounds with no room found and no omen drawn


def starts(total: int, omens: int) -> bool:
    return total < omens


def stalled(state: BetrayalState) -> bool:
    """A table of AI explorers only has found no room and drawn no omen for
    STALL_ROUNDS rounds (DESIGNED: so a game with no one at the table always ends;
    tables with people play by seed 003 alone)."""
    return (all(state.ai) and bool(state.last_omen)
            and state.quiet_turns >= STALL_ROUNDS * len(state.players))


def roll_owed(state: BetrayalState, seat: int) -> tuple[str, str, bool]:
    """The omen (and its room) this explorer makes the haunt roll for as its turn ends,
    "" for none, and whether it drew that omen on this turn (else on another's). Seed
    003: whoever turns up an omen rolls after its own turn; one roll a turn (RULES.md),
    read with the last omen it drew. The debt is paid: it is cleared."""
    explorer = state.explorers[seat]
    owed = explorer.owed_omen, explorer.owed_omen_room
    explorer.owed_omen = explorer.owed_omen_room = ""
    if state.turn.omen and state.turn.seat == seat:
        return state.turn.omen, state.turn.omen_room, True
    return owed[0], owed[1], False


@step("_haunt_check")
def _haunt_check(ctx: Ctx, frame: Frame, arg: Any) -> None:
    """The roll's total against the omens drawn; the roller is the revealer. The omen and
    room come with the step (a step stored before they did reads this turn's)."""
    state = ctx.state
    spec = arg if isinstance(arg, dict) else {}
    omen = str(spec.get("omen") or state.turn.omen)
    room = str(spec.get("room") or state.turn.omen_room)
    total = int(frame.vars.get("roll", 0))
    if not starts(total, state.omens_drawn):
        ctx.say("events.haunt_not_yet", who=ctx.who(frame.seat), total=total,
                omens=state.omens_drawn)
        return
    ctx.say("events.haunt_begins", kind="haunt", who=ctx.who(frame.seat), total=total,
            omens=state.omens_drawn, omen=content.card(omen).name,
            room=content.room(room).name,
            data={"revealer": frame.seat, "omen": omen, "room": room, "roll": total})
    begin(ctx, frame.seat, omen, room, total)


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
    traitor (none in a cooperative haunt: every explorer is a hero, against the house);
    then the haunt is played (haunting/flow.py), or, for a chart entry with no haunt
    written, the game ends."""
    state = ctx.state
    state.script.clear()  # before the swap: the omens it hands over push their steps
    state.pending = None
    for explorer in state.explorers:  # no haunt roll is made once the haunt has begun
        explorer.owed_omen = explorer.owed_omen_room = ""
    haunt = chosen
    if haunt is None:
        key, omen, _ = editions.for_state(state).choose_haunt(ctx, seat, omen, room)
        haunt = haunts().get(key)
    cooperative = haunt is not None and has_plugin(haunt.key) \
        and base.PLUGINS[haunt.key].cooperative
    traitor = choose_traitor(state, haunt.key, seat) if haunt and not cooperative else None
    state.haunt = Haunt(revealer=seat, omen=omen, room=room, roll=total,
                        omens=state.omens_drawn, key=haunt.key if haunt else "",
                        number=haunt.number if haunt else 0, traitor=traitor)
    state.phase = HAUNT
    # A haunt written for a traitor ends here when the rule names none; a cooperative
    # haunt (HauntPlugin.cooperative) is written for none and is played against the house.
    playable = haunt is not None and has_plugin(haunt.key) and (
        traitor is not None or cooperative)
    state.over = not playable
    if haunt:
        data = {"haunt": haunt.key, "number": haunt.number, PLAYED: haunt.key}
        line = editions.for_state(state).haunt_line(haunt.number, haunt.name, haunt.teaser,
                                                    omen)
        if line is None:
            ctx.say("events.haunt_chart", kind="haunt", number=haunt.number, name=haunt.name,
                    teaser=haunt.teaser, data=data)
        else:
            ctx.events.append(Event(line, kind="haunt", data=data))
        if cooperative:
            ctx.say("events.haunt_cooperative", kind="haunt", data={"traitor": None})
        elif traitor is None:
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
