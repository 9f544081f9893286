"""A seat passing on owes its team threads their members (issue 19), in the outbox like
every other part of a delivery: a kick's delivery asks the outlet to keep each team's
thread to its holders, before any team line; when Discord fails it the move stands,
the delivery stays owed, and the next try (a restart's resume) does it, once."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot import table as T
from bot.core.actions import Action
from bot.sessions import Sessions
from bot.store import SqliteStore, Table
from tests.helpers import team_game
from tests.helpers.team_game import KEY
from tests.test_sessions import RecordingOutlet

CHANNEL = 710
HOST, BOB, CAT = T.Actor(100, "Hana"), T.Actor(200, "Bob"), T.Actor(300, "Cat")
MOD = T.Actor(42, "Mod", moderator=True)


@pytest.fixture(autouse=True)
def _registered() -> Iterator[None]:
    with team_game.registered():
        yield


class KeepingOutlet(RecordingOutlet):
    """Records each members call (in order with the team posts); fails while `down`."""

    def __init__(self) -> None:
        super().__init__()
        self.kept: list[dict[str, list[int]]] = []
        self.order: list[str] = []
        self.down = False

    async def members(self, table: Table, teams: dict[str, list[int]]) -> None:
        if self.down:
            raise ConnectionError("Discord is down")
        self.kept.append({team: sorted(users) for team, users in teams.items()})
        self.order.append("members")

    async def team(self, table: Table, team: str, user_ids: list[int], text: str, *,
                   key: str = "") -> list[int]:
        self.order.append("team")
        return await super().team(table, team, user_ids, text, key=key)


async def test_a_kick_keeps_the_threads_and_a_failed_keep_is_done_on_resume(
        store: SqliteStore) -> None:
    outlet = KeepingOutlet()
    sessions = Sessions(store, outlet)
    await sessions.open(CHANNEL, 9, HOST, KEY, 1)
    for guest in (BOB, CAT):
        await sessions.act(CHANNEL, guest, Action(T.JOIN))
    await sessions.act(CHANNEL, HOST, Action(T.START))
    assert outlet.kept == []  # no seat moved yet: nothing asked

    outlet.down = True
    kicked = await sessions.act(CHANNEL, MOD, Action(T.KICK, {"user": CAT.user_id}))
    assert not kicked.delivered  # the move stands, its delivery is owed
    saved = await store.load(CHANNEL)
    assert saved is not None and saved.seats[2].ai and saved.delivered_seq < saved.last_seq

    outlet.down = False
    outlet.order.clear()
    await sessions.resume(CHANNEL)
    assert outlet.kept == [{"red": [HOST.user_id], "blue": [BOB.user_id]}]
    assert outlet.order[:1] == ["members"]  # before any team line of that delivery
    done = await store.load(CHANNEL)
    assert done is not None and done.delivered_seq == done.last_seq
    await sessions.resume(CHANNEL)
    assert len(outlet.kept) == 1  # delivered: not asked again
