"""An AI explorer for the exploration phase: it explores, picks things up, uses the
safe items, rests in rooms that strengthen it, and ends its turn. Always legal: it
only ever picks one of `options()`.

Decisions are deterministic (the same view gives the same action), which keeps the
replays exact and the tests stable; the seat's view (knowledge.py) is all it is
handed. It walks towards the nearest room with a door onto unexplored space
(breadth-first over doors and the house's links), and every move it makes brings it
strictly closer, so it never walks back and forth. Held by
Webs or Debris it tries to break free (and frees others held where it stands); when
the only way on is across a split room it makes the crossing roll, if it could pass
it; with no room to explore in reach it takes the Revolving Wall's switch or rides
the Mystic Elevator. Together these keep AI-only games from running for ever
(tests/test_betrayal_engine_ai.py); haunt_roll.stalled is the last safety net.
"""

from __future__ import annotations

from typing import Any

from bot.core.actions import Action
from bot.core.views import require_view
from bot.games.betrayal import ai_ways, content, damage_split, explore, movement, rolls, traits
from bot.games.betrayal.actions import Legal, legal
from bot.games.betrayal.cards.rolls import PICKED
from bot.games.betrayal.haunting import ai as haunt_ai
from bot.games.betrayal.haunting import base
from bot.games.betrayal.haunting.parts import AIHooks
from bot.games.betrayal.links import distances_to
from bot.games.betrayal.state import BetrayalState

SAFE_USES: frozenset[str] = frozenset({"puzzle_box", "mystic_coin", "healing_salve",
                                       "smelling_salts", "medical_kit"})
SAFE_ACTS: tuple[str, ...] = ("vault", "closet_door")
HELD_SELF, HELD_OTHER = "-self", "-free-"  # the offers of cards/events_a_to_l.Held


def choose_action(state: BetrayalState, seat: int) -> Action:
    """The seat's action, decided from its view (knowledge.py): the haunt's AI first
    (haunting/ai.py), then the explorer's."""
    require_view(state)
    if state.pending is not None:
        return state.pending.options()[_pick(state, seat)].action
    entries = legal(state, seat)  # what options() lists, found once for the whole decision
    if state.haunt is not None and state.haunt.key:
        chosen = haunt_ai.choose(state, seat, entries)
        if chosen is not None:
            return chosen
    kinds = {e.action.kind: e.action for e in reversed(entries)}
    room = content.room(state.at(seat).room)
    resting = room.once_per_explorer and room.key not in state.explorers[seat].benefits
    for e in entries:
        if e.action.kind == "pickup":
            return e.action
    for e in entries:
        if e.action.kind == "use" and e.action.args["card"] in SAFE_USES:
            return e.action
    for e in entries:
        if e.action.kind == "act" and str(e.action.args["what"]).startswith(SAFE_ACTS):
            return e.action
    for e in entries:  # held fast (Webs, Debris): try to break free; or free the held
        what = str(e.action.args.get("what", "")) if e.action.kind == "act" else ""
        if what.endswith(HELD_SELF) or HELD_OTHER in what:
            return e.action
    if resting:
        return Action("end_turn")
    explores = [(movement.crossing_for(state, seat, str(e.action.args["dir"])), e.action)
                for e in entries if e.action.kind == "explore"]
    plain = [a for crossing, a in explores if crossing is None]
    if plain:
        return plain[0]
    step = _towards_frontier(state, seat, entries, [a for c, a in explores
                                                     if rolls.could_pass(state, seat, c)])
    if step is not None:
        return step
    return kinds.get("end_turn", entries[0].action)


def _pick(state: BetrayalState, seat: int) -> int:
    """A sensible answer to a pending choice."""
    pending = state.pending
    assert pending is not None
    step = state.script[-1].steps[0] if state.script and state.script[-1].steps else {}
    if pending.kind == "damage_split":
        return _split_pick(state, pending.seat, step["_damage"])
    if pending.kind == "trait_pick":
        spec = step["_trait_pick"]
        values = [traits.index(state, pending.seat, t) for t in spec["traits"]]
        target = min(values) if spec["amount"] > 0 else max(values)
        return values.index(target)
    if pending.kind == "lucky_pick":
        return _lucky_die(step["_roll"])
    if state.haunt is not None:
        own = base.hooks(state, AIHooks).ai_pick(state)
        if own is not None:
            return own
        tile = haunt_ai.pick_tile(state)
        if tile is not None:
            return tile
    return 0


