"""Settings from the environment, or from .env files.

Two .env files are read, python-dotenv parsing them (comments, quotes, `export`, a
BOM): the project folder's (the checkout's root when running from one; an installed
wheel has none) and the working folder's. The working folder's wins over the project's,
being the more particular choice (a second bot started from its own folder); the
environment wins over both. Values are taken as written: no ${VAR} expansion.

A configuration mistake is the user's to fix, so it surfaces as ConfigError with one
line saying what is missing, never as a traceback.
"""

from __future__ import annotations

import hashlib
import os
import shlex
import shutil
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from dotenv import dotenv_values

from bot import db_setting
from bot.paths import checkout
from bot.store.sqlite import MEMORY
from bot.store.urls import is_postgres_url

DEFAULT_DB = "./hauntkeeper.sqlite3"
HEARTBEAT_SUFFIX = "-heartbeat"  # beside the database, as SQLite's own -wal and -shm
# A database on a server has no folder of ours: the heartbeat goes to the user's state
# folder ($XDG_STATE_HOME) or else the temporary folder, both writable where the working
# folder may not be (the image's /app is root's). Named by the database, so two bots of
# one user on two databases keep two beats.
SERVER_HEARTBEAT = "hauntkeeper-{digest}-heartbeat"
GRACE_DAYS = 7.0  # a server's data is kept this long after the bot left it
# The metrics endpoint answers this machine only, unless the operator opens it wider. Not
# bot.metrics': prometheus_client takes 0.1 s to import, and `health` reads settings too.
METRICS_ADDR = "127.0.0.1"


class ConfigError(Exception):
    """A setting is missing or malformed; its message says which and how to fix it."""


@dataclass(frozen=True)
class Settings:
    token: str
    db_path: str
    dev_guild: int | None
    log_level: str
    api_base: str | None = None  # a Discord API proxy (or the tests' fake Discord)
    gateway: str | None = None
    health_file: str | None = None  # the heartbeat `python -m bot health` reads
    metrics_port: int | None = None  # the Prometheus endpoint's port; None: no metrics
    metrics_addr: str = METRICS_ADDR
    forget_after_days: float = GRACE_DAYS  # a server's data outlives the bot's leaving


def read_dotenv(path: Path) -> dict[str, str]:
    """A .env file's settings ({} when there is none); a bare KEY with no `=` sets
    nothing. utf-8-sig: a BOM that Windows' Notepad puts first does not hide the first key."""
    if not path.is_file():
        return {}
    values = dotenv_values(path, encoding="utf-8-sig", interpolate=False)
    return {key: value for key, value in values.items() if value is not None}


def dotenv_places(cwd: Path | None = None) -> list[Path]:
    """The .env files read, weakest first: the project folder's, then the working
    folder's (once, when the bot starts in the project folder)."""
    places: list[Path] = []
    project = checkout()
    if project is not None:
        places.append(project / ".env")
    here = (cwd or Path.cwd()) / ".env"
    if not places or places[0].resolve() != here.resolve():
        places.append(here)
    return places


def load_settings(env: Mapping[str, str] | None = None,
                  dotenv: Path | Sequence[Path] | None = None, *,
                  need_token: bool = True) -> Settings:
    """`dotenv`: one file or several (later ones win); None reads dotenv_places(), ()
    reads none."""
    if dotenv is None:
        files = dotenv_places()
    elif isinstance(dotenv, Path):
        files = [dotenv]
    else:
        files = list(dotenv)
    merged: dict[str, str] = {}
    for path in files:
        merged.update(read_dotenv(path))
    merged.update(os.environ if env is None else env)  # the environment wins over .env
    token = merged.get("DISCORD_TOKEN", "").strip()
    if need_token and not token:
        raise ConfigError(
            "DISCORD_TOKEN is not set: put your bot token in the environment or in a .env "
            "file (see README.md). To try hauntkeeper without Discord, run: "
            f"{demo_command()}"
        )
    guild_raw = merged.get("HAUNTKEEPER_DEV_GUILD", "").strip()
    if guild_raw and not guild_raw.isdigit():
        raise ConfigError(f"HAUNTKEEPER_DEV_GUILD must be a server id (digits), not {guild_raw!r}.")
    level = merged.get("HAUNTKEEPER_LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if level not in {"DEBUG", "INFO", "WARNING", "ERROR"}:
        raise ConfigError(
            f"HAUNTKEEPER_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}."
        )
    api_base = merged.get("HAUNTKEEPER_DISCORD_API", "").strip() or None
    gateway = merged.get("HAUNTKEEPER_DISCORD_GATEWAY", "").strip() or None
    for name, url, schemes in (("HAUNTKEEPER_DISCORD_API", api_base, ("http://", "https://")),
                               ("HAUNTKEEPER_DISCORD_GATEWAY", gateway, ("ws://", "wss://"))):
        if url and not url.startswith(schemes):
            raise ConfigError(f"{name} must start with {' or '.join(schemes)}, not {url!r}.")
    db_path = merged.get("HAUNTKEEPER_DB", "").strip() or DEFAULT_DB
    wrong = db_setting.problem(db_path)
    if wrong is not None:
        raise ConfigError(wrong)
    health_file = merged.get("HAUNTKEEPER_HEALTH_FILE", "").strip() or _heartbeat(
        db_path, merged.get("XDG_STATE_HOME", "").strip())
    port_raw = merged.get("HAUNTKEEPER_METRICS_PORT", "").strip()
    if port_raw and not (port_raw.isdigit() and 1 <= int(port_raw) <= 65535):
        raise ConfigError(
            f"HAUNTKEEPER_METRICS_PORT must be a port number (1-65535), not {port_raw!r}; "
            "leave it unset for no metrics."
        )
    metrics_addr = merged.get("HAUNTKEEPER_METRICS_ADDR", "").strip() or METRICS_ADDR
    grace_raw = merged.get("HAUNTKEEPER_FORGET_AFTER_DAYS", "").strip()
    try:
        grace = float(grace_raw) if grace_raw else GRACE_DAYS
    except ValueError:
        grace = -1.0
    if not 0 <= grace <= 3650:
        raise ConfigError(
            f"HAUNTKEEPER_FORGET_AFTER_DAYS must be a number of days from 0 to 3650, not "
            f"{grace_raw!r}."
        )
    return Settings(
        token=token,
        db_path=db_path,
        dev_guild=int(guild_raw) if guild_raw else None,
        log_level=level,
        api_base=api_base,
        gateway=gateway,
        health_file=health_file,
        metrics_port=int(port_raw) if port_raw else None,
        metrics_addr=metrics_addr,
        forget_after_days=grace,
    )


def _heartbeat(db_path: str, state_home: str = "") -> str | None:
    """The heartbeat's default place: beside a SQLite file (its folder is writable, or
    SQLite could not keep its -wal there); none for a database in memory (nothing
    outlives the process to read it); the state or temporary folder for a server."""
    if db_path == MEMORY:
        return None
    if not is_postgres_url(db_path):
        return db_path + HEARTBEAT_SUFFIX
    digest = hashlib.sha256(db_path.encode()).hexdigest()[:12]
    folder = state_home or tempfile.gettempdir()
    return str(Path(folder) / SERVER_HEARTBEAT.format(digest=digest))


def demo_command() -> str:
    """The demo's command as this user can run it: `hauntkeeper demo` when that is on
    PATH, else this very interpreter (a bare `python` may be another one, outside the
    virtualenv the bot was installed in)."""
    if shutil.which("hauntkeeper"):
        return "hauntkeeper demo"
    return f"{shlex.quote(sys.executable)} -m bot demo"
