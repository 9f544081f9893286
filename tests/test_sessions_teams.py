"""Sessions._deliver with teams and private turns, over a real SQLite store.

The game is tests/helpers/team_game.py (red seats and one blue seat that plays privately),
registered for these tests only. Expected texts come from the events the engine returned,
never from copied strings.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from bot import locales
from bot import table as T
from bot.core.actions import Action
from bot.core.events import Event, to_team
from bot.core.seats import Seat
from bot.demo import FileOutlet, note_private
from bot.games.base import PlayerInfo
from bot.sessions import Outcome, Sessions
from bot.store import SqliteStore, Table
from tests.helpers import team_game
from tests.helpers.team_game import BLUE_SEAT, GAME, KEY, SECRET_LABEL, TeamState
from tests.test_sessions import RecordingOutlet

CHANNEL = 700
GUILD = 9
HOST = T.Actor(100, "Hana")
BOB = T.Actor(200, "Bob")
CAT = T.Actor(300, "Cat")


@pytest.fixture(autouse=True)
def _registered() -> Iterator[None]:
    with team_game.registered():
        yield


def lines_for(events: list[Event], team: str) -> str:
    return "\n".join(e.text for e in events if e.audience == to_team(team))


def state_of(table: Table) -> TeamState:
    assert table.state is not None
    return GAME.load(table.state)


async def seated(sessions: Sessions) -> Outcome:
    """Hana (red), Bob (blue, private), Cat (red) and an AI (red), started."""
    await sessions.open(CHANNEL, GUILD, HOST, KEY, 1)
    for guest in (BOB, CAT):
        await sessions.act(CHANNEL, guest, Action(T.JOIN))
    await sessions.act(CHANNEL, HOST, Action(T.ADD_AI))
    return await sessions.act(CHANNEL, HOST, Action(T.START))


async def play(sessions: Sessions, actor: T.Actor, n: int) -> Outcome:
    table = await sessions.store.load(CHANNEL)
    assert table is not None
    return await sessions.act(CHANNEL, actor, Action("signal", {"n": n}), version=table.version)


async def test_team_lines_reach_only_the_teams_humans_one_message_per_team(
        store: SqliteStore) -> None:
    outlet = RecordingOutlet()
    sessions = Sessions(store, outlet)
    start = await seated(sessions)
    table = start.table
    assert [s.ai for s in table.seats] == [False, False, False, True]
    # the setup's lines: one message per team, to its humans only (the AI seat 3 is red)
    assert outlet.teams == [
        ("red", [HOST.user_id, CAT.user_id], lines_for(start.events, "red")),
        ("blue", [BOB.user_id], lines_for(start.events, "blue")),
    ]
    post = start.post
    assert post is not None and post.image is not None  # the test game's board
    team_texts = {e.text for e in start.events if e.audience.kind == "team"}
    assert team_texts and not team_texts & set(post.lines)
    assert post.prompt is not None and post.prompt.seat == 0 and not post.prompt.private

    outlet.clear()
    moved = await play(sessions, HOST, 1)
    red = [e for e in moved.events if e.audience == to_team("red")]
    assert len(red) == 2  # two lines of one action
    assert outlet.teams == [("red", [HOST.user_id, CAT.user_id], lines_for(moved.events, "red"))]
    assert "\n" in outlet.teams[0][2]  # joined into one message
    # a player's own line still goes to them alone, one whisper per event
    assert outlet.whispers == [(HOST.user_id, e.text) for e in moved.events
                               if e.audience.kind == "player"]
    assert outlet.whispers


async def test_a_private_seat_gets_a_private_prompt(store: SqliteStore) -> None:
    outlet = RecordingOutlet()
    sessions = Sessions(store, outlet)
    await seated(sessions)
    moved = await play(sessions, HOST, 2)
    prompt = moved.post.prompt if moved.post else None
    assert prompt is not None and prompt.seat == BLUE_SEAT
    assert prompt.private and prompt.user_id == BOB.user_id
    assert SECRET_LABEL in [o.label for o in prompt.options]
    table = await store.load(CHANNEL)
    assert table is not None
    assert sessions.prompt(table) == prompt
    outlet.clear()
    played = await play(sessions, BOB, 3)
    assert [t[0] for t in outlet.teams] == ["blue"]
    assert outlet.teams[0][1] == [BOB.user_id]
    after = played.post.prompt if played.post else None
    assert after is not None and after.seat == 2 and not after.private


async def test_an_action_and_the_ai_turns_after_it_make_one_team_message(
        store: SqliteStore) -> None:
    outlet = RecordingOutlet()
    sessions = Sessions(store, outlet)
    await seated(sessions)
    await play(sessions, HOST, 1)
    await play(sessions, BOB, 1)
    outlet.clear()
    chained = await play(sessions, CAT, 2)  # Cat, then the AI seat, then Hana's turn
    assert chained.table.version > 0 and state_of(chained.table).moves == 4
    red = [e for e in chained.events if e.audience == to_team("red")]
    assert len(red) == 4  # Cat's two lines and the AI's two
    assert outlet.teams == [("red", [HOST.user_id, CAT.user_id],
                             lines_for(chained.events, "red"))]
    # the AI's own line reached nobody; Cat's reached Cat
    assert outlet.whispers == [(CAT.user_id, chained.events[3].text)]
    assert chained.events[3].audience.kind == "player"


async def test_two_seats_of_one_person_get_one_copy_and_unreachable_users_are_noted(
        store: SqliteStore) -> None:
    outlet = RecordingOutlet(unreachable={CAT.user_id or 0})
    sessions = Sessions(store, outlet)
    await sessions.open(CHANNEL, GUILD, HOST, KEY, 1)
    await sessions.act(CHANNEL, BOB, Action(T.JOIN))
    await sessions.act(CHANNEL, HOST, Action(T.SECOND))  # Hana holds seats 0 and 2, both red
    await sessions.act(CHANNEL, CAT, Action(T.JOIN))
    start = await sessions.act(CHANNEL, HOST, Action(T.START))
    assert [s.user_id for s in start.table.seats] == [100, 200, 100, 300]
    red = [t for t in outlet.teams if t[0] == "red"]
    assert red == [("red", [HOST.user_id, CAT.user_id], lines_for(start.events, "red"))]
    assert start.dm_failed == [CAT.user_id]


async def test_lines_for_a_team_the_game_does_not_know_are_dropped_with_a_warning(
        store: SqliteStore, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(type(GAME), "teams", lambda self, state: {"red": [0, 2, 3]})
    outlet = RecordingOutlet()
    sessions = Sessions(store, outlet)
    with caplog.at_level(logging.WARNING, logger="bot.sessions"):
        start = await seated(sessions)
    assert [t[0] for t in outlet.teams] == ["red"]
    assert any("'blue'" in r.getMessage() for r in caplog.records)
    assert start.post is not None
    assert lines_for(start.events, "blue") not in start.post.lines


async def test_games_without_teams_send_no_team_messages(store: SqliteStore) -> None:
    outlet = RecordingOutlet()
    sessions = Sessions(store, outlet, render=False)
    await sessions.open(CHANNEL, GUILD, HOST, "cthulhu", 5)
    await sessions.act(CHANNEL, BOB, Action(T.JOIN))
    outcome = await sessions.act(CHANNEL, HOST, Action(T.START))
    assert outlet.teams == [] and outlet.whispers
    assert outcome.post is not None and outcome.post.prompt is not None
    assert not outcome.post.prompt.private


async def test_the_demo_transcript_keeps_team_lines(tmp_path: Path) -> None:
    outlet = FileOutlet(tmp_path)
    table = Table(channel_id=1, guild_id=1, kind=KEY, host_id=1, seed=1)
    state, events = GAME.setup([PlayerInfo("Ann"), PlayerInfo("Bo", ai=True),
                                PlayerInfo("Cy", ai=True)], 1, {})
    table.seats = [Seat("Ann", 1), Seat("Bo", None, ai=True), Seat("Cy", None, ai=True)]
    table.state = GAME.dump(state)
    assert await outlet.team(table, "red", [1], "hello red") == []
    note_private(outlet, table, Outcome(table, events))
    # red has a human (who got the message above); blue is AI only, so it is noted
    assert outlet.lines == ["    (to the red: <@1>) hello red",
                            f"    (private to the blue) {lines_for(events, 'blue')}"]


async def test_a_private_turn_in_dms_is_offered_in_its_players_language(
        store: SqliteStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """The public prompt is the server's (English here); Bob reads Chinese, and only he
    sees his private turn's buttons (in his DMs): they are made again in his language,
    the same actions at the same version."""
    game_options = type(GAME).options
    monkeypatch.setattr(type(GAME), "options", lambda self, state, seat: [
        replace(o, label=f"{o.label} [{locales.current()}]")
        for o in game_options(self, state, seat)])
    sessions = Sessions(store, RecordingOutlet())
    await sessions.open(CHANNEL, GUILD, HOST, KEY, 1)
    for guest in (replace(BOB, language=locales.CHINESE), CAT):  # Bob's client: zh-TW
        await sessions.act(CHANNEL, guest, Action(T.JOIN))
    await sessions.act(CHANNEL, HOST, Action(T.ADD_AI))
    await sessions.act(CHANNEL, HOST, Action(T.START))
    moved = await play(sessions, HOST, 2)
    assert moved.post is not None
    public, own = moved.post.prompt, moved.post.own_prompt
    assert public is not None and public.private and public.user_id == BOB.user_id
    assert own is not None and own.version == public.version
    assert all(o.label.endswith(f"[{locales.ENGLISH}]") for o in public.options)
    assert all(o.label.endswith(f"[{locales.CHINESE}]") for o in own.options)
    assert [o.action for o in own.options] == [o.action for o in public.options]
