"""Moving a bot's data from its SQLite file to PostgreSQL (`python -m bot migrate-store`).

The copy goes through the two stores (SqliteStore.export_rows, PostgresStore.import_rows),
so it reads and writes with the stores' own statements (bot/store/rows.py) and each
side's schema brought up to date first. It is made while the bot is stopped: the SQLite
side is read in one transaction, the PostgreSQL side written in one, and a target that
holds anything is refused, so a copy never merges two live histories.
"""

from __future__ import annotations

from pathlib import Path

from bot.store.base import StoreError
from bot.store.postgres import PostgresStore
from bot.store.sqlite import MEMORY, SqliteStore
from bot.store.urls import is_postgres_url


async def copy_store(source: SqliteStore, target: PostgresStore) -> dict[str, int]:
    """Every row of `source` into the empty `target`, in one transaction; the rows now in
    each of the target's tables (checked against the rows read before it commits)."""
    return await target.import_rows(await source.export_rows())


async def migrate(sqlite_path: str | Path, url: str) -> dict[str, int]:
    """Open both stores, copy, close: the command's body. Refuses a target that is not
    PostgreSQL and a SQLite file that does not exist (opening it would make an empty
    one, and the copy would then say nothing was wrong)."""
    if not is_postgres_url(url):
        raise StoreError(f"--to must be a postgresql:// URL, not {url!r}")
    path = str(sqlite_path)
    if path == MEMORY or not Path(path).is_file():
        raise StoreError(f"no SQLite database at {path}")
    source = SqliteStore(path)
    await source.open()
    try:
        target = PostgresStore(url)
        await target.open()
        try:
            return await copy_store(source, target)
        finally:
            await target.close()
    finally:
        await source.close()
