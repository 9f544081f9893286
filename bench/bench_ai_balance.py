"""How AI-only tables play, game by game: who wins, how long games last, and whether
an AI seat loops, stalls, misses a sure win or tries an illegal move. A script, not a
test (bench/ai_strength.py measures strength against random tables; this one watches
the AI's own play).

    .venv/bin/python bench/bench_ai_balance.py                     # every game, 30 seeds
    .venv/bin/python bench/bench_ai_balance.py --game cthulhu --players 2-6 --seeds 40
    .venv/bin/python bench/bench_ai_balance.py --game betrayal --edition neibolt
    .venv/bin/python bench/bench_ai_balance.py --game haunts --players 4 --seeds 10

Every seat is the AI, played as the sessions layer plays it: an out-of-turn offer
first (`Game.ai_offer`), else the seat to act (`Game.ai_action`). `betrayal` plays
whole games (setup, exploration, the haunt the chart names); `haunts` begins each
haunt by key on an explored house (tests/betrayal_haunt_helpers, as
bench/haunt_endings.py does), so every haunt is seen at every table size.

Watched at every step (the bench is the judge: it reads the whole state, the AI never):
- illegal: the AI's action is not one of the seat's `options`, or `apply` refuses it;
- loop: the whole stored state (its Rng too) comes back, so the game would repeat for
  ever (the AI is deterministic for a state); the game is stopped there;
- dither: the position comes back within one turn (the state but its Rng; in
  Cthulhu, whose turns are one action each, where everyone stands, within a rumble);
- capped: the game reaches --cap actions;
- delayed win: an option would have ended the game won by the acting seat's side
  whatever the dice and whatever the seat cannot see (tried in the state and in --tries
  shadows of it, tests/test_ai_views.py's: what is face down dealt otherwise, other
  dice), and the AI's own action would not have (often harmless: the win comes a step
  later);
- thrown win: a game whose side had such a sure win and did not win it in the end.

Printed per game and table size: games, wins by side (Betrayal: heroes / traitor /
none, with the haunts; Evil Below: won / how lost; Cthulhu: the seat that won, by its
place after the first player), actions a game (median / max) and the counts above,
with the first example of each (--examples N: the first N).

Figures (AI audit, second pass; the working tree of that day, Evil Below's AI with its
WIN_SHOT; seeds 0-29 a cell, 3 min CPU for the default games, 1 min for Neibolt): no
illegal action, no loop, no game capped, no sure win thrown away, in 765 games (with the 195 below).
    Cthulhu 2-6p: winners' seats spread about evenly (2p: seat 0 12, seat 1 14, shared
      4); 88-92 actions a game (max 104); 5 dithers, all at 2 players (two seats pull one
      character to and fro: seed 8, steps 27-30); 0 at 3-6.
    Evil Below won 2p 12, 3p 23, 4p 19, 5p 13, 6p 15, 7p 15 of 30 (lost mostly to a
      Loser's Bravery and the Evil Influence track); 118-157 actions (max 478).
    Betrayal heroes / traitor: classic 3p 12/18, 4p 20/10, 5p 18/12, 6p 15/15; Neibolt
      3p 17/13, 4p 9/21, 5p 18/12, 6p 14/16; 114-212 actions (max 485). 22 wins delayed
      (the traitor's monsters finish their turn before the round's end wins it; a hero
      attacks before the step or the end of turn that wins), none lost.
    Then the AI took a win it had now (ai.win_now) and priced crossing rolls by their
      odds (ai_ways): seeds 0-39, both editions, 3-6p (320 games): 0 wins delayed (24
      before on the same seeds), 0 dithers; heroes / traitor classic 3p 18/22, 4p 22/18,
      5p 25/15, 6p 18/22; Neibolt 3p 23/17, 4p 15/25, 5p 26/14, 6p 23/17.
    Haunts by key, 4p, seeds 0-14: heroes' wins 2 (the Ritual) to 11 (Ghost Bride) of
      15; haunt_endings.py over 100 seeds puts the Ritual, the Clown and Wail at 40-45%.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the project importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.core.rng import Rng
from bot.games.base import Game, PlayerInfo
from bot.games.betrayal import GAME as BETRAYAL
from bot.games.betrayal.haunt_roll import haunts
from bot.games.betrayal.haunting import sides
from bot.games.betrayal.state import BetrayalState
from bot.games.cthulhu import GAME as CTHULHU
from bot.games.evilbelow import GAME as EVIL_BELOW
from tests.betrayal_haunt_helpers import answer_pending, begin, edition_of, house
from tests.test_ai_views import betrayal_shadow, cthulhu_shadow, eb_shadow

CAP = 5000
TRIES = 40  # shadows a "sure" win must hold in, beside the state itself


@dataclass
class Tally:
    """One cell: a game at one table size."""

    games: int = 0
    wins: Counter[str] = field(default_factory=Counter)
    lengths: list[int] = field(default_factory=list)
    illegal: int = 0
    loops: int = 0
    dithers: int = 0
    capped: int = 0
    delayed: int = 0
    thrown: int = 0
    decisions: int = 0
    examples: dict[str, list[str]] = field(default_factory=dict)

    def note(self, what: str, example: str) -> None:
        self.examples.setdefault(what, []).append(example)


# ---------------------------------------------------------------- who wins

def winner_side(game: Game[Any], state: Any) -> str:
    """The side that won a finished game, in the bench's words."""
    if game is CTHULHU:
        return ",".join(map(str, state.winners))
    if game is EVIL_BELOW:
        return str(state.result or "none")
    haunt = state.haunt
    return str(haunt.winner) if haunt is not None and haunt.winner else "none"


