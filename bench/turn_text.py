"""How much a channel reads per turn: public characters and lines of each delivery.

A game with one human seat (the host, whose moves the game's AI chooses) and AI seats,
played through the real sessions layer with the AI chain on, as the bot runs it (no
boards drawn: the text is what is measured). For every delivery it counts the public
lines the delivery carried (all of them: what `/game log` shows) and the live message's
text as bot/live_message.step decides it (what the channel reads at a glance), and the
overflow messages a delivery sent before a new live message.

    python bench/turn_text.py [--games 3] [--players 4]

Recorded (issue 20), `--games 2` (seeds 1 and 2), 1 human + 3 AI seats: characters
per delivery median / longest, lines median / most. "all": every public line a delivery
carried (what `/game log` now holds); "live": the live message's text.

    before (every line in the live message, overflow messages before it):
      cthulhu    all  586 / 1828, lines 12 / 28   live  631 / 1854, lines 13 / 34   overflow 0
      betrayal   all  209 / 4362, lines  3 / 56   live 1209 / 1886, lines 18 / 38   overflow 7
      neibolt    all  342 / 6038, lines  4 / 82   live 1123 / 1861, lines 17 / 31   overflow 12
      evilbelow  all   76 / 3872, lines  1 / 54   live 1424 / 1893, lines 21 / 31   overflow 22
    after (headlines only: bot/headlines.py):
      cthulhu    all  586 / 1828, lines 12 / 28   live  162 /  202, lines 3 / 3   overflow 0
      betrayal   all  195 / 4064, lines  3 / 56   live  146 /  232, lines 3 / 3   overflow 0
      neibolt    all  310 / 5661, lines  4 / 82   live  155 /  252, lines 3 / 3   overflow 0
      evilbelow  all   76 / 3872, lines  1 / 54   live  155 /  218, lines 3 / 3   overflow 0

The live text of a turn already under way keeps gathering its lines, so "before" is
longer than one delivery's lines; the live figures count the footer ("**@bob**, it's
your move.") too. A rumble's score (Cthulhu) closes the rumble's message whole; that
closing edit is not a turn and is not counted here.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import statistics
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.quiet import QuietOutlet
from bot import games
from bot import table as table_rules
from bot.core.actions import Action
from bot.live_message import post_lines, step
from bot.sessions import Outcome, Post, Sessions
from bot.store import OVER, LiveMessage, Table, open_store

CHANNEL, GUILD, HOST = 1, 1, 1
MAX_ACTIONS = 3000
GAMES = {"cthulhu": ("cthulhu", {}), "betrayal": ("betrayal", {}),
         "neibolt": ("betrayal", {"expansion": "neibolt"}), "evilbelow": ("evilbelow", {})}


@dataclass
class TextOutlet(QuietOutlet):
    """Measures what each delivery puts before the channel, sending nothing."""

    live: LiveMessage | None = None
    all_chars: list[int] = field(default_factory=list)  # every public line of a delivery
    all_lines: list[int] = field(default_factory=list)
    live_chars: list[int] = field(default_factory=list)  # the live message's text
    live_lines: list[int] = field(default_factory=list)
    overflow: int = 0
    # Messages a new chapter's opening took before its live message, when what led to it
    # (a haunt revealed amid AI turns) outgrew the old message: told whole, once a
    # chapter (bot/live_message.py), not a turn's overflow.
    spilled: int = 0
    texts: list[str] = field(default_factory=list)  # the live texts, for the tests
    # Deliveries whose live text holds a line told whole (a rumble's score), by index of
    # `texts`: not a turn, and not held to a turn's few lines.
    wholes: list[int] = field(default_factory=list)
    public: list[str] = field(default_factory=list)  # every public line (the log's)
    next_id: int = 1

    async def publish(self, table: Table, post: Post) -> None:
        prompt = post.prompt
        private = (table.status != OVER and prompt is not None and prompt.private
                   and prompt.user_id is not None)
        ping_user = prompt.user_id if prompt is not None and not private else None
        public = post_lines(post)
        self.public.extend(post.lines)
        decided = step(self.live, table, post, private_turn=private, ping_user=ping_user)
        if table.status != OVER and public:  # the end's summary is a document, not a turn
            self.all_chars.append(len("\n".join(public)))
            self.all_lines.append(len(public))
            self.live_chars.append(len(decided.text))
            self.live_lines.append(decided.text.count("\n") + 1)
            if any(post.whole):
                self.wholes.append(len(self.texts))
            self.texts.append(decided.text)
            if decided.why == "chapter":
                self.spilled += len(decided.overflow)
            else:
                self.overflow += len(decided.overflow) - decided.reuse
        message_id = self.live.message_id if self.live is not None else 0
        if decided.fresh:
            message_id, self.next_id = self.next_id, self.next_id + 1
        self.live = dataclasses.replace(decided.live, message_id=message_id)


async def play(name: str, players: int, seed: int,
               max_actions: int = MAX_ACTIONS) -> TextOutlet:
    """One game (of GAMES) to its end, or `max_actions` human moves."""
    kind, options = GAMES[name]
    game = games.get(kind)
    outlet = TextOutlet()
    with tempfile.TemporaryDirectory() as tmp:
        store = await open_store(Path(tmp) / "text.sqlite3")
        sessions = Sessions(store, outlet, render=False)
        host = table_rules.Actor(HOST, "Host")
        try:
            await sessions.open(CHANNEL, GUILD, host, kind, seed, dict(options))
            for _ in range(players - 1):
                await sessions.act(CHANNEL, host, Action(table_rules.ADD_AI))
            outcome: Outcome = await sessions.act(CHANNEL, host, Action(table_rules.START))
            for _ in range(max_actions):
                table = outcome.table
                if table.status == OVER:
                    break
                seat = table_rules.to_act_seat(table)
                assert seat is not None and table.state is not None
                action = game.ai_action(game.load(table.state), seat)
                outcome = await sessions.act(CHANNEL, host, action, version=table.version)
        finally:
            await store.close()
    return outlet


def figures(outlets: list[TextOutlet]) -> str:
    def both(chars: list[int], lines: list[int]) -> str:
        return (f"{int(statistics.median(chars)):>4} / {max(chars):>4}, lines "
                f"{int(statistics.median(lines))} / {max(lines)}")
    ac = [n for o in outlets for n in o.all_chars]
    al = [n for o in outlets for n in o.all_lines]
    lc = [n for o in outlets for n in o.live_chars]
    ll = [n for o in outlets for n in o.live_lines]
    return (f"all {both(ac, al)}   live {both(lc, ll)}   overflow "
            f"{sum(o.overflow for o in outlets)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=sorted(GAMES))
    args = parser.parse_args()
    for name in GAMES:
        if args.only and name != args.only:
            continue
        outlets = [asyncio.run(play(name, args.players, seed))
                   for seed in range(args.seed, args.seed + args.games)]
        print(f"{name:<12} {figures(outlets)}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
