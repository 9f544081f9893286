"""How long AI-only games of Cthulhu in the House last: a benchmark script, not a test.

Plays N games per player count (2..6 by default) with every seat an AI, straight through
the pure engine (GAME.setup / GAME.ai_action / GAME.apply, no Discord, no renderer), and
prints the mean / median / max number of actions per rumble and per game. An action is
one `apply` call: a move, a fight, or a pick after a portal. A game that hits --cap is
stopped and counted as capped (its unfinished rumble counts with the actions it took).

    .venv/bin/python bench/ai_games.py                # 50 games per player count
    .venv/bin/python bench/ai_games.py --games 200 --players 4

Recorded with 50 games per count, seeds 0..49 (actions per rumble, then per game):

    before (AI without a plan when no fight is available)
      players  rumble mean/median/max  game mean/median/max  capped
      2        112.7 / 38 / 2245       338.2 / 203 / 2391    0
      3        96.1 / 39 / 1329        288.4 / 206 / 1443    0
      4        97.6 / 44 / 1112        292.9 / 221 / 1254    0
      5        100.1 / 51 / 849        300.2 / 254 / 1015    0
      6        84.3 / 46 / 725         252.8 / 216 / 829     0

    after (lone characters are steered together, shortest paths over the passages)
      players  rumble mean/median/max  game mean/median/max  capped
      2        20.6 / 19 / 35          61.7 / 61 / 78        0
      3        21.7 / 21 / 38          65.0 / 64 / 86        0
      4        21.4 / 21 / 38          64.3 / 64 / 81        0
      5        21.5 / 21 / 37          64.6 / 64 / 81        0
      6        21.8 / 21 / 41          65.3 / 65 / 81        0
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
