"""`/game ...`: the lobby and the table commands, the same for every game.

The lobby lives in one message (its embed and buttons). A click redraws the message it
is on; a slash command redraws that same message, found by the id the store keeps, so
the channel never fills with copies of the lobby.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Awaitable, Callable
from contextlib import suppress
from datetime import UTC, datetime
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import games
from bot import table as table_rules
from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.live_message import chunks
from bot.locales import current
from bot.sessions import GameExists
from bot.store import LOBBY, Table
from bot.summary import logged_end
from bot.texts import listed, say
from cogs import bot_permissions, game_log, history, replay
from cogs.click_limit import LIMITS
from cogs.common import (
    acknowledgement,
    actor_of,
    bot_of,
    handling,
    is_moderator,
    public_language,
    say_ephemeral,
    sessions_of,
    start_warning,
)
from cogs.components import lobby_view
from cogs.lobby_embed import lobby_embed
from cogs.sending import THREAD_ARCHIVED
from cogs.setup_options import setup_options
from cogs.topics import rules_topics

log = logging.getLogger(__name__)

MAX_SEED = 2**53 - 1  # the largest integer every Discord client shows exactly
FIELD_LIMIT = 1024  # Discord: the characters of one embed field's value
MAX_STATUS_FIELDS = 4  # and an embed holds 6,000 characters in all
KNOWN_TOPICS_SHOWN = 200  # a refused topic names the others only if they fit in this

GAME_CHOICES = [
    app_commands.Choice(name=g.title, value=key) for key, g in games.all_games().items()
]


def typed_value(allowed: dict[str, str], typed: str) -> str | None:
    """The value (of value -> label) that `typed` names: a value or a label in full, any
    case; else, typed rather than picked from the list, a part only one of them has."""
    wanted = typed.strip().lower()
    match = next((v for v, label in allowed.items()
                  if wanted in (v.lower(), label.lower())), None)
    if match is None and wanted:
        partial = [v for v, label in allowed.items()
                   if wanted in v.lower() or wanted in label.lower()]
        match = partial[0] if len(partial) == 1 else None
    return match


def chosen_options(kind: str, **given: str | None) -> dict[str, str]:
    """Check setup options against what the game offers, before anything is stored."""
    offered = games.get(kind).setup_choices()
    options: dict[str, str] = {}
    for name, value in given.items():
        if value is None:
            continue
        allowed = {v: label for v, label in offered.get(name, [])}
        if not allowed:
            raise IllegalAction(say("errors.no_such_option", game=games.get(kind).title, name=name))
        match = typed_value(allowed, value)
        if match is None:
            raise IllegalAction(say("errors.unknown_option",
                                    name=games.get(kind).option_label(name), value=value[:40],
                                    choices=listed(list(allowed.values()))))
        options[name] = match
    return options


def _offered(interaction: discord.Interaction, name: str,
             current: str) -> list[app_commands.Choice[str]]:
    """The values the chosen game offers for one setup option, matching what is typed."""
    key = getattr(interaction.namespace, "game", None) or ""
    try:
        values = games.get(str(key)).setup_choices().get(name, [])
    except KeyError:
        return []
    needle = current.lower()
    return [app_commands.Choice(name=label[:100], value=value)
            for value, label in values if needle in label.lower() or needle in value][:25]


PickResolver = Callable[[discord.Interaction], Awaitable[Action]]


def _pick_action(typed: str) -> PickResolver:
    """Turn what was typed in `/game join pick:` into the game's pick, once the game is known."""
    async def resolve(interaction: discord.Interaction) -> Action:
        table = await _require_table(interaction)
        game = games.get(table.kind)
        choices = game.seat_choices()
        if not choices:
            raise IllegalAction(say("errors.nothing_to_pick", game=table_rules.title(table)))
        name, values = next(iter(choices.items()))
        # No match: the typed words go on, for the table's refusal to quote them.
        value = typed_value(dict(values), typed) or typed
        return Action(table_rules.PICK, {"name": name, "value": value})

    return resolve


