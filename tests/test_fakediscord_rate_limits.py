"""Discord's rate limits in the fake Discord (tests/fakediscord/buckets.py), and the real
bot under them through the unmodified discord.py.

Discord's documentation (https://discord.com/developers/docs/topics/rate-limits) says what
the fake must do: "For most API requests made, we return optional HTTP response headers
containing the rate limit encountered during your request" (X-RateLimit-Limit,
-Remaining, -Reset, -Reset-After, -Bucket); limits are counted per top-level resource ("if
you exceeded a rate limit when calling one endpoint /channels/1234, you could still call
another similar endpoint like /channels/9876 without a problem"); a request past one gets
"a HTTP 429 response code with a JSON body" (message, retry_after, global) and
X-RateLimit-Scope; "All bots can make up to 50 requests per second"; and "Interaction
endpoints are not bound to the bot's Global Rate Limit". The exact numbers are not
published: the fake uses those commonly observed, and the bot must follow the headers.

The bot's side is the project's standard: nothing one channel does may slow another, no
post is lost, and an interaction is answered within Discord's 3 s even while a bucket is
waited out.
"""

from __future__ import annotations

import asyncio
import json
import math
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass

import aiohttp
import pytest

from bot.client import HauntBot
from tests.conftest import BotFactory
from tests.e2e_helpers import latest_turn, press_move, to_move, turn_posts
from tests.fakediscord import FakeChannel, FakeDiscord, FakeUser, InteractionHandle
from tests.fakediscord.buckets import DEFAULT_SCALE, NOT_GLOBAL, RATE_LIMITED, rule_for

MESSAGES = "channel-messages-create"
OTHER_PROCESS = "from the bot's other process"  # what the test posts as the same bot


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: object


class Wire:
    """Plain HTTP to the fake with the bot's token: what another process of the same bot
    sends (Discord counts a bot's limits by its token, not by its process)."""

    def __init__(self, fd: FakeDiscord, session: aiohttp.ClientSession) -> None:
        self.fd = fd
        self.session = session

    async def __call__(self, method: str, path: str, body: object = None) -> Answer:
        async with self.session.request(
                method, f"{self.fd.base_url}/api/v10{path}", json=body,
                headers={"Authorization": "Bot x"}) as response:
            raw = await response.read()
            return Answer(response.status, dict(response.headers),
                          json.loads(raw) if raw else None)

    async def post(self, channel: int) -> Answer:
        return await self("POST", f"/channels/{channel}/messages", {"content": OTHER_PROCESS})

    async def empty_bucket(self, channel: int) -> float:
        """Post in the channel until Discord refuses: its bucket is empty for the
        returned seconds (a 429's retry_after)."""
        while True:
            answer = await self.post(channel)
            if answer.status == 429:
                assert isinstance(answer.body, dict)
                return float(answer.body["retry_after"])
            assert answer.status == 200, answer


@pytest.fixture
async def wire(fd: FakeDiscord) -> AsyncIterator[Wire]:
    async with aiohttp.ClientSession() as session:
        yield Wire(fd, session)


@dataclass
class Game:
    """A Cthulhu game of one human and two AI seats with its play-by-play thread: each
    move sets off the AI turns, and every delivery posts its lines in the thread."""

    fd: FakeDiscord
    bot: HauntBot
    channel: int
    host: FakeUser
    started_at: int = 0  # the lobby's lines in the log, before the thread opened

    @property
    def thread(self) -> FakeChannel:
        [thread] = self.fd.threads(self.channel)
        return thread

    async def move(self) -> InteractionHandle:
        """The host's move, at a player's speed: the click answered, the bot not
        waited for (a delivery may still be waiting on a bucket)."""
        live = latest_turn(self.fd, self.channel)
        assert to_move(live) == self.host.id
        shown = turn_posts(self.fd, self.channel)
        handle = await (await press_move(self.fd, self.host, live)).wait(15, settle=False)
        await self.fd.wait_until(lambda: turn_posts(self.fd, self.channel) > shown, 15,
                                 "the move shown on the live message")
        return handle

    async def logged(self) -> list[str]:
        """The game's public lines as the thread shows them (bold marks aside)."""
        table = await self.bot.store.load_latest(self.channel)
        assert table is not None and table.id is not None
        return [line.replace("**", "") for e in await self.bot.store.log(table.id, limit=10**6)
                for line in e.text.splitlines()][self.started_at:]

    def thread_lines(self) -> list[str]:
        return [line.replace("**", "") for m in self.fd.channel_messages(self.thread.id)
                if m.text != OTHER_PROCESS for line in m.text.splitlines()]


