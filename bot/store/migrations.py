"""Numbered schema migrations, applied in order at start (tracked by PRAGMA user_version).

Append new steps; never edit a step that has shipped, since databases in the wild have
already run it.
"""

from __future__ import annotations

MIGRATIONS: list[str] = [
    # 1: games keyed by an id, with at most one unfinished game per channel. The design
    # sketch keyed games by channel; an id lets finished games keep their log while the
    # channel starts a new one.
    """
    CREATE TABLE games (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        channel_id  INTEGER NOT NULL,
        guild_id    INTEGER,
        kind        TEXT    NOT NULL,
        status      TEXT    NOT NULL,
        state_json  TEXT    NOT NULL,
        version     INTEGER NOT NULL DEFAULT 0,
        created_at  REAL    NOT NULL,
        updated_at  REAL    NOT NULL
    );
    CREATE UNIQUE INDEX games_one_open_per_channel ON games(channel_id) WHERE status != 'over';
    CREATE INDEX games_by_status ON games(status);
    CREATE TABLE events (
        game_id     INTEGER NOT NULL REFERENCES games(id),
        seq         INTEGER NOT NULL,
        version     INTEGER NOT NULL,
        ts          REAL    NOT NULL,
        actor_id    INTEGER,
        action_json TEXT,
        audience    TEXT    NOT NULL,
        text        TEXT    NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    """,
    # 2: the private thread the bot opened for each team of a game (Game.teams),
    # so a restarted bot posts in the same thread instead of opening another.
    """
    CREATE TABLE team_threads (
        game_id     INTEGER NOT NULL REFERENCES games(id),
        team        TEXT    NOT NULL,
        thread_id   INTEGER NOT NULL,
        PRIMARY KEY (game_id, team)
    );
    """,
    # 3: many tables at once and a delivery outbox.
    # - status, map and log read a channel's newest game: an index instead of a scan.
    # - events keep their kind, so what a save must deliver can be rebuilt from the log.
    # - games remember the last event written and the last one delivered: the events in
    #   between are the outbox, written in the same transaction as the save and delivered
    #   (again, once) after a crash.
    # - ai_turn says an AI seat is to act (1), no one needs the bot (0), or unknown (NULL,
    #   games saved before this step): a restart resumes those without reading every state.
    """
    CREATE INDEX games_by_channel ON games(channel_id, id);
    ALTER TABLE events ADD COLUMN kind TEXT NOT NULL DEFAULT 'info';
    ALTER TABLE games ADD COLUMN last_seq INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN delivered_seq INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN ai_turn INTEGER;
    UPDATE games SET last_seq = (SELECT COALESCE(MAX(seq), 0) FROM events
                                 WHERE events.game_id = games.id);
    UPDATE games SET delivered_seq = last_seq;
    CREATE INDEX games_with_ai_turns ON games(ai_turn, channel_id) WHERE status != 'over';
    CREATE INDEX games_owing_delivery ON games(channel_id) WHERE delivered_seq < last_seq;
    """,
    # 4: what each server (guild) has played of a game's content, the first time it came
    # up (a game's scenarios), so a server's next game can choose one it has not played
    # (bot/games/base.py's PLAYED). Keyed by the game's kind, so any game may use it.
    """
    CREATE TABLE played_content (
        guild_id         INTEGER NOT NULL,
        kind             TEXT    NOT NULL,
        content_key      TEXT    NOT NULL,
        first_played_at  REAL    NOT NULL,
        PRIMARY KEY (guild_id, kind, content_key)
    );
    """,
    # 5: each server's table settings (/gm settings): the moderator role, the turn timer,
    # where game commands may be used. One JSON object per server, read whole.
    """
    CREATE TABLE guild_settings (
        guild_id       INTEGER PRIMARY KEY,
        settings_json  TEXT    NOT NULL,
        updated_at     REAL    NOT NULL
    );
    """,
    # 6: the message holding a lobby's embed and buttons, so a slash command edits it in
    # place as a click does, after a restart too.
    """
    ALTER TABLE games ADD COLUMN lobby_message_id INTEGER;
    """,
    # 7: undo points (/gm undo). Before each player's move, the table's envelope as it
    # was, written in the move's own save, so a moderator can take moves back by
    # restoring one as a new version. Keyed by the version the envelope had; at most
    # UNDO_KEPT per game (bot/table_record.py).
    """
    CREATE TABLE undo_points (
        game_id     INTEGER NOT NULL REFERENCES games(id),
        version     INTEGER NOT NULL,
        envelope    TEXT    NOT NULL,
        actor_id    INTEGER,
        summary     TEXT    NOT NULL,
        created_at  REAL    NOT NULL,
        PRIMARY KEY (game_id, version)
    );
    """,
    # 8: turn timers (bot/timers.py): one row per game and kind (the reminder, the end of
    # the turn's time), good only at the table version it was armed for. Each save
    # replaces its game's rows in the same transaction, so any action cancels them; a
    # firing claims its row by deleting it, so none fires twice.
    """
    CREATE TABLE turn_timers (
        game_id     INTEGER NOT NULL REFERENCES games(id),
        kind        TEXT    NOT NULL,
        version     INTEGER NOT NULL,
        channel_id  INTEGER NOT NULL,
        seat        INTEGER NOT NULL,
        user_id     INTEGER NOT NULL,
        due_at      REAL    NOT NULL,
        armed_at    REAL    NOT NULL,
        PRIMARY KEY (game_id, kind)
    );
    CREATE INDEX turn_timers_by_due ON turn_timers(due_at);
    """,
    # 9: the live message of each game (cogs/outlet_live.py): the one channel message edited
    # in place as the game goes on, what it shows (chapter, turn, lines, the board's
    # hash) and the last "your turn" ping, so a restarted bot keeps editing the same one.
    """
    CREATE TABLE live_messages (
        game_id     INTEGER PRIMARY KEY REFERENCES games(id),
        message_id  INTEGER NOT NULL,
        chapter     TEXT,
        turn        TEXT,
        board_hash  TEXT    NOT NULL DEFAULT '',
        lines_json  TEXT    NOT NULL DEFAULT '[]',
        delivery    TEXT    NOT NULL DEFAULT '',
        extras      INTEGER NOT NULL DEFAULT 0,
        ping_id     INTEGER,
        ping_user   INTEGER
    );
    """,
    # 10: the bot's own notices for a game's moderators (/gm log): its channel posts
    # refused for want of its permissions, and taken again (cogs/outlet_refusals.py). No foreign
    # key: a notice is a log line, and deleting a game need not know of it first.
    """
    CREATE TABLE bot_notices (
        game_id  INTEGER NOT NULL,
        ts       REAL    NOT NULL,
        kind     TEXT    NOT NULL,
        detail   TEXT    NOT NULL DEFAULT ''
    );
    CREATE INDEX bot_notices_by_game ON bot_notices(game_id, ts);
    """,
    # 11: servers the bot has left, and when their data is to be deleted (a grace
    # period after the leave, so a kick by mistake and a rejoin lose nothing). Kept in
    # the store so a restart in between still deletes it on time.
    """
    CREATE TABLE guild_departures (
        guild_id   INTEGER PRIMARY KEY,
        forget_at  REAL    NOT NULL
    );
    """,
    # 12: finished games as /game history and /stats read them, written by the save
    # that ends a game (bot/summary.py): one row per game (its story and the summary the
    # table read) and one per seat (side, win, score, character), so stats count rows
    # instead of replaying every game's events. Keyed by the game, deleted with it (the
    # retention sweep, forgetting a server).
    """
    CREATE TABLE game_results (
        game_id     INTEGER PRIMARY KEY REFERENCES games(id),
        guild_id    INTEGER,
        channel_id  INTEGER NOT NULL,
        kind        TEXT    NOT NULL,
        started_at  REAL    NOT NULL,
        ended_at    REAL    NOT NULL,
        turns       INTEGER NOT NULL,
        content     TEXT    NOT NULL DEFAULT '',
        outcome     TEXT    NOT NULL,
        story_json  TEXT    NOT NULL,
        summary     TEXT    NOT NULL
    );
    CREATE INDEX game_results_by_guild ON game_results(guild_id, ended_at);
    CREATE INDEX game_results_by_channel ON game_results(channel_id, ended_at);
    CREATE TABLE result_seats (
        game_id     INTEGER NOT NULL REFERENCES games(id),
        seat        INTEGER NOT NULL,
        user_id     INTEGER,
        name        TEXT    NOT NULL,
        ai          INTEGER NOT NULL,
        side        TEXT    NOT NULL,
        won         INTEGER NOT NULL,
        score       INTEGER,
        character   TEXT    NOT NULL DEFAULT '',
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX result_seats_by_user ON result_seats(user_id);
    """,
    # 13: the engine's steps each save took (bot/moves.py): the setup with its players,
    # seed and options, each seat's action (the AI's choices too), a seat changing
    # hands, an undo. The event log keeps only a player's click, so a finished game could
    # not be played again through the engine for its replay (bot/replay.py). One row per
    # save that took any, keyed by the version it made.
    """
    CREATE TABLE moves (
        game_id     INTEGER NOT NULL REFERENCES games(id),
        version     INTEGER NOT NULL,
        moves_json  TEXT    NOT NULL,
        PRIMARY KEY (game_id, version)
    );
    """,
    # 14: each event keeps the seat whose move made it, so the story at a game's end
    # counts each player's deeds (rooms found, monsters slain, victims rescued).
    """
    ALTER TABLE events ADD COLUMN seat INTEGER;
    """,
    # 15: each event's line in the table's other languages (issue 25: a zh-TW server or
    # player), as JSON {language: text}; NULL for a line said in English only. The
    # English `text` stays the log's own, so /game log and the summaries read as before.
    """
    ALTER TABLE events ADD COLUMN texts TEXT;
    """,
    # 16: the edition a finished game played (Game.edition_of: '' for the game's own,
    # an expansion's key), so /game history and /stats name the game as it was
    # played (an expansion played as its own box). Games finished before it read as ''.
    """
    ALTER TABLE game_results ADD COLUMN edition TEXT NOT NULL DEFAULT '';
    """,
    # 17: who the bot put in each team thread and has not taken out (cogs/outlet_teams.py).
    # Without the GUILD_MEMBERS privileged intent Discord will not list a thread's
    # members, so the bot keeps its own record, shared by every process and kept over a
    # restart, to take out whoever no longer holds the team's seat. members_kept: the
    # thread's record is whole (a thread opened from now on, or one put right once);
    # a thread opened before this step has none (0) until a seat passes on there.
    """
    CREATE TABLE thread_members (
        game_id    INTEGER NOT NULL REFERENCES games(id),
        thread_id  INTEGER NOT NULL,
        user_id    INTEGER NOT NULL,
        PRIMARY KEY (game_id, thread_id, user_id)
    );
    ALTER TABLE team_threads ADD COLUMN members_kept INTEGER NOT NULL DEFAULT 0;
    """,
    # 18: the DM tail (bot/courier.py). A delivery is marked once its public post is
    # made, even while a player's whispers still wait out their DM channel's rate limit,
    # so the channel's next move waits for no one's DMs; this row says from which event
    # on whispers may still be owed, so a crash before they went loses none (they are
    # sent again under their own keys at the next start). No row: nothing owed.
    """
    CREATE TABLE dm_tails (
        game_id     INTEGER PRIMARY KEY,
        from_seq    INTEGER NOT NULL
    );
    """,
]
