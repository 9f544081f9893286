"""Exactly once for every failure Discord can give, through the real bot and discord.py
against the fake Discord (tests/fakediscord/faults.py injects them): a 5xx on the post
and on the edit, a 400 on either, a storm of 429s per route and global, the live message
deleted, the gateway dropping mid-game.

Each case ends the same way: nothing stays owed in the store, no line shows twice (in
no message, at no version of it, nor in two messages), the newest controls work (a
click plays the next move), and the player is told once when their move waits.

What a 400 does (a request Discord finds malformed is our bug, and another try would be
refused the same): it is not retried and never owed; it is logged as ERROR once, and
the delivery goes on without the refused part: a refused edit of the live message is
posted as a new live message (the newest controls must reach the players), a refused
ping is left out.
"""

from __future__ import annotations

import json
import logging
from collections import Counter

import pytest

from bot.client import HauntBot
from bot.table_record import ENVELOPE_FORMATS
from bot.texts import say
from cogs import reply
from tests.conftest import BotFactory, ErrorCollector
from tests.e2e_helpers import game_components, latest_turn, said, to_move, turn_posts, use_first
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser
from tests.fakediscord.faults import A_MESSAGE, MESSAGES, drop_gateway

FILL_MOVES = 300  # bounded: a few moves fill the database's last pages


@pytest.fixture(autouse=True)
def deferred_clicks(monkeypatch: pytest.MonkeyPatch) -> None:
    """The faults here hit the PATCH of the live message: clicks take the path of a slow
    action, deferred first and then edited (a click answered by its edit, and a fault
    on that answer, are tests/test_e2e_one_message.py's)."""
    monkeypatch.setattr(reply, "PATIENCE", 0.0)


class Game:
    """A running two-player Cthulhu game, through the real bot."""

    def __init__(self, fd: FakeDiscord, bot: HauntBot, channel: int,
                 users: dict[int, FakeUser]) -> None:
        self.fd, self.bot, self.channel, self.users = fd, bot, channel, users

    @property
    def live(self) -> FakeMessage:
        return latest_turn(self.fd, self.channel)

    async def move(self) -> list[str]:
        """The player to move plays their first control (both halves of a two-step
        choice); what they were told by the click that played it."""
        live = self.live
        user = self.users[to_move(live) or 0]
        handle = await use_first(self.fd, user, live)  # and a two-step's second half
        return handle.ephemeral_texts()

    async def owed(self) -> bool:
        table = await self.bot.store.load(self.channel)
        assert table is not None
        return table.delivered_seq < table.last_seq

    async def assert_shown_once(self) -> None:
        """No line twice in any version of a message, and no line in more messages than
        the game logged it (a line such as "It's alice's turn." is said every turn)."""
        table = await self.bot.store.load_latest(self.channel)
        assert table is not None and table.id is not None
        logged = Counter(e.text for e in await self.bot.store.log(table.id, limit=10**6))
        where: dict[str, set[int]] = {}
        for message in self.fd.channel_messages(self.channel):
            if message.author_id != self.fd.bot_user.id or message.interaction_id:
                continue
            for version in [*message.history, message.snapshot()]:
                lines = [x for x in said(version).splitlines()
                         if x.strip()]
                assert len(lines) == len(set(lines)), lines
                for line in lines:
                    if line in logged:  # not a footer or a ping
                        where.setdefault(line, set()).add(message.id)
        twice = {line: ids for line, ids in where.items() if len(ids) > logged[line]}
        assert twice == {}

    async def ends_well(self) -> None:
        """Nothing owed, nothing twice, and the newest controls play the next move."""
        await self.fd.settle()
        assert not await self.owed()
        await self.assert_shown_once()
        posts = turn_posts(self.fd, self.channel)
        assert await self.move() == []
        assert turn_posts(self.fd, self.channel) == posts + 1
        assert not await self.owed()
        await self.assert_shown_once()


