"""bot/sessions.py: the only door to a game, over a real SQLite store.

Each test records what an Outlet was asked to show (public posts, whispers) and checks
it against what the store saved and what the engine says, never against copied text.
"""

from __future__ import annotations

import asyncio
import io
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot import games
from bot import table as T
from bot import worker as worker_module
from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.core.events import Event
from bot.delivery import board_hash, delivery_key
from bot.games.betrayal import content as betrayal_content
from bot.games.betrayal.haunting import base as haunting_base
from bot.locales import ENGLISH, LANGUAGES, current, speaking
from bot.sessions import Post, Sessions
from bot.store import ACTIVE, LOBBY, OVER, GameExists, SqliteStore, Store, Table, open_store
from bot.texts import and_list, say
from renderers import render_public

KIND = "cthulhu"
GAME = games.get(KIND)
CHANNEL = 500
GUILD = 9
SEED = 77

HOST = T.Actor(100, "Hana")
BOB = T.Actor(200, "Bob")
CAT = T.Actor(300, "Cat")
STRANGER = T.Actor(999, "Stranger")
MOD = T.Actor(42, "Mod", moderator=True)
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
ALL = 10**6  # a log limit that means "everything"


class RecordingOutlet:
    """Keeps every post, whisper and team message; whispers to `closed_dms` fail like
    closed DMs, and team messages do not reach `unreachable` users."""

    def __init__(self, closed_dms: set[int] | None = None,
                 unreachable: set[int] | None = None) -> None:
        self.posts: list[tuple[int, Post]] = []
        self.whispers: list[tuple[int, str]] = []
        self.failed: list[tuple[int, str]] = []
        self.teams: list[tuple[str, list[int], str]] = []
        self.reminders: list[tuple[int, int, str]] = []  # channel, user, text
        self.closed_dms = set(closed_dms or ())
        self.unreachable = set(unreachable or ())

    async def publish(self, table: Table, post: Post) -> None:
        self.posts.append((table.channel_id, post))

    async def whisper(self, table: Table, user_id: int, text: str, *, key: str = "") -> bool:
        if user_id in self.closed_dms:
            self.failed.append((user_id, text))
            return False
        self.whispers.append((user_id, text))
        return True

    async def team(self, table: Table, team: str, user_ids: list[int], text: str, *,
                   key: str = "") -> list[int]:
        self.teams.append((team, list(user_ids), text))
        return [u for u in user_ids if u in self.unreachable]

    async def remind(self, table: Table, user_id: int, text: str, *, key: str = "") -> None:
        self.reminders.append((table.channel_id, user_id, text))

    @property
    def lines(self) -> list[str]:
        return [line for _, post in self.posts for line in post.lines]

    def clear(self) -> None:
        self.posts.clear()
        self.whispers.clear()
        self.failed.clear()
        self.teams.clear()
        self.reminders.clear()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "sessions.sqlite3"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[SqliteStore]:
    s = await open_store(db_path)
    yield s
    await s.close()


@pytest.fixture
def outlet() -> RecordingOutlet:
    return RecordingOutlet()


@pytest.fixture
def sessions(store: SqliteStore, outlet: RecordingOutlet) -> Sessions:
    return Sessions(store, outlet)


# ---------------------------------------------------------------- helpers

async def open_game(sessions: Sessions, *guests: T.Actor, ai: int = 0,
                    start: bool = True) -> Table:
    await sessions.open(CHANNEL, GUILD, HOST, KIND, SEED)
    for guest in guests:
        await sessions.act(CHANNEL, guest, Action(T.JOIN))
    for _ in range(ai):
        await sessions.act(CHANNEL, HOST, Action(T.ADD_AI))
    if start:
        outcome = await sessions.act(CHANNEL, HOST, Action(T.START))
        assert outcome.table.status in (ACTIVE, OVER)
    table = await sessions.store.load(CHANNEL)
    assert table is not None
    return table


def state_of(table: Table) -> Any:
    assert table.state is not None
    return GAME.load(table.state)


def human_actor(table: Table, seat: int) -> T.Actor:
    holder = table.seats[seat]
    assert holder.is_human and holder.user_id is not None
    return T.Actor(holder.user_id, holder.name)


def private_events(events: list[Event]) -> list[Event]:
    return [e for e in events if not e.audience.is_public]