async def _game(fd: FakeDiscord, bot: HauntBot, name: str, host: FakeUser,
                mod: FakeUser, seed: int = 21) -> Game:
    channel = fd.add_channel(name)
    await fd.settle()
    settings = await (await fd.slash(mod, channel, "gm", "settings", play_by_play="on")).wait()
    assert settings.ephemeral_texts()
    lobby = (await (await fd.slash(host, channel, "game", "new", game="cthulhu",
                                   seed=seed)).wait()).response
    assert lobby is not None
    add_ai = next(c for c in lobby.custom_ids() if c.endswith(":lobby.ai"))
    for _ in range(2):
        await (await fd.click(host, lobby, add_ai)).wait()
    game = Game(fd, bot, channel, host)
    game.started_at = len(await game.logged())
    await (await fd.slash(host, channel, "game", "start")).wait()
    return game


def _emptied(fd: FakeDiscord, resource: int, bucket: str = MESSAGES) -> bool:
    """Whether the bot's requests emptied that bucket of the resource at some point."""
    return any(t.bucket == bucket and t.resource == str(resource) and t.remaining == 0
               and t.status == 0 for t in fd.rate_limits.taken)


# ---------------------------------------------------------------------- the fake itself


async def test_every_answer_carries_its_buckets_headers_and_a_burst_gets_discords_429(
) -> None:
    """The documented headers on every answer (a 404 too), Remaining counted down per
    bucket and per channel, the 429's body and headers, a new window after the reset;
    the global limit's 429 names no bucket. At Discord's own window sizes."""
    fd = FakeDiscord(rate_window_scale=1.0)
    await fd.start()
    first, second = fd.add_channel("first"), fd.add_channel("second")
    async with aiohttp.ClientSession() as session:
        wire = Wire(fd, session)
        answers = [await wire.post(first) for _ in range(5)]
        assert [a.status for a in answers] == [200] * 5
        assert [a.headers["X-RateLimit-Remaining"] for a in answers] == ["4", "3", "2", "1",
                                                                         "0"]
        for a in answers:
            assert a.headers["X-RateLimit-Limit"] == "5"
            assert a.headers["X-RateLimit-Bucket"] == MESSAGES
            assert a.headers["Via"] == "1.1 google"  # else discord.py takes a 429 for a ban
            after = float(a.headers["X-RateLimit-Reset-After"])
            assert 0 < after <= 5.0
            assert abs(float(a.headers["X-RateLimit-Reset"]) - (time.time() + after)) < 1.0
        resets = [float(a.headers["X-RateLimit-Reset-After"]) for a in answers]
        assert resets == sorted(resets, reverse=True)  # one window, counting down

        refused = await wire.post(first)
        assert refused.status == 429 and isinstance(refused.body, dict)
        assert set(refused.body) == {"message", "retry_after", "global"}
        assert refused.body["message"] == RATE_LIMITED and refused.body["global"] is False
        retry = float(refused.body["retry_after"])
        assert 0 < retry <= resets[-1]
        assert refused.headers["Retry-After"] == str(math.ceil(retry))
        assert refused.headers["X-RateLimit-Scope"] == "user"
        assert refused.headers["X-RateLimit-Remaining"] == "0"
        assert refused.headers["X-RateLimit-Bucket"] == MESSAGES
        assert len(fd.channel_messages(first)) == 5  # the refused post made nothing

        other = await wire.post(second)  # another channel: its own count
        assert other.status == 200 and other.headers["X-RateLimit-Remaining"] == "4"
        mid = fd.channel_messages(first)[0].id
        edit = await wire("PATCH", f"/channels/{first}/messages/{mid}", {"content": "e"})
        assert edit.status == 200 and edit.headers["X-RateLimit-Remaining"] == "4"
        assert edit.headers["X-RateLimit-Bucket"] != MESSAGES  # edits count apart
        missing = await wire("GET", f"/channels/{first}/messages/1")
        assert missing.status == 404 and "X-RateLimit-Bucket" in missing.headers
        me = await wire("GET", "/users/@me")
        assert me.status == 200 and me.headers["X-RateLimit-Remaining"].isdigit()

        fd.advance_clock(5.0)  # the window has passed
        again = await wire.post(first)
        assert again.status == 200 and again.headers["X-RateLimit-Remaining"] == "4"

        fd.advance_clock(1.0)  # a new second for the global count
        fd.rate_limits.global_limit = 3
        assert [(await wire("GET", f"/channels/{second}")).status for _ in range(3)] == [200] * 3
        over = await wire("GET", f"/channels/{second}")
        assert over.status == 429 and isinstance(over.body, dict)
        assert over.body["global"] is True and over.body["message"] == RATE_LIMITED
        assert over.headers["X-RateLimit-Global"] == "true"
        assert over.headers["X-RateLimit-Scope"] == "global"
        assert "X-RateLimit-Bucket" not in over.headers and "Retry-After" in over.headers
        assert [t.scope for t in fd.rate_limits.refused] == ["user", "global"]
    await fd.stop()


