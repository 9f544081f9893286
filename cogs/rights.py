"""Where a click may act, and with whose rights.

A component's custom_id names its game's channel, and a modified client can send any
custom_id from anywhere. So the channel in the custom_id is only trusted when it is the
channel the click happened in; in a DM (where the bot posts a private turn's buttons)
it must be a game the user holds a seat in. Moderator rights are always those the user
has in the game's own channel: a click elsewhere carries another channel's permissions,
and a DM carries none. The server's moderator role (/gm settings) counts wherever the
member holds it.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.core.errors import IllegalAction
from bot.store import Table
from bot.table import Actor
from bot.texts import say
from cogs.common import actor_of, holds_mod_role, may_moderate, refuse, sessions_of
from cogs.moderation_views import channel_list


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
    member = await _member(interaction.client, table, user.id)
    name = member.display_name if member is not None else user.display_name
    settings = await sessions.settings.get(table.guild_id)
    return Actor(user.id, name, member is not None and (
        _moderates(table, member) or holds_mod_role(member, settings)))


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
# tools (to close a game left in another channel) and help.
ANYWHERE = frozenset({"gm", "help"})


async def table_check(interaction: discord.Interaction) -> bool:
    """The tree's check before every slash command and autocomplete: it reads the
    server's settings (so the moderator role is known to `is_moderator` without a
    store trip of its own), then refuses game commands outside the server's game
    channels and their threads, in one ephemeral line naming them. Buttons are not
    checked here: a game opened before the setting plays on where it is."""
    settings = await sessions_of(interaction).settings.get(interaction.guild_id)
    command = interaction.command
    if interaction.type is not discord.InteractionType.application_command or command is None:
        return True
    parent_group = command.root_parent if isinstance(command, app_commands.Command) else None
    root = parent_group.name if parent_group is not None else command.name
    channel = interaction.channel
    parent = channel.parent_id if isinstance(channel, discord.Thread) else None
    if root in ANYWHERE or interaction.guild_id is None or settings.game_allowed_in(
            interaction.channel_id, parent):
        return True
    await refuse(interaction, root, say("errors.game_channels_only",
                                        channels=channel_list(settings)))
    return False
