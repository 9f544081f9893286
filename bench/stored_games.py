"""A store as a busy bot's file holds it after months: many games of every kind and
stage, for the start-up benchmark (bench/bench_startup.py).

Real tables first: every game (Cthulhu, Betrayal, Betrayal at the Neibolt House, IT:
Evil Below) is played through the real sessions layer into a small template file, two
humans and an AI at each table as tests/golden_states.py seats them, and stopped at
several stages: its lobby, a few points under way (a human to act), a point where the
AI is to act, and its end. Each template keeps what the store wrote for it: the game
row, its whole event log, its undo points. Then the big file is filled from the
templates inside SQLite (ATTACH and INSERT ... SELECT over a plan of rows), so 10,000
games with their logs take seconds, not hours of play.

What waits for the bot in the copy (`Plan`): some games owe their last delivery (a
crash between the save and the post), finished ones owe their end, some were cut while
an AI was to act, and the running games of servers with a turn timer have their timers
armed, some of them due already (they fell due while the bot was down). Those games sit
in channels the fake Discord knows, with its users in the seats; every other game is in
a channel and a server the bot never touches at a start.
"""

from __future__ import annotations

import random
import sqlite3
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.quiet import QuietOutlet
from bot import table as table_rules
from bot.core.actions import Action
from bot.guild_settings import AI_PLAYS, GuildSettings
from bot.sessions import Post, Sessions
from bot.store import ACTIVE, END_TIMER, LOBBY, OVER, REMIND_TIMER, Table, open_store
from bot.store import rows as Q
from tests.golden_states import VARIANTS, Variant

# Stages a template is stopped at: the lobby, after this many decisions (a human to
# act), the first AI turn after AI_AFTER decisions, the end.
MIDGAME = (8, 30, 80)
AI_AFTER = 12
MOST_STEPS = 4000  # a game that has not ended by then is a bug, not a template
TEMPLATE_CHANNEL = 900  # the template file's channels: one per template game

# The share of each status among the stored games.
SHARES = {OVER: 0.60, ACTIVE: 0.28, LOBBY: 0.12}
OTHER_GUILDS = 300  # the servers of the games no start touches
FIRST_QUIET_CHANNEL = 5_000_000  # their channels
HOUR = 3600.0


class _Nowhere(QuietOutlet):
    async def publish(self, table: Table, post: Post) -> None:
        return None


@dataclass(frozen=True)
class Template:
    """One game of the template file, stopped at a stage."""

    game_id: int
    kind: str
    status: str
    stage: str  # lobby, mid, ai, over
    seat: int | None  # the human to act (a running game's), for its timers
    user_id: int | None


@dataclass
class Plan:
    """How many of each the big file holds, and which games wait for the bot."""

    games: int = 10_000
    owed: int = 3  # running games owing their last delivery
    owed_ends: int = 1  # finished games owing their end
    ai_turns: int = 2  # running games cut while an AI was to act
    timers: int = 400  # running games with armed turn timers (a reminder and an end)
    due_reminders: int = 4  # of which the reminder fell due while the bot was down
    due_ends: int = 2  # of which the turn's time ran out (the AI plays it)
    seed: int = 1

    @property
    def touched(self) -> int:
        """Games a start works on, each in a channel of its own on the fake Discord."""
        return self.owed + self.owed_ends + self.ai_turns + self.due_reminders + self.due_ends


@dataclass
class Built:
    """What the big file holds, as the bench reports it."""

    games: int = 0
    events: int = 0
    undo_points: int = 0
    timers: int = 0
    due_timers: int = 0
    waiting: int = 0  # games needing_attention finds at a start
    by_status: dict[str, int] = field(default_factory=dict)
    state_bytes: dict[str, int] = field(default_factory=dict)  # mean envelope by kind
    file_mb: float = 0.0


async def _open_table(sessions: Sessions, variant: Variant, channel: int, guild: int,
                      users: Sequence[int], seed: int) -> Table:
    """The variant's lobby as golden_states fills it: a host, a guest, the host's pick
    (and second seat), an AI."""
    host = table_rules.Actor(users[0], "Hana")
    guest = table_rules.Actor(users[1], "Gus")
    await sessions.open(channel, guild, host, variant.kind, seed, dict(variant.options))
    await sessions.act(channel, guest, Action(table_rules.JOIN))
    if variant.pick is not None:
        name, value = variant.pick
        await sessions.act(channel, host, Action(table_rules.PICK, {"name": name,
                                                                    "value": value}))
    if variant.second:
        await sessions.act(channel, host, Action(table_rules.SECOND))
    return (await sessions.act(channel, host, Action(table_rules.ADD_AI))).table


def _holder(table: Table, seat: int) -> table_rules.Actor:
    held = table.seats[seat]
    return table_rules.Actor(held.user_id or 0, held.name)


