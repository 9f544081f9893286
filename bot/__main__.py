"""hauntkeeper's command line: `run` (the default) starts the bot, `sync` registers its
slash commands with Discord, `demo` plays offline, `health` checks a running bot's
heartbeat (a container's HEALTHCHECK), `migrate-store` copies the SQLite file into
PostgreSQL, `backup` copies the SQLite file while the bot runs, `forget-guild` deletes a
server's data (docs/operations.md).

Exit codes: 0 done (or stopped on a signal, after closing), 1 a failure at run time
(Discord refused the token, at the start or later with a gateway close code after which
a bot must not reconnect, such as 4004 or 4014; a backup failed), 2 a setting or an
argument that is wrong (HAUNTKEEPER_DB that cannot be opened included: it is found before
logging in).

The one module that imports inside functions, on purpose: discord.py, the games and the
renderers load only for the subcommand that needs them, so `--help`, `health` (a
container's probe every 30 s) and `demo` start without paying for the rest; the version
loads only for `--version`."""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import os
import signal
import sys
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

from bot import health, paths
from bot.config import ConfigError, Settings, load_settings
from bot.db_setting import SETTING
from bot.shards import Shards, ShardSpecError, parse_shards
from bot.store import StoreError, StoreUnavailable, is_postgres_url, open_store
from bot.store.backup import BackupError, backup

if TYPE_CHECKING:
    from bot.client import HauntBot


DEMO = "demo"


def _offered_games() -> list[str]:
    """The demo's --game choices, loaded only for a command line that names the demo:
    every game's rules and content load with them (a third of a second), which
    `health`, run by a container every 30 s, and the other commands never need."""
    from bot import games

    return sorted(games.all_games())


def _parser(offered: list[str] | None = None) -> argparse.ArgumentParser:
    """`offered`: the demo's games (None: a command line without the demo, whose
    --game is then left unchecked, being unused)."""
    parser = argparse.ArgumentParser(
        prog="hauntkeeper",
        description="A Discord game master for haunted-house board games.",
    )
    parser.add_argument("--version", action=_Version, help="show the version and exit")
    _shard_options(parser, None)
    sub = parser.add_subparsers(dest="command")
    run = sub.add_parser("run", help="start the bot (needs DISCORD_TOKEN); the default")
    _shard_options(run, argparse.SUPPRESS)
    sync = sub.add_parser("sync", help="register the slash commands with Discord, then exit")
    sync.add_argument("--guild", type=int, default=None,
                      help="only this server (shows at once); globally if left out")
    sync.add_argument("--clear", action="store_true",
                      help="remove the commands instead (of --guild's server, or the "
                           "global ones)")
    demo = sub.add_parser(DEMO, help="watch AI players play a whole game, no Discord needed")
    if offered:  # no game is named here: the first found is the default
        demo.add_argument("--game", choices=offered, default=offered[0],
                          help=f"which game (default {offered[0]})")
    else:
        demo.add_argument("--game", default=None, help="which game")
    demo.add_argument("--players", type=int, default=4, help="how many seats (default 4)")
    demo.add_argument("--seed", type=int, default=1, help="fixes shuffles and dice (default 1)")
    demo.add_argument("--expansion", default=None,
                      help="an expansion the game offers (see /game new)")
    demo.add_argument("--out", type=Path, default=Path("demo-out"),
                      help="folder for transcript.txt and the board PNGs (default demo-out)")
    check = sub.add_parser("health", help="exit 0 if the running bot's heartbeat is fresh, "
                                          "else 1 (every process's, or the --shards one's)")
    _shard_options(check, None)
    save = sub.add_parser("backup", help="copy the SQLite database to PATH, safe while the "
                                         "bot runs")
    save.add_argument("path", type=Path, metavar="PATH", help="the backup file to write")
    forget = sub.add_parser("forget-guild", help="delete everything kept about one server "
                                                 "(its games, settings, played content)")
    forget.add_argument("guild", type=int, metavar="ID", help="the server's id")
    copy = sub.add_parser("migrate-store",
                          help="copy the SQLite database into an empty PostgreSQL one "
                               "(the bot stopped)")
    copy.add_argument("--to", required=True, metavar="URL",
                      help="the PostgreSQL database, postgresql://user:pass@host/db")
    copy.add_argument("--from", dest="source", default=None, metavar="PATH",
                      help="the SQLite file (default HAUNTKEEPER_DB or ./hauntkeeper.sqlite3)")
    return parser


