"""`python -m bot backup PATH`: a consistent copy of the SQLite file while the bot runs.

The slim Docker image has no `sqlite3` program, and copying the file with `cp` while the
bot writes can miss commits that sit in the -wal file. SQLite's online backup
(sqlite3.Connection.backup) reads one snapshot under WAL, which never blocks the bot's
writer, and writes a whole database. It is written beside the target under a scratch
name and renamed into place, so a backup cut short never leaves half a file under the
name, and the copy is checked (quick_check, its games counted) before the rename.
PostgreSQL has pg_dump for this (docs/operations.md).
"""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing
from pathlib import Path
from urllib.parse import quote

COUNT_GAMES = "SELECT COUNT(*) FROM games"


class BackupError(Exception):
    """The backup could not be made; the message says why, in one line."""


def backup(source: str, target: Path) -> int:
    """Copy the SQLite database `source` to `target`; returns how many games it holds."""
    src = Path(source)
    if not src.is_file():
        raise BackupError(f"there is no SQLite database at {source} (HAUNTKEEPER_DB)")
    if target.exists() and target.resolve() == src.resolve():
        raise BackupError("the backup would overwrite the database itself")
    if target.is_dir():
        raise BackupError(f"{target} is a folder; give the backup file's name")
    if not target.parent.is_dir():  # SQLite's own words were "unable to open database file"
        raise BackupError(f"there is no folder {target.parent} to back up into; make it first")
    scratch = target.with_name(f".{target.name}.{os.getpid()}.partial")
    try:
        # mode=ro: a typo'd path is never created as an empty database.
        with closing(sqlite3.connect(f"file:{quote(str(src.resolve()))}?mode=ro",
                                      uri=True)) as db, \
                closing(sqlite3.connect(scratch)) as copy:
            db.backup(copy)
            if copy.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise BackupError("the copy failed its integrity check; nothing kept")
            games = int(copy.execute(COUNT_GAMES).fetchone()[0])
        os.replace(scratch, target)
    except (OSError, sqlite3.Error) as exc:
        raise BackupError(f"could not back up {source} to {target}: {exc}") from exc
    finally:
        scratch.unlink(missing_ok=True)
    return games
