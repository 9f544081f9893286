"""A move's delivery planned in the move's own trip to the worker (bot/worker.py's
`Ahead`): one trip instead of two, used only when the save left the table it foresaw,
in the language and drawing the courier would plan with; else planned after the save,
as before. The post is the one a plan made after the save would make.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot import delivery as delivery_module
from bot.delivery import DOCUMENT_KINDS, Plan, delivery_key, plan, sequenced
from bot.guild_settings import GuildSettings
from bot.locales import CHINESE, ENGLISH
from bot.sessions import Sessions
from bot.store import ACTIVE, OVER, Store, Table
from bot.worker import Ahead, Chained, Played, Worker
from tests.test_sessions import (
    BOB,
    CHANNEL,
    GAME,
    GUILD,
    HOST,
    RecordingOutlet,
    assert_png,
    human_actor,
    open_game,
    state_of,
    stored,
)


@pytest.fixture
def store(any_store: Store) -> Store:
    """Each test on each store: the plan is made ahead on PostgreSQL too."""
    return any_store


@pytest.fixture
def outlet() -> RecordingOutlet:
    return RecordingOutlet()


@pytest.fixture
def sessions(store: Store, outlet: RecordingOutlet) -> Sessions:
    return Sessions(store, outlet)


class Trips:
    """Counts the plans made after a save (Worker.plan) and keeps each trip's Played,
    the player's move's and the AI chain's (a trip's steps as one), in order."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.plans = 0
        self.moves: list[Played] = []
        self.trips: list[Played] = []
        real_plan, real_move, real_ai = Worker.plan, Worker.move, Worker.ai_moves

        async def counted_plan(worker: Worker, *args: Any, **kwargs: Any) -> Plan:
            self.plans += 1
            return await real_plan(worker, *args, **kwargs)

        async def kept_move(worker: Worker, *args: Any, **kwargs: Any) -> Played:
            played = await real_move(worker, *args, **kwargs)
            self.moves.append(played)
            self.trips.append(played)
            return played

        async def kept_ai(worker: Worker, *args: Any, **kwargs: Any) -> Chained:
            chained = await real_ai(worker, *args, **kwargs)  # an AI chain's trip
            if chained.played is not None:
                self.trips.append(chained.played)
            return chained

        monkeypatch.setattr(Worker, "plan", counted_plan)
        monkeypatch.setattr(Worker, "move", kept_move)
        monkeypatch.setattr(Worker, "ai_moves", kept_ai)


async def first_option_played(sessions: Sessions) -> Any:
    """The player to act clicks their first option; the outcome."""
    table = await sessions.store.load(CHANNEL)
    assert table is not None
    seat = GAME.to_act(state_of(table))
    assert seat is not None
    option = GAME.options(state_of(table), seat)[0]
    return await sessions.act(CHANNEL, human_actor(table, seat), option.action,
                              version=table.version)


async def test_a_move_is_planned_in_its_own_trip_and_posts_what_a_plan_after_the_save_would(
        sessions: Sessions, store: Store, outlet: RecordingOutlet,
        monkeypatch: pytest.MonkeyPatch) -> None:
    await open_game(sessions, BOB)
    trips = Trips(monkeypatch)
    outlet.clear()
    outcome = await first_option_played(sessions)
    assert trips.plans == 0  # no second trip: the move's made the plan
    assert len(trips.moves) == 1 and trips.moves[0].ahead is not None
    assert outcome.delivered and len(outlet.posts) == 1
    post = outlet.posts[0][1]
    saved = await stored(store)
    again = plan(saved, sequenced(saved, outcome.events),
                 delivery_key(saved.id or 0, saved.version), language=ENGLISH)
    assert post.key == again.key == delivery_key(saved.id or 0, saved.version)
    assert (post.lines, post.seqs, post.documents) == (again.lines, again.seqs, again.documents)
    assert post.prompt == again.prompt and post.prompt is not None
    assert post.prompt.version == saved.version  # its buttons carry the saved version
    assert_png(post.image)
    assert (post.image, post.alt, post.image_hash) == (again.image, again.alt, again.image_hash)
    assert saved.delivered_seq == saved.last_seq  # delivered and marked


