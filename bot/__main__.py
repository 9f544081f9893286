"""hauntkeeper's command line: `run` (the default) starts the bot, `sync` registers its
slash commands with Discord, `demo` plays offline."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path

from bot.config import ConfigError, Settings, load_settings


def _parser() -> argparse.ArgumentParser:
    from bot import games

    parser = argparse.ArgumentParser(
        prog="hauntkeeper",
        description="A Discord game master for haunted-house board games.",
    )
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("run", help="start the bot (needs DISCORD_TOKEN); the default")
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
    return parser


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


def _run() -> int:
    settings = _settings()
    if settings is None:
        return 2
    from bot.client import HauntBot

    bot = HauntBot(db_path=settings.db_path, dev_guild=settings.dev_guild)
    try:
        bot.run(settings.token, log_handler=None)
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
    return _run()


if __name__ == "__main__":
    sys.exit(main())