def test_interaction_endpoints_are_outside_the_global_limit_and_counted_per_token() -> None:
    """"Interaction endpoints are not bound to the bot's Global Rate Limit": the callback
    and the interaction's webhook (follow-ups, `@original`); their buckets are counted
    per interaction token (a webhook's top-level resource is its id and token)."""
    callback = "/interactions/1/tok/callback"
    followup, original = "/webhooks/9/tok", "/webhooks/9/tok/messages/@original"
    assert all(NOT_GLOBAL.match(p) for p in (callback, followup, original))
    assert not NOT_GLOBAL.match("/channels/1/messages")
    assert rule_for("POST", followup, "").bucket == rule_for("PATCH", original, "").bucket
    assert rule_for("POST", "/channels/1/messages", "").limit == 5


# ---------------------------------------------------------------------- the bot under them


async def test_discord_py_learns_every_bucket_the_bot_uses_and_never_overruns_one(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """discord.py reads X-RateLimit-Bucket and the counts on every answer: each route
    the bot used has the bucket the fake named, at the fake's limit, and with honest
    headers it waits before a bucket runs dry instead of meeting a 429."""
    bot = await start_hauntkeeper()
    host, mod = fd.add_user("host"), fd.add_user("mod", manage_channels=True)
    game = await _game(fd, bot, "haunted", host, mod)
    for _ in range(6):
        await game.move()
    await fd.settle()
    assert game.thread_lines() == await game.logged()
    named = {t.bucket for t in fd.rate_limits.taken}
    hashes = bot.http._bucket_hashes
    assert {"POST /channels/{channel_id}/messages",
            "PATCH /channels/{channel_id}/messages/{message_id}"} <= set(hashes)
    assert set(hashes.values()) <= named
    used = {key.rsplit(":", 1)[0] for key in bot.http._buckets if key.startswith(("GET ",
            "POST ", "PUT ", "PATCH ", "DELETE "))}  # looked up before its hash was known
    assert used <= set(hashes), used - set(hashes)
    posts = bot.http._buckets[f"{MESSAGES}:{game.thread.id}"]
    assert posts.limit == 5
    assert fd.rate_limits.refused == []


async def test_a_burst_in_one_channel_waits_out_its_bucket_every_line_lands_in_time(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """At Discord's window sizes (5 posts per 5 s per channel), a player's quick moves
    post more in the game's thread than its bucket holds: the bot waits for the reset
    (no 429), every line reaches the thread in order, and each click is answered within
    Discord's 3 s, deferred when its delivery has to wait for the previous one."""
    bot = await start_hauntkeeper()
    host, mod = fd.add_user("host"), fd.add_user("mod", manage_channels=True)
    game = await _game(fd, bot, "haunted", host, mod)
    fd.rate_limits.scale = 1.0
    fd.advance_clock(10.0)  # the start's windows (at the small scale) are long gone
    clicks = [await game.move() for _ in range(7)]
    await fd.settle(timeout=15)
    assert _emptied(fd, game.thread.id)  # the burst really went past the bucket
    assert fd.rate_limits.refused == []  # discord.py waited as the headers said
    assert game.thread_lines() == await game.logged()
    assert fd.late_answers == [] and all(c.responded for c in clicks)
    assert any(c.callback_type == 6 for c in clicks)  # a click that had to wait: deferred


async def test_a_post_that_meets_a_429_is_retried_and_lands(
        fd: FakeDiscord, start_hauntkeeper: BotFactory, wire: Wire) -> None:
    """A bucket discord.py cannot know is empty (another process of the same bot used
    it: the buckets are the bot's): the post meets Discord's 429, discord.py sleeps its
    retry_after and sends it again, and the line lands once, the click answered in time."""
    bot = await start_hauntkeeper()
    host, mod = fd.add_user("host"), fd.add_user("mod", manage_channels=True)
    game = await _game(fd, bot, "haunted", host, mod)
    fd.rate_limits.scale = 0.2  # 5 posts a second: the wait stays short
    fd.advance_clock(10.0)
    await wire.empty_bucket(game.thread.id)
    refused_before = len(fd.rate_limits.refused)
    click = await game.move()
    await fd.settle()
    bots = fd.rate_limits.refused[refused_before:]
    assert [(t.bucket, t.resource, t.scope) for t in bots][:1] == [
        (MESSAGES, str(game.thread.id), "user")]
    assert game.thread_lines() == await game.logged()  # landed, once
    assert fd.late_answers == [] and click.responded


async def test_one_channels_empty_bucket_never_delays_another_channels_posts(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """Limits are per channel, and so is the bot's waiting: while one game's thread waits
    out its empty bucket (Discord's 5 s window), a move in another channel is answered
    and its line reaches its own thread before that bucket has reset."""
    bot = await start_hauntkeeper()
    mod = fd.add_user("mod", manage_channels=True)
    busy = await _game(fd, bot, "busy", fd.add_user("ann"), mod, seed=21)
    calm = await _game(fd, bot, "calm", fd.add_user("bob"), mod, seed=22)
    fd.rate_limits.scale = 1.0
    fd.advance_clock(10.0)
    for _ in range(5):
        await busy.move()
    await fd.wait_until(lambda: _emptied(fd, busy.thread.id), 5, "the busy thread's 5 posts")
    window = fd.rate_limits.windows[(MESSAGES, str(busy.thread.id))]
    assert window.remaining() == 0  # the busy thread's bucket is empty for seconds
    lines = len(calm.thread_lines())
    started = fd.now()
    click = await calm.move()
    await fd.wait_until(lambda: len(calm.thread_lines()) > lines, 15, "the calm line")
    landed = fd.now()
    assert landed < window.resets_at, (landed - started, window.resets_at - started)
    assert click.callback_type == 7  # answered by its own edit: nothing made it wait
    await fd.settle(timeout=15)
    assert busy.thread_lines() == await busy.logged()
    assert calm.thread_lines() == await calm.logged()
    assert fd.rate_limits.refused == [] and fd.late_answers == []


async def test_a_global_429_is_waited_out_and_never_holds_an_interactions_answer(
        fd: FakeDiscord, start_hauntkeeper: BotFactory, wire: Wire) -> None:
    """Another process of the bot spent its 50 requests of the second: the bot's next
    post meets the global 429 (`"global": true`), discord.py holds its requests for the
    retry_after and sends the post again, which lands; the click is still answered at
    once, interaction endpoints being outside the global limit."""
    bot = await start_hauntkeeper()
    host, mod = fd.add_user("host"), fd.add_user("mod", manage_channels=True)
    game = await _game(fd, bot, "haunted", host, mod)
    fd.rate_limits.scale = 2.0  # a 2 s second: the bot's move comes well inside it
    fd.advance_clock(10.0)
    while True:  # spend the global count, leaving most of its window to run
        answers = await asyncio.gather(*(wire("GET", f"/channels/{game.channel}")
                                         for _ in range(fd.rate_limits.global_limit + 5)))
        over = [a for a in answers if a.status == 429 and isinstance(a.body, dict)
                and a.body["global"]]
        if over and float(over[-1].body["retry_after"]) > 1.0:  # type: ignore[index]
            break
        fd.advance_clock(2.0)
    before = len(fd.rate_limits.refused)
    click = await game.move()
    await fd.settle()
    bots = fd.rate_limits.refused[before:]
    assert any(t.scope == "global" for t in bots), bots
    assert not any(NOT_GLOBAL.match(t.path) for t in fd.rate_limits.refused)
    assert click.responded and fd.late_answers == []
    assert game.thread_lines() == await game.logged()


def test_the_default_scale_keeps_the_suite_fast() -> None:
    """The fake's windows are Discord's times this scale unless a test asks for more:
    5 s become 50 ms, so a burst is slowed and refused as Discord would, in no time."""
    assert FakeDiscord().rate_limits.scale == DEFAULT_SCALE <= 0.01


async def test_a_players_busy_dms_never_delay_another_channels_post(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """A player's DM channel is one bucket, whichever game whispers to them: games
    started in five channels at once tell their host five secrets by DM, emptying it for
    Discord's 5 s. The sixth channel's game must still show its start at once; the
    secret reaches the host when Discord lets it."""
    await start_hauntkeeper()
    host = fd.add_user("host")
    lobbies: list[int] = []
    for n in range(6):
        channel = fd.add_channel(f"table-{n}")
        await fd.settle()
        lobby = (await (await fd.slash(host, channel, "game", "new", game="cthulhu",
                                       seed=21 + n)).wait()).response
        assert lobby is not None
        add_ai = next(c for c in lobby.custom_ids() if c.endswith(":lobby.ai"))
        for _ in range(2):
            await (await fd.click(host, lobby, add_ai)).wait()
        lobbies.append(channel)
    fd.rate_limits.scale = 1.0
    fd.advance_clock(10.0)
    began = fd.now()
    for n, channel in enumerate(lobbies[:5], start=1):
        await (await fd.slash(host, channel, "game", "start")).wait(15, settle=False)
        await fd.wait_until(lambda told=n: len(fd.dms(host)) == told, 15,
                            "a game's secrets by DM")
    dms = fd.dm_channel_id(host)
    assert dms is not None and _emptied(fd, dms)  # five secrets: the DMs' bucket is empty
    resets_at = fd.rate_limits.windows[(MESSAGES, str(dms))].resets_at
    assert resets_at - fd.now() > 1.0, fd.now() - began  # the sixth start comes well inside
    last = lobbies[-1]
    started = await (await fd.slash(host, last, "game", "start")).wait(15, settle=False)
    await fd.wait_until(lambda: turn_posts(fd, last) > 0, 15, "the sixth game's start")
    assert fd.now() < resets_at, "the sixth channel waited for the host's DMs"
    await fd.wait_until(lambda: turn_posts(fd, lobbies[4]) > 0, 15, "the fifth's start")
    # the secrets waiting on the DM bucket follow their posts (the DM tail, bot/courier.py)
    await fd.wait_until(lambda: len(fd.dms(host)) >= 6, 15, "every secret by DM")
    await fd.settle(timeout=15)
    assert len(fd.dms(host)) == 6  # every secret reached the host, once
    assert started.responded and fd.late_answers == []
    assert fd.rate_limits.refused == []