class _Version(argparse.Action):
    """--version, read only when asked: the version comes from pyproject.toml (tomllib)
    or the package's metadata (importlib.metadata), whose imports and reading cost every
    `run` about 30 ms of its start (bench/bench_startup.py) for a line it never prints."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=default, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        from bot.version import version

        print(f"hauntkeeper {version()}")
        parser.exit()


def _shard_options(parser: argparse.ArgumentParser, default: object) -> None:
    """--shards/--shard-count, on the bare command and on `run` alike; `run`'s own
    default is SUPPRESS so that `--shards 0-1 run` keeps what was given before it."""
    parser.add_argument("--shards", default=default, metavar="IDS",
                        help="run only these shards in this process: 0-3 or 0,2,5 "
                             "(needs --shard-count)")
    parser.add_argument("--shard-count", type=int, default=default, metavar="N",
                        help="how many shards all processes run together")


class TermHandler:
    """SIGTERM's handler: the first cancels the serving task; any later one is ignored, to
    the end of the process. Cancelled again, the close stopped halfway (the store's
    reader thread left running: the process never exited); and once the loop was closed
    a second SIGTERM killed the process instead of its exit 0. A supervisor or `timeout`
    may signal the process and then its group: two signals. A signal that lands after
    the loop has closed finds nothing left to stop: the process is already on its way
    out, so it must not raise there either. Not the loop's add_signal_handler, which the
    loop's close takes off again."""

    def __init__(self, loop: asyncio.AbstractEventLoop, task: asyncio.Task[None]) -> None:
        self.loop = loop
        self.task = task
        self.stopping = False

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        if self.stopping:
            return
        self.stopping = True
        if self.loop.is_closed():
            return
        try:
            self.loop.call_soon_threadsafe(self.task.cancel)
        except RuntimeError:  # closed between the check and the call
            return


async def _serve(bot: HauntBot, token: str) -> None:
    """bot.run's body, plus SIGTERM. discord.py stops cleanly on Ctrl-C only (asyncio
    cancels this task, `async with` closes the bot and its store); `docker stop`,
    systemd and Kubernetes send SIGTERM, which would end the process on the spot. Here
    SIGTERM cancels the task the same way (TermHandler)."""
    task = asyncio.current_task()
    assert task is not None
    signal.signal(signal.SIGTERM, TermHandler(asyncio.get_running_loop(), task))
    async with bot:
        await bot.start(token)


def _health(spec: str | None, count: int | None) -> int:
    """One process's beat (--shards as it runs with), else every beat of the setting:
    healthy while there is one and none is stale."""
    try:
        shards = parse_shards(spec, count)
        setting = load_settings(need_token=False).health_file
    except (ConfigError, ShardSpecError) as exc:
        print(f"hauntkeeper: {exc}", file=sys.stderr)
        return 2
    if setting is None:
        print("hauntkeeper: no heartbeat file (set HAUNTKEEPER_HEALTH_FILE)", file=sys.stderr)
        return 1
    if shards is not None:
        paths = [health.for_shards(Path(setting), shards.ids)]
    else:
        paths = health.beats(Path(setting)) or [Path(setting)]
    unhealthy = [path for path in paths if not health.healthy(path)]
    if not unhealthy:
        return 0
    path = unhealthy[0]
    seconds = health.age(path)
    said = "no heartbeat" if seconds is None else f"the last heartbeat is {seconds:.0f} s old"
    print(f"hauntkeeper: unhealthy: {said} in {path}", file=sys.stderr)
    return 1


def _database() -> str | None:
    """The store HAUNTKEEPER_DB names, or None after saying in one line why it is not
    usable (the operator commands' shared first step)."""
    try:
        return load_settings(need_token=False).db_path
    except ConfigError as exc:
        print(f"hauntkeeper: {exc}", file=sys.stderr)
        return None


def _backup(target: Path) -> int:
    source = _database()
    if source is None:
        return 2
    if is_postgres_url(source):
        print("hauntkeeper: HAUNTKEEPER_DB is PostgreSQL: back it up with pg_dump "
              "(docs/operations.md)", file=sys.stderr)
        return 2
    try:
        games = backup(source, target)
    except BackupError as exc:
        print(f"hauntkeeper: {exc}", file=sys.stderr)
        return 1
    print(f"backed up {source} to {target} ({games} games)")
    return 0


def _forget_guild(guild_id: int) -> int:
    source = _database()
    if source is None:
        return 2
    if not is_postgres_url(source) and not Path(source).is_file():
        print(f"hauntkeeper: there is no SQLite database at {source} (HAUNTKEEPER_DB)",
              file=sys.stderr)
        return 1

    async def forget() -> int:
        store = await open_store(source)
        try:
            return await store.forget_guild(guild_id)
        finally:
            await store.close()

    import asyncpg  # its errors, only here: `run` never loads the driver for SQLite

    try:
        games = asyncio.run(forget())
    except StoreUnavailable as exc:
        print(f"hauntkeeper: nothing deleted: {_of_setting(exc)}", file=sys.stderr)
        return 1
    except StoreError as exc:
        print(f"hauntkeeper: {_of_setting(exc)}", file=sys.stderr)
        return 2
    except (OSError, asyncpg.PostgresError) as exc:
        print(f"hauntkeeper: nothing deleted: {exc}", file=sys.stderr)
        return 1
    print(f"deleted server {guild_id}'s data: {games} games, its settings and what it played")
    return 0


