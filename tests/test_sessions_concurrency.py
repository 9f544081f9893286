"""Many tables at once: channels saving at the same moment all succeed, and nothing a
save owes Discord is lost when the delivery fails or the process dies before it.

A connection holds one transaction at a time; when the store sent a transaction's
statements one by one from the event loop, a second channel's BEGIN landed inside the
first one's transaction ("cannot start a transaction within a transaction") and the
second player was told "busy". Now each transaction is one call on the store's writer
thread.
"""

from __future__ import annotations

import asyncio
import random
import threading
import time
from pathlib import Path

import pytest

from bot import games
from bot import table as T
from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.core.events import Event, to_player
from bot.delivery import delivery_key
from bot.sessions import Post, Prompt, Sessions
from bot.store import ACTIVE, OVER, Table, open_store
from bot.texts import say
from tests.test_sessions import GUILD, KIND, RecordingOutlet

GAME = games.get(KIND)
CHANNELS = 50
ROUNDS = 6


def players(channel: int) -> list[T.Actor]:
    return [T.Actor(channel * 10 + i, f"P{i}") for i in range(3)]


async def open_tables(sessions: Sessions, count: int, base: int = 1000) -> list[int]:
    channels = [base + n for n in range(count)]
    for channel in channels:
        host, *guests = players(channel)
        await sessions.open(channel, GUILD, host, KIND, channel)
        for guest in guests:
            await sessions.act(channel, guest, Action(T.JOIN))
        await sessions.act(channel, host, Action(T.START))
    return channels


async def turn_of(sessions: Sessions, channel: int) -> tuple[Table, Prompt, T.Actor]:
    """The channel's game, what it waits for, and the player it waits for."""
    table = await sessions.table(channel)
    assert table is not None and table.status == ACTIVE
    prompt = sessions.prompt(table)
    assert prompt is not None and prompt.user_id is not None
    return table, prompt, T.Actor(prompt.user_id, prompt.name)


async def one_turn(sessions: Sessions, channel: int, rng: random.Random) -> None:
    """The player whose move it is picks one of their legal options, as a click would."""
    table, prompt, actor = await turn_of(sessions, channel)
    option = rng.choice(prompt.options)
    await sessions.act(channel, actor, option.action, version=table.version)


async def test_fifty_channels_acting_at_once_all_succeed(tmp_path: Path) -> None:
    store = await open_store(tmp_path / "many.sqlite3")
    try:
        outlet = RecordingOutlet()
        sessions = Sessions(store, outlet, render=False)
        channels = await open_tables(sessions, CHANNELS)
        before = {c: (await store.load(c)).version for c in channels}  # type: ignore[union-attr]
        rngs = {c: random.Random(c) for c in channels}
        refusals: list[BaseException] = []
        for _ in range(ROUNDS):  # every channel clicks at the same moment, again and again
            results = await asyncio.gather(*(one_turn(sessions, c, rngs[c]) for c in channels),
                                           return_exceptions=True)
            refusals += [r for r in results if isinstance(r, BaseException)]
        assert refusals == []
        for channel in channels:
            table = await store.load_latest(channel)
            assert table is not None and table.id is not None
            # no update lost: each channel's version counts exactly its actions
            assert table.version == before[channel] + ROUNDS
            log = await store.log(table.id, limit=10_000, public_only=False)
            assert table.delivered_seq == table.last_seq == log[-1].seq == len(log)
        assert len(outlet.posts) == CHANNELS * (ROUNDS + 1)  # the starts, then every turn
    finally:
        await store.close()


async def test_a_raced_click_on_one_channel_is_refused_once(tmp_path: Path) -> None:
    """The per-channel lock still serialises one channel: of two clicks on the same
    button at once, one plays and the other hears the button is stale."""
    store = await open_store(tmp_path / "race.sqlite3")
    try:
        sessions = Sessions(store, RecordingOutlet(), render=False)
        [channel] = await open_tables(sessions, 1)
        table, prompt, actor = await turn_of(sessions, channel)
        action = prompt.options[0].action
        results = await asyncio.gather(
            *(sessions.act(channel, actor, action, version=table.version) for _ in range(2)),
            return_exceptions=True)
        refused = [r for r in results if isinstance(r, BaseException)]
        assert len(refused) == 1 and isinstance(refused[0], IllegalAction)
        assert refused[0].message == say("errors.stale")
        assert (await store.load(channel)).version == table.version + 1  # type: ignore[union-attr]
    finally:
        await store.close()


