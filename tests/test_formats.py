"""Stored formats (bot/core/formats.py): an older game state or table envelope is
upgraded step by step before it is read, a newer one is refused, and the stored dict
itself never changes.

The real games are all still in their first format, so the steps are proven on the
test-only game of tests/helpers/format_game.py (two steps: a rename, then a field an
older state implies), through the store as a restarted bot reads it, and through an
undo point. tests/test_golden_states.py proves every release's real saved tables.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from bot import games, table_record
from bot import table as T
from bot.core.formats import FORMAT_KEY, Formats, UnknownFormat
from bot.core.seats import Seat
from bot.games.base import PlayerInfo
from bot.sessions import Sessions
from bot.store import ACTIVE, OVER, SqliteStore, Table
from bot.table_record import ENVELOPE_FORMATS
from tests.golden_states import CHANNEL, restarted_with
from tests.helpers import format_game
from tests.helpers.format_game import (
    GAME,
    KEY,
    STEP,
    FormatState,
    names_become_players,
    steps_become_counts,
)
from tests.test_sessions import RecordingOutlet

ANN, BOB = T.Actor(1, "ann"), T.Actor(2, "bob")
MOD = T.Actor(42, "Mod", moderator=True)

# One table's state as each format of the test game stored it: three steps taken by two
# seats (seat 0 took two, seat 1 one).
STORED = {
    0: {"names": ["ann", "bob"], "ai": [False, False], "steps": 3},
    1: {"players": ["ann", "bob"], "ai": [False, False], "steps": 3, FORMAT_KEY: 1},
    2: {"players": ["ann", "bob"], "ai": [False, False], "counts": [2, 1], FORMAT_KEY: 2},
}
NOW = FormatState(["ann", "bob"], [False, False], [2, 1])


# ---------------------------------------------------------------- the steps, one by one

def test_step_0_renames_names_to_players() -> None:
    old = {k: v for k, v in STORED[0].items() if k != FORMAT_KEY}
    assert names_become_players(copy.deepcopy(old)) == {
        k: v for k, v in STORED[1].items() if k != FORMAT_KEY}


def test_step_1_counts_each_seats_steps() -> None:
    old = {k: v for k, v in STORED[1].items() if k != FORMAT_KEY}
    assert steps_become_counts(copy.deepcopy(old)) == {
        k: v for k, v in STORED[2].items() if k != FORMAT_KEY}
    assert steps_become_counts({"players": ["a", "b", "c"], "steps": 7})["counts"] == [3, 2, 2]


@pytest.mark.parametrize("stored", sorted(STORED))
def test_a_state_of_every_format_loads_as_the_current_one(stored: int) -> None:
    assert GAME.load(STORED[stored]) == NOW


def test_each_step_runs_once_and_in_order() -> None:
    ran: list[int] = []

    def step(number: int) -> Any:
        def run(raw: dict[str, Any]) -> dict[str, Any]:
            assert raw["at"] == number  # the previous steps ran, and only they
            ran.append(number)
            return {**raw, "at": number + 1}
        return run

    formats = Formats(tuple(step(n) for n in range(4)))
    assert formats.upgraded({"at": 1, FORMAT_KEY: 1}, "a test dict") == {"at": 4}
    assert ran == [1, 2, 3]


# ---------------------------------------------------------------- writing and reading

def test_dump_writes_the_current_format() -> None:
    assert GAME.dump(NOW) == STORED[2]
    assert GAME.load(GAME.dump(NOW)) == NOW


def test_format_0_is_stored_as_no_key() -> None:
    """A real game still in its first format writes exactly what it wrote before formats
    existed (a rollback to that release still reads it), and reads a state of then."""
    for game in games.all_games().values():
        if game.state_formats.current == 0:
            state, _ = game.setup([PlayerInfo(f"p{i}") for i in range(game.min_players)],
                                  5, {})
            raw = game.dump(state)
            assert FORMAT_KEY not in raw and raw == state.to_dict()
            assert game.load(raw) == state


def test_an_envelope_of_format_0_learns_no_languages_yet() -> None:
    """Format 1 (issue 25) stores the server's and each seat's language: a table saved
    before knew neither, and reads as English until an interaction tells."""
    table = Table(channel_id=1, guild_id=None, kind="cthulhu", host_id=3, seed=4,
                  seats=[Seat("Ann", 3, language="zh-TW")])
    stored = table.envelope()
    assert stored[FORMAT_KEY] == ENVELOPE_FORMATS.current == 1
    old = {k: v for k, v in stored.items() if k not in (FORMAT_KEY, "guild_language")}
    old["seats"] = [{k: v for k, v in s.items() if k != "language"} for s in old["seats"]]
    loaded = Table.from_row(id=1, channel_id=1, guild_id=None, kind="cthulhu",
                            status="lobby", version=1, envelope=old)
    assert loaded.guild_language is None and loaded.seats[0].language is None
    assert loaded.envelope() == {**stored, "seats": [{**stored["seats"][0], "language": None}]}


def test_upgrading_leaves_the_stored_dict_untouched() -> None:
    """The table, its decoded memo and an undo point may share the stored dict."""
    for raw in STORED.values():
        before = copy.deepcopy(raw)
        GAME.load(raw)
        assert raw == before


def test_a_current_dict_without_a_key_is_read_as_it_is() -> None:
    raw = {"a": 1}
    assert Formats().upgraded(raw, "a test dict") is raw  # nothing copied: the common case


# ---------------------------------------------------------------- refusals

def test_a_newer_state_is_refused_with_its_formats_named() -> None:
    newer = {**STORED[2], FORMAT_KEY: 3}
    with pytest.raises(UnknownFormat, match=r"formattest state is in format 3.*up to 2"):
        GAME.load(newer)


@pytest.mark.parametrize("game", sorted(games.all_games()))
def test_a_real_game_refuses_a_state_from_a_later_release(game: str) -> None:
    real = games.get(game)
    with pytest.raises(UnknownFormat, match="newer release"):
        real.load({FORMAT_KEY: real.state_formats.current + 1})


@pytest.mark.parametrize("number", [-1, "1", 1.0, True, None])
def test_a_format_that_is_no_format_number_is_refused(number: object) -> None:
    with pytest.raises(UnknownFormat, match="not a format number"):
        GAME.load({**STORED[2], FORMAT_KEY: number})


def test_a_state_field_named_like_the_format_key_is_refused() -> None:
    with pytest.raises(ValueError, match="field named 'format'"):
        Formats().stamped({FORMAT_KEY: "a field of the game"}, "a test state")


def test_no_real_game_has_a_state_field_named_like_the_format_key() -> None:
    for game in games.all_games().values():
        assert FORMAT_KEY not in game.state_type.__dataclass_fields__  # type: ignore[attr-defined]


def test_a_step_that_returns_no_dict_fails_loudly() -> None:
    broken = Formats((lambda raw: None,))  # type: ignore[arg-type, return-value]
    with pytest.raises(TypeError, match="step 0 -> 1"):
        broken.upgraded({"a": 1}, "a test dict")


# ---------------------------------------------------------------- through the store

def _envelope(state: dict[str, Any], **more: Any) -> dict[str, Any]:
    return {"host_id": ANN.user_id, "seed": 1, "options": {},
            "seats": [{"name": "ann", "user_id": 1, "ai": False},
                      {"name": "bob", "user_id": 2, "ai": False}],
            "state": state, "ended_reason": "", **more}


async def _restarted(tmp_path: Path, envelope: dict[str, Any], kind: str = KEY) -> SqliteStore:
    """A store holding one table stored by an earlier release (its envelope's JSON as it
    was), opened as a restarted bot opens it."""
    return await restarted_with(tmp_path / "old.sqlite3",
                                {"kind": kind, "status": ACTIVE, "envelope": envelope})


@pytest.mark.parametrize("stored", sorted(STORED))
async def test_a_table_of_every_format_plays_on_after_a_restart(
        stored: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    format_game.register(monkeypatch)
    store = await _restarted(tmp_path, _envelope(STORED[stored]))
    try:
        sessions = Sessions(store, RecordingOutlet(), render=False, ai_chain=False)
        table = await store.load(CHANNEL)
        assert table is not None and T.game_state(table) == NOW
        # Seat 1 is to act (three steps taken); three more end the game. The first
        # save writes the state in format 2.
        for actor in (BOB, ANN, BOB):
            await sessions.act(CHANNEL, actor, STEP)
        final = await store.load_latest(CHANNEL)
        assert final is not None and final.status == OVER and final.state is not None
        assert final.state[FORMAT_KEY] == 2
        assert GAME.load(final.state).counts == [3, 3]
    finally:
        await store.close()


async def test_an_undo_point_of_an_older_format_restores(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The move kept the table as stored (format 0) as its undo point; /gm undo reads it
    back through the same upgrade, and the restored table plays on."""
    format_game.register(monkeypatch)
    store = await _restarted(tmp_path, _envelope(STORED[0]))
    try:
        sessions = Sessions(store, RecordingOutlet(), render=False, ai_chain=False)
        moved = (await sessions.act(CHANNEL, BOB, STEP)).table
        points = await store.undo_points(moved.id or 0)
        assert points and points[0].envelope["state"] == STORED[0]  # kept as stored
        outcome = await sessions.undo(CHANNEL, MOD, 1)
        assert T.game_state(outcome.table) == NOW
        assert outcome.table.state is not None and outcome.table.state[FORMAT_KEY] == 2
        await sessions.act(CHANNEL, BOB, STEP)
    finally:
        await store.close()