async def _step(sessions: Sessions, table: Table) -> Table:
    """One decision as the bot takes it: an AI seat's through the AI's door, a human's
    through the player's door with the AI choosing for them."""
    if table_rules.ai_due(table):
        outcome = await sessions.ai_step(table.channel_id)
        assert outcome is not None
        return outcome.table
    seat = table_rules.to_act_seat(table)
    assert seat is not None, "nobody is to act"
    action = table_rules.game_of(table).ai_action(table_rules.game_state(table), seat)
    return (await sessions.act(table.channel_id, _holder(table, seat), action,
                               version=table.version)).table


async def _play_to(sessions: Sessions, table: Table, stage: str, decisions: int) -> Table:
    """Play on from the start until the stage: `decisions` decisions with a human to
    act after, the first AI turn after them, or the end."""
    for done in range(MOST_STEPS):
        if table.status != ACTIVE:
            return table
        human = not table_rules.ai_due(table)
        if stage == "mid" and done >= decisions and human:
            return table
        if stage == "ai" and done >= decisions and not human:
            return table
        table = await _step(sessions, table)
    raise RuntimeError(f"a {table.kind} game did not reach its {stage} in {MOST_STEPS} steps")


async def make_templates(path: Path, guild: int, users: Sequence[int],
                         seed: int) -> list[Template]:
    """Every variant played to each stage, one game per stage, in a file of their own."""
    store = await open_store(path)
    sessions = Sessions(store, _Nowhere(), render=False, ai_chain=False)
    made: list[Template] = []
    channel = TEMPLATE_CHANNEL
    try:
        for variant in VARIANTS:
            stages = [("lobby", 0), *(("mid", n) for n in MIDGAME), ("ai", AI_AFTER),
                      ("over", 0)]
            for stage, decisions in stages:
                channel += 1
                table = await _open_table(sessions, variant, channel, guild, users,
                                          seed + channel)
                if stage != "lobby":
                    host = _holder(table, 0)
                    table = (await sessions.act(channel, host,
                                                Action(table_rules.START))).table
                    table = await _play_to(sessions, table, stage, decisions)
                if stage == "mid" and table.status == OVER:
                    continue  # ended early: the "over" template covers it
                seat = table_rules.to_act_seat(table) if stage == "mid" else None
                user = table.seats[seat].user_id if seat is not None else None
                assert table.id is not None
                made.append(Template(table.id, table.kind, table.status, stage, seat, user))
    finally:
        await store.close()
    return made


def _spread(plan: Plan, templates: list[Template], rng: random.Random
            ) -> list[tuple[Template, str]]:
    """Each stored game's template and role: quiet, owed, owed_end, ai, remind, end,
    timer (armed, not due). The games that wait for the bot come first."""
    by_stage: dict[str, list[Template]] = {}
    for template in templates:
        by_stage.setdefault(template.stage, []).append(template)
    roles: list[tuple[Template, str]] = []
    for role, count, stage in (("owed", plan.owed, "mid"), ("owed_end", plan.owed_ends, "over"),
                               ("ai", plan.ai_turns, "ai"),
                               ("remind", plan.due_reminders, "mid"),
                               ("end", plan.due_ends, "mid"),
                               ("timer", plan.timers - plan.due_reminders - plan.due_ends,
                                "mid")):
        roles += [(rng.choice(by_stage[stage]), role) for _ in range(count)]
    left = plan.games - len(roles)
    counts = {status: round(left * share) for status, share in SHARES.items()}
    counts[ACTIVE] = left - counts[OVER] - counts[LOBBY]
    for status, stage in ((OVER, "over"), (ACTIVE, "mid"), (LOBBY, "lobby")):
        roles += [(rng.choice(by_stage[stage]), "quiet") for _ in range(counts[status])]
    return roles[:plan.games]


