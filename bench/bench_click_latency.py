"""The click a player feels: a benchmark script, run on demand, never a test.

    python bench/bench_click_latency.py                    # 80 ms, 1 and 50 channels, twice
    python bench/bench_click_latency.py --channels 1 --clicks 10 --runs 1

The real bot (discord.py unmodified) plays Cthulhu tables of three people against the
fake Discord (tests/fakediscord) with a network between them: `--latency-ms` (80) per
round trip, half on each REST request's way and half on its answer's, half on each
event Discord pushes (the click's INTERACTION_CREATE). In each of 1 and 50 busy
channels the players click their move as soon as the last one is shown, a random
control of the live message that plays a move at once (a two-step choice's two clicks
are played too, and counted, but not timed). Two paths:

  before   the old path forced (cogs/reply.py's PATIENCE = 0): the click is deferred
           first (DEFERRED_UPDATE_MESSAGE), then the live message edited by PATCH
  after    today's path: the edit is the click's answer (UPDATE_MESSAGE), deferred only
           when the action runs past PATIENCE (2 s)

For every timed click: `edit` is the time from the interaction's creation (the player's
click, in the fake) to the clicked message's edit stored in the fake (what the player
sees change); `done` to the end of the action in the bot (its delivery made). Round
trips per click: every REST request the bot made in the phase over the clicks made.
The floor, in the same run, on the same fake and loop and under the same load: a
channel of its own where a button whose callback does nothing but answer with the edit
(UPDATE_MESSAGE) is clicked over and over while the tables play: what Discord's round
trips, discord.py and the shared loop cost a click that does no work. The ratio is the
figure; the fake runs in the bot's process (its spec check of every body included), so
the 50-channel times hold the fake's work too.

Recorded on the shared 2-core box (load average 11-12: other helpers' jobs), 80 ms a
round trip, two runs (run 1 / run 2), ms:

                     round trips  edit p50 (x floor)      edit p99 (x floor)
  1 channel   before    3.65      197 / 202 (2.22/2.28)   337 / 246 (2.61/1.86)
              after     2.65      119 / 109 (1.31/1.24)   218 / 190 (1.74/1.63)
  50 channels before    3.60      991 / 1141 (4.03/4.65)  2744 / 2040 (3.24/2.20)
              after     2.81      527 / 585 (1.98/2.06)   964 / 1398 (0.98/1.79)

  floor p50 / p99: 1 channel 88-90 / 116-132; 50 channels 246-284 / 783-984
  done (the action's end, its new message and the old ping's DELETE included), p50:
  1 channel 419 / 428 before, 342 / 331 after; 50 channels 1897 / 2442 before,
  3030 / 2422 after (p99 3547-4851 either way)

So the click's own answer saves one round trip (3.65 -> 2.65 per click) and about one
latency of what a player waits to see the edit: 1.3x the floor instead of 2.2x with one
busy channel, 2x instead of 4-4.7x with 50. With 50 channels acting at once the bot's
one core is the bottleneck (rules, a board per move, the fake's own spec check in the
same process): 11 % of the clicks ran past PATIENCE and were deferred (PATCH 0.11 a
click), and the rest of the delivery (the next player's ping as a new message, the old
ping deleted) takes as long either way.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the project importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import discord

from bench.requests_per_click import kind_of
from bot.client import HauntBot
from bot.core.actions import Action
from cogs import click_limit, reply
from cogs.components import STEP, Stray
from tests.e2e_helpers import (
    game_components,
    latest_turn,
    open_and_start,
    seeding_as_moderator,
    to_move,
)
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser, InteractionHandle
from tests.fakediscord.runner import start_bot, stop_bot

PATIENCE = reply.PATIENCE
SETUP_BATCH = 10  # tables opened at once, before the clock starts
ANSWER_WAIT = 30.0  # a click unanswered this long has hung: the bench says so


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (5 min {five:.2f}) on {os.cpu_count()} cores"


def quantile(values: list[float], q: float) -> float:
    """The q-quantile (nearest rank) of `values`, in ms."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))] * 1000


@dataclass
class Phase:
    """What one configuration's clicks measured."""

    edit: list[float] = field(default_factory=list)  # seconds, per timed click
    done: list[float] = field(default_factory=list)
    floor: list[float] = field(default_factory=list)
    clicks: int = 0  # every press of a table's control (two-step halves too)
    moves: int = 0
    unedited: int = 0  # timed clicks that did not edit the clicked message
    kinds: Counter[str] = field(default_factory=Counter)


