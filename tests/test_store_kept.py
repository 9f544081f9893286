"""A SQLite store's kept rows (bot/store/kept.py): an action's load answered from what
this process last read or wrote, never different from what the file holds.

The rules, on the `Kept` object alone (a read kept only when no write touched its game
while it was read; each write bringing its row up to date or forgetting it), then the
store: after any sequence of writes, and with writes racing the loads, a load equals a
read of the file; a kept load reads nothing; a failed save drops its row; a caller's
changes to its table reach no other load.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.core.events import Event
from bot.core.seats import Seat
from bot.store import LiveMessage, SqliteStore, StaleVersion, Table, open_store
from bot.store.kept import LOADS_PER_PASS, Kept, KeptRow

CHANNEL, OTHER, GUILD, HOST = 9_001, 9_002, 77, 55


def row(game_id: int = 1, version: int = 1, *, envelope: str = "{}", last: int = 1,
        delivered: int = 1, live: LiveMessage | None = None) -> KeptRow:
    return KeptRow((game_id, CHANNEL, GUILD, "cthulhu", "active", version, envelope, last,
                    delivered), live)


# ---------------------------------------------------------------- the rules

def test_a_read_is_kept_only_if_no_write_touched_its_game_meanwhile() -> None:
    kept = Kept()
    started = kept.now()
    kept.read(CHANNEL, row(), started)
    assert kept.get(CHANNEL) == row()

    kept = Kept()
    started = kept.now()
    kept.writing(1)  # a save of the game began while it was read: the read may be half
    kept.read(CHANNEL, row(), started)
    assert kept.get(CHANNEL) is None

    kept = Kept()
    kept.writing(1)  # under way before the read: its end brings the row up to date
    started = kept.now()
    kept.read(CHANNEL, row(), started)
    assert kept.get(CHANNEL) == row()
    kept.writing(1)
    kept.saved(1, 1, "active", '{"a": 1}', 2, 1, open_game=True)
    assert kept.get(CHANNEL) == row(version=2, envelope='{"a": 1}', last=2)

    kept = Kept()
    started = kept.now()
    kept.writing(2)  # another game's write changes nothing of this one
    kept.read(CHANNEL, row(), started)
    assert kept.get(CHANNEL) == row()

    kept = Kept()
    started = kept.now()
    kept.forget()  # a write that may change any game: nothing read meanwhile is kept
    kept.read(CHANNEL, row(), started)
    assert kept.get(CHANNEL) is None


def test_each_write_brings_its_row_up_to_date_or_lets_it_go() -> None:
    kept = Kept()
    kept.read(CHANNEL, row(), kept.now())
    kept.saved(1, 1, "active", '{"b": 2}', 3, 1, open_game=True)
    assert kept.get(CHANNEL) == row(version=2, envelope='{"b": 2}', last=3)
    live = LiveMessage(900, lines=["one"])
    kept.marked(1, 3, live)
    assert kept.get(CHANNEL) == row(version=2, envelope='{"b": 2}', last=3, delivered=3,
                                    live=live)
    kept.marked(1, 2, None)  # a late mark never moves the cursor back
    found = kept.get(CHANNEL)
    assert found is not None and found.game[8] == 3 and found.live == live
    newer = LiveMessage(901)
    kept.shown(1, newer)
    found = kept.get(CHANNEL)
    assert found is not None and found.live == newer
    kept.saved(1, 7, "active", "{}", 4, 3, open_game=True)  # not the version kept
    assert kept.get(CHANNEL) is None

    kept.read(CHANNEL, row(), kept.now())
    kept.saved(1, 1, "over", "{}", 2, 1, open_game=False)  # a load reads open games only
    assert kept.get(CHANNEL) is None
    kept.read(CHANNEL, row(), kept.now())
    kept.drop(1)
    assert kept.get(CHANNEL) is None and len(kept) == 0


def test_the_rows_are_bounded_by_bytes_and_count() -> None:
    kept = Kept(max_bytes=10_000, games=3)
    for n in range(5):
        kept.read(1000 + n, dataclasses.replace(row(game_id=n + 1)), kept.now())
    assert len(kept) == 3 and kept.get(1000) is None and kept.get(1004) is not None
    kept.read(2000, row(game_id=9, envelope="x" * 8_000), kept.now())
    assert kept.get(2000) is not None and len(kept) == 1  # the others made room
    kept.read(3000, row(game_id=10, envelope="x" * 20_000), kept.now())
    assert kept.get(3000) is None  # heavier than the whole budget: not kept


# ---------------------------------------------------------------- the store

@pytest.fixture
async def stores(tmp_path: Path) -> AsyncIterator[tuple[SqliteStore, SqliteStore]]:
    """The store under test, and another on the same file that only reads it (its
    rows forgotten before each read: what the file holds)."""
    first = await open_store(tmp_path / "kept.sqlite3")
    second = await open_store(tmp_path / "kept.sqlite3")
    assert isinstance(first, SqliteStore) and isinstance(second, SqliteStore)
    yield first, second
    await first.close()
    await second.close()


def table(channel: int = CHANNEL) -> Table:
    return Table(channel_id=channel, guild_id=GUILD, kind="cthulhu", host_id=HOST, seed=3,
                 seats=[Seat("Ann", HOST), Seat("Ada", None, ai=True)], status="active",
                 state={"n": 0})


def seen(t: Table | None) -> Any:
    """What a load tells: every stored field and the live message."""
    if t is None:
        return None
    return (t.id, t.channel_id, t.guild_id, t.kind, t.status, t.version, t.envelope(),
            t.last_seq, t.delivered_seq, t.shown)


async def in_file(reader: SqliteStore, channel: int) -> Any:
    reader.kept.forget()
    return seen(await reader.load(channel))


# One write to a channel's game: (kind, a number it uses).
Write = tuple[str, int]
WRITES = st.tuples(st.sampled_from(["save", "save_delivered", "mark", "mark_live", "live",
                                    "raw", "aside", "stale"]),
                   st.integers(0, 3))


async def write(store: SqliteStore, channel: int, what: Write, *,
                racing: bool = False) -> None:
    """`what` done to the channel's game through the store, as the bot would (`racing`:
    beside other writes of the game, so a save may lose its race)."""
    kind, n = what
    current = await store.load_latest(channel)
    assert current is not None and current.id is not None
    game = current.id
    if kind in ("save", "save_delivered", "stale"):
        current.state = {"n": n, "version": current.version}
        expected = current.version + (5 if kind == "stale" else 0)
        try:
            await store.save(current, [Event(f"e{n}")] * (n % 2 + 1),
                             expected_version=expected, actor_id=HOST, action=None,
                             delivered=kind == "save_delivered")
        except StaleVersion:
            assert kind == "stale" or racing
    elif kind == "mark":
        await store.mark_delivered(game, max(0, current.last_seq - n))
    elif kind == "mark_live":
        await store.mark_delivered(game, current.last_seq,
                                   LiveMessage(500 + n, "c", "t", f"h{n}", [f"l{n}"], "k"))
    elif kind == "live":
        await store.set_live(game, LiveMessage(600 + n, lines=["x"] * n, extras=n == 2))
    elif kind == "raw":  # a tool reaching past the interface
        await store.execute("UPDATE games SET delivered_seq = last_seq WHERE id = ?", (game,))
    else:  # writes a load reads nothing of
        await store.set_thread(game, "t", 700 + n)
        await store.add_notice(game, "n", str(n))
        await store.set_guild_settings(GUILD, {"n": n})


@given(st.lists(st.tuples(st.sampled_from([CHANNEL, OTHER]), WRITES), max_size=12))
@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
async def test_after_any_writes_a_load_is_what_the_file_holds(
        stores: tuple[SqliteStore, SqliteStore], steps: list[tuple[int, Write]]) -> None:
    store, reader = stores
    for channel in (CHANNEL, OTHER):
        old = await store.load(channel)
        if old is not None:  # a fresh game each example (the fixture's file is shared)
            old.status = "over"
            await store.save(old, [], expected_version=old.version, actor_id=None,
                             action=None)
        await store.create(table(channel), [Event("opened")], HOST, None)
        assert seen(await store.load(channel)) == await in_file(reader, channel)
    for channel, what in steps:
        await write(store, channel, what)
        for c in (CHANNEL, OTHER):
            assert seen(await store.load(c)) == await in_file(reader, c)


# A job racing the others: a load (None), the start's read of the games played last
# ("recent"), or a write, after so many turns of the loop.
JOBS = st.lists(st.tuples(st.none() | st.just("recent") | WRITES, st.integers(0, 5)),
                min_size=2, max_size=8)


@given(JOBS)
@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
async def test_loads_racing_writes_never_keep_a_stale_row(
        stores: tuple[SqliteStore, SqliteStore],
        jobs: list[tuple[Write | str | None, int]]) -> None:
    """Loads (and reads of the games played last, which keep their rows too) and writes
    of one game at once, each after a few turns of the loop that hypothesis picks: once
    they are done, a load is the file's."""
    store, reader = stores
    old = await store.load(CHANNEL)
    if old is not None:
        old.status = "over"
        await store.save(old, [], expected_version=old.version, actor_id=None, action=None)
    await store.create(table(), [Event("opened")], HOST, None)
    store.kept.forget()  # the loads below read the file, racing the writes

    async def job(what: Write | str | None, turns: int) -> None:
        for _ in range(turns):
            await asyncio.sleep(0)
        if what is None:
            await store.load(CHANNEL)
        elif what == "recent":
            await store.recently_played(10)
        else:
            assert not isinstance(what, str)
            await write(store, CHANNEL, what, racing=True)

    await asyncio.gather(*(job(what, turns) for what, turns in jobs))
    assert seen(await store.load(CHANNEL)) == await in_file(reader, CHANNEL)


