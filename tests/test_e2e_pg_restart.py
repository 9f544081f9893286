"""PostgreSQL restarted mid-game under the real bot (its own process, on its own
PostgreSQL server), against the fake Discord.

The move in flight when the server stops has reached Discord, but the bot cannot
record it: it stays owed. Clicks during the outage are answered with one calm line, and
the log says "unavailable" once, with no ERROR and no traceback. Once the server is
back the bot notices within a few seconds (its probe), not at the 30 s retry: the owed
delivery goes out under its own key (shown once), the store is marked, and the newest
controls work.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.client import RETRY_SECONDS
from bot.texts import say
from tests.e2e_helpers import latest_turn, press_move, to_move, turn_posts
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser
from tests.pg_server import PgServer
from tests.test_e2e_crash import BotProcess, click_first, two_seat_lobby, wait_for_turn_post
from tests.test_store_outage import own_pg as own_pg  # the fixture

BACK_WITHIN = RETRY_SECONDS / 2  # the owed post follows the store's return well before


@pytest.fixture
def pg_bot(fd: FakeDiscord, tmp_path: Path, own_pg: PgServer) -> Iterator[BotProcess]:
    process = BotProcess(fd, tmp_path, db=own_pg.url)
    yield process
    if process.proc is not None:
        process.proc.kill()


async def _click(fd: FakeDiscord, user: FakeUser, message: FakeMessage) -> list[str]:
    handle = await press_move(fd, user, message)
    await handle.wait(20, settle=False)
    await fd.settle(quiet=0.3, timeout=20)
    return handle.ephemeral_texts()


def _logged(bot: BotProcess, text: str) -> bool:
    return any(text in log.read_text() for log in bot.logs)


def _warnings(bot: BotProcess) -> list[str]:
    return [line for log in bot.logs for line in log.read_text().splitlines()
            if " WARNING " in line]


async def test_postgres_restarted_mid_game_owes_nothing_once_back(
        fd: FakeDiscord, pg_bot: BotProcess, own_pg: PgServer) -> None:
    bot = pg_bot
    seated = await two_seat_lobby(fd, bot, seed=4)
    channel, alice, by_id, lobby, start_id = (seated.channel, seated.alice, seated.by_id,
                                              seated.message, seated.start_id)
    await (await fd.click(alice, lobby, start_id)).wait(20, settle=False)
    first = await wait_for_turn_post(fd, channel, 1)
    posts = turn_posts(fd, channel)

    # The move's edit waits at Discord while PostgreSQL stops; then Discord makes it.
    hold = fd.hold_next_edit(channel, after=True)
    mover = by_id[to_move(first) or 0]
    moved = await press_move(fd, mover, first)
    await asyncio.wait_for(hold.reached.wait(), 20)
    await asyncio.to_thread(own_pg.pause)
    hold.release.set()
    await moved.wait(20, settle=False)
    await fd.settle(quiet=0.3, timeout=20)
    # Saved, and shown: only the delivery's mark (with the live message it left) is
    # owed to the store, so the mover hears the move is played, not that it waits.
    assert moved.ephemeral_texts() == [say("view.step_done")]
    assert turn_posts(fd, channel) == posts + 1  # Discord shows it already

    # Clicks during the outage: one calm line each, nothing changes.
    live = latest_turn(fd, channel)
    nxt = by_id[to_move(live) or 0]
    for _ in range(2):
        assert await _click(fd, nxt, live) == [say("errors.store_down")]
    assert turn_posts(fd, channel) == posts + 1

    repeats = fd.nonce_repeats
    await asyncio.to_thread(own_pg.resume)
    await fd.wait_until(lambda: _logged(bot, "store is back")
                        and _logged(bot, "tended 1 waiting games"),
                        timeout=BACK_WITHIN, what="the owed delivery retried once back")
    await fd.settle(quiet=0.5, timeout=BACK_WITHIN)
    assert turn_posts(fd, channel) == posts + 1  # the owed delivery, sent again, showed once
    unavailable = [w for w in _warnings(bot) if "unavailable" in w]
    assert len(unavailable) == 1, _warnings(bot)
    assert bot.errors() == []

    # The newest controls work, and nothing is owed any more: the next click plays.
    live = latest_turn(fd, channel)
    await click_first(fd, by_id[to_move(live) or 0], live)
    await fd.wait_until(lambda: turn_posts(fd, channel) == posts + 2, timeout=20,
                        what="the next move shown")
    assert fd.nonce_repeats >= repeats
    await bot.stop()
    assert bot.errors() == []
