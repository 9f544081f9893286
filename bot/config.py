"""Settings from the environment, or from a .env file beside where the bot starts.

A configuration mistake is the user's to fix, so it surfaces as ConfigError with one
line saying what is missing, never as a traceback.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

DEFAULT_DB = "./hauntkeeper.sqlite3"


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


def read_dotenv(path: Path) -> dict[str, str]:
    """KEY=value lines; blank lines and # comments skipped; quotes around values dropped."""
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        key = key.removeprefix("export ").strip()
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key] = value
    return values


def load_settings(env: dict[str, str] | None = None,
                  dotenv: Path | None = Path(".env"), *, need_token: bool = True) -> Settings:
    merged = read_dotenv(dotenv) if dotenv else {}
    merged.update(os.environ if env is None else env)  # the environment wins over .env
    token = merged.get("DISCORD_TOKEN", "").strip()
    if need_token and not token:
        raise ConfigError(
            "DISCORD_TOKEN is not set: put your bot token in the environment or in a .env "
            "file (see README.md). To try hauntkeeper without Discord, run: "
            "python -m bot demo --game cthulhu"
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
    return Settings(
        token=token,
        db_path=merged.get("HAUNTKEEPER_DB", "").strip() or DEFAULT_DB,
        dev_guild=int(guild_raw) if guild_raw else None,
        log_level=level,
        api_base=api_base,
        gateway=gateway,
    )