async def test_a_language_changed_before_the_delivery_gets_a_plan_in_it(
        sessions: Sessions, store: Store, outlet: RecordingOutlet,
        monkeypatch: pytest.MonkeyPatch) -> None:
    await open_game(sessions, BOB)
    trips = Trips(monkeypatch)
    real_move = Worker.move

    async def move_then_switch(worker: Worker, *args: Any, **kwargs: Any) -> Played:
        played = await real_move(worker, *args, **kwargs)
        assert played.ahead is not None and played.ahead.language == ENGLISH
        # a moderator switches the server to Chinese while the move is saved
        await sessions.settings.put(GUILD, GuildSettings(language=CHINESE))
        return played

    monkeypatch.setattr(Worker, "move", move_then_switch)
    outlet.clear()
    outcome = await first_option_played(sessions)
    assert trips.plans == 1  # planned again after the save, in Chinese
    post = outlet.posts[0][1]
    saved = await stored(store)
    chinese = plan(saved, sequenced(saved, outcome.events),
                   delivery_key(saved.id or 0, saved.version), language=CHINESE)
    english = trips.moves[0].ahead
    assert english is not None and english.plan.prompt is not None
    assert post.prompt == chinese.prompt and post.prompt is not None
    assert [o.label for o in post.prompt.options] != [
        o.label for o in english.plan.prompt.options]  # the buttons read Chinese now
    assert post.lines == chinese.lines


async def test_a_plan_that_fails_in_the_moves_trip_leaves_the_move_saved_and_delivered(
        sessions: Sessions, store: Store, outlet: RecordingOutlet,
        monkeypatch: pytest.MonkeyPatch) -> None:
    before = await open_game(sessions, BOB)
    trips = Trips(monkeypatch)
    real = delivery_module.board
    failures: list[str] = []

    def fails_once(kind: str, state: Any) -> Any:
        if not failures:
            failures.append(kind)
            raise RuntimeError("a renderer's bug, once")
        return real(kind, state)

    monkeypatch.setattr(delivery_module, "board", fails_once)
    outlet.clear()
    outcome = await first_option_played(sessions)
    assert failures == [GAME.key]
    assert trips.moves[0].ahead is None and trips.plans == 1
    saved = await stored(store)
    assert saved.version == before.version + 1 and outcome.delivered
    assert saved.delivered_seq == saved.last_seq
    assert_png(outlet.posts[0][1].image)


async def test_ahead_only_when_nothing_but_the_save_comes_before_the_delivery(
        sessions: Sessions, store: Store, outlet: RecordingOutlet,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A whole game, two humans and an AI seat. A move the AI answers is planned by the
    AI chain's last step, with the move's events and every step's; the step that ends
    the game (its story joins the events in the save) leaves the plan to the courier
    after the save; every other trip that ends a click plans its delivery. Each post
    carries every event the click saved, and its saved version."""
    await open_game(sessions, BOB, ai=1)
    trips = Trips(monkeypatch)
    outlet.clear()
    ends = 0
    for _ in range(200):
        table = await store.load_latest(CHANNEL)
        assert table is not None
        if table.status != ACTIVE:
            break
        before = len(trips.trips)
        outcome = await first_option_played(sessions)
        mine = trips.trips[before:]
        saved = outcome.table
        over = saved.status == OVER
        ends += over
        assert (mine[-1].ahead is not None) == (not over)  # the last trip planned it
        assert all(p.ahead is None for p in mine[:-1])  # an AI step followed
        post = outlet.posts[-1][1]
        assert post.key == delivery_key(saved.id or 0, saved.version)
        public = [e for p in mine for e in p.events
                  if e.audience.is_public and e.kind not in DOCUMENT_KINDS]
        assert post.lines[:len(public)] == [e.text for e in public]
    assert table is not None and table.status == OVER and ends == 1
    assert trips.plans == ends  # the end's, after its save; none other
    assert any(t.ahead is not None for t in trips.moves)
    assert any(t.ahead is not None for t in trips.trips if t not in trips.moves)


def test_an_ahead_fits_only_the_table_key_language_and_drawing_it_was_made_for() -> None:
    made = plan_for_fit()
    table = Table(CHANNEL, GUILD, GAME.key, HOST.user_id or 0, 1, last_seq=7, id=3, version=4)
    key = delivery_key(3, 4)
    ahead = Ahead(made, ENGLISH, 7, True)
    assert ahead.fits(table, key, ENGLISH, True)
    assert not ahead.fits(table, delivery_key(3, 5), ENGLISH, True)  # another version
    assert not ahead.fits(Table(CHANNEL, GUILD, GAME.key, HOST.user_id or 0, 1, last_seq=8,
                                  id=3, version=4), key, ENGLISH, True)  # more events
    assert not ahead.fits(table, key, CHINESE, True)
    assert not ahead.fits(table, key, ENGLISH, False)


def plan_for_fit() -> Plan:
    return Plan(delivery_key(3, 4), [], [], [], [], None, None)

