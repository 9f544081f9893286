"""The play-by-play thread below Discord: what a delivery's Post says (the sessions read
the server's setting for each delivery; which lines open a turn), how the thread words
a delivery, and the key the store keeps the thread under, which no game team may take.
Through Discord: tests/test_e2e_play_by_play.py."""

from __future__ import annotations

import logging
from dataclasses import replace

import pytest

from bot import games
from bot import table as T
from bot.core.actions import Action
from bot.delivery import PLAY_BY_PLAY, TURN_KIND, Post, delivery_key, plan
from bot.guild_settings import GuildSettings
from bot.sessions import Sessions
from bot.store import ACTIVE, OVER, SqliteStore, Table
from bot.texts import say
from cogs.play_by_play import NAME_MOST, PlayByPlay, bold, story, thread_name
from tests.helpers import team_game
from tests.test_sessions import (
    BOB,
    CHANNEL,
    GAME,
    GUILD,
    HOST,
    KIND,
    SEED,
    RecordingOutlet,
    human_actor,
    open_game,
    state_of,
)


async def _move(sessions: Sessions, table: Table) -> None:
    seat = GAME.to_act(state_of(table))
    option = GAME.options(state_of(table), seat)[0]
    await sessions.act(CHANNEL, human_actor(table, seat), option.action)


async def test_a_post_asks_for_the_thread_only_while_the_server_wants_it(
        store: SqliteStore) -> None:
    outlet = RecordingOutlet()
    sessions = Sessions(store, outlet, render=False, ai_chain=False)
    table = await open_game(sessions, BOB)
    assert [post.play_by_play for _, post in outlet.posts] == [False]  # off by default
    await sessions.settings.put(GUILD, GuildSettings(play_by_play=True))
    table = await store.load(CHANNEL)
    assert table is not None
    await _move(sessions, table)
    assert outlet.posts[-1][1].play_by_play is True  # the next delivery, mid-game
    await sessions.settings.put(GUILD, GuildSettings())
    table = await store.load(CHANNEL)
    assert table is not None
    await _move(sessions, table)
    assert outlet.posts[-1][1].play_by_play is False


async def test_a_lobby_that_ends_opens_no_thread(store: SqliteStore) -> None:
    outlet = RecordingOutlet()
    sessions = Sessions(store, outlet, render=False, ai_chain=False)
    await sessions.settings.put(GUILD, GuildSettings(play_by_play=True))
    await sessions.open(CHANNEL, GUILD, HOST, KIND, SEED)
    await sessions.act(CHANNEL, HOST, Action(T.END))
    assert outlet.posts and not any(post.play_by_play for _, post in outlet.posts)


async def test_a_post_marks_the_lines_that_open_a_turn(store: SqliteStore) -> None:
    sessions = Sessions(store, RecordingOutlet(), render=False, ai_chain=False)
    table = await open_game(sessions, BOB)
    assert table.id is not None
    logged = await store.log(table.id, limit=10**6)
    started = [(e.seq, e.event()) for e in logged if e.version == table.version]
    made = plan(table, started, delivery_key(table.id, table.version), render=False)
    assert made.turns == [e.kind == TURN_KIND for _, e in started]
    assert any(made.turns) and not all(made.turns)


def test_the_thread_reads_every_line_in_order_a_turn_in_bold() -> None:
    post = Post(lines=["Ann moves.", "It's **Bo**'s turn.", "Bo rolls 4."],
                turns=[False, True, False])
    assert story(post) == "Ann moves.\n**It's Bo's turn.**\nBo rolls 4."
    assert story(replace(post, turns=[])) == "Ann moves.\nIt's **Bo**'s turn.\nBo rolls 4."
    assert bold("****") == "****"  # nothing left to bold: the line as it was


@pytest.mark.parametrize("kind", sorted(games.all_games()))
def test_every_games_thread_name_fits_discord(kind: str) -> None:
    table = Table(channel_id=1, guild_id=2, kind=kind, host_id=3, seed=1, status=ACTIVE,
                  id=10**12)
    name = thread_name(table)
    assert 1 <= len(name) <= NAME_MOST and str(10**12) in name


async def test_no_game_team_takes_the_play_by_play_threads_key(
        store: SqliteStore, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """A team of that name would have its secret lines posted where everyone reads:
    its lines are not delivered, and the log says why."""
    with team_game.registered():
        outlet = RecordingOutlet()
        sessions = Sessions(store, outlet, render=False, ai_chain=False)
        await sessions.open(CHANNEL, GUILD, HOST, team_game.KEY, SEED)
        for guest in (BOB, T.Actor(300, "Cat")):
            await sessions.act(CHANNEL, guest, Action(T.JOIN))
        real = team_game.TeamGame.teams
        monkeypatch.setattr(team_game.TeamGame, "teams", lambda self, state: {
            **real(self, state), PLAY_BY_PLAY: [0]})
        with caplog.at_level(logging.ERROR, logger="bot.delivery"):
            await sessions.act(CHANNEL, HOST, Action(T.START))
        assert {team for team, _, _ in outlet.teams} == {"red", "blue"}
        assert any(PLAY_BY_PLAY in r.getMessage() for r in caplog.records)


class StubThread:
    """What the thread is asked: its messages (and their nonces), and its edits."""

    def __init__(self) -> None:
        self.id = 4242
        self.sent: list[tuple[str, str | None]] = []
        self.edits: list[dict[str, object]] = []

    async def send(self, text: str, *, nonce: str | None = None, **_: object) -> None:
        self.sent.append((text, nonce))

    async def edit(self, **fields: object) -> None:
        self.edits.append(fields)


@pytest.mark.parametrize(("documents", "words"), [([], "play_by_play.closed"),
                                                   (["The heroes' book..."],
                                                    "play_by_play.closed_books")])
async def test_the_end_closes_the_thread_in_its_own_words(
        monkeypatch: pytest.MonkeyPatch, documents: list[str], words: str) -> None:
    """The end's lines, then the last line (the books read out at the end stay in the
    channel, beside the result it links to), then archived: never locked."""
    thread = StubThread()
    threads = PlayByPlay(None, None, kept=10)  # type: ignore[arg-type]

    async def known(table: Table, *, fresh: bool, open_new: bool) -> StubThread:
        return thread

    monkeypatch.setattr(threads, "_thread", known)
    table = Table(channel_id=1, guild_id=2, kind=KIND, host_id=3, seed=1, status=OVER, id=7)
    post = Post(lines=["Ann wins."], documents=documents, key="7.z", play_by_play=True)
    await threads.tell(table, post, result="https://discord.com/channels/2/1/99")
    assert [text for text, _ in thread.sent] == [
        "Ann wins.", say(words, result="https://discord.com/channels/2/1/99")]
    assert len({nonce for _, nonce in thread.sent}) == 2 and all(n for _, n in thread.sent)
    assert thread.edits == [{"archived": True}]
