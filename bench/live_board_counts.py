"""What the live message saves the channel: messages posted anew, edits, board uploads.

A game with one human seat (the host, whose moves the game's AI chooses, through the
player's door) and AI seats, played through the real sessions layer with the AI chain
on, as the bot runs it. The outlet here counts instead of sending: for every delivery it
takes the same decision the Discord outlet takes (bot/live_message.step), so the figures
are the bot's, without Discord. Before the live message, each delivery was one new
message and, with a board, one upload.

    python bench/live_board_counts.py [--game betrayal] [--players 4] [--seed 1]

Recorded (issue 11), Betrayal, 1 human + 3 AI seats, `--games 3` (seeds 1..3):

    seed 1: 42 human actions, 43 deliveries (43 boards, 11 identical to the one before)
      before: 43 new messages, 43 board uploads
      live:   9 new live messages (+5 overflow), 34 edits, 33 uploads (10 skipped), 1 ping
              new ones: first 1, too long 6, chapter (the haunt) 1, end 1
    seed 2: 27 human actions, 28 deliveries: before 28 messages, 28 uploads;
      live 6 new (+1 overflow), 22 edits, 25 uploads (3 skipped)
    seed 3: 32 human actions, 33 deliveries: before 33 messages, 33 uploads;
      live 10 new (+2 overflow), 23 edits, 22 uploads (11 skipped)

"Too long": the AI seats' turns told in one delivery run past 2,000 characters (three
Betrayal turns often do): they go before a new live message, never cut.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot import games
from bot import table as table_rules
from bot.core.actions import Action
from bot.delivery import board_hash
from bot.live_message import step
from bot.sessions import Outcome, Post, Sessions
from bot.store import OVER, LiveMessage, Table, open_store

CHANNEL, GUILD, HOST = 1, 1, 1
MAX_ACTIONS = 5000


@dataclass
class CountingOutlet:
    """Counts what the Discord outlet would send for each delivery."""

    live: LiveMessage | None = None
    deliveries: int = 0
    boards: int = 0  # deliveries with a board
    same_board: int = 0  # ... identical to the one before
    new_messages: int = 0  # live messages posted anew
    overflow: int = 0  # plain messages before one: lines that did not fit
    edits: int = 0
    uploads: int = 0  # board uploads
    skipped: int = 0  # board uploads saved: the message shows that board already
    pings: int = 0
    why: dict[str, int] = dataclasses.field(default_factory=dict)  # new messages, by reason
    last_hash: str = ""
    next_id: int = 1

    async def publish(self, table: Table, post: Post) -> None:
        self.deliveries += 1
        prompt = post.prompt
        private = (table.status != OVER and prompt is not None and prompt.private
                   and prompt.user_id is not None)
        ping_user = prompt.user_id if prompt is not None and not private else None
        decided = step(self.live, table, post, private_turn=private, ping_user=ping_user)
        if post.image is not None:
            self.boards += 1
            digest = board_hash(post.image)
            self.same_board += digest == self.last_hash
            self.last_hash = digest
            if decided.attach:
                self.uploads += 1
            else:
                self.skipped += 1
        message_id = self.live.message_id if self.live is not None else 0
        if decided.fresh:
            self.new_messages += 1
            self.why[decided.why] = self.why.get(decided.why, 0) + 1
            self.overflow += len(decided.overflow) - decided.reuse  # the old one, reused
            message_id, self.next_id = self.next_id, self.next_id + 1
        else:
            self.edits += 1
        self.pings += decided.ping
        self.live = dataclasses.replace(decided.live, message_id=message_id)

    async def whisper(self, table: Table, user_id: int, text: str, *, key: str = "") -> bool:
        return True

    async def team(self, table: Table, team: str, user_ids: list[int], text: str, *,
                   key: str = "") -> list[int]:
        return []


async def play(kind: str, players: int, seed: int) -> tuple[CountingOutlet, int]:
    """One game to its end; returns the counts and the human's actions."""
    game = games.get(kind)
    outlet = CountingOutlet()
    with tempfile.TemporaryDirectory() as tmp:
        store = await open_store(Path(tmp) / "live.sqlite3")
        sessions = Sessions(store, outlet)
        host = table_rules.Actor(HOST, "Host")
        human_actions = 0
        try:
            await sessions.open(CHANNEL, GUILD, host, kind, seed)
            for _ in range(players - 1):
                await sessions.act(CHANNEL, host, Action(table_rules.ADD_AI))
            outcome: Outcome = await sessions.act(CHANNEL, host, Action(table_rules.START))
            while outcome.table.status != OVER and human_actions < MAX_ACTIONS:
                table = outcome.table
                seat = table_rules.to_act_seat(table)
                assert seat is not None and table.state is not None
                action = game.ai_action(game.load(table.state), seat)
                outcome = await sessions.act(CHANNEL, host, action, version=table.version)
                human_actions += 1
        finally:
            await store.close()
    return outlet, human_actions


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="betrayal")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=1)
    args = parser.parse_args()
    for seed in range(args.seed, args.seed + args.games):
        c, human = asyncio.run(play(args.game, args.players, seed))
        print(f"{args.game}, 1 human + {args.players - 1} AI, seed {seed}: {human} human "
              f"actions, {c.deliveries} deliveries ({c.boards} boards, {c.same_board} "
              f"identical to the one before).\n"
              f"  before: {c.deliveries} new messages, {c.boards} board uploads\n"
              f"  live:   {c.new_messages} new live messages (+{c.overflow} overflow), "
              f"{c.edits} edits, {c.uploads} board uploads ({c.skipped} skipped), "
              f"{c.pings} pings\n"
              f"  new live messages by reason: {c.why}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
