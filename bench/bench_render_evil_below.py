"""How long the IT: Evil Below board takes: a benchmark script, not a test.

Plays AI games (2-7 seats, the engine alone) and renders the board (its dice and fight
cards drawn on it) after every step, timing each render against a bare encode of the
same image in the same run (the finished palette image saved as PNG with the boards'
options, nothing drawn), so the figures say how much drawing adds to what writing the file costs on
whatever machine runs it:

    render   renderers.evilbelow.render_board (view, draw, palette, PNG)
    encode   that picture, already in its palette, saved as PNG (PNG_OPTIONS)

    .venv/bin/python bench/bench_render_evil_below.py
    .venv/bin/python bench/bench_render_evil_below.py --games 2 --width 600

Recorded on the shared 2-core box, defaults (1100 x 700 px, the chat-shaped board with
the dice and the fight's cards on it; seeds 0 at 2-7 seats, 718 states), ms, while five
other engineers' tests ran on the same two cores (ratios are what to compare):

    first render of the process (palette fit, fonts): 215
    board  render median 5.94  p90 14.11  p99 45.91;  bare encode median 7.16;
           ratio render/encode median 0.86  p90 2.19;  PNG median 56 KB, max 64 KB

Before (900 px wide, as tall as its content, and a dice strip posted beside it): board
ratio median 0.52 / 0.59, PNG median 47 KB, plus the strip's 11 KB after every roll.
The one picture now costs about what the two did, drawn a third larger.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the project importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


from bench.floors import encode_ms
from renderers import evilbelow
from tests.evil_below_helpers import ai_states


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered), max(1, round(q / 100 * len(ordered)))) - 1]


def summary(name: str, values: list[float]) -> str:
    return (f"  {name:<8} median {statistics.median(values):6.2f}  p90 "
            f"{percentile(values, 90):6.2f}  p99 {percentile(values, 99):6.2f}  max "
            f"{max(values):6.2f}  (n={len(values)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--width", type=int, default=evilbelow.BASE_WIDTH)
    parser.add_argument("--games", type=int, default=3, help="seeds per seat count")
    args = parser.parse_args()

    states = [s for players in range(2, 8) for seed in range(args.games)
              for s in ai_states(players, seed, every=1, cap=2000)]
    t0 = time.perf_counter()
    evilbelow.render_board(states[0], width=args.width)
    print(f"width {args.width}px, {len(states)} states; first render (palette fit, fonts) "
          f"{(time.perf_counter() - t0) * 1000:.0f} ms")
    for label, render in (("board", evilbelow.render_board),):
        took, bare, sizes, ratios = [], [], [], []
        for state in states:
            t0 = time.perf_counter()
            data = render(state, width=args.width)
            ms = (time.perf_counter() - t0) * 1000
            enc = encode_ms(data)
            took.append(ms)
            bare.append(enc)
            ratios.append(ms / enc)
            sizes.append(len(data))
        print(f"{label}, ms:")
        print(summary("render", took))
        print(summary("encode", bare))
        print(summary("ratio", ratios))
        print(f"  PNG median {statistics.median(sizes) / 1000:.0f} KB, "
              f"max {max(sizes) / 1000:.0f} KB")


if __name__ == "__main__":
    main()
