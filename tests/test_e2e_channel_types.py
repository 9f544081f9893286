"""Where a game can be played, by Discord's channel types, through the real discord.py
and the fake Discord (tests/fakediscord/channel_types.py says what each type takes, and
refuses the rest as Discord does).

A member may type `/game new` in a text channel, an announcement channel, a voice or
stage channel's text chat, or a thread (a text channel's public or private one, an
announcement thread, a forum or media channel's post); not in a DM (the command is the
server's) nor in a forum or media channel itself (no message box there). Everywhere it
is offered, a game either plays in full (the live message, DMs, its teams' threads or
their DMs, the play-by-play thread where the server wants one, or the word that there
is none) or is refused at `/game new` in one short private line that says why. Nothing
may fail quietly, answer with Discord's "interaction failed", or log the bot's own bug
(the `start_hauntkeeper` fixture fails a test on any ERROR line).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from bot import table as T
from bot.client import HauntBot
from bot.core.actions import Action
from bot.texts import say
from tests.conftest import BotFactory
from tests.e2e_helpers import latest_turn, play_by_click, to_move, turn_posts, use_first
from tests.fakediscord import FakeDiscord, FakeUser
from tests.fakediscord import channel_types as C
from tests.helpers import team_game

# name -> the channel's type, and the thread a member opened in it to play (None: the
# game is played in the channel itself).
PLACES: dict[str, tuple[int, str | None]] = {
    "text": (C.TEXT, None),
    "voice": (C.VOICE, None),
    "stage": (C.STAGE, None),
    "announcement": (C.ANNOUNCEMENT, None),
    "announcement_thread": (C.ANNOUNCEMENT, "public"),
    "public_thread": (C.TEXT, "public"),
    "private_thread": (C.TEXT, "private"),
    "forum_post": (C.FORUM, "public"),
    "media_post": (C.MEDIA, "public"),
}
# Where a game's threads can be opened: private (team) ones in a text channel only, and
# a public one (the play-by-play) in a text or an announcement channel.
PRIVATE_THREADS_HERE = {"text"}
PUBLIC_THREADS_HERE = {"text", "announcement"}


@dataclass
class Place:
    channel: int  # where the game is played
    parent: int  # the channel itself, or the thread's parent
    host: FakeUser


def _place(fd: FakeDiscord, where: str, host: FakeUser) -> Place:
    """The channel (or a member's thread in it) a game is opened in; the bot is added to
    a private thread by its opener (a mention of it does that), as it must be to post."""
    kind, thread = PLACES[where]
    parent = fd.add_channel(where, kind=kind)
    if thread is None:
        return Place(parent, parent, host)
    channel = fd.add_thread(parent, f"{where} game", owner=host, private=thread == "private")
    if thread == "private":
        fd.add_thread_member(channel, fd.bot_user)
    return Place(channel, parent, host)


async def _play_by_play_on(fd: FakeDiscord, where: Place) -> None:
    mod = fd.add_user("mod", manage_channels=True)
    if fd.channels[where.channel].type == C.PRIVATE_THREAD:
        fd.add_thread_member(where.channel, mod)
    handle = await (await fd.slash(mod, where.channel, "gm", "settings",
                                   play_by_play="on")).wait()
    assert say("settings.play_by_play_on") in handle.ephemeral_texts()[0]


async def _open_with_ai(fd: FakeDiscord, where: Place, game: str, ais: int) -> list[str]:
    """`/game new`, AI seats added from the lobby, Start: what Start told the host."""
    new = await (await fd.slash(where.host, where.channel, "game", "new", game=game,
                                seed=21)).wait()
    lobby = new.response
    assert lobby is not None and not lobby.ephemeral, new.texts()
    add_ai = next(c for c in lobby.custom_ids() if c.endswith(":lobby.ai"))
    for _ in range(ais):
        await (await fd.click(where.host, lobby, add_ai)).wait()
    started = await (await fd.slash(where.host, where.channel, "game", "start")).wait()
    return started.ephemeral_texts()


async def _nothing_owed(bot: HauntBot, channel: int) -> None:
    table = await bot.store.load(channel)
    assert table is not None and table.delivered_seq == table.last_seq


def _start_line(where: str, *, teams: bool, play_by_play: bool) -> list[str]:
    """What the host reads at Start about the threads this place cannot hold."""
    words = []
    if teams and where not in PRIVATE_THREADS_HERE:
        words.append(say("permissions.no_team_threads_here"))
    if play_by_play and where not in PUBLIC_THREADS_HERE:
        words.append(say("permissions.no_play_by_play_here"))
    return words


@pytest.mark.parametrize("where", list(PLACES))
async def test_a_game_plays_in_every_channel_a_command_can_come_from(
        fd: FakeDiscord, start_hauntkeeper: BotFactory, where: str) -> None:
    """Cthulhu with two AI seats on a server that wants the play-by-play thread, the bot
    invited without Manage Threads: Start, then three moves. Each move shows on the live
    message, nothing stays owed, the play-by-play thread is opened where one can be (an
    announcement thread in an announcement channel: Discord's "The type of thread
    created matches the type of the parent channel"), and elsewhere the host is told at
    Start that there is none, rather than the server's setting doing nothing unseen."""
    fd.revoke_bot_permissions("manage_threads")
    host = fd.add_user("host")
    place = _place(fd, where, host)
    bot = await start_hauntkeeper()
    await _play_by_play_on(fd, place)
    said = await _open_with_ai(fd, place, "cthulhu", 2)
    assert len(said) == 1 and "begins" in said[0], said
    for words in _start_line(where, teams=False, play_by_play=True):
        assert words in said[0]
    for _ in range(3):
        posts = turn_posts(fd, place.channel)
        live = latest_turn(fd, place.channel)
        assert to_move(live) == host.id
        await use_first(fd, host, live)
        assert turn_posts(fd, place.channel) == posts + 1
    await _nothing_owed(bot, place.channel)
    made = [t for t in fd.threads() if t.owner_id == fd.bot_user.id]
    if where in PUBLIC_THREADS_HERE:
        [thread] = made
        assert thread.type == (C.ANNOUNCEMENT_THREAD if where == "announcement"
                               else C.PUBLIC_THREAD)
        assert fd.channel_messages(thread.id)  # the story so far
    else:
        assert made == []
    assert [e for e in fd.errors if e[1] >= 400] == []  # nothing Discord refused


@pytest.fixture
def _team_game() -> Iterator[None]:
    with team_game.registered():
        yield


@pytest.mark.usefixtures("_team_game")
@pytest.mark.parametrize("where", list(PLACES))
async def test_team_secrets_reach_their_team_in_every_channel(
        fd: FakeDiscord, start_hauntkeeper: BotFactory, where: str) -> None:
    """A game of secret teams (tests/helpers/team_game.py, the plumbing of Betrayal's
    haunt): a private thread per team where the channel holds private threads ("Private
    threads ... can only be created in GUILD_TEXT channels"), else DMs, without a thread
    asked of Discord that it must refuse, and the host told at Start."""
    host, tom, rita = fd.add_user("host"), fd.add_user("tom"), fd.add_user("rita")
    place = _place(fd, where, host)
    for user in (tom, rita):
        if fd.channels[place.channel].type == C.PRIVATE_THREAD:
            fd.add_thread_member(place.channel, user)
    bot = await start_hauntkeeper()
    await bot.sessions.open(place.channel, fd.guild_id, T.Actor(host.id, "host"),
                            team_game.KEY, 1)
    for user in (tom, rita):
        await (await fd.slash(user, place.channel, "game", "join")).wait()
    await bot.sessions.act(place.channel, T.Actor(host.id, "host"), Action(T.ADD_AI))
    started = await (await fd.slash(host, place.channel, "game", "start")).wait()
    [said] = started.ephemeral_texts()
    for words in _start_line(where, teams=True, play_by_play=False):
        assert words in said
    await _nothing_owed(bot, place.channel)
    made = [t for t in fd.threads() if t.owner_id == fd.bot_user.id]
    red = "You are the red team."
    if where in PRIVATE_THREADS_HERE:
        assert {t.type for t in made} == {C.PRIVATE_THREAD} and len(made) == 2
        [red_thread] = [t for t in made if any(red in m.text
                                               for m in fd.channel_messages(t.id))]
        assert {host.id, rita.id} <= red_thread.member_ids
    else:
        assert made == []
        for user in (host, rita):
            assert any(red in m.text for m in fd.dms(user)), user.name
        assert not any(red in m.text for m in fd.dms(tom))
    assert [e for e in fd.errors if e[1] >= 400] == []


GAMES = {"betrayal": 2, "cthulhu": 1, "evilbelow": 1}  # each game, and its AI seats


@pytest.mark.parametrize("where", ["voice", "announcement", "forum_post", "private_thread"])
@pytest.mark.parametrize("game", list(GAMES))
async def test_each_game_plays_turns_outside_a_text_channel(
        fd: FakeDiscord, start_hauntkeeper: BotFactory, game: str, where: str) -> None:
    """Every game, opened where its threads cannot be (a voice channel's chat, an
    announcement channel, a forum's post, a private thread the bot was added to):
    Start, then a few of the host's clicks, each answered and shown, nothing owed and
    nothing refused by Discord (Betrayal's teams wait for its haunt: the team test above
    covers where their secrets go)."""
    host = fd.add_user("host")
    place = _place(fd, where, host)
    bot = await start_hauntkeeper()
    said = await _open_with_ai(fd, place, game, GAMES[game])
    assert "begins" in said[0], said
    rng = random.Random(5)
    for _ in range(4):
        live = latest_turn(fd, place.channel)
        if to_move(live) != host.id:
            break
        handle = await play_by_click(fd, host, live, rng)
        assert handle.responded
        assert not [t for t in handle.ephemeral_texts() if "went wrong" in t]
    await _nothing_owed(bot, place.channel)
    assert turn_posts(fd, place.channel) >= 2  # the start, and the moves after it
    assert [e for e in fd.errors if e[1] >= 400] == []


async def test_a_private_thread_without_the_bot_is_refused_until_it_is_added(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """Discord answers an interaction in a private thread the bot was not invited to,
    but takes none of its posts there ("You must be invited to the thread to be able to
    view or participate in it, or be a moderator (MANAGE_THREADS permission)"): a lobby
    opened there would start a game nobody sees. `/game new` says so, and how to add the
    bot; once a member adds it (a mention does), the game opens and plays."""
    fd.revoke_bot_permissions("manage_threads")
    host = fd.add_user("host")
    parent = fd.add_channel("hall")
    thread = fd.add_thread(parent, "secret table", owner=host, private=True)
    await start_hauntkeeper()
    refused = await (await fd.slash(host, thread, "game", "new", game="cthulhu",
                                    seed=21)).wait()
    assert refused.ephemeral_texts() == [
        say("permissions.not_in_thread", bot=f"<@{fd.bot_user.id}>")]
    assert fd.channel_messages(thread) == []  # no lobby left behind
    fd.add_thread_member(thread, fd.bot_user)
    await fd.settle()
    said = await _open_with_ai(fd, Place(thread, parent, host), "cthulhu", 1)
    assert "begins" in said[0], said
    assert turn_posts(fd, thread) == 1


async def test_a_moderator_in_the_private_thread_needs_no_invitation(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """A bot with Manage Threads sees every private thread ("or be a moderator"): no
    invitation needed, and no question asked of Discord about it."""
    host = fd.add_user("host")
    parent = fd.add_channel("hall")
    thread = fd.add_thread(parent, "secret table", owner=host, private=True)
    await start_hauntkeeper()
    said = await _open_with_ai(fd, Place(thread, parent, host), "cthulhu", 1)
    assert "begins" in said[0], said
    assert turn_posts(fd, thread) == 1
    assert not [r for r in fd.requests if "/thread-members/" in r]


async def test_a_locked_thread_is_refused_to_a_bot_without_manage_threads(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """"Users (including bot users) without the MANAGE_THREADS permission ... won't be
    able to create or update messages in locked threads": a moderator's `/game new`
    there is refused in words, not left to a lobby whose game could never post."""
    fd.revoke_bot_permissions("manage_threads")
    host = fd.add_user("host", manage_channels=True)
    parent = fd.add_channel("hall")
    thread = fd.add_thread(parent, "closed talk", owner=host)
    await start_hauntkeeper()
    await fd.set_thread(thread, locked=True)
    refused = await (await fd.slash(host, thread, "game", "new", game="cthulhu",
                                    seed=21)).wait()
    assert refused.ephemeral_texts() == [say("permissions.thread_locked")]
    assert fd.channel_messages(thread) == []


async def test_game_new_is_not_offered_in_dms(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """`/game new` opens a game in a server's channel: Discord does not offer it in a
    DM (its contexts are the guild's), so no lobby can be opened where nothing but the
    two of them could see it."""
    host = fd.add_user("host")
    await start_hauntkeeper()
    with pytest.raises(PermissionError):
        await fd.slash(host, fd.open_dm(host), "game", "new", game="cthulhu")
