"""`/stats player [member]` and `/stats server`: what a member or a server has played,
counted from the kept results (bot/stats.py) and drawn as a small card
(renderers/stats_card.py) with its alt text, the counting and the drawing off the
event loop. Discord lets a command with subcommands take no options of its own, so a
member's stats are `/stats player`, not `/stats` alone.

The command defers first (privately): a server with many games is counted within
Discord's 3 s that way, whatever the store's load.
"""

from __future__ import annotations

import asyncio
import io

import discord
from discord import app_commands
from discord.ext import commands

from bot import games
from bot.core.errors import IllegalAction
from bot.core.story import SIDES
from bot.stats import (
    MemberStats,
    ServerStats,
    game_key,
    kind_and_edition,
    member_stats,
    played_as,
    server_stats,
)
from bot.store import Store
from bot.texts import listed, say
from cogs.click_limit import LIMITS
from cogs.common import bot_of, handling
from cogs.history import title_of
from renderers.stats_card import Bar, Card, Panel, render_card

CARD_FILE = "stats.png"
ALT_MAX = 1024
UNSEEN_SHOWN = 6  # names of unseen content listed per game


def named(key: str) -> str:
    """A game as /stats counted it (bot/stats.py's `played_as`), by its name as played."""
    return title_of(*kind_and_edition(key))


def member_card(name: str, stats: MemberStats) -> Card:
    by_game = [Bar(named(key), t.played, t.won) for key, t in sorted(stats.by_game.items())]
    by_side = [Bar(say(f"stats.side_{side}"), stats.by_side[side].played,
                   stats.by_side[side].won) for side in SIDES if side in stats.by_side]
    for key, sizes in sorted(stats.together.items()):
        by_side += [Bar(say("stats.together", game=named(key), size=size), t.played, t.won)
                    for size, t in sorted(sizes.items())]
    return Card(say("stats.member_title", name=name),
                say("stats.member_subtitle", played=stats.total.played, won=stats.total.won),
                (Panel(say("stats.by_game"), by_game), Panel(say("stats.by_side"), by_side)),
                (say("stats.played"), say("stats.won")), member_footer(stats))


def character_word(key: str, stored: str) -> str:
    """A character as the results keep it (the story's English name), named in the
    reader's language by the game it was played in (`played_as` key); a game this
    release does not have says it as stored."""
    kind, _ = kind_and_edition(key)
    if kind not in games.all_games():
        return stored
    return games.get(kind).character_word(stored)


def member_footer(stats: MemberStats) -> list[str]:
    lines = []
    for key, scores in sorted(stats.scores.items()):
        lines.append(say("stats.scores", game=named(key), best=max(scores),
                         average=round(sum(scores) / len(scores), 1)))
    if stats.favourite is not None:
        lines.append(say("stats.favourite",
                         character=character_word(stats.favourite_in, stats.favourite[0]),
                         times=stats.favourite[1]))
    if stats.longest is not None:
        lines.append(say("stats.longest", game=named(played_as(stats.longest)),
                         id=stats.longest.game_id, turns=stats.longest.turns))
    return lines


def server_card(name: str, stats: ServerStats) -> Card:
    table = [Bar(row.name, row.played, row.won) for row in stats.table]
    by_game = [Bar(named(key), t.played, t.won) for key, t in sorted(stats.by_game.items())]
    footer = [say("stats.most_played", content=listed(
        [say("stats.content_count", name=n, count=c) for n, c in stats.most_played]))] \
        if stats.most_played else []
    footer += [say("stats.unseen", game=named(key), count=len(names),
                   names=listed(names[:UNSEEN_SHOWN]))
               for key, names in sorted(stats.unseen.items())]
    return Card(say("stats.server_title", name=name),
                say("stats.server_subtitle", games=stats.games),
                (Panel(say("stats.players"), table), Panel(say("stats.by_game"), by_game)),
                (say("stats.played"), say("stats.won")), footer)


def card_text(card: Card) -> str:
    """The card in words: its alt text, and the message beside it (every footer line,
    which the picture may cut)."""
    lines = [card.title, card.subtitle]
    for panel in card.panels:
        if panel.bars:
            lines.append(say("stats.panel", title=panel.title, bars=say(
                "stats.bars_between").join(say("stats.bar", label=b.label, won=b.won,
                                               played=b.played) for b in panel.bars)))
    return "\n".join([*lines, *card.footer])


async def send_card(interaction: discord.Interaction, card: Card) -> None:
    image = await asyncio.to_thread(render_card, card)
    text = card_text(card)
    await interaction.followup.send(
        "\n".join([card.title, *card.footer])[:1900], ephemeral=True,
        file=discord.File(io.BytesIO(image), filename=CARD_FILE, description=text[:ALT_MAX]))


def content_names_by_game() -> dict[str, dict[str, str]]:
    """Every game's content (Game.content_names), by game as /stats counts games
    (`played_as`): each edition's own under its own key, so it is named under its own
    title."""
    names = {game_key(kind, edition): game.content_names(edition)
             for kind, game in games.all_games().items() for edition in game.edition_keys()}
    return {key: n for key, n in names.items() if n}


async def content_played(store: Store, guild_id: int) -> tuple[dict[str, list[str]],
                                                               dict[str, dict[str, str]]]:
    names = content_names_by_game()
    kinds = dict.fromkeys(kind_and_edition(key)[0] for key in names)
    return {kind: await store.played(guild_id, kind) for kind in kinds}, names


class StatsCog(commands.GroupCog, group_name="stats", group_extras=LIMITS,
               group_description="What has been played here"):
    @app_commands.command(name="player", description="A member's games on this server")
    @app_commands.describe(member="Whose stats (yours if left out)")
    async def player(self, interaction: discord.Interaction,
                     member: discord.User | None = None) -> None:
        async with handling(interaction, "stats player"):
            guild_id = interaction.guild_id
            if guild_id is None:
                raise IllegalAction(say("stats.server_only"))
            await interaction.response.defer(ephemeral=True, thinking=True)
            who = member or interaction.user
            seats = await bot_of(interaction).store.played_seats(guild_id, who.id)
            if not seats:
                raise IllegalAction(say("stats.none_member", name=who.display_name))
            stats = await asyncio.to_thread(member_stats, seats)
            await send_card(interaction, member_card(who.display_name, stats))

    @app_commands.command(name="server", description="This server's games and players")
    async def server(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "stats server"):
            guild_id = interaction.guild_id
            if guild_id is None:
                raise IllegalAction(say("stats.server_only"))
            await interaction.response.defer(ephemeral=True, thinking=True)
            store = bot_of(interaction).store
            seats = await store.played_seats(guild_id)
            if not seats:
                raise IllegalAction(say("stats.none_server"))
            played, names = await content_played(store, guild_id)
            stats = await asyncio.to_thread(server_stats, seats, played, names)
            guild = interaction.guild
            await send_card(interaction, server_card(guild.name if guild else "", stats))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(StatsCog())
