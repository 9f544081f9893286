"""The click bucket across processes (issue 19): with several shard processes on one
PostgreSQL database a user's DM clicks land on shard 0 and their channel's elsewhere,
so a bucket per process let twice the clicks by. Each process keeps its own bucket and
counts every click it lets by in the store too; together they let the bucket's worth by.
SQLite has one process per file: its store counts nothing and the bucket is the limit."""

from __future__ import annotations

import pytest

from bot.store import SqliteStore
from cogs.click_limit import ClickLimit, Verdict
from tests.pg_pair import HeldStore

USER, OTHER = 7, 8


def _pair(now: list[float]) -> tuple[ClickLimit, ClickLimit]:
    """Two processes' buckets, on one clock (monotonic and wall alike, for the test)."""
    return (ClickLimit(clock=lambda: now[0], wall=lambda: now[0]),
            ClickLimit(clock=lambda: now[0], wall=lambda: now[0]))


async def test_two_processes_share_one_bucket(stores: tuple[HeldStore, HeldStore]) -> None:
    first, second = stores
    now = [3000.0]  # the start of a slot: nothing carried from the one before
    here, there = _pair(now)
    verdicts = []
    for n in range(here.clicks + 3):  # alternating, as DM and channel clicks would
        limit, store = (here, first) if n % 2 == 0 else (there, second)
        verdicts.append(await limit.admit(USER, store))
    assert verdicts.count(Verdict.GO) == here.clicks
    assert verdicts[:here.clicks] == [Verdict.GO] * here.clicks
    assert verdicts[here.clicks:here.clicks + 2] == [Verdict.REFUSE, Verdict.REFUSE]  # each
    assert verdicts[-1] is Verdict.QUIET  # process says it once, then keeps quiet
    assert await here.admit(OTHER, first) is Verdict.GO  # per user

    # The next slot: each process's own bucket is what lets clicks by again (the shared
    # count never refuses a user within the limit), and the new slot counts from zero.
    now[0] += here.seconds
    assert [await (here if n % 2 else there).admit(USER, first if n % 2 else second)
            for n in range(here.clicks + 1)] == [Verdict.GO] * here.clicks + [Verdict.REFUSE]
    now[0] += here.seconds * 2  # long quiet: the bucket is empty again everywhere
    assert [await here.admit(USER, first) for _ in range(here.clicks)] == \
        [Verdict.GO] * here.clicks


async def test_a_refused_shared_count_leaves_no_local_click(
        stores: tuple[HeldStore, HeldStore]) -> None:
    """Only applied clicks fill a bucket: a click the store refused does not count here."""
    first, second = stores
    now = [6000.0]
    here, there = _pair(now)
    for _ in range(here.clicks):
        assert await there.admit(USER, second) is Verdict.GO
    assert await here.admit(USER, first) is Verdict.REFUSE
    # this process's own bucket still has room for all five: the refusal left nothing
    assert [await here.admit(USER, None) for _ in range(here.clicks)] == \
        [Verdict.GO] * here.clicks
    assert await here.admit(USER, None) is not Verdict.GO


async def test_sqlite_counts_nothing_and_the_bucket_still_holds(store: SqliteStore) -> None:
    now = [100.0]
    limit = ClickLimit(clock=lambda: now[0], wall=lambda: now[0])
    verdicts = [await limit.admit(USER, store) for _ in range(limit.clicks + 2)]
    assert verdicts == [Verdict.GO] * limit.clicks + [Verdict.REFUSE, Verdict.QUIET]


@pytest.mark.parametrize("most", [1, 3])
async def test_the_store_count_alone_holds_at_most(stores: tuple[HeldStore, HeldStore],
                                                   most: int) -> None:
    first, second = stores
    counted = [await (first if n % 2 else second).count_click(USER, 50, most)
               for n in range(most + 2)]
    assert counted == [True] * most + [False, False]
