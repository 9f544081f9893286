"""What the rules engines cost per action and per AI decision: a benchmark, not a test.

For every state of a set of AI-played games it times, in this order (the order the
sessions layer meets them: the prompt, then the AI's pick, then the action):

    unit      one JSON round trip of the same state, GAME.load(json.loads(json.dumps(
              GAME.dump(state)))): what the store does with it, the yardstick
    options   GAME.options(state, seat): what the prompt lists
    ai        GAME.ai_action(state, seat): one AI decision
    apply     GAME.apply(state, seat, the AI's action): the copy, the rules, the events

each the least of --repeat runs, and prints median / p99 / max in ms and as a ratio to
`unit` of the same state, since the shared machine drifts and the ratios do not. The
states are gathered first and then frozen out of the garbage collector (gc.freeze):
collecting the thousands of states this script holds, which the bot never holds,
would otherwise show up as the engine's p99.

The games (`mon`: the most monsters on the board in any state timed):

    cthulhu     AI-only games (4 players), every state
    explore     Betrayal, 4 explorers, full 47-tile houses built by AI play with the
                haunt held off (bench_sessions.full_houses), then --steps more actions
    <haunt>     each of the 8 haunts begun in those houses (bench_sessions.in_haunts),
                --crowd monsters put in for haunts that have monsters, no side allowed
                to win before round --hold, played out by the AI; timed over the second
                half of each haunt (late: the house full, monsters out, the dead lying)

    .venv/bin/python bench/bench_engine.py                 # about 30 s
    .venv/bin/python bench/bench_engine.py --houses 8 --only explore the_mummy_walks

Recorded on the shared 2-core box with the defaults (seed 1, 4 houses, each haunt in 2
of them, --crowd 12, --hold 8, --repeat 3); the same states before and after (the
engine's choices did not change). ms (median, p99, max of the AI), then x unit:

    before: the Layout rebuilt on every through_door; one search of the house per move
    weighed; legal actions found three times per decision; copy = load(dump(state))

    ms                       n   apply p99    options p99      ai    p99    max  mon
    cthulhu                909    0.34   0.79     0.08   0.30     0.13   0.63    0.8   0
    explore                240    2.09   4.41     0.67   1.44    58.91 222.84  311.1   0
    a_little_night_murder  224    2.64   9.24     1.14   6.84    10.19 121.45  173.9  12
    better_with_friends    198    3.45  47.07     1.80   6.42     7.00  62.25  100.2  14
    its_alive              124    1.92   3.07     0.59   1.27     1.88  62.13   62.4  12
    offspring              125    2.24  10.41     0.61   2.45     2.62  97.59  111.8   0
    pay_the_piper          129    2.47   6.58     0.78   5.79     3.06 100.27  103.0   9
    the_ghost_bride         88    2.08   2.92     0.75   1.44     1.58  74.42   84.3   0
    the_mummy_walks        135    2.47   5.33     0.83   3.90     6.78  72.57   73.5  12
    wail_of_the_banshee    134    2.66   5.38     1.18   3.92     3.74 133.59  134.0  12

    x unit                   n   apply p99    options p99      ai    p99
    cthulhu                909     0.8    1.3      0.2    0.5      0.3    1.2
    explore                240     1.5    2.6      0.4    0.9     41.4  142.5
    a_little_night_murder  224     1.5    4.1      0.6    2.9      5.7   69.0
    better_with_friends    198     1.7   24.1      0.9    2.3      3.7   33.8
    its_alive              124     1.1    1.9      0.3    0.8      1.1   38.8
    offspring              125     1.3    4.7      0.4    0.8      1.5   45.3
    pay_the_piper          129     1.2    3.6      0.4    3.0      1.5   48.9
    the_ghost_bride         88     1.3    1.8      0.5    0.9      1.0   39.2
    the_mummy_walks        135     1.3    3.1      0.4    2.2      3.7   44.3
    wail_of_the_banshee    134     1.5    2.9      0.7    2.2      2.2   78.5

    after: the door map kept per arrangement of tiles (house.plan); one backwards
    search per decision (links.distances_to); legal actions once; copy_plain

    ms                       n   apply p99    options p99      ai    p99    max  mon
    cthulhu                909    0.09   0.23     0.08   0.28     0.12   0.57    0.8   0
    explore                240    0.96   3.11     0.47   1.62     0.86   1.63    1.7   0
    a_little_night_murder  224    0.92   2.00     0.48   1.29     1.17   2.53    2.6  12
    better_with_friends    198    0.87   2.11     0.55   1.43     1.00   2.40    2.8  14
    its_alive              124    0.60   1.19     0.26   0.76     0.48   1.41    1.4  12
    offspring              125    0.67   2.42     0.32   0.85     0.55   1.17    1.3   0
    pay_the_piper          129    0.59   1.14     0.30   0.66     0.56   1.08    1.1   9
    the_ghost_bride         88    0.76   1.13     0.51   0.86     0.52   1.06    1.1   0
    the_mummy_walks        135    0.61   1.16     0.35   0.71     0.68   1.30    1.3  12
    wail_of_the_banshee    134    0.64   1.45     0.35   0.97     0.67   1.72    2.0  12

    x unit                   n   apply p99    options p99      ai    p99
    cthulhu                909     0.2    0.6      0.2    0.5      0.3    1.2
    explore                240     0.5    1.5      0.2    0.7      0.4    0.8
    a_little_night_murder  224     0.4    0.8      0.2    0.5      0.5    1.1
    better_with_friends    198     0.4    0.9      0.2    0.5      0.4    0.8
    its_alive              124     0.3    0.7      0.1    0.4      0.3    0.5
    offspring              125     0.4    1.4      0.2    0.5      0.3    0.6
    pay_the_piper          129     0.3    0.6      0.2    0.4      0.3    0.6
    the_ghost_bride         88     0.5    0.7      0.3    0.5      0.3    0.7
    the_mummy_walks        135     0.4    0.7      0.2    0.4      0.4    0.8
    wail_of_the_banshee    134     0.4    0.8      0.2    0.5      0.4    0.7
"""

