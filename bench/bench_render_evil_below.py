"""How long the IT: Evil Below pictures take: a benchmark script, not a test.

Plays AI games (2-7 seats, the engine alone) and renders the board and the dice strip
after every step, timing each render against a bare encode of the same image in the
same run (the finished palette image saved as PNG with the boards' options, nothing
drawn), so the figures say how much drawing adds to what writing the file costs on
whatever machine runs it:

    render   renderers.evilbelow.render_board / render_dice (view, draw, palette, PNG)
    encode   that picture, already in its palette, saved as PNG (PNG_OPTIONS)

    .venv/bin/python bench/bench_render_evil_below.py
    .venv/bin/python bench/bench_render_evil_below.py --games 2 --width 600

Recorded on the 2-core box, defaults (900 px, seeds 0-2 at 2-7 seats, 2,579 states),
with the full test suite running alongside (so absolute ms are high; the ratio is the
figure to compare), ms:

    first render of the process (palette fit, fonts): 212
    board  render median 24.7  p90 40.0  p99 47.4;  bare encode median 7.7  p90 11.6
           ratio render/encode median 3.45  p90 4.45;  PNG median 45 KB, max 54 KB
    dice   render median  2.6  p90  7.1;  bare encode median 0.8
           ratio median 3.32;  PNG median 11 KB, max 12 KB
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the project importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image

from renderers import evilbelow
from renderers.common import PNG_OPTIONS
from tests.evil_below_helpers import ai_states


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered), max(1, round(q / 100 * len(ordered)))) - 1]


def summary(name: str, values: list[float]) -> str:
    return (f"  {name:<8} median {statistics.median(values):6.2f}  p90 "
            f"{percentile(values, 90):6.2f}  p99 {percentile(values, 99):6.2f}  max "
            f"{max(values):6.2f}  (n={len(values)})")


def bare_encode(data: bytes) -> float:
    """ms to save the same picture, already decoded to its palette image, as PNG."""
    img = Image.open(io.BytesIO(data))
    img.load()
    t0 = time.perf_counter()
    buf = io.BytesIO()
    img.save(buf, format="PNG", **PNG_OPTIONS)
    return (time.perf_counter() - t0) * 1000


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
    for label, render in (("board", evilbelow.render_board), ("dice", evilbelow.render_dice)):
        took, bare, sizes, ratios = [], [], [], []
        for state in states:
            t0 = time.perf_counter()
            data = render(state, width=args.width)
            ms = (time.perf_counter() - t0) * 1000
            enc = bare_encode(data)
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