def _migrate_store(url: str, source: str | None) -> int:
    if source is None:
        source = _database()
        if source is None:
            return 2
        if is_postgres_url(source):
            print("hauntkeeper: HAUNTKEEPER_DB already names PostgreSQL; give the SQLite "
                  "file with --from PATH", file=sys.stderr)
            return 2
    import asyncpg  # the PostgreSQL side of the copy: loaded for this command alone

    from bot.store.copy import migrate

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


def _sync(guild: int | None, clear: bool) -> int:
    settings = _settings()
    if settings is None:
        return 2
    from bot.client import sync_once

    try:
        count = asyncio.run(sync_once(settings.token, guild, clear=clear))
    except Exception as exc:  # a bad token, Discord unreachable: one line
        print(f"hauntkeeper: could not sync: {exc}", file=sys.stderr)
        return 1
    where = f"guild {guild}" if guild else "globally"
    if clear:
        print("cleared the commands " + (f"of {where}" if guild else "registered globally"))
    else:
        print(f"synced {count} commands " + (f"to {where}" if guild else where))
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
    from bot.client import gateway_refusal, make_bot

    bot = make_bot(shards, db_path=settings.db_path, dev_guild=settings.dev_guild,
                   health_file=_beat_of(settings, shards), metrics_port=settings.metrics_port,
                   metrics_addr=settings.metrics_addr,
                   forget_after_days=settings.forget_after_days)
    if shards is not None:
        logging.getLogger("bot").info("running %s", shards)
    try:
        asyncio.run(_serve(bot, settings.token))
    except (KeyboardInterrupt, asyncio.CancelledError):
        logging.getLogger("bot").info("stopped on a signal; the store is closed")
    except StoreUnavailable as exc:  # a database server not up (yet): a restart may mend it
        print(f"hauntkeeper: {_of_setting(exc)}", file=sys.stderr)
        return 1
    except StoreError as exc:  # the database cannot be opened: a setting to fix
        print(f"hauntkeeper: {_of_setting(exc)}", file=sys.stderr)
        return 2
    except Exception as exc:  # discord.LoginFailure and friends: say it in one line
        refused = gateway_refusal(exc)  # a close code Discord would only give again
        print(f"hauntkeeper: {refused or f'could not start: {exc}'}", file=sys.stderr)
        return 1
    return 0


def _of_setting(exc: StoreError) -> str:
    """The store's line, naming the setting it came from (a SQLite file's already does)."""
    said = str(exc)
    return said if said.startswith(SETTING) else f"{SETTING}: {said}"


def _beat_of(settings: Settings, shards: Shards | None) -> str | None:
    """This process's own heartbeat: a shard range's is named by the range."""
    if settings.health_file is None:
        return None
    return str(health.for_shards(Path(settings.health_file),
                                 shards.ids if shards is not None else None))


def main(argv: list[str] | None = None) -> int:
    # The games, the cogs and discord.py's bot load with the collector off: their
    # imports make hundreds of thousands of objects that live as long as the process,
    # and the collections they set off (of nothing) were a fifth of that CPU time
    # (bench/bench_startup.py). A run's bot freezes what it loaded and turns the
    # collector back on at the end of its setup_hook (bot/client.py); the other
    # commands turn it on once their arguments are read.
    gc.disable()
    words = sys.argv[1:] if argv is None else argv
    try:
        return _command(words)
    except OSError as exc:
        said = _content_problem(exc)
        if said is None:
            raise
        print(f"hauntkeeper: {said}", file=sys.stderr)
        return 2


def _content_problem(exc: OSError) -> str | None:
    """The one line for content that HAUNTKEEPER_DATA points at and that cannot be read
    (a folder missing, or a file of it), found as the games load; None for any other
    error. The packaged content is the install's own: its failure stays a traceback."""
    override = os.environ.get(paths.DATA_SETTING, "").strip()
    if not override or not isinstance(exc.filename, str):
        return None
    folder = Path(override)
    if not Path(exc.filename).is_relative_to(folder):
        return None
    return (f"{paths.DATA_SETTING} {folder}: cannot read the content there "
            f"({exc.strerror or exc}: {exc.filename}); leave it unset for the bot's own.")


def _command(argv: list[str]) -> int:
    args = _parser(_offered_games() if DEMO in argv else None).parse_args(argv)
    if args.command not in (None, "run"):
        gc.enable()
    if args.command == DEMO:
        from bot.demo import main as demo_main

        try:
            return asyncio.run(demo_main(args.game, args.players, args.seed, args.out,
                                         expansion=args.expansion))
        except ValueError as exc:
            print(f"hauntkeeper: {exc}", file=sys.stderr)
            return 2
    if args.command == "sync":
        return _sync(args.guild, args.clear)
    if args.command == "health":
        return _health(args.shards, args.shard_count)
    if args.command == "backup":
        return _backup(args.path)
    if args.command == "forget-guild":
        return _forget_guild(args.guild)
    if args.command == "migrate-store":
        return _migrate_store(args.to, args.source)
    return _run(args.shards, args.shard_count)


if __name__ == "__main__":
    sys.exit(main())
