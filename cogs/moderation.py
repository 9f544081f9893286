"""`/gm ...`: moderators keep order. Permission is checked here in code, because a
server can override the default_permissions hint for anyone (Server Settings →
Integrations lets an admin open /gm to the moderator role of /gm settings).

Who moderates: members with Manage Channels (or Administrator) in the game's channel,
and members holding the server's moderator role. Only the former may change which role
that is, or reset the settings: the role cannot hand itself on."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot import table as table_rules
from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.guild_settings import AI_PLAYS, MAX_MINUTES, REMIND, SKIP, GuildSettings
from bot.locales import current, language_of
from bot.sessions import Outcome
from bot.table_record import UNDO_KEPT
from bot.texts import say
from cogs.common import (
    acknowledgement,
    actor_of,
    bot_of,
    handling,
    is_moderator,
    may_moderate,
    say_ephemeral,
    sessions_of,
)
from cogs.lobby import redraw_lobby
from cogs.moderation_views import (
    KEEP_CHOICES,
    LANGUAGE_CHOICES,
    SWITCH,
    changed,
    log_text,
    seat_choices,
    seat_index,
    settings_text,
)

Minutes = app_commands.Range[int, 0, MAX_MINUTES]
SEAT_TEXT_MOST = 100  # a seat's number or a part of its label: no longer than a label
TIMER_ENDS = [app_commands.Choice(name=say(f"settings.end_{end}"), value=end)
              for end in (REMIND, AI_PLAYS, SKIP)]
KEEP = [app_commands.Choice(name=say(f"settings.keep_choice_{value}"), value=value)
        for value in KEEP_CHOICES]
LANGUAGE = [app_commands.Choice(name=say(f"settings.language_choice_{value}"), value=value)
            for value in LANGUAGE_CHOICES]
ON_OFF = [app_commands.Choice(name=say(f"settings.switch_{value}"), value=value)
          for value in SWITCH]


def _need_moderator(interaction: discord.Interaction) -> None:
    """A server's moderator, in a server. /gm is registered guild-only, but a client with
    an old command list may still send it from a DM, where no one has a channel's rights:
    "not here", not "not a moderator", which a moderator would misread."""
    if interaction.guild_id is None:
        raise IllegalAction(say("errors.not_here"))
    if not is_moderator(interaction):
        raise IllegalAction(say("errors.mod_only"))


async def _answer(interaction: discord.Interaction, outcome: Outcome) -> None:
    """The action's public line, as the moderator reads it: in their own language (the
    step was said in it too, sessions' `_languages`), not the English the table keeps."""
    first = next((e.text_in(current()) for e in outcome.events if e.audience.is_public),
                 say("done"))
    await interaction.followup.send(acknowledgement(outcome, first[:2000]), ephemeral=True)


