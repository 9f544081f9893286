"""bot/summary.py and Game.story: the story the table reads when a game ends, told from
the stored log and the final state, kept as the game's result for /game history and
/stats; and never before the end (Cthulhu's hidden characters are the secret here)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bot import games
from bot import table as T
from bot.core.actions import Action
from bot.core.story import HEROES, HOUSE, SIDES, SOLO, TRAITOR, LogLine, Story, with_deeds
from bot.games.base import PlayerInfo
from bot.games.betrayal.content import betrayal_line
from bot.games.betrayal.explore import DISCOVER
from bot.games.cthulhu.content import cthulhu_line
from bot.games.evilbelow.content import evil_below_line
from bot.locales import CHINESE, ENGLISH, speaking
from bot.sessions import Sessions
from bot.store import OVER, SqliteStore, open_store
from bot.summary import SUMMARY_KIND, summarise, told
from bot.texts import say
from tests.test_sessions import BOB, CAT, HOST, RecordingOutlet

CHANNEL, GUILD, SEED = 700, 9, 77
ALL = 10**6


@pytest.fixture
async def store(tmp_path: Path) -> SqliteStore:
    s = await open_store(tmp_path / "summary.db")
    assert isinstance(s, SqliteStore)
    yield s  # type: ignore[misc]
    await s.close()


async def play_cthulhu(sessions: Sessions, *, until_over: bool = True, moves: int = 10**4):
    """Three humans play Cthulhu by random legal clicks; the outcomes, in order."""
    rng = random.Random(SEED)
    await sessions.open(CHANNEL, GUILD, HOST, "cthulhu", SEED)
    for guest in (BOB, CAT):
        await sessions.act(CHANNEL, guest, Action(T.JOIN))
    outcome = await sessions.act(CHANNEL, HOST, Action(T.START))
    humans = {a.user_id: a for a in (HOST, BOB, CAT)}
    outcomes = [outcome]
    while outcome.table.status != OVER and len(outcomes) <= moves:
        prompt = outcome.post.prompt
        outcome = await sessions.act(CHANNEL, humans[prompt.user_id],
                                     rng.choice(prompt.options).action,
                                     version=prompt.version)
        outcomes.append(outcome)
    return outcomes


def secret_names(state, seat: int) -> set[str]:
    return {state.characters[c].name for c in state.secrets[seat]}


async def test_the_summary_ends_the_final_post_and_the_result_is_kept(
        store: SqliteStore) -> None:
    outlet = RecordingOutlet()
    sessions = Sessions(store, outlet, render=False)
    outcomes = await play_cthulhu(sessions)
    final = outcomes[-1].table
    assert final.status == OVER and final.id is not None
    # only the last post tells the story, as its last line
    *before, last = [post for _, post in outlet.posts]
    logged = await store.log(final.id, limit=ALL, public_only=False)
    summaries = [e for e in logged if e.kind == SUMMARY_KIND]
    assert len(summaries) == 1 and summaries[0].audience == "public"
    assert last.lines[-1] == summaries[0].text
    assert all(summaries[0].text not in post.lines for post in before)
    game = games.get("cthulhu")
    state = game.load(final.state)
    # it says who won, in the game's own words, and each seat's part
    story = game.story(state, [LogLine(e.kind, e.audience, e.text, e.seat)
                               for e in logged[:-1]])
    assert story.outcome in summaries[0].text
    # each stored event keeps the seat whose move made it, and each player's line counts
    # the fights that player started
    fights = [e for e in logged if e.kind == "fight"]
    assert fights and all(e.seat is not None for e in fights)
    for seat in range(3):
        started = sum(1 for e in fights if e.seat == seat)
        if started:
            assert cthulhu_line("story.deed_fights", count=started) in story.seats[seat].did
    for seat in final.seats:
        assert seat.name in summaries[0].text
    # the kept result: one row, each seat with its side and whether it won
    result = await store.result(final.id)
    assert result is not None and result.kind == "cthulhu" and result.guild_id == GUILD
    assert result.summary == summaries[0].text
    assert [s.won for s in result.seats] == [n in state.winners for n in range(3)]
    assert [s.score for s in result.seats] == state.scores
    assert [s.user_id for s in result.seats] == [HOST.user_id, BOB.user_id, CAT.user_id]
    assert all(s.side == SOLO for s in result.seats)
    assert result.turns == sum(1 for e in logged if e.kind == "turn")
    assert result.started_at <= result.ended_at
    assert Story.from_dict(json.loads(result.story)) == story
    assert [r.game_id for r in await store.results(GUILD)] == [final.id]
    assert await store.count_results(GUILD, CHANNEL) == 1
    assert await store.count_results(GUILD, CHANNEL + 1) == 0


async def test_no_story_before_the_end_and_a_game_ended_early_tells_no_secret(
        store: SqliteStore) -> None:
    """Cthulhu's hidden characters are whispered to their seats; a moderator's end
    before the game's own end is no end by the rules: its summary names none of them."""
    outlet = RecordingOutlet()
    sessions = Sessions(store, outlet, render=False)
    outcomes = await play_cthulhu(sessions, moves=6)
    table = outcomes[-1].table
    assert table.status != OVER
    assert summarise(table, [], []) is None  # a running game has no story
    game = games.get("cthulhu")
    state = game.load(table.state)
    secrets = set().union(*(secret_names(state, seat) for seat in range(3)))
    assert not any(line.startswith(say("summary.heading", turns=0)[:10])
                   for line in outlet.lines)
    ended = await sessions.act(CHANNEL, HOST, Action(T.END))
    assert ended.table.status == OVER
    logged = await store.log(table.id or 0, limit=ALL)
    (summary,) = [e.text for e in logged if e.kind == SUMMARY_KIND]
    assert say("summary.ended_early") in summary
    assert not any(name in summary for name in secrets)
    result = await store.result(table.id or 0)
    assert result is not None and not result.winners


