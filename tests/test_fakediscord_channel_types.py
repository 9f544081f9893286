"""Self-check of the fake Discord's channel types (tests/fakediscord/channel_types.py),
with a tiny real discord.py client: what each kind of channel takes (messages, threads of
which type) and refuses with which code, what discord.py makes of each, and a private
thread the bot was not invited to. The rules quoted are the developer docs' (see that
module); tests/test_e2e_channel_types.py drives the bot itself through them."""

from __future__ import annotations

import discord
import pytest

from tests.fakediscord import FakeDiscord, discord_errors, running_bot
from tests.fakediscord import channel_types as C


async def _refused(call: object) -> tuple[int, int]:
    try:
        await call  # type: ignore[misc]
    except discord.HTTPException as exc:
        return exc.status, exc.code
    return 0, 0


@pytest.mark.parametrize(("parent", "body", "made"), [
    (C.TEXT, {"type": 11}, C.PUBLIC_THREAD),
    (C.TEXT, {"type": 12}, C.PRIVATE_THREAD),
    (C.TEXT, {}, C.PRIVATE_THREAD),  # "type currently defaults to PRIVATE_THREAD"
    (C.TEXT, {"type": 10}, C.WRONG_TYPE),
    (C.ANNOUNCEMENT, {"type": 10}, C.ANNOUNCEMENT_THREAD),
    (C.ANNOUNCEMENT, {"type": 12}, C.WRONG_TYPE),  # private: "only ... in GUILD_TEXT"
    (C.ANNOUNCEMENT, {"type": 11}, C.WRONG_TYPE),  # its public thread is an announcement one
    (C.VOICE, {"type": 11}, C.WRONG_TYPE),
    (C.STAGE, {"type": 12}, C.WRONG_TYPE),
    (C.PUBLIC_THREAD, {"type": 11}, C.WRONG_TYPE),
    (C.FORUM, {"type": 11}, C.NEEDS_MESSAGE),  # a post is made with its first message
    (C.MEDIA, {"message": {"content": "hi"}}, C.PUBLIC_THREAD),
])
def test_which_thread_a_channel_makes_without_a_message(
        parent: int, body: dict[str, object], made: int | C.Refusal) -> None:
    assert C.thread_without_message(parent, body) == made


def test_which_thread_a_channel_makes_of_a_message() -> None:
    assert C.thread_from_message(C.TEXT) == C.PUBLIC_THREAD
    assert C.thread_from_message(C.ANNOUNCEMENT) == C.ANNOUNCEMENT_THREAD
    for parent in (C.VOICE, C.STAGE, C.FORUM, C.MEDIA, C.PRIVATE_THREAD):
        assert C.thread_from_message(parent) == C.WRONG_TYPE


def test_a_members_thread_takes_its_parents_type() -> None:
    assert C.member_thread(C.TEXT, private=True) == C.PRIVATE_THREAD
    assert C.member_thread(C.ANNOUNCEMENT, private=False) == C.ANNOUNCEMENT_THREAD
    assert C.member_thread(C.FORUM, private=False) == C.PUBLIC_THREAD  # a forum's post
    for parent, private in ((C.ANNOUNCEMENT, True), (C.FORUM, True), (C.VOICE, False)):
        with pytest.raises(ValueError, match="no"):
            C.member_thread(parent, private=private)


async def test_each_kind_of_channel_as_the_bot_meets_it(fd: FakeDiscord) -> None:
    """discord.py reads every kind the fake makes (a voice channel's payload has its
    bitrate), posts where Discord takes posts, and meets Discord's refusals elsewhere."""
    ann = fd.add_user("ann")
    ids = {kind: fd.add_channel(f"c{kind}", kind=kind)
           for kind in (C.TEXT, C.VOICE, C.ANNOUNCEMENT, C.STAGE, C.FORUM, C.MEDIA)}
    post = fd.add_thread(ids[C.FORUM], "a post", owner=ann)
    news_thread = fd.add_thread(ids[C.ANNOUNCEMENT], "news talk", owner=ann)
    with discord_errors() as logged:
        async with running_bot(discord.Client(intents=discord.Intents.default()), fd) as bot:
            classes = {kind: type(bot.get_channel(cid)) for kind, cid in ids.items()}
            assert classes == {C.TEXT: discord.TextChannel, C.VOICE: discord.VoiceChannel,
                               C.ANNOUNCEMENT: discord.TextChannel,
                               C.STAGE: discord.StageChannel, C.FORUM: discord.ForumChannel,
                               C.MEDIA: discord.ForumChannel}
            for kind in (C.TEXT, C.VOICE, C.ANNOUNCEMENT, C.STAGE):  # a voice chat too
                channel = bot.get_partial_messageable(ids[kind])
                file = discord.File(__file__, filename="f.txt")
                await channel.send("hello", file=file, view=discord.ui.View().add_item(
                    discord.ui.Button(label="ok", custom_id="ok")))
            for kind in (C.FORUM, C.MEDIA):  # only threads there
                channel = bot.get_partial_messageable(ids[kind])
                assert await _refused(channel.send("no")) == (400, 50008)
            for kind in (C.VOICE, C.STAGE):
                voice = bot.get_channel(ids[kind])
                assert await _refused(bot.http.start_thread_without_message(
                    voice.id, name="t", auto_archive_duration=60,  # type: ignore[union-attr]
                    type=11)) == (400, 50024)
            news = bot.get_channel(ids[C.ANNOUNCEMENT])
            assert isinstance(news, discord.TextChannel) and news.is_news()
            assert await _refused(news.create_thread(
                name="secret", type=discord.ChannelType.private_thread)) == (400, 50024)
            made = await news.create_thread(name="open", type=discord.ChannelType.news_thread)
            assert made.type == discord.ChannelType.news_thread
            for thread in (post, news_thread):
                found = bot.get_channel(thread)
                assert isinstance(found, discord.Thread)
                await found.send("in the thread")
            assert fd.channels[post].type == C.PUBLIC_THREAD
            assert fd.channels[news_thread].type == C.ANNOUNCEMENT_THREAD
    assert logged == []
    fd.errors.clear()


