"""What is read back later, in the language of whoever reads it, through the real
discord.py and the fake Discord (issue 25: "Public posts use the server's language;
ephemeral answers and DMs use the user's own locale"): `/game log` and an opened game of
`/game history` answer privately, in the caller's locale; the story on the final post
is public, in the server's language, and quotes the game's lines in it too.

The Chinese is the marked stand-in of tests/helpers/pseudo_mirror.py, so every message
shows which language it was made in, whatever the real translations hold."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot import table as T
from bot.guild_settings import GuildSettings
from bot.locales import CHINESE, ENGLISH, speaking
from bot.paths import DATA
from bot.store import OVER, REMIND_TIMER, LoggedEvent
from bot.summary import SUMMARY_KIND, log_lines, logged_summary
from cogs.history import summary_text
from tests.conftest import BotFactory
from tests.e2e_helpers import latest_turn, play_by_click, to_move
from tests.fakediscord import FakeDiscord, FakeUser
from tests.helpers.pseudo_mirror import MARK, marked
from tests.test_e2e_timers import fall_due

MOVES = 500  # a Cthulhu game of two ends well within this


@pytest.fixture
def chinese(tmp_path: Path) -> Iterator[None]:
    with marked(tmp_path, DATA / "texts.yaml", DATA / "cthulhu" / "texts.yaml",
                DATA / "cthulhu" / "characters.yaml", DATA / "cthulhu" / "rooms.yaml"):
        yield


def test_the_story_quotes_each_line_in_the_language_it_is_told_in() -> None:
    """The story quotes the game's lines (its last fight, how it ended): told in Chinese,
    it quotes them as they were said in Chinese, English where they were not."""
    entries = [LoggedEvent(1, 1, 0.0, None, "public", "Ann fights.", "fight",
                           texts={CHINESE: "安戰鬥。"}),
               LoggedEvent(2, 2, 0.0, None, "public", "Bob waits.")]
    with speaking(CHINESE):
        quoted = [line.text for line in log_lines(entries)]
    assert quoted == ["安戰鬥。", "Bob waits."]
    with speaking(ENGLISH):
        assert [line.text for line in log_lines(entries)] == ["Ann fights.", "Bob waits."]


async def _texts(fd: FakeDiscord, user: FakeUser, channel: int, *path: str,
                 **options: object) -> list[str]:
    return (await (await fd.slash(user, channel, *path, **options)).wait(20)).ephemeral_texts()


async def test_log_history_and_the_story_read_in_each_readers_language(
        fd: FakeDiscord, start_hauntkeeper: BotFactory, chinese: None) -> None:
    fd.guilds[fd.guild_id].locale = "zh-TW"
    channel = fd.add_channel("haunted")
    ann = fd.add_user("ann", locale="en-US")
    bo = fd.add_user("bo", locale="zh-TW")
    bot = await start_hauntkeeper()
    await (await fd.slash(ann, channel, "game", "new", game="cthulhu", seed=5)).wait()
    await (await fd.slash(bo, channel, "game", "join")).wait()
    await (await fd.slash(ann, channel, "game", "start")).wait()

    actors = {ann.id: T.Actor(ann.id, "ann", language=ENGLISH, guild_language=CHINESE),
              bo.id: T.Actor(bo.id, "bo", language=CHINESE, guild_language=CHINESE)}
    table = await bot.sessions.table(channel)
    assert table is not None
    prompt = bot.sessions.prompt(table)
    rng = random.Random(5)
    for _ in range(MOVES):  # the rest straight through the sessions, as clicks would
        assert prompt is not None and prompt.user_id is not None
        outcome = await bot.sessions.act(channel, actors[prompt.user_id],
                                         rng.choice(prompt.options).action, version=prompt.version)
        if outcome.table.status == OVER:
            break
        prompt = outcome.post.prompt
    assert outcome.table.status == OVER
    await fd.settle()
    game_id = outcome.table.id or 0

    told = await logged_summary(bot.store, game_id)
    assert told is not None and told.kind == SUMMARY_KIND
    chinese_story = told.text_in(CHINESE)
    assert MARK in chinese_story and MARK not in told.text
    # the final post is public: the story in the server's language
    assert any(chinese_story in m.text for m in fd.channel_messages(channel))
    assert not any(told.text in m.text for m in fd.channel_messages(channel))
    # ...quoting the game's lines as they were said in it
    log = await bot.store.log(game_id, limit=10_000)
    fights = [e for e in log if e.kind == "fight"]
    if fights:
        assert fights[-1].text_in(CHINESE)[:60] in chinese_story  # the last (oldest first)

    # /game history opens it privately, in each caller's language
    result = await bot.store.result(game_id)
    assert result is not None
    assert await _texts(fd, ann, channel, "game", "history", game=str(game_id)) \
        == [summary_text(result)]
    [opened] = await _texts(fd, bo, channel, "game", "history", game=str(game_id))
    with speaking(CHINESE):
        assert opened == summary_text(result, chinese_story)

    # /game log, privately, in each caller's language
    [english_page] = (await _texts(fd, ann, channel, "game", "log"))[-1:]
    [chinese_page] = (await _texts(fd, bo, channel, "game", "log"))[-1:]
    assert MARK not in english_page and told.text.splitlines()[0] in english_page
    body = chinese_page.splitlines()[1:]  # under the page's own line
    assert body and all(MARK in line for line in body if line.strip()), chinese_page


async def _ended(fd: FakeDiscord, channel: int, host: FakeUser, guest: FakeUser) -> None:
    await (await fd.slash(host, channel, "game", "new", game="cthulhu", seed=5)).wait()
    await (await fd.slash(guest, channel, "game", "join")).wait()
    await (await fd.slash(host, channel, "game", "start")).wait()
    await (await fd.slash(host, channel, "game", "end")).wait()


async def test_a_replay_and_play_again_are_public_in_the_servers_language_not_the_clickers(
        fd: FakeDiscord, start_hauntkeeper: BotFactory, chinese: None) -> None:
    """An English server, a Chinese player asking: the replay's progress line and its
    post, and the new lobby's invite, are public, so English; a refusal stays theirs."""
    channel = fd.add_channel("haunted")
    ann = fd.add_user("ann", locale="en-US")
    bo = fd.add_user("bo", locale="zh-TW")
    await start_hauntkeeper()
    await _ended(fd, channel, ann, bo)
    end = latest_turn(fd, channel)

    asked = await (await fd.slash(bo, channel, "game", "replay")).wait(settle=False)
    assert asked.response is not None and not asked.response.ephemeral
    first = asked.response.history[0]["content"] if asked.response.history \
        else asked.response.content
    assert MARK not in first
    await fd.wait_until(lambda: fd.message(asked.response.id).attachments, timeout=60.0,
                        what="the replay's image")
    await fd.settle()
    shown = fd.message(asked.response.id)
    assert shown.content and MARK not in shown.content
    assert MARK not in (shown.descriptions[0] or "")  # its alt text too
    refused = await (await fd.slash(bo, fd.add_channel("quiet"), "game", "replay")).wait()
    assert refused.ephemeral_texts() and all(MARK in t for t in refused.ephemeral_texts())

    clicked = await (await fd.click(bo, end, next(c for c in end.custom_ids()
                                                  if "table.again" in c))).wait()
    lobby = clicked.response
    assert lobby is not None and not lobby.ephemeral and lobby.embeds
    assert MARK not in lobby.text and f"<@{ann.id}>" in lobby.text


