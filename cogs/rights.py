"""Where a click may act, and with whose rights.

A component's custom_id names its game's channel, and a modified client can send any
custom_id from anywhere. So the channel in the custom_id is only trusted when it is the
channel the click happened in; in a DM (where the bot posts a private turn's buttons)
it must be a game the user holds a seat in. Moderator rights are always those the user
has in the game's own channel: a click elsewhere carries another channel's permissions,
and a DM carries none.

A game's slash commands follow the same rule: in a server they act on the channel's
game; in a DM (the traitor's turn arrives there) on the one open game of that kind the
user holds a seat in, with the rights the user has in that game's channel.
The server's moderator role (/gm settings) counts wherever the member holds it.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot import games
from bot.core.errors import IllegalAction
from bot.locales import language_of, speak
from bot.store import StoreUnavailable, Table
from bot.table import Actor
from bot.texts import listed, say
from cogs import click_limit
from cogs.common import (
    GAME_CHANNEL,
    actor_of,
    bot_of,
    holds_mod_role,
    may_moderate,
    refuse,
    sessions_of,
)
from cogs.moderation_views import channel_list
from cogs.option_check import given, misfit

NEW_GAME = "game new"  # the one command refused even where a game already runs


async def click_actor(interaction: discord.Interaction, channel_id: int) -> Actor:
    """Who this click plays as in the game of `channel_id`, or a refusal."""
    sessions = sessions_of(interaction)
    if interaction.guild_id is not None:
        await sessions.settings.get(interaction.guild_id)  # the mod role, for actor_of
        if interaction.channel_id != channel_id:
            raise IllegalAction(say("errors.other_channel"))
        return actor_of(interaction)
    table = await sessions.table(channel_id) or await sessions.table(channel_id, latest=True)
    user = interaction.user
    if table is None or not table.seats_of(user.id):
        raise IllegalAction(say("errors.not_your_game"))
    return await _remote_actor(interaction, table)


async def command_table(interaction: discord.Interaction, kind: str, missing: str) -> Table:
    """The started game of `kind` a slash command acts on: this channel's in a server
    (`missing` when there is none), in a DM the one the user holds a seat in."""
    sessions = sessions_of(interaction)
    if interaction.guild_id is not None:
        table = await sessions.table(interaction.channel_id or 0)
        if table is None or table.kind != kind or table.state is None:
            raise IllegalAction(missing)
        return table
    title = games.get(kind).title
    mine = [t for t in await bot_of(interaction).store.open_games_of(interaction.user.id)
            if t.kind == kind and t.state is not None]
    if not mine:
        raise IllegalAction(say("commands.no_dm_game", game=title))
    if len(mine) > 1:
        channels = listed([f"<#{t.channel_id}>" for t in mine[:20]])
        raise IllegalAction(say("commands.several_games", game=title, channels=channels))
    table = await sessions.table(mine[0].channel_id)
    if table is None or table.kind != kind or table.state is None:
        raise IllegalAction(say("commands.no_dm_game", game=title))
    interaction.extras[GAME_CHANNEL] = table.channel_id  # for handling's DM reminder
    return table


async def command_actor(interaction: discord.Interaction, table: Table) -> Actor:
    """Who a slash command plays as in `table` (found by `command_table`)."""
    if interaction.guild_id is not None:
        return actor_of(interaction)
    return await _remote_actor(interaction, table)


async def _remote_actor(interaction: discord.Interaction, table: Table) -> Actor:
    """The user with the rights of the game's own channel, from a DM; with their app's
    language, as a click in the server reports it (a turn played from DMs is heard
    there). A DM tells no server's locale."""
    user = interaction.user
    member = await _member(interaction.client, table, user.id)
    name = member.display_name if member is not None else user.display_name
    settings = await sessions_of(interaction).settings.get(table.guild_id)
    return Actor(user.id, name, member is not None and (
        _moderates(table, member) or holds_mod_role(member, settings)),
                 language=language_of(interaction.locale))


async def _member(client: discord.Client, table: Table, user_id: int) -> discord.Member | None:
    """The user as a member of the game's server, if the bot can read it."""
    guild = client.get_guild(table.guild_id) if table.guild_id else None
    if guild is None:
        return None
    member = guild.get_member(user_id)
    if member is not None:
        return member
    try:
        return await guild.fetch_member(user_id)
    except discord.HTTPException:  # left the server, or the bot may not look
        return None


def _moderates(table: Table, member: discord.Member) -> bool:
    channel = member.guild.get_channel_or_thread(table.channel_id)
    return channel is not None and may_moderate(channel.permissions_for(member))


# Commands that work in any channel whatever the server's game channels: the moderators'
# tools (to close a game left in another channel), help and a server's stats.
ANYWHERE = frozenset({"gm", "help", "stats"})


async def _within_limit(interaction: discord.Interaction,
                        command: app_commands.Command[Any, ..., Any]
                        | app_commands.ContextMenu) -> bool:
    """A command that changes a table counts in the user's click bucket
    (cogs/click_limit.py): over the limit, the first is told to slow down and the rest
    of the burst get an answer that says nothing (a slash command must be answered)."""
    if not click_limit.limited(command):
        return True
    verdict = await click_limit.CLICKS.admit(interaction.user.id, bot_of(interaction).store)
    if verdict is click_limit.Verdict.GO:
        return True
    if verdict is click_limit.Verdict.REFUSE:
        await refuse(interaction, command.qualified_name, say("commands.slow_down"))
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.delete_original_response()
    return False


async def table_check(interaction: discord.Interaction) -> bool:
    """The tree's check before every slash command and autocomplete: it reads the
    server's settings (so the moderator role is known to `is_moderator` without a
    store trip of its own), then refuses game commands outside the server's game
    channels and their threads, in one ephemeral line naming them. A game opened
    before the setting plays on where it is: its buttons are not checked here, and in
    its channel every command but /game new still works.

    It is also where a slash command starts speaking the caller's language (their
    client's locale, bot/locales): the command runs in this same task."""
    speak(language_of(interaction.locale))
    try:
        settings = await sessions_of(interaction).settings.get(interaction.guild_id)
    except StoreUnavailable:  # one calm line (an autocomplete has nobody to tell)
        if interaction.type is discord.InteractionType.application_command:
            await refuse(interaction, "check", say("errors.store_down"))
        return False
    command = interaction.command
    if interaction.type is not discord.InteractionType.application_command or command is None:
        return True
    wrong = misfit(command, given(interaction))
    if wrong is not None:  # a stale registration's value: refused before any cog runs
        await refuse(interaction, command.qualified_name,
                     say("errors.option_misfit", option=wrong[:32]))
        return False
    if not await _within_limit(interaction, command):
        return False
    parent_group = command.root_parent if isinstance(command, app_commands.Command) else None
    root = parent_group.name if parent_group is not None else command.name
    channel = interaction.channel
    parent = channel.parent_id if isinstance(channel, discord.Thread) else None
    if root in ANYWHERE or interaction.guild_id is None or settings.game_allowed_in(
            interaction.channel_id, parent):
        return True
    if command.qualified_name != NEW_GAME and await sessions_of(interaction).table(
            interaction.channel_id or 0) is not None:
        return True  # a game that began before the setting
    await refuse(interaction, root, say("errors.game_channels_only",
                                        channels=channel_list(settings)))
    return False
