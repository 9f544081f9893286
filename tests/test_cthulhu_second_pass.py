"""Cthulhu in the House (seed 002): a second pass over its end, its set-up for every
player count and the secrecy of who holds whom, played through whole games."""

from __future__ import annotations

from typing import Any

import pytest

from bot.core.actions import Action
from bot.core.events import Event
from bot.core.plain import copy_plain
from bot.core.rng import Rng
from bot.games.base import PlayerInfo
from bot.games.cthulhu import GAME
from bot.games.cthulhu.state import RUMBLES, CthulhuState
from renderers import describe_public, render_public

NAMES = ["Alice", "Bob", "Cara", "Dan", "Eve", "Finn"]


def _setup(count: int, seed: int) -> tuple[CthulhuState, list[Event]]:
    return GAME.setup([PlayerInfo(name) for name in NAMES[:count]], seed, {})


def _pick(state: CthulhuState, rng: Rng) -> Action:
    """A policy blind to every secret: a legal action chosen from the public options."""
    seat = GAME.to_act(state)
    assert seat is not None
    options = GAME.options(state, seat)
    fights = [o for o in options if o.group == "Fight"]
    pool = fights if fights and rng.below(3) == 0 else options
    return rng.choice(pool).action


def _public(events: list[Event]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(e.kind, e.text, e.data) for e in events if e.audience.is_public]


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6])
def test_every_table_size_deals_the_house_and_ends_after_three_rumbles(count: int) -> None:
    """Seed 002, Setup: "Place one character in every room. Shuffle the 6 portals and
    place 3 of them (face-down) in random rooms ... Give each player two secret character
    tokens"; Scoring: "The winner is the player who has the most points after three
    rumbles" (docs/rulings.md, Cthulhu 8: the tied share the win)."""
    state, _ = _setup(count, 40 + count)
    assert sorted(r for r in state.location if r is not None) == list(range(12))
    assert sum(len(p) for p in state.room_portals) == 3 == len(state.reserve)
    assert all(len(p) <= 1 for p in state.room_portals)
    dealt = [c for pair in state.secrets for c in pair]
    assert [len(pair) for pair in state.secrets] == [2] * count
    assert len(set(dealt)) == 2 * count
    rng, scored = Rng(count), 0
    for _ in range(4000):
        if state.over:
            break
        state, events = GAME.apply(state, GAME.to_act(state) or 0, _pick(state, rng))
        for event in events:
            if "rumble_scored" in event.data:
                scored += 1
                assert state.over == (scored == RUMBLES)
    assert state.over and scored == RUMBLES == len(state.results)
    assert state.scores == [sum(r.points[s] for r in state.results) for s in range(count)]
    assert state.winners == [s for s in range(count) if state.scores[s] == max(state.scores)]
    assert GAME.to_act(state) is None and GAME.options(state, 0) == []


@pytest.mark.parametrize("count", [2, 4, 6])
def test_a_rumble_tells_the_table_the_same_whoever_holds_whom(count: int) -> None:
    """Seed 002: "Keep your identity secret" and "When only one character remains ...
    each player reveals their secret character tokens". Two tables that differ only in
    who holds which characters, played the same way, see the same channel lines (and
    their data, which the log keeps), the same status and the same board, until the
    rumble is scored."""
    state, _ = _setup(count, 70 + count)
    twin = copy_plain(state)
    deck = sorted(c for pair in twin.secrets for c in pair)
    unowned = [c for c in range(12) if c not in deck]
    shuffled = unowned[:2 * count] + deck  # a different deal of the same twelve
    twin.secrets = [sorted(shuffled[2 * s:2 * s + 2]) for s in range(count)]
    assert twin.secrets != state.secrets
    rng = Rng(count)
    for _ in range(400):
        action = _pick(state, rng)
        seat = GAME.to_act(state) or 0
        state, events = GAME.apply(state, seat, action)
        twin, twin_events = GAME.apply(twin, seat, action)
        if any("rumble_scored" in e.data for e in events):
            break
        assert _public(events) == _public(twin_events)
        assert GAME.status_text(state) == GAME.status_text(twin)
        assert describe_public("cthulhu", state) == describe_public("cthulhu", twin)
        assert render_public("cthulhu", state) == render_public("cthulhu", twin)
    else:
        pytest.fail("the rumble never ended")