def _split_pick(state: BetrayalState, seat: int, spec: dict[str, Any]) -> int:
    """Point by point onto the trait highest up its track (a tie: the later one), as one
    split; a first share takes what that spread gives the first trait."""
    names = list(spec["traits"])
    left = {t: traits.index(state, seat, t) for t in names}
    floor = traits.floor_index(state)
    given = dict.fromkeys(names, 0)
    for _ in range(int(spec["amount"])):
        open_ = [t for t in names if left[t] > floor]
        if not open_:
            break
        top = max(open_, key=lambda t: (left[t], names.index(t)))
        left[top] -= 1
        given[top] += 1
    for i, raw in enumerate(spec["choices"]):
        parts = {str(t): int(p) for t, p in raw["parts"]}
        if raw.get("partial"):
            if parts.get(names[0], 0) == given[names[0]]:
                return i
        elif all(min(parts.get(t, 0), damage_split.room(state, seat, t)) == given[t]
                 for t in names):
            return i
    return 0


def _lucky_die(spec: dict[str, Any]) -> int:
    """The Lucky Stone's dice: pick every blank (a 0 can only gain), then reroll them;
    with no blank at all, option 0 rerolls nothing and the stone is kept."""
    picked = spec.get(PICKED, [])
    blanks = [i for i, d in enumerate(spec.get("rolled", [])) if d == 0 and i not in picked]
    return blanks[0] + 1 if blanks else 0


def _towards_frontier(state: BetrayalState, seat: int, entries: list[Legal],
                      crossing_explores: list[Action]) -> Action | None:
    """A step that brings the explorer strictly closer to a room it can explore from
    (so it never walks back and forth): a plain move first, else a crossing roll it
    could pass (exploring from here, or moving on), else the Revolving Wall's switch,
    else a ride in the Mystic Elevator when no room to explore from can be reached."""
    here = state.explorers[seat].tile
    ways = ai_ways.ways(state)
    to_goal = distances_to(ways, explore.frontier(state))
    near = to_goal.get(here)
    if near == 0 and crossing_explores:
        return crossing_explores[0]
    moves = _moves(state, seat, entries)
    for crossing_ok in (False, True):
        best: tuple[int, int, Action] | None = None
        for target, crossing, action in moves:
            if crossing is not None and not (
                    crossing_ok and rolls.could_pass(state, seat, crossing)):
                continue
            dist = to_goal.get(target)
            if dist is not None and (near is None or dist < near) \
                    and (best is None or (dist, target) < best[:2]):
                best = (dist, target, action)
        if best is not None:
            return best[2]
    wall = ai_ways.wall_switch(state, seat, entries, to_goal, near)
    if wall is not None:
        return wall
    if near is None:
        return _towards_elevator(state, seat, moves, ways)
    return None


def _moves(state: BetrayalState, seat: int, entries: list[Legal],
           ) -> list[tuple[int, tuple[str, int] | None, Action]]:
    """The legal moves as (target tile, crossing roll or None, action)."""
    found = []
    moves = movement.legal_moves(state, seat)
    for e in entries:
        if e.action.kind != "move":
            continue
        args = e.action.args
        for m in moves:
            if (m.dir and m.dir == args.get("dir")) or (
                    m.link and m.link.kind == args.get("via") and m.target == args.get("to")):
                found.append((m.target, m.crossing, e.action))
                break
    return found


def _towards_elevator(state: BetrayalState, seat: int,
                      moves: list[tuple[int, tuple[str, int] | None, Action]],
                      ways: dict[int, list[int]]) -> Action | None:
    """Nowhere to explore within reach: the Mystic Elevator may carry the explorer off
    (it moves as it is entered, once a turn)."""
    lift = state.tile_of("mystic_elevator")
    if lift is None or state.explorers[seat].tile == lift:
        return None
    to_lift = distances_to(ways, {lift})
    best: tuple[int, int, Action] | None = None
    for target, crossing, action in moves:
        if crossing is not None:
            continue
        dist = to_lift.get(target)
        if dist is not None and (best is None or (dist, target) < best[:2]):
            best = (dist, target, action)
    return best[2] if best else None
