"""/game history and /stats through the real discord.py and the fake Discord, on SQLite
and PostgreSQL: a game played to its end lists, opens on its story, and counts; the
server's stats name the haunts it has not seen; a game of another server, a garbage id
and a member with no games each get one short private line."""

from __future__ import annotations

import io
import re
from collections.abc import AsyncIterator

import pytest
from PIL import Image

from bot import games
from bot import table as T
from bot.client import HauntBot
from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.core.events import Event
from bot.store import OVER, GameResult, SeatResult, Store
from bot.texts import say
from cogs.history import read_game_id, summary_text
from tests.conftest import Backend
from tests.fakediscord import FakeDiscord, FakeUser
from tests.fakediscord.runner import start_bot, stop_bot
from tests.test_store_contract import new_table

SHOWN = (550, 350)


@pytest.fixture
async def bot(fd: FakeDiscord, backend: Backend) -> AsyncIterator[HauntBot]:
    if backend.server is not None:
        await backend.server.reset()
    hauntkeeper = HauntBot(db_path=backend.target, sync_commands=False)
    task = await start_bot(hauntkeeper, fd)
    yield hauntkeeper
    await stop_bot(hauntkeeper, task)


async def _finished(store: Store, guild: int, channel: int, user: FakeUser, *, won: bool,
                    kind: str = "betrayal", content: str = "", name: str = "Ann") -> int:
    """A finished game as the save that ends it keeps it."""
    table = await store.create(new_table(channel, guild_id=guild, kind=kind), [Event("hi")],
                               user.id, None)
    table.status = OVER
    result = GameResult(table.id or 0, guild, channel, kind, 7, content, f"{name} won",
                        "{}", f"**The story** of {name}",
                        [SeatResult(0, user.id, name, False, "traitor", won,
                                    character="Ox Bellows"),
                         SeatResult(1, None, "Ada", True, "heroes", not won)])
    await store.save(table, [Event("bye")], expected_version=1, actor_id=user.id,
                     action=None, result=result)
    return table.id or 0


async def _answer(fd: FakeDiscord, user: FakeUser, channel: int, *path: str,
                  **options: object) -> list[str]:
    """The private answers, commands written plainly (the bot makes them clickable)."""
    handle = await (await fd.slash(user, channel, *path, **options)).wait(20)
    return [re.sub(r"</([^:>]+):\d+>", r"/\1", text) for text in handle.ephemeral_texts()]


async def test_history_lists_opens_and_refuses(fd: FakeDiscord, bot: HauntBot) -> None:
    channel, elsewhere = fd.add_channel("table"), fd.add_channel("other")
    ann = fd.add_user("ann")
    other_guild = fd.add_guild("Other")
    mine = [await _finished(bot.store, fd.guild_id, channel, ann, won=n % 2 == 0)
            for n in range(10)]
    theirs = await _finished(bot.store, other_guild, channel + 99, ann, won=True)
    await _finished(bot.store, fd.guild_id, elsewhere, ann, won=True)
    # this channel's ten, newest first, in pages of eight
    (first,) = await _answer(fd, ann, channel, "game", "history")
    assert say("history.heading_here", page=1, pages=2) in first
    assert f"`#{mine[-1]}`" in first and f"`#{mine[1]}`" not in first
    (second,) = await _answer(fd, ann, channel, "game", "history", page=2)
    assert f"`#{mine[0]}`" in second
    (server,) = await _answer(fd, ann, channel, "game", "history", where="server")
    assert say("history.heading_server", page=1, pages=2) in server
    # one game opened: its story, privately
    result = await bot.store.result(mine[3])
    assert result is not None
    assert await _answer(fd, ann, channel, "game", "history", game=str(mine[3])) \
        == [summary_text(result)]
    # ... with its Replay under it (cogs/replay.py answers the button)
    opened = await (await fd.slash(ann, channel, "game", "history", game=str(mine[3]))).wait(20)
    (message,) = [m for m in opened.messages if m.ephemeral]
    assert message.custom_ids() == [f"hkr:1:{mine[3]}"]
    # refusals: another server's game, garbage, a page too far
    assert await _answer(fd, ann, channel, "game", "history", game=str(theirs)) \
        == [say("history.no_such_game", id=theirs)]
    for garbage in ("abc", "-4", "0", "9" * 24, "1e3"):
        (line,) = await _answer(fd, ann, channel, "game", "history", game=garbage)
        assert line == say("history.bad_id", text=garbage[:20]), garbage
    assert await _answer(fd, ann, channel, "game", "history", page=9) \
        == [say("history.no_such_page", pages=2)]
    empty = fd.add_channel("empty")
    assert await _answer(fd, ann, empty, "game", "history") == [say("history.none_here")]


