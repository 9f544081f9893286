"""The synced commands' ids, fetched from Discord for bot/mentions.py's book.

Fetched the first time a line that names a command is about to be sent (this guild's
commands, when it has its own, over the global ones) and kept: a re-sync keeps a
command's id as long as its name stays. Commands not synced yet are asked for again,
but at most once a minute, so a bot started before `python -m bot sync` does not ask
Discord on every refusal.
"""

from __future__ import annotations

import time

import discord
from discord import app_commands

from bot.mentions import BOOK

RETRY_SECONDS = 60.0
_asked: dict[int | None, float] = {}  # scope -> when an empty answer came
_tree: list[app_commands.CommandTree] = []  # the tree the book was filled from


def leaf_names(tree: app_commands.CommandTree) -> list[str]:
    """Every command a mention can name: the top-level commands and the subcommands."""
    names: list[str] = []
    for command in tree.get_commands(type=discord.AppCommandType.chat_input):
        if isinstance(command, app_commands.Group):
            names.extend(c.qualified_name for c in command.walk_commands()
                         if isinstance(c, app_commands.Command))
        else:
            names.append(command.name)
    return names


def _ensure(tree: app_commands.CommandTree) -> None:
    """The book belongs to this tree: a new bot (a restart, a test's next bot) starts it
    afresh with its names and no ids. Read at the first line sent, when every cog has
    added its commands."""
    if _tree and _tree[0] is tree:
        return
    BOOK.reset(leaf_names(tree))
    _asked.clear()
    _tree[:] = [tree]


def forget() -> None:
    """The bot stops: no line links to its commands any more (a process may start
    another bot, with other ids: a test's next one)."""
    BOOK.reset([])
    _asked.clear()
    _tree.clear()


async def learn(tree: app_commands.CommandTree, guild_id: int | None) -> dict[str, int]:
    """Top-level command name -> id for a line sent in `guild_id` (None: a DM)."""
    _ensure(tree)
    scopes: list[int | None] = [None] if guild_id is None else [None, guild_id]
    for scope in scopes:
        if BOOK.known(scope):
            continue
        if time.monotonic() - _asked.get(scope, -RETRY_SECONDS) < RETRY_SECONDS:
            continue
        guild = discord.Object(scope) if scope is not None else None
        try:
            fetched = await tree.fetch_commands(guild=guild)
        except discord.HTTPException:
            fetched = []
        found = {c.name: c.id for c in fetched if c.type is discord.AppCommandType.chat_input}
        if not found and scope is None:  # not synced yet: asked again in a minute
            _asked[scope] = time.monotonic()
            continue
        BOOK.remember(scope, found)  # a guild without commands of its own: asked once
    return BOOK.ids(guild_id)


async def linked(tree: app_commands.CommandTree, guild_id: int | None, text: str) -> str:
    """`text` with the commands it names as clickable mentions (fetching ids if needed)."""
    _ensure(tree)
    if BOOK.names_command(text):
        await learn(tree, guild_id)
    return BOOK.link(text, guild_id)
