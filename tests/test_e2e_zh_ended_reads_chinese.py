"""A game ended early on a zh-TW server reads Chinese (README, Languages: "Public posts
use the server's language; ephemeral answers and DMs use the user's own locale").
Found by tests/test_process_playthrough_zh.py: the moderator's private answer to
/gm end, the host's to /game end, and /game status's "ended" field read "mod ended the
game." in English, though the line is in data/texts.zh-TW.yaml (`moderation.ended`):
the answer quoted the event's English text, and /game status the table's record,
which keeps the reason in English alone. And the heroes' private thread was named by
the team's key ("heroes — 遊戲 1")."""

from __future__ import annotations

from bot.games.betrayal import GAME
from bot.locales import CHINESE, speaking
from bot.texts import say
from tests.conftest import BotFactory
from tests.e2e_helpers import open_and_start
from tests.fakediscord import FakeDiscord, FakeUser
from tests.test_e2e_betrayal_haunt import grown_house
from tests.test_zh_tw_reads_chinese import english_in

ZH = "zh-TW"


async def _zh_game(fd: FakeDiscord, start_hauntkeeper: BotFactory
                   ) -> tuple[int, FakeUser, FakeUser]:
    """A Cthulhu game under way on a zh-TW server, its players' and moderator's apps in
    zh-TW: the channel, the host and the moderator."""
    fd.guilds[fd.guild_id].locale = ZH
    channel = fd.add_channel("haunted")
    ann, bob = fd.add_user("ann", locale=ZH), fd.add_user("bob", locale=ZH)
    mod = fd.add_user("mod", manage_channels=True, locale=ZH)
    await start_hauntkeeper()
    await open_and_start(fd, channel, [ann, bob], "cthulhu", 3)
    return channel, ann, mod


def _ended(name: str) -> str:
    with speaking(CHINESE):
        return say("moderation.ended", name=name)


async def test_gm_end_answers_the_moderator_in_chinese(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    channel, ann, mod = await _zh_game(fd, start_hauntkeeper)
    handle = await (await fd.slash(mod, channel, "gm", "end")).wait()
    assert handle.ephemeral_texts() == [_ended("mod")]
    status = await (await fd.slash(ann, channel, "game", "status")).wait()
    [answer] = status.messages
    assert answer.ephemeral and _ended("mod") in answer.text
    assert "ended the game" not in answer.text


async def test_game_end_answers_the_host_in_chinese(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    channel, ann, _ = await _zh_game(fd, start_hauntkeeper)
    handle = await (await fd.slash(ann, channel, "game", "end")).wait()
    assert handle.ephemeral_texts() == [_ended("ann")]


async def test_gm_log_tells_the_moderators_actions_in_chinese(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """/gm log lists what moderators did: each line was quoted in the English the store
    keeps beside its other languages ("mod ended the game.")."""
    channel, _, mod = await _zh_game(fd, start_hauntkeeper)
    await (await fd.slash(mod, channel, "gm", "end")).wait()
    log = await (await fd.slash(mod, channel, "gm", "log")).wait()
    [answer] = log.messages
    assert answer.ephemeral and _ended("mod") in answer.text, answer.text


async def test_the_heroes_thread_is_named_in_chinese(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """The haunt opens the heroes' private thread; on a zh-TW server it was named
    "heroes — 遊戲 1": the team's key stood in for its name."""
    fd.guilds[fd.guild_id].locale = ZH
    channel = fd.add_channel("haunted")
    users = [fd.add_user(n, locale=ZH) for n in ("ann", "ben", "cat", "dan")]
    bot = await start_hauntkeeper()
    await open_and_start(fd, channel, users, "betrayal", seed=5)
    table = await bot.store.load(channel)
    assert table is not None and table.state is not None
    table.state = GAME.dump(grown_house(GAME.load(table.state)))
    await bot.store.save(table, [], expected_version=table.version, actor_id=None, action=None)
    mover = next(u for u in users
                 if u.id == table.seats[GAME.load(table.state).turn.seat].user_id)
    await (await fd.slash(mover, channel, "betrayal", "end-turn")).wait()
    saved = await bot.store.load(channel)
    assert saved is not None and GAME.load(saved.state or {}).haunt is not None
    [thread] = fd.threads(channel)
    assert english_in([thread.name]) == []
    with speaking(CHINESE):
        assert thread.name == say("dm.thread_name", team=say("dm.team_heroes"), game=table.id)
