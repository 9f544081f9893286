"""Two bot processes, one PostgreSQL (issue 12): process A runs shard 0 of 2, B shard 1;
the game's guild is on shard 1, so B gets the channel's clicks and commands, and A the
traitor's DM clicks (DMs come on shard 0). A Betrayal game rigged to its haunt is played
by both, and B is killed (-9) while a channel click's delivery is in flight, then
started again. At the end nothing was applied twice (each of our actions moved the game
one version, the event log has no gap or repeat), nothing was lost (all delivered, the
edit Discord made but B never heard of made once), and no process logged an error."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from bot import games
from bot.core.actions import Action
from bot.games.betrayal import GAME
from bot.games.betrayal.haunting import sides
from bot.store import PostgresStore, Table
from tests.e2e_helpers import (
    game_components,
    latest_turn,
    open_and_start,
    seeding_as_moderator,
    to_move,
    turn_messages,
)
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser
from tests.fakediscord.gateway import shard_of
from tests.pg_server import PgServer
from tests.test_e2e_betrayal_haunt import dm_prompt, grown_house, play_action
from tests.test_e2e_crash import BotProcess, pings

DM_CLICKS_BEFORE = 2  # the traitor's DM clicks (process A) before the crash
DM_CLICKS_AFTER = 2  # ...and after B's restart
MAX_STEPS = 80  # a bound, should the game go another way than it does with seed 5
PACE = (4, 3.2)  # a user's clicks within seconds: under the bot's limit (5 in 3 s)


@pytest.fixture
async def fd() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord(guild_shard=(1, 2))
    server.slash = seeding_as_moderator(server)  # type: ignore[method-assign]
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


@pytest.fixture
async def store(pg_server: PgServer) -> AsyncIterator[PostgresStore]:
    """The test's own look at the shared database (a third client, as a tool would be)."""
    await pg_server.reset()
    opened = PostgresStore(pg_server.url)
    await opened.open()
    yield opened
    await opened.close()


@pytest.fixture
async def processes(fd: FakeDiscord, pg_server: PgServer, store: PostgresStore,
                    tmp_path: Path) -> AsyncIterator[tuple[BotProcess, BotProcess]]:
    a, b = (BotProcess(fd, tmp_path, db=pg_server.url, name=name,
                       args=("run", "--shards", shard, "--shard-count", "2"),
                       env={"HAUNTKEEPER_HEALTH_FILE": str(tmp_path / "heartbeat")})
            for name, shard in (("a", "0"), ("b", "1")))
    try:
        yield a, b
    finally:
        await asyncio.gather(a.stop(), b.stop())
    assert a.errors() == [] and b.errors() == []


async def loaded(store: PostgresStore, channel: int) -> Table:
    table = await store.load(channel)
    assert table is not None and table.state is not None
    return table


async def test_two_shard_processes_play_one_game_through_a_crash_once_each(
        fd: FakeDiscord, store: PostgresStore, processes: tuple[BotProcess, BotProcess],
        pg_server: PgServer) -> None:
    a, b = processes
    assert shard_of(fd.guild_id, 2) == 1  # the game's guild is B's
    channel = fd.add_channel("haunted")
    users = [fd.add_user(n) for n in ("ann", "ben", "cat", "dan")]
    await asyncio.gather(a.start(), b.start())
    assert sorted(fd.identified_shards) == [(0, 2), (1, 2)]
    for process, shard in ((a, 0), (b, 1)):  # each beats once its shards are connected
        beat = process.workdir / f"heartbeat-shards-{shard}"  # each its own beat
        await fd.wait_until(beat.exists, timeout=10, what=f"{process.name}'s heartbeat")
    await open_and_start(fd, channel, users, "betrayal", seed=5)
    await landed(fd, store, channel, 0, started=True)

    # The house built by AI play, rigged so the next End turn starts the haunt.
    table = await loaded(store, channel)
    betrayal = games.get("betrayal")
    table.state = betrayal.dump(grown_house(betrayal.load(table.state or {})))
    await store.save(table, [], expected_version=table.version, actor_id=None, action=None)
    by_seat = {i: next(u for u in users if u.id == s.user_id) for i, s in enumerate(table.seats)}
    mover = by_seat[GAME.load(table.state).turn.seat]
    await fd.slash(mover, channel, "betrayal", "end-turn")
    state = GAME.load((await landed(fd, store, channel, table.version)).state or {})
    traitor = sides.traitor(state)
    assert state.haunt is not None and traitor is not None
    villain = by_seat[traitor]

    pacer = Pacer()
    dm_clicks = channel_clicks = 0
    crashed = False
    for _ in range(MAX_STEPS):
        if dm_clicks >= DM_CLICKS_BEFORE + DM_CLICKS_AFTER and crashed:
            break
        table = await loaded(store, channel)
        state = GAME.load(table.state or {})
        seat = GAME.to_act(state)
        assert seat is not None and table.status != "over"
        action = GAME.ai_action(state, seat)
        if GAME.prompt_private(state, seat):
            await pacer.play(fd, villain, dm_prompt(fd, villain), action)  # A's, shard 0
            dm_clicks += 1
        elif dm_clicks >= DM_CLICKS_BEFORE and not crashed:
            await asyncio.sleep(PACE[1])  # this click must not be refused
            await crash_b_during(fd, store, b, by_seat[seat], channel, action)
            crashed = True
            channel_clicks += 1
        else:
            post = latest_turn(fd, channel)
            assert to_move(post) == by_seat[seat].id
            await pacer.play(fd, by_seat[seat], post, action)  # B's, shard 1
            channel_clicks += 1
        after = await landed(fd, store, channel, table.version)
        assert after.version == table.version + 1, (action, table.version, after.version)
    assert crashed and dm_clicks >= DM_CLICKS_BEFORE + DM_CLICKS_AFTER and channel_clicks

    # Who got what: every DM click reached A (shard 0), every guild interaction B.
    assert len(interactions(a, "guild=None")) >= dm_clicks  # (and any reveal of a choice)
    assert interactions(b, "guild=None") == []
    assert interactions(a, f"guild={fd.guild_id}") == []
    assert len(b.logs) == 2 and "tended 1 waiting games" in b.logs[1].read_text()
    final = await loaded(store, channel)
    assert final.delivered_seq == final.last_seq  # nothing owed
    assert await store.undelivered(final.id or 0) == []
    await no_gaps_or_repeats(pg_server, final)
    # Each delivery made its messages once: one turn message with live controls (an
    # older chapter's kept without), one ping standing, and no bot message in the
    # channel or the DMs twice under one delivery's nonce.
    live = [m for m in turn_messages(fd, channel) if game_components(m)]
    assert live == [latest_turn(fd, channel)] and len(pings(fd, channel)) == 1
    sent = [(m.channel_id, m.nonce) for m in fd.messages.values()
            if m.author_id == fd.bot_user.id and m.nonce and not m.deleted]
    assert len(sent) == len(set(sent))


