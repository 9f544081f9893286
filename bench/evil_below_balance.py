"""IT: Evil Below balance: how often a team of AI teammates wins, by player count.

    python bench/evil_below_balance.py [--seeds N] [--players 2-7] [--start S]
                                       [--style careful|rushed|patient]

Every seat is the careful AI (bot/games/evilbelow/ai.py); out-of-turn actions (a Bike
ride to make up a fight, Eddie's cards) are offered to the other seats before each
action of the seat the game waits for. Prints, per player count, the win rate and how
the other games were lost, so the designed numbers in data/evilbelow/ can be tuned.
`--style rushed` fights whenever a fight is possible, `--style patient` waits for a
huge Fight Stack: both should lose more than the careful team does.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import ai_strength
from bot.core.actions import Action
from bot.games.base import PlayerInfo
from bot.games.evilbelow import EvilBelowGame, ai
from bot.games.evilbelow.state import EvilBelowState

GAME = EvilBelowGame()
STEP_CAP = 5000


@contextmanager
def _patient() -> Iterator[None]:
    """Fight only when a fight promises a lot (two spaces of Strength)."""
    with mock.patch.object(ai, "FIGHT_GAIN", 2.0):
        yield


# Play styles: the AI as shipped (careful), bench/ai_strength.py's rushed team, and one
# that waits for a huge Fight Stack.
STYLES: dict[str, Callable[[], AbstractContextManager[None]]] = {
    **ai_strength.STYLES["evilbelow"], "patient": _patient}


def next_move(state: EvilBelowState) -> tuple[int, Action]:
    """An out-of-turn AI action if any seat wants one, else the acting seat's."""
    actor = GAME.to_act(state)
    assert actor is not None
    for seat in range(len(state.players)):
        if seat != actor:
            offered = GAME.ai_offer(state, seat)
            if offered is not None:
                return seat, offered
    return actor, GAME.ai_action(state, actor)


def play(count: int, seed: int) -> EvilBelowState:
    state, _ = GAME.setup([PlayerInfo(f"AI {i + 1}", ai=True) for i in range(count)], seed, {})
    for _ in range(STEP_CAP):
        if state.over:
            break
        seat, action = next_move(state)
        state, _ = GAME.apply(state, seat, action)
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=200)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--players", default="2-7", help="a count or a range, e.g. 3-4")
    parser.add_argument("--style", choices=sorted(STYLES), default="careful")
    args = parser.parse_args()
    with STYLES[args.style]():
        run(args)


def run(args: argparse.Namespace) -> None:
    low, _, high = args.players.partition("-")
    for count in range(int(low), int(high or low) + 1):
        began = time.perf_counter()
        results: Counter[str] = Counter()
        turns = 0
        for seed in range(args.start, args.start + args.seeds):
            state = play(count, seed)
            results[state.result or "unfinished"] += 1
            turns += state.turns_played
        wins = results.pop("win", 0)
        losses = ", ".join(f"{k} {v}" for k, v in results.most_common())
        rate = 100 * wins / args.seeds
        print(f"{args.style}, {count} players: won {wins}/{args.seeds} ({rate:.0f}%),"
              f" lost: {losses or 'none'}; {turns / args.seeds:.1f} turns a game,"
              f" {time.perf_counter() - began:.1f} s", flush=True)


if __name__ == "__main__":
    main()