def reads_of(store: SqliteStore, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The statements the store reads the file with from now on, as it reads them."""
    reads: list[str] = []
    real = store._read

    async def counted(sql: str, params: Any = ()) -> Any:
        reads.append(sql)
        return await real(sql, params)

    monkeypatch.setattr(store, "_read", counted)
    return reads


async def test_a_kept_load_reads_nothing_and_hands_out_its_own_table(
        stores: tuple[SqliteStore, SqliteStore], monkeypatch: pytest.MonkeyPatch) -> None:
    store, _ = stores
    await store.create(table(), [Event("opened")], HOST, None)
    first = await store.load(CHANNEL)  # read from the file, and kept
    assert first is not None
    reads = reads_of(store, monkeypatch)
    first.options["x"] = 1  # the caller's own table: another load does not see it
    first.seats[0].name = "Changed"
    assert first.state is not None
    first.state["n"] = 99
    again = await store.load(CHANNEL)
    assert again is not None and reads == []
    assert again.options == {} and again.seats[0].name == "Ann" and again.state == {"n": 0}
    assert again is not first and again.state is not first.state


async def test_the_games_played_last_are_kept_for_their_first_load(
        stores: tuple[SqliteStore, SqliteStore], monkeypatch: pytest.MonkeyPatch) -> None:
    """The start reads the games played last to draw their boards ahead
    (Sessions.warm_boards); their rows are kept as a load's are, so each game's first
    action after the start reads nothing from the file, and loads what the file holds."""
    store, reader = stores
    for channel in (CHANNEL, OTHER):
        old = await store.load(channel)
        if old is not None:
            old.status = "over"
            await store.save(old, [], expected_version=old.version, actor_id=None,
                             action=None)
        made = await store.create(table(channel), [Event("opened")], HOST, None)
        assert made.id is not None
        await store.set_live(made.id, LiveMessage(800 + channel % 7, lines=["l"]))
    store.kept.forget()  # as after a start: nothing kept
    recent = await store.recently_played(10)
    assert {t.channel_id for t in recent} >= {CHANNEL, OTHER}
    reads = reads_of(store, monkeypatch)
    for channel in (CHANNEL, OTHER):
        assert seen(await store.load(channel)) == await in_file(reader, channel)
    assert reads == []


async def test_a_save_that_fails_lets_its_row_go(
        stores: tuple[SqliteStore, SqliteStore]) -> None:
    store, reader = stores
    made = await store.create(table(), [Event("opened")], HOST, None)
    loaded = await store.load(CHANNEL)
    assert loaded is not None and made.id is not None
    # Another writer (a second process on the file, which the docs forbid) moves it on.
    other = await reader.load(CHANNEL)
    assert other is not None
    await reader.save(other, [Event("theirs")], expected_version=other.version,
                      actor_id=HOST, action=None)
    assert (await store.load(CHANNEL)).version == loaded.version  # type: ignore[union-attr]
    with pytest.raises(StaleVersion):  # the version check still holds
        await store.save(loaded, [Event("ours")], expected_version=loaded.version,
                         actor_id=HOST, action=None)
    assert seen(await store.load(CHANNEL)) == await in_file(reader, CHANNEL)


async def test_kept_loads_at_once_decode_a_few_in_each_pass_of_the_loop(
        stores: tuple[SqliteStore, SqliteStore], monkeypatch: pytest.MonkeyPatch) -> None:
    """Many channels loading at once (a burst of clicks): a kept load decodes at once,
    where a read of the file waits for its thread, so they take turns, a few in each
    pass of the event loop, and the loop is never held by all of them."""
    store, _ = stores
    channels = [CHANNEL + 100 + n for n in range(5 * LOADS_PER_PASS)]
    for channel in channels:
        await store.create(table(channel), [Event("opened")], HOST, None)
    for channel in channels:
        assert await store.load(channel) is not None  # read from the file, and kept
    decoded = [0]
    real = KeptRow.decoded

    def counted(self: KeptRow) -> Any:
        decoded[0] += 1
        return real(self)

    monkeypatch.setattr(KeptRow, "decoded", counted)
    loop = asyncio.get_running_loop()
    most, running = [0], [True]

    def each_pass() -> None:  # runs once in every pass of the loop
        most[0] = max(most[0], decoded[0])
        decoded[0] = 0
        if running[0]:
            loop.call_soon(each_pass)

    each_pass()
    loaded = await asyncio.gather(*(store.load(c) for c in channels))
    running[0] = False
    most[0] = max(most[0], decoded[0])
    assert [t.channel_id for t in loaded if t is not None] == channels
    assert store.kept.hits >= len(channels)
    assert 0 < most[0] <= LOADS_PER_PASS


def test_a_store_used_on_a_new_event_loop_is_not_held_by_the_old_ones_passes() -> None:
    """The passes belong to a loop: a loop that ends with its pass full (a test, a
    restart in one process) leaves no load of the next loop waiting for it."""
    kept = Kept()

    async def full_pass() -> None:
        async def take() -> None:
            for _ in range(LOADS_PER_PASS):
                await kept.turn()

        # Taken in the loop's last pass: it stops before the next, which would free them.
        asyncio.get_running_loop().create_task(take())

    first = asyncio.new_event_loop()
    first.run_until_complete(full_pass())
    first.close()
    second = asyncio.new_event_loop()
    try:
        second.run_until_complete(asyncio.wait_for(kept.turn(), 1))
    finally:
        second.close()
