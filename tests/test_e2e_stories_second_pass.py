"""The stories of past games through the real discord.py and the fake Discord, second
pass: a Traditional Chinese server whose host played two explorers of a Betrayal game to
its end (every move the AI's choice); /game history lists and opens it, and /stats
counts it, in Chinese, naming the host as the host, not as their second seat."""

from __future__ import annotations

import re

from bot import table as T
from bot.core.actions import Action
from bot.locales import CHINESE, speaking
from bot.texts import say
from tests.conftest import BotFactory
from tests.fakediscord import FakeDiscord, FakeUser
from tests.test_story_endings import ai_plays_out

# The English list and label punctuation a Chinese line must not carry.
ENGLISH_MARKS = (", ", "; ")


async def _answer(fd: FakeDiscord, user: FakeUser, channel: int, *path: str,
                  **options: object) -> list[str]:
    handle = await (await fd.slash(user, channel, *path, **options)).wait(20)
    return [re.sub(r"</([^:>]+):\d+>", r"/\1", text) for text in handle.ephemeral_texts()]


async def test_a_chinese_servers_history_and_stats_of_a_two_explorer_game(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """RULES.md: seed 003 plays two explorers per person when few play; README: /game
    history and /stats answer in the reader's language. The history listed the game's
    players as "Hana, Hana (2nd), Ada, Boris" (English commas, the lobby's English
    "(2nd)"), its opened story named the host's second seat "**Hana (2nd)**", and the
    /stats card's words joined Chinese with "; "."""
    fd.guilds[fd.guild_id].locale = "zh-TW"
    bot = await start_hauntkeeper()
    channel = fd.add_channel("haunted")
    hana = fd.add_user("hana", locale="zh-TW")
    host = T.Actor(hana.id, "hana", language=CHINESE, guild_language=CHINESE)
    sessions = bot.sessions
    await sessions.open(channel, fd.guild_id, host, "betrayal", 3)
    await sessions.act(channel, host, Action(T.SECOND))
    for _ in range(2):
        await sessions.act(channel, host, Action(T.ADD_AI))
    started = await sessions.act(channel, host, Action(T.START))
    outcome = await ai_plays_out(sessions, channel, host, started)
    await fd.settle()
    game_id = outcome.table.id
    with speaking(CHINESE):
        second = say("lobby.second_name", name="").strip()

    (listed,) = await _answer(fd, hana, channel, "game", "history")
    entry = next(line for line in listed.splitlines() if "hana" in line)
    assert entry.count("hana") <= 2, entry  # among the players once, and maybe the winners
    (story,) = await _answer(fd, hana, channel, "game", "history", game=str(game_id))
    for text in (entry, story):
        assert "(2nd)" not in text and second not in text, text
    seat_lines = [line for line in story.splitlines() if line.startswith("•")]
    assert sum("**hana**" in line for line in seat_lines) == 2, story
    for mark in ENGLISH_MARKS:
        assert mark not in entry, entry

    handle = await (await fd.slash(hana, channel, "stats", "server")).wait(20)
    (card,) = [m for m in handle.messages if m.attachments]
    alt = card.descriptions[0] or ""
    for mark in ENGLISH_MARKS:
        assert mark not in alt and mark not in card.content, (alt, card.content)
