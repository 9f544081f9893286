"""Discord going wrong in the middle of a running game, through the real discord.py and
the fake Discord: what tests/test_e2e_faults.py, tests/test_e2e_permissions.py and the
thread and DM tests leave out.

The promises held to (README): "a server it really runs on (Discord accepts every
request; it says why when it cannot play)", "Nothing is lost: an action either fully
happens, is saved and is delivered, or not at all", and "Many channels play at once:
nothing one channel does may fail or slow another".
"""

from __future__ import annotations

import asyncio
import time

from bot.client import HauntBot
from bot.guild_settings import AI_PLAYS, GuildSettings
from bot.texts import say
from tests.conftest import BotFactory
from tests.e2e_helpers import game_components, latest_turn, open_and_start, to_move, use_first
from tests.fakediscord import FakeDiscord, FakeUser


async def _timed_game(fd: FakeDiscord, start: BotFactory,
                      name: str) -> tuple[HauntBot, int, dict[int, FakeUser]]:
    """A running two-player Cthulhu game on a server with turn timers."""
    channel = fd.add_channel(name)
    host, guest = fd.add_user("host"), fd.add_user("guest")
    bot = await start()
    settings = GuildSettings(remind_minutes=1, act_minutes=2, timer_end=AI_PLAYS)
    await bot.store.set_guild_settings(fd.guild_id, settings.to_dict())
    bot.sessions.settings.forget(fd.guild_id)  # written around the cache: read it anew
    await open_and_start(fd, channel, [host, guest], "cthulhu", seed=21)
    return bot, channel, {host.id: host, guest.id: guest}


async def _fall_due(bot: HauntBot) -> None:
    """Every timer's minute is up."""
    await bot.store.execute("UPDATE turn_timers SET due_at = ?", (time.time() - 1,))
    bot.timers.wake()


def _requests_to(fd: FakeDiscord, channel: int) -> int:
    return sum(1 for r in fd.requests if f"/channels/{channel}" in r)


