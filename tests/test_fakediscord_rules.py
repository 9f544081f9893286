"""Self-check of the fake Discord's rules that bot tests lean on, with a tiny real bot.

Why: a test of "this refusal is private" or "a click from another server does nothing"
proves only as much as the fake is faithful. Checked here: after a "thinking" defer
(type 5) the first follow-up takes the defer's place and visibility whatever flags it
asks for, later ones keep their own; after a component's deferred update (type 6) every
follow-up is a new message with its own flags. And several guilds: each with its own
channels, members and roles, interactions carrying the guild they came from and the
member's permissions there; a forged custom_id reaches the bot's dynamic items.
"""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest
from discord import app_commands

from tests.fakediscord import FakeDiscord, discord_errors, running_bot

MANAGE = discord.Permissions(manage_channels=True).value


class Echo(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"echo:(?P<word>\w+)"):
    def __init__(self, word: str) -> None:
        super().__init__(discord.ui.Button(label=word, custom_id=f"echo:{word}"))
        self.word = word

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any,
                             match: re.Match[str]) -> Echo:
        return cls(match["word"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()  # a component's deferred update: type 6
        await interaction.followup.send(f"private {self.word}", ephemeral=True)
        await interaction.followup.send(f"public {self.word}")


class RulesBot(discord.Client):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)
        self.seen: list[tuple[int | None, bool]] = []

        @self.tree.command(name="vis", description="defer, then follow up")
        @app_commands.describe(defer="public | private | edited")
        async def vis(interaction: discord.Interaction, defer: str) -> None:
            perms = interaction.permissions
            self.seen.append((interaction.guild_id, perms.manage_channels))
            if defer == "public":  # then an "ephemeral" refusal: Discord shows it to all
                await interaction.response.defer(thinking=True)
                await interaction.followup.send("refused", ephemeral=True)
                await interaction.followup.send("later", ephemeral=True)
            elif defer == "private":  # then a "public" result: it stays private
                await interaction.response.defer(ephemeral=True, thinking=True)
                await interaction.followup.send("first")
                await interaction.followup.send("second")
            else:  # the placeholder filled by an edit: follow-ups are new messages
                await interaction.response.defer(ephemeral=True, thinking=True)
                await interaction.edit_original_response(content="ack")
                await interaction.followup.send("board", view=echo_view())

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Echo)


def echo_view() -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(Echo("boo"))
    return view


async def test_a_thinking_defer_gives_its_visibility_to_the_first_follow_up(
        fd: FakeDiscord) -> None:
    channel = fd.add_channel("general")
    ann = fd.add_user("ann")
    with discord_errors() as logged:
        async with running_bot(RulesBot(), fd):
            public = await (await fd.slash(ann, channel, "vis", defer="public")).wait()
            assert public.callback_type == 5
            first, later = public.followups
            assert first.id == public.response.id and not first.ephemeral  # seen by all
            assert first.content == "refused" and later.ephemeral and later.content == "later"
            assert "refused" in [m.content for m in fd.channel_messages(channel)]

            private = await (await fd.slash(ann, channel, "vis", defer="private")).wait()
            first, second = private.followups
            assert first.id == private.response.id and first.ephemeral  # asked public, isn't
            assert not second.ephemeral and second.content == "second"

            edited = await (await fd.slash(ann, channel, "vis", defer="edited")).wait()
            assert edited.response.content == "ack" and edited.response.ephemeral
            (board,) = edited.followups
            assert board.id != edited.response.id and not board.ephemeral

            click = await (await fd.click(ann, board, "echo:boo")).wait()
            assert click.callback_type == 6 and click.response.id == board.id
            private_line, public_line = click.followups
            assert private_line.ephemeral and private_line.content == "private boo"
            assert not public_line.ephemeral and public_line.id != board.id
            assert fd.message(board.id).content == "board"  # a deferred update edits nothing
    assert [r.getMessage() for r in logged] == []


async def test_several_guilds_each_with_its_channels_members_and_rights(
        fd: FakeDiscord) -> None:
    home = fd.add_channel("home")
    other_guild = fd.add_guild("Other Server")
    away = fd.add_channel("away", guild=other_guild)
    ann = fd.add_user("ann")  # a member of the first guild only
    bob = fd.add_user("bob", guild=other_guild, manage_channels=True)
    fd.join_guild(bob, fd.guild_id)  # in both, but manages channels only in the other
    assert fd.permissions_of(bob, away) & MANAGE and not fd.permissions_of(bob, home) & MANAGE

    with discord_errors() as logged:
        async with running_bot(RulesBot(), fd) as bot:
            assert {g.id for g in bot.guilds} == {fd.guild_id, other_guild}
            assert bot.get_channel(away).guild.id == other_guild
            assert bot.get_channel(home).guild.id == fd.guild_id
            members = fd._guild_json(fd.guilds[other_guild])["members"]
            assert {m["user"]["id"] for m in members} == {str(fd.bot_user.id), str(bob.id)}

            there = await (await fd.slash(bob, away, "vis", defer="private")).wait()
            here = await (await fd.slash(bob, home, "vis", defer="private")).wait()
            assert there.payload["guild_id"] == str(other_guild)
            assert here.payload["guild_id"] == str(fd.guild_id)
            assert bot.seen == [(other_guild, True), (fd.guild_id, False)]
            with pytest.raises(ValueError, match="not a member"):
                await fd.slash(ann, away, "vis", defer="private")

            guild = bot.get_guild(other_guild)
            assert (await guild.fetch_member(bob.id)).guild_permissions.manage_channels
            with pytest.raises(discord.NotFound):
                await guild.fetch_member(ann.id)

            # A forged custom_id rides on a real message and reaches the dynamic item.
            shown = await (await fd.slash(bob, home, "vis", defer="edited")).wait()
            (board,) = shown.followups
            forged = await (await fd.forge(ann, board, "echo:forged")).wait()
            assert [m.content for m in forged.followups] == ["private forged", "public forged"]
            assert board.custom_ids() == ["echo:boo"]  # the stored message is unchanged
    assert [r.getMessage() for r in logged] == []


async def test_a_new_message_notifies_whom_its_allowed_mentions_let(fd: FakeDiscord) -> None:
    """Discord's rule for user mentions: all of them without allowed_mentions, none with
    AllowedMentions.none(), only the listed users with a users list."""
    channel = fd.add_channel("pings")
    ann, bo = fd.add_user("ann"), fd.add_user("bo")
    text = f"<@{ann.id}> and <@!{bo.id}>"
    with discord_errors() as logged:
        async with running_bot(discord.Client(intents=discord.Intents.default()), fd) as bot:
            where = bot.get_partial_messageable(channel)
            await where.send(text)
            await where.send(text, allowed_mentions=discord.AllowedMentions.none())
            await where.send(text, allowed_mentions=discord.AllowedMentions(
                users=[discord.Object(bo.id)]))
            await where.send(text, allowed_mentions=discord.AllowedMentions(users=True))
    assert logged == []
    assert [m.pinged for m in fd.channel_messages(channel)] == [
        [ann.id, bo.id], [], [bo.id], [ann.id, bo.id]]
