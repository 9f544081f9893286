"""How many clicks a whole game asks of its players: a benchmark script, not a test.

Every seat is a player (no AI seat), and a fixed scripted policy plays them all: the
game's own AI decides each move, straight through the pure engine (setup / options /
apply, no Discord). Each move costs the clicks the menus need to reach it: one for a
button (up to five a group); two for a menu entry (open it, pick); a two-step choice
(where, then which die) adds one for its second step (buttons) when the first leads
to more than one option; one for a move no menu lists. Out-of-turn moves count too.
The same seeds give the same games, so runs compare commits (at one without two-step
choices, nothing is two-step); a changed choice can change the game after it.

    python bench/clicks_per_game.py [--games 10] [--players 4] [--seed 0]

Recorded with the defaults (seeds 0..9, 4 players), clicks per game (mean / median /
max) and the clicks of the moves issue 20 changed, per game; before = the base of
issue 20 (0573747), after = branch i20-clicks:

    game       clicks before        clicks after         changed moves, before -> after
    cthulhu    132.4 / 131.5 / 143  136.2 / 135.5 / 146  move 76.1 -> 79.9
    betrayal   160.3 / 156 / 215    152.0 / 145 / 207    damage_split 18.8 -> 10.5
    neibolt    217.5 / 225 / 349    207.8 / 215.5 / 341  damage_split 21.3 -> 11.6
    evilbelow  189.6 / 171.5 / 310  189.6 / 171.5 / 310  move 82.0 -> 82.0

Damage now takes one pick instead of one per point (-44 % of its clicks). A move in
Evil Below is a place button then a die button (2 clicks, 1 when one die goes there, 1
when all its moves fit in a row of buttons) where it was an entry in a menu of up to
21 (open, pick: 2): the same clicks, short labels. In Cthulhu a turn with more than 25
moves asks who (a menu) then where (a button): one click more on those few turns,
where the 25 + 1 menus asked two. Moves are unchanged in those two games. (An earlier
run, two-step even for five moves or fewer, cost Evil Below 84.4 move clicks a game.)
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the project importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot import games
from bot.core.actions import Action, Option
from bot.games.base import Game, PlayerInfo

DEFAULT_CAP = 20000
PER_ROW = 5  # cogs/prompt_rows.py: buttons up to five a group, a menu past that
KEYS = ("cthulhu", "betrayal", "neibolt", "evilbelow")
WATCHED = ("damage_split", "trait_pick", "move")  # the moves issue 20 changed


@dataclass
class Tally:
    clicks: list[int] = field(default_factory=list)
    decisions: list[int] = field(default_factory=list)
    moves: list[int] = field(default_factory=list)
    capped: int = 0
    by_kind: Counter[str] = field(default_factory=Counter)  # clicks per kind of move


def _entries(options: list[Option], group: str) -> list[tuple[str, list[Option]]]:
    """A group's entries as the menus show them (cogs/prompt_rows.py first_steps): a
    two-step group shows each `first` once; each entry with the options behind it."""
    entries: dict[str, list[Option]] = {}
    flat = sum(1 for o in options if o.group == group) <= PER_ROW  # a row of buttons
    for o in options:
        if o.group == group:
            first = "" if flat else getattr(o, "first", "")
            entries.setdefault(f"first:{first}" if first else f"option:{id(o)}", []).append(o)
    return list(entries.items())


def _pick_cost(count: int) -> int:
    """A button is one click; past a row of five the entries are a menu: open, pick."""
    return 1 if count <= PER_ROW else 2


def clicks_for(options: list[Option], action: Action) -> tuple[int, int]:
    """(clicks, decisions) the menus need for this move among these options."""
    found = next((o for o in options if o.action == action), None)
    if found is None:
        return 1, 1  # a typed command
    entries = _entries(options, found.group)
    under = next(opts for _, opts in entries if found in opts)
    clicks = _pick_cost(len(entries)) + int(found.private)  # "Choose privately" first
    if len(under) > 1:  # the second step: buttons in rows of five, one click
        return clicks + 1, 2
    return clicks, 1


def _setup_options(key: str) -> tuple[str, dict[str, Any]]:
    """The registered game and its setup options: Neibolt is Betrayal's edition."""
    if key == "neibolt":
        return "betrayal", {"expansion": "neibolt"}
    return key, {}


def play(game: Game[Any], options: dict[str, Any], players: int, seed: int, cap: int,
         by_kind: Counter[str]) -> tuple[int, int, int, bool]:
    """One game: clicks, decisions (picks), moves, and whether the cap stopped it; the
    clicks are added to `by_kind` by the move's kind (a choice by what it answers)."""
    state, _ = game.setup([PlayerInfo(f"P{i}") for i in range(players)], seed, options)
    clicks = decisions = moves = 0
    while not game.is_over(state) and moves < cap:
        seat, action = _next_move(game, state)
        if action is None:
            break
        cost, picks = clicks_for(game.options(state, seat), action)
        pending = getattr(state, "pending", None)
        by_kind[getattr(pending, "kind", "choose") if action.kind == "choose"
                else action.kind] += cost
        clicks, decisions, moves = clicks + cost, decisions + picks, moves + 1
        state, _ = game.apply(state, seat, action)
    return clicks, decisions, moves, not game.is_over(state)


def _next_move(game: Game[Any], state: Any) -> tuple[int, Action | None]:
    """An out-of-turn move the AI would make, else the seat to act's move."""
    for seat in game.out_of_turn(state):
        offer = game.ai_offer(state, seat)
        if offer is not None:
            return seat, offer
    seat = game.to_act(state)
    return (-1, None) if seat is None else (seat, game.ai_action(state, seat))


def summary(values: list[int]) -> str:
    return f"{statistics.fmean(values):.1f} / {statistics.median(values):g} / {max(values)}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games per game kind")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--cap", type=int, default=DEFAULT_CAP)
    parser.add_argument("--only", nargs="*", default=list(KEYS), choices=KEYS)
    args = parser.parse_args(argv)
    print(f"{args.games} games each, seeds {args.seed}..{args.seed + args.games - 1}, "
          f"{args.players} players; clicks and moves per game, mean / median / max")
    for key in args.only:
        name, options = _setup_options(key)
        game = games.get(name)
        tally = Tally()
        for seed in range(args.seed, args.seed + args.games):
            clicks, decisions, moves, capped = play(game, options, args.players, seed, args.cap,
                                                    tally.by_kind)
            tally.clicks.append(clicks)
            tally.decisions.append(decisions)
            tally.moves.append(moves)
            tally.capped += capped
        print(f"{key:<10} clicks {summary(tally.clicks):<20} picks {summary(tally.decisions):<20}"
              f" moves {summary(tally.moves):<20} capped {tally.capped}")
        shown = {k: round(n / args.games, 1) for k, n in tally.by_kind.items() if k in WATCHED}
        print(f"{'':<10} clicks a game on {shown}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