async def test_a_state_from_a_later_release_is_refused_and_left_as_stored(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    format_game.register(monkeypatch)
    newer = {**STORED[2], FORMAT_KEY: 3, "new_field": 1}
    store = await _restarted(tmp_path, _envelope(newer))
    try:
        sessions = Sessions(store, RecordingOutlet(), render=False, ai_chain=False)
        with pytest.raises(UnknownFormat):
            await sessions.act(CHANNEL, BOB, STEP)
        table = await store.load(CHANNEL)
        assert table is not None and table.version == 1 and table.state == newer
    finally:
        await store.close()


async def test_an_envelope_from_a_later_release_is_refused_on_load(tmp_path: Path) -> None:
    envelope = _envelope(None, **{FORMAT_KEY: ENVELOPE_FORMATS.current + 1})  # type: ignore[arg-type]
    store = await _restarted(tmp_path, envelope, kind="cthulhu")
    try:
        with pytest.raises(UnknownFormat, match="envelope of game"):
            await store.load(CHANNEL)
    finally:
        await store.close()


async def test_an_envelope_step_runs_on_every_load_and_undo_point(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Were the envelope to change (here, a made-up rename of `host_id` from `host`), its
    step would upgrade the stored tables as they load, and their undo points alike."""
    def host_renamed(raw: dict[str, Any]) -> dict[str, Any]:
        raw["host_id"] = raw.pop("host")
        return raw

    monkeypatch.setattr(table_record, "ENVELOPE_FORMATS", Formats((host_renamed,)))
    format_game.register(monkeypatch)
    old = _envelope(STORED[0])
    old["host"] = old.pop("host_id")
    store = await _restarted(tmp_path, old)
    try:
        table = await store.load(CHANNEL)
        assert table is not None and table.host_id == ANN.user_id
        assert table.envelope()[FORMAT_KEY] == 1
        sessions = Sessions(store, RecordingOutlet(), render=False, ai_chain=False)
        await sessions.act(CHANNEL, BOB, STEP)
        outcome = await sessions.undo(CHANNEL, MOD, 1)  # the point is the old envelope
        assert outcome.table.host_id == ANN.user_id and T.game_state(outcome.table) == NOW
    finally:
        await store.close()
