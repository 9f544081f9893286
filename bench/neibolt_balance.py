"""How often each side wins a COME HOME TO EVIL scenario when the AI plays every seat:
a script, not a test (the brief's balance measure: 40 games at 4 players, each side
30-70%).

Each game is tests/betrayal_haunt_helpers.outcome(key, seed, players): the AI explores a
Neibolt house of 25 rooms with the haunt roll held back, the scenario is begun by key
and played to its end.

    .venv/bin/python bench/neibolt_balance.py henry_on_the_hunt
    .venv/bin/python bench/neibolt_balance.py henry_on_the_hunt --players 3 4 5 6 --seeds 40

Figures (henry_on_the_hunt, seeds 1-40, 2026-12-01, main at 1b58cde): heroes / traitor
27/13 at 3 players, 23/17 at 4, 22/18 at 5, 24/16 at 6; 0 games unfinished; at 4 players
one game ran out the last round (15: Henry slips away), the rest ended with Henry dead
(23) or his list done (16).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.betrayal_haunt_helpers import outcome


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("keys", nargs="+", help="scenario keys (data/neibolt/haunts.yaml)")
    parser.add_argument("--players", type=int, nargs="+", default=[4])
    parser.add_argument("--seeds", type=int, default=40, help="seeds 1..N")
    args = parser.parse_args(argv)
    for key in args.keys:
        for players in args.players:
            began = time.process_time()
            wins: Counter[str] = Counter()
            rounds: list[int] = []
            for seed in range(1, args.seeds + 1):
                state = outcome(key, seed, players)
                assert state.haunt is not None
                wins[state.haunt.winner or "unfinished"] += 1
                rounds.append(state.haunt.round)
            print(f"{key} {players}p: heroes {wins['heroes']} traitor {wins['traitor']} "
                  f"unfinished {wins['unfinished']} longest {max(rounds)} rounds "
                  f"({time.process_time() - began:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