def expected_whispers(table: Table, events: list[Event]) -> list[tuple[int, str]]:
    """Each private event goes to the user of its seat, if a human holds it."""
    out: list[tuple[int, str]] = []
    for event in events:
        if event.audience.kind == "player":
            seat = table.seats[int(event.audience.ref)]
            if seat.is_human and seat.user_id is not None:
                out.append((seat.user_id, event.text))
    return out


def assert_png(data: bytes | None) -> None:
    assert data is not None and data.startswith(PNG_MAGIC)
    with Image.open(io.BytesIO(data)) as image:
        image.verify()


async def stored(store: Store) -> Table:
    return await stored_in(store, CHANNEL)


async def stored_in(store: Store, channel: int) -> Table:
    table = await store.load(channel)
    assert table is not None
    return table


# ---------------------------------------------------------------- opening

async def test_open_creates_a_lobby_and_a_second_open_is_refused(
        sessions: Sessions, store: SqliteStore, outlet: RecordingOutlet) -> None:
    outcome = await sessions.open(CHANNEL, GUILD, HOST, KIND, SEED)
    assert outcome.table.status == LOBBY and outcome.table.version == 1
    assert [e.text for e in outcome.events] == [say("lobby.joined", name=HOST.name)]
    with pytest.raises(GameExists):
        await sessions.open(CHANNEL, GUILD, BOB, KIND, SEED + 1)
    table = await stored(store)
    assert table.id == outcome.table.id and table.host_id == HOST.user_id
    assert await store.count_games() == 1
    # another channel is another table
    other = await sessions.open(CHANNEL + 1, GUILD, BOB, KIND, SEED)
    assert other.table.id != table.id
    assert outlet.posts == []  # lobby messages are the adapter's, not a post


async def test_lobby_actions_save_but_do_not_post(sessions: Sessions, store: SqliteStore,
                                                  outlet: RecordingOutlet) -> None:
    await sessions.open(CHANNEL, GUILD, HOST, KIND, SEED)
    outcome = await sessions.act(CHANNEL, BOB, Action(T.JOIN))
    assert outcome.post is None
    assert (await stored(store)).version == 2
    assert [s.user_id for s in (await stored(store)).seats] == [HOST.user_id, BOB.user_id]
    assert outlet.posts == []


async def test_acting_without_a_game_is_refused(sessions: Sessions) -> None:
    with pytest.raises(IllegalAction) as info:
        await sessions.act(CHANNEL, HOST, Action(T.JOIN))
    assert info.value.message == say("errors.no_game")


# ---------------------------------------------------------------- one action

async def test_start_posts_the_board_and_whispers_secrets_only_to_their_humans(
        sessions: Sessions, store: SqliteStore, outlet: RecordingOutlet) -> None:
    await open_game(sessions, BOB, ai=1, start=False)
    outcome = await sessions.act(CHANNEL, HOST, Action(T.START))
    assert outcome.post is not None
    assert len(outlet.posts) == 1 and outlet.posts[0] == (CHANNEL, outcome.post)
    post = outcome.post
    assert_png(post.image)
    # the start itself, then every public line of the game's setup (and of AI turns)
    assert post.lines[0] == say("lobby.started", game=GAME.title,
                                players=and_list([s.name for s in outcome.table.seats]))
    assert post.lines == [e.text for e in outcome.events if e.audience.is_public]
    secrets = private_events(outcome.events)
    assert secrets, "the game deals secrets at the start"
    table = outcome.table
    assert outlet.whispers == expected_whispers(table, outcome.events)
    # each human got exactly their own seat's secret; the AI seat got nothing
    ai_seat = next(i for i, s in enumerate(table.seats) if s.ai)
    for user_id, text in outlet.whispers:
        seat = table.seat_of(user_id)
        assert seat is not None
        assert any(e.text == text and e.audience.ref == str(seat) for e in secrets)
    ai_texts = [e.text for e in secrets if e.audience.ref == str(ai_seat)]
    assert ai_texts and not any(t in (w for _, w in outlet.whispers) for t in ai_texts)
    for event in secrets:
        assert event.text not in post.lines
        assert all(event.text not in line for line in post.lines)
    assert post.dm_failed == []


