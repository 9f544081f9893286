"""The Cthulhu AI's distance tables are kept per house, and only so many: random
houses are all different, so an unbounded cache would grow with every game."""

from __future__ import annotations

from bot.games.base import PlayerInfo
from bot.games.cthulhu import GAME, ai
from bot.games.cthulhu.state import CthulhuState


def random_house(seed: int) -> CthulhuState:
    state, _ = GAME.setup([PlayerInfo("A"), PlayerInfo("B")], seed, {"layout": "random"})
    return state


def steps_between(state: CthulhuState, a: int, b: int) -> int:
    """Moves from room a to room b, counted the slow way (len(rooms): no way)."""
    seen, todo = {a: 0}, [a]
    for room in todo:
        for there in state.neighbours(room):
            if there not in seen:
                seen[there] = seen[room] + 1
                todo.append(there)
    return seen.get(b, len(state.rooms))


def test_distances_are_shortest_paths() -> None:
    for seed in range(3):
        state = random_house(seed)
        table = ai.distances(state)
        rooms = range(len(state.rooms))
        assert [[table[a][b] for b in rooms] for a in rooms] == \
            [[steps_between(state, a, b) for b in rooms] for a in rooms]


def test_the_table_cache_stays_bounded_over_many_random_houses() -> None:
    ai._distance_table.cache_clear()
    houses = {tuple(random_house(seed).passages) for seed in range(ai.TABLES_KEPT * 2)}
    assert len(houses) > ai.TABLES_KEPT  # more houses than tables kept
    for seed in range(ai.TABLES_KEPT * 2):
        state = random_house(seed)
        assert ai.distances(state) == ai._distance_table.__wrapped__(
            len(state.rooms), tuple(state.passages))
        assert ai._distance_table.cache_info().currsize <= ai.TABLES_KEPT
    assert ai._distance_table.cache_info().currsize == ai.TABLES_KEPT