async def test_a_deleted_game_channel_closes_its_game_and_stops_its_timers(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """A moderator deletes the channel a game is played in (Discord sends CHANNEL_DELETE):
    nothing can be shown there again, so the game ends at once, its turn timers with it,
    and nothing is owed, retried or played for it any more."""
    bot, channel, users = await _timed_game(fd, start_hauntkeeper, "doomed")
    table = await bot.store.load(channel)
    assert table is not None and table.id is not None
    assert await bot.store.timers_of(table.id)
    dms = {u.id: len(fd.dms(u)) for u in users.values()}
    await fd.delete_channel(channel)
    await fd.settle()

    assert await bot.store.load(channel) is None  # no open game there any more
    ended = await bot.store.load_latest(channel)
    assert ended is not None and ended.status == "over"
    assert ended.ended_reason == say("moderation.channel_gone")  # /game history says why
    assert ended.delivered_seq == ended.last_seq
    assert await bot.store.timers_of(table.id) == []
    asked = _requests_to(fd, channel)
    await _fall_due(bot)
    assert await bot.resume_games(ai_turns=True) == 0
    await fd.settle()
    assert _requests_to(fd, channel) == asked  # nothing more tried there
    assert {u.id: len(fd.dms(u)) for u in users.values()} == dms  # nor played by DM


async def test_a_channel_deleted_while_the_bot_was_away_closes_its_game_at_the_next_post(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """No CHANNEL_DELETE reaches a bot that was down: the first post there meets
    Discord's Unknown Channel (10003), and that closes the game just the same. The
    timer that made the post was the last: the turns do not go on being played there
    by the AI, one a timer."""
    bot, channel, _users = await _timed_game(fd, start_hauntkeeper, "gone-offline")
    table = await bot.store.load(channel)
    assert table is not None and table.id is not None
    fd.channels[channel].deleted = True  # while the bot is restarting: nobody tells it
    bot = await start_hauntkeeper()
    await _fall_due(bot)
    await fd.wait_until(lambda: any(e[2].get("code") == 10003 for e in fd.errors),
                        timeout=10, what="a post met the unknown channel")
    await fd.settle()
    assert await bot.store.load(channel) is None
    ended = await bot.store.load_latest(channel)
    assert ended is not None and ended.status == "over"
    assert await bot.store.timers_of(table.id) == []
    asked = _requests_to(fd, channel)
    await _fall_due(bot)
    assert await bot.resume_games(ai_turns=True) == 0
    await fd.settle()
    assert _requests_to(fd, channel) == asked


async def test_a_deleted_thread_holding_a_game_closes_it(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """A game played inside a thread: THREAD_DELETE closes it as CHANNEL_DELETE does."""
    parent = fd.add_channel("hall")
    host, guest = fd.add_user("host"), fd.add_user("guest")
    thread = fd.add_thread(parent, "side game", owner=host)
    bot = await start_hauntkeeper()
    await open_and_start(fd, thread, [host, guest], "cthulhu", seed=5)
    assert await bot.store.load(thread) is not None
    await fd.delete_channel(thread)
    await fd.settle()
    assert await bot.store.load(thread) is None
    ended = await bot.store.load_latest(thread)
    assert ended is not None and ended.status == "over"


async def test_no_player_can_close_a_game_as_if_its_channel_were_gone(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """The bot's own table action is not a button anyone can forge: a moderator's
    rewritten click naming it is refused privately, and the game plays on."""
    channel = fd.add_channel("forged")
    host, guest = fd.add_user("host", manage_channels=True), fd.add_user("guest")
    bot = await start_hauntkeeper()
    await open_and_start(fd, channel, [host, guest], "cthulhu", seed=6)
    before = await bot.store.load(channel)
    assert before is not None
    live = latest_turn(fd, channel)
    handle = await (await fd.forge(host, live, f"hk:{channel}:0:table.gone")).wait()
    assert len(handle.ephemeral_texts()) == 1
    assert await bot.store.load(channel) == before


async def _typed_move(fd: FakeDiscord, user: FakeUser, channel: int) -> list[str]:
    """The player's move typed as /cthulhu move (the first character and room offered):
    what a player does whose buttons are gone."""
    characters = await fd.autocomplete(user, channel, "cthulhu", "move", focused="character")
    assert characters
    character = characters[0]["value"]
    rooms = await fd.autocomplete(user, channel, "cthulhu", "move", focused="room",
                                  character=character)
    assert rooms
    done = await (await fd.slash(user, channel, "cthulhu", "move", character=character,
                                 room=rooms[0]["value"])).wait()
    return done.ephemeral_texts()


async def test_a_live_message_a_moderator_deleted_comes_back_with_the_next_move(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """Someone deletes the game's live message between two moves (Discord tells the bot
    with MESSAGE_DELETE); the next move, typed, posts it anew: the board, the turn's
    lines and the controls, once, and those controls play."""
    channel = fd.add_channel("tidy")
    host, guest = fd.add_user("host"), fd.add_user("guest")
    users = {host.id: host, guest.id: guest}
    bot = await start_hauntkeeper()
    await open_and_start(fd, channel, [host, guest], "cthulhu", seed=8)
    old = latest_turn(fd, channel)
    mover = users[to_move(old) or 0]
    fd._delete(fd.message(old.id))  # a moderator's delete
    await fd.settle()

    await _typed_move(fd, mover, channel)
    await fd.settle()
    table = await bot.store.load(channel)
    assert table is not None and table.delivered_seq == table.last_seq
    new = latest_turn(fd, channel)
    assert new.id != old.id and not fd.message(new.id).deleted
    assert new.attachments  # the board, uploaded again: the old upload went with its message
    assert game_components(new)
    nxt = users[to_move(new) or 0]
    handle = await use_first(fd, nxt, new)
    assert handle.ephemeral_texts() == []
    table = await bot.store.load(channel)
    assert table is not None and table.delivered_seq == table.last_seq


async def test_one_channels_rate_limit_and_outage_keep_no_other_channel_waiting(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """Discord rate-limits one channel's edits for seconds (a 429 on its route, which
    discord.py waits out), then fails its posts (503s): meanwhile a game in another
    channel plays and shows each move at once; the first channel's move, owed, is
    delivered once when Discord is back."""
    slow, quick = fd.add_channel("slow"), fd.add_channel("quick")
    a, b, c, d = (fd.add_user(n) for n in ("a", "b", "c", "d"))
    users = {u.id: u for u in (a, b, c, d)}
    bot = await start_hauntkeeper()
    await open_and_start(fd, slow, [a, b], "cthulhu", seed=9)
    await open_and_start(fd, quick, [c, d], "cthulhu", seed=10)

    held = fd.faults.rate_limited("PATCH", rf"/channels/{slow}/messages/\d+", times=1,
                                  retry_after=3.0)
    live = latest_turn(fd, slow)
    waiting = asyncio.create_task(use_first(fd, users[to_move(live) or 0], live))
    await fd.wait_until(lambda: held.hits == 1, timeout=5, what="the 429")
    loop = asyncio.get_running_loop()
    for _ in range(2):
        started = loop.time()
        other = latest_turn(fd, quick)
        shown = other.snapshot()
        handle = await use_first(fd, users[to_move(other) or 0], other)
        assert handle.ephemeral_texts() == []
        assert loop.time() - started < 1.5  # not the other channel's 3 s
        assert latest_turn(fd, quick).snapshot() != shown  # shown at once
    assert not waiting.done()  # the slow channel still waits its turn
    assert (await waiting).ephemeral_texts() == []
    await fd.settle()
    table = await bot.store.load(slow)
    assert table is not None and table.delivered_seq == table.last_seq  # shown after all

    # the ping to the next player, as Discord's outage goes on
    down = fd.faults.add("POST", rf"/channels/{slow}/messages", 503, times=10**6)
    live = latest_turn(fd, slow)
    told = await use_first(fd, users[to_move(live) or 0], live)
    # told once, the move stands: on the board, only its ping owed
    assert told.ephemeral_texts() == [say("delivery_rest_owed")]
    owed = await bot.store.load(slow)
    assert owed is not None and owed.delivered_seq < owed.last_seq
    other = latest_turn(fd, quick)
    assert (await use_first(fd, users[to_move(other) or 0], other)).ephemeral_texts() == []
    assert await bot.resume_games(ai_turns=False) == 1  # still down: still owed
    down.times = 0  # Discord is back
    assert await bot.resume_games(ai_turns=False) == 1
    await fd.settle()
    for channel in (slow, quick):
        table = await bot.store.load(channel)
        assert table is not None and table.delivered_seq == table.last_seq
    assert fd.nonce_repeats == 0


async def test_a_server_that_removed_the_bot_is_not_sent_a_request_a_retry(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """The bot is kicked mid-game (GUILD_DELETE): its games are kept for the grace
    period (tests/test_e2e_ops.py), but every post there would be refused (Discord
    answers 403 Missing Access in a server the bot is not in), and refused requests
    count towards Discord's invalid-request limit, which bans the bot's address for
    every server. So nothing is sent there while the bot is out, however often the
    retry and the timers come round; let back in, the owed move is shown once."""
    bot, channel, _users = await _timed_game(fd, start_hauntkeeper, "kicked")
    await fd.remove_bot()
    await fd.wait_until(lambda: bot.get_guild(fd.guild_id) is None, timeout=5,
                        what="the bot's cache forgot the server")
    before = await bot.store.load(channel)
    assert before is not None
    asked = _requests_to(fd, channel)
    await _fall_due(bot)  # the turn's end: the AI plays it, and its post is owed
    await fd.wait_until(lambda: not bot.timers._firing, timeout=5, what="the timer fired")
    await fd.settle()
    for _ in range(3):  # the 30 s retry, three times over
        await bot.resume_games(ai_turns=False)
    await fd.settle()
    assert _requests_to(fd, channel) == asked, fd.errors  # not one refused request
    kept = await bot.store.load(channel)
    assert kept is not None and kept.status == "active"  # the game is kept

    await fd.invite_bot()
    await fd.wait_until(lambda: bot.get_guild(fd.guild_id) is not None, timeout=5,
                        what="the bot back in the server")
    await bot.resume_games(ai_turns=False)
    await fd.settle()
    table = await bot.store.load(channel)
    assert table is not None and table.delivered_seq == table.last_seq
    assert _requests_to(fd, channel) > asked
