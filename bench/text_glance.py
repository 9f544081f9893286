"""What players read across whole games, per delivery: a benchmark script, not a test.

In a Discord chat window the live message's text (what just happened, whose turn) sits
above the board (about 550x350): it should read in a glance. This plays games of each
system with every seat a human's (their moves chosen by the game's AI, out-of-turn offers
too), through the real sessions layer (no boards drawn), in English and with the server
and every player reading zh-TW, and collects what each delivery puts before a reader:

- live: the live message's content as bot/live_message.step decides it (the footer too);
- log: every public line of the delivery (what `/game log` and a play-by-play thread get);
- dm: each whisper (a player's private line, as the outlet sends it, footer left out);
- team: each team message (a team's thread);
- secret: the acting seat's "My secrets" answer (an ephemeral reply, Game.private_view),
  read after every delivery that changed it.

For each it reports lines and characters (p50 / p95 / max) and the longest line, per
game and language, and the worst messages verbatim (most characters).

    .venv/bin/python bench/text_glance.py                   # 1 game each, about 1 min
    .venv/bin/python bench/text_glance.py --games 2 --worst 10
    .venv/bin/python bench/text_glance.py --only evilbelow --language en

Recorded with `--games 2` (seeds 1 and 2), 4 seats, p50/p95/max. Every live message
already holds at most 3 lines (bot/headlines.py), so the figures to watch are its
characters and its longest line. Evil Below's wording changes (a revealed totem's line
leaves out "face-up weaknesses met: 0 (worth 0)" and a worth equal to the count; an
attack's points on one Loser, and its discards that find no card, said once) moved:

    evilbelow en    live  chars 152/207/247 -> 150/191/223   longest line 71/97/115 -> 69/95/102
    evilbelow en    log   chars  75/454/1122 -> 71/454/1122  longest line 70/205/206 -> 67/205/206
    evilbelow zh-TW live  chars  61/ 96/110 ->  60/ 76/ 89   longest line 28/42/50 -> 27/34/46
    evilbelow zh-TW log   chars  28/180/460 ->  26/176/460   longest line 26/66/66 -> 22/66/66
    deliveries saying one line twice: 6 -> 2 (the 2 left: Neibolt's two separate
    "takes 2 physical damage" of one nightmare, both true)

The other games' figures did not move (live chars, en: cthulhu 107/203/207, betrayal
151/186/232, neibolt 152/195/230; zh-TW 43/64/67, 61/124/146, 62/129/162). "My secrets"
(secret) is the longest read by far (Neibolt's haunt book: 26/29/30 lines, up to 2,860
characters), an answer read on demand, not at a glance.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import math
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot import games
from bot import table as table_rules
from bot.core.actions import Action
from bot.live_message import step
from bot.locales import CHINESE, ENGLISH, speaking
from bot.sessions import Outcome, Post, Sessions
from bot.store import OVER, LiveMessage, Table, open_store

CHANNEL, GUILD = 1, 1
USERS = [1, 2, 3, 4, 5, 6]
MAX_ACTIONS = 3000
MAX_OFFERS = 20
GAMES = {"cthulhu": ("cthulhu", {}), "betrayal": ("betrayal", {}),
         "neibolt": ("betrayal", {"expansion": "neibolt"}), "evilbelow": ("evilbelow", {})}
KINDS = ("live", "log", "dm", "team", "secret")


@dataclass
class Read:
    """One message a reader reads."""

    kind: str  # one of KINDS
    game: str
    language: str
    text: str

    @property
    def lines(self) -> int:
        return self.text.count("\n") + 1

    @property
    def chars(self) -> int:
        return len(self.text)

    @property
    def longest(self) -> int:
        return max(len(line) for line in self.text.split("\n"))


@dataclass
class GlanceOutlet:
    """Keeps every text a delivery sends, sending nothing."""

    game: str
    language: str
    live: LiveMessage | None = None
    reads: list[Read] = field(default_factory=list)
    next_id: int = 1

    def keep(self, kind: str, text: str) -> None:
        if text.strip():
            self.reads.append(Read(kind, self.game, self.language, text))

    async def whisper(self, table: Table, user_id: int, text: str, *, key: str = "") -> bool:
        self.keep("dm", text)
        return True

    async def team(self, table: Table, team: str, user_ids: list[int], text: str, *,
                   key: str = "") -> list[int]:
        self.keep("team", text)
        return []

    async def remind(self, table: Table, user_id: int, text: str) -> None:
        return None

    async def publish(self, table: Table, post: Post) -> None:
        prompt = post.prompt
        private = (table.status != OVER and prompt is not None and prompt.private
                   and prompt.user_id is not None)
        ping_user = prompt.user_id if prompt is not None and not private else None
        with speaking(self.language):
            decided = step(self.live, table, post, private_turn=private, ping_user=ping_user)
        if table.status != OVER:  # the end's summary is a document, not a turn
            self.keep("live", decided.text)
            self.keep("log", "\n".join(post.lines))
        message_id = self.live.message_id if self.live is not None else 0
        if decided.fresh:
            message_id, self.next_id = self.next_id, self.next_id + 1
        self.live = dataclasses.replace(decided.live, message_id=message_id)


def actor(user: int, language: str) -> table_rules.Actor:
    return table_rules.Actor(user, f"P{user}", language=language, guild_language=language)


async def play(name: str, players: int, seed: int, language: str,
               max_actions: int = MAX_ACTIONS) -> GlanceOutlet:
    """One game (of GAMES) to its end, every seat a human's, their moves the AI's."""
    kind, options = GAMES[name]
    game = games.get(kind)
    outlet = GlanceOutlet(name, language)
    people = [actor(u, language) for u in USERS[:players]]
    secrets: dict[int, str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        store = await open_store(Path(tmp) / "glance.sqlite3")
        sessions = Sessions(store, outlet, render=False)  # type: ignore[arg-type]
        try:
            await sessions.open(CHANNEL, GUILD, people[0], kind, seed, dict(options))
            for person in people[1:]:
                await sessions.act(CHANNEL, person, Action(table_rules.JOIN))
            outcome: Outcome = await sessions.act(CHANNEL, people[0],
                                                  Action(table_rules.START))
            for _ in range(max_actions):
                table = outcome.table
                if table.status == OVER or table.state is None:
                    break
                offered = await _offers(sessions, table, people)
                if offered is not None:
                    outcome, table = offered, offered.table
                if table.status == OVER or table.state is None:
                    break
                seat = table_rules.to_act_seat(table)
                assert seat is not None and table.state is not None
                state = game.load(table.state)
                with speaking(language):
                    secret = game.private_view(state, seat)
                if secrets.get(seat) != secret:
                    secrets[seat] = secret
                    outlet.keep("secret", secret)
                action = game.ai_action(state, seat)
                who = _holder(table, seat, people)
                outcome = await sessions.act(CHANNEL, who, action, version=table.version)
        finally:
            await store.close()
    return outlet


def _holder(table: Table, seat: int, people: list[table_rules.Actor]) -> table_rules.Actor:
    user = table.seats[seat].user_id
    return next(p for p in people if p.user_id == user)


async def _offers(sessions: Sessions, table: Table,
                  people: list[table_rules.Actor]) -> Outcome | None:
    """The out-of-turn offers the seats' AI would take, as their holders' clicks."""
    outcome: Outcome | None = None
    game = table_rules.game_of(table)
    for _ in range(MAX_OFFERS):
        taken = False
        for seat in table_rules.out_of_turn_seats(table):
            offer = game.ai_offer(table_rules.game_state(table), seat)
            if offer is None:
                continue
            outcome = await sessions.act(CHANNEL, _holder(table, seat, people),
                                         table_rules.for_seat(offer, seat),
                                         version=table.version)
            table = outcome.table
            taken = True
            break
        if not taken or table.status == OVER:
            break
    return outcome


def percentile(values: list[int], p: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(p * len(ordered)) - 1))]


def spread(values: list[int]) -> str:
    if not values:
        return "   -/   -/   -"
    return f"{percentile(values, .5):>4}/{percentile(values, .95):>4}/{max(values):>4}"


def table_of(reads: list[Read]) -> list[str]:
    """p50/p95/max of lines, characters and the longest line, per game, language, kind."""
    rows = [f"{'game':<10}{'lang':<6}{'kind':<7}{'n':>5}  {'lines p50/p95/max':<18}"
            f"{'chars p50/p95/max':<19}{'longest line p50/p95/max'}"]
    for name in GAMES:
        for language in (ENGLISH, CHINESE):
            for kind in KINDS:
                some = [r for r in reads if r.game == name and r.language == language
                        and r.kind == kind]
                if not some:
                    continue
                rows.append(f"{name:<10}{language:<6}{kind:<7}{len(some):>5}  "
                            f"{spread([r.lines for r in some]):<18}"
                            f"{spread([r.chars for r in some]):<19}"
                            f"{spread([r.longest for r in some])}")
    return rows


def worst(reads: list[Read], count: int, kind: str | None = None) -> list[str]:
    """The `count` longest messages (characters), verbatim."""
    if count <= 0:
        return []
    some = [r for r in reads if kind is None or r.kind == kind]
    ranked = sorted(some, key=lambda r: (-r.chars, -r.lines))
    out: list[str] = []
    seen: set[str] = set()
    for r in ranked:
        if r.text in seen:
            continue
        seen.add(r.text)
        out.append(f"--- {r.game} {r.language} {r.kind}: {r.lines} lines, {r.chars} chars")
        out.append(r.text)
        if len(seen) >= count:
            break
    return out


def repeated(reads: list[Read]) -> list[str]:
    """Messages that say one line twice (a delivery's repeats)."""
    out: list[str] = []
    for r in reads:
        lines = [line for line in r.text.split("\n") if line.strip()]
        twice = sorted({line for line in lines if lines.count(line) > 1})
        if twice:
            out.append(f"{r.game} {r.language} {r.kind}: {twice[0][:100]}")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=sorted(GAMES))
    parser.add_argument("--language", choices=[ENGLISH, CHINESE])
    parser.add_argument("--worst", type=int, default=10)
    parser.add_argument("--kind", choices=KINDS, help="the worst messages of this kind only")
    args = parser.parse_args()
    reads: list[Read] = []
    for name in GAMES:
        if args.only and name != args.only:
            continue
        for language in (ENGLISH, CHINESE):
            if args.language and language != args.language:
                continue
            for seed in range(args.seed, args.seed + args.games):
                reads += asyncio.run(play(name, args.players, seed, language)).reads
    print("\n".join(table_of(reads)))
    twice = repeated(reads)
    print(f"\nmessages saying a line twice: {len(twice)}")
    print("\n".join(twice[:10]))
    print(f"\nworst {args.worst}:")
    print("\n".join(worst(reads, args.worst, args.kind)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
