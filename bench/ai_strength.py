"""How strong the AIs are: win rates of AI tables, and of AI sides against a table that
plays random legal moves. A script, not a test.

    python bench/ai_strength.py evilbelow --players 2-7 --games 200 [--table ai|random]
    python bench/ai_strength.py haunts --edition classic --players 4 --games 40 \
        [--match ai-ai ai-random random-ai] [--haunt KEY ...]
    python bench/ai_strength.py cthulhu --players 2-6 --games 100
    python bench/ai_strength.py styles --game evilbelow --players 2-7 --games 500
    python bench/ai_strength.py styles --game lets_kill_this_clown --players 3-6 --games 100

`evilbelow`: every seat the AI (out-of-turn offers asked before each action, as the
sessions layer does), or every seat a random player (a uniform pick among the seat's
`options`, never an out-of-turn action). `haunts`: each haunt begun on one explored
house per seed (bench/haunt_endings.py's way: the AI explores a house of 25 rooms with
the haunt roll held back, then the haunt is begun by key), then played out by
`match`: "ai-ai" (heroes-traitor), "ai-random" (AI heroes, a random traitor and
monsters), "random-ai" (random heroes, the AI traitor). A cooperative scenario has no
traitor: its "-ai" / "-random" half is the house, which the engine always plays.
`cthulhu`: seat 0's share of the wins, the AI against random players and at a table of
AIs. `styles`: the careful AI (as shipped) against a rushed one (`STYLES` below: it fights
or goes for the kill as soon as it may), on the same seeds, Evil Below or a
cooperative Neibolt scenario.

Random picks come from an Rng of the bench's own (seeded per game), never the game's.
A game that reaches CAP actions is counted as capped (no side won).

Figures (issue 21: AIs decide from their seat's view; "before" is the code before it,
"after" with views, Evil Below's new fight policy and the Ritual's drive-off).
Evil Below, AI table win rate, seeds 0-499 (+-4.4): 2p 41.0 -> 45.4, 3p 49.0 -> 51.4,
4p 50.0 -> 52.8, 5p 49.2 -> 52.0, 6p 49.6 -> 51.8, 7p 47.4 -> 52.6; a random table 0%.
Careful minus rushed, seeds 0-999, before: 2p +0.2 (+-3.1), 3p +1.2, 4p +6.6, 5p +5.5,
6p +8.2, 7p +7.5 (+-3.3..3.7); after: 2p +0.9 (+-1.2), 3p +0.8 (+-1.5), 4p +6.9, 5p
+6.7, 6p +8.5, 7p +11.6 (+-3.4..3.7); seeds 10000-11999: 2p +0.2 (+-0.8), 3p +1.0
(+-1.0). Haunts at 4 players (60 seeds classic, 100 Neibolt): every cell the same
with views as before, game for game (the Betrayal AIs never read a secret; now they
cannot); the Ritual's drive-off then moved its AI heroes from 41 to 39 of 100.
Let's Kill This Clown careful - rushed, seeds 1-300: +24 / +33 / +38 / +46 points at
3-6 players (branch i21-coop's cowering cards, seeds 0-99: +46 / +44 / +53 / +48, the
careful AI winning 49 / 46 / 53 / 48). The Ritual of Chüd, seeds 1-500: +3.4 (+-4.6),
+2.0 (+-5.0), +6.0 (+-5.0), +10.0 (+-5.3); with Pennywise in the shadows (branch
i21-ritual), seeds 1-200: +18.0 (+-8.4), +18.5 (+-8.3), +11.0 (+-7.7), +11.5 (+-8.1),
the careful AI winning 51.0 / 44.5 / 44.0 / 44.0%; with 4 waits at 6 players too,
6 players: +20.0 (+-7.9), careful 48.5%, rushed 28.5%. Cthulhu, seat 0's share of wins over
200 seeds, one AI among random players: 86 / 68 / 45 / 45 / 34% before, 86 / 64 / 47 /
42 / 35% after at 2-6 players; at a table of AIs about a fair share, both.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

if __package__ in (None, ""):  # run as a script: make the project importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.core.actions import Action
from bot.core.rng import Rng
from bot.games.base import Game, PlayerInfo
from bot.games.betrayal import GAME as BETRAYAL
from bot.games.betrayal.haunt_roll import haunts
from bot.games.betrayal.haunting import sides
from bot.games.betrayal.haunting.base import PLUGINS
from bot.games.betrayal.state import BetrayalState
from bot.games.cthulhu import GAME as CTHULHU
from bot.games.evilbelow import GAME as EVIL_BELOW
from bot.games.evilbelow import ai as eb_ai
from bot.games.evilbelow import content as eb_content
from bot.games.evilbelow.state import EvilBelowState
from tests.betrayal_haunt_helpers import answer_pending, begin, edition_of, house

CAP = 20000
COOPERATIVE = ("the_ritual_of_chud", "lets_kill_this_clown")


# ---------------------------------------------------------------- play styles

def rushed_stack(state: EvilBelowState) -> bool:
    """A rushed team's idea of a Fight Stack ready to fight with: any totem in it."""
    return any(not eb_content.is_attack(c) for c in state.fight_stack) \
        or sum(1 for c in state.fight_stack if eb_content.is_attack(c)) >= eb_ai.FLUSH_AT