def seat_side(game: Game[Any], state: Any, seat: int) -> str | None:
    """What a finished game's winner must say for this seat to have won (None: the
    seat has no side to win with yet, Betrayal before its haunt)."""
    if game is CTHULHU:
        return str(seat)
    if game is EVIL_BELOW:
        return "win"
    if state.haunt is None or not state.haunt.key:
        return None
    return sides.side_of(state, seat)


def won_by(game: Game[Any], state: Any, side: str) -> bool:
    if not game.is_over(state):
        return False
    if game is CTHULHU:
        return int(side) in state.winners
    return winner_side(game, state) == side


# ---------------------------------------------------------------- the probes

def fingerprint(game: Game[Any], state: Any, *, with_rng: bool) -> str:
    raw = game.dump(state)
    if not with_rng:
        raw.pop("rng", None)
    return hashlib.blake2b(json.dumps(raw, sort_keys=True, default=str).encode(),
                           digest_size=16).hexdigest()


def position(game: Game[Any], state: Any) -> tuple[object, str]:
    """Where the game stands, for telling a dither: the state but its Rng, within one
    turn; in Cthulhu, whose turns are one action each, where every character stands
    and who is to move, within one rumble (a character walked there and back)."""
    if game is CTHULHU:
        return (state.rumble, json.dumps([state.turn, state.location, state.removed,
                                          state.pending.kind if state.pending else ""]))
    turn = (state.turn.number, state.turn.seat) if game is BETRAYAL else state.turns_played
    return (turn, fingerprint(game, state, with_rng=False))


def shadow(game: Game[Any], state: Any, seat: int, n: int) -> Any:
    """The state with all the seat may not know dealt otherwise, and other dice to come
    (tests/test_ai_views.py's shadows, made by what the rulebooks keep face down)."""
    rng = Rng.from_seed(f"bench-shadow:{n}")
    if game is CTHULHU:
        return cthulhu_shadow(state, seat, rng)
    if game is EVIL_BELOW:
        return eb_shadow(state, rng)
    return betrayal_shadow(state, seat, rng)


def surely_wins(game: Game[Any], state: Any, seat: int, action: Action, side: str,
                tries: int) -> bool:
    """Whether playing `action` ends the game won by `side` whatever the seat cannot
    know: in the state, and in `tries` shadows of it (what is face down dealt
    otherwise, other dice to come)."""
    for n in range(tries + 1):
        trial = game.copy_state(state) if n == 0 else shadow(game, state, seat, n)
        try:
            after, _ = game.apply(trial, seat, action)
        except IllegalAction:
            return False
        if not won_by(game, after, side):
            return False
    return True


def step(game: Game[Any], state: Any) -> tuple[int, Action]:
    """The AI's next move at this table: an out-of-turn offer first, as the sessions
    layer asks, else the seat to act."""
    for other in game.out_of_turn(state):
        offered = game.ai_offer(state, other)
        if offered is not None:
            return other, offered
    seat = game.to_act(state)
    assert seat is not None
    return seat, game.ai_action(state, seat)