async def test_act_applies_saves_and_posts_one_prompt(
        sessions: Sessions, store: SqliteStore, outlet: RecordingOutlet) -> None:
    before = await open_game(sessions, BOB)
    outlet.clear()
    seat = GAME.to_act(state_of(before))
    assert seat is not None
    option = GAME.options(state_of(before), seat)[0]
    outcome = await sessions.act(CHANNEL, human_actor(before, seat), option.action,
                                 version=before.version)
    after = await stored(store)
    assert after.version == before.version + 1 == outcome.table.version
    expected_state, expected_events = GAME.apply(state_of(before), seat, option.action)
    assert after.state == GAME.dump(expected_state)
    assert len(outlet.posts) == 1
    post = outlet.posts[0][1]
    assert post is outcome.post
    assert post.lines == [e.text for e in expected_events if e.audience.is_public]
    assert_png(post.image)
    # The live message's hash of the board comes worked out with the plan, off the loop.
    assert post.image_hash == board_hash(post.image) != ""
    next_seat = GAME.to_act(state_of(after))
    assert next_seat is not None
    prompt = post.prompt
    assert prompt is not None
    assert prompt.seat == next_seat
    assert prompt.user_id == after.seats[next_seat].user_id
    assert prompt.name == after.seats[next_seat].name
    assert prompt.options == GAME.options(state_of(after), next_seat) and prompt.options
    assert prompt.version == after.version
    # the log holds what was posted
    assert after.id is not None
    logged = [e.text for e in await store.log(after.id, limit=ALL) if e.version == after.version]
    assert logged == post.lines


async def test_an_illegal_action_changes_nothing_and_posts_nothing(
        sessions: Sessions, store: SqliteStore, outlet: RecordingOutlet) -> None:
    before = await open_game(sessions, BOB)
    outlet.clear()
    seat = GAME.to_act(state_of(before))
    assert seat is not None
    other = 1 - seat
    option = GAME.options(state_of(before), seat)[0]
    attempts = [
        (human_actor(before, other), option.action),  # not their turn
        (human_actor(before, seat), Action("move", {"character": 999, "room": 0})),
        (human_actor(before, seat), Action("dance")),
        (STRANGER, option.action),  # not at the table
        (BOB, Action(T.START)),  # already started
        (HOST, Action(T.SKIP)),  # not a moderator
    ]
    assert before.id is not None
    log_before = await store.log(before.id, limit=ALL, public_only=False)
    for actor, action in attempts:
        with pytest.raises(IllegalAction) as info:
            await sessions.act(CHANNEL, actor, action)
        assert info.value.message
        now = await stored(store)
        assert now.version == before.version
        assert now.envelope() == before.envelope() and now.status == before.status
    assert await store.log(before.id, limit=ALL, public_only=False) == log_before
    assert outlet.posts == [] and outlet.whispers == []
    with pytest.raises(IllegalAction) as info:
        await sessions.act(CHANNEL, STRANGER, option.action)
    assert info.value.message == say("errors.not_seated")


async def test_a_stale_version_is_refused(sessions: Sessions, store: SqliteStore,
                                          outlet: RecordingOutlet) -> None:
    before = await open_game(sessions, BOB)
    outlet.clear()
    seat = GAME.to_act(state_of(before))
    assert seat is not None
    option = GAME.options(state_of(before), seat)[0]
    for version in (before.version - 1, before.version + 1):
        with pytest.raises(IllegalAction) as info:
            await sessions.act(CHANNEL, human_actor(before, seat), option.action,
                               version=version)
        assert info.value.message == say("errors.stale")
    now = await stored(store)
    assert now.version == before.version and now.envelope() == before.envelope()
    assert outlet.posts == []


# ---------------------------------------------------------------- the AI chain

