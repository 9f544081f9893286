"""`/help`: every command the caller can use here, as clickable mentions, by game.

A mention (`</game new:ID>`) needs the id Discord gave the command when it was synced,
so the ids are fetched from Discord the first time they are needed (this server's
commands, when the dev guild has its own, then the global ones) and kept: a re-sync
keeps a command's id as long as its name stays. The table's own commands come first,
then each game's group under the game's title, so adding a game adds its section.
"""

from __future__ import annotations

from collections.abc import Iterator

import discord
from discord import app_commands
from discord.ext import commands

from bot import games
from bot import table as table_rules
from bot.command_translator import translated
from bot.locales import current
from bot.mentions import BOOK
from bot.texts import say
from cogs import mentions
from cogs.common import handling, sessions_of

FIELD_LIMIT = 1024  # Discord: the characters of an embed field's value
EMBED_LIMIT = 5500  # of an embed's 6,000 in all, with room for titles
MAX_EMBEDS = 10  # a message holds 10 embeds
Leaf = app_commands.Command
AnyCommand = app_commands.Command | app_commands.Group


class HelpCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="Every command, grouped by game")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
    async def show_help(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "help"):
            await interaction.response.defer(ephemeral=True, thinking=True)
            ids = await self.command_ids(interaction.guild_id)
            here = await sessions_of(interaction).table(interaction.channel_id or 0,
                                                        latest=True) \
                if interaction.guild_id is not None else None
            embeds = help_embeds(self.bot.tree, ids, interaction,
                                 here=here.kind if here is not None else None,
                                 named=table_rules.title(here) if here is not None else None)
            await interaction.followup.send(embeds=embeds, ephemeral=True)

    async def cog_unload(self) -> None:
        mentions.forget()

    async def command_ids(self, guild_id: int | None) -> dict[str, int]:
        """Top-level command name -> id: the global commands, overlaid by this guild's."""
        return await mentions.learn(self.bot.tree, guild_id)


def _usable(command: AnyCommand, interaction: discord.Interaction) -> bool:
    """Whether Discord shows the caller this top-level command where they are."""
    contexts = command.allowed_contexts
    if interaction.guild_id is None:
        return contexts is None or bool(contexts.dm_channel)
    needed = command.default_permissions
    return needed is None or interaction.permissions >= needed


def _leaves(command: AnyCommand) -> Iterator[Leaf]:
    if isinstance(command, app_commands.Group):
        for child in command.walk_commands():
            if isinstance(child, app_commands.Command):
                yield child
    else:
        yield command


def _line(command: Leaf, ids: dict[str, int]) -> str:
    root = command.root_parent.name if command.root_parent else command.name
    known = ids.get(root)
    name = command.qualified_name
    mention = f"</{name}:{known}>" if known else f"`/{name}`"
    return f"{mention} {translated(command.description, current())}"


def sections(tree: app_commands.CommandTree, ids: dict[str, int],
             interaction: discord.Interaction,
             here: str | None = None,
             named: str | None = None) -> list[tuple[str, list[str]]]:
    """(heading, lines): the game of this channel (`here`, a game's key) first, headed
    by its name as the channel plays it (`named`: its edition's), then the table's
    commands, then one section per game."""
    titles = {key: game.title for key, game in games.all_games().items()}
    table: list[str] = []
    by_game: dict[str, list[str]] = {}
    for command in sorted(tree.get_commands(type=discord.AppCommandType.chat_input),
                          key=lambda c: c.name):
        if not isinstance(command, app_commands.Command | app_commands.Group):
            continue
        if not _usable(command, interaction):
            continue
        lines = [_line(leaf, ids) for leaf in _leaves(command)]
        if command.name in titles:
            by_game.setdefault(titles[command.name], []).extend(lines)
        else:
            table.extend(lines)
    found = [(say("help.table"), table)] if table else []
    ours = games.all_games()[here].title if here in games.all_games() else None
    first = [(say("help.this_game", game=named or ours), by_game.pop(ours))] \
        if ours in by_game else []
    return first + found + sorted(by_game.items())


def _fields(heading: str, lines: list[str]) -> Iterator[tuple[str, str]]:
    """One section as embed fields of at most FIELD_LIMIT characters, split at lines."""
    part: list[str] = []
    size = 0
    first = True
    for line in lines:
        line = line[:FIELD_LIMIT]
        if part and size + len(line) + 1 > FIELD_LIMIT:
            yield (heading if first else "\u200b", "\n".join(part))
            first = False
            part, size = [], 0
        part.append(line)
        size += len(line) + 1
    if part:
        yield (heading if first else "\u200b", "\n".join(part))


def help_embeds(tree: app_commands.CommandTree, ids: dict[str, int],
                interaction: discord.Interaction,
                here: str | None = None, named: str | None = None) -> list[discord.Embed]:
    """Getting started, then the sections as fields, in as many embeds as their length
    needs."""
    intro = say("help.intro") if ids else say("help.unsynced")
    embeds = [discord.Embed(title=say("help.title"), description=intro)]
    size = len(say("help.title")) + len(intro)
    steps = say("help.start_steps")  # in a DM the table's commands are hidden: not linked
    steps = BOOK.link(steps, interaction.guild_id) if interaction.guild_id else steps
    language = say("help.language")  # names /gm settings unlinked: a moderators' command
    start = [(say("help.getting_started"), [steps])]
    last = [(say("help.language_title"), [language])]  # how a server switches language
    for heading, lines in start + sections(tree, ids, interaction, here, named) + last:
        for name, value in _fields(heading, lines):
            if size + len(name) + len(value) > EMBED_LIMIT or len(embeds[-1].fields) == 25:
                if len(embeds) == MAX_EMBEDS:
                    return embeds
                embeds.append(discord.Embed())
                size = 0
            embeds[-1].add_field(name=name, value=value, inline=False)
            size += len(name) + len(value)
    return embeds


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(HelpCog(bot))