def fill(path: Path, template_path: Path, templates: list[Template], plan: Plan,
         channels: Sequence[int], guild: int, now: float) -> Built:
    """Copy the templates into the store file at `path` (its schema made already by
    open_store) as `plan` says; `channels`: the fake Discord's channels, one for each
    game a start works on. Returns what it holds."""
    rng = random.Random(plan.seed)
    roles = _spread(plan, templates, rng)
    if len(channels) < plan.touched:
        raise ValueError(f"{plan.touched} games wait for the bot, {len(channels)} channels")
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("ATTACH DATABASE ? AS t", (str(template_path),))
    db.execute("CREATE TEMP TABLE copies (new_id INTEGER PRIMARY KEY, template INTEGER,"
               " channel_id INTEGER, guild_id INTEGER, role TEXT)")
    rows = []
    touched = iter(channels)
    quiet_channel = FIRST_QUIET_CHANNEL
    for n, (template, role) in enumerate(roles, start=1):
        if role in ("quiet", "timer"):
            # A finished game shares a channel with a later game, as channels host many.
            quiet_channel += 1 if template.status != OVER or n % 2 else 0
            channel, where = quiet_channel, guild if role == "timer" else 1000 + n % OTHER_GUILDS
        else:
            channel, where = next(touched), guild
        rows.append((n, template.game_id, channel, where, role))
    db.execute("BEGIN")
    db.executemany("INSERT INTO copies VALUES (?, ?, ?, ?, ?)", rows)
    db.execute(
        "INSERT INTO games (id, channel_id, guild_id, kind, status, state_json, version,"
        " created_at, updated_at, last_seq, delivered_seq, ai_turn, lobby_message_id)"
        " SELECT c.new_id, c.channel_id, c.guild_id, g.kind, g.status, g.state_json,"
        " g.version, g.created_at, g.updated_at, g.last_seq, g.last_seq, g.ai_turn,"
        " g.lobby_message_id FROM copies c JOIN t.games g ON g.id = c.template"
        " ORDER BY c.new_id")
    db.execute(
        "INSERT INTO events (game_id, seq, version, ts, actor_id, action_json, audience,"
        " text, kind) SELECT c.new_id, e.seq, e.version, e.ts, e.actor_id, e.action_json,"
        " e.audience, e.text, e.kind FROM copies c JOIN t.events e ON e.game_id = c.template"
        " ORDER BY c.new_id, e.seq")
    db.execute(
        "INSERT INTO undo_points (game_id, version, envelope, actor_id, summary, created_at)"
        " SELECT c.new_id, u.version, u.envelope, u.actor_id, u.summary, u.created_at"
        " FROM copies c JOIN t.undo_points u ON u.game_id = c.template")
    # The live message a running or finished game shows (a quiet game's is never read).
    db.execute(
        "INSERT INTO live_messages (game_id, message_id, chapter, turn, board_hash,"
        " lines_json, delivery) SELECT c.new_id, 7000000000 + c.new_id, 'chapter', 'turn',"
        " 'hash', '{\"lines\": [], \"through\": 0}', 'key' FROM copies c"
        " JOIN games g ON g.id = c.new_id WHERE g.status != 'lobby' AND c.role = 'quiet'")
    # Owed: the last save's events not delivered (a crash between the save and the post).
    db.execute(
        "UPDATE games SET delivered_seq = (SELECT COALESCE(MAX(seq), 0) FROM events e"
        " WHERE e.game_id = games.id AND e.version < games.version)"
        " WHERE id IN (SELECT new_id FROM copies WHERE role IN ('owed', 'owed_end'))")
    timers = []
    for n, (template, role) in enumerate(roles, start=1):
        if role not in ("remind", "end", "timer"):
            continue
        version = db.execute("SELECT version, channel_id FROM games WHERE id = ?",
                             (n,)).fetchone()
        armed = now - (2 if role != "timer" else rng.uniform(0, 0.5)) * HOUR
        remind_at = armed + HOUR if role != "remind" else now - 60.0
        end_at = armed + 2 * HOUR if role != "end" else now - 30.0
        if role == "end":
            remind_at = now - HOUR  # fired already: only the end is left
        for kind, due in ((REMIND_TIMER, remind_at), (END_TIMER, end_at)):
            if kind == REMIND_TIMER and role == "end":
                continue
            timers.append((n, kind, version[0], version[1], template.seat, template.user_id,
                           due, armed))
    db.executemany("INSERT INTO turn_timers (game_id, kind, version, channel_id, seat,"
                   " user_id, due_at, armed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", timers)
    settings = GuildSettings(remind_minutes=60, act_minutes=120, timer_end=AI_PLAYS)
    db.execute("INSERT INTO guild_settings (guild_id, settings_json, updated_at)"
               " VALUES (?, ?, ?)", (guild, Q.settings_json(settings.to_dict()), now))
    db.execute("UPDATE sqlite_sequence SET seq = (SELECT MAX(id) FROM games)"
               " WHERE name = 'games'")
    db.execute("COMMIT")
    db.execute("DETACH DATABASE t")
    built = _built(db, now)
    db.close()
    built.file_mb = path.stat().st_size / 1e6
    return built


def _built(db: sqlite3.Connection, now: float) -> Built:
    built = Built()
    built.games = db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    built.events = db.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    built.undo_points = db.execute("SELECT COUNT(*) FROM undo_points").fetchone()[0]
    built.timers = db.execute("SELECT COUNT(*) FROM turn_timers").fetchone()[0]
    built.due_timers = db.execute("SELECT COUNT(*) FROM turn_timers WHERE due_at <= ?",
                                  (now,)).fetchone()[0]
    built.waiting = len(db.execute(Q.needing_attention_sql(True)).fetchall())
    built.by_status = dict(db.execute("SELECT status, COUNT(*) FROM games GROUP BY status"))
    built.state_bytes = {kind: int(size) for kind, size in db.execute(
        "SELECT kind, AVG(LENGTH(state_json)) FROM games WHERE status = 'active'"
        " GROUP BY kind")}
    return built


async def build(path: Path, work: Path, plan: Plan, channels: Sequence[int], guild: int,
                users: Sequence[int]) -> Built:
    """The big store at `path`: templates played in `work`, then copied as `plan` says."""
    template_path = work / "templates.sqlite3"
    templates = await make_templates(template_path, guild, users, plan.seed)
    await (await open_store(path)).close()  # the schema, as the bot makes it
    return fill(path, template_path, templates, plan, channels, guild, time.time())