async def test_one_human_act_lets_the_ai_seats_play_in_one_post(store: SqliteStore) -> None:
    outlet = RecordingOutlet()
    sessions = Sessions(store, outlet, render=False)
    table = await open_game(sessions, ai=2)
    assert table.id is not None
    chained = 0
    for _ in range(200):
        if table.status == OVER:
            break
        seat = GAME.to_act(state_of(table))
        assert seat is not None and table.seats[seat].is_human, "the chain stops at a human"
        outlet.clear()
        option = GAME.options(state_of(table), seat)[0]
        outcome = await sessions.act(CHANNEL, HOST, option.action, version=table.version)
        assert len(outlet.posts) == 1, "one act, one post"
        post = outlet.posts[0][1]
        after = await store.load_latest(CHANNEL)
        assert after is not None and after.version == outcome.table.version
        # every public line saved by this act and the AI turns after it, in order
        saved = [e for e in await store.log(table.id, limit=ALL) if e.version > table.version]
        assert post.lines == [e.text for e in saved]
        if after.version > table.version + 1:
            chained += 1
            ai_rows = [e for e in saved if e.version > table.version + 1]
            assert ai_rows and all(e.actor_id is None for e in ai_rows)
        if after.status == OVER:
            assert post.prompt is None
        else:
            assert post.prompt is not None
            assert post.prompt.user_id == HOST.user_id and post.prompt.version == after.version
            assert after.seats[post.prompt.seat].is_human
        assert outlet.whispers == expected_whispers(after, outcome.events)
        table = after
    assert chained > 0, "the AI seats never played"
    assert table.status == OVER


async def test_private_events_are_whispered_only_to_their_seat_and_failures_are_noted(
        store: SqliteStore) -> None:
    outlet = RecordingOutlet(closed_dms={BOB.user_id or 0})
    sessions = Sessions(store, outlet, render=False)
    await open_game(sessions, BOB, CAT, ai=1, start=False)
    outcome = await sessions.act(CHANNEL, HOST, Action(T.START))
    post = outcome.post
    assert post is not None
    expected = expected_whispers(outcome.table, outcome.events)
    delivered = [w for w in expected if w[0] != BOB.user_id]
    assert outlet.whispers == delivered
    assert outlet.failed == [w for w in expected if w[0] == BOB.user_id] and outlet.failed
    assert post.dm_failed == [BOB.user_id] == outcome.dm_failed
    assert {u for u, _ in outlet.whispers} == {HOST.user_id, CAT.user_id}
    for user_id, text in outlet.whispers + outlet.failed:
        seat = outcome.table.seat_of(user_id)
        mine = [e.text for e in outcome.events if e.audience.kind == "player"
                and e.audience.ref == str(seat)]
        assert text in mine
    private = {e.text for e in private_events(outcome.events)}
    assert not private & set(post.lines)
    assert post.image is None  # render=False


async def test_without_the_chain_ai_seats_wait_for_ai_step(store: SqliteStore) -> None:
    """The demo's mode: every AI decision is one ai_step, one save and one post."""
    outlet = RecordingOutlet()
    sessions = Sessions(store, outlet, ai_chain=False, render=False)
    await open_game(sessions, BOB, ai=1)
    await sessions.act(CHANNEL, MOD, Action(T.KICK, {"user": BOB.user_id or 0}))
    table = await stored(store)
    bob_seat = next(i for i, s in enumerate(table.seats) if s.user_id == BOB.user_id)
    assert table.seats[bob_seat].ai  # a kicked human: the seat keeps their id, the AI plays
    ai_steps = 0
    prompted_bob_seat = False
    for _ in range(100):
        seat = GAME.to_act(state_of(table))
        assert seat is not None
        outlet.clear()
        if table.seats[seat].ai:
            outcome = await sessions.ai_step(CHANNEL)
            ai_steps += 1
        else:
            assert await sessions.ai_step(CHANNEL) is None  # a human is to act
            assert outlet.posts == []
            option = GAME.options(state_of(table), seat)[0]
            outcome = await sessions.act(CHANNEL, HOST, option.action)
        assert outcome is not None
        after = await store.load_latest(CHANNEL)
        assert after is not None and after.version == table.version + 1
        assert len(outlet.posts) == 1
        prompt = outlet.posts[0][1].prompt
        if after.status == OVER:
            break
        assert prompt is not None and prompt.seat == T.to_act_seat(after)
        holder = after.seats[prompt.seat]
        assert prompt.user_id == (None if holder.ai else holder.user_id)
        assert prompt.name == holder.name
        prompted_bob_seat |= prompt.seat == bob_seat
        table = after
    assert ai_steps >= 2 and prompted_bob_seat


# ---------------------------------------------------------------- secrets on demand

