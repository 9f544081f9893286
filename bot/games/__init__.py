"""The registry of games, by the key players type in `/game new game:`.

No list of games is kept here: every package in bot/games/ whose `__init__` exports
`GAME` (a `Game`) is a game, registered under its key. A package without one (an
edition of another game, a game still being built) is skipped. Adding a game is adding
its package (and, found by the same key, its cog and renderer: see bot/client.py and
renderers/__init__.py).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator
from typing import Any

from bot.games.base import Game

_GAMES: dict[str, Game[Any]] = {}
_builtins_loaded = False


def register(game: Game[Any]) -> Game[Any]:
    _GAMES[game.key] = game
    return game


def get(key: str) -> Game[Any]:
    _load_builtin()
    try:
        return _GAMES[key]
    except KeyError:
        raise KeyError(key) from None


def all_games() -> dict[str, Game[Any]]:
    _load_builtin()
    return dict(_GAMES)


def walk_games() -> Iterator[Game[Any]]:
    """Every game package's GAME, in the packages' name order (so menus keep one order).

    Like python-discord's walk_extensions: the packages on this package's `__path__`,
    imported one by one; an import error is a bug in that game and is raised.
    """
    packages = sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg)
    for name in packages:
        module = importlib.import_module(f"{__name__}.{name}")
        game = getattr(module, "GAME", None)
        if isinstance(game, Game):
            yield game


def _load_builtin() -> None:
    global _builtins_loaded
    if _builtins_loaded:
        return
    _builtins_loaded = True
    for game in walk_games():
        register(game)