def _chosen_seed(interaction: discord.Interaction, chosen: int) -> int:
    """A chosen `seed:` is for moderators only, and the lobby says the game is seeded.

    Why (issue 19, fair seeds): the seed fixes every shuffle and die, so whoever knows it
    can read every seat's secrets off the public demo (`demo --seed 7` deals as
    `/game new seed:7`). Moderators are trusted with those secrets already (/gm seat
    hands them any seat, and its secrets with it), so a seed in their hands reveals
    nothing new, and the demo and a bug report still reproduce a seeded game exactly.
    Mixing a per-server secret into the deal was weighed and left out: it would keep
    the seed from a moderator who can read the seats anyway, at the price of that
    reproduction. Everyone else gets a seed no one chose, too long to find by trying
    every seed against the public opening (`table_rules.fresh_seed`)."""
    if not is_moderator(interaction):
        raise IllegalAction(say("errors.seed_mods_only"))
    if not 0 <= chosen <= MAX_SEED:
        raise IllegalAction(say("errors.option_misfit", option="seed"))
    return chosen


async def _require_table(interaction: discord.Interaction, *, latest: bool = False) -> Table:
    table = await sessions_of(interaction).table(interaction.channel_id or 0, latest=latest)
    if table is None:
        raise IllegalAction(say("errors.no_game"))
    return table


async def redraw_lobby(interaction: discord.Interaction, table: Table, *,
                       buttons: bool = True) -> None:
    """Show the lobby as it is now in its own message, as the buttons do; a new lobby
    message only when that one is gone (deleted, or never known). Once the game starts
    (`buttons` False) the old lobby just loses its buttons."""
    store = bot_of(interaction).store
    message_id = await store.lobby_message(table.id or 0)
    public = public_language(interaction, table)
    view = lobby_view(table, public) if buttons else None  # none once closed, too
    if message_id is not None:
        channel = interaction.client.get_partial_messageable(table.channel_id)
        # An edit by the bot's own token: without Embed Links, Discord would drop the
        # embed (an empty lobby); the old words then stay, and only the buttons change.
        fields: dict[str, Any] = {"view": view}
        if bot_permissions.may_embed(interaction.client, table.channel_id):
            fields["embed"] = lobby_embed(table, public)
        with suppress(discord.HTTPException):  # gone (or unreadable): a lobby goes on anew
            await channel.get_partial_message(message_id).edit(**fields)
            return
    if view is None:
        return
    try:
        sent = await interaction.followup.send(embed=lobby_embed(table, public), view=view,
                                               wait=True)
    except discord.HTTPException as exc:
        # A thread a moderator locked takes no public answer (50083): the change was
        # saved, and the caller's own answer already said so.
        if exc.code != THREAD_ARCHIVED:
            raise
        log.info("lobby of game %s not redrawn: its thread is locked", table.id)
        return
    await store.set_lobby_message(table.id or 0, sent.id)