async def test_secret_shows_the_callers_view_and_refuses_strangers(
        sessions: Sessions, store: SqliteStore) -> None:
    with pytest.raises(IllegalAction) as info:
        await sessions.secret(CHANNEL, HOST.user_id or 0)
    assert info.value.message == say("errors.no_game")
    await open_game(sessions, BOB, start=False)
    with pytest.raises(IllegalAction) as info:
        await sessions.secret(CHANNEL, HOST.user_id or 0)
    assert info.value.message == say("errors.not_started")
    table = await open_game_started(sessions)
    state = state_of(table)
    for actor in (HOST, BOB):
        seat = table.seat_of(actor.user_id or 0)
        assert seat is not None
        text = await sessions.secret(CHANNEL, actor.user_id or 0)
        view, _, said = text.partition("\n\n" + say("secret_lines") + "\n")
        assert view == GAME.private_view(state, seat)
        others = [GAME.private_view(state, s) for s in range(len(table.seats)) if s != seat]
        assert all(view != o for o in others)
        # The DM the seat was sent, repeated (a closed DM loses nothing), and no other's.
        mine = GAME.private_view(state, seat).split("\n")[2:4]
        assert said and all(line.split(":")[0].split()[-1] in said for line in mine)
        theirs = [ln for s in range(len(table.seats)) if s != seat
                  for ln in GAME.private_view(state, s).split("\n")[2:4]]
        assert not any(line.split(":")[0].split()[-1] in said for line in theirs)
    with pytest.raises(IllegalAction) as info:
        await sessions.secret(CHANNEL, STRANGER.user_id or 0)
    assert info.value.message == say("errors.not_seated")


async def open_game_started(sessions: Sessions) -> Table:
    await sessions.act(CHANNEL, HOST, Action(T.START))
    table = await sessions.store.load(CHANNEL)
    assert table is not None and table.status == ACTIVE
    return table


# ---------------------------------------------------------------- restart

async def test_resume_plays_the_ai_turns_a_crash_left_behind(
        db_path: Path, store: SqliteStore) -> None:
    first = Sessions(store, RecordingOutlet(), render=False)
    table = await open_game(first, BOB)
    seat = GAME.to_act(state_of(table))
    assert seat is not None
    target = human_actor(table, seat)
    # a kick saved straight to the store, as if the process died before the AI chain
    kicked, events = T.apply(table, MOD, Action(T.KICK, {"user": target.user_id or 0}))
    saved = await store.save(kicked, events, expected_version=table.version,
                             actor_id=MOD.user_id, action=None)
    assert T.ai_to_act(saved) and saved.status == ACTIVE
    await store.close()

    reopened = await open_store(db_path)
    try:
        outlet = RecordingOutlet()
        second = Sessions(reopened, outlet, render=False)
        outcome = await second.resume(CHANNEL)
        assert outcome is not None
        after = await reopened.load_latest(CHANNEL)
        assert after is not None and after.version > saved.version
        assert not T.ai_to_act(after)
        post = outcome.post
        # The kick was saved but never marked delivered (the crash): it goes out first,
        # under its own version's key (a post sent before the crash shows once), then
        # the AI's moves under theirs.
        assert post is not None and len(outlet.posts) == 2 and outlet.posts[1][1] is post
        owed_post = outlet.posts[0][1]
        assert owed_post.lines == [e.text for e in events]
        assert owed_post.key == delivery_key(saved.id or 0, saved.version)
        assert post.key == delivery_key(saved.id or 0, after.version)
        if after.status != OVER:  # it stopped at a human, and says so
            assert post.prompt is not None and post.prompt.version == after.version
            assert post.prompt.seat == T.to_act_seat(after)
            assert post.prompt.user_id == after.seats[post.prompt.seat].user_id
            assert after.seats[post.prompt.seat].is_human
        assert after.id is not None
        logged = [e.text for e in await reopened.log(after.id, limit=ALL)
                  if e.version > saved.version]
        assert post.lines == logged
        assert all(e.actor_id is None for e in await reopened.log(after.id, limit=ALL)
                   if e.version > saved.version)
        # nothing is left to resume
        outlet.clear()
        assert await second.resume(CHANNEL) is None
        assert outlet.posts == []
    finally:
        await reopened.close()


async def test_resume_without_ai_turns_does_nothing(sessions: Sessions,
                                                    outlet: RecordingOutlet) -> None:
    assert await sessions.resume(CHANNEL) is None
    table = await open_game(sessions, BOB)
    outlet.clear()
    assert await sessions.resume(CHANNEL) is None
    assert outlet.posts == []
    assert (await stored(sessions.store)).version == table.version


