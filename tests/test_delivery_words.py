"""What the player reads after a move when Discord failed part of its delivery for now
(a 503): "Discord did not take the board just now" (data/texts.yaml `delivery_owed`)
only when the board really was not shown. When the live message's edit went through
and only what follows it failed (the next player's ping), the move is on the board, and
the line says that; the retry then sends the ping, once."""

from __future__ import annotations

import pytest

from bot.texts import say
from cogs import reply
from tests.conftest import BotFactory
from tests.e2e_helpers import latest_turn, open_and_start, to_move, turn_posts
from tests.fakediscord import FakeDiscord
from tests.fakediscord.faults import MESSAGES
from tests.test_e2e_crash import pings, press_move


async def test_a_ping_refused_after_the_board_showed_does_not_say_the_board_failed(
        fd: FakeDiscord, start_hauntkeeper: BotFactory,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reply, "PATIENCE", 0.0)  # the edit is a PATCH, the ping a POST
    channel = fd.add_channel("haunted")
    alice, bob = fd.add_user("alice"), fd.add_user("bob")
    by_id = {u.id: u for u in (alice, bob)}
    bot = await start_hauntkeeper()
    await open_and_start(fd, channel, [alice, bob], "cthulhu", 3)
    first = latest_turn(fd, channel)
    mover = by_id[to_move(first) or 0]
    before = [m.id for m in pings(fd, channel)]

    ping = fd.faults.add("POST", MESSAGES.replace(r"\d+", str(channel), 1), 503, times=1)
    handle = await (await press_move(fd, mover, first)).wait()
    assert ping.hits == 1  # the ping was the request refused
    assert turn_posts(fd, channel) == 2  # the live message's edit showed the move
    assert [m.id for m in pings(fd, channel)] == before  # its ping did not go
    texts = handle.ephemeral_texts()
    assert say("delivery_owed") not in texts, texts
    assert texts == [say("delivery_rest_owed")], texts

    assert await bot.resume_games(ai_turns=False) == 1  # the bot's retry sends the ping
    await fd.settle()
    [ping_sent] = [m for m in pings(fd, channel) if m.id not in before]  # once
    assert ping_sent.pinged == [to_move(latest_turn(fd, channel))]
    assert turn_posts(fd, channel) == 2  # the retry's edit is the same: nothing new shown
    table = await bot.store.load(channel)
    assert table is not None and table.delivered_seq == table.last_seq
