"""A choice asked at an English table, read in Chinese by whoever comes to read it while
it waits, through the real discord.py and the fake Discord (issue 25): a Chinese player
handed the chooser's seat reads its question in Chinese, the server switched to Chinese
shows its buttons in Chinese at the next post, and the choice plays from either. The
English the table showed stays as it was. The first choice of a seeded Betrayal game
(where a tile goes) and of an IT: Evil Below one (where Pennywise goes); the real zh-TW
files are read, so a CJK character proves the Chinese."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot import table as T
from bot.client import HauntBot
from bot.core.choices import PendingChoice
from bot.locales import CHINESE, ENGLISH
from tests.conftest import BotFactory
from tests.e2e_helpers import latest_turn, open_and_start
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser

CJK = re.compile(r"[\u4e00-\u9fff]")
KINDS = ("betrayal", "evilbelow")
STEPS = 400  # decisions a seeded game plays looking for its first choice
SEEDS = {"betrayal": 1, "evilbelow": 1}  # a tile's spot, Pennywise's way: worded in Chinese


async def _asked(fd: FakeDiscord, bot: HauntBot, channel: int, kind: str,
                 users: list[FakeUser]) -> tuple[FakeUser, PendingChoice]:
    """A game of English players paused on a choice: who is to choose, and the choice."""
    await open_and_start(fd, channel, users, kind, seed=SEEDS[kind])
    by_id = {u.id: u for u in users}
    for _ in range(STEPS):  # each player plays as the AI would, as a click would send it
        table = await bot.sessions.table(channel)
        assert table is not None and table.state is not None
        if T.game_state(table).pending is not None:
            break
        seat = T.to_act_seat(table)
        assert seat is not None
        user = by_id[table.seats[seat].user_id or 0]
        action = T.game_of(table).ai_action(T.game_state(table), seat)
        await bot.sessions.act(channel, T.Actor(user.id, user.name), action,
                               version=table.version)
    await fd.settle()
    table = await bot.sessions.table(channel)
    assert table is not None and table.state is not None
    pending = T.game_state(table).pending
    assert pending is not None, "no choice asked"
    assert table.guild_language == ENGLISH and all(
        s.language in (None, ENGLISH) for s in table.seats)  # nobody read Chinese
    chooser = next(u for u in users if u.id == table.seats[pending.seat].user_id)
    return chooser, pending


def _choice_buttons(message: FakeMessage) -> list[dict[str, Any]]:
    return [c for c in message.flat_components() if ":choose~" in (c.get("custom_id") or "")]


async def _state(bot: HauntBot, channel: int) -> tuple[int, Any]:
    table = await bot.sessions.table(channel)
    assert table is not None
    return table.version, T.game_state(table)


async def _still_waits_then_plays(fd: FakeDiscord, bot: HauntBot, channel: int,
                                  pending: PendingChoice, who: FakeUser, message: FakeMessage,
                                  custom_id: str) -> None:
    """The choice still waits as it was asked (its English words kept in the state), and
    a click on one of its buttons plays it."""
    version, waiting = await _state(bot, channel)
    assert waiting.pending is not None and waiting.pending.prompt == pending.prompt  # English
    assert waiting.pending.labels == pending.labels
    await (await fd.click(who, message, custom_id)).wait()
    moved, after = await _state(bot, channel)  # the choice played
    assert moved > version and after.pending != waiting.pending


@pytest.mark.parametrize("kind", KINDS)
async def test_a_chinese_player_handed_the_choosers_seat_reads_the_choice_in_chinese(
        fd: FakeDiscord, start_hauntkeeper: BotFactory, kind: str) -> None:
    channel = fd.add_channel("haunted")
    ann, bo, cy = fd.add_user("ann"), fd.add_user("bo"), fd.add_user("cy")
    mod = fd.add_user("mod", manage_channels=True)
    newbie = fd.add_user("newbie", locale="zh-TW")
    bot = await start_hauntkeeper()
    chooser, pending = await _asked(fd, bot, channel, kind, [ann, bo, cy])
    asked = latest_turn(fd, channel)
    assert [c["label"] for c in _choice_buttons(asked)] == pending.labels  # English
    chinese_prompt, chinese_labels = pending.said(CHINESE)
    assert CJK.search(chinese_prompt) and chinese_labels != pending.labels

    # Paused, so the AI does not answer for the kicked chooser before the seat passes.
    await (await fd.slash(mod, channel, "gm", "pause")).wait()
    await (await fd.slash(mod, channel, "gm", "kick", player=chooser)).wait()
    await (await fd.slash(mod, channel, "gm", "seat", seat=str(pending.seat + 1),
                          member=newbie)).wait()
    await (await fd.slash(mod, channel, "gm", "resume")).wait()
    status = await (await fd.slash(newbie, channel, "game", "status")).wait()
    assert status.response is not None and status.response.ephemeral
    assert chinese_prompt in status.response.text and pending.prompt not in status.response.text
    english = await (await fd.slash(ann if chooser is not ann else bo, channel, "game",
                                    "status")).wait()
    assert english.response is not None and pending.prompt in english.response.text

    live = latest_turn(fd, channel)  # the channel's post: the server's English, as before
    assert [c["label"] for c in _choice_buttons(live)] == pending.labels
    assert not CJK.search(live.text)
    await _still_waits_then_plays(fd, bot, channel, pending, newbie, live,
                                  _choice_buttons(live)[0]["custom_id"])


@pytest.mark.parametrize("kind", KINDS)
async def test_a_server_switched_to_chinese_shows_the_waiting_choice_in_chinese(
        fd: FakeDiscord, start_hauntkeeper: BotFactory, kind: str) -> None:
    channel = fd.add_channel("haunted")
    ann, bo, cy = fd.add_user("ann"), fd.add_user("bo"), fd.add_user("cy")
    mod = fd.add_user("mod", manage_channels=True)
    bot = await start_hauntkeeper()
    chooser, pending = await _asked(fd, bot, channel, kind, [ann, bo, cy])
    assert [c["label"] for c in _choice_buttons(latest_turn(fd, channel))] == pending.labels

    await (await fd.slash(mod, channel, "gm", "settings", language="zh-TW")).wait()
    await (await fd.slash(mod, channel, "gm", "pause")).wait()
    await (await fd.slash(mod, channel, "gm", "resume")).wait()
    live = latest_turn(fd, channel)  # posted again: the server's language now
    buttons = _choice_buttons(live)
    assert [b["label"] for b in buttons] == pending.said(CHINESE)[1] != pending.labels
    await _still_waits_then_plays(fd, bot, channel, pending, chooser, live,
                                  buttons[-1]["custom_id"])