async def test_stats_of_a_member_and_of_the_server(fd: FakeDiscord, bot: HauntBot) -> None:
    channel = fd.add_channel("table")
    ann, bob, nobody = fd.add_user("ann"), fd.add_user("bob"), fd.add_user("nobody")
    haunts = games.get("betrayal").content_names()
    seen = sorted(haunts)[0]
    for n in range(3):
        await _finished(bot.store, fd.guild_id, channel, ann, won=n < 2, content=seen)
    await _finished(bot.store, fd.guild_id, channel, bob, won=True, name="Bob")
    handle = await (await fd.slash(ann, channel, "stats", "player")).wait(20)
    (card,) = [m for m in handle.messages if m.attachments]
    _, data = card.attachments[0]
    image = Image.open(io.BytesIO(data))
    assert image.size[0] <= SHOWN[0] and image.size[1] <= SHOWN[1]
    alt = card.descriptions[0] or ""
    assert say("stats.member_subtitle", played=3, won=2) in alt
    assert say("stats.favourite", character="Ox Bellows", times=3) in card.content
    handle = await (await fd.slash(ann, channel, "stats", "player", member=bob)).wait(20)
    (card,) = [m for m in handle.messages if m.attachments]
    assert say("stats.member_subtitle", played=1, won=1) in (card.descriptions[0] or "")
    assert await _answer(fd, ann, channel, "stats", "player", member=nobody) \
        == [say("stats.none_member", name="nobody")]
    handle = await (await fd.slash(bob, channel, "stats", "server")).wait(20)
    (card,) = [m for m in handle.messages if m.attachments]
    text = card.content + (card.descriptions[0] or "")
    assert say("stats.content_count", name=haunts[seen], count=3) in text
    unseen_first = next(name for key, name in haunts.items() if key != seen)
    assert unseen_first in text  # a haunt the server has not seen yet


async def test_a_game_played_to_its_end_through_the_bot_is_in_history_and_stats(
        fd: FakeDiscord, bot: HauntBot, backend: Backend) -> None:
    """Through the bot's own sessions: a Cthulhu game, one human against three AI seats;
    the final live message ends with the story, which /game history opens again."""
    channel = fd.add_channel("table")
    ann = fd.add_user("ann")
    host = T.Actor(ann.id, "ann")
    sessions = bot.sessions
    await sessions.open(channel, fd.guild_id, host, "cthulhu", 5)
    for _ in range(3):
        await sessions.act(channel, host, Action(T.ADD_AI))
    outcome = await sessions.act(channel, host, Action(T.START))
    for _ in range(500):
        if outcome.table.status == OVER:
            break
        prompt = outcome.post.prompt
        outcome = await sessions.act(channel, host, prompt.options[0].action,
                                     version=prompt.version)
    assert outcome.table.status == OVER
    await fd.settle()
    result = await bot.store.result(outcome.table.id or 0)
    assert result is not None and result.seats[0].user_id == ann.id
    live = [m for m in fd.channel_messages(channel) if result.summary.split("\n")[0] in
            m.text]
    assert live, "the final post tells the story"
    assert await _answer(fd, ann, channel, "game", "history", game=str(result.game_id)) \
        == [summary_text(result)]
    handle = await (await fd.slash(ann, channel, "stats", "player")).wait(20)
    assert [m for m in handle.messages if m.attachments]


def test_a_game_number_is_read_strictly() -> None:
    assert read_game_id("12") == 12 and read_game_id("#12") == 12
    for bad in ("", "12a", "+1", "0x1", "١٢"):
        with pytest.raises(IllegalAction):
            read_game_id(bad)
