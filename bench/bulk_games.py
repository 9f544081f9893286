"""Many stored games fast, for the scale benchmark (bench/bench_scale.py).

A few mid-game Cthulhu tables are played through the sessions layer (the cheapest game
to generate), then copied row to row inside the database with one INSERT ... SELECT
over a counting CTE: 100,000 games in seconds instead of 100,000 trips through
`Store.create`. A long event log is written the same way. Both statements are plain SQL
that SQLite and PostgreSQL both speak, sent through each store's own `execute`.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_sessions import seed_games
from bench.bench_tables import NullOutlet, click
from bot.sessions import Sessions

FIRST_CHANNEL = 10_000  # seed_games' first channel; the copies follow on
TEMPLATES = 20  # distinct mid-game states the copies cycle through
MOVES = 12  # moves played into each template (mid-game, far from its end)

# n counts 0..count-1; game ids 1..TEMPLATES are the templates (a fresh store's ids).
_COPY = ("WITH RECURSIVE n(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM n WHERE x < ?)"
         " INSERT INTO games (channel_id, guild_id, kind, status, state_json, version,"
         " created_at, updated_at, last_seq, delivered_seq, ai_turn)"
         " SELECT CAST(? AS BIGINT) + n.x, g.guild_id, g.kind, g.status, g.state_json,"
         " g.version, g.created_at, g.updated_at, 0, 0, g.ai_turn"
         " FROM n JOIN games g ON g.id = 1 + n.x % ?")
_LOG = ("WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < ?)"
        " INSERT INTO events (game_id, seq, version, ts, actor_id, action_json, audience,"
        " text, kind) SELECT CAST(? AS BIGINT), CAST(? AS INTEGER) + n.x, 1, 0, NULL, NULL,"
        " 'public', 'Someone moved a little closer to the Old One.', 'info' FROM n")
_LOG_CURSOR = "UPDATE games SET last_seq = ?, delivered_seq = ? WHERE id = ?"
_GAME_OF = "SELECT id, last_seq FROM games WHERE channel_id = ? AND status != 'over'"


async def store_games(store: Any, count: int, seed: int) -> list[int]:
    """`count` open Cthulhu games of four human seats, mid-game, on channels
    FIRST_CHANNEL.. onwards; returns their channel ids. The store must be empty."""
    templates = min(TEMPLATES, count)
    await seed_games(store, templates, seed, "cthulhu")
    outlet = NullOutlet()
    sessions = Sessions(store, outlet, render=False)
    rng = random.Random(seed)
    for n in range(templates):
        for _ in range(MOVES):
            if not await click(sessions, outlet, FIRST_CHANNEL + n, rng.randrange(1000)):
                break
    if count > templates:
        await store.execute(_COPY, (count - templates - 1, FIRST_CHANNEL + templates,
                                    templates))
    return [FIRST_CHANNEL + n for n in range(count)]


async def lengthen_log(store: Any, channel_id: int, events: int) -> None:
    """`events` more public lines in the channel's open game's log, already delivered
    (as an old game's log is): what a long game leaves behind."""
    rows = await store.execute(_GAME_OF, (channel_id,))
    game_id, last_seq = int(rows[0][0]), int(rows[0][1])
    await store.execute(_LOG, (events, game_id, last_seq))
    total = last_seq + events
    await store.execute(_LOG_CURSOR, (total, total, game_id))
