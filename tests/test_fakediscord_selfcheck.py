"""Self-check of the fake Discord: a tiny real discord.py bot driven through it end to end.

Why: every bot test built on tests.fakediscord trusts that the fake speaks Discord the way
discord.py expects. This proves the round trips once (slash groups, options, autocomplete,
deferral, follow-ups, files, DMs, closed DMs, buttons, selects, modals, threads, a gateway
RESUME and a bot restart with a persistent DynamicItem) without the project's own code.
"""

from __future__ import annotations

import io
import re
from collections.abc import AsyncIterator

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.fakediscord import (
    FakeDiscord,
    discord_errors,
    flat_components,
    running_bot,
)

PNG = b"\x89PNG\r\n\x1a\n" + b"not-really-an-image" * 8


class RollButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=r"roll:(?P<count>\d+)"
):
    """Persistent button: its state lives in the custom_id, so it survives a restart."""

    def __init__(self, count: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"Roll {count}",
                custom_id=f"roll:{count}",
                style=discord.ButtonStyle.primary,
            )
        )
        self.count = count

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[discord.Client],
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
        /,
    ) -> RollButton:
        return cls(int(match["count"]))

    async def callback(self, interaction: discord.Interaction[discord.Client]) -> None:
        bot = interaction.client
        assert isinstance(bot, CheckBot)
        bot.clicks.append((interaction.user.id, self.count, interaction.guild_id))
        await interaction.response.send_message(f"rolled {self.count}", ephemeral=True)


class BoardView(discord.ui.View):
    """A select (stored per message by discord.py) next to the persistent button."""

    def __init__(self, count: int) -> None:
        super().__init__(timeout=None)
        self.add_item(RollButton(count))

    @discord.ui.select(
        custom_id="board:pick",
        options=[
            discord.SelectOption(label="Attic", value="attic"),
            discord.SelectOption(label="Cellar", value="cellar"),
        ],
    )
    async def pick(
        self, interaction: discord.Interaction[discord.Client], select: discord.ui.Select[BoardView]
    ) -> None:
        await interaction.response.edit_message(content=f"picked {select.values[0]}", view=self)

    @discord.ui.select(cls=discord.ui.UserSelect, custom_id="board:who", max_values=2)
    async def who(
        self,
        interaction: discord.Interaction[discord.Client],
        select: discord.ui.UserSelect[BoardView],
    ) -> None:
        names = sorted(u.name for u in select.values)
        await interaction.response.send_message(f"chose {names}", ephemeral=True)


class NoteModal(discord.ui.Modal, title="Note"):
    text: discord.ui.TextInput[NoteModal] = discord.ui.TextInput(
        label="Note", custom_id="note:text"
    )

    async def on_submit(self, interaction: discord.Interaction[discord.Client]) -> None:
        await interaction.response.send_message(f"noted {self.text.value}", ephemeral=True)


class PingGroup(app_commands.Group):
    """`/ping ...`: a command group with subcommands, registered to the guild."""

    admin = app_commands.Group(name="admin", description="Nested group")

    def __init__(self) -> None:
        super().__init__(name="ping", description="Ping things")

    @admin.command(name="reset", description="Two levels deep")
    async def reset(self, interaction: discord.Interaction[discord.Client], hard: bool) -> None:
        await interaction.response.send_message(f"reset hard={hard}")

    @app_commands.command(name="roll", description="Roll dice")
    async def roll(
        self, interaction: discord.Interaction[discord.Client], count: int, label: str
    ) -> None:
        await interaction.response.send_message(f"roll {count} {label}")

    @roll.autocomplete("label")
    async def label_choices(
        self, interaction: discord.Interaction[discord.Client], current: str
    ) -> list[app_commands.Choice[str]]:
        rooms = ("attic", "atrium", "cellar")
        return [app_commands.Choice(name=r, value=r) for r in rooms if r.startswith(current)]

    @app_commands.command(name="board", description="Post a board")
    async def board(self, interaction: discord.Interaction[discord.Client]) -> None:
        await interaction.response.defer(thinking=True, ephemeral=True)
        dm_view = discord.ui.View(timeout=None).add_item(RollButton(1))
        await interaction.user.send("your board is ready", view=dm_view)
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)
        file = discord.File(io.BytesIO(PNG), "board.png")
        msg = await channel.send("board", file=file, view=BoardView(3))
        thread = await msg.create_thread(name="board-talk")
        await thread.add_user(interaction.user)
        await thread.send("thread opened")
        await interaction.followup.send("posted", ephemeral=True)

    @app_commands.command(name="poke", description="DM a member")
    async def poke(
        self, interaction: discord.Interaction[discord.Client], member: discord.Member
    ) -> None:
        bot = interaction.client
        assert isinstance(bot, CheckBot) and isinstance(interaction.user, discord.Member)
        mine = (
            interaction.permissions.manage_channels,
            interaction.user.guild_permissions.manage_channels,
            member.guild_permissions.manage_channels,
        )
        try:
            await member.send(f"poked by {interaction.user.name}")
        except discord.Forbidden as exc:
            bot.dm_failures.append(exc)
            await interaction.response.send_message(
                f"cannot DM {member.name} {mine}", ephemeral=True
            )
            return
        await interaction.response.send_message(f"poked {member.mention} {mine}")

    @app_commands.command(name="edit", description="Edit the answer, add a file")
    async def edit(self, interaction: discord.Interaction[discord.Client]) -> None:
        one = discord.File(io.BytesIO(b"one"), "one.txt")
        await interaction.response.send_message("v1", file=one)
        first = await interaction.original_response()
        two = discord.File(io.BytesIO(b"two"), "two.txt")
        await interaction.edit_original_response(
            content="v2", attachments=[*first.attachments, two]
        )
        extra = await interaction.followup.send("temp", wait=True)
        await extra.delete()

    @app_commands.command(name="room", description="Make a private room")
    async def room(self, interaction: discord.Interaction[discord.Client]) -> None:
        guild = interaction.guild
        assert guild is not None and isinstance(interaction.user, discord.Member)
        overwrites: dict[
            discord.Role | discord.Member | discord.Object, discord.PermissionOverwrite
        ] = {
            guild.default_role: discord.PermissionOverwrite(view_channel=False),
            interaction.user: discord.PermissionOverwrite(view_channel=True),
        }
        channel = await guild.create_text_channel("private-room", overwrites=overwrites)
        await channel.send("welcome")
        await interaction.response.send_message(f"room {channel.id}", ephemeral=True)

    @app_commands.command(name="note", description="Write a note")
    async def note(self, interaction: discord.Interaction[discord.Client]) -> None:
        await interaction.response.send_modal(NoteModal())

    @app_commands.command(name="upload", description="Read an attachment")
    async def upload(
        self, interaction: discord.Interaction[discord.Client], file: discord.Attachment
    ) -> None:
        data = await file.read()
        await interaction.response.send_message(f"{file.filename}: {data.decode()}")