async def started(fd: FakeDiscord, start_hauntkeeper: BotFactory,
                  game: str = "cthulhu") -> Game:
    channel = fd.add_channel("haunted")
    alice, bob = fd.add_user("alice"), fd.add_user("bob")
    bot = await start_hauntkeeper()
    lobby = (await (await fd.slash(alice, channel, "game", "new", game=game,
                                   seed=11)).wait()).response
    assert lobby is not None
    ids = lobby.custom_ids()
    await (await fd.click(bob, lobby, next(c for c in ids if c.endswith(":lobby.join")))).wait()
    await (await fd.click(alice, lobby, next(c for c in ids if c.endswith(":lobby.start")))
           ).wait()
    return Game(fd, bot, channel, {alice.id: alice, bob.id: bob})


@pytest.mark.parametrize("method,path", [("PATCH", A_MESSAGE), ("POST", MESSAGES)],
                         ids=["edit", "post"])
async def test_a_5xx_leaves_the_move_owed_told_once_and_sent_once_later(
        fd: FakeDiscord, start_hauntkeeper: BotFactory, method: str, path: str) -> None:
    game = await started(fd, start_hauntkeeper)
    fault = fd.faults.add(method, path, 503, times=1)  # POST: the ping to the next player
    # told once, the move stands; a refused ping leaves the board shown, and says so
    told = "delivery_owed" if method == "PATCH" else "delivery_rest_owed"
    assert await game.move() == [say(told)]
    assert fault.hits == 1 and await game.owed()
    assert await game.bot.resume_games(ai_turns=False) == 1  # the retry
    await game.ends_well()


