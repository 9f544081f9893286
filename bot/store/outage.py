"""Which store errors are outages: the database away, not a bug of ours.

PostgreSQL stopping or restarting, a connection cut, SQLite's disk full, its file made
read-only or locked by another program: another try later succeeds and nothing is
wrong with the game. `outage_reason` names such an error's real cause in a few words
(the first thing the log says), looking through the chain too: a failed statement can
surface as a later one's error ("cannot rollback - no transaction is active" hid
"database or disk is full"). Anything else is not an outage and stays the error it is;
so is ChannelBusy, whatever it was raised from (a wait for the waiting pool's connection
ends in a TimeoutError, an OSError, which is no network gone).
"""

from __future__ import annotations

import sqlite3
import sys
from types import ModuleType

from bot.store.base import ChannelBusy, StoreUnavailable

# SQLite's messages for an outage, and how the log names each.
_SQLITE = (("disk is full", "disk is full"),
           ("readonly database", "the database file is read-only"),
           ("database is locked", "the database is locked by another program"),
           ("disk i/o error", "disk I/O error"),
           ("unable to open database file", "the database file cannot be opened"))
# asyncpg's own errors for a connection that is gone (its wording: "connection is closed",
# "connection was closed in the middle of operation", "pool is closing").
_CLOSED = ("connection is closed", "was closed", "pool is closing")


def _asyncpg() -> ModuleType | None:
    """asyncpg, if this process loaded it: a SQLite bot never does (bot/store/__init__),
    and an error of asyncpg's can only come from a process that did."""
    return sys.modules.get("asyncpg")


def _one_reason(exc: BaseException) -> str | None:
    if isinstance(exc, StoreUnavailable):
        return exc.reason
    if isinstance(exc, sqlite3.OperationalError):
        text = str(exc).lower()
        return next((reason for needle, reason in _SQLITE if needle in text), None)
    pg = _asyncpg()
    if pg is None:
        return f"PostgreSQL unreachable: {exc}" if isinstance(exc, OSError) else None
    if isinstance(exc, pg.PostgresConnectionError | pg.exceptions.OperatorInterventionError
                  | pg.exceptions.TooManyConnectionsError):
        return f"PostgreSQL: {exc}"
    if isinstance(exc, pg.InterfaceError) and any(w in str(exc) for w in _CLOSED):
        return f"PostgreSQL: {exc}"
    if isinstance(exc, OSError | pg.exceptions.ConnectionDoesNotExistError):
        return f"PostgreSQL unreachable: {exc}"
    return None


def outage_reason(exc: BaseException, *, postgres: bool) -> str | None:
    """The outage this error is, in a few words, or None when it is not one. `postgres`:
    the store is PostgreSQL, where an OSError is the network; on SQLite it is the disk
    only when SQLite says so."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, ChannelBusy):  # another process holds it: not an outage
            return None
        seen.add(id(current))
        if postgres or not isinstance(current, OSError):
            reason = _one_reason(current)
            if reason is not None:
                return reason
        current = current.__cause__ or current.__context__
    return None
