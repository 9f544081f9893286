"""What the rules engines cost per action and per AI decision: a benchmark, not a test.

For every state of a set of AI-played games it times, once each and in this order (the
order the sessions layer meets them: the prompt, then the AI's pick, then the action):

    unit      one JSON round trip of the same state, GAME.load(json.loads(json.dumps(
              GAME.dump(state)))): what the store does with it, the yardstick
    options   GAME.options(state, seat): what the prompt lists
    ai        GAME.ai_action(state, seat): one AI decision
    apply     GAME.apply(state, seat, the AI's action): the copy, the rules, the events

and prints median / p99 / max in ms and as a ratio to `unit` (measured on the same
state just before), since the shared machine drifts and the ratios do not.

The games:

    cthulhu     AI-only games (4 players), every state
    explore     Betrayal, 4 explorers, full 47-tile houses built by AI play with the
                haunt held off (bench_sessions.full_houses), then --steps more actions
    <haunt>     each of the 8 haunts begun in those houses (bench_sessions.in_haunts)
                and played out by the AI; timed over the second half of the haunt
                (late: the house full, monsters out, bodies on the floor)

    .venv/bin/python bench/bench_engine.py                 # 4 houses, ~1 minute
    .venv/bin/python bench/bench_engine.py --houses 8 --only explore the_mummy_walks

Recorded on the shared 2-core box with the defaults (seed 1, 4 houses, each haunt
in 2 of them). "x unit" is the phase's time over the state's JSON round trip.

    before (Layout rebuilt on every through_door, copy = load(dump)), medians and p99:

    ms                       n   apply p99    options p99      ai    p99    max
    cthulhu                909    0.35   4.94     0.09   4.16     0.14   4.40    8.7
    explore                240    2.81  10.19     0.78   5.56    95.22 500.19  569.7
    a_little_night_murder  228    1.88   8.09     0.59   5.50    12.11 155.48  164.5
    better_with_friends     85    2.13  66.98     0.55   4.81    35.95 111.18  114.0
    its_alive               92    1.57   2.71     0.41   1.22     1.99  82.99   83.5
    offspring               79    2.04   6.16     0.62   4.46    34.92  89.45  110.0
    pay_the_piper           47    1.69   5.34     0.41   4.64     1.37  84.34   84.3
    the_ghost_bride         74    1.79   2.55     0.54   1.20     1.35  58.44   71.8
    the_mummy_walks         37    1.53   2.82     0.41   1.19     4.52  72.42   72.4
    wail_of_the_banshee     55    2.14   3.53     0.55   1.25     2.11 134.19  134.4

    x unit                   n   apply p99    options p99      ai    p99
    cthulhu                909     0.8   12.4      0.2    9.9      0.3   11.7
    explore                240     1.5    6.2      0.4    3.8     44.5  193.8
    a_little_night_murder  228     1.2    5.2      0.3    4.2      6.9  108.3
    better_with_friends     85     1.4   45.7      0.3    3.3     13.4   75.6
    its_alive               92     1.1    1.9      0.3    0.9      1.4   56.0
    offspring               79     1.4    4.0      0.4    3.0     22.5   60.5
    pay_the_piper           47     1.1    3.3      0.3    3.2      0.9   58.5
    the_ghost_bride         74     1.3    1.8      0.4    0.8      1.0   40.8
    the_mummy_walks         37     1.1    1.8      0.3    0.8      3.2   48.1
    wail_of_the_banshee     55     1.3    2.2      0.4    0.9      1.4   96.0

    after
    AFTER_TABLE
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_sessions import full_houses, in_haunts
from bot.games import betrayal, cthulhu
from bot.games.base import Game, PlayerInfo
from bot.games.betrayal import haunt

PHASES = ("apply", "options", "ai")
HAUNT_CAP = 600  # actions after which a haunt is stopped (none reached it when recorded)


@dataclass
class Sample:
    """One phase's timings over many states, and each as a ratio to its state's unit."""

    ms: list[float] = field(default_factory=list)
    ratio: list[float] = field(default_factory=list)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def timed(call: Callable[..., Any], *args: Any) -> tuple[float, Any]:
    t0 = time.perf_counter()
    result = call(*args)
    return (time.perf_counter() - t0) * 1000, result


def round_trip(game: Game[Any], state: Any) -> Any:
    return game.load(json.loads(json.dumps(game.dump(state))))


def measure(game: Game[Any], states: list[Any]) -> dict[str, Sample]:
    """Each phase timed once on every state (which must be waiting for a seat)."""
    found = {phase: Sample() for phase in PHASES}
    for state in states:
        seat = game.to_act(state)
        assert seat is not None
        unit, _ = timed(round_trip, game, state)
        options, _ = timed(game.options, state, seat)
        ai, action = timed(game.ai_action, state, seat)
        apply, _ = timed(game.apply, state, seat, action)
        for phase, ms in (("apply", apply), ("options", options), ("ai", ai)):
            found[phase].ms.append(ms)
            found[phase].ratio.append(ms / unit)
    return found


def play(game: Game[Any], state: Any, steps: int) -> list[Any]:
    """The states an AI-only game goes through (at most `steps` of them)."""
    seen = []
    while not game.is_over(state) and len(seen) < steps:
        seat = game.to_act(state)
        assert seat is not None
        seen.append(state)
        state, _ = game.apply(state, seat, game.ai_action(state, seat))
    return seen


@contextmanager
def haunt_held_off() -> Iterator[None]:
    with mock.patch.object(haunt, "starts", lambda total, omens: False), \
            mock.patch.object(haunt, "stalled", lambda state: False):
        yield


def cthulhu_states(games: int, seed: int) -> list[Any]:
    game = cthulhu.GAME
    states: list[Any] = []
    for n in range(games):
        state, _ = game.setup([PlayerInfo(f"AI{i}", ai=True) for i in range(4)], seed + n, {})
        states += play(game, state, 10_000)
    return states


def betrayal_states(houses: int, seed: int, steps: int, per_haunt: int,
                    only: set[str]) -> dict[str, list[Any]]:
    """The exploring states and each haunt's late states, by the name printed."""
    game = betrayal.GAME
    built = full_houses(seed, houses)
    found: dict[str, list[Any]] = {}
    if not only or "explore" in only:
        with haunt_held_off():
            found["explore"] = [s for raw in built for s in play(game, game.load(raw), steps)]
    # every haunt in each of the first `per_haunt` houses (in_haunts deals them in turn)
    dealt = [raw for raw in built[:per_haunt] for _ in range(len(haunt.haunts()))]
    for state in (game.load(raw) for raw in in_haunts(dealt)):
        key = state.haunt.key
        if only and key not in only:
            continue
        seen = play(game, state, HAUNT_CAP)
        found.setdefault(key, []).extend(seen[len(seen) // 2:])
    return found


def rows(name: str, count: int, result: dict[str, Sample]) -> tuple[str, str]:
    """The line of the ms table and the line of the ratio table."""
    def cells(values: Callable[[Sample], list[float]], fmt: str) -> str:
        return "   ".join(f"{statistics.median(values(result[p])):{fmt}} "
                           f"{pct(values(result[p]), 0.99):{fmt}}" for p in PHASES)
    head = f"{name:<22}{count:>4}  "
    return (head + cells(lambda s: s.ms, "6.2f") + f" {max(result['ai'].ms):6.1f}",
            head + cells(lambda s: s.ratio, "6.1f"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--houses", type=int, default=4, help="full 47-tile houses to build")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--steps", type=int, default=60,
                        help="exploring actions timed per full house")
    parser.add_argument("--haunt-houses", type=int, default=2,
                        help="houses each haunt is played out in")
    parser.add_argument("--cthulhu-games", type=int, default=10)
    parser.add_argument("--only", nargs="*", default=[],
                        help="names to run: cthulhu, explore, or haunt keys")
    args = parser.parse_args(argv)
    only = set(args.only)
    started = time.perf_counter()
    games: dict[str, tuple[Game[Any], list[Any]]] = {}
    if not only or "cthulhu" in only:
        games["cthulhu"] = (cthulhu.GAME, cthulhu_states(args.cthulhu_games, args.seed))
    if not only or only - {"cthulhu"}:
        for name, states in betrayal_states(args.houses, args.seed, args.steps,
                                            args.haunt_houses, only).items():
            games[name] = (betrayal.GAME, states)
    print(f"states gathered in {time.perf_counter() - started:.1f}s")
    lines = []
    for name, (game, states) in games.items():
        with haunt_held_off() if name == "explore" else nullcontext():
            lines.append(rows(name, len(states), measure(game, states)))
            print(lines[-1][0], flush=True)
    print(f"\n{'ms':<22}{'n':>4}   apply p99    options p99      ai    p99    max")
    print("\n".join(ms for ms, _ in lines))
    print(f"\n{'x unit':<22}{'n':>4}   apply p99    options p99      ai    p99")
    print("\n".join(ratio for _, ratio in lines))
    print(f"total {time.perf_counter() - started:.1f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
