"""Which passives watch an explorer or a room right now.

Passives are found from the state alone (cards held, lasting events, flags, the room's
own `custom:`, tokens lying there), so a saved game needs no registry of its own.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from bot.games.betrayal import content
from bot.games.betrayal.cards import PASSIVES, Passive
from bot.games.betrayal.state import BetrayalState


def of_explorer(state: BetrayalState, seat: int) -> Iterator[tuple[Passive, Any]]:
    """Passives of the cards an explorer holds or keeps in front of it, and of names in
    its flags (a saved roll from It Is Meant To Be); ref = the card key / flag name."""
    explorer = state.explorers[seat]
    seen: set[str] = set()
    for key in [*explorer.cards, *explorer.lasting]:
        name = content.card(key).custom
        if name in PASSIVES and key not in seen:
            seen.add(key)
            yield PASSIVES[name], key
    for name in list(explorer.flags):
        if name in PASSIVES and name not in seen:
            seen.add(name)
            yield PASSIVES[name], name


def of_tile(state: BetrayalState, tile_id: int) -> Iterator[tuple[Passive, Any]]:
    """The room's own passive (ref = tile id) and the passives of the cards whose tokens
    lie there (ref = (tile id, token index))."""
    tile = state.tiles[tile_id]
    name = content.room(tile.room).custom
    if name in PASSIVES:
        yield PASSIVES[name], tile_id
    for i, token in enumerate(tile.tokens):
        card = token.get("card", "")
        cname = content.card(card).custom if card in content.get().cards else ""
        if cname in PASSIVES:
            yield PASSIVES[cname], (tile_id, i)


def around(state: BetrayalState, seat: int) -> Iterator[tuple[Passive, Any]]:
    """Everything that may touch this explorer: its cards, then its room."""
    yield from of_explorer(state, seat)
    yield from of_tile(state, state.explorers[seat].tile)


def holds_custom(state: BetrayalState, seat: int, name: str) -> str | None:
    """The key of a held card whose card-level custom is `name` (the Rope, the Key)."""
    for key in state.explorers[seat].cards:
        if content.card(key).custom == name:
            return key
    return None


def immune(state: BetrayalState, seat: int, room: str) -> bool:
    return any(p.immune(state, seat, room, ref) for p, ref in of_explorer(state, seat))


def speed_cap(state: BetrayalState, seat: int) -> int | None:
    caps = [c for p, ref in of_explorer(state, seat)
            if (c := p.speed_cap(state, seat, ref)) is not None]
    return min(caps) if caps else None


def blocked(state: BetrayalState, seat: int) -> bool:
    return any(p.blocks(state, seat, ref) for p, ref in of_explorer(state, seat))


def unstealable(state: BetrayalState, seat: int) -> set[str]:
    """The held cards whose passive says they cannot be stolen (the Armor)."""
    return {ref for p, ref in of_explorer(state, seat) if p.cannot_be_stolen(state, seat, ref)}


def draw_prevented(state: BetrayalState, seat: int, deck: str) -> bool:
    """Something the explorer holds, or its room, forbids drawing from `deck` now."""
    return any(p.prevents_draw(state, seat, deck, ref) for p, ref in around(state, seat))
