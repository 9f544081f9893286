"""The bot says why it cannot play (issue 19), through the real discord.py against the
fake Discord, which enforces the bot's channel permissions as Discord does
(tests/fakediscord/permissions.py).

An interaction is answered whatever the bot may do in the channel, so without these
checks `/game new`, Join and Start all work and the board never shows. Here: `/game
new` and Start refuse in one line naming what is missing; a permission taken away in
the middle of a game keeps the move saved and owed (the actor is told, the moderators
read it in /gm log, once per outage); given back, the next retry delivers it once and
the newest controls work.
"""

from __future__ import annotations

import random

import pytest

from bot import table as T
from bot.client import HauntBot
from bot.store import POSTS_BACK, POSTS_REFUSED, Table
from bot.texts import say
from cogs import outlet_refusals
from tests.conftest import BotFactory
from tests.e2e_helpers import latest_turn, open_and_start, play_by_click, to_move, turn_posts
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser, InteractionHandle
from tests.helpers import team_game


def _cannot_play(fd: FakeDiscord, channel: int, missing: str, *why: str) -> str:
    """The refusal, then what each missing permission (`why`: Discord's names) is for."""
    return " ".join([say("permissions.cannot_play", missing=missing, channel=f"<#{channel}>",
                         bot=fd.bot_user.mention),
                     *(say(f"permissions.why.{name}") for name in why)])


def _refused(channel: int, missing: str) -> str:
    return say("permissions.refused", channel=f"<#{channel}>", missing=missing)


def _pings(fd: FakeDiscord, channel: int) -> list[FakeMessage]:
    return [m for m in fd.channel_messages(channel)
            if m.author_id == fd.bot_user.id and "it's your turn:" in m.content]


async def _table(bot: HauntBot, channel: int) -> Table:
    table = await bot.store.load(channel)
    assert table is not None
    return table


async def _gm_log(fd: FakeDiscord, mod: FakeUser, channel: int) -> str:
    handle = await (await fd.slash(mod, channel, "gm", "log")).wait()
    [text] = handle.ephemeral_texts()
    return text


def _lobby_button(lobby: FakeMessage, kind: str) -> str:
    return next(c for c in lobby.custom_ids() if c.endswith(f":{kind}"))


