"""What one click costs in requests to Discord: a benchmark script, not a test.

Three people play a game by clicking (tests/e2e_helpers.play_by_click: a random legal
control of the live message, and a two-step choice's second half) through the real
discord.py against the fake Discord (tests/fakediscord), with no AI seat, so every
click is a player's. For each click it counts the requests the bot sent until it went
quiet, by kind: the interaction's answer (UPDATE_MESSAGE, a defer, an ephemeral reply),
an edit by PATCH, a new message, a follow-up; and the bytes of the bodies it sent.

    python bench/requests_per_click.py [--clicks 60] [--seed 1]

The same seed plays the same game, so two commits compare: copy this file into a
checkout of the other (it only uses helpers both have) and run it there.

Recorded (seed 1, 40 clicks a game; Evil Below's game waited on a roll after 34), the
live message as content plus an attachment (9d9b986) and as a Components v2 layout
(this commit), requests per click:

    game       before  after  of which (after, per click)
    cthulhu    2.80    2.80   answer 1.02, new message 0.88, DELETE 0.88, PATCH 0.03
    betrayal   1.70    1.70   answer 1.00, new message 0.35, DELETE 0.35
    evilbelow  2.15    2.15   answer 1.21, PATCH 0.21, new message 0.38, DELETE 0.29

The layout costs no request: a click on the live message is still answered by its own
edit (UPDATE_MESSAGE). The new messages and deletes are the turn's ping passing from
one player to the next (three people, no AI seat, so most turns ping someone).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
from collections import Counter
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the project importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.client import HauntBot
from cogs import click_limit
from tests.e2e_helpers import (
    latest_turn,
    open_and_start,
    play_by_click,
    seeding_as_moderator,
    to_move,
)
from tests.fakediscord import FakeDiscord
from tests.fakediscord.runner import start_bot, stop_bot

GAMES = ("cthulhu", "betrayal", "evilbelow")


def kind_of(request: str) -> str:
    method, path = request.split(" ", 1)
    if path.endswith("/callback"):
        return "answer"
    if "/webhooks/" in path:
        return "followup" if method == "POST" else "webhook edit"
    if method == "PATCH" and "/messages/" in path:
        return "PATCH"
    if method == "POST" and path.endswith("/messages"):
        return "new message"
    return f"{method} other"


async def play(game: str, clicks: int, seed: int) -> tuple[Counter[str], list[int], int]:
    click_limit.CLICKS = click_limit.ClickLimit(clicks=10**9)
    fd = FakeDiscord()
    fd.slash = seeding_as_moderator(fd)  # type: ignore[method-assign]  # a seeded game
    await fd.start()
    with tempfile.TemporaryDirectory() as folder:
        bot = HauntBot(db_path=str(Path(folder) / "bench.sqlite3"), sync_commands=False)
        task = await start_bot(bot, fd)
        try:
            channel = fd.add_channel(game)
            users = [fd.add_user(n) for n in ("ann", "bob", "cat")]
            by_id = {u.id: u for u in users}
            await open_and_start(fd, channel, users, game, seed)
            rng = random.Random(seed)
            kinds: Counter[str] = Counter()
            per_click: list[int] = []
            done = 0
            for _ in range(clicks):
                post = latest_turn(fd, channel)
                mover = by_id.get(to_move(post) or 0)
                if mover is None:
                    break  # the game is over, or waits on a DM turn
                before = len(fd.requests)
                await play_by_click(fd, mover, post, rng)
                await fd.settle()
                sent = [kind_of(r) for r in fd.requests[before:]]
                kinds.update(sent)
                per_click.append(len(sent))
                done += 1
        finally:
            await stop_bot(bot, task)
            await fd.stop()
    return kinds, per_click, done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for game in GAMES:
        kinds, per_click, done = asyncio.run(play(game, args.clicks, args.seed))
        mean = statistics.fmean(per_click) if per_click else 0.0
        parts = ", ".join(f"{k} {v / max(done, 1):.2f}" for k, v in sorted(kinds.items()))
        print(f"{game:10} clicks {done:3}  requests/click {mean:.2f}  ({parts})")


if __name__ == "__main__":
    main()