class FloorView(discord.ui.View):
    """The floor's button: answered at once with an edit, no work."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.count = 0

    @discord.ui.button(label="Floor", custom_id="bench:floor")
    async def press(self, interaction: discord.Interaction,
                    button: discord.ui.Button[FloorView]) -> None:
        self.count += 1
        await interaction.response.edit_message(content=f"floor {self.count}", view=self)


class Acted:
    """When the bot is done with each channel's actions: Sessions.act wrapped."""

    def __init__(self, bot: HauntBot) -> None:
        self.count: Counter[int] = Counter()
        self.changed = asyncio.Condition()
        act = bot.sessions.act

        async def counted(channel_id: int, *args: Any, **options: Any) -> Any:
            try:
                return await act(channel_id, *args, **options)
            finally:
                async with self.changed:
                    self.count[channel_id] += 1
                    self.changed.notify_all()

        bot.sessions.act = counted  # type: ignore[method-assign]

    async def after(self, channel_id: int, seen: int) -> None:
        async with self.changed:
            await asyncio.wait_for(
                self.changed.wait_for(lambda: self.count[channel_id] > seen), ANSWER_WAIT)


def direct_moves(message: FakeMessage) -> list[tuple[dict[str, Any], str | None]]:
    """The live message's controls that play a move at once: (button, None) or
    (select, value)."""
    found: list[tuple[dict[str, Any], str | None]] = []
    for comp in game_components(message):
        if comp["type"] == 2 and STEP not in comp["custom_id"]:
            found.append((comp, None))
        elif comp["type"] == 3:
            found += [(comp, o["value"]) for o in comp["options"]
                      if Action.decode(o["value"]).kind != STEP]
    return found


async def press(fd: FakeDiscord, user: FakeUser, message: FakeMessage,
                comp: dict[str, Any], value: str | None) -> InteractionHandle:
    if value is None:
        return await fd.click(user, message, comp["custom_id"])
    return await fd.select(user, message, comp["custom_id"], [value])


async def player(fd: FakeDiscord, acted: Acted, channel: int, users: dict[int, FakeUser],
                 clicks: int, rng: random.Random, phase: Phase) -> None:
    """One table's players clicking their moves one after another."""
    loop = asyncio.get_running_loop()
    for _ in range(clicks):
        post = latest_turn(fd, channel)
        mover = users.get(to_move(post) or 0)
        if mover is None:
            return  # the game is over, or waits on a private turn
        moves = direct_moves(post)
        seen = acted.count[channel]
        if not moves:  # only two-step choices: both halves, untimed
            comp = game_components(post)[0]
            value = comp["options"][0]["value"] if comp["type"] == 3 else None
            first = await (await press(fd, mover, post, comp, value)).wait(
                ANSWER_WAIT, settle=False)
            private = [m for m in first.messages if m.ephemeral and game_components(m)]
            phase.clicks += 1
            if not private:
                continue
            step = game_components(private[-1])[0]
            value = step["options"][0]["value"] if step["type"] == 3 else None
            await press(fd, mover, private[-1], step, value)
            await acted.after(channel, seen)
            phase.clicks += 1
            phase.moves += 1
            continue
        comp, value = rng.choice(moves)
        versions = len(post.shown_at)
        started = loop.time()
        handle = await press(fd, mover, post, comp, value)
        await acted.after(channel, seen)
        await handle.wait(ANSWER_WAIT, settle=False)
        phase.done.append(loop.time() - started)
        shown = post.shown_at[versions:]
        if shown:
            phase.edit.append(shown[0] - started)
        else:
            phase.unedited += 1
        phase.clicks += 1
        phase.moves += 1


async def floor_clicks(fd: FakeDiscord, message: FakeMessage, user: FakeUser,
                       phase: Phase, stop: asyncio.Event) -> None:
    """The floor button clicked over and over until the tables are done."""
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        versions = len(message.shown_at)
        started = loop.time()
        await (await fd.click(user, message, "bench:floor")).wait(ANSWER_WAIT, settle=False)
        phase.floor.append(message.shown_at[versions] - started)
        await asyncio.sleep(0.02)