async def test_a_private_thread_the_bot_was_not_invited_to(fd: FakeDiscord) -> None:
    """"You must be invited to the thread to be able to view or participate in it, or be
    a moderator": the bot is told nothing of it, every request about it is refused with
    Missing Access (joining it too), and Get Thread Member says 404 once it may see it."""
    fd.revoke_bot_permissions("manage_threads")
    ann = fd.add_user("ann")
    room = fd.add_channel("room")
    secret = fd.add_thread(room, "secret", owner=ann, private=True)
    with discord_errors() as logged:
        async with running_bot(discord.Client(intents=discord.Intents.default()), fd) as bot:
            assert bot.get_channel(secret) is None  # the gateway said nothing of it
            thread = bot.get_partial_messageable(secret)
            assert await _refused(thread.send("hi")) == (403, 50001)
            assert await _refused(bot.fetch_channel(secret)) == (403, 50001)
            assert await _refused(bot.http.get_thread_member(secret, ann.id)) == (403, 50001)
            assert await _refused(bot.http.join_thread(secret)) == (403, 50001)
            fd.add_thread_member(secret, fd.bot_user)  # ann mentions the bot
            await fd.wait_until(lambda: bot.get_channel(secret) is not None)
            await thread.send("now I'm in")
            member = await bot.http.get_thread_member(secret, ann.id)
            assert member["user_id"] == str(ann.id)
            other = fd.add_user("bob")
            assert await _refused(bot.http.get_thread_member(secret, other.id)) == (404, 10007)
            with pytest.raises(ValueError, match="cannot see"):
                await fd.slash(other, secret, "anything")
    assert logged == []
    fd.errors.clear()


async def test_no_command_comes_from_a_channel_without_a_message_box(fd: FakeDiscord) -> None:
    """A forum or media channel holds only posts, a category only channels: nobody
    types a command there (a post, a thread, is where one is typed), nor in an archived
    thread ("Users cannot ... use application commands ... in archived threads")."""
    ann = fd.add_user("ann")
    for kind in (C.FORUM, C.MEDIA, C.CATEGORY):
        with pytest.raises(ValueError, match="no interaction"):
            await fd.slash(ann, fd.add_channel("x", kind=kind), "game", "new")
    talk = fd.add_thread(fd.add_channel("room"), "talk", owner=ann)
    fd.channels[talk].archived = True
    with pytest.raises(ValueError, match="archived"):
        await fd.slash(ann, talk, "game", "new")
    with pytest.raises(ValueError, match="type 1"):
        fd.add_channel("dm", kind=C.DM)


async def test_an_uninvitable_private_thread_takes_members_from_its_creator_only(
        fd: FakeDiscord) -> None:
    """`invitable` false: "whether non-moderators can add other non-moderators to a
    thread": the bot may fill the thread it opened, not one a member opened so."""
    fd.revoke_bot_permissions("manage_threads")
    ann, bob = fd.add_user("ann"), fd.add_user("bob")
    room = fd.add_channel("room")
    theirs = fd.add_thread(room, "theirs", owner=ann, private=True)
    fd.channels[theirs].invitable = False
    fd.add_thread_member(theirs, fd.bot_user)
    async with running_bot(discord.Client(intents=discord.Intents.default()), fd) as bot:
        await fd.settle()
        assert await _refused(bot.http.add_user_to_thread(theirs, bob.id)) == (403, 50013)
        channel = bot.get_channel(room)
        assert isinstance(channel, discord.TextChannel)
        mine = await channel.create_thread(name="mine", invitable=False,
                                           type=discord.ChannelType.private_thread)
        await mine.add_user(bob)
        assert bob.id in fd.channels[mine.id].member_ids
    fd.errors.clear()
