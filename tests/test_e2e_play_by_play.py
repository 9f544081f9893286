"""The play-by-play thread (`/gm settings play_by_play`) through the real discord.py and
the fake Discord: with it on, every public line of a game goes to one public thread of
its channel, once each and in order (a restart, a delivery sent again after its answer
was lost), far more than the live message's three; with it off, no thread; a channel
that refuses the thread plays on; at the end the thread links to the result and is
archived, not locked. A Cthulhu game of one human and two AI seats: each move sets off
the AI turns, so one delivery tells many lines."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field

import pytest

from bot import table as T
from bot.client import HauntBot
from bot.core.actions import Action
from bot.delivery import PLAY_BY_PLAY
from bot.headlines import LINES
from bot.live_message import jump_link
from bot.store import SqliteStore
from bot.texts import say
from tests.conftest import BotFactory
from tests.e2e_helpers import latest_turn, press_move, said, to_move, turn_posts, use_first
from tests.fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser
from tests.helpers import team_game

THREAD_POSTS = re.compile(r"POST /channels/\d+/threads$")


@dataclass
class Game:
    fd: FakeDiscord
    bot: HauntBot
    channel: int
    host: FakeUser
    mod: FakeUser
    started_at: int  # how many public lines the log held before the start
    start_said: list[str] = field(default_factory=list)  # what Start told the host

    @property
    def live(self) -> FakeMessage:
        return latest_turn(self.fd, self.channel)

    async def move(self) -> None:
        """The host plays (the AI seats answer in the same delivery)."""
        live = self.live
        assert to_move(live) == self.host.id
        await use_first(self.fd, self.host, live)

    async def logged(self) -> list[str]:
        """Every public line since the start, as /game log keeps them."""
        table = await self.bot.store.load_latest(self.channel)
        assert table is not None and table.id is not None
        return [e.text for e in await self.bot.store.log(table.id, limit=10**6)][
            self.started_at:]

    async def setting(self, value: str) -> str:
        handle = await (await self.fd.slash(self.mod, self.channel, "gm", "settings",
                                            play_by_play=value)).wait()
        [text] = handle.ephemeral_texts()
        return text


async def _started(fd: FakeDiscord, start: BotFactory, *, play_by_play: str | None = "on",
                   deny: tuple[str, ...] = ()) -> Game:
    channel = fd.add_channel("haunted")
    host = fd.add_user("host")
    mod = fd.add_user("mod", manage_channels=True)
    bot = await start()
    if deny:
        fd.set_bot_permissions(channel, deny=deny)
        await fd.permissions_reached(bot, channel)
    game = Game(fd, bot, channel, host, mod, 0)
    if play_by_play is not None:
        assert say(f"settings.play_by_play_{play_by_play}") in await game.setting(play_by_play)
    lobby = (await (await fd.slash(host, channel, "game", "new", game="cthulhu",
                                   seed=21)).wait()).response
    assert lobby is not None
    add_ai = next(c for c in lobby.custom_ids() if c.endswith(":lobby.ai"))
    for _ in range(2):
        await (await fd.click(host, lobby, add_ai)).wait()
    game.started_at = len(_split(await game.logged()))
    started = await (await fd.slash(host, channel, "game", "start")).wait()
    game.start_said = started.ephemeral_texts()
    return game


def _thread(fd: FakeDiscord, channel: int) -> FakeChannel:
    [thread] = fd.threads(channel)
    return thread


def _lines(fd: FakeDiscord, thread: FakeChannel) -> list[str]:
    """The thread's lines as the game said them (a turn's opening line is bold there)."""
    return [line.replace("**", "") for m in fd.channel_messages(thread.id)
            for line in m.text.splitlines()]


def _split(texts: list[str]) -> list[str]:
    """Logged lines as the thread shows them: one a row (the end's story has several),
    bold marks aside."""
    return [line.replace("**", "") for text in texts for line in text.splitlines()]


def _closing(fd: FakeDiscord, game: Game) -> str:
    """The thread's last line: a link to the end's message, which says who won."""
    return say("play_by_play.closed", result=jump_link(fd.guild_id, game.channel, game.live.id))


def _thread_posts(fd: FakeDiscord) -> int:
    return sum(1 for r in fd.requests if THREAD_POSTS.match(r))


async def test_every_line_goes_to_the_games_thread_once_in_order_across_a_restart(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    fd.revoke_bot_permissions("manage_threads")  # as invited: the thread is its own
    game = await _started(fd, start_hauntkeeper)
    thread = _thread(fd, game.channel)
    table = await game.bot.store.load(game.channel)
    assert table is not None
    assert thread.type == 11 and thread.parent_id == game.channel  # public: anyone reads it
    assert thread.name == say("play_by_play.thread_name", game=table.id,
                              title="Cthulhu in the House")
    assert _lines(fd, thread) == _split(await game.logged())  # the start's lines, every one

    for _ in range(2):
        await game.move()
    bot = await start_hauntkeeper()  # a restart: the thread comes from the store
    game.bot = bot
    for _ in range(2):
        await game.move()
    assert _thread_posts(fd) == 1 and fd.threads(game.channel) == [thread]
    said_there = _lines(fd, thread)
    assert said_there == _split(await game.logged())  # all of them, in order, none twice
    messages = fd.channel_messages(thread.id)
    assert len(messages) == 5  # one a delivery: the start and four moves
    assert any(line.startswith("**") and line.endswith("**")
               for line in messages[1].text.splitlines())  # where a turn begins
    live = said(game.live.snapshot()).splitlines()
    assert len(live) <= LINES < max(len(m.text.splitlines()) for m in messages)

    ended = await (await fd.slash(game.host, game.channel, "game", "end")).wait()
    assert "ended the game" in ended.ephemeral_texts()[-1]
    *story, last = fd.channel_messages(thread.id)
    assert [line.replace("**", "") for m in story for line in m.text.splitlines()] \
        == _split(await game.logged())  # the end's line too
    assert last.text == _closing(fd, game)
    assert thread.archived and not thread.locked  # anyone may still read it
    assert fd.nonce_repeats == 0


async def test_no_thread_until_a_moderator_turns_it_on_then_from_the_next_move(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    game = await _started(fd, start_hauntkeeper, play_by_play=None)
    await game.move()
    assert fd.threads() == [] and _thread_posts(fd) == 0  # off by default
    assert say("settings.play_by_play_off") in await game.setting("off")
    await game.move()
    assert fd.threads() == []

    before = len(_split(await game.logged()))
    assert say("settings.play_by_play_on") in await game.setting("on")
    await game.move()
    thread = _thread(fd, game.channel)
    assert _lines(fd, thread) == (_split(await game.logged()))[before:]  # this move's, not older
    assert say("settings.play_by_play_off") in await game.setting("off")
    await game.move()
    assert len(fd.channel_messages(thread.id)) == 1  # off again: nothing more there
    await (await fd.slash(game.host, game.channel, "game", "end")).wait()
    assert thread.archived  # a game's thread closes, even with the setting off by then


@pytest.mark.parametrize("denied", ["create_public_threads", "send_messages_in_threads"])
async def test_a_channel_that_refuses_the_thread_still_plays(
        fd: FakeDiscord, start_hauntkeeper: BotFactory, denied: str,
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="cogs.play_by_play")
    game = await _started(fd, start_hauntkeeper, deny=(denied,))
    # The host hears it at Start, in the same private line: no thread, and what for.
    [line] = game.start_said
    assert line.endswith(say("permissions.play_by_play_missing",
                             missing=say(f"permissions.names.{denied}")))
    for _ in range(3):
        posts = turn_posts(fd, game.channel)
        await game.move()
        assert turn_posts(fd, game.channel) == posts + 1  # the live message went on
    table = await game.bot.store.load(game.channel)
    assert table is not None and table.delivered_seq == table.last_seq  # nothing owed
    assert all(fd.channel_messages(t.id) == [] for t in fd.threads(game.channel))
    refused = [e for e in fd.errors if e[1] == 403]
    assert len(refused) == 1  # tried once, at the start, then skipped for this game
    warned = [r for r in caplog.records if r.name == "cogs.play_by_play"]
    assert len(warned) == 1 and "play-by-play" in warned[0].getMessage()
    log = await (await fd.slash(game.host, game.channel, "game", "log")).wait()
    assert (_split(await game.logged()))[-1] in log.ephemeral_texts()[0]  # every line is there


async def test_start_says_nothing_of_threads_the_server_does_not_want(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    game = await _started(fd, start_hauntkeeper, play_by_play=None,
                          deny=("create_public_threads",))
    assert not any(say("permissions.names.create_public_threads") in line
                   for line in game.start_said)
    assert fd.threads(game.channel) == []


async def test_a_thread_post_whose_answer_was_lost_is_owed_and_shown_once(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """Discord made the thread's message but its answer never came back (a 503): the
    delivery stays owed like any Discord failure, and sent again under the same
    nonces, Discord answers with the message it made: the lines show once."""
    game = await _started(fd, start_hauntkeeper)
    thread = _thread(fd, game.channel)
    hold = fd.hold_next_send(thread.id, after=True)
    handle = await press_move(fd, game.host, game.live)
    await hold.reached.wait()
    hold.drop()
    await handle.wait()
    table = await game.bot.store.load(game.channel)
    assert table is not None and table.delivered_seq < table.last_seq  # owed
    assert await game.bot.resume_games(ai_turns=False) == 1  # the retry
    await fd.settle()
    table = await game.bot.store.load(game.channel)
    assert table is not None and table.delivered_seq == table.last_seq
    assert fd.nonce_repeats == 1  # the message Discord had made, answered again
    assert _lines(fd, thread) == _split(await game.logged())
    await game.move()
    assert _lines(fd, thread) == _split(await game.logged())


async def test_a_thread_made_just_before_a_crash_is_found_again_not_opened_twice(
        fd: FakeDiscord, start_hauntkeeper: BotFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The process dies between Discord making the game's thread and the store noting
    it (the store's write never happens). The delivery stays owed; the restarted bot
    finds the thread it made among the server's active threads (its name holds the
    game's number) and tells the lines there: one thread, every line, none twice."""
    async def killed(*_: object, **__: object) -> None:
        raise RuntimeError("the process died before the store heard of the thread")

    monkeypatch.setattr(SqliteStore, "set_thread", killed)
    game = await _started(fd, start_hauntkeeper)
    made = _thread(fd, game.channel)
    assert _lines(fd, made) == []  # made, then nothing: the store never knew it
    table = await game.bot.store.load(game.channel)
    assert table is not None and table.delivered_seq < table.last_seq  # owed
    monkeypatch.undo()
    game.bot = await start_hauntkeeper()
    await game.bot.resume_games(ai_turns=False)
    await fd.settle()
    assert fd.threads(game.channel) == [made] and _thread_posts(fd) == 1
    assert _lines(fd, made) == _split(await game.logged())
    assert table.id is not None
    assert await game.bot.store.get_thread(table.id, PLAY_BY_PLAY) == made.id
    await game.move()
    assert fd.threads(game.channel) == [made]
    assert _lines(fd, made) == _split(await game.logged())


async def test_a_deleted_thread_is_opened_anew_with_the_next_move(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    game = await _started(fd, start_hauntkeeper)
    old = _thread(fd, game.channel)
    old.deleted = True  # a moderator deleted it
    before = len(_split(await game.logged()))
    await game.move()
    new = _thread(fd, game.channel)
    assert new.id != old.id and _lines(fd, new) == (_split(await game.logged()))[before:]
    table = await game.bot.store.load(game.channel)
    assert table is not None and table.delivered_seq == table.last_seq


@pytest.mark.parametrize("manage_threads", [True, False])
async def test_a_team_game_tells_the_thread_its_public_lines_only(
        fd: FakeDiscord, start_hauntkeeper: BotFactory, manage_threads: bool) -> None:
    """The team game (tests/helpers/team_game.py): each move has a public line, lines
    for the mover's team (its private thread) and one for the mover (a DM); a seat plays
    from DMs. The play-by-play thread holds the public lines and nothing else; at the end
    the team threads are archived with their own last line (and locked where the bot may
    manage threads: invited as the README says, it may not, and Discord refuses a lock
    without it), and the play-by-play thread archived with its own."""
    if not manage_threads:
        fd.revoke_bot_permissions("manage_threads")
    with team_game.registered():
        channel = fd.add_channel("teams")
        host, tom, rita = fd.add_user("host"), fd.add_user("tom"), fd.add_user("rita")
        mod = fd.add_user("mod", manage_channels=True)
        bot = await start_hauntkeeper()
        game = Game(fd, bot, channel, host, mod, 0)
        await game.setting("on")
        host_actor = T.Actor(host.id, "host")
        await bot.sessions.open(channel, fd.guild_id, host_actor, team_game.KEY, 1)
        for user in (tom, rita):
            await (await fd.slash(user, channel, "game", "join")).wait()
        await bot.sessions.act(channel, host_actor, Action(T.ADD_AI))
        game.started_at = len(_split(await game.logged()))
        await (await fd.slash(host, channel, "game", "start")).wait()
        players = {host.id: host, tom.id: tom, rita.id: rita}
        while (table := await bot.store.load(channel)) is not None:
            if table.seats_of(tom.id) == [team_game.GAME.to_act(
                    team_game.GAME.load(table.state))]:
                await use_first(fd, tom, fd.dms(tom)[-1])  # the private turn's prompt
            else:
                live = game.live
                await use_first(fd, players[to_move(live) or 0], live)

        public = [t for t in fd.threads(channel) if t.type == 11]
        private = [t for t in fd.threads(channel) if t.type == 12]
        assert len(public) == 1 and len(private) == 2
        *story, last = fd.channel_messages(public[0].id)
        told = [line.replace("**", "") for m in story for line in m.text.splitlines()]
        assert told == _split(await game.logged())
        assert sum(line.endswith("made a move.") for line in told) == team_game.MOVES
        ended = await bot.store.load_latest(channel)
        assert ended is not None and ended.id is not None
        hidden = {e.text for e in await bot.store.log(ended.id, limit=10**6, public_only=False)
                  if not e.event().audience.is_public}
        assert hidden and not hidden & set(told)  # no team's line, no one's own
        assert not [line for line in told if team_game.SECRET_LABEL in line]
        assert public[0].archived and not public[0].locked
        assert last.text == _closing(fd, game)  # its own words, not the team threads'
        for thread in private:
            assert thread.archived and thread.locked == manage_threads
            assert not [e for e in fd.errors if f"/channels/{thread.id}" in e[0]]
            assert fd.channel_messages(thread.id)[-1].text == say(
                "thread_closed", channel=f"<#{channel}>")
