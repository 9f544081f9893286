"""Which passives watch an explorer or a room right now, for one part of the game.

Passives are found from the state alone (cards held, lasting events, flags, the room's
own `custom:`, tokens lying there), so a saved game needs no registry of its own. Each
finder takes the part the engine is in (cards/__init__.py: RollPassive, TurnPassive...)
and yields only the passives that fill it in.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, TypeVar

from bot.games.betrayal import content
from bot.games.betrayal.cards import (
    PASSIVES,
    HandPassive,
    Passive,
    RoomPassive,
    TurnPassive,
)
from bot.games.betrayal.state import BetrayalState

Part = TypeVar("Part", bound=Passive)


def of_explorer(state: BetrayalState, seat: int,
                part: type[Part]) -> Iterator[tuple[Part, Any]]:
    """Passives of this part among the cards an explorer holds or keeps in front of it,
    and the names in its flags (a saved roll from It Is Meant To Be); ref = the card key
    / flag name."""
    explorer = state.explorers[seat]
    seen: set[str] = set()
    cards = content.get().cards  # once, not once a card: a listing of the actions asks
    # this of the explorer some twenty times (`blocked`, `speed_cap`...)
    for key in [*explorer.cards, *explorer.lasting]:
        name = cards[key].custom
        if name in PASSIVES and key not in seen:
            seen.add(key)
            found = PASSIVES[name]
            if isinstance(found, part):
                yield found, key
    for name in list(explorer.flags):
        if name in PASSIVES and name not in seen:
            seen.add(name)
            found = PASSIVES[name]
            if isinstance(found, part):
                yield found, name


def of_tile(state: BetrayalState, tile_id: int,
            part: type[Part]) -> Iterator[tuple[Part, Any]]:
    """Passives of this part of the room itself (ref = tile id) and of the cards whose
    tokens lie there (ref = (tile id, token index))."""
    tile = state.tiles[tile_id]
    known = content.get()
    name = known.rooms[tile.room].custom
    found = PASSIVES.get(name)
    if isinstance(found, part):
        yield found, tile_id
    for i, token in enumerate(tile.tokens):
        card = token.get("card", "")
        cname = known.cards[card].custom if card in known.cards else ""
        found = PASSIVES.get(cname)
        if isinstance(found, part):
            yield found, (tile_id, i)


def around(state: BetrayalState, seat: int, part: type[Part]) -> Iterator[tuple[Part, Any]]:
    """Everything of this part that may touch this explorer: its cards, then its room."""
    yield from of_explorer(state, seat, part)
    yield from of_tile(state, state.explorers[seat].tile, part)


def named(name: str, part: type[Part]) -> Part:
    """The passive registered under `name`, which must fill in `part` (an offer it made
    comes back to it by name)."""
    found = PASSIVES[name]
    if not isinstance(found, part):
        raise TypeError(f"the passive {name!r} is no {part.__name__}")
    return found


def holds_custom(state: BetrayalState, seat: int, name: str) -> str | None:
    """The key of a held card whose card-level custom is `name` (the Rope, the Key)."""
    for key in state.explorers[seat].cards:
        if content.card(key).custom == name:
            return key
    return None


def immune(state: BetrayalState, seat: int, room: str) -> bool:
    return any(p.immune(state, seat, room, ref)
               for p, ref in of_explorer(state, seat, RoomPassive))


def speed_cap(state: BetrayalState, seat: int) -> int | None:
    caps = [c for p, ref in of_explorer(state, seat, TurnPassive)
            if (c := p.speed_cap(state, seat, ref)) is not None]
    return min(caps) if caps else None


def blocked(state: BetrayalState, seat: int) -> bool:
    return any(p.blocks(state, seat, ref) for p, ref in of_explorer(state, seat, TurnPassive))


def unstealable(state: BetrayalState, seat: int) -> set[str]:
    """The held cards whose passive says they cannot be stolen (the Armor)."""
    return {ref for p, ref in of_explorer(state, seat, HandPassive)
            if p.cannot_be_stolen(state, seat, ref)}


def draw_prevented(state: BetrayalState, seat: int, deck: str) -> bool:
    """Something the explorer holds, or its room, forbids drawing from `deck` now."""
    return any(p.prevents_draw(state, seat, deck, ref)
               for p, ref in around(state, seat, HandPassive))