def play(game: Game[Any], state: Any, tally: Tally, label: str, cap: int, tries: int) -> None:
    """Play `state` out with the AI at every seat, watching each step."""
    seen: set[str] = set()
    positions: set[tuple[object, str]] = set()
    sure_for: dict[str, str] = {}  # side -> where it first had a sure win
    actions = 0
    while not game.is_over(state):
        if actions >= cap:
            tally.capped += 1
            tally.note("capped", label)
            break
        seat, action = step(game, state)
        tally.decisions += 1
        where = f"{label} step {actions} seat {seat}"
        legal = [o.action for o in game.options(state, seat)]
        if action not in legal:
            tally.illegal += 1
            tally.note("illegal", f"{where}: {action}")
        side = seat_side(game, state, seat)
        if side is not None and tries and len(legal) > 1:
            sure = [o for o in legal if o != action
                    and surely_wins(game, state, seat, o, side, tries)]
            if sure and not surely_wins(game, state, seat, action, side, tries):
                tally.delayed += 1
                tally.note("delayed win", f"{where}: played {action}, not {sure[0]}")
                sure_for.setdefault(side, f"{where}: {sure[0]}")
        try:
            state, _ = game.apply(state, seat, action)
        except IllegalAction as refused:
            tally.illegal += 1
            tally.note("illegal", f"{where}: {action} refused: {refused}")
            break
        actions += 1
        whole = fingerprint(game, state, with_rng=True)
        if whole in seen:
            tally.loops += 1
            tally.note("loop", where)
            break
        seen.add(whole)
        stands = position(game, state)
        if stands in positions:
            tally.dithers += 1
            tally.note("dither", where)
        positions.add(stands)
    for side, where in sure_for.items():
        if not won_by(game, state, side):
            tally.thrown += 1
            tally.note("thrown win", f"{where} (the game ended: {winner_side(game, state)})")
    tally.games += 1
    tally.lengths.append(actions)
    tally.wins[winner_side(game, state) if game.is_over(state) else "unfinished"] += 1


# ---------------------------------------------------------------- the games

def seated(count: int) -> list[PlayerInfo]:
    return [PlayerInfo(f"AI{i}", ai=True) for i in range(count)]


def fresh(game: Game[Any], count: int, options: dict[str, Any], seed: int) -> Any:
    """A new game of `count` AI seats."""
    return game.setup(seated(count), seed, options)[0]


def haunted(key: str, count: int, seed: int) -> BetrayalState:
    """The haunt `key` begun on this seed's explored house, its setup's choices made."""
    return answer_pending(begin(house(count, seed, edition=edition_of(key)), key)[0])


def tables(args: argparse.Namespace) -> Iterator[tuple[str, int, Callable[[int], Any],
                                                       Game[Any]]]:
    """(cell name, table size, seed -> starting state, game) for each cell asked for."""
    for name in args.game:
        if name == "cthulhu":
            for count in args.players or range(2, 7):
                yield "cthulhu", count, partial(fresh, CTHULHU, count, {}), CTHULHU
        elif name == "evilbelow":
            for count in args.players or range(2, 8):
                yield "evilbelow", count, partial(fresh, EVIL_BELOW, count, {}), EVIL_BELOW
        elif name == "betrayal":
            options = {"today": "06-01", "expansion": args.edition}
            for count in args.players or range(3, 7):
                yield f"betrayal {args.edition}", count, partial(
                    fresh, BETRAYAL, count, options), BETRAYAL
        elif name == "haunts":
            keys = args.haunt or sorted(haunts())
            for count in args.players or range(3, 7):
                for key in keys:
                    yield key, count, partial(haunted, key, count), BETRAYAL


def line(name: str, count: int, tally: Tally, seconds: float) -> str:
    wins = ", ".join(f"{k} {v}" for k, v in sorted(tally.wins.items()))
    lengths = tally.lengths or [0]
    return (f"{name:<30} {count}p  games {tally.games:>3}  wins: {wins}  |  actions "
            f"median {statistics.median(lengths):.0f} max {max(lengths)}  |  illegal "
            f"{tally.illegal} loops {tally.loops} dithers {tally.dithers} capped "
            f"{tally.capped} wins delayed {tally.delayed}, thrown {tally.thrown} (of "
            f"{tally.decisions} decisions)"
            f"  {seconds:.0f} s CPU")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", nargs="*", default=["cthulhu", "evilbelow", "betrayal"],
                        choices=["cthulhu", "evilbelow", "betrayal", "haunts"])
    parser.add_argument("--players", default="", help="a count or a range, e.g. 3-6")
    parser.add_argument("--seeds", type=int, default=30)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--edition", default="classic", choices=["classic", "neibolt"])
    parser.add_argument("--haunt", nargs="*", default=None)
    parser.add_argument("--cap", type=int, default=CAP)
    parser.add_argument("--tries", type=int, default=TRIES,
                        help="shadows a sure win is tried in (0: no sure-win probe)")
    parser.add_argument("--examples", type=int, default=1, help="examples shown of each")
    args = parser.parse_args(argv)
    if args.players:
        low, _, high = args.players.partition("-")
        args.players = list(range(int(low), int(high or low) + 1))
    for name, count, start, game in tables(args):
        began = time.process_time()
        tally = Tally()
        for seed in range(args.first, args.first + args.seeds):
            play(game, start(seed), tally, f"{name} {count}p seed {seed}", args.cap,
                 args.tries)
        print(line(name, count, tally, time.process_time() - began), flush=True)
        for what, examples in tally.examples.items():
            for example in examples[:args.examples]:
                print(f"    {what}: {example}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