async def test_saves_on_two_channels_interleave_inside_the_store(tmp_path: Path) -> None:
    """At the store itself: a transaction held open by one channel (a slow executemany)
    while another channel saves must not fail either."""
    store = await open_store(tmp_path / "store.sqlite3")
    try:
        tables = []
        for channel in (1, 2):
            table = Table(channel_id=channel, guild_id=1, kind=KIND, host_id=1, seed=1,
                          status=ACTIVE, state={"n": 0})
            tables.append(await store.create(table, [], 1, None))

        async def saves(table: Table) -> Table:
            for n in range(30):
                assert table.state is not None
                table.state = {"n": n + 1}
                table = await store.save(table, [Event(f"{n}")] * 5,
                                         expected_version=table.version, actor_id=1, action=None)
            return table

        done = await asyncio.gather(*(saves(t) for t in tables))
        assert [t.version for t in done] == [31, 31]
        for t in done:
            again = await store.load(t.channel_id)
            assert again is not None and again.state == {"n": 30} and again.last_seq == 150
    finally:
        await store.close()


# ---------------------------------------------------------------- the outbox

class FlakyOutlet(RecordingOutlet):
    """Discord is down for the first `failures` posts."""

    def __init__(self, failures: int) -> None:
        super().__init__()
        self.failures = failures
        self.keys: list[str] = []

    async def publish(self, table: Table, post: Post) -> None:
        self.keys.append(post.key)
        if self.failures > 0:
            self.failures -= 1
            raise ConnectionError("Discord is unreachable")
        await super().publish(table, post)


async def test_a_failed_post_stays_owed_and_goes_out_once_later(tmp_path: Path) -> None:
    store = await open_store(tmp_path / "owed.sqlite3")
    try:
        outlet = FlakyOutlet(failures=0)
        sessions = Sessions(store, outlet, render=False)
        [channel] = await open_tables(sessions, 1)
        table, prompt, actor = await turn_of(sessions, channel)
        outlet.failures = 1
        outcome = await sessions.act(channel, actor, prompt.options[0].action,
                                     version=table.version)
        # the move is saved and says so; its post is owed, not lost
        assert not outcome.delivered and outcome.table.version == table.version + 1
        saved = await store.load(channel)
        assert saved is not None and saved.delivered_seq < saved.last_seq
        owed = await store.undelivered(saved.id or 0)
        assert [e.text for e in owed] == [e.text for e in outcome.events]
        assert (saved.id, channel) in await store.needing_attention(ai_turns=False)
        posts_before = len(outlet.posts)
        again = await sessions.resume(channel)
        assert again is not None and again.delivered and again.post is not None
        assert again.post.lines == [e.text for e in outcome.events if e.audience.is_public]
        assert again.post.key == outlet.keys[-2] == delivery_key(saved.id or 0, saved.version)
        assert len(outlet.posts) == posts_before + 1
        assert await store.undelivered(saved.id or 0) == []
        assert await sessions.resume(channel) is None  # nothing more is owed
        # the next action's post carries only its own lines
        table, prompt, actor = await turn_of(sessions, channel)
        nxt = await sessions.act(channel, actor, prompt.options[0].action,
                                 version=table.version)
        assert nxt.post is not None and nxt.delivered
        assert nxt.post.lines == [e.text for e in nxt.events if e.audience.is_public]
    finally:
        await store.close()


async def test_lines_owed_from_a_failed_post_go_first_under_their_own_key(
        tmp_path: Path) -> None:
    """A click while a post is owed: the owed post goes out first, under the key of the
    version it was planned for (Discord's nonce check then knows a copy sent before a
    crash), and the new move's post carries only its own lines, under its own key."""
    store = await open_store(tmp_path / "lead.sqlite3")
    try:
        outlet = FlakyOutlet(failures=0)
        sessions = Sessions(store, outlet, render=False)
        [channel] = await open_tables(sessions, 1)
        outcomes = []
        for failures in (1, 0):
            outlet.failures = failures
            table, prompt, actor = await turn_of(sessions, channel)
            outcomes.append(await sessions.act(channel, actor, prompt.options[0].action,
                                               version=table.version))
        first, second = outcomes
        assert not first.delivered and second.delivered and second.post is not None
        game = first.table.id or 0
        failed_key, owed_key, new_key = outlet.keys[-3:]
        assert failed_key == owed_key == delivery_key(game, first.table.version)
        assert new_key == delivery_key(game, second.table.version) != owed_key
        owed_post, new_post = (post for _, post in outlet.posts[-2:])
        assert owed_post.lines == [e.text for e in first.events if e.audience.is_public]
        assert new_post.lines == [e.text for e in second.events if e.audience.is_public]
        assert not set(owed_post.lines) & set(new_post.lines)
    finally:
        await store.close()


