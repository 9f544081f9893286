"""Whether every Betrayal haunt ends when the AI plays every seat: a script, not a test.

Haunt mode (the default): for each (player count, seed) the AI explores a house of 25
rooms with the haunt roll held back (tests/betrayal_haunt_helpers.explored), then each
haunt is begun on a copy of that house by key, as if the chart had named it, and the
AI plays it to the end. Natural mode (--natural): setup, exploration and the haunt the
chart picks, all by the AI, to catch a haunt that never starts. A game that reaches
--cap actions or --max-rounds haunt rounds is stopped and counted as capped.

    .venv/bin/python bench/haunt_endings.py --seeds 20              # every haunt, 3-6 players
    .venv/bin/python bench/haunt_endings.py --haunt pay_the_piper --players 4 --seeds 100
    .venv/bin/python bench/haunt_endings.py --natural --seeds 200 --jobs 2

Printed per haunt and player count: games, heroes' wins, traitor's wins, capped games,
haunt length in rounds (median / p99 / max) and the seconds the games took (CPU time of
whichever process played them). --jobs 2 plays half the seeds in one extra process
(the machine is shared: never more).

Figures: see the bottom of this docstring (filled in from the full sweep).
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the project importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.games.base import PlayerInfo
from bot.games.betrayal import GAME
from bot.games.betrayal.haunt import haunts
from bot.games.betrayal.state import BetrayalState
from tests.betrayal_haunt_helpers import answer_pending, begin, explored

DEFAULT_CAP = 20000  # actions in one game (a haunt takes a few hundred)
DEFAULT_MAX_ROUNDS = 300  # haunt rounds (Pay the Piper was once seen at round 442)
NATURAL = "(natural)"


@dataclass(frozen=True)
class Result:
    key: str  # the haunt played ("" when a natural game never reached one)
    players: int
    seed: int
    winner: str  # "heroes" | "traitor" | "" (capped, or no haunt)
    rounds: int
    capped: bool
    seconds: float
    reason: str = ""


def play(state: BetrayalState, cap: int, max_rounds: int) -> tuple[BetrayalState, bool]:
    """AI plays every seat until the game is over; True when a limit stopped it."""
    for _ in range(cap):
        if state.over or (state.haunt is not None and state.haunt.round > max_rounds):
            break
        seat = GAME.to_act(state)
        assert seat is not None
        state, _ = GAME.apply(state, seat, GAME.ai_action(state, seat))
    return state, not state.over


def result(key: str, players: int, seed: int, state: BetrayalState, capped: bool,
           started: float) -> Result:
    haunt = state.haunt
    return Result(key, players, seed, haunt.winner if haunt and not capped else "",
                  haunt.round if haunt else 0, capped, time.process_time() - started,
                  haunt.reason if haunt else "")


def haunt_games(task: tuple[int, int, tuple[str, ...], int, int]) -> list[Result]:
    """Every haunt in `keys` on one seed's explored house."""
    players, seed, keys, cap, max_rounds = task
    house = explored(players, seed)
    found = []
    for key in keys:
        started = time.process_time()
        state = answer_pending(begin(house, key)[0])
        state, capped = play(state, cap, max_rounds)
        found.append(result(key, players, seed, state, capped, started))
    return found


def natural_game(task: tuple[int, int, tuple[str, ...], int, int]) -> list[Result]:
    """Setup, exploration and the chart's haunt, all by the AI."""
    players, seed, _, cap, max_rounds = task
    started = time.process_time()
    infos = [PlayerInfo(f"AI{i}", ai=True) for i in range(players)]
    state, _ = GAME.setup(infos, seed, {"today": "06-01"})
    state, capped = play(state, cap, max_rounds)
    key = state.haunt.key if state.haunt else ""
    return [result(key, players, seed, state, capped, started)]