def test_the_block_stays_short_however_long_the_story() -> None:
    """A few lines at a glance: three turning points at most, each line cut."""
    table, _ = T.new_table("cthulhu", CHANNEL, GUILD, HOST, SEED)
    story = Story(outcome="x" * 1000, turning=["y" * 500] * 10)
    text = told(table, story, 3)
    assert text.count("\n") <= 1 + 3
    assert max(len(line) for line in text.split("\n")) <= 160


def play_ai(kind: str, players: int, seed: int, options: dict | None = None):
    """A whole game between AI seats, played by the engine alone: the final state and
    its log, as the story reads them."""
    game = games.get(kind)
    state, events = game.setup([PlayerInfo(f"P{n}", True) for n in range(players)], seed,
                               options or {})
    log = [LogLine(e.kind, e.audience.encode(), e.text) for e in events]
    for _ in range(20_000):
        if game.is_over(state):
            break
        for seat in game.out_of_turn(state):
            offer = game.ai_offer(state, seat)
            if offer is not None:
                state, more = game.apply(state, seat, offer)
                log += [LogLine(e.kind, e.audience.encode(), e.text, seat) for e in more]
        seat = game.to_act(state)
        state, more = game.apply(state, seat, game.ai_action(state, seat))
        log += [LogLine(e.kind, e.audience.encode(), e.text, seat) for e in more]
    assert game.is_over(state)
    return game, state, log


@pytest.mark.parametrize("seed", [1, 2])
def test_cthulhu_story_of_an_ai_game(seed: int) -> None:
    game, state, log = play_ai("cthulhu", 4, seed)
    story = game.story(state, log)
    assert [s.won for s in story.seats] == [n in state.winners for n in range(4)]
    assert [s.score for s in story.seats] == state.scores
    for seat, part in enumerate(story.seats):  # the secrets, public now
        first, second = state.results[-1].secrets[seat]
        assert state.characters[first].name in part.did
        assert state.characters[second].name in part.did
    assert state.players[state.winners[0]] in story.outcome


@pytest.mark.parametrize("seed", [2, 4])
def test_evil_below_story_of_an_ai_game(seed: int) -> None:
    game, state, log = play_ai("evilbelow", 3, seed)
    story = game.story(state, log)
    assert {s.side for s in story.seats} == {HOUSE}
    assert {s.won for s in story.seats} == {state.result == "win"}
    names = [s.character for s in story.seats]
    assert len(set(names)) == 3 and all(names)
    for seat, part in enumerate(story.seats):
        rescued = sum(1 for line in log if line.kind == "rescue" and line.seat == seat)
        assert (evil_below_line("story.deed_rescued", count=rescued) in part.did) \
            == (rescued > 0)


@pytest.mark.parametrize(("seed", "options"), [(3, {}), (5, {}), (5, {"expansion": "neibolt"}),
                                               (8, {"expansion": "neibolt"})])
def test_betrayal_story_of_an_ai_game(seed: int, options: dict) -> None:
    game, state, log = play_ai("betrayal", 4, seed, options)
    story = game.story(state, log)
    haunt = state.haunt
    assert haunt is not None and story.content == haunt.key
    assert story.content in game.content_names()
    assert story.content_name == game.content_names()[story.content]
    sides = [s.side for s in story.seats]
    assert all(side in SIDES for side in sides)
    if haunt.traitor is not None:
        assert sides[haunt.traitor] == TRAITOR
        assert sides.count(HEROES) == 3
        # named once: by the outcome when the traitor won, else among the turning points
        assert state.players[haunt.traitor] in " ".join([story.outcome, *story.turning])
    winners = {s.side for s in story.seats if s.won}
    assert len(winners) <= 1  # one side wins, or none
    for seat, part in enumerate(story.seats):
        assert part.character
        assert part.did.startswith(betrayal_line("story.did_alive",
                                                 cards=len(state.explorers[seat].cards))) \
            == state.explorers[seat].alive
        # the rooms this seat's moves found, counted from the log
        found = sum(1 for line in log if line.kind == DISCOVER and line.seat == seat)
        assert (betrayal_line("story.deed_rooms", count=found) in part.did) == (found > 0)
    assert sum(1 for line in log if line.kind == DISCOVER) > 0


def test_a_seats_deeds_are_joined_in_the_language_told() -> None:
    """A Chinese story reads Chinese punctuation between a seat's line and its deeds,
    not the English "; " and ", "."""
    with speaking(CHINESE):
        assert with_deeds("倖存", ["發現 4 個房間", "打倒 1 隻怪物"]) == \
            "倖存；發現 4 個房間、打倒 1 隻怪物"
    with speaking(ENGLISH):
        assert with_deeds("alive", ["found 4 rooms", "", "slew 1 monster"]) == \
            "alive; found 4 rooms, slew 1 monster"
        assert with_deeds("", ["found 4 rooms"]) == "found 4 rooms"
