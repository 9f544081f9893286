"""A release's saved games still play: every golden table of every release
(tests/golden/<release>/, made by tests/golden_states.py) loads through the real store
as a restarted bot loads it, and plays on.

Why: a table lives in the store across upgrades, and so do its undo points. A state
field renamed or added without its upgrade step (bot/core/formats.py) fails here, on the
saved tables of every release since, in the situation that holds it: a lobby, a game
under way, a haunt, a fight or a later rumble, a pending choice, a finished game.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import renderers
from bot import games
from bot import table as T
from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.sessions import Sessions
from bot.store import ACTIVE, LOBBY, OVER, SqliteStore, Table
from bot.table_record import ENVELOPE_FORMATS
from bot.version import version
from tests.golden_states import (
    CHANNEL,
    ENVELOPE,
    GOLDEN,
    MODERATOR,
    VARIANTS,
    current_shapes,
    holder,
    human_to_act,
    play_step,
    recorded_shapes,
    restarted_with,
    sessions_on,
    situations,
)

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
PLAY_ON = 10  # decisions played after loading: several turns, through the real store

FILES = sorted(GOLDEN.glob("*/*.json"))


def _golden(path: Path) -> dict[str, Any]:
    golden: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    assert golden["release"] == path.parent.name
    assert path.name == f"{golden['variant']}-{golden['situation']}.json"
    return golden


def _ids(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


ACTIVE_FILES = [p for p in FILES if _golden(p)["status"] == ACTIVE]


async def _loaded(store: SqliteStore, golden: dict[str, Any]) -> Table:
    table = await (store.load_latest(CHANNEL) if golden["status"] == OVER
                   else store.load(CHANNEL))
    assert table is not None and table.status == golden["status"]
    return table


def _drawn(table: Table) -> None:
    """The board and its alt text, as a post after loading would show them."""
    state = T.game_state(table)
    assert renderers.render_public(table.kind, state).startswith(PNG_MAGIC)
    assert renderers.describe_public(table.kind, state).strip()


def _takes_a_legal_action(table: Table) -> None:
    """Every seat's options are computed; the seat to act has some, and the AI picks one
    of them (a seat acting out of turn only has its own)."""
    game, state = T.game_of(table), T.game_state(table)
    seat = game.to_act(state)
    assert seat is not None
    options = game.options(state, seat)
    assert options, "the seat to act has no legal option"
    for other in T.out_of_turn_seats(table):
        game.options(state, other)
    assert game.ai_action(state, seat) in [o.action for o in options]


async def _plays_on(sessions: Sessions, table: Table) -> Table:
    for _ in range(PLAY_ON):
        if table.status != ACTIVE:
            break
        _takes_a_legal_action(table)
        table = await play_step(sessions, table)
    return table


@pytest.mark.parametrize("path", FILES, ids=_ids)
async def test_a_golden_table_loads_and_plays_on(path: Path, tmp_path: Path) -> None:
    golden = _golden(path)
    store = await restarted_with(tmp_path / "restarted.sqlite3", golden)
    try:
        sessions = sessions_on(store)
        table = await _loaded(store, golden)
        if table.status == LOBBY:
            assert table.state is None
            host = T.Actor(table.host_id, table.seats[0].name)
            table = (await sessions.act(CHANNEL, host, Action(T.START))).table
            assert table.status == ACTIVE
        game, state = T.game_of(table), T.game_state(table)
        assert game.load(game.dump(state)) == state  # it saves and loads again as it is
        _drawn(table)
        if table.status == OVER:
            assert game.is_over(state) and game.to_act(state) is None
            assert all(game.options(state, seat) == [] for seat in range(len(table.seats)))
            assert game.out_of_turn(state) == []
            with pytest.raises(IllegalAction):
                await sessions.act(CHANNEL, MODERATOR, Action("anything"))
            return
        table = await _plays_on(sessions, table)
        _drawn(table)
    finally:
        await store.close()


async def _a_move_that_goes_on(sessions: Sessions, table: Table) -> Table:
    """The human's move as `play_step` takes it, unless it ends the game (an undo point
    is kept only for a move in a running game): then another legal one. The fight's
    reveal turns up an attack that breaks a Loser's last Bravery, and the cards it takes
    no longer wait on a question (tests/test_pointless_choices.py)."""
    game, state = T.game_of(table), T.game_state(table)
    seat = T.to_act_seat(table)
    assert seat is not None
    tried = [game.ai_action(state, seat), *(o.action for o in game.options(state, seat))]
    action = next(a for a in tried if not game.is_over(game.apply(state, seat, a)[0]))
    outcome = await sessions.act(CHANNEL, holder(table, seat), action, version=table.version)
    return outcome.table


@pytest.mark.parametrize("path", ACTIVE_FILES, ids=_ids)
async def test_an_undo_point_of_a_golden_table_restores(path: Path, tmp_path: Path) -> None:
    """A player's move keeps the table as stored (the golden row, verbatim) as its undo
    point; /gm undo reads it back through the same upgrades, and play goes on."""
    golden = _golden(path)
    store = await restarted_with(tmp_path / "restarted.sqlite3", golden)
    try:
        sessions = sessions_on(store)
        table = await _loaded(store, golden)
        assert human_to_act(table), "a golden game under way waits for a human"
        expected = T.game_of(table).dump(T.game_state(table))
        moved = await _a_move_that_goes_on(sessions, table)
        points = await store.undo_points(moved.id or 0)
        assert points[0].envelope == golden["envelope"]
        restored = (await sessions.undo(CHANNEL, MODERATOR, 1)).table
        assert restored.version == moved.version + 1 and restored.status == ACTIVE
        assert T.game_of(restored).dump(T.game_state(restored)) == expected
        _takes_a_legal_action(restored)
        await play_step(sessions, restored)
    finally:
        await store.close()


def test_this_release_has_golden_states_of_every_game() -> None:
    """Each release keeps its own saved tables: every game and edition, every situation
    (make them with `python -m tests.golden_states` when the version changes)."""
    folder = GOLDEN / version()
    assert folder.is_dir(), f"no golden states of release {version()}: run " \
                            "`python -m tests.golden_states`"
    kept = {p.stem for p in folder.glob("*.json")}
    wanted = {f"{v.name}-{s}" for v in VARIANTS for s in situations(v)}
    assert wanted <= kept, f"missing: {sorted(wanted - kept)}"


def test_every_game_and_edition_has_a_golden_variant() -> None:
    """A new game, or a new edition of one (its `expansion` choice, past the first, the
    default), needs its golden tables too (tests/golden_states.py, VARIANTS)."""
    for key, game in games.all_games().items():
        kept = [v for v in VARIANTS if v.kind == key]
        assert kept, f"{key} has no golden variant"
        offered = [value for value, _ in game.setup_choices().get("expansion", [])]
        covered = {v.options.get("expansion", offered[0] if offered else "") for v in kept}
        assert set(offered) <= covered, f"{key}: no golden tables of {set(offered) - covered}"


def _state_formats(kind: str) -> list[int]:
    """The formats of `kind`'s states among the golden tables of every release."""
    formats = games.get(kind).state_formats
    return [formats.format_of(g["envelope"]["state"], "a golden state")
            for g in map(_golden, FILES)
            if g["kind"] == kind and g["envelope"]["state"] is not None]