from __future__ import annotations

import argparse
import gc
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
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.haunting import base, flow, monsters, sides
from bot.games.betrayal.state import BetrayalState

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


def measure(game: Game[Any], states: list[Any], repeat: int) -> dict[str, Sample]:
    """Each phase timed on every state (which must be waiting for a seat): the least of
    `repeat` runs, since the machine is shared and a state costs what it costs when
    nothing else is running."""
    found = {phase: Sample() for phase in PHASES}
    for state in states:
        seat = game.to_act(state)
        assert seat is not None
        best = dict.fromkeys(("unit", *PHASES), float("inf"))
        for _ in range(repeat):
            unit, _ = timed(round_trip, game, state)
            options, _ = timed(game.options, state, seat)
            ai, action = timed(game.ai_action, state, seat)
            apply, _ = timed(game.apply, state, seat, action)
            for phase, ms in (("unit", unit), ("options", options), ("ai", ai),
                              ("apply", apply)):
                best[phase] = min(best[phase], ms)
        for phase in PHASES:
            found[phase].ms.append(best[phase])
            found[phase].ratio.append(best[phase] / best["unit"])
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
def ending_held(until: int) -> Iterator[None]:
    """No side wins before haunt round `until` (while a hero lives): long haunts."""
    settle = flow.settle

    def held(ctx: Ctx) -> None:
        state = ctx.state
        if state.haunt is None or state.haunt.round >= until or not sides.heroes(state):
            settle(ctx)

    with mock.patch.object(flow, "settle", held):
        yield


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


def crowd_in(state: BetrayalState, count: int) -> None:
    """At least `count` monsters, of the haunt's own kinds, spread over the house (a
    haunt with no monsters keeps none)."""
    kinds = [m.kind for m in state.monsters] or list(base.for_state(state).data.monsters)
    ctx = Ctx(state)
    for n in range(len(kinds) and max(0, count - len(sides.monsters(state)))):
        monsters.spawn(ctx, kinds[n % len(kinds)], (7 * n + 3) % len(state.tiles), quiet=True)


def betrayal_states(houses: int, seed: int, steps: int, per_haunt: int, hold: int,
                    crowd: int, only: set[str]) -> dict[str, list[Any]]:
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
        crowd_in(state, crowd)
        with ending_held(hold):
            seen = play(game, state, HAUNT_CAP)
        found.setdefault(key, []).extend(seen[len(seen) // 2:])
    return found


def rows(name: str, states: list[Any], result: dict[str, Sample]) -> tuple[str, str]:
    """The line of the ms table and the line of the ratio table."""
    def cells(values: Callable[[Sample], list[float]], fmt: str) -> str:
        return "   ".join(f"{statistics.median(values(result[p])):{fmt}} "
                           f"{pct(values(result[p]), 0.99):{fmt}}" for p in PHASES)
    head = f"{name:<22}{len(states):>4}  "
    crowd = max(sum(m.alive for m in getattr(s, "monsters", [])) for s in states)
    return (head + cells(lambda s: s.ms, "6.2f") + f" {max(result['ai'].ms):6.1f} {crowd:3}",
            head + cells(lambda s: s.ratio, "6.1f"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--houses", type=int, default=4, help="full 47-tile houses to build")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--steps", type=int, default=60,
                        help="exploring actions timed per full house")
    parser.add_argument("--haunt-houses", type=int, default=2,
                        help="houses each haunt is played out in")
    parser.add_argument("--hold", type=int, default=8,
                        help="no side wins a haunt before this round (0: as it falls)")
    parser.add_argument("--crowd", type=int, default=12,
                        help="monsters put in at the haunt's start, for haunts that have any")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs per state and phase; the least counts")
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
                                            args.haunt_houses, args.hold, args.crowd,
                                            only).items():
            games[name] = (betrayal.GAME, states)
    print(f"states gathered in {time.perf_counter() - started:.1f}s")
    gc.collect()
    gc.freeze()  # the thousands of states held here are not the bot's: keep them out of GC
    lines = []
    for name, (game, states) in games.items():
        held = haunt_held_off() if name == "explore" else ending_held(args.hold) \
            if game is betrayal.GAME else nullcontext()
        with held:
            lines.append(rows(name, states, measure(game, states, args.repeat)))
            print(lines[-1][0], flush=True)
    print(f"\n{'ms':<22}{'n':>4}   apply p99    options p99      ai    p99    max  mon")
    print("\n".join(ms for ms, _ in lines))
    print(f"\n{'x unit':<22}{'n':>4}   apply p99    options p99      ai    p99")
    print("\n".join(ratio for _, ratio in lines))
    print(f"total {time.perf_counter() - started:.1f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