# ---------------------------------------------------------------- races

async def test_two_concurrent_acts_on_the_same_version_one_wins(
        sessions: Sessions, store: SqliteStore, outlet: RecordingOutlet) -> None:
    table = await open_game(sessions, BOB)
    outlet.clear()
    seat = GAME.to_act(state_of(table))
    assert seat is not None
    actor = human_actor(table, seat)
    option = GAME.options(state_of(table), seat)[0]
    results = await asyncio.gather(
        sessions.act(CHANNEL, actor, option.action, version=table.version),
        sessions.act(CHANNEL, actor, option.action, version=table.version),
        return_exceptions=True)
    errors = [r for r in results if isinstance(r, BaseException)]
    wins = [r for r in results if not isinstance(r, BaseException)]
    assert len(wins) == 1 and len(errors) == 1
    assert isinstance(errors[0], IllegalAction)
    assert errors[0].message == say("errors.stale")
    assert (await stored(store)).version == table.version + 1
    assert len(outlet.posts) == 1


async def test_two_processes_racing_on_one_file_cannot_both_write(db_path: Path,
                                                                  store: SqliteStore) -> None:
    """Two Sessions on two connections (no shared lock): the store's version check wins."""
    table = await open_game(Sessions(store, RecordingOutlet(), render=False), BOB)
    seat = GAME.to_act(state_of(table))
    assert seat is not None
    actor = human_actor(table, seat)
    option = GAME.options(state_of(table), seat)[0]

    both_loaded = asyncio.Barrier(2)

    class SlowLoad(SqliteStore):
        async def load(self, channel_id: int) -> Table | None:
            loaded = await super().load(channel_id)
            await both_loaded.wait()  # both read the same version before either writes
            return loaded

    a, b = SlowLoad(db_path), SlowLoad(db_path)
    await a.open()
    await b.open()
    try:
        outlets = [RecordingOutlet(), RecordingOutlet()]
        results = await asyncio.gather(
            Sessions(a, outlets[0], render=False).act(CHANNEL, actor, option.action),
            Sessions(b, outlets[1], render=False).act(CHANNEL, actor, option.action),
            return_exceptions=True)
    finally:
        await a.close()
        await b.close()
    errors = [r for r in results if isinstance(r, BaseException)]
    assert len(errors) == 1 and isinstance(errors[0], IllegalAction), results
    assert errors[0].message == say("errors.busy")
    # Read from the file: `store` is a third process here, whose kept row (bot/store/
    # kept.py) knows nothing of the other two's writes (one process owns a file).
    latest = await store.load_latest(CHANNEL)
    assert latest is not None and latest.version == table.version + 1
    assert sum(len(o.posts) for o in outlets) == 1


# ---------------------------------------------------------------- a whole game

async def test_a_whole_game_with_three_humans_ends_and_the_log_matches_the_posts(
        store: SqliteStore) -> None:
    outlet = RecordingOutlet()
    sessions = Sessions(store, outlet, render=False)
    rng = random.Random(SEED)
    opened = await sessions.open(CHANNEL, GUILD, HOST, KIND, SEED)
    lobby_lines = [e.text for e in opened.events]
    for guest in (BOB, CAT):
        lobby_lines += [e.text for e in (await sessions.act(CHANNEL, guest,
                                                            Action(T.JOIN))).events]
    outcome = await sessions.act(CHANNEL, HOST, Action(T.START))
    humans = {HOST.user_id: HOST, BOB.user_id: BOB, CAT.user_id: CAT}
    steps = 0
    while outcome.table.status != OVER:
        steps += 1
        assert steps < 1000, "the game did not end"
        assert outcome.post is not None and outcome.post.prompt is not None
        prompt = outcome.post.prompt
        assert prompt.user_id in humans
        assert prompt.options
        choice = rng.choice(prompt.options)
        outcome = await sessions.act(CHANNEL, humans[prompt.user_id], choice.action,
                                     version=prompt.version)
    final = await store.load_latest(CHANNEL)
    assert final is not None and final.status == OVER and GAME.is_over(state_of(final))
    assert await store.load(CHANNEL) is None
    assert final.version == 1 + 2 + 1 + steps  # open, two joins, start, every act
    assert len(outlet.posts) == steps + 1
    assert outcome.post is not None and outcome.post.prompt is None
    assert final.id is not None
    logged = [e.text for e in await store.log(final.id, limit=ALL)]
    assert logged == lobby_lines + outlet.lines
    # secrets never reached the public log or a post
    private = [e for e in await store.log(final.id, limit=ALL, public_only=False)
               if e.audience != "public"]
    assert private
    assert not {e.text for e in private} & set(outlet.lines)
    assert {u for u, _ in outlet.whispers} == set(humans)
    with pytest.raises(IllegalAction) as info:
        await sessions.act(CHANNEL, HOST, Action(T.END))
    assert info.value.message == say("errors.game_over")


