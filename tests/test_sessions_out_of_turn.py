"""Sessions and out-of-turn seats, over a real SQLite store: after each action and
between the AI's moves, AI seats with an out-of-turn offer play it before the AI to act
moves (in seat order, bounded), and the post's prompt carries every other human seat's
own out-of-turn options. The game is tests/helpers/bell_game.py."""

from __future__ import annotations

import pytest

from bot import games
from bot import table as T
from bot import worker as worker_module
from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.core.events import Event
from bot.sessions import Sessions
from bot.store import SqliteStore, Table
from bot.texts import say
from tests.helpers import bell_game
from tests.helpers.bell_game import GAME, KEY, RING, STEP, BellGame, BellState, rang_line
from tests.test_sessions import RecordingOutlet

CHANNEL = 800
GUILD = 9
HOST = T.Actor(100, "Hana")
BOB = T.Actor(200, "Bob")


@pytest.fixture(autouse=True)
def _bells(monkeypatch: pytest.MonkeyPatch) -> None:
    bell_game.register(monkeypatch)


async def started(sessions: Sessions, *guests: T.Actor, ai: int = 0,
                  kind: str = KEY) -> Table:
    await sessions.open(CHANNEL, GUILD, HOST, kind, 1)
    for guest in guests:
        await sessions.act(CHANNEL, guest, Action(T.JOIN))
    for _ in range(ai):
        await sessions.act(CHANNEL, HOST, Action(T.ADD_AI))
    return (await sessions.act(CHANNEL, HOST, Action(T.START))).table


def state_of(table: Table) -> BellState:
    assert table.state is not None
    return GAME.load(table.state)


async def test_after_a_humans_action_an_ai_seat_plays_its_offer_and_the_post_shows_it(
        store: SqliteStore) -> None:
    outlet = RecordingOutlet()
    sessions = Sessions(store, outlet, render=False)
    table = await started(sessions, BOB, ai=1)
    ai_name = table.seats[2].name
    assert state_of(table).rings == []  # no one has stepped: the AI holds its bell
    outcome = await sessions.act(CHANNEL, HOST, STEP, version=table.version)
    assert [e.text for e in outcome.events] == [bell_game.stepped_line("Hana"),
                                                rang_line(ai_name)]
    assert state_of(outcome.table).rings == [2]
    assert outcome.table.version == table.version + 2  # the step, then the AI's ring
    post = outcome.post
    assert post is not None and post.prompt is not None
    assert post.prompt.seat == 1 and post.prompt.user_id == BOB.user_id
    [hana] = post.prompt.others
    assert hana.user_id == HOST.user_id and hana.version == outcome.table.version
    assert [o.action for o in hana.options] == [T.for_seat(RING, 0)]
    saved = await store.load(CHANNEL)
    assert saved is not None and not T.ai_due(saved)


async def test_offers_come_before_the_ai_to_act_moves_in_seat_order(
        store: SqliteStore) -> None:
    sessions = Sessions(store, RecordingOutlet(), render=False)
    table = await started(sessions, ai=2)
    one, two = table.seats[1].name, table.seats[2].name
    outcome = await sessions.act(CHANNEL, HOST, STEP, version=table.version)
    assert [e.text for e in outcome.events] == [
        bell_game.stepped_line("Hana"),
        rang_line(two),  # AI two is not to act: its offer first
        bell_game.stepped_line(one),
        rang_line(one),  # AI one's turn is over: now it may ring
        bell_game.stepped_line(two),
    ]
    assert T.to_act_seat(outcome.table) == 0


async def test_a_human_rings_out_of_turn_through_the_sessions_layer(
        store: SqliteStore) -> None:
    sessions = Sessions(store, RecordingOutlet(), render=False)
    table = await started(sessions, BOB)
    outcome = await sessions.act(CHANNEL, BOB, T.for_seat(RING, 1), version=table.version)
    assert state_of(outcome.table).rings == [1]
    assert T.to_act_seat(outcome.table) == 0
    with pytest.raises(IllegalAction) as caught:  # the post before is stale now
        await sessions.act(CHANNEL, HOST, STEP, version=table.version)
    assert caught.value.message == say("errors.stale")


class EndlessBells(BellGame):
    """Ringing never uses the bell up: an AI that never declines."""

    key = "endlessbells"

    def apply(self, state: BellState, seat: int, action: Action) -> tuple[BellState,
                                                                          list[Event]]:
        new, events = super().apply(state, seat, action)
        if action == RING:
            new.bells[seat] = True
        return new, events


async def test_a_run_of_offers_is_bounded_and_the_game_goes_on(
        store: SqliteStore, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(games._GAMES, EndlessBells.key, EndlessBells())
    monkeypatch.setattr(worker_module, "MAX_OFFERS_IN_A_ROW", 3)
    sessions = Sessions(store, RecordingOutlet(), render=False)
    table = await started(sessions, BOB, ai=1, kind=EndlessBells.key)
    outcome = await sessions.act(CHANNEL, HOST, STEP, version=table.version)
    assert outcome.delivered and outcome.post is not None
    rings = [e.text for e in outcome.events if e.text == rang_line(table.seats[2].name)]
    assert len(rings) == 3
    assert outcome.post.prompt is not None and outcome.post.prompt.seat == 1  # Bob's turn


async def test_without_the_chain_ai_step_plays_an_offer_first(store: SqliteStore) -> None:
    sessions = Sessions(store, RecordingOutlet(), ai_chain=False, render=False)
    table = await started(sessions, BOB, ai=1)
    await sessions.act(CHANNEL, HOST, STEP, version=table.version)
    outcome = await sessions.ai_step(CHANNEL)
    assert outcome is not None
    assert [e.text for e in outcome.events] == [rang_line(table.seats[2].name)]
    assert await sessions.ai_step(CHANNEL) is None  # Bob is to act, and no AI offers
