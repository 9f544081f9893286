"""`/game new`'s setup options, made from what the games offer (`Game.setup_choices`).

discord.py reads a slash command's options from its callback's signature, but which
options the lobby has is only known once the games are found (bot/games/__init__.py).
So the callback takes them as `**setup`, and `setup_options` writes them into its
signature before `app_commands.command` reads it: one optional string option per name
any game offers, each described by the game (`Game.setup_option_help`) and completed
with the values of the game being opened. Adding a game with a new option adds no line
to the lobby.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Coroutine, Mapping
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.games.base import Game

Choices = list[app_commands.Choice[str]]
Offered = Callable[[discord.Interaction, str, str], Choices]  # (interaction, option, typed)
Completer = Callable[[discord.Interaction, str], Coroutine[Any, Any, Choices]]
F = TypeVar("F", bound=Callable[..., Any])


def option_help(games: Mapping[str, Game[Any]]) -> dict[str, str]:
    """Every setup option any game offers -> its description, in the games' order (the
    first game that describes an option speaks for it; "…" if none does, as discord.py)."""
    described: dict[str, str] = {}
    for game in games.values():
        words = game.setup_option_help()
        for name in game.setup_choices():
            if not described.get(name):
                described[name] = words.get(name, "")
    return {name: text or "…" for name, text in described.items()}


def _completer(name: str, offered: Offered) -> Completer:
    """The autocomplete of one option (a free function: discord.py passes no cog to it)."""
    async def complete(interaction: discord.Interaction, current: str) -> Choices:
        return offered(interaction, name, current)

    return complete


def setup_options(games: Mapping[str, Game[Any]], offered: Offered) -> Callable[[F], F]:
    """Give a callback ending in `**setup` one `name: str | None = None` option per setup
    option of `games`, described and autocompleted (by `offered`)."""
    described = option_help(games)

    def decorate(callback: F) -> F:
        signature = inspect.signature(callback)
        fixed = [p for p in signature.parameters.values()
                 if p.kind is not inspect.Parameter.VAR_KEYWORD]
        clash = sorted(set(described) & {p.name for p in fixed})
        if clash:
            raise ValueError(f"a game's setup option clashes with /game new's own: {clash}")
        added = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None,
                                   annotation=str | None) for name in described]
        callback.__signature__ = signature.replace(  # type: ignore[attr-defined]
            parameters=[*fixed, *added])
        if described:
            app_commands.describe(**described)(callback)
            app_commands.autocomplete(**{name: _completer(name, offered)
                                         for name in described})(callback)
        return callback

    return decorate