async def test_a_500_once_is_retried_by_discord_py_and_shows_once(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    game = await started(fd, start_hauntkeeper)
    fault = fd.faults.add("PATCH", A_MESSAGE, 500, times=1)
    assert await game.move() == []  # discord.py tried again and it went through
    assert fault.hits == 1
    await game.ends_well()


@pytest.mark.parametrize("method,path", [("PATCH", A_MESSAGE), ("POST", MESSAGES)],
                         ids=["edit", "post"])
async def test_a_400_is_dropped_with_one_error_and_never_owed(
        fd: FakeDiscord, start_hauntkeeper: BotFactory, method: str, path: str) -> None:
    game = await started(fd, start_hauntkeeper)
    fault = fd.faults.add(method, path, 400, code=50035, times=1)  # POST: the ping
    collector = next(h for h in logging.getLogger().handlers
                     if isinstance(h, ErrorCollector))
    assert await game.move() == []
    assert fault.hits == 1 and not await game.owed()  # not owed forever
    errors = [r for r in collector.records if "malformed" in r.getMessage()]
    assert len(errors) == 1 and len(collector.records) == 1
    collector.records.clear()  # the one ERROR this case expects
    await game.ends_well()


@pytest.mark.parametrize("is_global", [False, True], ids=["route", "global"])
async def test_a_429_storm_is_waited_out_and_shows_once(
        fd: FakeDiscord, start_hauntkeeper: BotFactory, is_global: bool) -> None:
    game = await started(fd, start_hauntkeeper)
    fault = fd.faults.rate_limited("PATCH", A_MESSAGE, times=3, is_global=is_global)
    assert await game.move() == []  # discord.py waited as told and tried again
    assert fault.hits == 3
    await game.ends_well()


async def test_a_429_storm_longer_than_discord_py_waits_is_owed_then_sent_once(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    game = await started(fd, start_hauntkeeper)
    fault = fd.faults.rate_limited("PATCH", A_MESSAGE, times=5)  # its five tries
    assert await game.move() == [say("delivery_owed")]
    assert fault.hits == 5 and await game.owed()
    assert await game.bot.resume_games(ai_turns=False) == 1
    await game.ends_well()


async def test_a_deleted_live_message_is_posted_anew_once(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    game = await started(fd, start_hauntkeeper)
    old = game.live

    def removed() -> None:  # someone removed it as the move was played
        fd.message(old.id).deleted = True

    fd.faults.add("PATCH", A_MESSAGE, 404, code=10008, on_hit=removed)
    assert await game.move() == []
    assert game.live.id != old.id and not await game.owed()
    await game.ends_well()


async def test_the_gateway_dropping_mid_game_is_resumed(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    game = await started(fd, start_hauntkeeper)
    resumed = fd.resume_count
    await drop_gateway(fd)
    await fd.wait_until(lambda: fd.resume_count > resumed, timeout=20,
                        what="discord.py resumed the session")
    assert await game.move() == []
    await game.ends_well()


@pytest.mark.parametrize("fault", ["disk full", "read-only"])
async def test_the_sqlite_file_full_or_read_only_is_one_calm_line_and_then_plays(
        fd: FakeDiscord, start_hauntkeeper: BotFactory, fault: str,
        caplog: pytest.LogCaptureFixture) -> None:
    """The store away (SQLite's disk full: PRAGMA max_page_count; its file read-only:
    PRAGMA query_only, since a chmod does not stop root): each click is answered with
    one calm line and changes nothing, the log says the real cause once; with room again
    the next click plays, and nothing is owed or shown twice."""
    game = await started(fd, start_hauntkeeper)
    store = game.bot.store
    if fault == "read-only":
        await store.execute("PRAGMA query_only = ON")
    else:
        pages = (await store.execute("PRAGMA page_count"))[0][0]
        await store.execute(f"PRAGMA max_page_count = {pages}")
    down = say("errors.store_down")
    with caplog.at_level(logging.INFO):
        told = []
        for _ in range(FILL_MOVES):  # the moves that still fit, then the outage
            told = await game.move()
            if told == [down]:
                break
        assert told == [down]
        table = await store.load(game.channel)
        posts = turn_posts(fd, game.channel)
        assert await game.move() == [down]  # again: calm, and nothing changes
        after = await store.load(game.channel)
        assert after is not None and table is not None and after.version == table.version
        assert turn_posts(fd, game.channel) == posts
    cause = "read-only" if fault == "read-only" else "disk is full"
    said = [r.getMessage() for r in caplog.records
            if r.levelno >= logging.WARNING and not r.name.startswith("discord")]
    assert len(said) == 1 and cause in said[0], said
    assert not any(r.exc_info for r in caplog.records)
    if fault == "read-only":
        await store.execute("PRAGMA query_only = OFF")
    else:
        await store.execute("PRAGMA max_page_count = 1073741823")
    await game.ends_well()


async def test_a_game_saved_by_a_newer_release_is_named_so_and_left_untouched(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """A table whose stored format is past this code's (a newer release saved it, then
    an older one was started) is never guessed at: a click or a command on it says so
    in one private line, the store keeps the row byte for byte, and the host reads a
    warning in the log."""
    game = await started(fd, start_hauntkeeper)
    store = game.bot.store
    table = await store.load(game.channel)
    assert table is not None and table.id is not None
    (row,) = await store.execute("SELECT state_json, version FROM games WHERE id = ?",
                                 (table.id,))
    raw = json.loads(row[0])
    raw["format"] = ENVELOPE_FORMATS.current + 1
    newer = json.dumps(raw)
    await store.execute("UPDATE games SET state_json = ? WHERE id = ?", (newer, table.id))
    live = game.live
    user = game.users[to_move(live) or 0]
    comp = game_components(live)[0]
    clicked = await (fd.click(user, live, comp["custom_id"]) if comp["type"] == 2 else
                     fd.select(user, live, comp["custom_id"], [comp["options"][0]["value"]]))
    await clicked.wait()
    status = await (await fd.slash(user, game.channel, "game", "status")).wait()
    for handle in (clicked, status):
        assert handle.ephemeral_texts() == [say("errors.newer_release")]
    assert await store.execute("SELECT state_json, version FROM games WHERE id = ?",
                               (table.id,)) == [(newer, row[1])]
