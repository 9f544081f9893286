"""An AI chain plays a few steps to a trip to the worker and saves each trip's steps
together (bot/worker.py's `ai_moves`, bot/sessions_ai.py's `_ai_plays`). The steps are the
AI's whichever trips take them: the same events in the same order, the same end, the
same moves to replay from. A trip works CHAIN_SECONDS at most, so a long chain makes
several saves and other channels' work takes turns with it. A step that fails keeps
the steps before it: saved, delivered, and the AI left to act for the next attempt.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from bot import replay
from bot import table as T
from bot import worker as worker_module
from bot.core.actions import Action
from bot.core.choices import game_only
from bot.sessions import Sessions
from bot.store import ACTIVE, SqliteStore, Table, open_store
from tests.test_sessions import CHANNEL, GUILD, HOST, SEED, RecordingOutlet

CLICKS = 12  # the host's moves, each answered by the AI chain of three AI seats


async def played(tmp_path: Path, name: str, chain_seconds: float,
                 monkeypatch: pytest.MonkeyPatch, kind: str = "evilbelow"
                 ) -> tuple[SqliteStore, list[list[str]], list[int], Table]:
    """The host against three AI seats, CLICKS moves; each click's delivered lines and
    saves, and the table at the end. The store is left open for the caller."""
    monkeypatch.setattr(worker_module, "CHAIN_SECONDS", chain_seconds)
    store = await open_store(tmp_path / f"{name}.sqlite3")
    outlet = RecordingOutlet()
    sessions = Sessions(store, outlet, render=False)
    saves = [0]
    real_save = store.save

    async def counted(*args: Any, **kwargs: Any) -> Table:
        saves[0] += 1
        return await real_save(*args, **kwargs)

    monkeypatch.setattr(store, "save", counted)
    await sessions.open(CHANNEL, GUILD, HOST, kind, SEED)
    for _ in range(3):
        await sessions.act(CHANNEL, HOST, Action(T.ADD_AI))
    table = (await sessions.act(CHANNEL, HOST, Action(T.START))).table
    lines: list[list[str]] = []
    counts: list[int] = []
    for _ in range(CLICKS):
        if table.status != ACTIVE:
            break
        seat = T.to_act_seat(table)
        assert seat is not None and table.seats[seat].is_human
        action = T.game_of(table).ai_action(T.game_state(table), seat)
        saves[0] = 0
        outcome = await sessions.act(CHANNEL, HOST, action, version=table.version)
        assert outcome.delivered and outcome.post is not None
        lines.append(list(outcome.post.lines))
        counts.append(saves[0])
        table = outcome.table
    return store, lines, counts, table


async def test_a_chain_saved_a_trip_at_a_time_plays_as_one_saved_a_step_at_a_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    one, one_lines, one_saves, one_end = await played(tmp_path, "steps", 0.0, monkeypatch)
    many, many_lines, many_saves, many_end = await played(tmp_path, "trips", 60.0,
                                                          monkeypatch)
    try:
        assert many_lines == one_lines  # every click: the same lines, in order
        assert one_end.state is not None and many_end.state is not None
        assert game_only(many_end.state) == game_only(one_end.state)
        assert any(n > 2 for n in one_saves)  # chains of several steps were played
        # a step to a save, against the move's save and one for its whole chain
        assert all(n <= 2 for n in many_saves) and sum(many_saves) < sum(one_saves)
        assert many_end.version < one_end.version
        for store, end in ((one, one_end), (many, many_end)):
            rebuilt = replay.rebuild(end, await store.moves(end.id or 0))
            assert rebuilt.exact, rebuilt.why
    finally:
        await one.close()
        await many.close()


async def test_a_trip_works_its_time_at_most(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No time at all: a step a trip, a save a step, as the chain did before trips."""
    store, _, saves, _ = await played(tmp_path, "bounded", 0.0, monkeypatch)
    await store.close()
    steps = [n - 1 for n in saves]  # the move's own save, then one a step
    assert max(steps) > 1


async def test_a_step_that_fails_keeps_the_steps_before_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """The third AI step raises: the steps of its trip before it are saved (one save)
    and delivered, the error is logged, and the AI is still to act in the store."""
    monkeypatch.setattr(worker_module, "CHAIN_SECONDS", 60.0)
    store = await open_store(tmp_path / "fails.sqlite3")
    try:
        sessions = Sessions(store, RecordingOutlet(), render=False)
        await sessions.open(CHANNEL, GUILD, HOST, "evilbelow", SEED)
        for _ in range(3):
            await sessions.act(CHANNEL, HOST, Action(T.ADD_AI))
        table = (await sessions.act(CHANNEL, HOST, Action(T.START))).table
        real = T.play_decided
        calls = [0]

        def third_fails(at: Table, seat: int, action: Action,
                        language: str | None = None) -> Any:
            calls[0] += 1
            if calls[0] == 3:
                raise RuntimeError("a broken AI step")
            return real(at, seat, action, language)

        monkeypatch.setattr(T, "play_decided", third_fails)
        with caplog.at_level(logging.ERROR):
            for _ in range(CLICKS):  # until a chain reaches the third AI step
                seat = T.to_act_seat(table)
                assert seat is not None and table.seats[seat].is_human
                action = T.game_of(table).ai_action(T.game_state(table), seat)
                before, version = calls[0], table.version
                outcome = await sessions.act(CHANNEL, HOST, action, version=table.version)
                assert outcome.delivered
                table = outcome.table
                if calls[0] >= 3:
                    break
        assert calls[0] == 3
        assert any("failed; what was saved is delivered" in r.getMessage()
                   and r.exc_info is not None for r in caplog.records)
        saved = await store.load(CHANNEL)
        # the move's save, then the steps of this click before the broken one, together
        assert saved is not None
        assert saved.version == version + 1 + (1 if before < 2 else 0)
        assert T.ai_to_act(saved)  # the chain is picked up again later
        monkeypatch.setattr(T, "play_decided", real)
        resumed = await sessions.resume(CHANNEL)
        assert resumed is not None and resumed.delivered
        again = await store.load(CHANNEL)
        assert again is not None and not T.ai_to_act(again)
    finally:
        await store.close()
