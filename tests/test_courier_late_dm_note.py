"""Whom a DM missed after the public post went is told in the channel (bot/courier.py's
`_tell_missed`), as the post tells the ones it knows of.

bot/courier.py: the post "names whom a DM did not reach"; a secret book goes after the
post that announces it (issue 11), so a book that cannot be sent was named only in the
outcome, which no one reads, and privately at the player's next click. An outlet that
can tell the channel (bot/delivery.py's LateNotes) now does, under a key of the
delivery's, and outlets that cannot (the demo's) are left as they were.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bot import table as T
from bot.core.actions import Action
from bot.core.events import Event, to_player
from bot.games.base import PlayerInfo
from bot.sessions import Outcome, Sessions
from bot.store import SqliteStore, Table
from tests.helpers import team_game
from tests.helpers.team_game import BLUE_SEAT, KEY, TeamGame, TeamState
from tests.test_sessions_books import ANNOUNCED, BOB, CAT, CHANNEL, GUILD, HOST, OrderedOutlet

BOOK = "The Traitor's Tome: every word of it."


class NotingOutlet(OrderedOutlet):
    """The ordered log, with the channel's notes of DMs missed late in it."""

    async def dms_missed(self, table: Table, user_ids: list[int], *, key: str) -> None:
        self.log.append(("missed", list(user_ids), key))


def with_a_book(self: TeamGame, players: list[PlayerInfo], seed: int,
                options: dict[str, Any]) -> tuple[TeamState, list[Event]]:
    """The team game's setup, as a haunt starts: a book for the blue seat (sent after
    the post), and the announcement."""
    state = TeamState([p.name for p in players], [p.ai for p in players])
    return state, [Event(BOOK, to_player(BLUE_SEAT), "book"), Event(ANNOUNCED)]


@pytest.fixture(autouse=True)
def _books(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(TeamGame, "setup", with_a_book)
    with team_game.registered():
        yield


async def started(sessions: Sessions) -> Outcome:
    await sessions.open(CHANNEL, GUILD, HOST, KEY, 1)
    for guest in (BOB, CAT):
        await sessions.act(CHANNEL, guest, Action(T.JOIN))
    return await sessions.act(CHANNEL, HOST, Action(T.START))


async def test_a_book_that_cannot_be_sent_after_the_post_is_told_in_the_channel(
        store: SqliteStore) -> None:
    outlet = NotingOutlet(closed_dms={BOB.user_id or 0})
    begun = await started(Sessions(store, outlet))
    post = outlet.index(ANNOUNCED)
    published = outlet.log[post][1]
    assert published.dm_failed == []  # it was sent before anyone knew
    notes = [e for e in outlet.log if e[0] == "missed"]
    assert notes == [("missed", [BOB.user_id], f"{published.key}.l")]
    assert outlet.log.index(notes[0]) > post and begun.dm_failed == [BOB.user_id]


async def test_nothing_is_told_when_every_book_arrives(store: SqliteStore) -> None:
    outlet = NotingOutlet()
    await started(Sessions(store, outlet))
    assert [e for e in outlet.log if e[0] == "missed"] == []
