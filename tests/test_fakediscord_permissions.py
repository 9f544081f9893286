"""Self-check of the fake Discord's model of the bot's channel permissions
(tests/fakediscord/permissions.py), with a tiny real bot: what is refused with which
code, what is dropped, what an interaction's app_permissions say, and that discord.py's
own cache computes the same permissions from what the fake announced."""

from __future__ import annotations

import io

import discord
import pytest
from discord import app_commands

from tests.fakediscord import FakeChannel, FakeDiscord, discord_errors, running_bot
from tests.fakediscord import permissions as P

GUILD, ROLE, BOT = 1, 2, 3
EVERY = discord.Permissions.all().value & ~P.ADMINISTRATOR


def _deny(*names: str) -> list[dict[str, str]]:
    return [{"id": str(BOT), "type": 1, "allow": "0", "deny": str(P.bits(names))}]


def _in(overwrites: list[dict[str, str]], base: int = EVERY, *, thread: bool = False) -> int:
    return P.in_channel(base, overwrites, guild_id=GUILD, role_ids=[ROLE], member_id=BOT,
                        thread=thread)


def test_administrator_overrides_every_overwrite() -> None:
    assert _in(_deny("view_channel"), EVERY | P.ADMINISTRATOR) == P.ALL


def test_overwrites_apply_everyone_then_roles_then_the_member() -> None:
    everyone_denies = [{"id": str(GUILD), "type": 0, "allow": "0", "deny": str(P.SEND_MESSAGES)}]
    assert not _in(everyone_denies) & P.SEND_MESSAGES
    role_allows = [*everyone_denies,
                   {"id": str(ROLE), "type": 0, "allow": str(P.SEND_MESSAGES), "deny": "0"}]
    assert _in(role_allows) & P.SEND_MESSAGES
    member_denies = [*role_allows, *_deny("send_messages")]
    assert not _in(member_denies) & P.SEND_MESSAGES


def test_the_implicit_denials_follow_view_and_send() -> None:
    assert _in(_deny("view_channel")) == 0
    no_send = _in(_deny("send_messages"))
    assert not no_send & (P.ATTACH_FILES | P.EMBED_LINKS) and no_send & P.VIEW_CHANNEL
    assert no_send & P.SEND_MESSAGES_IN_THREADS
    in_thread = _in(_deny("send_messages"), thread=True)  # a thread counts its own send
    assert in_thread & P.ATTACH_FILES


@pytest.mark.parametrize(("perms", "thread", "files", "refused"), [
    (EVERY, False, True, None),
    (EVERY & ~P.VIEW_CHANNEL, False, False, P.MISSING_ACCESS),
    (EVERY & ~P.SEND_MESSAGES, False, False, P.MISSING_PERMISSIONS),
    (EVERY & ~P.SEND_MESSAGES, True, False, None),
    (EVERY & ~P.SEND_MESSAGES_IN_THREADS, True, False, P.MISSING_PERMISSIONS),
    (EVERY & ~P.ATTACH_FILES, False, False, None),
    (EVERY & ~P.ATTACH_FILES, False, True, P.MISSING_PERMISSIONS),
])
def test_what_a_new_message_needs(perms: int, thread: bool, files: bool,
                                  refused: P.Refusal | None) -> None:
    assert P.refusal_to_send(perms, thread=thread, files=files) == refused


def test_an_edit_needs_view_and_attach_files_for_new_files_only() -> None:
    assert P.refusal_to_edit(EVERY & ~P.SEND_MESSAGES, files=False) is None
    assert P.refusal_to_edit(EVERY & ~P.ATTACH_FILES, files=True) == P.MISSING_PERMISSIONS
    assert P.refusal_to_edit(EVERY & ~P.VIEW_CHANNEL, files=False) == P.MISSING_ACCESS


def test_embeds_without_embed_links_are_dropped_and_an_empty_message_refused() -> None:
    body = {"content": "hi", "embeds": [{"title": "t"}]}
    assert P.without_embeds(EVERY & ~P.EMBED_LINKS, body, files=False) is None
    assert body["embeds"] == []
    kept = {"content": "", "embeds": [{"title": "t"}]}
    assert P.without_embeds(EVERY, kept, files=False) is None and kept["embeds"]
    empty = {"content": "", "embeds": [{"title": "t"}]}
    assert P.without_embeds(EVERY & ~P.EMBED_LINKS, empty, files=False) == P.EMPTY_MESSAGE


def _thread(*, archived: bool = False, locked: bool = False) -> FakeChannel:
    return FakeChannel(id=9, name="t", type=11, parent_id=8, owner_id=BOT, archived=archived,
                       locked=locked)