def run(tasks: list[tuple[int, int, tuple[str, ...], int, int]], natural: bool,
        jobs: int) -> list[Result]:
    """Play the tasks here, and half of them in one extra process with --jobs 2."""
    work = natural_game if natural else haunt_games
    if jobs < 2 or len(tasks) < 2:
        return [r for task in tasks for r in work(task)]
    with multiprocessing.get_context("fork").Pool(1) as pool:
        theirs = pool.map_async(work, tasks[1::2], chunksize=1)
        ours = [r for task in tasks[::2] for r in work(task)]
        return ours + [r for batch in theirs.get() for r in batch]


def p99(values: Sequence[int]) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, -(-99 * len(ordered) // 100) - 1)]


def table(results: Iterable[Result]) -> list[str]:
    groups: dict[tuple[str, int], list[Result]] = defaultdict(list)
    for r in results:
        groups[(r.key or NATURAL, r.players)].append(r)
    lines = [f"{'haunt':<24}{'players':>8}{'games':>7}{'heroes':>8}{'traitor':>8}"
             f"{'capped':>8}  {'rounds med/p99/max':<20}{'seconds':>8}"]
    for (key, players), rs in sorted(groups.items()):
        rounds = [r.rounds for r in rs]
        spread = f"{statistics.median(rounds):g} / {p99(rounds)} / {max(rounds)}"
        lines.append(f"{key:<24}{players:>8}{len(rs):>7}"
                     f"{sum(r.winner == 'heroes' for r in rs):>8}"
                     f"{sum(r.winner == 'traitor' for r in rs):>8}"
                     f"{sum(r.capped for r in rs):>8}  {spread:<20}"
                     f"{sum(r.seconds for r in rs):>8.1f}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=500, help="seeds 0..N-1 (default 500)")
    parser.add_argument("--first", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--players", type=int, nargs="*", default=[3, 4, 5, 6],
                        help="player counts (default 3 4 5 6)")
    parser.add_argument("--haunt", nargs="*", default=sorted(haunts()),
                        choices=sorted(haunts()), help="haunts to play (default all)")
    parser.add_argument("--natural", action="store_true",
                        help="play whole games: the chart picks the haunt")
    parser.add_argument("--cap", type=int, default=DEFAULT_CAP,
                        help=f"actions after which a game is stopped (default {DEFAULT_CAP})")
    parser.add_argument("--max-rounds", type=int, default=DEFAULT_MAX_ROUNDS,
                        help=f"haunt rounds after which a game is stopped "
                             f"(default {DEFAULT_MAX_ROUNDS})")
    parser.add_argument("--jobs", type=int, default=1, choices=[1, 2],
                        help="2: one extra process plays half the seeds")
    args = parser.parse_args(argv)
    keys = tuple(args.haunt)
    tasks = [(players, seed, keys, args.cap, args.max_rounds) for players in args.players
             for seed in range(args.first, args.first + args.seeds)]
    mode = "natural games" if args.natural else f"{len(keys)} haunts on explored houses"
    print(f"{mode}; players {' '.join(map(str, args.players))}; seeds {args.first}.."
          f"{args.first + args.seeds - 1}; cap {args.cap} actions / {args.max_rounds} rounds")
    started = time.perf_counter()
    results = run(tasks, args.natural, args.jobs)
    print("\n".join(table(results)))
    for r in sorted(results, key=lambda r: (r.key, r.players, r.seed)):
        if r.capped:
            print(f"capped: {r.key or NATURAL} players {r.players} seed {r.seed} "
                  f"(round {r.rounds})")
    total = sum(r.capped for r in results)
    longest = max(results, key=lambda r: r.rounds)
    print(f"{len(results)} games, {total} capped; longest haunt {longest.rounds} rounds "
          f"({longest.key or NATURAL}, {longest.players} players, seed {longest.seed}); "
          f"wall time {time.perf_counter() - started:.0f} s")
    return 1 if total else 0


if __name__ == "__main__":
    raise SystemExit(main())
