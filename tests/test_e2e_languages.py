"""The bot in two languages through the real discord.py and the fake Discord, which sends
each interaction's `locale` and `guild_locale` as Discord does: a server whose preferred
locale is Traditional Chinese, an English player and a Chinese one playing Cthulhu in
the House. The public posts (lobby, live message) are in the server's language; each
player's DMs, refusals and /secret in their own.

The Chinese here is a marked stand-in (tests/helpers/pseudo_mirror.py: the English with
a mark in front), so the test does not move as the real translations land, and every
message shows which language it was made in."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.locales import CHINESE, speaking
from bot.paths import DATA
from bot.texts import say
from tests.conftest import BotFactory
from tests.e2e_helpers import latest_turn, play_by_click, to_move, turn_messages, unlinked
from tests.fakediscord import FakeDiscord
from tests.helpers.pseudo_mirror import MARK, marked

MOVES = 6  # a short game: enough turns for both players to move and be refused


@pytest.fixture
def chinese(tmp_path: Path) -> Iterator[None]:
    with marked(tmp_path, DATA / "texts.yaml", DATA / "cthulhu" / "texts.yaml",
                DATA / "cthulhu" / "characters.yaml", DATA / "cthulhu" / "rooms.yaml"):
        yield


async def test_a_chinese_server_with_an_english_and_a_chinese_player(
        fd: FakeDiscord, start_hauntkeeper: BotFactory, chinese: None) -> None:
    fd.guilds[fd.guild_id].locale = "zh-TW"
    channel = fd.add_channel("haunted")
    ann = fd.add_user("ann", locale="en-US")
    bo = fd.add_user("bo", locale="zh-TW")
    await start_hauntkeeper()

    opened = await (await fd.slash(ann, channel, "game", "new", game="cthulhu",
                                   seed=4)).wait()
    lobby = opened.response
    assert lobby is not None and not lobby.ephemeral
    assert MARK in lobby.text  # the lobby is public: the server's language
    await (await fd.slash(bo, channel, "game", "join")).wait()
    refused = await (await fd.slash(bo, channel, "game", "start")).wait()  # the host starts
    with speaking(CHINESE):
        assert unlinked(refused.ephemeral_texts()[-1]) == say("errors.host_only",
                                                              host="ann")
    await (await fd.slash(ann, channel, "game", "start")).wait()

    first = latest_turn(fd, channel)
    assert MARK in first.text
    users = {ann.id: ann, bo.id: bo}
    for user in users.values():  # each reads their secret characters in their language
        dms = [m.text for m in fd.dms(user)]
        assert dms, f"{user.name} had no DM"
        assert all((MARK in text) == (user is bo) for text in dms), (user.name, dms)
    for user in users.values():  # /secret answers privately, in the caller's language
        secret = (await (await fd.slash(user, channel, "secret")).wait()).ephemeral_texts()
        assert secret and (MARK in secret[-1]) == (user is bo)

    rng = random.Random(3)
    refusals: dict[int, str] = {}
    for _ in range(MOVES):
        message = latest_turn(fd, channel)
        mover = to_move(message)
        if mover is None:
            break
        other = next(u for uid, u in users.items() if uid != mover)
        if other.id not in refusals:  # out of turn: refused privately, in their words
            tried = await play_by_click(fd, other, message, rng)
            refusals[other.id] = tried.ephemeral_texts()[-1]
        await play_by_click(fd, users[mover], message, rng)
        for post in turn_messages(fd, channel)[-2:]:
            assert MARK in post.text
    assert set(refusals) == {ann.id, bo.id}
    assert MARK not in refusals[ann.id] and MARK in refusals[bo.id]
    for user in users.values():
        assert all((MARK in m.text) == (user is bo) for m in fd.dms(user))
