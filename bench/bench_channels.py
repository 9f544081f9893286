"""Every game at 50 and 200 channels, each channel its own house: an action against its
floors. A benchmark script, run on demand, never a test.

    python bench/bench_channels.py                          # every game, 50 channels
    python bench/bench_channels.py --channels 200
    python bench/bench_channels.py --game haunt --channels 200 --rounds 6

Games (--game, or all of them in turn, each in a fresh store):

    cthulhu    Cthulhu in the House, each channel its own seed
    exploring  Betrayal, each channel its own house grown by AI play to 12..47 rooms (its
               own seed and size); the haunt's roll held off, so the house keeps growing
    haunt      Betrayal, each channel its own house (25..47 rooms) with one of the classic
               haunts begun in it (the channels take the haunts in turn)
    neibolt    Betrayal at the Neibolt House, each channel its own house with one of the
               Neibolt scenarios begun in it
    evilbelow  IT: Evil Below, each channel a mid-game state of its own 4-player AI game

No two channels share a state or a house (issue 23: bench/bench_tables.py shared 12
houses among its channels, which hid the caches thrashing). Every seat is a human's, so
an action is one player's move, one save, one render, one delivery.

Round robin (--rounds rounds): the channels take turns, a click each on the newest
prompt, through the whole door (lock, load, rules, save, the board, the delivery, the
outbox marked), delivered to an outlet that does the live message's store work the
Discord outlet does (bot/live_message.step on the stored live message, and its save),
sending nothing. Beside each action, in the same run on the same bytes, two floors:

    floor   an aiosqlite transaction writing the same state bytes + json loads and dumps
            of the same state + a whole PNG encode of the same board (Pillow, the
            renderers' settings), as issue 23 states it
    bands   the same, but encoding only the bands that changed since the channel's last
            board (each changed band's scanlines deflated on its own, as the renderers
            deflate them: renderers.png.band): what an incremental render cannot go under
    deflate the floor, with the whole board deflated band by band as the renderers do
            (zlib-ng since 2026-12-07, 1.5x zlib's speed) instead of Pillow's zlib encode:
            the whole-encode floor had the renderers' deflate been the floor's

It prints, per game, the action's mean and p50 against each floor (mean / mean and
p50 / p50), the p99 of the action's ratio to the floor once each channel's first action
is past, the first actions apart (cold), how many boards were not uploaded (the same as
the live message shows), and how many boards were drawn at all. For the p99: how many
actions are over 3x, what the slowest 1% spent their time on (the board, the rules,
the store, and the cyclic collector's passes that landed in them), and how many actions
a collector's pass landed in.

Then every channel at once (--together rounds): each round every channel clicks
(asyncio.gather), with a 5 ms ticker measuring how late the event loop wakes it (its
lag: p99, max); actions/s. The load average is printed at the start and the end of each
game: the machine is shared, read the ratios.

Recorded on the shared 2-core box (issue 23), load average 5-9 from other work, two runs
at each size (before the merge of the Chinese face): an action's mean and p50 over the
whole-encode floor, the loop's lag p99 / max with every channel at once (idle loop p99):

    50 ch     cthulhu      exploring    haunt        neibolt      evilbelow
    run 1     2.36 2.39x   3.12 3.34x   3.48 3.93x   4.01 4.36x   2.55 2.90x
    run 2     2.20 2.79x   2.78 3.10x   3.54 4.01x   2.74 2.95x   2.91 2.53x
    lag 1     21 / 27 (10) 33 / 40 (12) 13 / 31 (4)  34 / 69 (14) 35 / 112 (8)
    lag 2     10 / 10 (4)  27 / 44 (7)  11 / 45 (14) 19 / 19 (10) 17 / 21 (5)
    200 ch
    run 1     2.76 4.56x   3.90 5.02x   5.21 6.71x   4.15 5.02x   2.41 2.67x
    run 2     2.88 3.14x   3.57 4.80x   4.05 5.49x   3.91 4.72x   3.28 4.11x
    lag 1     34 / 98 (11) 37 / 197 (9) 19 / 198 (8) 34 / 235 (11) 15 / 47 (4)
    lag 2     44 / 152 (12) 19 / 151 (4) 14 / 112 (4) 22 / 230 (4) 25 / 63 (3)

The board is 20-45 % of an action; the rest is the store calls, the rules (1-6 ms) and
the plan's prompt (1-4 ms). The store calls were five an action (load, save, the live
message read and written, the mark) and are three since 2026-12-06: the load brings the
live message along (Table.shown) and the mark stores it (one transaction). Alternating
runs at 50 channels, load average 0.3-0.9, mean / p50 over the whole-encode floor, for
the mark's fold alone: cthulhu 2.06/1.95x and 1.79/1.73x before, 1.78/1.75x and
1.84/1.80x after; haunt 2.64/2.61x and 2.57/2.57x before, 2.48/2.49x and 2.50/2.49x
after (the live message's read and write went from 0.32-0.45 ms to 0.23-0.29 ms). The
load's fold on its own (50 stored haunt games, one process): 0.50-0.62 ms a load with
the live message against 0.89-0.95 ms for the load and the read apart.

The load from memory (bot/store/kept.py, 2026-12-06): each action flipped a seeded
coin, its channel's kept row dropped before the load or not, in one run (load average
0.7-1.0): the load 0.16 / 0.30 / 0.16 ms against 0.63 / 0.70 / 0.55 ms from the file,
the action 6.38 / 9.64 / 7.22 ms against 6.69 / 10.12 / 7.72 ms (Cthulhu, haunt, Evil
Below; 182 and 168 actions).

Both folds, every game (load average 3.0-4.0, two helpers' jobs beside it), mean / p50
over the floor and, with every channel at once, loop lag p99 / max ms:

              cthulhu       exploring     haunt         neibolt       evilbelow
    50 ch     2.14 3.13x    2.96 3.86x    2.78 3.26x    3.15 3.91x    2.05 2.00x
    lag       13.0 / 15.3   11.4 / 143.0  13.8 / 19.2   13.2 / 22.8   10.9 / 22.5
    200 ch    2.98 3.20x    2.63 2.66x    4.86 5.02x    4.17 4.67x    2.35 3.13x
    lag       9.2 / 24.3    22.4 / 43.6   15.1 / 63.8   11.3 / 74.3   19.3 / 53.6

After the boards drawn ahead at a start (--warm, `Sessions.warm_boards`), the
background checkpoints, the overview chips' quick test and every language read at the
start (2026-12-06, load 0.4-1.0), mean / p50 over the floor, p99, first actions' p50,
then lag p99 / max ms:

    50 ch     cthulhu       exploring     haunt         neibolt       evilbelow
    run 1     2.05 2.01x    2.62 2.75x    2.23 2.26x    2.51 2.52x    1.87 1.84x
    run 2     1.70 1.68x    2.77 2.79x    2.46 2.51x    2.59 2.69x    1.81 1.82x
    p99       2.97 2.43x    4.74 4.84x    3.57 3.75x    6.13 5.03x    2.85 2.87x
    first     2.17 1.95x    3.07 2.90x    2.90 3.05x    2.78 2.92x    2.07 2.08x
    lag 1     9.8 / 14.8    8.6 / 12.6    9.8 / 11.3    11.8 / 16.3   15.2 / 18.8
    lag 2     8.8 / 15.9    8.9 / 11.2    10.5 / 32.4   9.5 / 10.5    24.9 / 29.3
    200 ch    1.82 1.89x    2.86 2.98x    3.16 3.29x    2.83 2.90x    1.93 1.91x
    p99       2.68x         5.05x         6.55x         4.93x         2.85x
    first     2.10x         3.75x         4.77x         3.96x         2.26x
    lag       22.7 / 29.7   13.8 / 26.0   12.7 / 37.5   14.5 / 25.3   9.3 / 35.6

The first actions' p50 with 48 boards drawn ahead against none (`--warm 0`, the same
code, load 2.0-2.6): cthulhu 2.04 / 2.22x, exploring 2.90 / 7.36x, haunt 3.14 / 4.32x,
neibolt 3.20 / 4.57x, evilbelow 3.45 / 4.46x.

Neibolt and Evil Below alone at 200 channels, at the bot's collector pace, load 0.8-1.3
(before the folds): lag p99 / max 8.5 / 20.6 and 11.8 / 23.5 ms; 143 and 192 actions/s.

Before the collector's pace (below), each longest lag at 200 channels was a full pass
of the cyclic collector over ~95,000 objects the waiting actions hold (60-150 ms of CPU).

The collector's pace (--gc; issue 23), 200 channels, `--rounds 2 --together 3`, one run
after the other in the same session, load average 0.5-2.3: the loop's lag p99 / max ms
with every channel at once, and the collector's longest pass (its generation):

                  CPython (700, 10, 10)     (50_000, 20, 100)       (20_000, 50, 100) [bot]
    cthulhu   1   17.9 / 42.2  gen2 24 ms   18.9 / 27.0  gen0 20    11.2 / 27.1  gen0 29
              2    9.1 / 16.2  gen2 22      18.5 / 25.3  gen0 27    14.9 / 30.0  gen0 17
              3                             21.4 / 37.7  gen0 29
              4                             18.8 / 51.8  gen0 19
    exploring 1    6.6 / 65.5  gen2 70      8.7 / 27.3  gen0 30      9.5 / 23.7  gen0 19
              2   10.4 / 69.4  gen2 72     18.5 / 74.4  gen0 31      7.5 / 31.8  gen0 24
              3                            15.7 / 37.3  gen0 33
              4                            12.6 / 74.3  gen0 56
    haunt     1   15.2 / 61.3  gen2 63     16.1 / 37.9  gen0 33      8.6 / 24.3  gen0 23

CPython's pace made 250-630 young, 23-57 gen-1 and 2-5 full passes in a burst; the
bot's, 9-21 young passes and no other. One stall of 74 ms came with no pass over 31
ms (exploring at 50,000): the collector is not the only long stall.

With the delivery planned in the move's own trip (bot/worker.py's Ahead: one trip to
the worker fewer) and the overview chips' places searched ring by ring (2026-12-06,
load 0.57-1.13), mean / p50 over the floor, p99, then lag p99 / max ms with every
channel at once; two runs each:

              cthulhu       exploring     haunt         neibolt       evilbelow
    50 ch     1.61 1.64x    2.30 2.35x    2.27 2.36x    2.09 2.21x    1.64 1.65x
              1.56 1.58x    2.39 2.42x    2.17 2.25x    2.20 2.30x    1.59 1.58x
    p99       2.21 2.05x    3.42 3.94x    3.55 3.45x    3.94 4.28x    2.24 2.28x
    lag       3.2 / 10.0    4.3 / 11.4    4.7 / 7.5     5.6 / 6.8     3.9 / 4.4
              2.7 / 6.7     5.4 / 11.8    3.4 / 14.6    5.6 / 7.3     3.9 / 4.7
    200 ch    1.69 1.69x    2.29 2.33x    2.96 3.11x    2.45 2.65x    1.71 1.73x
              1.65 1.65x    2.53 2.54x    2.86 3.03x    2.46 2.63x    1.78 1.78x
    p99       2.49 2.47x    3.82 4.41x    5.85 5.31x    4.24 3.91x    2.43 2.55x
    lag       9.1 / 19.0    6.2 / 30.3    6.6 / 41.6    6.4 / 60.6    5.7 / 25.3
              5.3 / 31.1    8.0 / 21.6    5.8 / 27.4    8.3 / 60.7    3.2 / 44.8

The plan made ahead alone, in-process A/B (each action a seeded coin, 50 channels, 8
rounds, 182 actions with and 168 without, load 0.5-0.7): Cthulhu 1.76 against 1.83x,
haunt 2.49 against 2.58x, Evil Below 1.64 against 1.71x.

What set Betrayal's p99 at 200 channels (2026-12-06, the lines above the caches): two
of the four slowest haunt actions were boards of 19-25 ms with only a fifth of their
bands new, spent laying out a crowded floor overview again and again (a room hemmed in
by its occupied neighbours: every place of the overview weighed for each chip, then for
each retry). With walled-in rooms found at once (renderers/betrayal/overview.py) the
12 layouts caught take 29.5 ms, not 193; no render over 9 ms spends more than 2.2 ms on
them. Then, every game at 200 channels, load 0.7-1.0: mean / p50 1.74 / 1.74x, 2.18 /
2.15x, 2.30 / 2.39x, 2.19 / 2.26x, 1.59 / 1.57x (cthulhu, exploring, haunt, neibolt,
evilbelow); p99 2.51, 4.57, 4.12, 4.23, 2.55x; lag max 31.7, 35.3, 38.7, 48.7, 26.9 ms.
What is over 3x now is the body of Betrayal's distribution (37-49 of 400 actions):
boards with half or more of their bands new, and one collector pass in 250-400 actions.

The bands deflated by zlib-ng (renderers/png.py, 2026-12-07): an in-process A/B, each
action a seeded coin between zlib's level 3 and zlib-ng's level 2 for the bands it
draws (50 channels, 8 rounds, 182 and 168 actions, load 0.3-0.4): Cthulhu 1.74 against
1.85x (its render 3.19 against 3.46 ms: 78 % of its bands are new each move), haunt
2.49 against 2.53x (4.23 against 4.52 ms). The whole-encode floor stays Pillow's zlib;
the `deflate` line is the same floor with the renderers' deflate. Then every game, two
runs each, load 0.5-1.1, mean / p50 over the floor, p99, over 3x:

    50 ch     cthulhu       exploring     haunt         neibolt       evilbelow
    run 1     1.47 1.45x    2.00 2.13x    2.21 2.27x    2.06 2.11x    1.58 1.57x
    run 2     1.69 1.80x    2.21 2.30x    2.34 2.40x    2.49 2.62x    2.03 2.24x
    p99       2.13, 2.59x   3.30, 3.36x   3.54, 3.89x   4.50, 5.21x   2.52, 3.01x
    over 3x   0, 0 of 250   8, 6          18, 31        18, 76        0, 4
    200 ch
    run 1     1.51 1.52x    2.40 2.44x    2.27 2.30x    2.11 2.21x    1.59 1.54x
    run 2     1.77 1.89x    2.34 2.41x    2.54 2.59x    2.66 2.83x    1.88 1.83x
    p99       2.45, 2.69x   4.05, 4.44x   3.94, 4.45x   3.71, 4.77x   2.73, 3.05x
    over 3x   0, 4 of 1000  163, 122      82, 253       63, 343       3, 12
    lag max   38.3, 30.9    26.0, 45.4    27.9, 41.0    20.1, 41.8    17.2, 29.4 ms

At 200 channels a young collector pass over 23,000-29,000 surviving objects (cache
entries; 105,000-120,000 references, no large container) took 7-13 ms alone and 16-25
ms in the runs; it landed in 1-2 of 1,000 actions, so it shows in the slowest 1% but
does not set the p99.

What the slowest 1-2% are (2026-12-07, haunt, each action's process CPU beside its wall,
the `process CPU` line): at 50 channels (two seeds, 250 actions each, load 3.7-4.9) the
action's CPU over the floor's was mean 1.55 / 1.66x, p99 2.32 / 2.46x, and none over 3x,
while the wall p99 was 11.4 / 12.8x: the wall tail was the shared machine (a worker trip
of 5-7 ms CPU taking 12-17 ms). By CPU, the slowest are the boards whose view moves: the
turn passing (40 / 57 actions, 8.2 / 8.4 ms CPU against 5.9 / 6.8 ms for the rest, 78 %
of bands new), a room discovered (7.7 / 8.8 ms), a floor changed; and the one young
collector pass (4.5 ms CPU) a run holds. No AI chain (every seat a human's), no haunt
start, no checkpoint stall at 50 channels; at 200 channels (load 2.9) one save waited
8.9 ms, and the two heaviest actions were a crowded floor's overview laid out again
(board_geometry 6.6-8.2 ms CPU, 6 monsters in 45-47 rooms). Tried, not kept: drawing
at start the board each other explorer's turn would show (150 boards, 0.8 s CPU) took a
turn pass from 8.3 / 7.9 to 6.0 / 6.4 ms CPU at 50 channels, but at 200 (599 boards,
3.1 s) they were pushed out of the bands' cache before the turns came (7.91 against
7.95 ms, RSS 193 against 183 MB), and over 18 rounds a turn pass stays 7.8-8.2 ms with
12-15 bands new in every window: its cost is the new view, not a cold cache. Freezing
the heap after the boards drawn ahead, as this bench does and the bot does not: 18,500
objects fewer in the passes' sight, the same passes (6-11 ms CPU, 5 in 800 actions at
200 channels).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import dataclasses
import gc
import io
import json
import os
import random
import statistics
import struct
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest import mock

import aiosqlite
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_tables import LagProbe, NullOutlet, click, clicks, pct
from bench.floors import encode_ms
from bot import collector
from bot import table as table_rules
from bot.client import SWITCH_SECONDS
from bot.core.actions import Action
from bot.core.seats import Seat
from bot.games.betrayal import GAME as BETRAYAL
from bot.games.betrayal import editions, haunt_roll
from bot.games.evilbelow import GAME as EVIL_BELOW
from bot.live_message import step
from bot.metrics import Recorder
from bot.sessions import WARM_BOARDS, Post, Sessions
from bot.store import LiveMessage, SqliteStore, Table, open_store
from renderers import budgets, png
from tests.betrayal_haunt_helpers import answer_pending, begin, explored
from tests.evil_below_helpers import ai_states

IDLE_SECONDS = 3.0  # the ticker on an idle loop before the channels act at once
GAMES = ("cthulhu", "exploring", "haunt", "neibolt", "evilbelow")
PLAYERS = 4
FIRST_CHANNEL = 10_000


# -- each channel's own state ---------------------------------------------------------------

def own_state(game: str, seed: int) -> dict[str, Any] | None:
    """The state channel `seed` starts from (None: the started table's own, Cthulhu)."""
    rng = random.Random(seed)
    if game == "cthulhu":
        return None
    if game == "evilbelow":
        states = ai_states(PLAYERS, seed, every=1, cap=5000)
        middle = [s for s in states[len(states) // 4: 3 * len(states) // 4]
                  if not EVIL_BELOW.is_over(s) and EVIL_BELOW.to_act(s) is not None]
        return EVIL_BELOW.dump(rng.choice(middle))
    edition = "neibolt" if game == "neibolt" else editions.DEFAULT
    tiles = rng.randint(12, 47) if game == "exploring" else rng.randint(25, 47)
    state = explored(PLAYERS, seed, tiles, edition=edition)
    if game != "exploring":
        keys = sorted(k for k, h in haunt_roll.haunts().items()
                      if (h.edition or editions.DEFAULT) == edition)
        state = answer_pending(begin(state, keys[seed % len(keys)])[0])
    return BETRAYAL.dump(state)


def humans(raw: dict[str, Any]) -> dict[str, Any]:
    """The state with every seat a human's, named as the table's seats."""
    if "ai" in raw:
        raw["ai"] = [False] * len(raw["ai"])
    if "players" in raw:
        raw["players"] = [f"P{i}" for i in range(len(raw["players"]))]
    return raw


async def seed_channels(store: SqliteStore, game: str, count: int, seed: int) -> list[int]:
    """`count` started tables of `game`, each with its own state (see `own_state`)."""
    kind = "evilbelow" if game == "evilbelow" else "cthulhu" if game == "cthulhu" \
        else "betrayal"
    options = {"expansion": "neibolt"} if game == "neibolt" else {}
    channels = []
    for n in range(count):
        channel = FIRST_CHANNEL + n
        host = table_rules.Actor(channel * 10, "P0")
        table, events = table_rules.new_table(kind, channel, 1, host, seed * 10_000 + n,
                                              options)
        table.seats = [Seat(f"P{i}", channel * 10 + i) for i in range(PLAYERS)]
        table, more = table_rules.apply(table, host, Action(table_rules.START))
        raw = own_state(game, seed * 10_000 + n)
        if raw is not None:
            table.state = humans(raw)
        await store.create(table, events + more, host.user_id, None)
        channels.append(channel)
    return channels


def quiet_haunt(game: str) -> ExitStack:
    """While exploring is timed, the haunt's roll never succeeds: the houses keep
    growing and no channel leaves exploring for the haunt."""
    stack = ExitStack()
    if game == "exploring":
        stack.enter_context(mock.patch.object(haunt_roll, "starts", lambda total, omens: False))
    return stack


# -- the outlet: the live message's store work, nothing sent ----------------------------------

@dataclass
class LiveOutlet(NullOutlet):
    """What cogs/outlet_live.py's post_live does with the store, without Discord: read the
    live message (as the table was loaded with it), decide the step, and hand what it
    shows to the courier, which stores it with the delivery's mark. Counts the
    uploads."""

    store: SqliteStore | None = None
    uploads: int = 0
    kept: int = 0  # boards not uploaded: the live message shows that board already

    async def publish(self, table: Table, post: Post) -> LiveMessage | None:
        self.last[table.channel_id] = post
        assert self.store is not None and table.id is not None
        live = table.shown[0] if table.shown is not None \
            else await self.store.get_live(table.id)
        ping = post.prompt.user_id if post.prompt is not None else None
        decided = step(live, table, post, ping_user=ping)
        if decided.attach:
            self.uploads += 1
        else:
            self.kept += 1
        message = live.message_id if live is not None and not decided.fresh else table.id
        shown = dataclasses.replace(decided.live, message_id=message)
        table.shown = (shown,)
        return shown  # the courier stores it with the delivery's mark


class RenderClock(Recorder):
    """The ms spent drawing boards so far (the worker reports each render): an action's
    share of render is read around it."""

    def __init__(self) -> None:
        self.ms = 0.0

    def rendered(self, game: str, seconds: float) -> None:
        self.ms += seconds * 1000


class Steps:
    """Wall ms each step of the door took, summed as it goes: every store call the
    door and the live post await, and the worker's trips, without the boards drawn in
    them (`RenderClock` tells them apart): the move's (the rules, and the delivery's
    plan when it is made ahead, bot/worker.py's Ahead) and the plan's after a save."""

    STORE = ("load", "load_latest", "save", "mark_delivered", "undelivered", "get_live",
             "set_live", "played", "undo_points")
    WORKER = ("move", "plan")

    def __init__(self) -> None:
        self.ms: collections.Counter[str] = collections.Counter()

    def watch(self, store: SqliteStore, sessions: Sessions, renders: RenderClock) -> None:
        for name in self.STORE:
            self._time(store, name, f"store.{name}")
        for name in self.WORKER:
            self._time(sessions.worker, name, f"worker.{name}", renders)

    def _time(self, owner: object, name: str, label: str,
              renders: RenderClock | None = None) -> None:
        inner: Callable[..., Awaitable[Any]] = getattr(owner, name)

        async def timed(*args: Any, **kwargs: Any) -> Any:
            t0, drawn = time.perf_counter(), renders.ms if renders else 0.0
            try:
                return await inner(*args, **kwargs)
            finally:
                board = renders.ms - drawn if renders else 0.0
                self.ms[label] += (time.perf_counter() - t0) * 1000 - board

        setattr(owner, name, timed)


# -- the floors -------------------------------------------------------------------------------

def idat_chunks(data: bytes) -> list[bytes]:
    """The IDAT chunks of a PNG, in order (a banded board: header, bands, tail)."""
    found, at = [], 8
    while at < len(data):
        size, kind = struct.unpack(">I4s", data[at:at + 8])
        if kind == b"IDAT":
            found.append(data[at:at + 12 + size])
        at += 12 + size
    return found


def changed_bands(data: bytes, before: bytes | None) -> list[int]:
    """The bands of `data` that differ from the channel's board before (all, if none)."""
    now = idat_chunks(data)[1:-1]
    old = idat_chunks(before)[1:-1] if before is not None else []
    return [b for b, chunk in enumerate(now) if b >= len(old) or old[b] != chunk]


def band_lines(data: bytes) -> list[bytes]:
    """Each band's scanlines (filter bytes included) of a board, top to bottom, as the
    renderers compress them."""
    with png_image(data) as img:
        w, h = img.size
        raw = img.tobytes()
    rows = png.BAND_ROWS
    return [b"".join(b"\x00" + raw[y * w:(y + 1) * w] for y in range(y0, min(h, y0 + rows)))
            for y0 in range(0, h, rows)]


def deflate_ms(lines: list[bytes]) -> float:
    """ms to deflate these bands' scanlines, each on its own (renderers.png.band)."""
    t0 = time.perf_counter()
    for scan in lines:
        png.band(scan)
    return (time.perf_counter() - t0) * 1000 if lines else 0.0


def png_image(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


class Floors:
    """The store-and-JSON part of both floors: an aiosqlite transaction writing the
    same state bytes, json loads + dumps of the same state."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db

    @classmethod
    async def open(cls, path: Path) -> Floors:
        db = await aiosqlite.connect(path, isolation_level=None)
        await db.execute("PRAGMA journal_mode=WAL")
        await db.execute("PRAGMA synchronous=NORMAL")
        await db.execute("CREATE TABLE floor (id INTEGER PRIMARY KEY, state_json TEXT)")
        await db.execute("INSERT INTO floor VALUES (1, '')")
        return cls(db)

    async def store_ms(self, table: Table) -> float:
        text = json.dumps(table.envelope())
        t0 = time.perf_counter()
        again = json.dumps(json.loads(text))
        await self.db.execute("BEGIN IMMEDIATE")
        await self.db.execute("UPDATE floor SET state_json = ? WHERE id = 1", (again,))
        await self.db.execute("COMMIT")
        return (time.perf_counter() - t0) * 1000

    async def close(self) -> None:
        await self.db.close()


# -- the runs ---------------------------------------------------------------------------------

@dataclass
class Tally:
    """Per action: its ms, its floors, whether it was the channel's first."""

    took: list[float] = field(default_factory=list)
    floor: list[float] = field(default_factory=list)
    bands: list[float] = field(default_factory=list)
    deflate: list[float] = field(default_factory=list)
    first: list[bool] = field(default_factory=list)
    steps: collections.Counter[str] = field(default_factory=collections.Counter)  # later
    changed: list[float] = field(default_factory=list)  # share of bands, past the first
    render: list[float] = field(default_factory=list)  # ms of it drawing the board
    # Past the first: (ratio to the floor, ms, its steps' ms, the bands' share redrawn,
    # the process's CPU ms in it)
    parts: list[tuple[float, float, dict[str, float], float, float]] = field(
        default_factory=list)
    collected: list[float] = field(default_factory=list)  # ms of collector passes in it

    def later(self, values: list[float]) -> list[float]:
        return [v for v, f in zip(values, self.first, strict=True) if not f]

    def line(self, label: str, base: list[float]) -> str:
        took, later_took, later_base = self.took, self.later(self.took), self.later(base)
        ratios = [t / b for t, b in zip(later_took, later_base, strict=True)]
        cold = [t / b for t, b, f in zip(took, base, self.first, strict=True) if f]
        return (f"vs {label:<7} {statistics.mean(later_base):6.2f} ms: mean "
                f"{statistics.mean(later_took) / statistics.mean(later_base):5.2f}x  p50 "
                f"{statistics.median(later_took) / statistics.median(later_base):5.2f}x  "
                f"p99 {pct(ratios, .99):5.2f}x   first actions p50 "
                f"{statistics.median(cold):5.2f}x max {max(cold):6.2f}x")


def worst_line(tally: Tally) -> str:
    """What the slowest 1% of actions (past the first) spent their time on: is the p99
    a board redrawn whole, the rules, or the store?"""
    worst = sorted(tally.parts, key=lambda p: p[0], reverse=True)[:max(1, len(tally.parts)
                                                                         // 100)]
    over = sum(1 for p in tally.parts if p[0] > 3)
    return f"over 3x: {over} of {len(tally.parts)}; the slowest 1%: " + "; ".join(
        f"{ratio:.1f}x {ms:.1f} ms, CPU {cpu:.1f} (render {spent.get('render', 0):.1f}, "
        f"rules and plan {spent.get('worker.move', 0) + spent.get('worker.plan', 0):.1f}, "
        f"store {sum(v for k, v in spent.items() if k.startswith('store.')):.1f}, the "
        f"collector {spent.get('collector', 0):.1f} within those, bands {share:.0%})"
        for ratio, ms, spent, share, cpu in worst)


def cpu_line(tally: Tally) -> str:
    """The actions' CPU against their wall time, past the first: on the shared box
    the slowest actions by wall were mostly the machine's (a trip to the worker thread
    of 5-7 ms CPU taking 12-17 ms), not more work, and the CPU says which."""
    cpu = [p[4] for p in tally.parts]
    waited = [p[1] / p[4] for p in tally.parts if p[4] > 0]
    worst = sorted(tally.parts, key=lambda p: p[0], reverse=True)[:max(1, len(tally.parts)
                                                                         // 100)]
    return (f"process CPU an action (every thread): p50 {statistics.median(cpu):.2f} "
            f"p99 {pct(cpu, .99):.2f} max {max(cpu):.2f} ms; wall over CPU p50 "
            f"{statistics.median(waited):.2f}, the slowest 1% by ratio "
            f"{statistics.mean(p[1] / max(p[4], 1e-3) for p in worst):.2f}")


def cache_counts() -> dict[str, tuple[int, int, int, int]]:
    """name -> (hits, misses, bytes held, bytes allowed) of every byte-bounded cache."""
    found = {}
    for name, cache in budgets.caches().items():
        got = cache.cache_info()
        if getattr(got, "maxbytes", None):
            found[name] = (got.hits, got.misses, got.currbytes, got.maxbytes)
    return found


def cache_lines(before: dict[str, tuple[int, int, int, int]]) -> list[str]:
    """Each cache used since `before`: its hit rate then, what it holds of its budget."""
    lines = []
    for name, (h, m, held, allowed) in cache_counts().items():
        h0, m0, _, _ = before.get(name, (0, 0, 0, 0))
        if h + m > h0 + m0:
            lines.append(f"{name} {(h - h0) / (h + m - h0 - m0):.0%} "
                         f"{held / 2**20:.1f}/{allowed / 2**20:.0f} MB")
    return lines


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (5 min {five:.2f})"


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def round_robin(sessions: Sessions, outlet: LiveOutlet, store: SqliteStore,
                      floors: Floors, channels: list[int], rounds: int,
                      renders: RenderClock, steps: Steps) -> Tally:
    tally = Tally()
    seen: dict[int, bytes] = {}
    with GcProbe() as collector:
        drawn, before, swept = renders.ms, steps.ms.copy(), collector.ms  # as a click starts
        cpu = time.process_time()
        async for _, channel, took in clicks(sessions, outlet, channels, rounds):
            used = (time.process_time() - cpu) * 1000  # every thread's, in the click
            spent = steps.ms - before  # the click's own (the bench's reads below are not)
            spent["render"] = renders.ms - drawn
            spent["collector"] = collector.ms - swept
            await tally_click(tally, seen, store, floors, outlet, channel, took, spent, used)
            drawn, before, swept = renders.ms, steps.ms.copy(), collector.ms
            cpu = time.process_time()
    return tally


async def tally_click(tally: Tally, seen: dict[int, bytes], store: SqliteStore,
                      floors: Floors, outlet: LiveOutlet, channel: int, took: float,
                      spent: collections.Counter[str], cpu: float) -> None:
    """One click's figures, read after it: its floors on its own bytes, the bands its
    board changed, the steps it spent its time on."""
    post = outlet.last[channel]
    table = await store.load_latest(channel)
    assert table is not None and post.image is not None
    base = await floors.store_ms(table)
    tally.took.append(took)
    tally.render.append(spent["render"])
    tally.floor.append(base + encode_ms(post.image))
    changed = changed_bands(post.image, seen.get(channel))
    lines = band_lines(post.image)  # decoded once for both band floors
    tally.bands.append(base + deflate_ms([lines[b] for b in changed]))
    tally.deflate.append(base + deflate_ms(lines))
    if channel in seen:
        tally.changed.append(len(changed) / max(1, len(lines)))
    tally.first.append(channel not in seen)
    if channel in seen:
        collected = spent.pop("collector")  # not a step: it lands inside the others
        tally.collected.append(collected)
        tally.steps.update(spent)
        tally.parts.append((took / tally.floor[-1], took, {**spent, "collector": collected},
                            tally.changed[-1], cpu))
    seen[channel] = post.image


class GcProbe:
    """How long each of the cyclic collector's passes held the interpreter, by
    generation (a pass stops every thread, the event loop's too): its wall time, and
    the CPU time of the thread that ran it (wall far above CPU: the machine took the
    CPU away mid-pass)."""

    def __init__(self) -> None:
        self.passes: dict[int, list[tuple[float, float]]] = {0: [], 1: [], 2: []}
        self.ms = 0.0  # the passes' wall ms so far: an action's share is read around it
        self._started = (0.0, 0.0)

    def _note(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = (time.perf_counter(), time.thread_time())
        else:
            wall, cpu = self._started
            took = (time.perf_counter() - wall) * 1000
            self.ms += took
            self.passes[info["generation"]].append((took, (time.thread_time() - cpu) * 1000))

    def __enter__(self) -> GcProbe:
        gc.callbacks.append(self._note)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self._note)

    def line(self) -> str:
        parts = []
        for g, passes in self.passes.items():
            wall, cpu = max(passes, default=(0.0, 0.0))
            parts.append(f"gen{g} {len(passes)} passes, longest {wall:.1f} ms "
                         f"(its CPU {cpu:.1f} ms)")
        return ", ".join(parts)


async def together(sessions: Sessions, outlet: LiveOutlet, channels: list[int],
                   rounds: int) -> str:
    took: list[float] = []

    async def timed(channel: int, n: int) -> None:
        t0 = time.perf_counter()
        if await click(sessions, outlet, channel, n):
            took.append((time.perf_counter() - t0) * 1000)

    # The lag's own floor: the same ticker on an idle loop, just before (what the shared
    # machine alone makes a waking thread wait).
    with LagProbe() as idle:
        await asyncio.sleep(IDLE_SECONDS)
    quiet = idle.lags or [0.0]
    with LagProbe() as probe, GcProbe() as collector:
        t0 = time.perf_counter()
        for r in range(rounds):
            await asyncio.gather(*(timed(c, r * 3 + i) for i, c in enumerate(channels)))
        wall = time.perf_counter() - t0
    lags = probe.lags or [0.0]
    return (f"together: {len(channels)} channels at once, {len(took) / wall:.0f} actions/s, "
            f"action p50 {statistics.median(took):.0f} ms; event-loop lag p50 "
            f"{statistics.median(lags):.2f} p99 {pct(lags, .99):.2f} max {max(lags):.2f} ms"
            f" (idle loop just before: p99 {pct(quiet, .99):.2f} max {max(quiet):.2f} ms)"
            f"\n  collector meanwhile: {collector.line()}")


async def run_game(game: str, args: argparse.Namespace, tmp: Path) -> None:
    store = await open_store(tmp / f"{game}.sqlite3")
    assert isinstance(store, SqliteStore)
    t0 = time.perf_counter()
    channels = await seed_channels(store, game, args.channels, args.seed)
    made = time.perf_counter() - t0
    outlet = LiveOutlet(store=store)
    renders = RenderClock()
    sessions = Sessions(store, outlet, metrics=renders)
    steps = Steps()
    steps.watch(store, sessions, renders)
    await sessions.warm_up()
    warmed = await sessions.warm_boards(args.warm)  # as the bot does after its start
    gc.collect()
    gc.freeze()
    floors = await Floors.open(tmp / f"{game}-floor.sqlite3")
    print(f"{game}: {len(channels)} channels, each its own state (made in {made:.1f} s), "
          f"{warmed} boards drawn ahead; {load()}; RSS {rss_mb():.0f} MB", flush=True)
    with quiet_haunt(game):
        caches = cache_counts()
        tally = await round_robin(sessions, outlet, store, floors, channels, args.rounds,
                                  renders, steps)
        print(f"  {len(tally.took)} actions in {args.rounds} rounds; boards uploaded "
              f"{outlet.uploads}, kept {outlet.kept}", flush=True)
        print("  " + tally.line("floor", tally.floor))
        print("  " + tally.line("bands", tally.bands))
        print("  " + tally.line("deflate", tally.deflate), flush=True)
        later_render, later_took = tally.later(tally.render), tally.later(tally.took)
        print(f"  of an action (past the first): the board drawn "
              f"{statistics.mean(later_render):.2f} ms mean, "
              f"{sum(later_render) / sum(later_took):.0%} of its time")
        later = len(later_took)
        rest = sum(later_took) - sum(tally.steps.values())
        print("  an action's steps, ms mean: " + ", ".join(
            f"{label} {ms / later:.2f}" for label, ms in tally.steps.most_common()
            if ms / later >= 0.01) + f", the rest (locks, the loop, the outlet) "
            f"{rest / later:.2f}")
        print("  " + worst_line(tally))
        print("  " + cpu_line(tally))
        hit = [ms for ms in tally.collected if ms > 0]
        print(f"  the collector's passes landed in {len(hit)} of {later} actions, "
              f"{sum(hit) / later:.2f} ms an action on average, longest "
              f"{max(hit, default=0):.1f} ms")
        if tally.changed:
            print(f"  bands changed from the channel's board before: mean "
                  f"{statistics.mean(tally.changed):.0%} "
                  f"p50 {statistics.median(tally.changed):.0%}")
        print("  caches (hits, held/budget): " + "; ".join(cache_lines(caches)))
        print(f"  loads from the kept rows (bot/store/kept.py): {store.kept.hits} of "
              f"{store.kept.hits + store.kept.misses}")
        alive = [c for c in channels if (await store.load(c)) is not None]
        if args.together:
            print("  " + await together(sessions, outlet, alive, args.together), flush=True)
    print(f"  RSS {rss_mb():.0f} MB; {load()}", flush=True)
    await floors.close()
    await store.close()


async def main(args: argparse.Namespace) -> None:
    sys.setswitchinterval(SWITCH_SECONDS)  # as the bot runs (bot/client.py)
    if args.gc == "bot":
        collector.pace()  # as the bot runs (bot/client.py)
    elif args.gc != "default":  # a candidate pace: "gen0,gen1,gen2"
        young, middle, old = (int(n) for n in args.gc.split(","))
        gc.set_threshold(young, middle, old)
    print(f"{os.cpu_count()} cores, shared; {load()}; collector thresholds {gc.get_threshold()}")
    with tempfile.TemporaryDirectory(prefix="hk-channels-") as tmp:
        for game in (GAMES if args.game == "all" else (args.game,)):
            await run_game(game, args, Path(tmp))


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--game", choices=("all", *GAMES), default="all")
    parser.add_argument("--channels", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=6, help="round-robin rounds")
    parser.add_argument("--together", type=int, default=3,
                        help="rounds of every channel at once (0: none)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--warm", type=int, default=WARM_BOARDS,
                        help="boards of the games played last drawn before the first "
                             f"click, as a start does (default {WARM_BOARDS}; 0: none)")
    parser.add_argument("--gc", default="bot",
                        help="the collector's pace: bot (bot/collector.py), default "
                             "(CPython's), or a candidate's thresholds 'gen0,gen1,gen2'")
    args = parser.parse_args(argv)
    if args.gc not in ("bot", "default") and len(args.gc.split(",")) != 3:
        parser.error("--gc: bot, default or three thresholds 'gen0,gen1,gen2'")
    if args.rounds < 2:
        parser.error("--rounds must be 2 or more: the figures are of the actions past each "
                     "channel's first")
    return args


if __name__ == "__main__":
    asyncio.run(main(parse()))
