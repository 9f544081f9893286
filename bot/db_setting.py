"""HAUNTKEEPER_DB checked before anything uses it: a SQLite path, ":memory:" or a
PostgreSQL URL, and nothing else.

Anything that is not a PostgreSQL URL used to be taken for a SQLite path, so
`sqlite:///hk.db` quietly made a folder `./sqlite:` and `mysql://u:p@host/db` a folder
whose name held the password. A URL of any other scheme is refused here, in one line
that never repeats the URL (it may hold a password); a PostgreSQL URL whose host or
port part asyncpg could not read is refused the same way, instead of asyncpg's
"invalid literal for int()" at connect time. Whether a SQLite path can be opened is
the store's to find (SqliteStore.open), by opening it.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from bot.store.urls import is_postgres_url

SETTING = "HAUNTKEEPER_DB"
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.\-]*)://")
_PORT_MAX = 65535
_EXAMPLE = "postgresql://user:password@host:5432/dbname"


def problem(value: str) -> str | None:
    """What is wrong with this HAUNTKEEPER_DB, in one line; None when it may be used."""
    if is_postgres_url(value):
        return _postgres_problem(value)
    scheme = _SCHEME.match(value)
    if scheme is None:
        return None  # a path (or :memory:)
    name = scheme.group(1).lower()
    hint = " (for SQLite give the file's path itself, e.g. /data/hk.sqlite3)" \
        if name.startswith("sqlite") or name == "file" else ""
    return (f"{SETTING} must be a SQLite file's path or a postgresql:// URL, not a "
            f"{name}:// URL{hint}.")


def _postgres_problem(url: str) -> str | None:
    try:
        parts = urlsplit(url)
    except ValueError:
        return f"{SETTING}: the PostgreSQL URL is malformed ({_EXAMPLE})."
    hosts = parts.netloc.rpartition("@")[2]
    for host in filter(None, hosts.split(",")):
        port = _port(host)
        if port is not None and not (port.isdigit() and 1 <= int(port) <= _PORT_MAX):
            return (f"{SETTING}: the PostgreSQL URL's port must be a number from 1 to "
                    f"{_PORT_MAX} ({_EXAMPLE}).")
        if host.startswith("[") and "]" not in host:
            return f"{SETTING}: the PostgreSQL URL's host is malformed ({_EXAMPLE})."
    return None


def _port(host: str) -> str | None:
    """The port written after a host (None: none written); an IPv6 host is bracketed."""
    if host.startswith("["):
        rest = host.partition("]")[2]
        return rest[1:] if rest.startswith(":") else None
    _, colon, port = host.rpartition(":")
    return port if colon else None

