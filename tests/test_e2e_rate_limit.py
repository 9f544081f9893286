"""Slash commands that change a table count in the same per-user bucket as clicks
(issue 19: 11 of 12 rapid /game join|leave were applied). Through the real discord.py:
of 12 rapid joins and leaves at most the bucket's 5 apply, the first over the limit is
told to slow down and the rest of the burst get an answer that says nothing; a click
then is refused too (one bucket); another user and reading commands are free."""

from __future__ import annotations

import pytest

from bot import table as T
from bot.texts import say
from cogs import click_limit
from tests.conftest import BotFactory
from tests.e2e_helpers import latest_turn, open_and_start, press_move, to_move
from tests.fakediscord import FakeDiscord

BURST = 12


async def test_a_burst_of_join_and_leave_applies_at_most_the_bucket(
        fd: FakeDiscord, start_hauntkeeper: BotFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    channel = fd.add_channel("burst")
    host, guest, other = fd.add_user("host"), fd.add_user("guest"), fd.add_user("other")
    bot = await start_hauntkeeper()
    now = [100.0]
    limit = click_limit.ClickLimit(clock=lambda: now[0])
    monkeypatch.setattr(click_limit, "CLICKS", limit)
    opened = await (await fd.slash(host, channel, "game", "new", game="cthulhu")).wait()
    lobby = opened.messages[0]
    before = await bot.store.load(channel)
    assert before is not None

    answers = []
    for n in range(BURST):
        handle = await (await fd.slash(guest, channel, "game",
                                       "join" if n % 2 == 0 else "leave")).wait()
        answers.append(handle.ephemeral_texts())
    after = await bot.store.load(channel)
    assert after is not None
    applied = after.version - before.version
    assert applied == limit.clicks, answers
    assert answers[:limit.clicks] == [
        [say("lobby.joined" if n % 2 == 0 else "lobby.left", name="guest")]
        for n in range(limit.clicks)]
    assert answers[limit.clicks] == [say("commands.slow_down")]  # told once
    assert all(a == [] for a in answers[limit.clicks + 1:])  # the rest: quiet

    join = next(c for c in lobby.custom_ids() if c.endswith(T.JOIN))
    clicked = await (await fd.click(guest, lobby, join)).wait()
    assert clicked.ephemeral_texts() == [] and clicked.callback_type == 6  # the same bucket
    assert (await bot.store.load(channel)).version == after.version  # type: ignore[union-attr]

    free = await (await fd.slash(guest, channel, "game", "status")).wait()
    assert free.response is not None and free.response.ephemeral  # reading is not limited
    joined = await (await fd.slash(other, channel, "game", "join")).wait()
    assert joined.ephemeral_texts() == [say("lobby.joined", name="other")]  # per user

    now[0] += limit.seconds  # the window passed: the guest plays again
    again = await (await fd.slash(guest, channel, "game", "leave")).wait()
    assert again.ephemeral_texts() == [say("lobby.left", name="guest")]


async def test_clicks_that_only_show_something_are_free(
        fd: FakeDiscord, start_hauntkeeper: BotFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """cogs/click_limit.py: the bucket is "how fast one user may change a table", and "a
    command only reading stays free". A button that only shows its clicker something
    (My secrets, the first half of a two-step choice) reads as a reading command does:
    a player who looks at their secrets a few times still has their move."""
    channel = fd.add_channel("looking")
    users = [fd.add_user(n) for n in ("ann", "bob")]
    bot = await start_hauntkeeper()
    await open_and_start(fd, channel, users, "cthulhu", seed=3)
    limit = click_limit.ClickLimit(clock=lambda: 100.0)  # from now on, no time passes
    monkeypatch.setattr(click_limit, "CLICKS", limit)
    turn = latest_turn(fd, channel)
    mover = next(u for u in users if u.id == to_move(turn))
    secret = next(c for c in turn.custom_ids() if "view.secret" in c)
    for _ in range(limit.clicks + 1):
        shown = await (await fd.click(mover, turn, secret)).wait()
        assert shown.ephemeral_texts() != [say("commands.slow_down")]
    before = await bot.store.load(channel)
    assert before is not None
    moved = await press_move(fd, mover, turn)
    await moved.wait()
    after = await bot.store.load(channel)
    assert after is not None and after.version > before.version, moved.ephemeral_texts()