@contextmanager
def _eb_rushed() -> Iterator[None]:
    """Evil Below: fight whenever a fight is possible (seeks one, rides to one, pulls
    Pennywise in for one) with any totem in the Fight Stack."""
    with mock.patch.object(eb_ai, "stack_is_good", rushed_stack), \
            mock.patch.object(eb_ai, "fight_coming", rushed_stack):
        yield


@contextmanager
def _clown_rushed() -> Iterator[None]:
    """Let's Kill This Clown: go for the crush at once, not after taunting the track
    down."""
    plugin = PLUGINS["lets_kill_this_clown"]
    with mock.patch.object(type(plugin), "ready", lambda self, state: True):
        yield


@contextmanager
def _ritual_rushed() -> Iterator[None]:
    """The Ritual of Chüd: face Pennywise and attack him whenever he is in reach,
    whatever the dice."""
    plugin = PLUGINS["the_ritual_of_chud"]
    cls = type(plugin)
    base_offer = cls.ai_offer

    def offer(self: Any, state: BetrayalState, seat: int, offers: list[Any]) -> Any:
        face = next((o for o in offers if o.id == "face"), None)
        return face or base_offer(self, state, seat, offers)

    with mock.patch.object(cls, "ai_presses", lambda self, state, seat, target: True), \
            mock.patch.object(cls, "ai_offer", offer):
        yield


@contextmanager
def _careful() -> Iterator[None]:
    yield


STYLES: dict[str, dict[str, Callable[[], Any]]] = {
    "evilbelow": {"careful": _careful, "rushed": _eb_rushed},
    "lets_kill_this_clown": {"careful": _careful, "rushed": _clown_rushed},
    "the_ritual_of_chud": {"careful": _careful, "rushed": _ritual_rushed},
}


# ---------------------------------------------------------------- players

def random_pick(game: Game[Any], state: Any, seat: int, rng: Rng) -> Action:
    options = game.options(state, seat)
    assert options, f"seat {seat} must act but has no options"
    return rng.choice(options).action


def eb_game(count: int, seed: int, table: str, cap: int = CAP) -> EvilBelowState:
    """One Evil Below game, every seat `table` ("ai" | "random")."""
    game = EVIL_BELOW
    state, _ = game.setup([PlayerInfo(f"P{i}", ai=True) for i in range(count)], seed, {})
    rng = Rng.from_seed(f"bench:{seed}:{count}")
    for _ in range(cap):
        if state.over:
            break
        actor = game.to_act(state)
        assert actor is not None
        seat, action = actor, None
        if table == "ai":
            for other in game.out_of_turn(state):
                offered = game.ai_offer(state, other)
                if offered is not None:
                    seat, action = other, offered
                    break
            if action is None:
                action = game.ai_action(state, actor)
        else:
            action = random_pick(game, state, actor, rng)
        state, _ = game.apply(state, seat, action)
    return state


