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
    # 2: the private thread the bot opened for each team of a game (Betrayal's heroes),
    # so a restarted bot posts in the same thread instead of opening another.
    """
    CREATE TABLE team_threads (
        game_id     INTEGER NOT NULL REFERENCES games(id),
        team        TEXT    NOT NULL,
        thread_id   INTEGER NOT NULL,
        PRIMARY KEY (game_id, team)
    );
    """,
]
