"""What players of a Chinese server read, through the real discord.py and the fake
Discord: an AI seat added in its lobby takes one of the Chinese AI names
(data/texts.zh-TW.yaml's `ai_names`), and /stats names the favourite character in the
reader's language. A table saved with English AI names keeps them."""

from __future__ import annotations

import pytest

from bot.core.events import Event
from bot.games.betrayal import content as betrayal_content
from bot.games.cthulhu import content as cthulhu_content
from bot.games.evilbelow import content as evilbelow_content
from bot.locales import CHINESE, ENGLISH, speaking
from bot.store import OVER, GameResult, SeatResult, Store
from bot.texts import ai_names, say
from tests.conftest import BotFactory
from tests.fakediscord import FakeDiscord, FakeUser
from tests.test_store_contract import new_table


async def _lobby_with_ais(fd: FakeDiscord, host: FakeUser, channel: int, count: int) -> None:
    opened = await (await fd.slash(host, channel, "game", "new", game="cthulhu",
                                   seed=4)).wait()
    assert opened.response is not None
    add_ai = next(c for c in opened.response.custom_ids() if "lobby.ai" in c)
    for _ in range(count):
        await (await fd.click(host, opened.response, add_ai)).wait()


async def test_an_ai_seat_added_on_a_chinese_server_takes_a_chinese_name(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """README, Languages: a game's public posts read in the server's language; the AI
    seats' names are among them (the lobby, every turn), and data/texts.zh-TW.yaml has
    Chinese AI names. The host reads English: the seat's name follows the server."""
    fd.guilds[fd.guild_id].locale = "zh-TW"
    channel = fd.add_channel("haunted")
    ann = fd.add_user("ann", locale="en-US")
    bot = await start_hauntkeeper()
    await _lobby_with_ais(fd, ann, channel, 2)
    table = await bot.store.load(channel)
    assert table is not None
    with speaking(CHINESE):
        chinese = ai_names()
    assert [s.name for s in table.seats if s.ai] == chinese[:2]


async def test_an_ai_seat_follows_the_servers_chosen_language(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """`/gm settings language` sets the language of the server's public posts (README),
    over Discord's preferred locale: an AI seat added after it is named in it."""
    channel = fd.add_channel("haunted")
    ann = fd.add_user("ann", locale="en-US")
    mod = fd.add_user("mod", manage_channels=True)
    bot = await start_hauntkeeper()
    await (await fd.slash(mod, channel, "gm", "settings", language="zh-TW")).wait()
    await _lobby_with_ais(fd, ann, channel, 1)
    table = await bot.store.load(channel)
    assert table is not None
    with speaking(CHINESE):
        assert [s.name for s in table.seats if s.ai] == ai_names()[:1]


async def test_ai_seats_named_before_keep_their_names(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """Names are stored with the seats: an English server's AI seat is named in English,
    and keeps that name once the server reads Chinese; the next AI seat takes a Chinese
    one."""
    channel = fd.add_channel("haunted")
    ann = fd.add_user("ann", locale="zh-TW")
    mod = fd.add_user("mod", manage_channels=True)
    bot = await start_hauntkeeper()
    with speaking(ENGLISH):
        english = ai_names()
    with speaking(CHINESE):
        chinese = ai_names()
    opened = await (await fd.slash(ann, channel, "game", "new", game="cthulhu",
                                   seed=4)).wait()
    assert opened.response is not None
    add_ai = next(c for c in opened.response.custom_ids() if "lobby.ai" in c)
    await (await fd.click(ann, opened.response, add_ai)).wait()
    await (await fd.slash(mod, channel, "gm", "settings", language="zh-TW")).wait()
    await (await fd.click(ann, opened.response, add_ai)).wait()
    table = await bot.store.load(channel)
    assert table is not None
    assert [s.name for s in table.seats if s.ai] == [english[0], chinese[0]]


def _names(kind: str) -> list[str]:
    """Every character of the game, in the language spoken, in the data's order."""
    if kind == "betrayal":
        return [e.name for e in betrayal_content.get().explorers.values()]
    if kind == "cthulhu":
        return [c.name for c in cthulhu_content.characters()]
    return [c.name for c in evilbelow_content.characters()]


async def _finished(store: Store, guild: int, channel: int, user: FakeUser, kind: str,
                    character: str) -> None:
    """A finished game as the save that ends it keeps it: the character in English, as
    the story (told in English, the engine's truth) names it."""
    table = await store.create(new_table(channel, guild_id=guild, kind=kind), [Event("hi")],
                               user.id, None)
    table.status = OVER
    result = GameResult(table.id or 0, guild, channel, kind, 7, "", "ann won", "{}",
                        "**The story**",
                        [SeatResult(0, user.id, "ann", False, "heroes", True,
                                    character=character),
                         SeatResult(1, None, "Ada", True, "heroes", True)])
    await store.save(table, [Event("bye")], expected_version=1, actor_id=user.id,
                     action=None, result=result)


@pytest.mark.parametrize("kind", ["betrayal", "cthulhu", "evilbelow"])
async def test_stats_names_the_favourite_character_in_the_readers_language(
        fd: FakeDiscord, start_hauntkeeper: BotFactory, kind: str) -> None:
    """README, Languages: a player's private answers read in their own Discord app's
    language; /stats player is one. The results keep the character's English name (the
    story is told in English): a Chinese reader reads the character's Chinese name, an
    English reader the English one."""
    channel = fd.add_channel("table")
    ann = fd.add_user("ann", locale="zh-TW")
    bo = fd.add_user("bo", locale="en-US")
    bot = await start_hauntkeeper()
    with speaking(ENGLISH):
        english = _names(kind)[1]
    with speaking(CHINESE):
        chinese = _names(kind)[1]
    assert english != chinese
    for _ in range(2):
        await _finished(bot.store, fd.guild_id, channel, ann, kind, english)
    for reader, language, name in ((ann, CHINESE, chinese), (bo, ENGLISH, english)):
        handle = await (await fd.slash(reader, channel, "stats", "player",
                                       member=ann)).wait(20)
        (card,) = [m for m in handle.messages if m.attachments]
        with speaking(language):
            assert say("stats.favourite", character=name, times=2) in card.content, \
                card.content