@app_commands.guild_only()
class GameCog(commands.GroupCog, group_name="game", group_description="Play a game here"):
    @app_commands.command(name="new", description="Open a lobby for a new game in this channel",
                          extras=LIMITS)
    @app_commands.describe(game="Which game to play",
                           seed="Moderators: a number that fixes the shuffles and dice")
    @app_commands.choices(game=GAME_CHOICES)
    @setup_options(games.all_games(), _offered)
    async def new(self, interaction: discord.Interaction, game: app_commands.Choice[str],
                  seed: app_commands.Range[int, 0, MAX_SEED] | None = None,
                  **setup: str | None) -> None:
        """The game's own options (`setup`) are every game's setup_choices, as options."""
        async with handling(interaction, "game new"):
            if interaction.guild_id is None:  # an old client's command list, in a DM
                raise IllegalAction(say("errors.not_here"))
            await bot_permissions.cannot_play(interaction)  # before a lobby nobody could play
            channel_id = interaction.channel_id or 0
            if game.value not in games.all_games():  # a game an older bot offered
                raise IllegalAction(say("errors.option_misfit", option="game"))
            options: dict[str, str] = chosen_options(game.value, **setup)
            if seed is None:
                seed = table_rules.fresh_seed()
            else:  # chosen: moderators only, and said openly in the lobby
                seed = _chosen_seed(interaction, seed)
                options[table_rules.SEEDED] = "yes"
            # Today's date, for games that start with "whose birthday comes next"; kept
            # in the options so a replay of this game stays exact.
            options["today"] = datetime.now(UTC).strftime("%m-%d")
            try:
                outcome = await sessions_of(interaction).open(
                    channel_id, interaction.guild_id, actor_of(interaction), game.value, seed,
                    options)
            except GameExists:
                running = await sessions_of(interaction).table(channel_id)
                title = table_rules.title(running) if running else say("errors.some_game")
                lobby = running is not None and running.status == LOBBY
                raise IllegalAction(say(
                    "errors.game_exists_lobby" if lobby else "errors.game_exists_play",
                    game=title, channel=f"<#{channel_id}>",
                    host=f"<@{running.host_id if running else 0}>")) from None
            public = public_language(interaction, outcome.table)
            view = lobby_view(outcome.table, public)
            assert view is not None  # a table just made is a lobby
            sent = await interaction.response.send_message(
                embed=lobby_embed(outcome.table, public), view=view)
            if sent.message_id is not None:
                await bot_of(interaction).store.set_lobby_message(outcome.table.id or 0,
                                                                  sent.message_id)

    async def _lobby_action(self, interaction: discord.Interaction,
                            action: Action | PickResolver) -> None:
        kind = action.kind if isinstance(action, Action) else table_rules.PICK
        async with handling(interaction, "game " + kind.rsplit(".", 1)[-1]):
            if not isinstance(action, Action):
                action = await action(interaction)
            if kind == table_rules.START:  # a running game's posts: no embed
                await bot_permissions.cannot_play(interaction, lobby=False)
            # Deferred privately: the first follow-up takes the defer's place and its
            # visibility, so a refusal reads to the caller alone. What the table should
            # see goes out on its own: the game's post, or the lobby as it is now.
            await interaction.response.defer(ephemeral=True, thinking=True)
            outcome = await sessions_of(interaction).act(
                interaction.channel_id or 0, actor_of(interaction), action)
            first = next((e.text_in(current()) for e in outcome.events
                          if e.audience.is_public), say("done"))  # in the caller's language
            answer = acknowledgement(outcome, first[:1700])
            warning = await start_warning(interaction, outcome.table.kind) \
                if kind == table_rules.START else None
            await interaction.followup.send(f"{answer}\n{warning}" if warning else answer,
                                            ephemeral=True)
            if outcome.lobby_only or outcome.table.state is None:  # changed, or closed
                await redraw_lobby(interaction, outcome.table)
            elif kind == table_rules.START:
                await redraw_lobby(interaction, outcome.table, buttons=False)

    @app_commands.command(name="join", description="Take a seat in this channel's lobby",
                          extras=LIMITS)
    @app_commands.describe(pick="Your explorer or character, in games that ask for one")
    async def join(self, interaction: discord.Interaction, pick: str | None = None) -> None:
        if pick is None:
            await self._lobby_action(interaction, Action(table_rules.JOIN))
        else:
            await self._lobby_action(interaction, _pick_action(pick))

    @join.autocomplete("pick")
    async def _join_pick(self, interaction: discord.Interaction,
                         current: str) -> list[app_commands.Choice[str]]:
        table = await sessions_of(interaction).table(interaction.channel_id or 0)
        if table is None:
            return []
        choices = games.get(table.kind).seat_choices()
        if not choices:
            return []
        values = next(iter(choices.values()))
        needle = current.lower()
        return [app_commands.Choice(name=label[:100], value=value)
                for value, label in values if needle in label.lower()][:25]

    @app_commands.command(name="leave",
                          description="Leave the lobby (in a running game, the AI takes over)",
                          extras=LIMITS)
    async def leave(self, interaction: discord.Interaction) -> None:
        await self._lobby_action(interaction, Action(table_rules.LEAVE))

    @app_commands.command(name="start", description="Start the game (host only)",
                          extras=LIMITS)
    async def start(self, interaction: discord.Interaction) -> None:
        await self._lobby_action(interaction, Action(table_rules.START))

    @app_commands.command(name="end", description="End the game here (host or moderator)",
                          extras=LIMITS)
    async def end(self, interaction: discord.Interaction) -> None:
        await self._lobby_action(interaction, Action(table_rules.END))

    @app_commands.command(name="status", description="Where the game stands")
    async def status(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "game status"):
            table = await _require_table(interaction, latest=True)
            embed = lobby_embed(table, current())  # a private answer: the asker's language
            if table.state is not None:
                game = games.get(table.kind)
                # An embed field holds 1,024 characters: a long status takes several,
                # split at line breaks, so nothing is cut off (a table of six explorers).
                parts = chunks(game.status_text(game.load(table.state)), FIELD_LIMIT)
                for i, part in enumerate(parts[:MAX_STATUS_FIELDS]):
                    embed.add_field(name=say("lobby.status_now") if i == 0 else "\u200b",
                                    value=part, inline=False)
            if table.ended_reason:  # kept in English; its logged line has the others
                _, why = await logged_end(bot_of(interaction).store, table.id or 0) \
                    if table.id is not None else (None, None)
                ended = why.text_in(current()) if why is not None else table.ended_reason
                embed.add_field(name=say("lobby.status_ended"), value=ended[:1024],
                                inline=False)
            await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="map", description="Show the board as it is now")
    async def map(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "game map"):
            table = await _require_table(interaction, latest=True)
            if table.state is None:
                raise IllegalAction(say("errors.not_started"))
            await interaction.response.defer(ephemeral=True, thinking=True)
            image = await sessions_of(interaction).board(table, whole=True)
            if image is None:
                raise IllegalAction(say("errors.no_board"))
            alt = await sessions_of(interaction).board_alt(table)
            await interaction.followup.send(
                file=discord.File(io.BytesIO(image), filename="board.png",
                                  description=alt or None), ephemeral=True)

    @app_commands.command(name="log", description="Everything that happened, turn by turn")
    @app_commands.describe(page="Which page (the newest if left out)")
    async def log(self, interaction: discord.Interaction,
                  page: app_commands.Range[int, 1, 100_000] | None = None) -> None:
        async with handling(interaction, "game log"):
            await game_log.show(interaction, page)

    @app_commands.command(name="history",
                          description="Finished games here, and the story of each")
    @app_commands.describe(where="This channel's games or the whole server's",
                           game="Open one game's story: its number in the list",
                           page="Which page (the newest games first)")
    @app_commands.choices(where=[
        app_commands.Choice(name=say(f"history.where_{w}"), value=w)
        for w in (history.HERE, history.SERVER)])
    async def history(self, interaction: discord.Interaction,
                      where: app_commands.Choice[str] | None = None,
                      game: app_commands.Range[str, 1, 24] | None = None,
                      page: app_commands.Range[int, 1, 100_000] | None = None) -> None:
        async with handling(interaction, "game history"):
            await history.show(interaction, where.value if where else history.HERE, game,
                               page)

    @app_commands.command(name="replay",
                          description="Watch a finished game again, turn by turn")
    @app_commands.describe(game="The game's number (this channel's last game if left out)")
    async def replay(self, interaction: discord.Interaction, game: str | None = None) -> None:
        async with handling(interaction, "game replay"):
            await replay.post(interaction, None if game is None else replay.game_number(game))

    @app_commands.command(name="rules", description="Read a rule")
    @app_commands.describe(topic="What to read about")
    async def rules(self, interaction: discord.Interaction, topic: str) -> None:
        async with handling(interaction, "game rules"):
            topics = await self._topics(interaction)
            key = _topic_key(topics, topic)
            if key is None:
                known = listed([title for title, _ in topics.values()])
                if len(known) > KNOWN_TOPICS_SHOWN:  # a refusal stays short: the picker lists
                    raise IllegalAction(say("errors.no_rules_topic_pick", topic=topic[:50]))
                raise IllegalAction(say("errors.no_rules_topic", topic=topic[:50], known=known))
            title, text = topics[key]
            await say_ephemeral(interaction, f"**{title}**\n{text}"[:2000])

    @rules.autocomplete("topic")
    async def _rules_topic(self, interaction: discord.Interaction,
                           current: str) -> list[app_commands.Choice[str]]:
        topics = await self._topics(interaction)
        needle = current.strip().lower()
        hits = [(key, title) for key, (title, _) in topics.items()
                if needle in title.lower() or needle in key]
        return [app_commands.Choice(name=title[:100], value=key[:100])
                for key, title in hits[:25]]

    async def _topics(self, interaction: discord.Interaction) -> dict[str, tuple[str, str]]:
        """Key -> (title, text): the topics of this channel's game as its table plays it
        (its edition's, not every edition's), or of every game, each title led by its
        game's."""
        table = await sessions_of(interaction).table(interaction.channel_id or 0, latest=True)
        if table is not None:
            return rules_topics(table.kind, table.options)
        merged: dict[str, tuple[str, str]] = {}
        for key, game in games.all_games().items():
            for topic, (title, text) in rules_topics(key, None).items():
                merged[f"{key}: {topic}"] = (f"{game.title}: {title}", text)
        return merged


def _topic_key(topics: dict[str, tuple[str, str]], typed: str) -> str | None:
    """The topic a pick sent (its key) or whose title was typed in full."""
    wanted = typed.strip().lower()
    if wanted in topics:
        return wanted
    return next((key for key, (title, _) in topics.items() if title.lower() == wanted), None)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(GameCog())