def haunt_game(key: str, players: int, seed: int, heroes: str, evil: str,
               cap: int = CAP) -> tuple[str, int]:
    """One haunt on this seed's explored house: the winner ("" when capped) and the
    actions played. `heroes` and `evil` are "ai" or "random"."""
    game = BETRAYAL
    state = answer_pending(begin(house(players, seed, edition=edition_of(key)), key)[0])
    rng = Rng.from_seed(f"bench:{key}:{seed}:{players}")
    actions = 0
    while not state.over and actions < cap:
        seat = game.to_act(state)
        assert seat is not None
        side = evil if sides.is_traitor(state, seat) else heroes
        action = game.ai_action(state, seat) if side == "ai" else \
            random_pick(game, state, seat, rng)
        state, _ = game.apply(state, seat, action)
        actions += 1
    return (state.haunt.winner if state.over and state.haunt else ""), actions


# ---------------------------------------------------------------- reports

def interval(wins: int, games: int) -> str:
    """The win rate with a rough 95% interval (normal approximation)."""
    if not games:
        return "-"
    p = wins / games
    half = 1.96 * math.sqrt(p * (1 - p) / games)
    return f"{100 * p:5.1f}% +-{100 * half:4.1f}"


def player_counts(text: str) -> list[int]:
    low, _, high = text.partition("-")
    return list(range(int(low), int(high or low) + 1))


def log_line(path: str, record: dict[str, Any]) -> None:
    if path:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(record) + "\n")


def run_evilbelow(args: argparse.Namespace) -> None:
    for count in player_counts(args.players):
        for table in args.table:
            began = time.process_time()
            results: Counter[str] = Counter()
            for seed in range(args.first, args.first + args.games):
                state = eb_game(count, seed, table)
                results[state.result or "capped"] += 1
            wins = results.pop("win", 0)
            losses = ", ".join(f"{k} {v}" for k, v in results.most_common())
            print(f"evil below, {count} players, {table} table: won {wins}/{args.games} "
                  f"{interval(wins, args.games)}; lost: {losses or 'none'}; "
                  f"{time.process_time() - began:.0f} s CPU", flush=True)
            log_line(args.log, {"game": "evilbelow", "players": count, "table": table,
                                "games": args.games, "first": args.first, "wins": wins,
                                "losses": dict(results)})


def cthulhu_game(count: int, seed: int, ai_seats: int, cap: int = CAP) -> list[int]:
    """One Cthulhu game: the first `ai_seats` seats AI, the rest random; its winners."""
    game = CTHULHU
    state, _ = game.setup([PlayerInfo(f"P{i}", ai=i < ai_seats) for i in range(count)],
                          seed, {})
    rng = Rng.from_seed(f"bench:cthulhu:{seed}:{count}")
    for _ in range(cap):
        seat = game.to_act(state)
        if seat is None:
            break
        action = game.ai_action(state, seat) if seat < ai_seats else \
            random_pick(game, state, seat, rng)
        state, _ = game.apply(state, seat, action)
    return list(state.winners)


def run_cthulhu(args: argparse.Namespace) -> None:
    """Seat 0's share of the wins (a shared win split): against random players, and at
    a table of AIs (where it should be about one in `count`)."""
    for count in player_counts(args.players):
        for ai_seats, label in ((1, "one AI, the rest random"), (count, "every seat AI")):
            began = time.process_time()
            share = 0.0
            for seed in range(args.first, args.first + args.games):
                winners = cthulhu_game(count, seed, ai_seats)
                share += (0 in winners) / max(1, len(winners))
            print(f"cthulhu, {count} players, {label}: seat 0 won {share:.1f}/{args.games} "
                  f"({100 * share / args.games:.1f}%, fair share {100 / count:.1f}%); "
                  f"{time.process_time() - began:.0f} s CPU", flush=True)
            log_line(args.log, {"game": "cthulhu", "players": count, "ai_seats": ai_seats,
                                "games": args.games, "first": args.first, "seat0": share})


