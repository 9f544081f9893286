"""Betrayal content: explorers.yaml and rooms.yaml against the facts and the README schema.

The facts table (shared/reference/betrayal-facts.md, copied to tests/reference/ so a
clone of this repository alone runs it) is parsed here, so every explorer
track and every room's doors and symbol must match it: nothing missing, nothing invented.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data" / "betrayal"
FACTS = Path(__file__).resolve().parent / "reference" / "betrayal-facts.md"  # our copy
README = DATA / "README.md"

TRAITS = ("speed", "might", "sanity", "knowledge")
FLOORS = {"upper", "ground", "basement"}
COLOURS = {"red", "yellow", "green", "blue", "white", "purple"}
SYMBOLS = {"O": "omen", "E": "event", "I": "item", "-": "none"}
START_TILES = {"entrance_hall", "foyer", "grand_staircase", "upper_landing", "basement_landing"}
BARRIER_ROOMS = {"catacombs", "chasm", "tower", "vault"}
MONTHS = {m: i for i, m in enumerate(
    ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"], 1)}
SNAKE = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")
HOOKS = ("on_leave", "on_enter", "on_discover", "on_end_turn")
ROOM_KEYS = {"key", "name", "floors", "doors", "symbol", "start", "barrier", "text",
             *HOOKS, "once_per_explorer", "custom"}
EXPLORER_KEYS = {"key", "name", "colour", "hex", "birthday", "traits"}


def _load(name: str) -> Any:
    with (DATA / name).open(encoding="utf-8") as handle:
        return yaml.safe_load(handle)


def _table(section: str) -> list[list[str]]:
    """The rows (cells stripped) of the first markdown table under the `## section` heading."""
    text = FACTS.read_text(encoding="utf-8")
    body = text.split(f"## {section}", 1)[1].split("\n## ", 1)[0]
    rows = [[c.strip() for c in line.strip().strip("|").split("|")]
            for line in body.splitlines() if line.strip().startswith("|")]
    return [r for r in rows[1:] if not set("".join(r)) <= set("-: ")]  # drop header, rule


def _snake(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower().replace("'", "")).strip("_")


@pytest.fixture(scope="module")
def explorers() -> list[dict[str, Any]]:
    return _load("explorers.yaml")["explorers"]


@pytest.fixture(scope="module")
def rooms() -> list[dict[str, Any]]:
    return _load("rooms.yaml")["rooms"]


@pytest.fixture(scope="module")
def fact_explorers() -> dict[str, dict[str, Any]]:
    facts: dict[str, dict[str, Any]] = {}
    for name, colour, *tracks, birthday in _table("Explorers: trait tracks"):
        traits = {}
        for trait, cells in zip(TRAITS, tracks, strict=True):
            values = cells.split()
            starts = [i for i, v in enumerate(values) if v.endswith("*")]
            assert len(starts) == 1, (name, trait, cells)
            traits[trait] = {"track": [int(v.rstrip("*")) for v in values], "start": starts[0]}
        month, day = birthday.split()
        facts[name] = {"colour": colour, "traits": traits,
                       "birthday": f"{MONTHS[month]:02d}-{int(day):02d}"}
    return facts


@pytest.fixture(scope="module")
def fact_rooms() -> dict[str, dict[str, Any]]:
    facts = {}
    for room, doors, symbol in _table("Room tiles: doors and card symbol"):
        name = room.split(" (", 1)[0]
        facts[name] = {"doors": doors.split(), "symbol": SYMBOLS[symbol.split()[0]]}
    return facts


@pytest.fixture(scope="module")
def step_vocabulary() -> set[str]:
    text = README.read_text(encoding="utf-8")
    body = text.split("## Steps", 1)[1].split("\nModifiers", 1)[0]
    keys = set(re.findall(r"^\| `([a-z_]+):", body, flags=re.MULTILINE))
    assert {"roll", "gain", "lose", "damage", "custom"} <= keys, keys
    return keys


# ---- explorers ----

def test_twelve_explorers_six_colours_two_each(explorers: list[dict[str, Any]]) -> None:
    assert len(explorers) == 12
    colours = [e["colour"] for e in explorers]
    assert set(colours) == COLOURS
    assert all(colours.count(c) == 2 for c in COLOURS)


def test_explorer_fields_and_keys(explorers: list[dict[str, Any]]) -> None:
    keys = [e["key"] for e in explorers]
    assert len(set(keys)) == len(keys)
    for explorer in explorers:
        assert set(explorer) == EXPLORER_KEYS, explorer["key"]
        assert SNAKE.match(explorer["key"]), explorer["key"]
        assert re.fullmatch(r"#[0-9a-f]{6}", explorer["hex"]), explorer["key"]
        assert re.fullmatch(r"(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])", explorer["birthday"])


def test_token_hex_one_per_colour(explorers: list[dict[str, Any]]) -> None:
    by_colour: dict[str, set[str]] = {}
    for explorer in explorers:
        by_colour.setdefault(explorer["colour"], set()).add(explorer["hex"])
    hexes = [next(iter(h)) for h in by_colour.values()]
    assert all(len(h) == 1 for h in by_colour.values()), by_colour
    assert len(set(hexes)) == 6


def test_tracks_are_well_formed(explorers: list[dict[str, Any]]) -> None:
    for explorer in explorers:
        assert set(explorer["traits"]) == set(TRAITS), explorer["key"]
        for trait, spec in explorer["traits"].items():
            track = spec["track"]
            assert len(track) == 8, (explorer["key"], trait)
            assert all(isinstance(v, int) and 1 <= v <= 8 for v in track)
            assert track == sorted(track), (explorer["key"], trait)
            assert isinstance(spec["start"], int) and 0 <= spec["start"] <= 7


def test_explorers_equal_the_facts(explorers: list[dict[str, Any]],
                                   fact_explorers: dict[str, dict[str, Any]]) -> None:
    assert len(fact_explorers) == 12
    assert {e["name"] for e in explorers} == set(fact_explorers)
    for explorer in explorers:
        fact = fact_explorers[explorer["name"]]
        assert explorer["colour"] == fact["colour"], explorer["name"]
        assert explorer["birthday"] == fact["birthday"], explorer["name"]
        assert explorer["traits"] == fact["traits"], explorer["name"]


# ---- rooms ----

def test_forty_seven_tiles(rooms: list[dict[str, Any]]) -> None:
    assert len(rooms) == 47
    starts = {r["key"] for r in rooms if r["start"]}
    assert starts == START_TILES
    assert len(rooms) - len(starts) == 42
    assert sum(1 for r in rooms if r["symbol"] == "omen") == 13
    assert {r["key"] for r in rooms if r["barrier"]} == BARRIER_ROOMS


def test_room_fields_and_keys(rooms: list[dict[str, Any]]) -> None:
    keys = [r["key"] for r in rooms]
    assert len(set(keys)) == len(keys)
    for room in rooms:
        assert set(room) <= ROOM_KEYS, (room["key"], set(room) - ROOM_KEYS)
        assert SNAKE.match(room["key"]), room["key"]
        assert room["key"] == _snake(room["name"]), room["key"]
        assert room["floors"] and set(room["floors"]) <= FLOORS, room["key"]
        assert len(set(room["floors"])) == len(room["floors"]), room["key"]
        assert isinstance(room["start"], bool) and isinstance(room["barrier"], bool)
        assert isinstance(room.get("once_per_explorer", False), bool)
        if room.get("once_per_explorer"):
            assert room.get("on_end_turn"), room["key"]
        text = room["text"]
        assert isinstance(text, str) and text.strip() and len(text) <= 200, room["key"]
        if "custom" in room:
            assert isinstance(room["custom"], str) and SNAKE.match(room["custom"])


def test_rooms_equal_the_facts(rooms: list[dict[str, Any]],
                               fact_rooms: dict[str, dict[str, Any]]) -> None:
    assert len(fact_rooms) == 47
    assert {r["name"] for r in rooms} == set(fact_rooms)
    for room in rooms:
        fact = fact_rooms[room["name"]]
        assert room["doors"] == fact["doors"], room["name"]
        assert room["symbol"] == fact["symbol"], room["name"]


def test_start_tiles_floors(rooms: list[dict[str, Any]]) -> None:
    floors = {r["key"]: r["floors"] for r in rooms}
    assert floors["entrance_hall"] == floors["foyer"] == floors["grand_staircase"] == ["ground"]
    assert floors["upper_landing"] == ["upper"]
    assert floors["basement_landing"] == ["basement"]


def _check_steps(steps: Any, vocabulary: set[str], where: str) -> None:
    assert isinstance(steps, list), where
    for step in steps:
        assert isinstance(step, dict) and len(step) == 1, (where, step)
        (kind, arg), = step.items()
        assert kind in vocabulary, (where, kind)
        if kind == "custom":
            assert isinstance(arg, str) and SNAKE.match(arg), (where, arg)
            continue
        assert isinstance(arg, dict), (where, step)
        if kind == "roll":
            assert ("trait" in arg) != ("dice" in arg), (where, arg)
            if "trait" in arg:
                assert arg["trait"] in TRAITS, (where, arg)
            assert arg["outcomes"], (where, arg)
            for outcome in arg["outcomes"]:
                assert set(outcome) <= {"min", "max", "do"} and "do" in outcome, (where, outcome)
                assert {"min", "max"} & set(outcome), (where, outcome)
                _check_steps(outcome["do"], vocabulary, where)
        elif kind in ("gain", "lose"):
            traits = arg["choose"] if "choose" in arg else [arg["trait"]]
            assert set(traits) <= set(TRAITS), (where, arg)
            assert isinstance(arg["amount"], int) and arg["amount"] > 0, (where, arg)
        elif kind == "damage":
            assert arg["kind"] in ("physical", "mental", "general"), (where, arg)
            assert ("amount" in arg) != ("dice" in arg), (where, arg)


def test_room_steps_use_the_vocabulary(rooms: list[dict[str, Any]],
                                       step_vocabulary: set[str]) -> None:
    for room in rooms:
        for hook in HOOKS:
            if hook in room:
                _check_steps(room[hook], step_vocabulary, f"{room['key']}.{hook}")


def test_leave_rolls_match_seed(rooms: list[dict[str, Any]]) -> None:
    """Seed 003: leaving rolls (trait, target, trait lost on a miss)."""
    expected = {"attic": ("speed", 3, "might"), "graveyard": ("sanity", 4, "knowledge"),
                "junk_room": ("might", 3, "speed"),
                "pentagram_chamber": ("knowledge", 4, "sanity")}
    by_key = {r["key"]: r for r in rooms}
    assert {k for k, r in by_key.items() if r.get("on_leave")} == set(expected)
    for key, (trait, target, lost) in expected.items():
        (step,) = by_key[key]["on_leave"]
        roll = step["roll"]
        assert roll["trait"] == trait
        miss = next(o for o in roll["outcomes"] if o.get("max") == target - 1)
        assert miss["do"] == [{"lose": {"trait": lost, "amount": 1}}]


def test_end_turn_rooms_match_seed(rooms: list[dict[str, Any]]) -> None:
    by_key = {r["key"]: r for r in rooms}
    gains = {"chapel": "sanity", "gymnasium": "speed", "larder": "might",
             "library": "knowledge"}
    for key, trait in gains.items():
        assert by_key[key]["on_end_turn"] == [{"gain": {"trait": trait, "amount": 1}}]
        assert by_key[key]["once_per_explorer"] is True
    assert by_key["crypt"]["on_end_turn"] == [{"damage": {"kind": "mental", "amount": 1}}]
    assert by_key["furnace_room"]["on_end_turn"] == [{"damage": {"kind": "physical",
                                                                 "amount": 1}}]
    assert {k for k, r in by_key.items() if r.get("on_end_turn")} == {*gains, "crypt",
                                                                       "furnace_room"}


def test_special_rooms_have_handlers(rooms: list[dict[str, Any]]) -> None:
    by_key = {r["key"]: r for r in rooms}
    for key in ("mystic_elevator", "collapsed_room", "gallery", "coal_chute",
                "underground_lake", "vault", "catacombs", "chasm", "tower",
                "grand_staircase", "upper_landing", "foyer", "stairs_from_basement"):
        assert by_key[key].get("custom"), key
    assert by_key["grand_staircase"]["custom"] == by_key["upper_landing"]["custom"]
    assert by_key["foyer"]["custom"] == by_key["stairs_from_basement"]["custom"]
