"""What the SQLite and PostgreSQL backends share: the SQL both speak, and rows to records.

The statements are written once, with `?` placeholders (SQLite's); the PostgreSQL
backend numbers them (`numbered`), so a change to a query is made in one place and the
two backends cannot drift apart. The few places where the dialects differ (the JSON
in an action, how a game's id is made) are the backends' own.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from bot.core.events import Event
from bot.live_record import LiveMessage
from bot.store.records import (
    GameResult,
    LoggedEvent,
    PlayedSeat,
    SeatResult,
    TimerArm,
    UndoPoint,
)
from bot.table_record import UNDO_KEPT, Table

# A game row's columns, the envelope (state_json) in the middle; {envelope} is how the
# backend reads it (SQLite decodes it through a converter, PostgreSQL as plain text).
GAME_COLUMNS = ("id, channel_id, guild_id, kind, status, version, {envelope},"
                " last_seq, delivered_seq")
GAME_COLUMN_COUNT = GAME_COLUMNS.count(",") + 1
EVENT_COLUMNS = "seq, version, ts, actor_id, audience, text, kind, seat, texts"
TIMER_COLUMNS = "game_id, kind, version, channel_id, seat, user_id, due_at, armed_at"
LIVE_COLUMNS = ("message_id, chapter, turn, board_hash, lines_json, delivery, extras,"
                " ping_id, ping_user")

# Games with their live messages: LIVE_COLUMNS after the game's, NULL when it has none.
_WITH_LIVE = ("SELECT {columns}, "
              + ", ".join(f"l.{c.strip()}" for c in LIVE_COLUMNS.split(","))
              + " FROM games LEFT JOIN live_messages l ON l.game_id = games.id")
# The channel's open game with its live message: what an action loads, so its delivery
# needs no read of its own.
LOAD_OPEN_LIVE = _WITH_LIVE + " WHERE games.channel_id = ? AND games.status != ?"
LOAD_GAME = "SELECT {columns} FROM games WHERE id = ?"
LOAD_LATEST = "SELECT {columns} FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1"
LOAD_LAST_OVER = ("SELECT {columns} FROM games WHERE channel_id = ? AND status = ?"
                  " ORDER BY id DESC LIMIT 1")
LIST_OPEN = "SELECT {columns} FROM games WHERE status != ?"
# The games played last, newest first: the boards a start warms (Sessions.warm_boards),
# each with its live message as LOAD_OPEN_LIVE reads it (a SQLite store keeps the rows
# for the first loads after the start).
RECENTLY_PLAYED = (_WITH_LIVE + " WHERE games.status != ?"
                   " ORDER BY games.updated_at DESC, games.id DESC LIMIT ?")
# The LIKE on the id's digits (a Discord id has 17 or more, so few rows match by chance,
# however the JSON is spaced) only narrows the rows; the seats decide.
OPEN_GAMES_OF = "SELECT {columns} FROM games WHERE status != ? AND state_json LIKE ? ORDER BY id"

INSERT_GAME = ("INSERT INTO games (channel_id, guild_id, kind, status, state_json,"
               " version, created_at, updated_at, last_seq, delivered_seq, ai_turn)"
               " VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?) RETURNING id")
# The version check is in the UPDATE itself: a save that lost a race changes no row.
SAVE_GAME = ("UPDATE games SET status = ?, state_json = ?, version = version + 1,"
             " updated_at = ?, ai_turn = ?, last_seq = last_seq + ?,"
             " delivered_seq = CASE WHEN ? AND delivered_seq = last_seq"
             "                 THEN last_seq + ? ELSE delivered_seq END"
             " WHERE id = ? AND version = ? RETURNING last_seq, delivered_seq")
INSERT_EVENT = ("INSERT INTO events (game_id, seq, version, ts, actor_id, action_json,"
                " audience, text, kind, seat, texts) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
SETTLE_AI_TURN = ("UPDATE games SET ai_turn = ? WHERE id = ? AND version = ?"
                  " AND ai_turn IS NULL")
COUNT_GAMES = "SELECT COUNT(*) FROM games"
COUNT_OPEN = "SELECT COUNT(*) FROM games WHERE status != ?"  # games_by_status serves it
LOBBY_MESSAGE = "SELECT lobby_message_id FROM games WHERE id = ?"
SET_LOBBY_MESSAGE = "UPDATE games SET lobby_message_id = ? WHERE id = ?"
OWING = "SELECT id, channel_id FROM games WHERE delivered_seq < last_seq"
AI_TURNS = ("SELECT id, channel_id FROM games WHERE status != 'over'"
            " AND ai_turn IS NOT FALSE UNION ")

LOG = f"SELECT {EVENT_COLUMNS} FROM events WHERE {{where}} ORDER BY seq DESC LIMIT ?"
UNDELIVERED = (f"SELECT {EVENT_COLUMNS} FROM events WHERE game_id = ? AND seq >"
               " (SELECT delivered_seq FROM games WHERE id = ?) ORDER BY seq")
MARK_DELIVERED = "UPDATE games SET delivered_seq = ? WHERE id = ? AND delivered_seq < ?"
# The DM tail (bot/courier.py): a delivery marked while whispers of its events were
# still waiting on Discord (a player's DM channel's rate limit) leaves a row saying from
# which event on whispers may be owed; the whispers' end takes it away, or moves it on
# when later deliveries were marked meanwhile. Kept by the courier in step with the mark.
OPEN_DM_TAIL = ("INSERT INTO dm_tails (game_id, from_seq) VALUES (?, ?)"
                " ON CONFLICT (game_id) DO NOTHING")
CLOSE_DM_TAIL = ("DELETE FROM dm_tails WHERE game_id = ? AND from_seq <= ?"
                 " AND (SELECT delivered_seq FROM games WHERE id = ?) <= ?")
MOVE_DM_TAIL = "UPDATE dm_tails SET from_seq = ? WHERE game_id = ? AND from_seq < ?"
DM_TAILS = ("SELECT t.game_id, g.channel_id, t.from_seq, g.delivered_seq FROM dm_tails t"
            " JOIN games g ON g.id = t.game_id ORDER BY t.game_id")
TAIL_EVENTS = (f"SELECT {EVENT_COLUMNS} FROM events WHERE game_id = ? AND seq >= ?"
               " AND seq <= ? ORDER BY seq")
# {kind} is the dialect's way to read the action's kind out of its JSON.
MODERATOR_LOG = (f"SELECT {EVENT_COLUMNS} FROM events WHERE seq IN (SELECT MIN(seq) FROM events"
                 " WHERE game_id = ? AND audience = 'public' AND actor_id IS NOT NULL AND"
                 " ({kind} LIKE 'gm.%' OR {kind} = 'table.end')"
                 " GROUP BY version) AND game_id = ? ORDER BY seq DESC LIMIT ?")

TIMERS_DUE = (f"SELECT {TIMER_COLUMNS} FROM turn_timers WHERE due_at <= ?"
              " ORDER BY due_at, game_id, kind LIMIT ?")
TIMERS_OF = f"SELECT {TIMER_COLUMNS} FROM turn_timers WHERE game_id = ? ORDER BY due_at"
CLAIM_TIMER = ("DELETE FROM turn_timers WHERE game_id = ? AND kind = ? AND version = ?"
               f" RETURNING {TIMER_COLUMNS}")
DROP_TIMERS = "DELETE FROM turn_timers WHERE game_id = ?"
INSERT_TIMER = f"INSERT INTO turn_timers ({TIMER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"

PLAYED = ("SELECT content_key FROM played_content WHERE guild_id = ? AND kind = ?"
          " ORDER BY first_played_at, content_key")
INSERT_PLAYED = ("INSERT INTO played_content (guild_id, kind, content_key, first_played_at)"
                 " VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING")

GET_THREAD = "SELECT thread_id FROM team_threads WHERE game_id = ? AND team = ?"
THREADS_OF = "SELECT thread_id FROM team_threads WHERE game_id = ? ORDER BY team"
# A thread set now is one the bot just opened: its record of members starts whole.
SET_THREAD = ("INSERT INTO team_threads (game_id, team, thread_id, members_kept)"
              " VALUES (?, ?, ?, TRUE) ON CONFLICT (game_id, team)"
              " DO UPDATE SET thread_id = excluded.thread_id, members_kept = TRUE")
# Whom the bot put in a team thread (cogs/outlet_teams.py), and whether that record is whole.
THREAD_MEMBERS = ("SELECT user_id FROM thread_members WHERE game_id = ? AND thread_id = ?"
                  " ORDER BY user_id")
THREAD_MEMBERS_KEPT = ("SELECT members_kept FROM team_threads"
                       " WHERE game_id = ? AND thread_id = ?")
ADD_THREAD_MEMBER = ("INSERT INTO thread_members (game_id, thread_id, user_id)"
                     " VALUES (?, ?, ?) ON CONFLICT DO NOTHING")
CLEAR_THREAD_MEMBERS = "DELETE FROM thread_members WHERE game_id = ? AND thread_id = ?"
KEEP_THREAD_MEMBERS = ("UPDATE team_threads SET members_kept = TRUE"
                       " WHERE game_id = ? AND thread_id = ?")

UNDO_POINTS = ("SELECT version, {envelope}, actor_id, summary FROM undo_points"
               " WHERE game_id = ? ORDER BY version DESC LIMIT ?")
DROP_UNDO = "DELETE FROM undo_points WHERE game_id = ? AND version >= ?"
# The point is the game's row at the save's expected version, copied row to row (a row at
# another version copies nothing, and the save's version check then fails it all). The
# casts tell PostgreSQL the parameters' types, which a SELECT list does not.
KEEP_UNDO = ("INSERT INTO undo_points (game_id, version, envelope, actor_id, summary,"
             " created_at) SELECT id, version, state_json, CAST(? AS BIGINT),"
             " CAST(? AS TEXT), CAST(? AS DOUBLE PRECISION) FROM games"
             " WHERE id = ? AND version = ? ON CONFLICT (game_id, version) DO UPDATE SET"
             " envelope = excluded.envelope, actor_id = excluded.actor_id,"
             " summary = excluded.summary, created_at = excluded.created_at")
# A finished game is out of undo's reach (only a running game's moves are taken back):
# the save that ends it drops every point it kept (~94 KB for a whole game of ours).
DROP_ALL_UNDO = "DELETE FROM undo_points WHERE game_id = ?"
# At each start: the points of games that ended before the save dropped them (a bot
# older than that kept ~94 KB per finished game). Nothing, once swept.
DROP_FINISHED_UNDO = ("DELETE FROM undo_points WHERE game_id IN"
                      " (SELECT id FROM games WHERE status = ?)")
# Only the newest UNDO_KEPT points stay.
TRIM_UNDO = ("DELETE FROM undo_points WHERE game_id = ? AND version <= (SELECT version"
             " FROM undo_points WHERE game_id = ? ORDER BY version DESC LIMIT 1 OFFSET ?)")

# The engine's steps of a save (bot/moves.py), and all of a game's, oldest first.
INSERT_MOVES = "INSERT INTO moves (game_id, version, moves_json) VALUES (?, ?, ?)"
MOVES_OF = "SELECT version, moves_json FROM moves WHERE game_id = ? ORDER BY version"
# Each save's actor and action as the log keeps them (every event of a save carries
# both): how a game saved before moves were kept is played again (bot/replay.py).
ACTIONS_OF = ("SELECT version, MAX(actor_id), MAX(action_json) FROM events WHERE game_id = ?"
              " GROUP BY version ORDER BY version")

GUILD_SETTINGS = "SELECT settings_json FROM guild_settings WHERE guild_id = ?"
SET_GUILD_SETTINGS = (
    "INSERT INTO guild_settings (guild_id, settings_json, updated_at) VALUES (?, ?, ?)"
    " ON CONFLICT (guild_id) DO UPDATE SET settings_json = excluded.settings_json,"
    " updated_at = excluded.updated_at")

GET_LIVE = f"SELECT {LIVE_COLUMNS} FROM live_messages WHERE game_id = ?"
ADD_NOTICE = "INSERT INTO bot_notices (game_id, ts, kind, detail) VALUES (?, ?, ?, ?)"
NOTICES = ("SELECT ts, kind, detail FROM bot_notices WHERE game_id = ?"
           " ORDER BY ts DESC, kind LIMIT ?")
SET_LIVE = (f"INSERT INTO live_messages (game_id, {LIVE_COLUMNS})"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET"
            " message_id = excluded.message_id, chapter = excluded.chapter,"
            " turn = excluded.turn, board_hash = excluded.board_hash,"
            " lines_json = excluded.lines_json, delivery = excluded.delivery,"
            " extras = excluded.extras, ping_id = excluded.ping_id,"
            " ping_user = excluded.ping_user")

_PLACEHOLDER = re.compile(r"\?")


def numbered(sql: str) -> str:
    """The statement with PostgreSQL's placeholders ($1, $2, ...) for SQLite's `?` (no
    statement here has a `?` inside a string)."""
    counter = iter(range(1, 10_000))
    return _PLACEHOLDER.sub(lambda _: f"${next(counter)}", sql)


def table_of(row: Sequence[Any], envelope: dict[str, Any]) -> Table:
    """A game row (GAME_COLUMNS) and its decoded envelope as a Table."""
    return Table.from_row(id=row[0], channel_id=row[1], guild_id=row[2], kind=row[3],
                          status=row[4], version=row[5], envelope=envelope,
                          last_seq=row[7], delivered_seq=row[8])


def created(table: Table, game_id: int, count: int) -> Table:
    """The table as a create left it: its new id, version 1, its `count` opening events
    written and (answered by the opening interaction) delivered."""
    table.id, table.version = game_id, 1
    table.last_seq = table.delivered_seq = count
    return table


def saved(table: Table, version: int, last_seq: int, delivered_seq: int) -> Table:
    """The table as a save left it: its new version and outbox cursor."""
    table.version = version
    table.last_seq, table.delivered_seq = last_seq, delivered_seq
    return table


def with_live(table: Table, row: Sequence[Any]) -> Table:
    """The table of a LOAD_OPEN_LIVE row, knowing its live message (Table.shown): the
    columns after the game's (GAME_COLUMNS) are the live message's, NULL for none."""
    live = row[GAME_COLUMN_COUNT:]
    table.shown = (live_of(live) if live[0] is not None else None,)
    return table


def live_of(row: Sequence[Any]) -> LiveMessage:
    """lines_json holds {"lines": [...], "through": seq, "alt": text, "dm": [DM channel,
    message, player]}, or, as written before the seq was kept, the list of lines alone
    (through 0: nothing is held back); "alt" came later still (none: the board's next
    edit says it again), "dm" last (none: no DM prompt out, or one this release's
    predecessor kept in memory only)."""
    kept = json.loads(row[4])
    if isinstance(kept, list):
        kept = {"lines": kept, "through": 0}
    dm = kept.get("dm")
    return LiveMessage(int(row[0]), row[1], row[2], row[3], list(kept["lines"]), row[5],
                       bool(row[6]), row[7], row[8], int(kept["through"]),
                       str(kept.get("alt", "")),
                       (int(dm[0]), int(dm[1]), int(dm[2])) if dm else None)


def live_params(game_id: int, live: LiveMessage) -> tuple[Any, ...]:
    kept: dict[str, Any] = {"lines": live.lines, "through": live.through, "alt": live.alt}
    if live.dm_prompt is not None:
        kept["dm"] = list(live.dm_prompt)
    return (game_id, live.message_id, live.chapter, live.turn, live.board_hash,
            json.dumps(kept), live.delivery, bool(live.extras), live.ping_id, live.ping_user)


def undo_point_of(row: Sequence[Any], envelope: dict[str, Any]) -> UndoPoint:
    return UndoPoint(int(row[0]), envelope, row[2], str(row[3]))


def moves_of(rows: Sequence[Sequence[Any]]) -> list[tuple[int, list[dict[str, Any]]]]:
    """Move rows (MOVES_OF) as (version, the moves that save took), oldest first."""
    return [(int(row[0]), list(json.loads(row[1]))) for row in rows]


def actions_of(rows: Sequence[Sequence[Any]]
               ) -> list[tuple[int, int | None, dict[str, Any] | None]]:
    """Action rows (ACTIONS_OF) as (version, actor, action), oldest first."""
    return [(int(row[0]), None if row[1] is None else int(row[1]),
             None if row[2] is None else dict(json.loads(row[2]))) for row in rows]


def logged(rows: Sequence[Sequence[Any]], *, newest_first: bool = False) -> list[LoggedEvent]:
    """Event rows (EVENT_COLUMNS) as logged events, oldest first."""
    events = [LoggedEvent(row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7],
                          texts=json.loads(row[8]) if row[8] else {})
              for row in rows]
    return events[::-1] if newest_first else events


def log_where(public_only: bool) -> str:
    return LOG.format(where="game_id = ?" + (" AND audience = 'public'" if public_only else ""))


def open_games_pattern(user_id: int) -> str:
    return f"%{int(user_id)}%"


def needing_attention_sql(ai_turns: bool) -> str:
    """Every game owing a delivery, and with `ai_turns` every open game whose AI seat is
    to act or not known (games saved before the store tracked it)."""
    return (AI_TURNS + OWING if ai_turns else OWING) + " ORDER BY id"


def event_rows(game_id: int, events: Sequence[Event], first_seq: int, version: int,
               actor_id: int | None, action: dict[str, Any] | None,
               now: float) -> list[tuple[Any, ...]]:
    action_json = json.dumps(action) if action is not None else None
    return [(game_id, first_seq + n, version, now, actor_id, action_json,
             event.audience.encode(), event.text, event.kind, event.seat,
             json.dumps(dict(event.texts), ensure_ascii=False) if event.texts else None)
            for n, event in enumerate(events)]


def timer_rows(table: Table, version: int,
               timers: Sequence[TimerArm]) -> list[tuple[Any, ...]]:
    return [(table.id, t.kind, version, table.channel_id, t.seat, t.user_id, t.due_at,
             t.armed_at) for t in timers]


def played_rows(guild_id: int, kind: str, keys: Sequence[str],
                now: float) -> list[tuple[Any, ...]]:
    """Each key once (a key already recorded keeps its first time: ON CONFLICT)."""
    return [(guild_id, kind, key, now) for key in dict.fromkeys(keys)]


def trim_undo_params(game_id: int) -> tuple[int, int, int]:
    return (game_id, game_id, UNDO_KEPT)


def settings_json(settings: dict[str, Any]) -> str:
    return json.dumps(settings, sort_keys=True)


# -- copying a whole store (bot/store/copy.py) -----------------------------------------------

# Every table of data, each keyed by the columns that order its rows: parents before the
# rows that refer to them, so a copy inserts them in this order. Each backend's own
# bookkeeping (its schema's version) is not data and is not copied.
COPIED_TABLES: dict[str, str] = {
    "games": "id",
    "dm_tails": "game_id",
    "events": "game_id, seq",
    "team_threads": "game_id, team",
    "thread_members": "game_id, thread_id, user_id",
    "played_content": "guild_id, kind, content_key",
    "guild_settings": "guild_id",
    "undo_points": "game_id, version",
    "moves": "game_id, version",
    "turn_timers": "game_id, kind",
    "live_messages": "game_id",
    "bot_notices": "game_id, ts, kind",
    "guild_departures": "guild_id",
    "game_results": "game_id",
    "result_seats": "game_id, seat",
}
# A server the bot left: its data is deleted at forget_at, unless the bot comes back.
SET_DEPARTURE = ("INSERT INTO guild_departures (guild_id, forget_at) VALUES (?, ?)"
                 " ON CONFLICT (guild_id) DO UPDATE SET forget_at = excluded.forget_at")
CANCEL_DEPARTURE = "DELETE FROM guild_departures WHERE guild_id = ?"
DEPARTURES_DUE = ("SELECT guild_id FROM guild_departures WHERE forget_at <= ?"
                  " ORDER BY forget_at")
# Forgetting a server: what hangs off its games first (their foreign keys), then the
# games, then what is kept by server. Each statement takes the guild id once.
_OF_GUILD = "game_id IN (SELECT id FROM games WHERE guild_id = ?)"
FORGET_GUILD = (
    f"DELETE FROM events WHERE {_OF_GUILD}",
    f"DELETE FROM team_threads WHERE {_OF_GUILD}",
    f"DELETE FROM thread_members WHERE {_OF_GUILD}",
    f"DELETE FROM undo_points WHERE {_OF_GUILD}",
    f"DELETE FROM moves WHERE {_OF_GUILD}",
    f"DELETE FROM turn_timers WHERE {_OF_GUILD}",
    f"DELETE FROM live_messages WHERE {_OF_GUILD}",
    f"DELETE FROM dm_tails WHERE {_OF_GUILD}",
    f"DELETE FROM bot_notices WHERE {_OF_GUILD}",
    f"DELETE FROM result_seats WHERE {_OF_GUILD}",
    f"DELETE FROM game_results WHERE {_OF_GUILD}",
    "DELETE FROM games WHERE guild_id = ?",
    "DELETE FROM played_content WHERE guild_id = ?",
    "DELETE FROM guild_settings WHERE guild_id = ?",
    "DELETE FROM guild_departures WHERE guild_id = ?",
)
COUNT_GUILD_GAMES = "SELECT COUNT(*) FROM games WHERE guild_id = ?"
# Every column, whatever the schema holds now: a column a later migration adds is copied
# without a change here (and a target without it refuses the copy).
EXPORT_TABLE = "SELECT * FROM {table} ORDER BY {key}"
COUNT_ROWS = "SELECT COUNT(*) FROM {table}"
# The id a new game takes is past every copied one.
NEXT_GAME_ID = "SELECT COALESCE(MAX(id), 0) + 1 FROM games"


def export_sql(table: str) -> str:
    return EXPORT_TABLE.format(table=table, key=COPIED_TABLES[table])


def count_sql(table: str) -> str:
    return COUNT_ROWS.format(table=table)


# -- finished games: /game history, /stats and the retention sweep --------------------------

RESULT_COLUMNS = ("r.game_id, r.guild_id, r.channel_id, r.kind, r.turns, r.content,"
                  " r.outcome, r.story_json, r.summary, r.started_at, r.ended_at, r.edition")
SEAT_COLUMNS = "seat, user_id, name, ai, side, won, score, character"
# The game's row gives where it was played and when its lobby opened (its start); the
# casts tell PostgreSQL the parameters' types, which a SELECT list does not. A result
# already written (a save redone) stays as it was.
INSERT_RESULT = ("INSERT INTO game_results (game_id, guild_id, channel_id, kind, started_at,"
                 " ended_at, turns, content, outcome, story_json, summary, edition)"
                 " SELECT id, guild_id, channel_id, kind, created_at,"
                 " CAST(? AS DOUBLE PRECISION), CAST(? AS INTEGER), CAST(? AS TEXT),"
                 " CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT)"
                 " FROM games WHERE id = ? ON CONFLICT (game_id) DO NOTHING")
INSERT_SEAT = (f"INSERT INTO result_seats (game_id, {SEAT_COLUMNS})"
               " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, seat) DO NOTHING")
RESULT = f"SELECT {RESULT_COLUMNS} FROM game_results r WHERE r.game_id = ?"
# Newest first; {where} is the server alone or the server and one channel.
HISTORY = (f"SELECT {RESULT_COLUMNS} FROM game_results r WHERE {{where}}"
           " ORDER BY r.ended_at DESC, r.game_id DESC LIMIT ? OFFSET ?")
COUNT_HISTORY = "SELECT COUNT(*) FROM game_results r WHERE {where}"
SEATS_OF = (f"SELECT game_id, {SEAT_COLUMNS} FROM result_seats WHERE game_id IN ({{marks}})"
            " ORDER BY game_id, seat")
# Every seat of the server's finished games (one member's with {user}), oldest first.
PLAYED_SEATS = ("SELECT r.game_id, r.kind, r.turns, r.content, r.started_at, r.ended_at,"
                " (SELECT COUNT(*) FROM result_seats n WHERE n.game_id = r.game_id),"
                " s.seat, s.user_id, s.name, s.ai, s.side, s.won, s.score, s.character,"
                " r.edition"
                " FROM result_seats s JOIN game_results r ON r.game_id = s.game_id"
                " WHERE r.guild_id = ?{user} ORDER BY r.ended_at, r.game_id, s.seat")
ALL_SETTINGS = "SELECT guild_id, settings_json FROM guild_settings ORDER BY guild_id"
# A server's finished games that ended before a time (its retention setting): every row
# that refers to them first (their foreign keys), then the games. Each statement takes
# the guild id and the time.
_EXPIRED = ("game_id IN (SELECT id FROM games WHERE guild_id = ? AND status = 'over'"
            " AND updated_at < ?)")
COUNT_EXPIRED = ("SELECT COUNT(*) FROM games WHERE guild_id = ? AND status = 'over'"
                 " AND updated_at < ?")
SWEEP_GAMES = (
    *(f"DELETE FROM {table} WHERE {_EXPIRED}" for table in (
        "events", "team_threads", "thread_members", "undo_points", "moves", "turn_timers",
        "live_messages", "dm_tails", "bot_notices", "result_seats", "game_results")),
    "DELETE FROM games WHERE guild_id = ? AND status = 'over' AND updated_at < ?",
)


def history_where(channel_id: int | None) -> str:
    return "r.guild_id = ?" + ("" if channel_id is None else " AND r.channel_id = ?")


def history_params(guild_id: int, channel_id: int | None) -> tuple[int, ...]:
    return (guild_id,) if channel_id is None else (guild_id, channel_id)


def seats_sql(count: int) -> str:
    return SEATS_OF.format(marks=", ".join("?" * count))


def played_seats_sql(user_id: int | None) -> str:
    return PLAYED_SEATS.format(user="" if user_id is None else " AND s.user_id = ?")


def seat_result_of(row: Sequence[Any]) -> SeatResult:
    """A result_seats row (SEAT_COLUMNS); SQLite gives its flags as 0 and 1."""
    return SeatResult(int(row[0]), None if row[1] is None else int(row[1]), str(row[2]),
                      bool(row[3]), str(row[4]), bool(row[5]),
                      None if row[6] is None else int(row[6]), str(row[7]))


def results_of(rows: Sequence[Sequence[Any]],
               seat_rows: Sequence[Sequence[Any]]) -> list[GameResult]:
    """Result rows (RESULT_COLUMNS) with their seats (SEATS_OF rows), in the rows' order."""
    seats: dict[int, list[SeatResult]] = {}
    for row in seat_rows:
        seats.setdefault(int(row[0]), []).append(seat_result_of(row[1:]))
    return [GameResult(int(r[0]), None if r[1] is None else int(r[1]), int(r[2]), str(r[3]),
                       int(r[4]), str(r[5]), str(r[6]), str(r[7]), str(r[8]),
                       seats.get(int(r[0]), []), float(r[9]), float(r[10]), str(r[11]))
            for r in rows]


def played_seat_of(row: Sequence[Any]) -> PlayedSeat:
    return PlayedSeat(int(row[0]), str(row[1]), int(row[2]), str(row[3]), float(row[4]),
                      float(row[5]), int(row[6]), seat_result_of(row[7:15]), str(row[15]))


def result_params(result: GameResult, now: float) -> tuple[Any, ...]:
    return (now, result.turns, result.content, result.outcome, result.story, result.summary,
            result.edition, result.game_id)


def seat_rows(result: GameResult) -> list[tuple[Any, ...]]:
    return [(result.game_id, s.seat, s.user_id, s.name, s.ai, s.side, s.won, s.score,
             s.character) for s in result.seats]
