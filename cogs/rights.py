"""Where a click may act, and with whose rights.

A component's custom_id names its game's channel, and a modified client can send any
custom_id from anywhere. So the channel in the custom_id is only trusted when it is the
channel the click happened in; in a DM (where the bot posts a private turn's buttons)
it must be a game the user holds a seat in. Moderator rights are always those the user
has in the game's own channel: a click elsewhere carries another channel's permissions,
and a DM carries none.
"""

from __future__ import annotations

import discord

from bot.core.errors import IllegalAction
from bot.store import Table
from bot.table import Actor
from bot.texts import say
from cogs.common import actor_of, may_moderate, sessions_of


async def click_actor(interaction: discord.Interaction, channel_id: int) -> Actor:
    """Who this click plays as in the game of `channel_id`, or a refusal."""
    if interaction.guild_id is not None:
        if interaction.channel_id != channel_id:
            raise IllegalAction(say("errors.other_channel"))
        return actor_of(interaction)
    sessions = sessions_of(interaction)
    table = await sessions.table(channel_id) or await sessions.table(channel_id, latest=True)
    user = interaction.user
    if table is None or not table.seats_of(user.id):
        raise IllegalAction(say("errors.not_your_game"))
    member = await _member(interaction.client, table, user.id)
    name = member.display_name if member is not None else user.display_name
    return Actor(user.id, name, member is not None and _moderates(table, member))


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
