"""The live message through slash commands and buttons: two players' moves edit one
message, each turn passing pings the next player (the last ping deleted), and a
restarted bot process goes on editing the same message."""

from __future__ import annotations

import random

from tests.conftest import BotFactory
from tests.e2e_helpers import latest_turn, open_and_start, play_by_click, to_move, turn_posts
from tests.fakediscord import FakeDiscord, FakeMessage


def pings(fd: FakeDiscord, channel: int) -> list[FakeMessage]:
    return [m for m in fd.channel_messages(channel)
            if m.author_id == fd.bot_user.id and "it's your turn:" in m.content]


async def test_moves_edit_one_message_and_a_restart_edits_it_too(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    channel = fd.add_channel("live")
    alice, bob = fd.add_user("alice"), fd.add_user("bob")
    by_id = {u.id: u for u in (alice, bob)}
    await start_hauntkeeper()
    await open_and_start(fd, channel, [alice, bob], "cthulhu", seed=4)
    live = latest_turn(fd, channel)
    (ping,) = pings(fd, channel)
    assert f"<@{to_move(live)}>" in ping.content and str(live.id) in ping.content
    rng = random.Random(4)
    passed = 0
    for n in range(6):
        if n == 3:
            await start_hauntkeeper()  # a new process: the store names the live message
        mover = to_move(latest_turn(fd, channel))
        assert mover is not None
        posts = turn_posts(fd, channel)
        await play_by_click(fd, by_id[mover], latest_turn(fd, channel), rng)
        assert latest_turn(fd, channel).id == live.id  # edited, not posted anew
        assert turn_posts(fd, channel) == posts + 1
        now = pings(fd, channel)
        assert len(now) == 1  # one ping in the channel at a time
        if to_move(latest_turn(fd, channel)) != mover:  # the turn passed: a new ping
            assert now[0].id != ping.id and fd.message(ping.id).deleted
            assert f"<@{to_move(latest_turn(fd, channel))}>" in now[0].content
            passed += 1
        ping = now[0]
    assert passed >= 2 and len(fd.message(live.id).history) >= 6
