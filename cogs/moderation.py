"""`/gm ...`: moderators keep order. Permission is checked here in code, because a
server can override the default_permissions hint for anyone."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot import table as table_rules
from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.texts import say
from cogs.common import acknowledgement, actor_of, handling, is_moderator, sessions_of


@app_commands.default_permissions(manage_channels=True)
@app_commands.guild_only()
class ModerationCog(commands.GroupCog, group_name="gm",
                    group_description="Moderator tools for this channel's game"):
    async def _run(self, interaction: discord.Interaction, name: str, action: Action) -> None:
        async with handling(interaction, f"gm {name}"):
            if not is_moderator(interaction):
                raise IllegalAction(say("errors.mod_only"))
            await interaction.response.defer(ephemeral=True, thinking=True)
            outcome = await sessions_of(interaction).act(
                interaction.channel_id or 0, actor_of(interaction), action)
            first = next((e.text for e in outcome.events if e.audience.is_public), "Done.")
            await interaction.followup.send(acknowledgement(outcome, first[:2000]),
                                            ephemeral=True)

    @app_commands.command(name="end", description="End this channel's game")
    async def end(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "end", Action(table_rules.END))

    @app_commands.command(name="kick", description="Hand a player's seat to the AI")
    @app_commands.describe(player="The player to remove from the game")
    async def kick(self, interaction: discord.Interaction, player: discord.User) -> None:
        await self._run(interaction, "kick", Action(table_rules.KICK, {"user": player.id}))

    @app_commands.command(name="skip", description="Let the AI play the current turn")
    async def skip(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "skip", Action(table_rules.SKIP))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ModerationCog())