@app_commands.command(name="secret", description="A global command without subcommands")
async def secret(interaction: discord.Interaction[discord.Client]) -> None:
    await interaction.response.send_message("shh", ephemeral=True)


@app_commands.command(name="wipe", description="Only for channel managers")
@app_commands.default_permissions(manage_channels=True)
async def wipe(interaction: discord.Interaction[discord.Client]) -> None:
    await interaction.response.send_message("wiped")


class CheckBot(commands.Bot):
    """The bot under test; records what its handlers saw."""

    def __init__(self, guild_id: int) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            guild_ready_timeout=0.05,
        )
        self.errors: list[BaseException] = []
        self.clicks: list[tuple[int, int, int | None]] = []
        self.dm_failures: list[discord.Forbidden] = []
        self.seen: list[tuple[str, str]] = []
        self.tree.error(self.record_error)
        self.tree.add_command(PingGroup(), guild=discord.Object(guild_id))
        self.tree.add_command(secret)
        self.tree.add_command(wipe)

    async def record_error(
        self, interaction: discord.Interaction[discord.Client], error: BaseException
    ) -> None:
        self.errors.append(error)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(RollButton)

    async def on_message(self, message: discord.Message) -> None:
        self.seen.append((message.author.name, message.content))


@pytest.fixture
async def fd() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    await server.start()
    yield server
    await server.stop()


