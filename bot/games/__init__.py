"""The registry of games, by the key players type in `/game new game:`."""

from __future__ import annotations

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


def _load_builtin() -> None:
    global _builtins_loaded
    if _builtins_loaded:
        return
    _builtins_loaded = True
    from bot.games.betrayal import GAME as betrayal
    from bot.games.cthulhu import GAME as cthulhu

    register(cthulhu)
    register(betrayal)
