"""Which store a HAUNTKEEPER_DB value names, without loading either backend: the settings
and `open_store` ask it, and a SQLite bot never imports the PostgreSQL driver (asyncpg
takes about a tenth of a second to import, a tenth of the bot's start)."""

from __future__ import annotations

SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(target: str) -> bool:
    """Whether HAUNTKEEPER_DB names a PostgreSQL server rather than a SQLite file."""
    return target.startswith(SCHEMES)
