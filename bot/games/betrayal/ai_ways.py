"""The ways the AIs walk the house, shared by the exploring AI (bot/games/betrayal/ai.py)
and the haunt's (haunting/ai.py), which sit above this module and never import each
other for it.

The AI counts every house link as a way, the Revolving Wall too (crossed only by a
roll, its switch an act): a pocket of rooms that only the wall opens onto would
otherwise hold an explorer, and a goal there, out of reach for ever.

A split room's crossing roll is priced by its odds (`crossing_price`): a failed roll
ends the turn's movement, so a roll that seldom passes costs turns, and a longer walk
that needs no roll is often cheaper. `costs_to` walks the house with each half of a
split room a place of its own, and `cheapest_step` takes the step (or the crossing
roll) that the cheapest way starts with; the cost left falls with every step, so the
AI never walks back and forth.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping, Sequence

from bot.core.actions import Action
from bot.games.betrayal import content, hooks, movement, rolls, traits
from bot.games.betrayal.actions import Legal
from bot.games.betrayal.dice import odds
from bot.games.betrayal.house import DIRS, doors, opposite, plan
from bot.games.betrayal.links import house_links
from bot.games.betrayal.movement import Move
from bot.games.betrayal.state import BetrayalState

Place = tuple[int, str]  # a room, and the half of a split room one stands in ("" if whole)


def ways(state: BetrayalState) -> dict[int, list[int]]:
    """Doors and every house link, from every room (for `links.distances_to`)."""
    links: dict[int, set[int]] = {}
    for a, b, _ in house_links(state):
        links.setdefault(a, set()).add(b)
    exits = plan(state).exits
    return {t: [*exits[t].values(), *sorted(links.get(t, ()))] for t in range(len(state.tiles))}


def crossing_price(state: BetrayalState, seat: int,
                   crossing: tuple[str, int] | None) -> float | None:
    """A crossing roll's cost in rooms walked: each failure ends the turn's movement, and
    (1 - p) / p failures are to be expected before it passes, each a turn of the
    explorer's Speed lost. 0: no roll; None: a roll it can never pass."""
    if crossing is None:
        return 0.0
    trait, target = crossing
    chance = odds(rolls.crossing_dice(state, seat, trait), target)
    if chance <= 0:
        return None
    return (1 - chance) / chance * max(1, movement.speed_limit(state, seat))


def _halves(state: BetrayalState, prices: Mapping[int, float | None], tile: int) -> list[str]:
    return sorted(doors(state.tiles[tile]), key=DIRS.index) if tile in prices else [""]


def place_of(state: BetrayalState, seat: int, prices: Mapping[int, float | None],
             tile: int, side: str | None) -> Place:
    """Where one stands arriving in `tile` by the door (or the side) `side`: by that door
    in a split room, else by its first door (movement.arrival_side)."""
    if tile not in prices:
        return (tile, "")
    halves = _halves(state, prices, tile)
    return (tile, side if side in halves else (halves[0] if halves else ""))


def split_prices(state: BetrayalState, seat: int) -> dict[int, float | None]:
    """Each split room this explorer would roll to cross, with that roll's price."""
    prices: dict[int, float | None] = {}
    for tile in range(len(state.tiles)):
        crossing = movement.room_crossing(state, seat, tile)
        if crossing is not None:
            prices[tile] = crossing_price(state, seat, crossing)
    return prices


def costs_to(state: BetrayalState, seat: int, goals: Mapping[int, set[str] | None],
             prices: Mapping[int, float | None]) -> dict[Place, float]:
    """What getting to one of `goals` costs this explorer from every place, in rooms
    walked, each crossing roll at its price: one search backwards from the goals (the
    ways may be one-way: the Coal Chute). `goals` maps a room to the doors one must
    stand by to use it (a split room's half; None: anywhere in it)."""
    exits = plan(state).exits
    links: dict[int, set[int]] = {}
    for a, b, _ in house_links(state):
        links.setdefault(a, set()).add(b)
    back: dict[Place, list[tuple[Place, float]]] = {}
    for a in range(len(state.tiles)):
        price = prices.get(a)
        for half in _halves(state, prices, a):
            for d, b in exits[a].items():
                cost = 1.0
                if half and half != d:
                    if price is None:
                        continue
                    cost += price
                back.setdefault(place_of(state, seat, prices, b, opposite(d)), []).append(
                    ((a, half), cost))
            for b in sorted(links.get(a, ())):
                back.setdefault(place_of(state, seat, prices, b, None), []).append(
                    ((a, half), 1.0))
    found: dict[Place, float] = {}
    frontier: list[tuple[float, Place]] = []
    for tile, by in goals.items():
        price = prices.get(tile)
        for half in _halves(state, prices, tile):
            start = 0.0 if not half or by is None or half in by else price
            if start is not None:
                heapq.heappush(frontier, (start, (tile, half)))
    while frontier:
        cost, place = heapq.heappop(frontier)
        if place in found:
            continue
        found[place] = cost
        for prev, step in back.get(place, ()):
            if prev not in found:
                heapq.heappush(frontier, (cost + step, prev))
    return found