def run_haunts(args: argparse.Namespace) -> None:
    keys = args.haunt or sorted(k for k, h in haunts().items()
                                if (h.edition or "classic") == args.edition)
    for players in player_counts(args.players):
        for key in keys:
            matches = args.match
            if key in COOPERATIVE:  # the house is the engine's: only the heroes change
                matches = [f"{h}-house" for h in dict.fromkeys(
                    m.split("-")[0] for m in args.match)]
            for match in matches:
                heroes, evil = match.split("-")
                began = time.process_time()
                tally: Counter[str] = Counter()
                longest = 0
                for seed in range(args.first, args.first + args.games):
                    winner, actions = haunt_game(key, players, seed, heroes, evil)
                    tally[winner or "capped"] += 1
                    longest = max(longest, actions)
                label = match if key not in COOPERATIVE else f"{heroes} heroes"
                print(f"{key:<30} {players}p {label:<12} heroes {tally['heroes']:>4} "
                      f"({interval(tally['heroes'], args.games)}), evil "
                      f"{tally['traitor']:>4}, capped {tally['capped']}; "
                      f"most actions {longest}; "
                      f"{time.process_time() - began:.0f} s CPU", flush=True)
                log_line(args.log, {"game": "haunt", "haunt": key, "players": players,
                                    "match": match, "games": args.games,
                                    "first": args.first, **tally})


def run_styles(args: argparse.Namespace) -> None:
    styles = STYLES[args.game]
    for count in player_counts(args.players):
        wins: dict[str, list[bool]] = {}
        for style in args.style:
            began = time.process_time()
            with ExitStack() as stack:
                stack.enter_context(styles[style]())
                won = []
                for seed in range(args.first, args.first + args.games):
                    if args.game == "evilbelow":
                        won.append(eb_game(count, seed, "ai").result == "win")
                    else:
                        won.append(haunt_game(args.game, count, seed, "ai", "ai")[0]
                                   == "heroes")
            wins[style] = won
            print(f"{args.game}, {count} players, {style}: won {sum(won)}/{args.games} "
                  f"{interval(sum(won), args.games)}; "
                  f"{time.process_time() - began:.0f} s CPU", flush=True)
            log_line(args.log, {"game": args.game, "players": count, "style": style,
                                "games": args.games, "first": args.first,
                                "wins": sum(won)})
        if {"careful", "rushed"} <= wins.keys():
            print("   " + paired(wins["careful"], wins["rushed"]), flush=True)


def paired(careful: list[bool], rushed: list[bool]) -> str:
    """The careful minus the rushed win rate on the same seeds, with a rough 95%
    interval from the paired differences."""
    n = len(careful)
    diffs = [int(a) - int(b) for a, b in zip(careful, rushed, strict=True)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
    half = 1.96 * math.sqrt(var / n)
    return (f"careful - rushed: {100 * mean:+.1f} points (95% +-{100 * half:.1f}); "
            f"seeds where only careful won {diffs.count(1)}, only rushed {diffs.count(-1)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    eb = sub.add_parser("evilbelow")
    eb.add_argument("--table", nargs="*", default=["ai", "random"], choices=["ai", "random"])
    hs = sub.add_parser("haunts")
    hs.add_argument("--edition", default="classic")
    hs.add_argument("--haunt", nargs="*", default=None)
    hs.add_argument("--match", nargs="*", default=["ai-ai", "ai-random", "random-ai"],
                    choices=["ai-ai", "ai-random", "random-ai", "random-random"])
    ct = sub.add_parser("cthulhu")
    st = sub.add_parser("styles")
    st.add_argument("--game", choices=sorted(STYLES), default="evilbelow")
    st.add_argument("--style", nargs="*", default=["careful", "rushed"],
                    choices=["careful", "rushed"])
    for p in (eb, hs, ct, st):
        p.add_argument("--players", default="4", help="a count or a range, e.g. 2-7")
        p.add_argument("--games", type=int, default=50, help="games (seeds) per cell")
        p.add_argument("--first", type=int, default=0, help="first seed")
        p.add_argument("--log", default="", help="append each cell's figures (JSON lines)")
    args = parser.parse_args(argv)
    {"evilbelow": run_evilbelow, "haunts": run_haunts, "cthulhu": run_cthulhu,
     "styles": run_styles}[args.what](args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