class Pacer:
    """Keeps each user's clicks under the bot's per-user limit (cogs/click_limit.py; a
    subprocess cannot be patched as the in-process tests patch it), as a person would."""

    def __init__(self) -> None:
        self.clicks: dict[int, deque[float]] = {}

    async def play(self, fd: FakeDiscord, user: FakeUser, message: FakeMessage,
                   action: Action) -> None:
        recent = self.clicks.setdefault(user.id, deque())
        count, seconds = PACE
        now = time.monotonic()
        while recent and recent[0] < now - seconds:
            recent.popleft()
        if len(recent) >= count:
            await asyncio.sleep(recent[0] + seconds - now)
        recent.append(time.monotonic())
        await play_action(fd, user, message, action)


async def landed(fd: FakeDiscord, store: PostgresStore, channel: int, version: int, *,
                 started: bool = False) -> Table:
    """The game once an action after `version` is saved and delivered (the bots are
    other processes: their work is seen in the store and at Discord, not in tasks);
    `started`: once it has left the lobby."""
    async def saved_and_sent() -> None:
        while True:
            table = await store.load(channel)
            if table is not None and table.version > version \
                    and table.delivered_seq == table.last_seq \
                    and (table.state is not None or not started):
                return
            await asyncio.sleep(0.02)

    await asyncio.wait_for(saved_and_sent(), 20)
    await fd.settle(quiet=0.2, timeout=20)  # the interaction's own answer, after the post
    return await loaded(store, channel)


async def crash_b_during(fd: FakeDiscord, store: PostgresStore, b: BotProcess,
                         user: FakeUser, channel: int, action: Action) -> None:
    """B saves the click's move; its edit of the channel reaches Discord, whose answer
    never comes back: B is killed, started again, and delivers it again, the same."""
    hold = fd.hold_next_edit(channel, after=True)
    post = latest_turn(fd, channel)
    task = asyncio.create_task(play_action(fd, user, post, action))
    await asyncio.wait_for(hold.reached.wait(), 20)
    made = fd.message(post.id).content
    await b.kill()
    hold.release.set()
    task.cancel()  # its answer was B's to give; the click itself was saved
    await asyncio.gather(task, return_exceptions=True)
    owing = await loaded(store, channel)
    assert owing.delivered_seq < owing.last_seq  # saved, its delivery not marked
    await b.start()
    await fd.settle(quiet=0.5, timeout=20)
    assert fd.message(post.id).content == made


def interactions(process: BotProcess, where: str) -> list[str]:
    """The interactions a process answered (its one log line each), of a guild or DMs."""
    return [line for log in process.logs for line in log.read_text().splitlines()
            if "hauntkeeper.interactions: " in line and f" {where} " in line]


async def no_gaps_or_repeats(pg_server: PgServer, table: Table) -> None:
    """The event log as saved: seq 1..N, each once, versions never going back."""
    conn = await asyncpg.connect(pg_server.url)
    try:
        rows = await conn.fetch("SELECT seq, version FROM events WHERE game_id = $1"
                                " ORDER BY seq", table.id)
    finally:
        await conn.close()
    seqs = [r["seq"] for r in rows]
    assert seqs == list(range(1, len(seqs) + 1)) and seqs[-1] == table.last_seq
    versions = [r["version"] for r in rows]
    assert versions == sorted(versions) and versions[-1] <= table.version
