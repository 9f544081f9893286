"""Balance of a Neibolt House scenario when the AI plays every seat: a script, not a test.

The brief of issue 9: 40 AI games at 4 players (seeds 1..40, tests/betrayal_haunt_helpers.
outcome) and each side should win 30-70% of them. Printed: the wins of each side, why
they won, and the haunt's rounds.

    .venv/bin/python bench/neibolt_balance.py separate_nightmares
    .venv/bin/python bench/neibolt_balance.py separate_nightmares --players 5 --seeds 80
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.betrayal_haunt_helpers import outcome


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("key")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seeds", type=int, default=40)
    args = parser.parse_args()
    start = time.process_time()
    wins: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    rounds: list[int] = []
    for seed in range(1, args.seeds + 1):
        state = outcome(args.key, seed, args.players)
        assert state.haunt is not None
        wins[state.haunt.winner or "unfinished"] += 1
        reasons[state.haunt.reason] += 1
        rounds.append(state.haunt.round)
    print(f"{args.key}, {args.players} players, seeds 1..{args.seeds}: "
          f"heroes {wins['heroes']}, traitor {wins['traitor']}, other {wins['unfinished']}")
    for reason, count in reasons.most_common():
        print(f"  {count:3d}  {reason}")
    rounds.sort()
    print(f"rounds: median {rounds[len(rounds) // 2]}, max {rounds[-1]}; "
          f"{time.process_time() - start:.1f} s")


if __name__ == "__main__":
    main()