async def configuration(channels: int, clicks: int, latency: float,
                        seed: int) -> Phase:
    """One bot and fake: `channels` tables opened, then clicked with the fake's latency."""
    click_limit.CLICKS = click_limit.ClickLimit(clicks=10**9)
    fd = FakeDiscord()
    fd.slash = seeding_as_moderator(fd)  # type: ignore[method-assign]  # seeded tables
    await fd.start()
    with tempfile.TemporaryDirectory() as folder:
        bot = HauntBot(db_path=str(Path(folder) / "bench.sqlite3"), sync_commands=False)
        task = await start_bot(bot, fd)
        try:
            return await clicked(fd, bot, channels, clicks, latency, seed)
        finally:
            await stop_bot(bot, task)
            await fd.stop()


async def clicked(fd: FakeDiscord, bot: HauntBot, channels: int, clicks: int,
                  latency: float, seed: int) -> Phase:
    users = [fd.add_user(n) for n in ("ann", "bob", "cat")]
    by_id = {u.id: u for u in users}
    tables = [fd.add_channel(f"game-{n}") for n in range(channels)]
    for first in range(0, channels, SETUP_BATCH):
        await asyncio.gather(*(open_and_start(fd, c, users, "cthulhu", seed + n)
                               for n, c in enumerate(tables[first:first + SETUP_BATCH])))
    floor_channel = fd.add_channel("floor")
    await fd.settle()
    bot.remove_dynamic_items(Stray)  # it answers any custom_id not ours: the floor's too
    sent = await bot.get_partial_messageable(floor_channel).send("floor", view=FloorView())
    floor_message = fd.message(sent.id)
    acted = Acted(bot)
    phase = Phase()
    fd.latency = latency
    before = len(fd.requests)
    stop = asyncio.Event()
    floor = asyncio.create_task(floor_clicks(fd, floor_message, users[0], phase, stop))
    rng = random.Random(seed)
    await asyncio.gather(*(player(fd, acted, c, by_id, clicks, random.Random(rng.random()),
                                  phase) for c in tables))
    stop.set()
    await floor
    await fd.settle()
    phase.kinds.update(kind_of(r) for r in fd.requests[before:])
    phase.kinds["answer"] -= len(phase.floor)  # each floor click's one request
    return phase


def report(name: str, channels: int, phase: Phase) -> str:
    rounds = sum(phase.kinds.values()) / max(phase.clicks, 1)
    parts = ", ".join(f"{k} {v / max(phase.clicks, 1):.2f}"
                      for k, v in sorted(phase.kinds.items()) if v)
    lines = [f"  {name:6} {channels:2} channel(s): {phase.clicks} clicks, {phase.moves} moves, "
             f"{len(phase.edit)} timed ({phase.unedited} without an edit of the clicked "
             f"message); round trips per click {rounds:.2f} ({parts})"]
    if phase.edit and phase.floor:
        f50, f99 = quantile(phase.floor, 0.5), quantile(phase.floor, 0.99)
        for what, values in (("edit", phase.edit), ("done", phase.done)):
            p50, p99 = quantile(values, 0.5), quantile(values, 0.99)
            lines.append(f"         {what}: p50 {p50:.0f} ms = {p50 / f50:.2f}x floor, "
                         f"p99 {p99:.0f} ms = {p99 / f99:.2f}x floor")
        lines.append(f"         floor ({len(phase.floor)} clicks): p50 {f50:.0f} ms, "
                     f"p99 {f99:.0f} ms")
    return "\n".join(lines)


async def main(args: argparse.Namespace) -> None:
    latency = args.latency_ms / 1000
    counts = [int(n) for n in args.channels.split(",")]
    for run in range(1, args.runs + 1):
        print(f"run {run}: latency {args.latency_ms:.0f} ms a round trip, cthulhu, "
              f"seed {args.seed}", flush=True)
        for channels in counts:
            clicks = args.clicks if channels == 1 else args.busy_clicks
            for name, patience in (("before", 0.0), ("after", PATIENCE)):
                reply.PATIENCE = patience
                said = load()
                phase = await configuration(channels, clicks, latency, args.seed)
                print(report(name, channels, phase) + f"\n         ({said})", flush=True)
    reply.PATIENCE = PATIENCE


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency-ms", type=float, default=80.0)
    parser.add_argument("--channels", default="1,50")
    parser.add_argument("--clicks", type=int, default=40, help="per table, with 1 channel")
    parser.add_argument("--busy-clicks", type=int, default=6,
                        help="per table, with more channels")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=2)
    return parser.parse_args()


if __name__ == "__main__":
    asyncio.run(main(parse()))
