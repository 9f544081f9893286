"""What the operators' metrics add to one action, in µs: off (the default) and on.

Per action the sessions layer makes an `Acting` (the clock read at the start), reads
the clock again at the end and tells the recorder the action played and its delivery's
render (bot/sessions.py, `act` and `_rendered`). This times exactly those calls, many
times over, with the no-op recorder (metrics off) and with prometheus_client's metrics
on a registry of their own (on), against an empty loop of the same length:

    python bench/bench_metrics.py [--actions 200000] [--rounds 5]

The best of the rounds is reported (the shared machine only ever adds time). An action
through the sessions layer takes ~1.5-5 ms (bench/bench_sessions.py), so the figure to
read is the overhead as a share of that.

Recorded on the shared 2-core box (other jobs running), defaults, µs per action (best
of 5), two runs each:

    off  0.70 / 0.61   on  5.33 / 5.07   (empty loop 0.03 / 0.03)

Off, the metrics cost under a µs per action, <0.05 % of the fastest action; on, ~5 µs,
~0.35 %. Before Metrics kept each series' child (prometheus_client's `labels()` takes a
lock and builds its key at every call) on was 10.31 / 8.20 µs.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.metrics import NO_METRICS, Metrics, Recorder
from bot.sessions import Acting

GAME, KIND = "cthulhu", "move"


def per_action_us(recorder: Recorder | None, actions: int) -> float:
    """µs per action of what `Sessions.act` adds for the metrics (None: an empty loop)."""
    started = time.perf_counter()
    if recorder is None:
        for _ in range(actions):
            pass
    else:
        for _ in range(actions):
            acting = Acting()
            acting.game = GAME
            recorder.rendered(acting.game, 0.002)
            recorder.acted(acting.game, KIND, time.perf_counter() - acting.started)
    return (time.perf_counter() - started) / actions * 1e6


def main(actions: int, rounds: int) -> None:
    cases: dict[str, Recorder | None] = {"empty": None, "off": NO_METRICS, "on": Metrics()}
    best = {name: min(per_action_us(rec, actions) for _ in range(rounds))
            for name, rec in cases.items()}
    print(f"{actions} actions, best of {rounds} rounds, µs per action:")
    print(f"  metrics off {best['off']:.2f}   metrics on {best['on']:.2f}   "
          f"(empty loop {best['empty']:.2f})")
    for name in ("off", "on"):
        share = best[name] / 1500 * 100  # of a 1.5 ms action, the fastest measured
        print(f"  {name:<3} = {share:.3f} % of a 1.5 ms action")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    main(args.actions, args.rounds)
