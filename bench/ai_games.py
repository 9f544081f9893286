"""How long AI-only games of Cthulhu in the House last: a benchmark script, not a test.

Plays N games per player count (2..6 by default) with every seat an AI, straight through
the pure engine (GAME.setup / GAME.ai_action / GAME.apply, no Discord, no renderer), and
prints the mean / median / max number of actions per rumble and per game. An action is
one `apply` call: a move, a fight, or a pick after a portal. A game that hits --cap is
stopped and counted as capped (its unfinished rumble counts with the actions it took).

    .venv/bin/python bench/ai_games.py                # 50 games per player count
    .venv/bin/python bench/ai_games.py --games 200 --players 4

Recorded with the defaults (50 games per count, seeds 0..49); actions per rumble, then
per game, as mean / median / max. No game hit the cap.

    before: the AI had no plan when no fight was available, so lone characters
    random-walked (4 players, seed 7: rumbles of 121, 47 and 43 actions)
      players  rumble                 game
      2        59.4 / 51.5 / 199      178.2 / 175.5 / 299
      3        52.3 / 46 / 142        157.0 / 149 / 249
      4        52.5 / 45.5 / 150      157.4 / 145.5 / 301
      5        52.4 / 45 / 125        157.1 / 140.5 / 266
      6        47.8 / 43 / 113        143.5 / 139.5 / 253

    after: with no fight available, moves are scored by how much closer they bring
    characters (shortest paths over the passages; see `gathering` in ai.py)
    (4 players, seed 7: rumbles of 28, 31 and 34 actions)
      players  rumble                 game
      2        30.5 / 30 / 39         91.4 / 91.5 / 106
      3        30.3 / 30 / 40         90.9 / 91 / 103
      4        30.1 / 30 / 39         90.3 / 90 / 99
      5        30.1 / 30 / 36         90.2 / 90 / 100
      6        30.3 / 30 / 39         91.0 / 91 / 105

    With --games 200 --seed 1000 the 4-player rumbles went from 51.1 / 45 / 161 to
    30.3 / 30 / 41 (every count: max rumble 149..198 before, 38..41 after).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the project importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.games.base import PlayerInfo
from bot.games.cthulhu import GAME

DEFAULT_CAP = 20000


@dataclass
class Tally:
    rumbles: list[int] = field(default_factory=list)  # actions per rumble
    games: list[int] = field(default_factory=list)  # actions per game
    capped: int = 0


def play(count: int, seed: int, cap: int) -> tuple[list[int], int, bool]:
    """One AI-only game: actions per rumble, actions in all, and whether it was capped."""
    state, _ = GAME.setup([PlayerInfo(f"AI{i}", ai=True) for i in range(count)], seed, {})
    rumbles: list[int] = []
    in_rumble = total = 0
    while not GAME.is_over(state) and total < cap:
        seat = GAME.to_act(state)
        assert seat is not None
        rumble = state.rumble
        state, _ = GAME.apply(state, seat, GAME.ai_action(state, seat))
        in_rumble += 1
        total += 1
        if state.over or state.rumble != rumble:
            rumbles.append(in_rumble)
            in_rumble = 0
    capped = not GAME.is_over(state)
    if capped:
        rumbles.append(in_rumble)
    return rumbles, total, capped


def summary(values: list[int]) -> str:
    return f"{statistics.fmean(values):.1f} / {statistics.median(values):g} / {max(values)}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="games per player count")
    parser.add_argument("--seed", type=int, default=0, help="first seed (then seed+1, ...)")
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4, 5, 6],
                        help="player counts to play (default 2 3 4 5 6)")
    parser.add_argument("--cap", type=int, default=DEFAULT_CAP,
                        help=f"actions after which a game is stopped (default {DEFAULT_CAP})")
    args = parser.parse_args(argv)
    print(f"{args.games} AI-only games per player count, seeds {args.seed}.."
          f"{args.seed + args.games - 1}; actions per rumble and per game")
    print(f"{'players':<9}{'rumble mean/median/max':<25}{'game mean/median/max':<24}"
          f"{'capped':<8}seconds")
    for count in args.players:
        tally = Tally()
        started = time.perf_counter()
        for seed in range(args.seed, args.seed + args.games):
            rumbles, total, capped = play(count, seed, args.cap)
            tally.rumbles += rumbles
            tally.games.append(total)
            tally.capped += capped
        elapsed = time.perf_counter() - started
        print(f"{count:<9}{summary(tally.rumbles):<25}{summary(tally.games):<24}"
              f"{tally.capped:<8}{elapsed:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
