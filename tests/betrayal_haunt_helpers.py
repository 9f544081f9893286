"""Start any haunt on a house built by AI play, and play a haunt out by AI.

`haunted(key, ...)` explores with AI explorers (the haunt roll held back) until the
house has `tiles` rooms, then begins the named haunt with `revealer` as the revealer,
as if the chart had named it. `play_out` lets the AI play every seat until the game
ends (or a step limit, which a test should treat as a failure).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from unittest import mock

from bot.core.events import Event
from bot.games.base import PlayerInfo
from bot.games.betrayal import GAME, editions, effects, haunt_roll
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.haunting import flow, sides
from bot.games.betrayal.state import HEROES, TRAITOR, BetrayalState, Turn

PLAYERS = 4


def edition_of(key: str) -> str:
    """The edition a haunt belongs to (an expansion's scenarios are played in it)."""
    return haunt_roll.haunts()[key].edition or editions.DEFAULT


def explored(players: int = PLAYERS, seed: int = 1, tiles: int = 25,
             limit: int = 4000, edition: str = editions.DEFAULT) -> BetrayalState:
    """A house of at least `tiles` rooms (or as many as AI play finds within `limit`
    actions) in this edition, no haunt yet (its trigger held back), at the start of
    someone's turn."""
    infos = [PlayerInfo(f"P{i}", ai=True) for i in range(players)]
    state, _ = GAME.setup(infos, seed, {"today": "06-01", "expansion": edition})
    return grow(state, tiles, limit)


def grow(state: BetrayalState, tiles: int, limit: int = 4000, *,
         turn_start: bool = True) -> BetrayalState:
    """AI play, the edition's haunt trigger held back, until the house has `tiles` rooms
    and nothing is pending (and, with `turn_start`, at the start of someone's turn).

    The classic haunt roll is still made (the seeds' houses stay as they were), only
    never succeeds; another edition's trigger is not run at all."""
    played = editions.for_state(state)
    quiet = (mock.patch.object(played, "turn_over", lambda ctx, frame: None)
             if played.key != editions.DEFAULT else mock.patch.object(
                 haunt_roll, "starts", lambda total, omens: False))
    with quiet, mock.patch.object(played, "stalled", lambda state: False):
        for _ in range(limit):
            if len(state.tiles) >= tiles and state.pending is None and not state.script \
                    and (not turn_start or (state.turn.moves == 0 and not state.turn.used)):
                break
            seat = GAME.to_act(state)
            assert seat is not None
            state, _ = GAME.apply(state, seat, GAME.ai_action(state, seat))
    return state


def begin(state: BetrayalState, key: str, revealer: int | None = None,
          prepare: Callable[[BetrayalState], None] | None = None,
          ) -> tuple[BetrayalState, list]:  # type: ignore[type-arg]
    """Begin the haunt `key` now (as if the chart had named it)."""
    state = GAME.copy_state(state)
    if prepare is not None:
        prepare(state)
    ctx = Ctx(state)
    seat = state.turn.seat if revealer is None else revealer
    omen = state.last_omen or "book"
    room = state.last_omen_room or state.tiles[0].room
    haunt_roll.begin(ctx, seat, omen, room, 0, chosen=haunt_roll.haunts()[key])
    effects.run(ctx)
    flow.after_action(ctx)
    return state, ctx.events


def answer_pending(state: BetrayalState, events: list | None = None) -> BetrayalState:  # type: ignore[type-arg]
    """Let the AI answer the choices the haunt's setup asks (where a room goes); what
    is said meanwhile is added to `events` when given."""
    for _ in range(50):
        if state.pending is None or state.over:
            break
        seat = state.pending.seat
        state, more = GAME.apply(state, seat, GAME.ai_action(state, seat))
        if events is not None:
            events.extend(more)
    return state


@cache
def house(players: int = PLAYERS, seed: int = 1, tiles: int = 25,
          edition: str = editions.DEFAULT) -> BetrayalState:
    """`explored`, cached per process (treat it as read-only: `begin` works on a copy)."""
    return explored(players, seed, tiles, edition=edition)


def started(key: str, players: int = PLAYERS, seed: int = 1, tiles: int = 25,
            prepare: Callable[[BetrayalState], None] | None = None,
            ) -> tuple[BetrayalState, list]:  # type: ignore[type-arg]
    """The haunt `key` begun on a cached house, its setup's choices answered by the AI,
    with every event said so far."""
    state, first = begin(house(players, seed, tiles, edition_of(key)), key, prepare=prepare)
    events = list(first)
    return answer_pending(state, events), events


def haunted(key: str, players: int = PLAYERS, seed: int = 1, tiles: int = 25,
            revealer: int | None = None,
            prepare: Callable[[BetrayalState], None] | None = None) -> BetrayalState:
    return answer_pending(begin(explored(players, seed, tiles, edition=edition_of(key)), key,
                                revealer, prepare)[0])


# An AI haunt game takes a few hundred actions at most (bench/haunt_endings.py: 362
# over 500 seeds x 3-6 players x 8 haunts) and every haunt ends by its last round, so
# only a game that would never end reaches this, and it fails in seconds.
HAUNT_ACTIONS = 1500


def play_out(state: BetrayalState, limit: int = HAUNT_ACTIONS,
             ) -> tuple[BetrayalState, list]:  # type: ignore[type-arg]
    """AI plays every seat until the game is over (or `limit` actions: a test should
    treat that as a failure); returns the state and all events."""
    events = []
    for _ in range(limit):
        if state.over:
            break
        seat = GAME.to_act(state)
        assert seat is not None
        state, more = GAME.apply(state, seat, GAME.ai_action(state, seat))
        events.extend(more)
    return state, events


@cache
def played(key: str, seed: int, players: int = PLAYERS, tiles: int = 25,
           ) -> tuple[BetrayalState, tuple[Event, ...]]:
    """An AI game of this haunt on this seed's house, begun by key and played to its
    end (or HAUNT_ACTIONS), with every event said from the haunt's start. Cached per
    process, so the tests of endings, of secrets and of each side's wins share their
    games; treat the result as read-only."""
    state, first = begin(house(players, seed, tiles, edition_of(key)), key)
    state, more = play_out(state)
    return state, (*first, *more)


def outcome(key: str, seed: int, players: int = PLAYERS, tiles: int = 25) -> BetrayalState:
    """How an AI game of this haunt ends on this seed's house (`played`)."""
    return played(key, seed, players, tiles)[0]


SEEDS = range(1, 41)


def first_seed(key: str, winner: str, players: int = PLAYERS,
               seeds: range = SEEDS) -> int | None:
    """The first seed whose AI game of this haunt the `winner` side wins. Tests assert
    a seed exists (both sides can win) rather than pin one, so they survive changes to
    the AI or the dice that move which seed wins."""
    for seed in seeds:
        if outcome(key, seed, players).haunt.winner == winner:  # type: ignore[union-attr]
            return seed
    return None


def seed_for(key: str, winner: str, players: int = PLAYERS) -> int:
    seed = first_seed(key, winner, players)
    assert seed is not None, f"no AI game of {key} in {SEEDS} won by the {winner}"
    return seed


def turn_of(state: BetrayalState, seat: int) -> None:
    """A fresh turn of this explorer in the haunt, nothing pending: a test sets up the
    moment it needs without playing every turn before it."""
    assert state.haunt is not None
    state.script.clear()
    state.pending = None
    state.turn = Turn(seat=seat, number=state.turn.number + 1)
    state.haunt.stage = TRAITOR if sides.is_traitor(state, seat) else HEROES


def put(state: BetrayalState, tile: int, *seats: int) -> None:
    """These explorers stand in this room (on no side of a split one), moved by hand."""
    for seat in seats:
        state.explorers[seat].tile, state.explorers[seat].side = tile, None