async def test_a_click_while_the_owed_post_still_fails_is_refused_and_changes_nothing(
        tmp_path: Path) -> None:
    store = await open_store(tmp_path / "refused.sqlite3")
    try:
        outlet = FlakyOutlet(failures=0)
        sessions = Sessions(store, outlet, render=False)
        [channel] = await open_tables(sessions, 1)
        outlet.failures = 2
        table, prompt, actor = await turn_of(sessions, channel)
        first = await sessions.act(channel, actor, prompt.options[0].action)
        assert not first.delivered
        table, prompt, actor = await turn_of(sessions, channel)
        with pytest.raises(IllegalAction) as refused:
            await sessions.act(channel, actor, prompt.options[0].action)
        assert refused.value.message == say("errors.still_owed")
        after = await store.load(channel)
        assert after is not None and after.version == table.version
        assert after.delivered_seq < after.last_seq
    finally:
        await store.close()


async def test_a_crash_between_save_and_post_is_delivered_at_the_next_start(
        tmp_path: Path) -> None:
    """The save and its outbox are one transaction: a process that dies right after the
    commit (here: a store written directly, and closed) owes the post, the whispers and
    the prompt, and the next process delivers each once."""
    path = tmp_path / "crash.sqlite3"
    store = await open_store(path)
    sessions = Sessions(store, RecordingOutlet(), render=False)
    [channel] = await open_tables(sessions, 1)
    table, prompt, actor = await turn_of(sessions, channel)
    new, events = T.apply(table, actor, prompt.options[0].action)
    events = [*events, Event("a secret", to_player(prompt.seat))]
    await store.save(new, events, expected_version=table.version, actor_id=actor.user_id,
                     action=None, ai_turn=False)
    await store.close()  # the process is gone before delivering

    store = await open_store(path)
    try:
        outlet = RecordingOutlet()
        after = Sessions(store, outlet, render=False)
        waiting = await store.needing_attention()
        assert [c for _, c in waiting] == [channel]
        outcome = await after.resume(channel)
        assert outcome is not None and outcome.post is not None
        assert outcome.post.lines == [e.text for e in events if e.audience.is_public]
        assert outlet.whispers == [(prompt.user_id, "a secret")]
        assert outcome.post.prompt is not None  # the newest controls, at the saved version
        assert outcome.post.prompt.version == table.version + 1
        assert await store.needing_attention() == []
        assert await after.resume(channel) is None
        assert len(outlet.posts) == 1
    finally:
        await store.close()


async def test_a_finished_games_last_post_is_owed_too(tmp_path: Path) -> None:
    """A crash right after the winning move: the game is over, its end still posted."""
    path = tmp_path / "end.sqlite3"
    store = await open_store(path)
    sessions = Sessions(store, RecordingOutlet(), render=False)
    [channel] = await open_tables(sessions, 1)
    table = await store.load(channel)
    assert table is not None
    ended, events = T.apply(table, T.Actor(table.host_id, "P0"), Action(T.END))
    await store.save(ended, events, expected_version=table.version, actor_id=table.host_id,
                     action=None)
    assert await store.load(channel) is None
    outlet = RecordingOutlet()
    after = Sessions(store, outlet, render=False)
    try:
        [(game_id, found)] = await store.needing_attention()
        assert found == channel
        outcome = await after.resume(channel, game_id)
        assert outcome is not None and outcome.table.status == OVER
        assert outlet.lines == [e.text for e in events]
        assert await store.needing_attention() == []
    finally:
        await store.close()