async def _play(interaction: discord.Interaction, action: Action) -> None:
    """A table action on this channel's game, answered privately with its public line;
    in a lobby (a kick, a new host, its end) the lobby's message shows the change, as it
    does for /game join: a lobby change posts nothing else."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    outcome = await sessions_of(interaction).act(
        interaction.channel_id or 0, actor_of(interaction), action)
    await _answer(interaction, outcome)
    if outcome.lobby_only or outcome.table.state is None:  # a lobby changed, or closed
        await redraw_lobby(interaction, outcome.table)


@app_commands.default_permissions(manage_channels=True)
@app_commands.guild_only()
class ModerationCog(commands.GroupCog, group_name="gm",
                    group_description="Moderator tools for this channel's game"):
    async def _run(self, interaction: discord.Interaction, name: str, action: Action) -> None:
        async with handling(interaction, f"gm {name}"):
            _need_moderator(interaction)
            await _play(interaction, action)

    @app_commands.command(name="end", description="End this channel's game")
    async def end(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "end", Action(table_rules.END))

    @app_commands.command(name="kick", description="Take a player out of the game (in a "
                                                   "running game, the AI takes over)")
    @app_commands.describe(player="The player to remove from the game")
    async def kick(self, interaction: discord.Interaction, player: discord.User) -> None:
        await self._run(interaction, "kick", Action(table_rules.KICK, {"user": player.id}))

    @app_commands.command(name="skip", description="Let the AI play the current turn")
    async def skip(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "skip", Action(table_rules.SKIP, {table_rules.WHOLE_TURN: 1}))

    @app_commands.command(name="pause", description="Pause the game: no moves until resumed")
    async def pause(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "pause", Action(table_rules.PAUSE))

    @app_commands.command(name="resume", description="Resume a paused game")
    async def resume(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "resume", Action(table_rules.RESUME))

    @app_commands.command(name="seat", description="Hand a seat (the AI's or an absent "
                                                   "player's) to another member")
    @app_commands.describe(seat="The seat to hand over", member="Who plays it from now on")
    async def seat(self, interaction: discord.Interaction,
                   seat: app_commands.Range[str, 1, SEAT_TEXT_MOST],
                   member: discord.Member) -> None:
        async with handling(interaction, "gm seat"):
            _need_moderator(interaction)
            if member.bot:
                raise IllegalAction(say("errors.seat_bot"))
            sessions = sessions_of(interaction)
            table = await sessions.table(interaction.channel_id or 0)
            if table is None:  # as the other tools say it (Sessions.act)
                ended = await sessions.table(interaction.channel_id or 0, latest=True)
                raise IllegalAction(say("errors.game_over" if ended else "errors.no_game"))
            await _play(interaction, Action(table_rules.SEAT, {
                "seat": seat_index(table, seat), "user": member.id,
                "name": member.display_name}))

    @seat.autocomplete("seat")
    async def _seats(self, interaction: discord.Interaction,
                     current: str) -> list[app_commands.Choice[str]]:
        table = await sessions_of(interaction).table(interaction.channel_id or 0)
        return seat_choices(table, current)

    @app_commands.command(name="host", description="Make another seated member the host")
    @app_commands.describe(member="The new host")
    async def host(self, interaction: discord.Interaction, member: discord.Member) -> None:
        await self._run(interaction, "host", Action(table_rules.HOST, {"user": member.id}))

    @app_commands.command(name="undo", description="Take back the last moves (and the AI's "
                                                   "after them)")
    @app_commands.describe(steps="How many players' moves to take back (1 unless given)")
    async def undo(self, interaction: discord.Interaction,
                   steps: app_commands.Range[int, 1, UNDO_KEPT] = 1) -> None:
        async with handling(interaction, "gm undo"):
            _need_moderator(interaction)
            steps = table_rules.undo_steps(steps)
            await interaction.response.defer(ephemeral=True, thinking=True)
            outcome = await sessions_of(interaction).undo(
                interaction.channel_id or 0, actor_of(interaction), steps)
            await _answer(interaction, outcome)

    @app_commands.command(name="log", description="What moderators did in this game")
    async def log(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "gm log"):
            _need_moderator(interaction)
            table = await sessions_of(interaction).table(interaction.channel_id or 0,
                                                         latest=True)
            if table is None:
                raise IllegalAction(say("errors.no_game"))
            store = bot_of(interaction).store
            entries = await store.moderator_log(table.id or 0)
            notices = await store.notices(table.id or 0)
            bot = interaction.client.user
            await say_ephemeral(interaction, log_text(entries, notices, bot.id if bot else 0))

    @app_commands.command(name="settings", description="This server's table settings "
                                                       "(no options: show them)")
    @app_commands.describe(
        mod_role="Members with this role moderate too (give the same role again to clear)",
        remind_minutes="Remind the player to act after this many minutes (0: off)",
        act_minutes="After this many minutes the turn timer ends (0: off)",
        timer_end="What happens when the turn timer ends",
        game_channel="Allow games in this channel (give it again to take it off the list)",
        play_by_play="Every line of each game also in a public thread of its channel",
        keep="How long finished games are kept for /game history and /stats",
        language="The language of the games' public posts (players' DMs follow their own)",
        reset="Back to the defaults")
    @app_commands.choices(timer_end=TIMER_ENDS, play_by_play=ON_OFF, keep=KEEP,
                          language=LANGUAGE)
    async def settings(self, interaction: discord.Interaction,
                       mod_role: discord.Role | None = None,
                       remind_minutes: Minutes | None = None,
                       act_minutes: Minutes | None = None,
                       timer_end: app_commands.Choice[str] | None = None,
                       game_channel: discord.TextChannel | None = None,
                       play_by_play: app_commands.Choice[str] | None = None,
                       keep: app_commands.Choice[str] | None = None,
                       language: app_commands.Choice[str] | None = None,
                       reset: bool = False) -> None:
        async with handling(interaction, "gm settings"):
            _need_moderator(interaction)
            guild_id = interaction.guild_id or 0
            cache = sessions_of(interaction).settings
            current = await cache.get(guild_id)
            if (mod_role is not None or reset) and not may_moderate(interaction.permissions):
                raise IllegalAction(say("errors.settings_admin_only"))
            if mod_role is not None and mod_role.is_default():
                raise IllegalAction(say("errors.bad_option"))
            given = (mod_role, remind_minutes, act_minutes, timer_end, game_channel,
                     play_by_play, keep, language)
            if reset:
                new = await cache.put(guild_id, GuildSettings())
                head = say("settings.reset")
            elif any(option is not None for option in given):
                new = await cache.put(guild_id, changed(
                    current, mod_role=mod_role.id if mod_role else None,
                    remind_minutes=remind_minutes, act_minutes=act_minutes,
                    timer_end=timer_end.value if timer_end else None,
                    game_channel=game_channel.id if game_channel else None,
                    play_by_play=play_by_play.value if play_by_play else None,
                    keep=keep.value if keep else None,
                    language=language.value if language else None))
                head = say("settings.saved")
            else:
                new, head = current, ""
            text = settings_text(new, language_of(interaction.guild_locale))
            await say_ephemeral(interaction, f"{head}\n{text}" if head else text)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ModerationCog())
