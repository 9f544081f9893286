"""Secrets in the haunt (issue 4): in AI games of every haunt at every table size,
nothing the traitor's book alone says reaches the channel or the heroes' thread before
the game ends, the traitor never reads the heroes' thread, and each book goes to its
side only. At the end both books are public. The games are the ones the endings test
plays (tests/betrayal_haunt_helpers.played, cached), so each is played once."""

from __future__ import annotations

import pytest

from bot.core.events import Event
from bot.games.betrayal import GAME
from bot.games.betrayal.haunt_roll import haunts
from bot.games.betrayal.haunting import flow, has_plugin, sides
from bot.games.betrayal.state import BetrayalState
from tests.betrayal_haunt_helpers import played

KEYS = sorted(haunts(""))


def test_every_haunt_of_the_chart_is_playable() -> None:
    assert len(KEYS) == 8
    assert [k for k in KEYS if not has_plugin(k)] == []


def traitor_only_lines(state: BetrayalState) -> list[str]:
    """The sentences of the traitor's book that the heroes' book does not also say."""
    evil = flow.book_text(state, sides.EVIL)
    good = flow.book_text(state, sides.HERO)
    lines = [line.strip("• ").strip() for line in evil.splitlines()]
    return [line for line in lines if len(line) > 25 and line not in good
            and not line.startswith("**")]


def check_secrets(state: BetrayalState, events: list[Event]) -> None:
    traitor = sides.traitor(state)
    assert traitor is not None
    teams = GAME.teams(state)
    assert traitor not in teams["heroes"]
    assert teams["traitor"] == [traitor]
    books = [e for e in events if e.kind == "book" and not e.audience.is_public]
    assert sorted(e.audience.encode() for e in books) == sorted(
        [f"player:{traitor}", "team:heroes"])
    secret = traitor_only_lines(state)
    assert secret, "the traitor's book has lines of its own"
    end = next((i for i, e in enumerate(events) if e.kind == "game_over"), len(events))
    for event in events[:end]:
        if event.audience.is_public or event.audience.encode() == "team:heroes":
            leaked = [line for line in secret if line in event.text]
            assert not leaked, (event.audience.encode(), leaked)
    for event in events:
        if event.audience.kind == "player" and event.kind == "book":
            assert int(event.audience.ref) == traitor


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("key", KEYS)
def test_no_haunt_leaks_the_traitors_book(key: str, players: int) -> None:
    state, events = played(key, 1, players)
    assert state.over and state.haunt is not None and state.haunt.winner
    check_secrets(state, list(events))
    end = next(i for i, e in enumerate(events) if e.kind == "game_over")
    for side in (sides.EVIL, sides.HERO):  # at the end both books are read out to all
        book = flow.book_text(state, side)
        assert any(book in e.text for e in events[end:] if e.audience.is_public)
