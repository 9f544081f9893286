"""The DM tail (bot/courier.py) through Sessions on a SQLite file: a delivery is marked
once its post is made, its whispers still waiting on Discord go on behind it, and a
kill -9 before they went loses none of them.

What must hold: an action either fully happens, is saved and is delivered, or not at
all, even across kill -9; a late DM is delivered exactly once (sent again only under its
own key, which Discord's nonce check shows once), in order per player; and the
channel's next move does not wait for one player's DMs.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot import courier as courier_module
from bot import table as T
from bot.core.actions import Action
from bot.core.events import Event
from bot.sessions import Sessions
from bot.store import Store, Table
from tests.test_sessions import (
    BOB,
    CHANNEL,
    GUILD,
    HOST,
    KIND,
    RecordingOutlet,
    open_game,
    open_store,
)


class HeldOutlet(RecordingOutlet):
    """Discord with a player's DM channel rate limited: whispers to `held` users wait
    for `gate` (for ever, if a kill comes first). Every whisper asked for is kept with
    its key, sent or not, in the order asked."""

    def __init__(self, held: set[int] | None = None, only: set[str] | None = None) -> None:
        super().__init__()
        self.held = set(held or ())
        self.only = only  # hold only these keys (None: all of the held users')
        self.gate = asyncio.Event()
        self.asked: list[tuple[int, str]] = []
        self.sent: list[tuple[int, str]] = []

    async def whisper(self, table: Table, user_id: int, text: str, *, key: str = "") -> bool:
        self.asked.append((user_id, key))
        if user_id in self.held and (self.only is None or key in self.only):
            await self.gate.wait()
        self.sent.append((user_id, key))
        return await super().whisper(table, user_id, text, key=key)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "dm-tail.sqlite3"


@pytest.fixture(autouse=True)
def short_grace(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(courier_module, "WHISPER_GRACE", 0.05)


async def _lobby(sessions: Sessions) -> Table:
    return await open_game(sessions, BOB, start=False)


async def test_a_held_whisper_does_not_hold_the_mark_and_its_tail_closes_once_sent(
        db_path: Path) -> None:
    store = await open_store(db_path)
    outlet = HeldOutlet(held={HOST.user_id or 0})
    sessions = Sessions(store, outlet, render=False)
    try:
        await _lobby(sessions)
        outcome = await asyncio.wait_for(sessions.act(CHANNEL, HOST, Action(T.START)), 5)
        assert outcome.delivered and outcome.post is not None
        table = await store.load(CHANNEL)
        assert table is not None and table.delivered_seq == table.last_seq  # marked
        assert [t[0] for t in await store.dm_tails()] == [table.id]  # a tail is owed
        assert HOST.user_id not in [u for u, _ in outlet.sent]
        posts = len(outlet.posts)
        outlet.gate.set()
        assert await sessions.courier.tails_done(5)
        assert await store.dm_tails() == []
        host_keys = [k for u, k in outlet.sent if u == HOST.user_id]
        assert host_keys and len(host_keys) == len(set(host_keys))  # each once
        assert len(outlet.posts) == posts
    finally:
        await store.close()


async def test_a_kill_before_the_held_whisper_went_sends_it_at_the_next_start(
        db_path: Path) -> None:
    store = await open_store(db_path)
    outlet = HeldOutlet(held={HOST.user_id or 0})
    sessions = Sessions(store, outlet, render=False)
    await _lobby(sessions)
    await asyncio.wait_for(sessions.act(CHANNEL, HOST, Action(T.START)), 5)
    owed = [k for u, k in outlet.asked if u == HOST.user_id]
    assert owed and not [k for u, k in outlet.sent if u == HOST.user_id]
    # kill -9: the whisper never goes, the tail never closes
    for task in list(sessions.courier._tails.values()):
        task.cancel()
    await asyncio.gather(*sessions.courier._tails.values(), return_exceptions=True)
    await store.close()

    reopened = await open_store(db_path)
    again = HeldOutlet()
    restarted = Sessions(reopened, again, render=False)
    try:
        assert len(await reopened.dm_tails()) == 1
        assert await restarted.courier.resume_tails() == 1
        assert await restarted.courier.tails_done(5)
        # the host's whisper, under the key it was first asked under: Discord's nonce
        # check shows it once whatever got through before the kill
        assert [k for u, k in again.sent if u == HOST.user_id] == owed
        assert await reopened.dm_tails() == []
        assert await restarted.courier.resume_tails() == 0  # nothing twice
        assert again.posts == []  # the post was made before the kill: not again
    finally:
        await reopened.close()


async def test_a_players_later_whisper_waits_behind_their_earlier_one_and_no_one_else(
        db_path: Path) -> None:
    """Per player, in order: the second delivery's DM to the host goes after the first
    one's, which Discord held; Bob's goes at once."""
    store = await open_store(db_path)
    outlet = HeldOutlet(held={HOST.user_id or 0}, only={"first"})
    sessions = Sessions(store, outlet, render=False)
    try:
        table = await _lobby(sessions)
        host, bob = HOST.user_id or 0, BOB.user_id or 0
        first = asyncio.create_task(sessions.courier._whisper(table, [(host, "a", "first")]))
        await asyncio.sleep(0.01)
        second = asyncio.create_task(sessions.courier._whisper(
            table, [(host, "b", "second"), (bob, "c", "bob")]))
        await asyncio.sleep(0.05)
        assert outlet.sent == [(bob, "bob")]  # Bob's did not wait; the host's queue
        outlet.gate.set()
        await asyncio.gather(first, second)
        assert [k for u, k in outlet.sent if u == host] == ["first", "second"]
    finally:
        await store.close()


async def test_a_dm_tail_opens_with_the_mark_and_closes_only_past_the_last_delivered(
        any_store: Store) -> None:
    """Both backends: the tail's row is written with the mark (the first one kept),
    moved on when later deliveries were marked meanwhile, and gone once every whisper
    up to the last delivered event went."""
    table = T.new_table(KIND, CHANNEL, GUILD, HOST, 1)[0]
    created = await any_store.create(table, [Event("one"), Event("two")], HOST.user_id,
                                     {"kind": "lobby.open"})
    game = created.id or 0
    saved = await any_store.save(created, [Event("three"), Event("four")],
                                 expected_version=created.version, actor_id=HOST.user_id,
                                 action=None)
    await any_store.mark_delivered(game, saved.last_seq - 1, dm_from=saved.last_seq - 2)
    await any_store.mark_delivered(game, saved.last_seq, dm_from=saved.last_seq)
    assert await any_store.dm_tails() == [(game, CHANNEL, saved.last_seq - 2,
                                           saved.last_seq)]  # the first one kept
    events = await any_store.tail_events(game, saved.last_seq - 2, saved.last_seq)
    assert [e.seq for e in events] == [saved.last_seq - 2, saved.last_seq - 1,
                                       saved.last_seq]
    await any_store.whispered(game, saved.last_seq - 1)  # a later delivery still owes
    assert await any_store.dm_tails() == [(game, CHANNEL, saved.last_seq, saved.last_seq)]
    await any_store.whispered(game, saved.last_seq)
    assert await any_store.dm_tails() == []