async def test_fake_discord_round_trips(fd: FakeDiscord) -> None:
    general = fd.add_channel("general")
    alice = fd.add_user("alice", manage_channels=True)
    bob = fd.add_user("bob", dms_open=False)

    with discord_errors() as logged:
        async with running_bot(CheckBot(fd.guild_id), fd) as bot:
            assert fd.command("ping") is not None and fd.command("secret") is not None

            choices = await fd.autocomplete(
                alice, general, "ping", "roll", focused="label", label="at"
            )
            assert [c["value"] for c in choices] == ["attic", "atrium"]

            h = await (
                await fd.slash(alice, general, "ping", "roll", count=2, label="attic")
            ).wait()
            assert h.callback_type == 4 and h.response is not None
            assert h.response.content == "roll 2 attic" and not h.response.ephemeral
            assert fd.channel_messages(general)[-1].content == "roll 2 attic"

            h = await (await fd.slash(alice, general, "ping", "board")).wait()
            assert h.callback_type == 5 and h.ephemeral_texts() == ["posted"]
            board = next(m for m in fd.channel_messages(general) if m.content == "board")
            assert board.attachments == [("board.png", PNG)]
            assert sorted(board.custom_ids()) == ["board:pick", "board:who", "roll:3"]
            assert {c["type"] for c in flat_components(board.components)} == {2, 3, 5}
            (dm,) = fd.dms(alice)
            assert dm.content == "your board is ready"
            (thread,) = fd.threads(general)
            assert thread.id == board.id and alice.id in thread.member_ids
            assert [m.content for m in fd.channel_messages(thread.id)] == ["thread opened"]

            h = await (await fd.click(bob, board, "roll:3")).wait()
            assert h.ephemeral_texts() == ["rolled 3"]
            assert fd.channel_messages(general)[-1] is board  # the ephemeral answer is hidden

            h = await (await fd.click(alice, dm, "roll:1")).wait()  # a button in a DM
            assert h.ephemeral_texts() == ["rolled 1"] and "guild_id" not in h.payload
            assert bot.clicks == [(bob.id, 3, fd.guild_id), (alice.id, 1, None)]

            h = await (await fd.select(alice, board, "board:pick", ["cellar"])).wait()
            assert h.callback_type == 7 and fd.message(board.id).content == "picked cellar"
            assert board.attachments == [("board.png", PNG)]  # an edit keeps the file

            h = await (await fd.select(bob, board, "board:who", [alice, bob])).wait()
            assert h.ephemeral_texts() == ["chose ['alice', 'bob']"]

            h = await (await fd.slash(alice, general, "ping", "poke", member=bob)).wait()
            assert h.ephemeral_texts() == ["cannot DM bob (True, True, False)"]
            assert [e.code for e in bot.dm_failures] == [50007]

            h = await (await fd.slash(bob, general, "ping", "poke", member=alice)).wait()
            assert h.response is not None
            assert h.response.content == f"poked {alice.mention} (False, False, True)"
            assert fd.dms(alice)[-1].content == "poked by bob"

            h = await (await fd.slash(alice, general, "ping", "note")).wait()
            assert h.callback_type == 9 and h.modal is not None
            h = await (await fd.submit_modal(alice, h, {"note:text": "boo"})).wait()
            assert h.ephemeral_texts() == ["noted boo"]

            h = await (
                await fd.slash(alice, general, "ping", "upload", file=("a.txt", b"hi"))
            ).wait()
            assert h.response is not None and h.response.content == "a.txt: hi"

            h = await (await fd.slash(alice, general, "ping", "edit")).wait()
            assert [m.content for m in h.messages] == ["v2"]  # "temp" was deleted
            assert h.response is not None and h.response.history[0]["content"] == "v1"
            assert h.response.attachments == [("one.txt", b"one"), ("two.txt", b"two")]

            h = await (await fd.slash(alice, general, "ping", "room")).wait()
            room = int(h.ephemeral_texts()[0].split()[1])
            assert [m.content for m in fd.channel_messages(room)] == ["welcome"]
            view = discord.Permissions(view_channel=True).value
            assert fd.permissions_of(alice, room) & view and not fd.permissions_of(bob, room) & view
            assert bot.get_channel(room) is not None

            late_channel = fd.add_channel("late")  # CHANNEL_CREATE / GUILD_MEMBER_ADD
            carol = fd.add_user("carol")
            h = await (
                await fd.slash(carol, late_channel, "ping", "roll", count=1, label="x")
            ).wait()
            assert [m.content for m in fd.channel_messages(late_channel)] == ["roll 1 x"]
            assert bot.get_channel(late_channel) is not None

            bot.seen.clear()
            await fd.post_message(carol, late_channel, "hello")
            await fd.post_message(carol, late_channel, f"hi {fd.bot_user.mention}")
            await fd.post_message(carol, fd.open_dm(carol), "psst")
            await fd.settle()
            # no message_content intent: only mentions and DMs carry content
            assert bot.seen == [
                ("carol", ""),
                ("carol", f"hi {fd.bot_user.mention}"),
                ("carol", "psst"),
            ]

            h = await (await fd.slash(bob, general, "ping", "admin", "reset", hard=True)).wait()
            assert h.response is not None and h.response.content == "reset hard=True"
            with pytest.raises(PermissionError):  # Discord hides the command from bob
                await fd.slash(bob, general, "wipe")
            h = await (await fd.slash(alice, general, "wipe")).wait()
            assert h.response is not None and h.response.content == "wiped"

            h = await (await fd.slash(bob, general, "secret")).wait()
            assert h.ephemeral_texts() == ["shh"] and "guild_id" not in h.payload["data"]

            async with aiohttp.ClientSession() as http:
                url = fd._message_json(board)["attachments"][0]["url"]
                async with http.get(url) as resp:
                    assert await resp.read() == PNG

            await fd.reconnect_bot()  # op 7: discord.py reconnects and RESUMEs
            await fd.wait_until(lambda: fd.resume_count == 1, what="RESUME")
            h = await (await fd.click(alice, board, "roll:3")).wait()
            assert h.ephemeral_texts() == ["rolled 3"]
        assert bot.errors == []

        # A new bot object on the same server: the old persistent button still works.
        async with running_bot(CheckBot(fd.guild_id), fd) as bot2:
            assert fd.identify_count == 2
            h = await (await fd.click(alice, board, "roll:3")).wait()
            assert h.ephemeral_texts() == ["rolled 3"]
            assert bot2.clicks == [(alice.id, 3, fd.guild_id)]
        assert bot2.errors == []

    assert [r.getMessage() for r in logged] == []
    assert fd.unhandled == []
