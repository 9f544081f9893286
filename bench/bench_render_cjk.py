"""What Chinese labels cost the boards: a benchmark script, not a test.

Plays AI games of each game (Cthulhu, IT: Evil Below, Betrayal) through the pure
engine, keeps every --stride-th state up to --renders a game, and renders each board
twice over: in English (the floor, measured in the same run under the same load) and
with Chinese labels (tests/zh_labels.py: made-up Chinese no shorter than the English,
drawn in the shipped Chinese face). Two passes each:

    cold  every renderer cache emptied before each board (glyphs rasterized afresh)
    warm  the same boards again, as the bot redraws a channel's board turn after turn

It prints the thread CPU time per board (median, p90) for each language and the
ratio Chinese / English, with the load average: the box is shared, so only the ratios
mean much.

    .venv/bin/python bench/bench_render_cjk.py              # 30 boards a game
    .venv/bin/python bench/bench_render_cjk.py --renders 60 --stride 5

Recorded on the shared 2-core box (load average 7.95 / 7.06 at the start, 8.27 / 7.34
at the end; defaults), thread CPU ms per board:

    cthulhu   cold: English median  87.96 p90  98.63 | Chinese median 103.14 p90 117.63 | 1.17
    cthulhu   warm: English median   1.39 p90   1.68 | Chinese median   1.48 p90   1.86 | 1.07
    evilbelow cold: English median 114.94 p90 132.41 | Chinese median 123.80 p90 179.27 | 1.08
    evilbelow warm: English median   1.78 p90   2.15 | Chinese median   2.13 p90   2.46 | 1.20
    betrayal  cold: English median  80.75 p90 101.06 | Chinese median  98.25 p90 126.83 | 1.22
    betrayal  warm: English median   3.95 p90   6.50 | Chinese median   4.12 p90   5.87 | 1.04
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot import games
from bot.games.base import PlayerInfo
from renderers import render_public
from tests.zh_labels import forget_drawn_words, speak_chinese, translated

GAMES = ("cthulhu", "evilbelow", "betrayal")


def states(key: str, renders: int, stride: int, seed: int) -> list[object]:
    game = games.all_games()[key]
    state, _ = game.setup([PlayerInfo(f"AI{i}", ai=True) for i in range(4)], seed, {})
    kept: list[object] = []
    step = 0
    while len(kept) < renders:
        seat = game.to_act(state)
        if seat is None:
            state, _ = game.setup([PlayerInfo(f"AI{i}", ai=True) for i in range(4)],
                                  seed + len(kept) + 1, {})
            continue
        if step % stride == 0:
            kept.append(state)
        state, _ = game.apply(state, seat, game.ai_action(state, seat))
        step += 1
    return kept


def timed(render: Callable[[], bytes], cold: bool) -> float:
    if cold:
        forget_drawn_words()
    start = time.thread_time()
    render()
    return (time.thread_time() - start) * 1000


def run(key: str, boards: list[object], chinese: bool) -> dict[str, list[float]]:
    monkeypatch = pytest.MonkeyPatch()
    forget_drawn_words()
    if chinese:
        speak_chinese(monkeypatch)
    shown = [translated(s) if chinese and key == "cthulhu" else s for s in boards]
    try:
        cold = [timed(lambda s=s: render_public(key, s), True) for s in shown]
        forget_drawn_words()
        for s in shown:  # the first pass fills the caches
            render_public(key, s)
        warm = [timed(lambda s=s: render_public(key, s), False) for s in shown]
    finally:
        monkeypatch.undo()
        forget_drawn_words()
    return {"cold": cold, "warm": warm}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--renders", type=int, default=30)
    parser.add_argument("--stride", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    one, five, _ = os.getloadavg()
    print(f"load average {one:.2f} / {five:.2f}, {args.renders} boards a game")
    for key in GAMES:
        boards = states(key, args.renders, args.stride, args.seed)
        en = run(key, boards, chinese=False)
        zh = run(key, boards, chinese=True)
        for phase in ("cold", "warm"):
            e, z = statistics.median(en[phase]), statistics.median(zh[phase])
            e90 = statistics.quantiles(en[phase], n=10)[-1]
            z90 = statistics.quantiles(zh[phase], n=10)[-1]
            print(f"{key:9} {phase}: English median {e:6.2f} ms p90 {e90:6.2f} | "
                  f"Chinese median {z:6.2f} ms p90 {z90:6.2f} | ratio {z / e:.2f}")
    one, five, _ = os.getloadavg()
    print(f"load average at the end {one:.2f} / {five:.2f}")


if __name__ == "__main__":
    main()