async def test_a_turn_reminder_is_said_in_the_servers_language(
        fd: FakeDiscord, start_hauntkeeper: BotFactory, chinese: None) -> None:
    """A Chinese server: the timer's reminder pings the player in the channel, a public
    line, so in Chinese, though the timer fires outside any interaction."""
    fd.guilds[fd.guild_id].locale = "zh-TW"
    channel = fd.add_channel("timed")
    ann = fd.add_user("ann", locale="en-US")
    bo = fd.add_user("bo", locale="en-US")
    bot = await start_hauntkeeper()
    await bot.store.set_guild_settings(fd.guild_id, GuildSettings(remind_minutes=1).to_dict())
    bot.sessions.settings.forget(fd.guild_id)
    await (await fd.slash(ann, channel, "game", "new", game="cthulhu", seed=21)).wait()
    await (await fd.slash(bo, channel, "game", "join")).wait()
    await (await fd.slash(ann, channel, "game", "start")).wait()
    await fd.settle()
    before = {m.id for m in fd.channel_messages(channel)}
    await fall_due(bot, REMIND_TIMER)
    bot.timers.wake()
    await fd.wait_until(lambda: any(m.id not in before and m.pinged
                                    for m in fd.channel_messages(channel)),
                        timeout=10.0, what="the reminder")
    [reminder] = [m for m in fd.channel_messages(channel) if m.id not in before and m.pinged]
    lines = reminder.text.splitlines()
    assert len(lines) == 2 and all(MARK in line for line in lines), reminder.text


async def test_a_server_that_changes_its_language_mid_game_reads_the_next_post_in_it(
        fd: FakeDiscord, start_hauntkeeper: BotFactory, chinese: None) -> None:
    """English until a moderator sets `/gm settings language:` to Chinese; the next move's
    post, and the live message's edit, are in Chinese; the players' own stay theirs."""
    channel = fd.add_channel("haunted")
    ann = fd.add_user("ann", locale="en-US")
    bo = fd.add_user("bo", locale="en-US")
    mod = fd.add_user("mod", manage_channels=True)
    await start_hauntkeeper()
    await (await fd.slash(ann, channel, "game", "new", game="cthulhu", seed=4)).wait()
    await (await fd.slash(bo, channel, "game", "join")).wait()
    await (await fd.slash(ann, channel, "game", "start")).wait()
    users = {ann.id: ann, bo.id: bo}
    live = latest_turn(fd, channel)
    assert MARK not in live.text
    rng = random.Random(3)
    await play_by_click(fd, users[to_move(live) or 0], live, rng)
    assert MARK not in latest_turn(fd, channel).text

    saved = await (await fd.slash(mod, channel, "gm", "settings", language="zh-TW")).wait()
    assert saved.ephemeral_texts() and MARK not in saved.ephemeral_texts()[0]  # mod's own
    message = latest_turn(fd, channel)
    await play_by_click(fd, users[to_move(message) or 0], message, rng)
    after = latest_turn(fd, channel)
    assert MARK in after.text
    if after.id == message.id:  # the live message was edited in place: its new words
        assert MARK in fd.message(message.id).text
    for user in users.values():  # the DMs are still each player's own: English
        assert all(MARK not in m.text for m in fd.dms(user))
