"""The ways the AIs walk the house, shared by the exploring AI (bot/games/betrayal/ai.py)
and the haunt's (haunting/ai.py), which sit above this module and never import each
other for it.

The AI counts every house link as a way, the Revolving Wall too (crossed only by a
roll, its switch an act): a pocket of rooms that only the wall opens onto would
otherwise hold an explorer, and a goal there, out of reach for ever.
"""

from __future__ import annotations

from bot.core.actions import Action
from bot.games.betrayal.actions import Legal
from bot.games.betrayal.house import plan
from bot.games.betrayal.links import house_links
from bot.games.betrayal.state import BetrayalState


def ways(state: BetrayalState) -> dict[int, list[int]]:
    """Doors and every house link, from every room (for `links.distances_to`)."""
    links: dict[int, set[int]] = {}
    for a, b, _ in house_links(state):
        links.setdefault(a, set()).add(b)
    exits = plan(state).exits
    return {t: [*exits[t].values(), *sorted(links.get(t, ()))] for t in range(len(state.tiles))}


def wall_switch(state: BetrayalState, seat: int, entries: list[Legal],
                to_goal: dict[int, int], near: int | None) -> Action | None:
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
