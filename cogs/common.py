"""What every cog does the same way: who is acting, refusing politely, logging.

Each interaction logs one line (guild, channel, user, command, outcome, ms) so a
moderator's "the bot ignored me" can be traced; one that fails unexpectedly is counted
in the operators' metrics too (bot/metrics.py).
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, suppress
from typing import Any, Protocol

import discord
from discord import app_commands

from bot.core.actions import Action, Option
from bot.core.errors import IllegalAction
from bot.core.formats import UnknownFormat
from bot.discord_limits import DISCORD_CONTENT_MAX
from bot.guild_settings import GuildSettings
from bot.languages import server_language
from bot.live_message import chunks
from bot.locales import language_of, speak
from bot.metrics import Recorder
from bot.sessions import Behind, Outcome, Sessions
from bot.store import Store, StoreUnavailable, Table
from bot.table import Actor
from bot.texts import grouped, say
from cogs import bot_permissions, mentions
from cogs.bot_permissions import names_text

log = logging.getLogger("hauntkeeper.interactions")

OOPS = say("errors.oops")  # in English: each answer says it in its own language
# Discord's refusals of an answer that came too late, not our bug: the first answer
# after its 3 s (10062 Unknown interaction), a follow-up after the token's 15 minutes
# (50027 Invalid Webhook Token; developer docs, "Receiving and Responding": "Interaction
# tokens are valid for 15 minutes"). Whatever the action did stands; nobody is left to
# tell, since every way to the clicker goes through that token.
ANSWER_TOO_LATE = frozenset({10062, 50027})


class DmNotes(Protocol):
    """The outlet's memory of DMs that did not arrive (cogs/outlet.py's DiscordOutlet)."""

    def take_undelivered(self, channel_id: int, user_id: int) -> bool:
        """True once per failed DM: the caller then tells the user privately."""


class GameBot(Protocol):
    """What the cogs use of the bot (bot/client.py's HauntBot has it all). The cogs name
    this rather than HauntBot, since bot/client.py loads the cogs: a cog importing it,
    even for annotations only, would close a circle."""

    @property
    def sessions(self) -> Sessions: ...

    @property
    def store(self) -> Store: ...

    @property
    def outlet(self) -> DmNotes: ...

    @property
    def metrics(self) -> Recorder: ...

    @property
    def tree(self) -> app_commands.CommandTree[discord.Client]: ...


def bot_of(interaction: discord.Interaction) -> GameBot:
    """The bot serving this interaction (always a HauntBot: see GameBot)."""
    return interaction.client  # type: ignore[return-value]


def sessions_of(interaction: discord.Interaction) -> Sessions:
    return bot_of(interaction).sessions


def may_moderate(perms: discord.Permissions) -> bool:
    """Discord's own moderator rights: Manage Channels (or Administrator) in the game's
    channel. Only these may change who else moderates (/gm settings mod_role)."""
    return bool(perms.manage_channels or perms.administrator)


def holds_mod_role(member: discord.abc.User, settings: GuildSettings | None) -> bool:
    """The member holds the server's moderator role (/gm settings mod_role)."""
    role = settings.mod_role if settings is not None else None
    return (role is not None and isinstance(member, discord.Member)
            and member.get_role(role) is not None)


def is_moderator(interaction: discord.Interaction) -> bool:
    """Rights in this channel; checked here because default_permissions is a hint.
    The server's moderator role counts too: its settings are read before any command
    runs (bot/client.py's check) and before a click's actor is worked out."""
    if may_moderate(interaction.permissions):
        return True
    settings = sessions_of(interaction).settings.known(interaction.guild_id)
    return holds_mod_role(interaction.user, settings)


def public_language(interaction: discord.Interaction, table: Table) -> str:
    """The language of the table's public messages (the lobby's too): the server's
    setting, read already by the check before every command, else its preferred locale
    (bot/languages.py)."""
    return server_language(table, sessions_of(interaction).settings.known(table.guild_id))


def actor_of(interaction: discord.Interaction) -> Actor:
    """Who acts, with the languages the interaction reports: the user's client's, and
    the server's preferred one (bot/languages.py keeps them on the table)."""
    user = interaction.user
    guild_locale = interaction.guild_locale if interaction.guild_id is not None else None
    return Actor(user.id, user.display_name, is_moderator(interaction),
                 language=language_of(interaction.locale),
                 guild_language=language_of(guild_locale) if guild_locale else None)


async def say_ephemeral(interaction: discord.Interaction, text: str, **kwargs: Any) -> None:
    """Answer only the caller, whether or not the interaction was answered already; the
    commands the answer names are clickable (cogs/mentions.py), unless the longer
    mentions would push it past what Discord takes."""
    linked = await mentions.linked(bot_of(interaction).tree, interaction.guild_id, text)
    text = linked if len(linked) <= DISCORD_CONTENT_MAX else text
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(text, ephemeral=True, **kwargs)


async def say_whole_ephemeral(interaction: discord.Interaction, text: str) -> None:
    """`say_ephemeral` for a text that may run past one message (a seat's secrets: a
    haunt's book, then the notes told to its side alone): all of it, in as many private
    messages as it takes, split at line breaks, never cut short."""
    for part in chunks(text):
        await say_ephemeral(interaction, part)


@asynccontextmanager
async def handling(interaction: discord.Interaction, command: str, *,
                   channel_id: int | None = None) -> AsyncIterator[None]:
    """Turn IllegalAction into a short ephemeral answer and log the interaction; the
    store away for now (StoreUnavailable) is one calm line too, and no traceback, and
    so is a game saved by a newer release (UnknownFormat: it stays as it is until that
    release runs; a warning in the log tells the host). The
    whole interaction counts as under way (Sessions.serving), so a stop waits for its
    answer.

    `channel_id` names the game's channel when the interaction comes from elsewhere (a
    button in a DM; a DM command names it in the extras, GAME_CHANNEL): failed DMs are
    remembered per game channel.

    Everything said inside speaks the caller's own language (their client's locale): a
    refusal, an ephemeral answer, `/secret`. Public posts pick the server's language
    themselves (bot/courier.py).
    """
    speak(language_of(interaction.locale))
    started = time.perf_counter()
    outcome = "ok"
    try:
        async with sessions_of(interaction).serving():  # a stop waits for the answer
            try:
                yield
                await remind_undelivered(interaction, channel_id)
            except IllegalAction as exc:
                # A refusal that names a secret is the caller's alone: the log keeps
                # only that it was refused.
                outcome = "refused (words naming a secret left out)" if exc.secret \
                    else f"refused: {exc.message}"
                await say_ephemeral(interaction, refusal_text(exc))
            except StoreUnavailable as exc:  # told once by the store, not per click
                outcome = f"store unavailable: {exc.reason}"
                with suppress(discord.HTTPException):
                    await say_ephemeral(interaction, say("errors.store_down"))
            except UnknownFormat as exc:  # saved by a newer release: left as it is
                outcome = "newer format"
                log.warning("a game here was saved by a newer release: %s", exc)
                with suppress(discord.HTTPException):
                    await say_ephemeral(interaction, say("errors.newer_release"))
            except discord.HTTPException as exc:
                if exc.code not in ANSWER_TOO_LATE:
                    raise
                outcome = f"answered too late ({exc.code})"
    except Exception:
        outcome = "error"
        log.exception("interaction failed: %s", command)
        bot_of(interaction).metrics.failed()
        with suppress(discord.HTTPException):
            await say_ephemeral(interaction, say("errors.oops"))
    finally:
        log.info(
            "guild=%s channel=%s user=%s command=%s outcome=%s ms=%.1f",
            interaction.guild_id, interaction.channel_id, interaction.user.id, command,
            outcome, (time.perf_counter() - started) * 1000,
        )


async def refuse(interaction: discord.Interaction, command: str, text: str) -> None:
    """Answer a refusal found before any game was touched, logged like any other."""
    async with handling(interaction, command):
        raise IllegalAction(text)


# The interaction's extras key for the channel of the game a DM command acted on
# (cogs/rights.command_table), so failed DMs are looked up for that game, not the DM.
GAME_CHANNEL = "hauntkeeper.game_channel"

DM_REMINDER = say("dm_reminder")


async def remind_undelivered(interaction: discord.Interaction,
                             channel_id: int | None = None) -> None:
    """Tell a player, only them, that a DM meant for them did not arrive.

    Their DM may have failed during someone else's action; the channel only got a
    notice naming no secret, so the first interaction of theirs afterwards says it too.
    """
    outlet = bot_of(interaction).outlet
    if channel_id is None:  # a command from a DM names its game's channel in the extras
        channel_id = interaction.extras.get(GAME_CHANNEL, interaction.channel_id)
    game_channel = channel_id or 0
    if outlet.take_undelivered(game_channel, interaction.user.id):
        await say_ephemeral(interaction, say("dm_reminder"))


def pick_option(options: list[Option], typed: str, *, nothing: str,
                which: Callable[[str], str]) -> Action:
    """The option autocomplete sent back (an encoded action), or the one whose label
    alone holds the typed words. None open: `nothing`; several or none matching: the
    game's `which` line, given the first ten labels."""
    for option in options:
        if option.action.encode() == typed:
            return option.action
    words = typed.strip().lower()
    hits = [o for o in options if words and words in o.label.lower()]
    if len(hits) == 1:
        return hits[0].action
    if not options:
        raise IllegalAction(nothing)
    named = options[:10]  # a private option's label names a hidden card: not for the log
    raise IllegalAction(which(grouped([o.label for o in named]))[:1900],
                        secret=any(o.private for o in named))


def refusal_text(exc: IllegalAction) -> str:
    """What a refused action reads: its message, unless it was a stale click on a game
    whose channel still refuses the bot's posts (sessions.Behind), which says that."""
    if not isinstance(exc, Behind) or exc.outcome.refused is None:
        return exc.message
    behind = exc.outcome
    channel = f"<#{behind.table.channel_id}>"
    if behind.refused_cause:
        return say(f"permissions.behind_{behind.refused_cause}", channel=channel)
    if not behind.refused:
        return say("permissions.behind_unknown", channel=channel)
    return say("permissions.behind", channel=channel, missing=names_text(behind.refused))


def acknowledgement(outcome: Outcome, done: str) -> str:
    """The private line after a played action: `done`, unless the post is still owed
    (Discord refused it for now): the move stands, and the post follows. A channel that
    refuses the bot's posts is named, with what the bot lacks there and where it is
    granted: nobody else can see why the game stands still. A thread that refuses them
    for a cause no permission mends (the bot taken out of it, or it locked) says that
    cause's remedy instead. A post the live message shows, with only what follows it
    owed (the next player's ping), says so: not that the board failed."""
    if outcome.delivered:
        return done
    if outcome.refused is None:
        return say("delivery_rest_owed" if outcome.shown else "delivery_owed")
    channel = f"<#{outcome.table.channel_id}>"
    if outcome.refused_cause:
        return say(f"permissions.refused_{outcome.refused_cause}", channel=channel)
    if not outcome.refused:
        return say("permissions.refused_unknown", channel=channel)
    return say("permissions.refused", channel=channel, missing=names_text(outcome.refused))


async def start_warning(interaction: discord.Interaction, kind: str) -> str | None:
    """What the host reads at Start about the threads the game cannot open here (team
    threads; the play-by-play thread where the server wants one): cogs/bot_permissions."""
    settings = await sessions_of(interaction).settings.get(interaction.guild_id) \
        if interaction.guild_id else None
    return bot_permissions.threads_warning(
        interaction, kind, play_by_play=settings is not None and settings.play_by_play is True)
