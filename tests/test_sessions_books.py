"""A secret book arrives after the public post that starts it (issue 11).

The post says what begins (a haunt, and who turned traitor); a book sent before it
would tell its reader first. Through the sessions layer over a real SQLite store, with
an outlet that records one ordered log of everything it was asked to send. The game is
tests/helpers/team_game.py, whose setup is given a book for one player and one for a
team here.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bot import table as T
from bot.core.actions import Action
from bot.core.events import Event, to_player, to_team
from bot.delivery import Post, whisper_key
from bot.games.base import PlayerInfo
from bot.sessions import Outcome, Sessions
from bot.store import SqliteStore, Table
from tests.helpers import team_game
from tests.helpers.team_game import BLUE_SEAT, KEY, TeamGame, TeamState

CHANNEL = 710
GUILD = 9
HOST = T.Actor(100, "Hana")
BOB = T.Actor(200, "Bob")  # the blue seat: the one who gets the private book
CAT = T.Actor(300, "Cat")

ANNOUNCED = "The haunt begins: Bob is the traitor."
SECRET_BOOK = "The Traitor's Tome: every word of it."
TEAM_BOOK = "Secrets of Survival: every word of it."
RED_LINE = "The red team gathers."


class OrderedOutlet:
    """Everything sent, in the order it was sent: ("post", Post), ("whisper", user,
    text, key), ("team", team, users, text, key). Whispers to `closed_dms` fail."""

    def __init__(self, closed_dms: set[int] | None = None) -> None:
        self.log: list[tuple[Any, ...]] = []
        self.closed_dms = set(closed_dms or ())

    async def publish(self, table: Table, post: Post) -> None:
        self.log.append(("post", post))

    async def whisper(self, table: Table, user_id: int, text: str, *, key: str = "") -> bool:
        if user_id in self.closed_dms:
            return False
        self.log.append(("whisper", user_id, text, key))
        return True

    async def team(self, table: Table, team: str, user_ids: list[int], text: str, *,
                   key: str = "") -> list[int]:
        self.log.append(("team", team, list(user_ids), text, key))
        return []

    def index(self, text: str) -> int:
        """Where the message holding `text` was sent."""
        for n, entry in enumerate(self.log):
            said = "\n".join(entry[1].lines + entry[1].documents) if entry[0] == "post" \
                else entry[-2]
            if text in said:
                return n
        raise AssertionError(f"never sent: {text!r}")


def _setup_with_books(self: TeamGame, players: list[PlayerInfo], seed: int,
                      options: dict[str, Any]) -> tuple[TeamState, list[Event]]:
    """The team game's setup, as a haunt would start: a book for the blue seat, a line
    and a book for the red team, the announcement. The books come first among the events
    on purpose: the delivery, not the events' order, must put the post first."""
    state = TeamState([p.name for p in players], [p.ai for p in players])
    return state, [Event(SECRET_BOOK, to_player(BLUE_SEAT), "book"),
                   Event(RED_LINE, to_team("red")),
                   Event(TEAM_BOOK, to_team("red"), "book"),
                   Event(ANNOUNCED)]


@pytest.fixture(autouse=True)
def _registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(TeamGame, "setup", _setup_with_books)
    with team_game.registered():
        yield


async def _started(sessions: Sessions) -> Outcome:
    await sessions.open(CHANNEL, GUILD, HOST, KEY, 1)
    for guest in (BOB, CAT):
        await sessions.act(CHANNEL, guest, Action(T.JOIN))
    return await sessions.act(CHANNEL, HOST, Action(T.START))


async def test_the_post_announcing_the_books_goes_before_them(store: SqliteStore) -> None:
    outlet = OrderedOutlet()
    started = await _started(Sessions(store, outlet))
    post = outlet.index(ANNOUNCED)
    assert outlet.log[post][0] == "post"
    assert outlet.index(SECRET_BOOK) > post and outlet.index(TEAM_BOOK) > post
    # a team's other lines still come first, in their own message
    assert outlet.index(RED_LINE) < post
    [(_, _, _, red_lines, _)] = [e for e in outlet.log[:post] if e[0] == "team"]
    assert red_lines == RED_LINE
    # keys as ever: a whisper its event's place in the log, a team message `.t<n>`;
    # a team's book `.b<n>`, a message of its own
    table = started.table
    seq = table.last_seq - len(started.events) + 1
    seq += [e.text for e in started.events].index(SECRET_BOOK)
    [book] = [e for e in outlet.log if e[0] == "whisper" and e[2] == SECRET_BOOK]
    assert book[1] == BOB.user_id and book[3] == whisper_key(table.id or 0, seq)
    keys = {e[3]: e[4] for e in outlet.log if e[0] == "team"}
    post_key = outlet.log[post][1].key
    assert keys == {RED_LINE: f"{post_key}.t0", TEAM_BOOK: f"{post_key}.b0"}


async def test_a_book_sent_again_after_a_crash_keeps_its_keys(store: SqliteStore) -> None:
    """The delivery is cut short after the post (the books never left): it is sent again
    whole at the next start, under the same keys, the post still before the books."""

    class Crashing(OrderedOutlet):
        async def whisper(self, table: Table, user_id: int, text: str, *,
                          key: str = "") -> bool:
            raise RuntimeError("the process died here")

    crashing = Crashing()
    started = await _started(Sessions(store, crashing))
    assert not started.delivered
    assert [e[0] for e in crashing.log] == ["team", "post"]  # the books were never sent
    outlet = OrderedOutlet()
    resumed = await Sessions(store, outlet).resume(CHANNEL)
    assert resumed is not None and resumed.delivered
    assert outlet.index(ANNOUNCED) < outlet.index(SECRET_BOOK)
    first_try = {e[3]: e[4] for e in crashing.log if e[0] == "team"}
    second_try = {e[3]: e[4] for e in outlet.log if e[0] == "team"}
    assert second_try[RED_LINE] == first_try[RED_LINE]  # Discord shows it once
    assert outlet.log[outlet.index(ANNOUNCED)][1].key == crashing.log[1][1].key


async def test_a_book_that_cannot_be_sent_is_noted_though_the_post_went_first(
        store: SqliteStore) -> None:
    outlet = OrderedOutlet(closed_dms={BOB.user_id or 0})
    started = await _started(Sessions(store, outlet))
    published = outlet.log[outlet.index(ANNOUNCED)][1]
    assert published.dm_failed == []  # it was sent before anyone knew
    assert started.dm_failed == [BOB.user_id]
    assert not any(e[0] == "whisper" and e[2] == SECRET_BOOK for e in outlet.log)
