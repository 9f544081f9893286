"""An AI explorer for the exploration phase: it explores, picks things up, uses the
safe items, rests in rooms that strengthen it, and ends its turn. Always legal: it
only ever picks one of `options()`.

Decisions are deterministic (the same state gives the same action), which keeps the
replays exact and the tests stable. It walks towards the nearest room with a door
onto unexplored space (breadth-first over doors and the house's links).
"""

from __future__ import annotations

from collections import deque

from bot.core.actions import Action
from bot.games.betrayal import content, explore, traits
from bot.games.betrayal.actions import legal
from bot.games.betrayal.house import DIRS, through_door
from bot.games.betrayal.links import house_links
from bot.games.betrayal.state import BetrayalState

SAFE_USES: frozenset[str] = frozenset({"puzzle_box", "mystic_coin", "healing_salve",
                                       "smelling_salts", "medical_kit"})
SAFE_ACTS: tuple[str, ...] = ("vault", "closet_door")


def choose_action(state: BetrayalState, seat: int) -> Action:
    from bot.games.betrayal import GAME

    options = GAME.options(state, seat)
    if state.pending is not None:
        return options[_pick(state, seat)].action
    entries = legal(state, seat)
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
    if resting:
        return Action("end_turn")
    explores = [e.action for e in entries if e.action.kind == "explore"
                and "cross" not in e.label]
    if explores:
        return explores[0]
    step = _towards_frontier(state, seat, entries)
    if step is not None:
        return step
    return kinds.get("end_turn", options[0].action)


def _pick(state: BetrayalState, seat: int) -> int:
    """A sensible answer to a pending choice."""
    pending = state.pending
    assert pending is not None
    step = state.script[-1].steps[0] if state.script and state.script[-1].steps else {}
    if pending.kind == "damage_split":
        choices = step["_damage"]["choices"]
        ranked = [(traits.index(state, pending.seat, t), -n, i)
                  for i, (t, n) in enumerate(choices) if n == 1]
        return max(ranked)[2]
    if pending.kind == "trait_pick":
        spec = step["_trait_pick"]
        values = [traits.index(state, pending.seat, t) for t in spec["traits"]]
        target = min(values) if spec["amount"] > 0 else max(values)
        return values.index(target)
    if pending.kind == "trade_answer":
        return 1
    return 0


def _frontier(state: BetrayalState) -> set[int]:
    """Rooms with a door someone could explore through."""
    return {t for t in range(len(state.tiles))
            if any(explore.can_explore_from(state, t, d) for d in DIRS)}


def _towards_frontier(state: BetrayalState, seat: int, entries: list) -> Action | None:  # type: ignore[type-arg]
    moves = {}
    for e in entries:
        if e.action.kind != "move" or "cross" in e.label:
            continue
        if "dir" in e.action.args:
            target = through_door(state, state.explorers[seat].tile, str(e.action.args["dir"]))
        else:
            target = int(e.action.args["to"])
        if target is not None:
            moves[target] = e.action
    if not moves:
        return None
    goals = _frontier(state)
    graph: dict[int, set[int]] = {}
    for a, b, _ in house_links(state):
        graph.setdefault(a, set()).add(b)
    best: tuple[int, int] | None = None
    for target in sorted(moves):
        dist = _distance(state, graph, target, goals)
        if dist is not None and (best is None or dist < best[0]):
            best = (dist, target)
    return moves[best[1]] if best else None


def _distance(state: BetrayalState, graph: dict[int, set[int]], start: int,
              goals: set[int]) -> int | None:
    seen = {start}
    todo = deque([(start, 0)])
    while todo:
        tile, dist = todo.popleft()
        if tile in goals:
            return dist
        nxt = [t for d in DIRS if (t := through_door(state, tile, d)) is not None]
        for t in [*nxt, *sorted(graph.get(tile, ()))]:
            if t not in seen:
                seen.add(t)
                todo.append((t, dist + 1))
    return None