def test_every_upgrade_step_is_exercised_by_a_golden_table() -> None:
    """Step n runs on every golden state of format n or older: each step of each game,
    and of the envelope, has at least one."""
    for key, game in games.all_games().items():
        kept = _state_formats(key)
        for number in range(game.state_formats.current):
            assert any(f <= number for f in kept), f"{key}: no golden state runs step {number}"
    envelopes = [ENVELOPE_FORMATS.format_of(_golden(p)["envelope"], "a golden envelope")
                 for p in FILES]
    for number in range(ENVELOPE_FORMATS.current):
        assert any(f <= number for f in envelopes), f"no golden envelope runs step {number}"


def test_a_changed_state_shape_comes_with_a_new_format() -> None:
    """A state's shape (every field of its dataclasses, with its type) is recorded per
    format in tests/golden/shapes.json. A field added, renamed, removed or retyped
    changes the shape: it needs an upgrade step (so an older release refuses the new
    state instead of misreading it) and the new format's shape recorded
    (`python -m tests.golden_states --shapes`, which never rewrites a recorded one)."""
    ledger = recorded_shapes()
    for key, (number, now) in current_shapes().items():
        kept = ledger.get(key, {})
        assert str(number) in kept, (
            f"{key}: the shape of format {number} is not recorded: "
            "run `python -m tests.golden_states --shapes`")
        changed = sorted(set(kept[str(number)]) ^ set(now))
        assert not changed, (
            f"{key}'s stored shape changed but its format is still {number}: add an upgrade "
            f"step (CONTRIBUTING.md, 'Change a stored state'). Changed: {changed}")
    assert ENVELOPE in ledger
