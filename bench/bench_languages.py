"""What a second language costs a step (issue 25): a benchmark, run on demand.

A table whose server or a player reads zh-TW plays each step twice (bot/languages.py's
`said_in`): in English, the truth saved, and again under `speaking("zh-TW")` for the
other texts. This times, on the same tables, one AI step of the table rules as the
worker runs it (the AI's decision, made once, then the copy, the rules and the events),
said in English only (the floor) and said in English and zh-TW, interleaved state by state, each the
least of --repeat runs; and the delivery's plan (who gets what, the board drawn, its
alt text) in each language. The ratio (two languages / English) is the figure.

The Chinese words are a marked stand-in for every data file a step reads
(tests/helpers/pseudo_mirror.py), so the replay reads a real mirror through the overlay
whatever the translations hold yet.

    .venv/bin/python bench/bench_languages.py                  # about 20 s
    .venv/bin/python bench/bench_languages.py --games 4 --repeat 5

Recorded on the shared 2-core machine, the defaults (2 games each, --repeat 3), every
data file mirrored; no step's twins differed. With the AI deciding again in each
language (load average 7.9 before, 8.3 after):

    cthulhu ai step    n=178  en 0.539 ms  en+zh 1.040 ms  ratio median 1.97  p90 2.24
    evilbelow ai step  n=296  en 0.704 ms  en+zh 1.377 ms  ratio median 2.04  p90 4.44
    betrayal ai step   n=337  en 1.202 ms  en+zh 2.586 ms  ratio median 2.16  p90 5.04

The AI deciding once (table.ai_decision), its decision played in each language, as the
worker does now (load average 0.30 before, 0.41 after):

    cthulhu ai step    n=178  en 0.305 ms  en+zh 0.439 ms  ratio median 1.43  p90 1.57
    cthulhu plan       n=178  en 0.913 ms  zh    0.935 ms  ratio median 1.03  p90 1.05
    evilbelow ai step  n=296  en 0.417 ms  en+zh 0.537 ms  ratio median 1.28  p90 1.47
    evilbelow plan     n=296  en 0.345 ms  zh    0.351 ms  ratio median 1.01  p90 1.08
    betrayal ai step   n=318  en 0.935 ms  en+zh 1.502 ms  ratio median 1.58  p90 1.74
    betrayal plan      n=318  en 0.500 ms  zh    0.491 ms  ratio median 1.00  p90 1.08

A second language adds the rules' second pass (the words, the events), no second AI
decision, and costs the delivery nothing (one plan either way, in the server's
language). Beside a whole action (the save, the board: bench_tables.py), the step is a
small part.

A table that reads only English plays a step once, but one that leaves a choice without
its words in a language the bot speaks (bot/languages.py's `unworded`: a reader of it
may come while it waits), played again for them. `en-only step` is that step as the
worker says it for such a table (said_in, no language needed) against the bare English
step in the same run; the count, how many steps of these games pause so (Cthulhu words
its choices as they are read: none). Load average 3.54 before, 3.20 after:

    cthulhu en-only step   n=178  bare 0.308 ms  said_in 0.298 ms  median 0.97  mean 0.96  p90 1.00
    cthulhu steps leaving a choice unworded: 0 of 178
    evilbelow en-only step n=296  bare 0.445 ms  said_in 0.446 ms  median 0.96  mean 0.97  p90 1.01
    evilbelow steps leaving a choice unworded: 7 of 296
    betrayal en-only step  n=318  bare 0.999 ms  said_in 1.061 ms  median 0.98  mean 1.09  p90 1.61
    betrayal steps leaving a choice unworded: 59 of 318

Since an AI seat's choice is no longer worded (the AI chain makes it before anything
shows it; every seat here is an AI's, so none is), load average 0.65 before, 0.75 after:

    betrayal en-only step  n=318  bare 0.901 ms  said_in 0.828 ms  median 0.95  mean 0.94  p90 1.00
    betrayal steps leaving a choice unworded: 0 of 318 (evilbelow: 0 of 296)
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot import table as table_rules
from bot.core.seats import Seat
from bot.delivery import plan, sequenced
from bot.languages import said_in, unworded
from bot.locales import CHINESE, ENGLISH, speaking
from bot.locales.missing import english_files
from bot.table_record import ACTIVE, Table
from tests.helpers.pseudo_mirror import marked


def tables(kind: str, games: int, players: int) -> list[Table]:
    """Every state of `games` AI-played games of `kind`, as tables to step from."""
    found: list[Table] = []
    for seed in range(games):
        host = table_rules.Actor(1, "P0")
        table, _ = table_rules.new_table(kind, 1, 1, host, seed)
        table.seats = [Seat(f"P{n}", None, ai=True) for n in range(players)]
        table.seats[0] = Seat("P0", 1, language=CHINESE)
        table, _ = table_rules.apply(table, host, table_rules.Action(table_rules.START))
        table.seats[0].ai = True
        for _ in range(400):
            if table.status != ACTIVE or table_rules.to_act_seat(table) is None:
                break
            found.append(table)
            table, _ = table_rules.ai_step(table)
    return found


def least(work: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - started)
    return best


def row(name: str, floor: list[float], two: list[float],
        names: tuple[str, str] = ("en", "en+zh")) -> str:
    ratios = sorted(b / a for a, b in zip(floor, two, strict=True))
    p90 = ratios[int(len(ratios) * 0.9)]
    return (f"{name:<20} n={len(floor):<5} {names[0]} {statistics.median(floor) * 1000:7.3f} ms"
            f"  {names[1]} {statistics.median(two) * 1000:7.3f} ms"
            f"  ratio median {statistics.median(ratios):.2f}  mean {statistics.mean(ratios):.2f}"
            f"  p90 {p90:.2f}")


def measure(kind: str, games: int, players: int, repeat: int) -> list[str]:
    states = tables(kind, games, players)
    steps: tuple[list[float], list[float]] = ([], [])
    plans: tuple[list[float], list[float]] = ([], [])
    bare: list[float] = []
    paused = 0
    for table in states:
        def step(langs: tuple[str, ...], table: Table = table) -> object:
            # as the worker plays an AI step: decided once, played in each language
            seat, action = table_rules.ai_decision(table)
            return said_in(lambda: table_rules.play_decided(table, seat, action), langs)

        def alone(table: Table = table) -> object:  # the step in English, nothing more
            seat, action = table_rules.ai_decision(table)
            with speaking(ENGLISH):
                return table_rules.play_decided(table, seat, action)

        bare.append(least(alone, repeat))
        steps[0].append(least(lambda: step(()), repeat))
        steps[1].append(least(lambda: step((CHINESE,)), repeat))
        paused += bool(unworded(table_rules.ai_step(table)[0], ()))
        new, events = said_in(lambda table=table: table_rules.ai_step(table), (CHINESE,))
        new.last_seq = len(events)
        owed = sequenced(new, events)
        for n, language in enumerate((ENGLISH, CHINESE)):
            plans[n].append(least(lambda new=new, owed=owed, language=language: plan(
                new, owed, "k", language=language), repeat))
    return [row(f"{kind} ai step", *steps),
            row(f"{kind} en-only step", bare, steps[0], ("bare", "said_in")),
            f"{kind} steps leaving a choice unworded: {paused} of {len(states)}",
            row(f"{kind} plan (zh / en)", *plans, ("en", "zh"))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", nargs="*", default=["cthulhu", "evilbelow", "betrayal"])
    args = parser.parse_args()
    players = {"cthulhu": 4, "evilbelow": 4, "betrayal": 4}
    print(f"load average before: {os.getloadavg()}")
    with tempfile.TemporaryDirectory() as folder, marked(Path(folder), *english_files()):
        for kind in args.only:
            for line in measure(kind, args.games, players[kind], args.repeat):
                print(line, flush=True)
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
