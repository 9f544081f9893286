"""Golden saved states: tables as a release's store wrote them, kept in
tests/golden/<release>/ so every later release is proven to load them and play on
(tests/test_golden_states.py).

Why: a table lives in the store across upgrades, and so do its undo points. A change to
a game's state (a renamed field, a new one) that forgets its upgrade step
(bot/core/formats.py) would break every open table of that game; the golden states of
each release catch it, in the situations most likely to hold what changed: a lobby, a
game under way, the game's big moment (a haunt, a fight, a later rumble), a pending
choice, and a finished game.

Run `python -m tests.golden_states` once per release (the package version in
pyproject.toml names the folder): it plays seeded games through the real sessions layer
and a real SQLite store, with two humans and an AI at each table, and writes each
situation's row the first time a seed reaches it (with a human to act, so a test can
also make a move and undo it). It only adds the files a folder lacks: a released
folder is never rewritten (`--replace` rewrites it, only before the release ships).
`--shapes` records each state's shape for its current format in tests/golden/shapes.json
(what `test_a_changed_state_shape_comes_with_a_new_format` compares).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import sqlite3
import sys
import tempfile
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot import games
from bot import table as table_rules
from bot.core.actions import Action
from bot.core.seats import Seat
from bot.games.betrayal.state import HAUNT, BetrayalState
from bot.games.cthulhu.state import CthulhuState
from bot.games.evilbelow.state import ACTIONS, FIGHT, EvilBelowState
from bot.sessions import Outcome, Sessions
from bot.store import ACTIVE, OVER, SqliteStore, Table, open_store
from bot.store import rows as Q
from bot.table_record import ENVELOPE_FORMATS
from bot.version import version
from tests.test_sessions import RecordingOutlet

GOLDEN = Path(__file__).resolve().parent / "golden"
SHAPES = GOLDEN / "shapes.json"
ENVELOPE = "table envelope"  # the envelope's entry in shapes.json

CHANNEL, GUILD = 4100, 41
HOST = table_rules.Actor(410001, "Hana")
GUEST = table_rules.Actor(410002, "Gus")
MODERATOR = table_rules.Actor(410009, "Mo", moderator=True)

LOBBY_SITUATION, OVER_SITUATION = "lobby", "over"

# A situation a game under way may be in: True when this state (with a human to act) is
# one to keep.
Moment = Callable[[Any], bool]


@dataclass(frozen=True)
class Variant:
    """One kind of table kept in the golden states: a game, with the lobby options and
    picks that make it (an edition is a variant of its game)."""

    name: str  # the files' prefix: <name>-<situation>.json
    kind: str
    moments: dict[str, Moment]  # the situations under way, in the order they are met
    options: dict[str, str] = field(default_factory=dict)
    pick: tuple[str, str] | None = None  # the host's lobby pick (name, value)
    second: bool = False  # the host takes a second seat (Betrayal's two explorers)
    seeds: range = range(1, 60)


def _cthulhu_midgame(s: CthulhuState) -> bool:
    return s.rumble == 1 and s.turns_played >= 6 and s.pending is None


def _cthulhu_rumble(s: CthulhuState) -> bool:
    return s.rumble >= 2 and bool(s.results) and s.pending is None and not s.over


def _betrayal_midgame(s: BetrayalState) -> bool:
    return s.phase != HAUNT and len(s.tiles) >= 12 and s.pending is None and not s.script


def _betrayal_haunt(s: BetrayalState) -> bool:
    """A haunt two rounds in, with a traitor and monsters on the board: the most the
    state holds at once."""
    haunt = s.haunt
    return (s.phase == HAUNT and haunt is not None and haunt.round >= 2 and not s.over
            and s.pending is None and haunt.traitor is not None
            and any(m.alive for m in s.monsters))


def _neibolt_haunt(s: BetrayalState) -> bool:
    haunt = s.haunt
    return (s.phase == HAUNT and haunt is not None and haunt.round >= 2 and not s.over
            and s.pending is None)


def _betrayal_choice(s: BetrayalState) -> bool:
    """A choice in the middle of a card: the interpreter's continuation (`script`) is
    stored with it, the part of the state a change would most likely break."""
    return s.pending is not None and bool(s.script)


def _pending(s: CthulhuState | EvilBelowState) -> bool:
    return s.pending is not None


def _evil_below_midgame(s: EvilBelowState) -> bool:
    return (s.turns_played >= 4 and s.phase == ACTIONS and s.fight is None
            and s.pending is None)


def _evil_below_fight(s: EvilBelowState) -> bool:
    return s.phase == FIGHT and s.fight is not None and bool(s.fight.revealed)


VARIANTS = (
    Variant("cthulhu", "cthulhu", {"midgame": _cthulhu_midgame, "choice": _pending,
                                   "rumble": _cthulhu_rumble}),
    Variant("betrayal", "betrayal", {"midgame": _betrayal_midgame, "choice": _betrayal_choice,
                                     "haunt": _betrayal_haunt},
            pick=("explorer", "vivian_lopez"), second=True),
    Variant("neibolt", "betrayal", {"midgame": _betrayal_midgame, "choice": _betrayal_choice,
                                    "haunt": _neibolt_haunt},
            options={"expansion": "neibolt"}, pick=("explorer", "vivian_lopez"), second=True),
    Variant("evilbelow", "evilbelow", {"midgame": _evil_below_midgame, "choice": _pending,
                                       "fight": _evil_below_fight},
            pick=("character", "bev")),
)


def situations(variant: Variant) -> list[str]:
    return [LOBBY_SITUATION, *variant.moments, OVER_SITUATION]


# ---------------------------------------------------------------- playing a table

def sessions_on(store: SqliteStore) -> Sessions:
    """The real sessions layer, AI chain off: each step (a human's or an AI's) is its own
    save, so a situation can be caught between any two."""
    return Sessions(store, RecordingOutlet(), render=False, ai_chain=False)


def holder(table: Table, seat: int) -> table_rules.Actor:
    """The human holding this seat, as an actor."""
    held = table.seats[seat]
    assert held.is_human and held.user_id is not None, f"seat {seat} is no human's"
    return table_rules.Actor(held.user_id, held.name)


def human_to_act(table: Table) -> bool:
    seat = table_rules.to_act_seat(table)
    return seat is not None and table.seats[seat].is_human and not table_rules.ai_due(table)


async def play_step(sessions: Sessions, table: Table) -> Table:
    """One decision, as the bot would take it: an AI seat's through the AI's door, a
    human's through the player's door with the AI choosing for them."""
    channel = table.channel_id
    outcome: Outcome | None
    if table_rules.ai_due(table):
        outcome = await sessions.ai_step(channel)
    else:
        seat = table_rules.to_act_seat(table)
        assert seat is not None, "nobody is to act"
        game = table_rules.game_of(table)
        action = game.ai_action(table_rules.game_state(table), seat)
        outcome = await sessions.act(channel, holder(table, seat), action,
                                     version=table.version)
    assert outcome is not None
    return outcome.table


async def open_lobby(sessions: Sessions, variant: Variant, seed: int) -> Table:
    """The variant's lobby, as players fill it: the host, a guest, the host's pick (and
    second seat), an AI."""
    await sessions.open(CHANNEL, GUILD, HOST, variant.kind, seed, dict(variant.options))
    await sessions.act(CHANNEL, GUEST, Action(table_rules.JOIN))
    if variant.pick is not None:
        name, value = variant.pick
        await sessions.act(CHANNEL, HOST, Action(table_rules.PICK, {"name": name, "value": value}))
    if variant.second:
        await sessions.act(CHANNEL, HOST, Action(table_rules.SECOND))
    outcome = await sessions.act(CHANNEL, HOST, Action(table_rules.ADD_AI))
    return outcome.table


# ---------------------------------------------------------------- the stored rows

def stored_row(path: Path, channel: int) -> dict[str, Any]:
    """The channel's newest game row exactly as the store wrote it: its kind, status and
    envelope (state_json, parsed: JSON keeps the order, so dumping it again gives the
    same text)."""
    with sqlite3.connect(path) as db:
        kind, status, text = db.execute(
            "SELECT kind, status, state_json FROM games WHERE channel_id = ?"
            " ORDER BY id DESC LIMIT 1", (channel,)).fetchone()
    db.close()
    envelope = json.loads(text)
    assert json.dumps(envelope) == text, "the envelope would not be stored the same again"
    return {"kind": kind, "status": status, "envelope": envelope}


def insert_row(path: Path, golden: dict[str, Any], channel: int = CHANNEL) -> None:
    """Write a golden row into the store's file as its release's store wrote it: the
    envelope's JSON as it was, not as this release would write it."""
    with sqlite3.connect(path) as db:
        db.execute(Q.INSERT_GAME, (channel, GUILD, golden["kind"], golden["status"],
                                   json.dumps(golden["envelope"]), 0.0, 0.0, 0, 0, None))
    db.close()


