"""What the rules engines cost per action and per AI decision: a benchmark, not a test.

For every state of a set of AI-played games it times, in this order (the order the
sessions layer meets them: the prompt, then the AI's pick, then the action):

    unit      one JSON round trip of the same state's stored form, json.loads(json.dumps(
              raw)) with raw = GAME.dump(state) made beforehand: the yardstick, with
              no engine code in it (so that speeding the engine up does not move it)
    options   GAME.options(state, seat): what the prompt lists
    ai        GAME.ai_action(state, seat): one AI decision
    apply     GAME.apply(state, seat, the AI's action): the copy, the rules, the events
    dump      GAME.dump(state): what the engine adds to each save

each the least of --repeat runs, and prints median / p99 / max in ms and median / p99
as a ratio to `unit` of the same state, since the shared machine drifts and the ratios
do not. The states are gathered first and then frozen out of the garbage collector
(gc.freeze): collecting the thousands of states this script holds, which the bot never
holds, would otherwise show up as the engine's p99.

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

Recorded on the shared 2-core box, quiet (load average about 1), with the defaults
(seed 1, 4 houses, each haunt in 2 of them, --crowd 12, --hold 8, --repeat 3): the same
states before and after, since the engine's choices did not change. Each row: before,
ms | after, ms | x unit (median/p99) before > after. The haunts timed had up to 12-14
monsters on the board (pay_the_piper 9; offspring and the_ghost_bride have none).

    before: the Layout rebuilt on every through_door; one search of the house per move
    weighed; legal actions found three times per decision; copy = load(dump(state));
    dump = dataclasses.asdict.
    after: the door map kept per arrangement of tiles (house.plan); one backwards search
    per decision (links.distances_to); legal actions once; copy and dump by plain.py.

    one AI decision         n   median    p99  max | median   p99  max | med/p99
    cthulhu               909     0.13   0.56    1 |   0.13  0.52  0.6 | 1.5/5.6 > 1.6/6.1
    explore               240    56.23 166.90  236 |   0.57  1.23  1.4 | 169.2/566.7 > 2.2/3.9
    a_little_night_murder 224     8.68 103.70  108 |   0.82  1.52  2.2 | 20.7/223.4 > 2.7/5.4
    better_with_friends   198     7.71  71.98   84 |   0.89  2.43  2.6 | 14.3/149.4 > 2.3/4.4
    its_alive             124     1.99  63.95   65 |   0.50  1.08  1.1 | 4.3/179.8 > 1.4/2.8
    offspring             125     2.97  87.40   89 |   0.60  1.39  1.4 | 6.6/209.8 > 1.6/3.1
    pay_the_piper         129     4.35 129.49  153 |   0.57  1.17  1.4 | 6.7/245.8 > 1.6/3.4
    the_ghost_bride        88     1.74 122.87  152 |   0.55  1.75  1.8 | 4.4/202.9 > 1.7/4.0
    the_mummy_walks       135     8.28  84.35  116 |   0.73  1.42  1.5 | 13.8/161.9 > 2.0/4.0
    wail_of_the_banshee   134     4.72 161.48  193 |   0.67  1.25  1.3 | 8.3/308.6 > 1.9/3.9

    one apply               n   median    p99  max | median   p99  max | med/p99
    cthulhu               909     0.34   0.70    1 |   0.09  0.23  0.3 | 4.3/6.4 > 1.2/3.4
    explore               240     2.02   3.79    4 |   0.60  1.77  2.2 | 5.8/10.5 > 2.3/7.0
    a_little_night_murder 224     2.58   5.54    6 |   0.62  1.34  1.6 | 6.1/14.2 > 2.0/4.4
    better_with_friends   198     3.73  49.05   84 |   0.74  1.85  2.5 | 6.8/98.0 > 1.9/4.7
    its_alive             124     2.14   3.29    3 |   0.63  1.36  1.5 | 4.5/8.3 > 1.6/3.4
    offspring             125     2.54   8.94   14 |   0.67  3.01  3.8 | 5.2/21.6 > 2.1/7.6
    pay_the_piper         129     2.93   7.74    8 |   0.62  1.81  2.0 | 5.1/12.7 > 1.7/3.4
    the_ghost_bride        88     2.34   4.85    5 |   0.84  1.97  2.0 | 5.2/7.6 > 2.5/4.0
    the_mummy_walks       135     3.12   8.37    9 |   0.65  1.22  1.3 | 5.6/13.7 > 1.8/3.2
    wail_of_the_banshee   134     3.07   9.34   10 |   0.64  1.35  1.4 | 6.2/12.8 > 1.8/3.6

    options()               n   median    p99  max | median   p99  max | med/p99
    cthulhu               909     0.08   0.27    0 |   0.08  0.22  0.3 | 1.0/2.4 > 1.0/2.5
    explore               240     0.59   1.21    1 |   0.31  0.91  1.2 | 1.7/3.6 > 1.1/3.3
    a_little_night_murder 224     0.96   4.09    4 |   0.33  0.72  1.1 | 2.3/10.1 > 1.0/2.5
    better_with_friends   198     1.94   5.62    6 |   0.42  1.29  1.4 | 3.6/9.5 > 1.1/2.5
    its_alive             124     0.63   1.35    2 |   0.27  0.88  0.9 | 1.3/3.3 > 0.7/2.4
    offspring             125     0.67   1.61    2 |   0.31  0.97  1.2 | 1.4/3.6 > 1.0/2.4
    pay_the_piper         129     0.83   5.55    6 |   0.30  0.77  0.9 | 1.7/8.6 > 0.8/2.1
    the_ghost_bride        88     0.83   2.38    3 |   0.60  1.49  1.5 | 1.8/3.8 > 1.7/2.9
    the_mummy_walks       135     1.11   5.50    6 |   0.35  0.74  0.8 | 2.0/10.3 > 1.0/2.1
    wail_of_the_banshee   134     1.32   6.66    8 |   0.35  0.88  0.9 | 2.6/9.1 > 1.0/2.6

    dump (each save)        n   median    p99  max | median   p99  max | med/p99
    cthulhu               909     0.29   0.59    1 |   0.06  0.10  0.1 | 3.6/4.0 > 0.7/0.9
    explore               240     0.90   1.62    2 |   0.18  0.38  0.4 | 2.8/4.3 > 0.7/0.9
    a_little_night_murder 224     1.13   1.64    2 |   0.21  0.38  0.4 | 2.7/3.9 > 0.7/0.9
    better_with_friends   198     1.40   2.52    3 |   0.24  0.46  0.5 | 2.8/4.6 > 0.7/1.0
    its_alive             124     1.26   1.51    2 |   0.23  0.42  0.4 | 2.9/3.6 > 0.7/0.9
    offspring             125     1.32   2.58    3 |   0.22  0.44  0.4 | 3.0/5.1 > 0.7/0.9
    pay_the_piper         129     1.41   2.86    3 |   0.24  0.54  0.5 | 3.0/3.8 > 0.7/1.0
    the_ghost_bride        88     1.18   2.48    3 |   0.21  0.44  0.5 | 2.9/4.0 > 0.7/0.9
    the_mummy_walks       135     1.50   2.67    3 |   0.24  0.48  0.5 | 2.9/4.1 > 0.7/1.1
    wail_of_the_banshee   134     1.41   2.53    3 |   0.23  0.43  0.5 | 2.8/4.2 > 0.7/1.2
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
from bot.games.betrayal import haunt_roll
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.haunting import base, flow, monsters, sides
from bot.games.betrayal.state import BetrayalState

PHASES = ("options", "ai", "apply", "dump")
TITLES = {"options": "options() for the prompt", "ai": "one AI decision",
          "apply": "one apply", "dump": "dump, the save's share"}
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


def round_trip(raw: dict[str, Any]) -> Any:
    return json.loads(json.dumps(raw))


def measure(game: Game[Any], states: list[Any], repeat: int) -> dict[str, Sample]:
    """Each phase timed on every state (which must be waiting for a seat): the least of
    `repeat` runs, since the machine is shared and a state costs what it costs when
    nothing else is running."""
    found = {phase: Sample() for phase in PHASES}
    for state in states:
        seat = game.to_act(state)
        assert seat is not None
        best = dict.fromkeys(("unit", *PHASES), float("inf"))
        raw = game.dump(state)
        for _ in range(repeat):
            unit, _ = timed(round_trip, raw)
            options, _ = timed(game.options, state, seat)
            ai, action = timed(game.ai_action, state, seat)
            apply, _ = timed(game.apply, state, seat, action)
            dump, _ = timed(game.dump, state)
            for phase, ms in (("unit", unit), ("options", options), ("ai", ai),
                              ("apply", apply), ("dump", dump)):
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
    with mock.patch.object(haunt_roll, "starts", lambda total, omens: False), \
            mock.patch.object(haunt_roll, "stalled", lambda state: False):
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
    dealt = [raw for raw in built[:per_haunt] for _ in range(len(haunt_roll.haunts()))]
    for state in (game.load(raw) for raw in in_haunts(dealt)):
        key = state.haunt.key
        if only and key not in only:
            continue
        crowd_in(state, crowd)
        with ending_held(hold):
            seen = play(game, state, HAUNT_CAP)
        found.setdefault(key, []).extend(seen[len(seen) // 2:])
    return found


def summary(result: dict[str, Sample]) -> dict[str, list[float]]:
    """Per phase: ms median, p99, max; x unit median, p99."""
    return {p: [statistics.median(s.ms), pct(s.ms, 0.99), max(s.ms),
                statistics.median(s.ratio), pct(s.ratio, 0.99)]
            for p, s in result.items()}


def table(phase: str, figures: dict[str, tuple[int, int, dict[str, list[float]]]]) -> str:
    """One phase over every game: n states, ms median / p99 / max, x unit median / p99,
    and the most monsters on the board."""
    lines = [f"{TITLES[phase]:<26}{'n':>4}  median    p99    max   x med  x p99  mon"]
    for name, (count, crowd, found) in figures.items():
        med, p99, top, xmed, xp99 = found[phase]
        lines.append(f"{name:<26}{count:>4}  {med:6.2f} {p99:6.2f} {top:6.1f}  "
                     f"{xmed:6.1f} {xp99:6.1f} {crowd:4}")
    return "\n".join(lines)


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
    parser.add_argument("--json", default="", help="also write the figures to this file")
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
    figures: dict[str, tuple[int, int, dict[str, list[float]]]] = {}
    for name, (game, states) in games.items():
        held = haunt_held_off() if name == "explore" else ending_held(args.hold) \
            if game is betrayal.GAME else nullcontext()
        with held:
            crowd = max(sum(m.alive for m in getattr(s, "monsters", [])) for s in states)
            figures[name] = (len(states), crowd, summary(measure(game, states, args.repeat)))
            print(f"{name}: ai p99 {figures[name][2]['ai'][1]:.2f} ms", flush=True)
    for phase in PHASES:
        print("\n" + table(phase, figures))
    if args.json:
        Path(args.json).write_text(json.dumps(figures), encoding="utf-8")
    print(f"total {time.perf_counter() - started:.1f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