@pytest.mark.parametrize(("perms", "creator", "thread", "body", "refused"), [
    (EVERY & ~P.MANAGE_THREADS, True, _thread(), {"archived": True}, None),
    (EVERY & ~P.MANAGE_THREADS, False, _thread(), {"archived": True}, P.MISSING_PERMISSIONS),
    (EVERY, False, _thread(), {"name": "n"}, None),
    (EVERY & ~P.MANAGE_THREADS, True, _thread(), {"archived": True, "locked": True},
     P.MISSING_PERMISSIONS),
    (EVERY, True, _thread(), {"archived": True, "locked": True}, None),
    (EVERY, True, _thread(archived=True), {"archived": True}, P.THREAD_ARCHIVED),
    (EVERY, True, _thread(archived=True), {"name": "n"}, P.THREAD_ARCHIVED),
    (EVERY & ~P.MANAGE_THREADS, False, _thread(archived=True), {"archived": False}, None),
    (EVERY & ~P.MANAGE_THREADS, False, _thread(archived=True, locked=True),
     {"archived": False}, P.MISSING_PERMISSIONS),
    (EVERY & ~P.MANAGE_THREADS, True, _thread(archived=True, locked=True),
     {"archived": False}, None),
])
def test_what_editing_a_thread_needs(perms: int, creator: bool, thread: FakeChannel,
                                     body: dict[str, object],
                                     refused: P.Refusal | None) -> None:
    """Archive and rename: its creator or Manage Threads; lock: Manage Threads; an
    archived thread: nothing but unarchiving (a locked one: its creator or Manage
    Threads)."""
    assert P.refusal_to_edit_thread(perms, thread, body, creator=creator) == refused


def test_a_public_thread_needs_create_public_threads() -> None:
    assert P.refusal_to_open_thread(EVERY & ~P.CREATE_PUBLIC_THREADS, private=False) \
        == P.MISSING_PERMISSIONS
    assert P.refusal_to_open_thread(EVERY & ~P.CREATE_PUBLIC_THREADS, private=True) is None
    assert P.refusal_to_open_thread(EVERY & ~P.CREATE_PRIVATE_THREADS, private=False) is None


def test_a_permission_name_is_checked() -> None:
    with pytest.raises(ValueError, match="no permission"):
        P.bits(["send_mesages"])


class PermsBot(discord.Client):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)
        self.app_permissions: list[int] = []

        @self.tree.command(name="perms", description="what may the bot do here")
        async def perms(interaction: discord.Interaction) -> None:
            self.app_permissions.append(interaction.app_permissions.value)
            await interaction.response.send_message("ok", ephemeral=True)

    async def setup_hook(self) -> None:
        await self.tree.sync()


async def _refused(call: object) -> tuple[int, int]:
    try:
        await call  # type: ignore[misc]
    except discord.HTTPException as exc:
        return exc.status, exc.code
    return 0, 0


async def test_the_bot_meets_the_channel_permissions_a_test_sets(fd: FakeDiscord) -> None:
    room = fd.add_channel("room")
    ann = fd.add_user("ann")
    with discord_errors() as logged:
        async with running_bot(PermsBot(), fd) as bot:
            channel = bot.get_channel(room)
            assert isinstance(channel, discord.TextChannel)
            board = await channel.send("board")
            fd.set_bot_permissions(room, deny=["send_messages", "embed_links"])
            await fd.permissions_reached(bot, room)
            await (await fd.slash(ann, room, "perms")).wait()
            sent = fd.interactions[max(fd.interactions)].payload["app_permissions"]
            assert isinstance(sent, str) and sent.isdigit()  # a decimal string, as Discord
            assert bot.app_permissions == [int(sent)] == [fd.bot_permissions_in(room)]
            cached = channel.permissions_for(channel.guild.me)  # discord.py's own sum
            text = P.bits(["view_channel", "send_messages", "embed_links", "attach_files",
                           "read_message_history", "create_private_threads",
                           "send_messages_in_threads", "mention_everyone"])
            assert cached.value & text == int(sent) & text and not cached.send_messages

            assert await _refused(channel.send("no")) == (403, 50013)
            await board.edit(content="edited")  # Send Messages does not guard edits
            assert fd.message(board.id).content == "edited"
            file = discord.File(io.BytesIO(b"png"), filename="b.png")
            assert await _refused(board.edit(attachments=[file])) == (403, 50013)

            fd.set_bot_permissions(room, deny=["embed_links"])
            await fd.permissions_reached(bot, room)
            shown = await channel.send("text", embed=discord.Embed(title="rich"))
            assert fd.message(shown.id).embeds == [] and fd.message(shown.id).content == "text"
            assert await _refused(channel.send(embed=discord.Embed(title="x"))) == (400, 50006)

            fd.set_bot_permissions(room, deny=["create_private_threads",
                                               "send_messages_in_threads"])
            await fd.permissions_reached(bot, room)
            assert await _refused(channel.create_thread(
                name="secret", type=discord.ChannelType.private_thread)) == (403, 50013)
            public = await channel.create_thread(name="open", message=shown)
            assert await _refused(public.send("in thread")) == (403, 50013)

            fd.set_bot_permissions(room, deny=["read_message_history"])
            await fd.permissions_reached(bot, room)
            assert [m async for m in channel.history(limit=10)] == []

            fd.set_bot_permissions(room, deny=["view_channel"])
            await fd.permissions_reached(bot, room)
            assert await _refused(channel.send("no")) == (403, 50001)
            assert await _refused(board.edit(content="no")) == (403, 50001)
            assert await _refused(channel.fetch_message(board.id)) == (403, 50001)
            assert await _refused(bot.fetch_channel(room)) == (403, 50001)
            assert await _refused(board.delete()) == (403, 50001)

            fd.clear_bot_permissions(room)
            await fd.permissions_reached(bot, room)
            assert (await channel.send("back")).content == "back"
            assert channel.permissions_for(channel.guild.me).send_messages
    assert [r.getMessage() for r in logged if "403" not in r.getMessage()
            and "400" not in r.getMessage()] == []
