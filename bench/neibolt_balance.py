"""How often each side wins a Neibolt House scenario when the AI plays every seat: a
script, not a test (the brief's balance measure: 40 seeded games at 4 players, each
side should win 30-70%).

Each game is tests/betrayal_haunt_helpers.outcome(key, seed, players): a house explored
by the AI with the haunt roll held back, the scenario begun by key, played to its end.

    .venv/bin/python bench/neibolt_balance.py all_living_things_must_abide
    .venv/bin/python bench/neibolt_balance.py all_living_things_must_abide --players 3 5 6

Figures (issue 9, 2026-12-01, seeds 1-40): All Living Things Must Abide at 4 players:
heroes 18, traitor 22 (3 players: 19/21, 5: 24/16, 6: 17/23).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.betrayal_haunt_helpers import outcome


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("keys", nargs="+", help="scenario keys (data/neibolt/haunts.yaml)")
    parser.add_argument("--players", type=int, nargs="+", default=[4])
    parser.add_argument("--seeds", type=int, default=40, help="seeds 1..N")
    args = parser.parse_args(argv)
    for key in args.keys:
        for players in args.players:
            wins: Counter[str] = Counter()
            rounds: list[int] = []
            for seed in range(1, args.seeds + 1):
                state = outcome(key, seed, players)
                assert state.haunt is not None
                wins[state.haunt.winner or "unfinished"] += 1
                rounds.append(state.haunt.round)
            print(f"{key} · {players} players · {args.seeds} games: "
                  + ", ".join(f"{side} {n}" for side, n in sorted(wins.items()))
                  + f" · rounds max {max(rounds)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