async def restarted_with(path: Path, golden: dict[str, Any]) -> SqliteStore:
    """A fresh SQLite store holding the golden table, opened again as a restarted bot
    opens its file."""
    await (await open_store(path)).close()
    insert_row(path, golden)
    return await open_store(path)


# ---------------------------------------------------------------- making a release's files

async def _play_seed(variant: Variant, seed: int, wanted: set[str],
                     work: Path) -> dict[str, dict[str, Any]]:
    """Play one seeded table from its lobby to its end; the rows of the wanted
    situations it meets (the first time each is met)."""
    path = work / f"{variant.name}-{seed}.sqlite3"
    store = await open_store(path)
    found: dict[str, dict[str, Any]] = {}
    try:
        sessions = sessions_on(store)
        table = await open_lobby(sessions, variant, seed)
        if LOBBY_SITUATION in wanted:
            found[LOBBY_SITUATION] = stored_row(path, CHANNEL)
        table = (await sessions.act(CHANNEL, HOST, Action(table_rules.START))).table
        while table.status == ACTIVE:
            if human_to_act(table):
                state = table_rules.game_state(table)
                for name, moment in variant.moments.items():
                    if name in wanted and name not in found and moment(state):
                        found[name] = stored_row(path, CHANNEL)
            table = await play_step(sessions, table)
        if OVER_SITUATION in wanted and table.status == OVER:
            found[OVER_SITUATION] = stored_row(path, CHANNEL)
    finally:
        await store.close()
    return found


