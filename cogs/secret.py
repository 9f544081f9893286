"""`/secret`: your private information again, only for you (works with DMs closed)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import bot_of, handling, say_whole_ephemeral, sessions_of


class SecretCog(commands.Cog):
    @app_commands.command(name="secret",
                          description="See your secret information in this channel's game")
    @app_commands.guild_only()
    async def secret(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "secret"):
            # Seeing the secrets here is the remedy for a lost DM: no reminder needed.
            bot_of(interaction).outlet.take_undelivered(interaction.channel_id or 0,
                                                        interaction.user.id)
            text = await sessions_of(interaction).secret(interaction.channel_id or 0,
                                                         interaction.user.id)
            await say_whole_ephemeral(interaction, text)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SecretCog())