async def test_game_new_is_refused_in_one_line_where_the_bot_cannot_send(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    channel = fd.add_channel("quiet")
    alice = fd.add_user("alice")
    fd.set_bot_permissions(channel, deny=["send_messages"])
    bot = await start_hauntkeeper()

    handle = await (await fd.slash(alice, channel, "game", "new", game="cthulhu")).wait()
    # Send Messages alone is named: Discord drops Embed Links and Attach Files with it
    assert handle.ephemeral_texts() == [_cannot_play(fd, channel, "Send Messages",
                                                           "send_messages")]
    assert await bot.store.load(channel) is None  # no lobby nobody could play
    assert fd.channel_messages(channel) == []

    fd.set_bot_permissions(channel, deny=["view_channel"])  # no access: that alone
    handle = await (await fd.slash(alice, channel, "game", "new", game="cthulhu")).wait()
    assert handle.ephemeral_texts() == [_cannot_play(fd, channel, "View Channel",
                                                           "view_channel")]

    fd.clear_bot_permissions(channel)
    handle = await (await fd.slash(alice, channel, "game", "new", game="cthulhu")).wait()
    assert handle.ephemeral_texts() == [] and await bot.store.load(channel) is not None


async def test_start_is_refused_without_attach_files_by_button_and_by_command(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    channel = fd.add_channel("boardless")
    alice, bob = fd.add_user("alice"), fd.add_user("bob")
    bot = await start_hauntkeeper()
    opened = await (await fd.slash(alice, channel, "game", "new", game="cthulhu",
                                   seed=3)).wait()
    lobby = opened.response
    assert lobby is not None
    await (await fd.click(bob, lobby, _lobby_button(lobby, "lobby.join"))).wait()
    fd.set_bot_permissions(channel, deny=["attach_files", "embed_links"])
    await fd.permissions_reached(bot, channel)
    before = await _table(bot, channel)

    clicked = await (await fd.click(alice, fd.message(lobby.id),
                                    _lobby_button(lobby, "lobby.start"))).wait()
    # a running game posts no embed: Attach Files alone is named (the board's)
    refusal = _cannot_play(fd, channel, "Attach Files", "attach_files")
    assert clicked.ephemeral_texts() == [refusal]
    typed = await (await fd.slash(alice, channel, "game", "start")).wait()
    assert typed.ephemeral_texts() == [refusal]
    assert await _table(bot, channel) == before  # still the lobby, untouched
    assert fd.errors == []  # refused before the bot asked Discord for anything

    fd.clear_bot_permissions(channel)
    await fd.permissions_reached(bot, channel)
    await (await fd.click(alice, fd.message(lobby.id),
                          _lobby_button(lobby, "lobby.start"))).wait()
    assert (await _table(bot, channel)).status == "active"
    assert latest_turn(fd, channel).attachments  # the board is there


async def _two_playing(fd: FakeDiscord, start: BotFactory,
                       name: str) -> tuple[HauntBot, int, dict[int, FakeUser], FakeUser]:
    channel = fd.add_channel(name)
    alice, bob = fd.add_user("alice"), fd.add_user("bob")
    mod = fd.add_user("mod", manage_channels=True)
    bot = await start()
    await open_and_start(fd, channel, [alice, bob], "cthulhu", seed=4)
    return bot, channel, {alice.id: alice, bob.id: bob}, mod


async def _move(fd: FakeDiscord, channel: int, by_id: dict[int, FakeUser],
                rng: random.Random) -> InteractionHandle:
    mover = to_move(latest_turn(fd, channel))
    assert mover is not None
    return await play_by_click(fd, by_id[mover], latest_turn(fd, channel), rng)


async def test_a_permission_taken_mid_game_keeps_the_move_owed_and_it_comes_back_once(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    bot, channel, by_id, mod = await _two_playing(fd, start_hauntkeeper, "revoked")
    rng = random.Random(4)
    live = latest_turn(fd, channel)
    shown_before = fd.message(live.id).snapshot()
    fd.set_bot_permissions(channel, deny=["send_messages"])
    await fd.permissions_reached(bot, channel)

    clicked = await _move(fd, channel, by_id, rng)
    assert clicked.ephemeral_texts() == [_refused(channel, "Send Messages")]
    table = await _table(bot, channel)
    assert table.delivered_seq < table.last_seq  # saved and owed, not lost
    assert fd.message(live.id).snapshot() == shown_before  # nothing half shown
    log = await _gm_log(fd, mod, channel)
    told = say("permissions.log_refused", missing="Send Messages")
    assert told in log and f"<@{fd.bot_user.id}>" in log

    # retries during the outage: nothing sent, nothing refused, nothing told again
    refused_requests = len(fd.errors)
    assert await bot.resume_games(ai_turns=False) == 1
    assert await bot.resume_games(ai_turns=False) == 1
    assert len(fd.errors) == refused_requests
    assert (await _gm_log(fd, mod, channel)).count(told) == 1
    bot = await start_hauntkeeper()  # a restart in the outage: still the same outage
    assert await bot.resume_games(ai_turns=False) == 1
    assert len(fd.errors) == refused_requests
    assert [n.kind for n in await bot.store.notices(table.id or 0)] == [POSTS_REFUSED]

    fd.clear_bot_permissions(channel)
    await fd.permissions_reached(bot, channel)
    posts, pings = turn_posts(fd, channel), len(_pings(fd, channel))
    assert await bot.resume_games(ai_turns=False) == 1  # the 30 s retry, called at once
    await fd.settle()
    table = await _table(bot, channel)
    assert table.delivered_seq == table.last_seq
    assert turn_posts(fd, channel) == posts + 1  # the owed move, shown once
    assert latest_turn(fd, channel).id == live.id  # on the same live message
    assert await bot.resume_games(ai_turns=False) == 0  # nothing owed any more
    assert turn_posts(fd, channel) == posts + 1 and len(_pings(fd, channel)) <= pings + 1
    assert say("permissions.log_back") in await _gm_log(fd, mod, channel)
    assert [n.kind for n in await bot.store.notices(table.id or 0)] == [POSTS_REFUSED,
                                                                        POSTS_BACK]

    # the live message carries the newest controls, and they work
    again = await _move(fd, channel, by_id, rng)
    assert again.ephemeral_texts() == []
    assert turn_posts(fd, channel) == posts + 2
    assert (await _table(bot, channel)).delivered_seq == (await _table(bot, channel)).last_seq


async def test_a_refused_post_the_cache_did_not_foresee_stays_owed_too(
        fd: FakeDiscord, start_hauntkeeper: BotFactory,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """When discord.py's cache cannot tell (here: made to say nothing), the post is
    tried, and Discord's 403 keeps it owed all the same: the live message (an edit
    needs no Send Messages) may show the move, the turn's ping waits."""
    bot, channel, by_id, mod = await _two_playing(fd, start_hauntkeeper, "unforeseen")
    monkeypatch.setattr(outlet_refusals, "missing_in_cache",
                        lambda client, channel_id: None)
    rng = random.Random(5)
    fd.set_bot_permissions(channel, deny=["send_messages"])
    await fd.permissions_reached(bot, channel)
    pings = len(_pings(fd, channel))

    clicked = await _move(fd, channel, by_id, rng)
    unknown = say("permissions.refused_unknown", channel=f"<#{channel}>")
    assert clicked.ephemeral_texts() == [unknown]
    assert [(e[1], e[2]["code"]) for e in fd.errors] == [(403, 50013)]  # the ping
    table = await _table(bot, channel)
    assert table.delivered_seq < table.last_seq
    assert await bot.resume_games(ai_turns=False) == 1  # refused again: told once
    assert [n.kind for n in await bot.store.notices(table.id or 0)] == [POSTS_REFUSED]
    assert say("permissions.log_refused", missing=say("permissions.some_permission")) \
        in await _gm_log(fd, mod, channel)

    fd.clear_bot_permissions(channel)
    await fd.permissions_reached(bot, channel)
    assert await bot.resume_games(ai_turns=False) == 1
    await fd.settle()
    table = await _table(bot, channel)
    assert table.delivered_seq == table.last_seq
    assert len(_pings(fd, channel)) == pings  # the old ping gave way to the new one, once
    again = await _move(fd, channel, by_id, rng)
    assert again.ephemeral_texts() == []


async def test_a_team_game_without_private_threads_starts_and_the_host_reads_why_dms(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """Team lines fall back to DMs without the thread permissions (cogs/outlet.py), so
    Start is not refused for them: the host is told, in the same private line."""
    with team_game.registered():
        channel = fd.add_channel("teams")
        host, tom, rita = fd.add_user("host"), fd.add_user("tom"), fd.add_user("rita")
        fd.set_bot_permissions(channel, deny=["create_private_threads"])
        bot = await start_hauntkeeper()
        await bot.sessions.open(channel, fd.guild_id, T.Actor(host.id, "host"), team_game.KEY, 1)
        for user in (tom, rita):
            await (await fd.slash(user, channel, "game", "join")).wait()
        started = await (await fd.slash(host, channel, "game", "start")).wait()
        [line] = started.ephemeral_texts()
        assert "begins with" in line
        assert line.endswith(say("permissions.threads_missing",
                                 missing="Create Private Threads"))
        assert (await _table(bot, channel)).status == "active" and fd.threads(channel) == []
        assert fd.dms(tom)  # the team's lines came by DM

        plain = fd.add_channel("plain")  # a game without teams is told nothing of threads
        fd.set_bot_permissions(plain, deny=["create_private_threads"])
        await (await fd.slash(host, plain, "game", "new", game="cthulhu", seed=2)).wait()
        await (await fd.slash(tom, plain, "game", "join")).wait()
        started = await (await fd.slash(host, plain, "game", "start")).wait()
        [line] = started.ephemeral_texts()
        assert (await _table(bot, plain)).status == "active"
        assert "Create Private Threads" not in line


async def test_a_click_on_the_message_left_behind_says_why_then_brings_it_up_to_date(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """The live message stays on the turn before the owed move: a click on it is stale.
    During the outage it says why the message is behind; once the permission is back,
    that click is what delivers the owed move (no waiting for the 30 s retry)."""
    bot, channel, by_id, _mod = await _two_playing(fd, start_hauntkeeper, "behind")
    rng = random.Random(6)
    live = latest_turn(fd, channel)
    mover = by_id[to_move(live) or 0]
    fd.set_bot_permissions(channel, deny=["attach_files"])
    await fd.permissions_reached(bot, channel)
    await _move(fd, channel, by_id, rng)  # saved, owed
    owed = await _table(bot, channel)
    assert owed.delivered_seq < owed.last_seq

    again = await play_by_click(fd, mover, fd.message(live.id), rng)  # the old buttons
    assert again.ephemeral_texts() == [say("permissions.behind", channel=f"<#{channel}>",
                                           missing="Attach Files")]
    assert await _table(bot, channel) == owed  # the game untouched

    fd.clear_bot_permissions(channel)
    await fd.permissions_reached(bot, channel)
    posts = turn_posts(fd, channel)
    stale = await play_by_click(fd, mover, fd.message(live.id), rng)
    assert stale.ephemeral_texts() == [say("errors.stale")]  # the click itself did nothing
    table = await _table(bot, channel)
    assert table.version == owed.version and table.delivered_seq == table.last_seq
    assert turn_posts(fd, channel) == posts + 1  # but the owed move is shown now, once
    assert await bot.resume_games(ai_turns=False) == 0
    assert (await _move(fd, channel, by_id, rng)).ephemeral_texts() == []  # newest controls


async def test_in_a_thread_send_messages_in_threads_is_what_counts(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    parent = fd.add_channel("hall")
    alice = fd.add_user("alice")
    thread = fd.add_thread(parent, "side game", owner=alice)
    fd.set_bot_permissions(parent, deny=["send_messages"])  # the channel, not its threads
    bot = await start_hauntkeeper()
    opened = await (await fd.slash(alice, thread, "game", "new", game="cthulhu")).wait()
    assert opened.ephemeral_texts() == [] and await bot.store.load(thread) is not None

    fd.set_bot_permissions(parent, deny=["send_messages_in_threads"])
    other = fd.add_thread(parent, "another", owner=alice)
    refused = await (await fd.slash(alice, other, "game", "new", game="cthulhu")).wait()
    assert refused.ephemeral_texts() == [_cannot_play(fd, other, "Send Messages in Threads",
                                                         "send_messages_in_threads")]


@pytest.mark.parametrize("taken", ["embed_links", "read_message_history"])
async def test_a_permission_no_running_game_post_needs_does_not_hold_the_game(
        fd: FakeDiscord, start_hauntkeeper: BotFactory, taken: str) -> None:
    """A running game's posts carry no embed and read no history (the live message is
    Components v2: text, the board and buttons), so Discord takes them without Embed
    Links or Read Message History: a moderator who takes one away mid-game must not
    stop the game, nor be told it is missing."""
    bot, channel, by_id, _ = await _two_playing(fd, start_hauntkeeper, f"no-{taken}")
    rng = random.Random(6)
    fd.set_bot_permissions(channel, deny=[taken])
    await fd.permissions_reached(bot, channel)
    posts = turn_posts(fd, channel)

    clicked = await _move(fd, channel, by_id, rng)
    assert not any("missing" in text for text in clicked.ephemeral_texts())
    await fd.settle()
    table = await _table(bot, channel)
    assert table.delivered_seq == table.last_seq  # shown, nothing owed
    assert turn_posts(fd, channel) == posts + 1
    assert fd.errors == []
    assert await bot.store.notices(table.id or 0) == []
