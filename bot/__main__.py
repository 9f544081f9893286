"""hauntkeeper's command line: `run` (the default) starts the bot, `sync` registers its
slash commands with Discord, `demo` plays offline, `health` checks a running bot's
heartbeat (a container's HEALTHCHECK), `migrate-store` copies the SQLite file into
PostgreSQL (docs/operations.md).

The one module that imports inside functions, on purpose: discord.py, the games and the
renderers load only for the subcommand that needs them, so `--help`, `health` (a
container's probe every 30 s) and `demo` start without paying for the rest."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING

import asyncpg

from bot import health
from bot.config import ConfigError, Settings, load_settings
from bot.shards import ShardSpecError, parse_shards
from bot.store import StoreError, is_postgres_url
from bot.store.copy import migrate

if TYPE_CHECKING:
    from bot.client import HauntBot


def _parser() -> argparse.ArgumentParser:
    from bot import games

    parser = argparse.ArgumentParser(
        prog="hauntkeeper",
        description="A Discord game master for haunted-house board games.",
    )
    _shard_options(parser, None)
    sub = parser.add_subparsers(dest="command")
    run = sub.add_parser("run", help="start the bot (needs DISCORD_TOKEN); the default")
    _shard_options(run, argparse.SUPPRESS)
    sync = sub.add_parser("sync", help="register the slash commands with Discord, then exit")
    sync.add_argument("--guild", type=int, default=None,
                      help="only this server (shows at once); globally if left out")
    demo = sub.add_parser("demo", help="watch AI players play a whole game, no Discord needed")
    demo.add_argument("--game", choices=sorted(games.all_games()), default="cthulhu")
    demo.add_argument("--players", type=int, default=4, help="how many seats (default 4)")
    demo.add_argument("--seed", type=int, default=1, help="fixes shuffles and dice (default 1)")
    demo.add_argument("--expansion", default=None,
                      help="an expansion the game offers (see /game new)")
    demo.add_argument("--out", type=Path, default=Path("demo-out"),
                      help="folder for transcript.txt and the board PNGs (default demo-out)")
    sub.add_parser("health", help="exit 0 if the running bot's heartbeat is fresh, else 1")
    copy = sub.add_parser("migrate-store",
                          help="copy the SQLite database into an empty PostgreSQL one "
                               "(the bot stopped)")
    copy.add_argument("--to", required=True, metavar="URL",
                      help="the PostgreSQL database, postgresql://user:pass@host/db")
    copy.add_argument("--from", dest="source", default=None, metavar="PATH",
                      help="the SQLite file (default HAUNTKEEPER_DB or ./hauntkeeper.sqlite3)")
    return parser


def _shard_options(parser: argparse.ArgumentParser, default: object) -> None:
    """--shards/--shard-count, on the bare command and on `run` alike; `run`'s own
    default is SUPPRESS so that `--shards 0-1 run` keeps what was given before it."""
    parser.add_argument("--shards", default=default, metavar="IDS",
                        help="run only these shards in this process: 0-3 or 0,2,5 "
                             "(needs --shard-count)")
    parser.add_argument("--shard-count", type=int, default=default, metavar="N",
                        help="how many shards all processes run together")


async def _serve(bot: HauntBot, token: str) -> None:
    """bot.run's body, plus SIGTERM. discord.py stops cleanly on Ctrl-C only (asyncio
    cancels this task, `async with` closes the bot and its store); `docker stop`,
    systemd and Kubernetes send SIGTERM, which would end the process on the spot. Here
    SIGTERM cancels the task the same way."""
    task = asyncio.current_task()
    assert task is not None
    with suppress(NotImplementedError):  # Windows' event loops take no signal handlers
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, task.cancel)
    async with bot:
        await bot.start(token)


def _health() -> int:
    try:
        path = load_settings(need_token=False).health_file
    except ConfigError as exc:
        print(f"hauntkeeper: {exc}", file=sys.stderr)
        return 2
    if path is None:
        print("hauntkeeper: no heartbeat file (set HAUNTKEEPER_HEALTH_FILE)", file=sys.stderr)
        return 1
    if health.healthy(Path(path)):
        return 0
    seconds = health.age(Path(path))
    said = "no heartbeat" if seconds is None else f"the last heartbeat is {seconds:.0f} s old"
    print(f"hauntkeeper: unhealthy: {said} in {path}", file=sys.stderr)
    return 1


def _migrate_store(url: str, source: str | None) -> int:
    if source is None:
        try:
            source = load_settings(need_token=False).db_path
        except ConfigError as exc:
            print(f"hauntkeeper: {exc}", file=sys.stderr)
            return 2
        if is_postgres_url(source):
            print("hauntkeeper: HAUNTKEEPER_DB already names PostgreSQL; give the SQLite "
                  "file with --from PATH", file=sys.stderr)
            return 2
    try:
        counts = asyncio.run(migrate(source, url))
    except (StoreError, OSError, asyncpg.PostgresError) as exc:
        print(f"hauntkeeper: nothing copied: {exc}", file=sys.stderr)
        return 1
    width = max(map(len, counts))
    for table, count in counts.items():
        print(f"{table:<{width}}  {count}")
    print(f"copied {source} into PostgreSQL; set HAUNTKEEPER_DB to the URL and start the bot")
    return 0


def _settings() -> Settings | None:
    """The settings, logging set up and Discord's addresses chosen; None: said why."""
    try:
        settings = load_settings()
    except ConfigError as exc:
        print(f"hauntkeeper: {exc}", file=sys.stderr)
        return None
    logging.basicConfig(level=settings.log_level,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from bot.client import use_endpoints

    use_endpoints(settings.api_base, settings.gateway)
    return settings


def _sync(guild: int | None) -> int:
    settings = _settings()
    if settings is None:
        return 2
    from bot.client import sync_once

    try:
        count = asyncio.run(sync_once(settings.token, guild))
    except Exception as exc:  # a bad token, Discord unreachable: one line
        print(f"hauntkeeper: could not sync: {exc}", file=sys.stderr)
        return 1
    print(f"synced {count} commands " + (f"to guild {guild}" if guild else "globally"))
    return 0


def _run(spec: str | None, count: int | None) -> int:
    try:
        shards = parse_shards(spec, count)
    except ShardSpecError as exc:
        print(f"hauntkeeper: {exc}", file=sys.stderr)
        return 2
    settings = _settings()
    if settings is None:
        return 2
    from bot.client import make_bot

    bot = make_bot(shards, db_path=settings.db_path, dev_guild=settings.dev_guild,
                   health_file=settings.health_file, metrics_port=settings.metrics_port,
                   metrics_addr=settings.metrics_addr)
    if shards is not None:
        logging.getLogger("bot").info("running %s", shards)
    try:
        asyncio.run(_serve(bot, settings.token))
    except (KeyboardInterrupt, asyncio.CancelledError):
        logging.getLogger("bot").info("stopped on a signal; the store is closed")
    except Exception as exc:  # discord.LoginFailure and friends: say it in one line
        print(f"hauntkeeper: could not start: {exc}", file=sys.stderr)
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "demo":
        from bot.demo import main as demo_main

        try:
            return asyncio.run(demo_main(args.game, args.players, args.seed, args.out,
                                         expansion=args.expansion))
        except ValueError as exc:
            print(f"hauntkeeper: {exc}", file=sys.stderr)
            return 2
    if args.command == "sync":
        return _sync(args.guild)
    if args.command == "health":
        return _health()
    if args.command == "migrate-store":
        return _migrate_store(args.to, args.source)
    return _run(args.shards, args.shard_count)


if __name__ == "__main__":
    sys.exit(main())