async def make_release(release: str, *, replace: bool = False) -> list[Path]:
    """Write the release's missing golden tables (a new game's, a new situation's); the
    ones it has already are kept as they are, unless `replace` (only before the release
    ships: once released, they are what its players' tables look like)."""
    folder = GOLDEN / release
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    with tempfile.TemporaryDirectory() as work:
        for variant in VARIANTS:
            wanted = {s for s in situations(variant)
                      if replace or not (folder / f"{variant.name}-{s}.json").exists()}
            if not wanted:
                continue
            for seed in variant.seeds:
                found = await _play_seed(variant, seed, wanted, Path(work))
                for situation, row in found.items():
                    path = folder / f"{variant.name}-{situation}.json"
                    path.write_text(json.dumps({
                        "release": release, "variant": variant.name, "situation": situation,
                        "seed": seed, "made_by": "python -m tests.golden_states", **row,
                    }, indent=1) + "\n", encoding="utf-8")
                    written.append(path)
                    wanted.discard(situation)
                if not wanted:
                    break
            if wanted:
                raise SystemExit(f"{variant.name}: no seed of {variant.seeds} reached "
                                 f"{sorted(wanted)}")
    return written


# ---------------------------------------------------------------- the shapes of the states

def _dataclasses_in(hint: Any) -> list[type]:
    """The dataclasses a type hint names, however nested (list[Explorer], Haunt | None)."""
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return [hint]
    return [found for arg in typing.get_args(hint) for found in _dataclasses_in(arg)]


def typing_name(hint: Any) -> str:
    """A type as its source spells it (a module without postponed annotations gives
    types, not strings): `int`, `list[Explorer]`."""
    return hint.__name__ if isinstance(hint, type) else repr(hint).replace("typing.", "")


def shape(root: type) -> list[str]:
    """Every field of a stored dataclass and of the dataclasses it holds, with its
    declared type: `Class.field: type`. A field added, renamed, removed or retyped
    changes it."""
    lines, seen, todo = [], set(), [root]
    while todo:
        cls = todo.pop()
        if cls in seen:
            continue
        seen.add(cls)
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            declared = f.type if isinstance(f.type, str) else typing_name(f.type)
            lines.append(f"{cls.__name__}.{f.name}: {declared}")
            todo.extend(_dataclasses_in(hints[f.name]))
    return sorted(lines)


def envelope_shape() -> list[str]:
    """The envelope's keys (every one written: a paused table's) and its seats' fields."""
    table = Table(channel_id=1, guild_id=None, kind="", host_id=1, seed=1, paused=True,
                  seats=[Seat("a", 1, picks={"x": "y"})])
    return sorted(f"envelope.{key}" for key in table.envelope()) + shape(Seat)


def current_shapes() -> dict[str, tuple[int, list[str]]]:
    """Each stored kind of dict: its current format and its shape."""
    found: dict[str, tuple[int, list[str]]] = {
        key: (game.state_formats.current, shape(game.state_type))
        for key, game in sorted(games.all_games().items())}
    found[ENVELOPE] = (ENVELOPE_FORMATS.current, envelope_shape())
    return found


def recorded_shapes() -> dict[str, dict[str, list[str]]]:
    """shapes.json: for each stored kind of dict, the shape of each format recorded."""
    if not SHAPES.exists():
        return {}
    return dict(json.loads(SHAPES.read_text(encoding="utf-8")))


def record_shapes() -> list[str]:
    """Add each current format's shape to shapes.json; a format recorded already with
    another shape is refused (its shape changed without a new format)."""
    ledger, problems = recorded_shapes(), []
    for key, (number, now) in current_shapes().items():
        kept = ledger.setdefault(key, {})
        if str(number) in kept and kept[str(number)] != now:
            problems.append(f"{key}: format {number} is recorded with another shape: "
                            "add an upgrade step (CONTRIBUTING.md, 'Change a stored state')")
            continue
        kept[str(number)] = now
    if not problems:
        SHAPES.write_text(json.dumps(ledger, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--release", default=version(),
                        help="the release folder to write (default: the package version)")
    parser.add_argument("--replace", action="store_true",
                        help="rewrite an existing folder (only before the release ships)")
    parser.add_argument("--shapes", action="store_true",
                        help="only record the current formats' shapes in shapes.json")
    args = parser.parse_args(argv)
    if args.shapes:
        problems = record_shapes()
        for problem in problems:
            print(problem, file=sys.stderr)
        return 1 if problems else 0
    for path in asyncio.run(make_release(args.release, replace=args.replace)):
        print(path.relative_to(GOLDEN.parent.parent))
    problems = record_shapes()
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