async def test_an_ai_step_that_fails_after_the_users_save_reports_the_users_move(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """The user's action was saved: they hear it was played (not "the game is
    unchanged"), its post goes out, and the store still knows an AI is to act."""
    store = await open_store(tmp_path / "ai.sqlite3")
    try:
        outlet = RecordingOutlet()
        sessions = Sessions(store, outlet, render=False)
        host, guest, _ = players(7)
        await sessions.open(7, GUILD, host, KIND, 7)
        await sessions.act(7, guest, Action(T.JOIN))
        await sessions.act(7, host, Action(T.ADD_AI))
        await sessions.act(7, host, Action(T.START))
        for _ in range(30):  # play until a human's move hands the turn to the AI
            table = await store.load(7)
            assert table is not None
            prompt = sessions.prompt(table)
            assert prompt is not None and prompt.user_id is not None
            option = next((o for o in prompt.options if _hands_to_ai(table, o.action)), None)
            if option is not None:
                break
            await sessions.act(7, T.Actor(prompt.user_id, prompt.name),
                               prompt.options[0].action, version=table.version)
        else:
            pytest.skip("no move handed the turn to the AI")

        def broken(table: Table, offer: bool = False) -> None:
            raise RuntimeError("the AI is broken")

        monkeypatch.setattr(T, "ai_decision", broken)  # what the worker asks of the AI
        outcome = await sessions.act(7, T.Actor(prompt.user_id, prompt.name), option.action,
                                     version=table.version)
        assert outcome.delivered and outcome.post is not None
        assert outcome.table.version == table.version + 1
        saved = await store.load(7)
        assert saved is not None and T.ai_to_act(saved)
        assert (saved.id, 7) in await store.needing_attention()
        assert "the AI is broken" in caplog.text
        caplog.clear()
    finally:
        await store.close()


def _hands_to_ai(table: Table, action: Action) -> bool:
    seat = T.to_act_seat(table)
    assert seat is not None
    new, _ = T.apply(table, T.Actor(table.seats[seat].user_id, "x"), action)
    return new.status == ACTIVE and T.ai_to_act(new)


async def test_needing_attention_reads_ids_only(tmp_path: Path) -> None:
    """Games saved before the store tracked AI turns count as "maybe" (resumed once,
    which records what it found, so the next start skips them); games that need
    nothing are left out."""
    store = await open_store(tmp_path / "ids.sqlite3")
    try:
        sessions = Sessions(store, RecordingOutlet(), render=False)
        await open_tables(sessions, 3)
        assert await store.needing_attention() == []
        await store.execute("UPDATE games SET ai_turn = NULL WHERE channel_id = 1001")
        [(game_id, channel)] = await store.needing_attention()
        assert channel == 1001
        assert await store.needing_attention(ai_turns=False) == []
        table = await store.load(channel)
        assert table is not None
        await store.settle_ai_turn(game_id, table.version - 1, False)  # stale: no effect
        assert await store.needing_attention() == [(game_id, channel)]
        assert await sessions.resume(channel, game_id) is None  # a human's turn
        assert await store.needing_attention() == []
        again = await store.load(channel)
        assert again is not None and again.version == table.version  # no new version
    finally:
        await store.close()


async def test_a_long_ai_chain_in_one_channel_does_not_hold_up_another(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """AI steps run off the event loop, one at a time with the loop free between them: a
    channel whose move sets off many slow AI decisions (a /gm skip in a long haunt) does
    not keep a neighbour's click waiting until it is done."""
    store = await open_store(tmp_path / "chain.sqlite3")
    try:
        sessions = Sessions(store, RecordingOutlet(), render=False)
        host, guest, _ = players(8)
        await sessions.open(8, GUILD, host, KIND, 8)
        await sessions.act(8, guest, Action(T.JOIN))
        for _ in range(3):
            await sessions.act(8, host, Action(T.ADD_AI))
        await sessions.act(8, host, Action(T.START))
        [other] = await open_tables(sessions, 1)
        # every seat of channel 8 is the AI's now but the host's; each AI step is slow
        await sessions.act(8, T.Actor(0, "Mod", moderator=True),
                           Action(T.KICK, {"user": guest.user_id or 0}))
        real = T.ai_decision
        loop_thread = threading.current_thread()
        ticks = [0]
        steps: list[tuple[bool, int, int]] = []  # off the loop's thread, ticks before, after

        def slow(table: Table, offer: bool = False) -> tuple[int, Action]:
            before = ticks[0]
            time.sleep(0.02)  # a heavy decision, in whatever thread runs it
            steps.append((threading.current_thread() is not loop_thread, before, ticks[0]))
            return real(table, offer)

        monkeypatch.setattr(T, "ai_decision", slow)  # what the worker asks of the AI
        table = await store.load(8)
        assert table is not None
        while True:  # the host's move that hands the turn to the AI
            prompt = sessions.prompt(table)
            assert prompt is not None and prompt.user_id == host.user_id
            if _hands_to_ai(table, prompt.options[0].action):
                break
            await sessions.act(8, host, prompt.options[0].action, version=table.version)
            table = await store.load(8)
            assert table is not None
        finished: list[str] = []

        async def chain() -> None:
            await sessions.act(8, host, prompt.options[0].action, version=table.version)
            finished.append("chain")

        async def neighbour() -> None:
            while not steps:  # the chain has begun
                await asyncio.sleep(0.001)
            await one_turn(sessions, other, random.Random(1))
            finished.append("neighbour")

        async def ticker() -> None:
            while "chain" not in finished:
                ticks[0] += 1
                await asyncio.sleep(0.001)

        await asyncio.gather(chain(), neighbour(), ticker())
        assert len(steps) >= 3, "the move did not set off an AI chain"
        assert all(off for off, _, _ in steps)  # never on the event loop's thread
        assert all(after > before for _, before, after in steps)  # the loop ran meanwhile
        assert finished == ["neighbour", "chain"]
    finally:
        await store.close()