def by_room(costs: Mapping[Place, float]) -> dict[int, float]:
    """Each room's cheapest half (for the Revolving Wall's switch)."""
    rooms: dict[int, float] = {}
    for (tile, _), cost in costs.items():
        rooms[tile] = min(cost, rooms.get(tile, cost))
    return rooms


def moves(state: BetrayalState, seat: int, entries: list[Legal]) -> list[tuple[Move, Action]]:
    """The legal moves, each with the action that makes it."""
    found = []
    legal = movement.legal_moves(state, seat)
    for e in entries:
        if e.action.kind != "move":
            continue
        args = e.action.args
        for m in legal:
            if (m.dir and m.dir == args.get("dir")) or (
                    m.link and m.link.kind == args.get("via") and m.target == args.get("to")):
                found.append((m, e.action))
                break
    return found


def cheapest_step(state: BetrayalState, seat: int, costs: Mapping[Place, float],
                  prices: Mapping[int, float | None], steps: list[tuple[Move, Action]],
                  crossings: Sequence[tuple[tuple[str, int], Action]] = ()) -> Action | None:
    """The action the cheapest way to a goal starts with: a step that leaves less to go
    (a crossing roll on the way paid at its price), or one of `crossings`, a roll that
    reaches the goal where the explorer stands (exploring across a split room); None
    when no goal can be reached."""
    explorer = state.explorers[seat]
    here = place_of(state, seat, prices, explorer.tile, explorer.side)
    near = costs.get(here)
    if near is None:
        return None
    best: tuple[float, int, int, Action] | None = None
    for crossing, action in crossings:
        price = crossing_price(state, seat, crossing)
        if price is not None and (best is None or (price, 0, -1) < best[:3]):
            best = (price, 0, -1, action)
    for m, action in steps:
        price = crossing_price(state, seat, m.crossing)
        side = opposite(m.dir) if m.dir else m.link.arrive if m.link else None
        left = costs.get(place_of(state, seat, prices, m.target, side))
        if price is None or left is None or left >= near:
            continue
        value = 1 + price + left
        key = (value, 1 if m.crossing else 0, m.target)
        if best is None or key < best[:3]:
            best = (*key, action)
    return best[3] if best else None


def wall_switch(state: BetrayalState, seat: int, entries: list[Legal],
                to_goal: Mapping[int, float], near: float | None) -> Action | None:
    """The Revolving Wall's switch here, when the room behind it is closer to the goal."""
    here = state.explorers[seat].tile
    for e in entries:
        what = str(e.action.args.get("what", "")) if e.action.kind == "act" else ""
        if not what.startswith("revolving_wall-"):
            continue
        token = state.tiles[here].tokens[int(what.split("-")[1])]
        if token.get("link") is None:
            continue
        dist = to_goal.get(int(token["link"]))
        if dist is not None and (near is None or dist < near):
            return e.action
    return None


def end_damage(state: BetrayalState, seat: int, tile: int) -> tuple[str, int] | None:
    """The damage this explorer takes ending its turn in `tile` (the Crypt's mental, the
    Furnace Room's physical: their kind and amount, fixed on the tile, face up), or None
    where a turn's end does no harm to it."""
    room = content.room(state.tiles[tile].room)
    if hooks.immune(state, seat, room.key):
        return None
    for effect in room.on_end_turn:
        damage = effect.get("damage")
        if damage and "amount" in damage:
            return str(damage["kind"]), int(damage["amount"])
    return None


def end_kills(state: BetrayalState, seat: int, tile: int) -> bool:
    """Whether ending the turn in `tile` would kill this explorer: its damage is more
    than the traits it falls on can take above the skull (none can before the haunt's
    first round: traits.floor_index)."""
    hurt = end_damage(state, seat, tile)
    if hurt is None or traits.floor_index(state) >= 0:
        return False
    kind, amount = hurt
    room = sum(max(0, traits.index(state, seat, t)) for t in traits.DAMAGE_TRAITS[kind])
    return amount > room