# ---------------------------------------------------------------- a start's boards

async def test_warm_boards_draws_the_games_played_last_and_no_more_once_stopping(
        sessions: Sessions, monkeypatch: pytest.MonkeyPatch) -> None:
    """A start draws the boards of the games played last, newest first, up to its
    limit (their next click then draws only what changed); a stop ends it."""
    for channel in (CHANNEL, CHANNEL + 1, CHANNEL + 2):
        await sessions.open(channel, GUILD, HOST, KIND, SEED)
        await sessions.act(channel, BOB, Action(T.JOIN))
        await sessions.act(channel, HOST, Action(T.START))
    await sessions.open(CHANNEL + 3, GUILD, HOST, KIND, SEED)  # a lobby: no board yet
    drawn: list[Any] = []
    real = sessions.worker.board

    async def board(kind: str, state: Any, **kw: Any) -> bytes:
        drawn.append(state)
        return await real(kind, state, **kw)

    monkeypatch.setattr(sessions.worker, "board", board)
    assert await sessions.warm_boards(3) == 2  # the lobby, played last, has none
    newest = [await stored_in(sessions.store, c) for c in (CHANNEL + 2, CHANNEL + 1)]
    assert [GAME.dump(s) for s in drawn] == [GAME.dump(state_of(t)) for t in newest]
    broken = await stored_in(sessions.store, CHANNEL + 2)
    broken.state = {"format": 99}  # a newer release's save: that board is skipped
    await sessions.store.save(broken, [], expected_version=broken.version, actor_id=None,
                              action=None)
    drawn.clear()
    assert await sessions.warm_boards(3) == 1  # the others are still drawn
    assert [GAME.dump(s) for s in drawn] == [GAME.dump(state_of(newest[1]))]
    await sessions.drain(0)
    assert await sessions.warm_boards(3) == 0


async def test_warm_up_reads_every_languages_words_and_draws_the_chosen_ones_boards(
        sessions: Sessions, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Chinese table's first click, or an English one's first waiting choice (said
    in every language), finds the Chinese rooms, cards and haunts read already (they
    were read lazily in that click, ~100 ms of it). Boards are drawn ahead in English
    and the languages servers chose: Chinese board faces held 14 MB more."""
    drawn: list[tuple[str, str]] = []
    real = render_public

    def counted(kind: str, state: Any) -> bytes:
        drawn.append((current(), kind))
        return real(kind, state)

    monkeypatch.setattr(worker_module, "render_public", counted)
    betrayal_content.get()  # English, whatever came before
    betrayal_content._default.cache_clear()
    haunting_base.load_data.cache_clear()
    await sessions.warm_up()
    misses = betrayal_content._default.cache_info().misses
    haunt_misses = haunting_base.load_data.cache_info().misses
    for language in LANGUAGES:
        with speaking(language):
            betrayal_content.get()
            for key in haunting_base.PLUGINS:  # every haunt's book and words too
                haunting_base.load_data(key)
    assert betrayal_content._default.cache_info().misses == misses
    assert haunting_base.load_data.cache_info().misses == haunt_misses
    kinds = sorted(games.all_games())
    assert sorted(drawn) == [(ENGLISH, kind) for kind in kinds]

    for n, language in enumerate(LANGUAGES):
        if language != ENGLISH:
            await sessions.store.set_guild_settings(GUILD + n, {"language": language})
    assert await sessions.languages_drawn_ahead() == LANGUAGES
    drawn.clear()
    await sessions.warm_up()
    assert sorted(drawn) == sorted((language, kind) for language in LANGUAGES
                                   for kind in kinds)
