"""Rigged moments of the two cooperative scenarios (seed 000's 4 and 5): the scenario
begun on the cached house (tests/betrayal_haunt_helpers.started), at the start of one
hero's turn, every hero emptied of cards in the Upper Landing unless placed, and
Pennywise where the test wants him. Shared by their test files."""

from __future__ import annotations

from collections.abc import Callable

from bot.games.betrayal import GAME
from bot.games.betrayal.state import BetrayalState, Monster, Turn
from tests.betrayal_haunt_helpers import started
from tests.betrayal_haunt_rig import tile

MISSY, LONGFELLOW, JENNY, DARRIN = 0, 1, 2, 3  # the cached house's explorers, by seat
NAMES = {"missy": MISSY, "longfellow": LONGFELLOW, "jenny": JENNY, "darrin": DARRIN}


def rig_house(key: str, pennywise: Callable[[BetrayalState], Monster | None], seat: int,
              clown_at: str, where: dict[str, str]) -> BetrayalState:
    """The scenario `key` at the start of `seat`'s turn, Pennywise (`pennywise` finds
    him) in `clown_at`, each hero of `where` (name -> room) there, the rest upstairs."""
    state = GAME.copy_state(started(key)[0])
    state.script.clear()
    state.pending = None
    for explorer in state.explorers:
        explorer.cards.clear()
        explorer.tile, explorer.side = tile(state, "upper_landing"), None
    for name, room in where.items():
        state.explorers[NAMES[name]].tile = tile(state, room)
    for t in state.tiles:
        t.items.clear()
    found = pennywise(state)
    assert found is not None
    found.tile = tile(state, clown_at)
    state.turn = Turn(seat=seat, number=state.turn.number + 1)
    assert state.haunt is not None
    state.haunt.stage = "heroes"
    return state


def answered(state: BetrayalState, lines: list[str]) -> tuple[BetrayalState, list[str]]:
    """Every pending choice answered by the AI (where damage goes), the lines kept."""
    for _ in range(30):
        if state.pending is None:
            break
        seat = state.pending.seat
        state, more = GAME.apply(state, seat, GAME.ai_action(state, seat))
        lines = [*lines, *(e.text for e in more)]
    return state, lines
