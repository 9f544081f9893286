"""Undo points and the moderators' log in the SQLite store: written in the save's own
transaction, the newest few kept, dropped when an undo takes them back."""

from __future__ import annotations

import pytest

from bot.core.events import Event, to_player
from bot.core.seats import Seat
from bot.store import SqliteStore, StaleVersion, Table, UndoWrite
from bot.store.records import UNDO_KEPT


async def _game(store: SqliteStore) -> Table:
    table = Table(channel_id=10, guild_id=5, kind="cthulhu", host_id=7, seed=1,
                  seats=[Seat("Ann", 7)], status="active", state={"n": 0})
    return await store.create(table, [], 7, None)


async def _move(store: SqliteStore, table: Table, n: int, *,
                undo: UndoWrite | None = None, kind: str = "move") -> Table:
    table.state = {"n": n}
    write = undo if undo is not None else UndoWrite(keep=True, summary=f"move {n}")
    return await store.save(table, [Event(f"move {n}"), Event("secret", to_player(0))],
                            expected_version=table.version, actor_id=7,
                            action={"kind": kind, "args": {}}, undo=write)


async def test_points_are_kept_newest_first_and_trimmed(store: SqliteStore) -> None:
    table = await _game(store)
    for n in range(1, UNDO_KEPT + 6):
        table = await _move(store, table, n)
    points = await store.undo_points(table.id or 0, limit=100)
    assert len(points) == UNDO_KEPT
    assert [p.summary for p in points[:2]] == [f"move {UNDO_KEPT + 5}", f"move {UNDO_KEPT + 4}"]
    assert points[0].envelope["state"] == {"n": UNDO_KEPT + 4}  # the table before the move
    assert points[0].version == table.version - 1


async def test_a_refused_save_keeps_no_point(store: SqliteStore) -> None:
    table = await _game(store)
    stale = table.copy()
    await _move(store, table, 1)
    with pytest.raises(StaleVersion):
        await _move(store, stale, 2)
    assert [p.summary for p in await store.undo_points(table.id or 0)] == ["move 1"]


async def test_an_undo_drops_the_points_it_took_back(store: SqliteStore) -> None:
    table = await _game(store)
    for n in (1, 2, 3):
        table = await _move(store, table, n)
    points = await store.undo_points(table.id or 0)
    table = await _move(store, table, 0, undo=UndoWrite(drop_from=points[1].version),
                        kind="gm.undo")
    assert [p.summary for p in await store.undo_points(table.id or 0)] == ["move 1"]


async def test_the_moderators_log_has_one_line_per_tool_used(store: SqliteStore) -> None:
    table = await _game(store)
    table = await _move(store, table, 1)
    table = await _move(store, table, 2, kind="gm.pause")
    table = await _move(store, table, 3, kind="table.end")
    log = await store.moderator_log(table.id or 0)
    assert [(e.text, e.actor_id) for e in log] == [("move 2", 7), ("move 3", 7)]
