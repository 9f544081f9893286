"""The stories of finished games, as players read them afterwards: the story on the final
post (bot/summary.py and each game's story module), /game history's opened story, /stats
(bot/stats.py) and the replay (bot/replay.py), for the ways a game ends: by its own
rules, in any language the table reads, and ended early by a moderator, by everyone
leaving or by its channel deleted."""

from __future__ import annotations

import pytest

from bot import replay
from bot import table as T
from bot.core.actions import Action
from bot.core.story import SIDES
from bot.courier import Outcome
from bot.locales import speaking
from bot.replay import Progress
from bot.replays import Replays
from bot.sessions import Sessions
from bot.stats import member_stats, server_stats
from bot.store import ACTIVE, OVER, PlayedSeat, SeatResult, SqliteStore, Table
from bot.summary import SUMMARY_KIND, outcome_line
from bot.texts import say
from tests.test_sessions import BOB, HOST, RecordingOutlet

ZH = "zh-TW"
CHANNEL, GUILD = 7100, 71
ALL = 10**6
# A host who reads Traditional Chinese, on a server that does: every step is said in it
# too (bot/languages.py), and the story is told in it.
HOST_ZH = T.Actor(HOST.user_id, HOST.name, language=ZH, guild_language=ZH)


async def ai_plays_out(sessions: Sessions, channel: int, actor: T.Actor,
                       outcome: Outcome) -> Outcome:
    """Every seat's moves the AI's choice (`actor` plays each, named for its seat), from
    `outcome` to the game's own end."""
    for _ in range(5000):
        table = outcome.table
        if table.status != ACTIVE:
            break
        seat = T.to_act_seat(table)
        assert seat is not None
        action = T.game_of(table).ai_action(T.game_state(table), seat)
        outcome = await sessions.act(channel, actor, T.for_seat(action, seat),
                                     version=table.version)
    assert outcome.table.status == OVER
    return outcome


async def played_to_its_end(sessions: Sessions, kind: str, host: T.Actor, seed: int,
                            options: dict[str, str] | None = None) -> Table:
    """A host and two AI seats, the host's moves the AI's choice, to the game's own end."""
    await sessions.open(CHANNEL, GUILD, host, kind, seed, options)
    for _ in range(2):
        await sessions.act(CHANNEL, host, Action(T.ADD_AI))
    outcome = await ai_plays_out(sessions, CHANNEL, host,
                                 await sessions.act(CHANNEL, host, Action(T.START)))
    return outcome.table


async def test_a_betrayal_story_told_in_chinese_gives_its_reason_in_chinese(
        store: SqliteStore) -> None:
    """README, Languages: a server's public posts follow the server's language, and the
    story is told in every language (/game history opens it in the reader's). The haunt's
    winning reason was written into the state in English (the engine's truth), so the
    Chinese story quoted it in English: "英雄獲勝：the Spear pierced the Heart..."."""
    sessions = Sessions(store, RecordingOutlet(), render=False)
    table = await played_to_its_end(sessions, "betrayal", HOST_ZH, seed=3)
    state = T.game_state(table)
    assert state.haunt is not None and state.haunt.reason
    logged = await store.log(table.id or 0, limit=ALL, public_only=False)
    (summary,) = [e for e in logged if e.kind == SUMMARY_KIND]
    said = outcome_line(summary.text_in(ZH))
    over = [e.text_in(ZH) for e in logged if e.kind == "game_over"][-1]
    assert state.haunt.reason not in said, said
    reason = said.split("——", 1)[1]  # data/betrayal/texts.zh-TW.yaml story.winner_*
    assert reason and reason in over, (said, over)


async def test_a_betrayal_replay_drawn_in_chinese_plays_again_exactly(
        store: SqliteStore) -> None:
    """README, /game replay: "a finished game watched again: an animated picture of its
    board turn by turn". A replay is drawn in the server's language (bot/replays.py), and
    the moves played again under Chinese wrote the haunt's reason in Chinese into the
    state, so the rebuilt end was not the stored (English) one: the replay of every
    Betrayal game on a Chinese server fell back to its opening and its end."""
    sessions = Sessions(store, RecordingOutlet(), render=False)
    table = await played_to_its_end(sessions, "betrayal", HOST, seed=3)
    moves = await store.moves(table.id or 0)
    with speaking(ZH):
        rebuilt = replay.rebuild(table, moves)
    assert rebuilt.exact, rebuilt.why
    assert len(rebuilt.moments) > 2


def _seat(game: int, seat: int, user: int | None, name: str, side: str, won: bool,
          character: str = "") -> PlayedSeat:
    return PlayedSeat(game, "betrayal", 20, "its_alive", 0.0, 600.0, 4,
                      SeatResult(seat, user, name, user is None, side, won,
                                 character=character))


def test_two_explorers_of_one_player_count_as_one_game_in_stats() -> None:
    """README, /stats: "what a member played on this server (by game, by side...)", and
    RULES.md: seed 003 plays two explorers per person when few play. A member holding
    both explorers of one game (the lobby's "Play a 2nd explorer") played one game, not
    two; the server's table names them as they are named, not as their second seat."""
    hana, gus = HOST.user_id or 0, BOB.user_id or 0
    seats = [_seat(1, 0, hana, "Hana", "heroes", True, "Ox Bellows"),
             _seat(1, 1, gus, "Gus", "traitor", False, "Missy Dubourde"),
             _seat(1, 2, hana, "Hana (2nd)", "heroes", True, "Zoe Ingstrom"),
             _seat(1, 3, None, "Ada", "heroes", True)]
    mine = member_stats([s for s in seats if s.seat.user_id == hana])
    assert (mine.total.played, mine.total.won) == (1, 1)
    assert (mine.by_game["betrayal"].played, mine.by_game["betrayal"].won) == (1, 1)
    assert (mine.by_side["heroes"].played, mine.by_side["heroes"].won) == (1, 1)
    server = server_stats(seats, {}, {})
    rows = {row.user_id: row for row in server.table}
    assert (rows[hana].played, rows[hana].won, rows[hana].name) == (1, 1, "Hana")
    assert (rows[gus].played, rows[gus].won) == (1, 0)


async def _ended_early(store: SqliteStore, how: str) -> Table:
    """A Betrayal game of two humans and an AI, a few moves in, ended `how`."""
    sessions = Sessions(store, RecordingOutlet(), render=False)
    await sessions.open(CHANNEL, GUILD, HOST, "betrayal", 5)
    await sessions.act(CHANNEL, BOB, Action(T.JOIN))
    await sessions.act(CHANNEL, HOST, Action(T.ADD_AI))
    table = (await sessions.act(CHANNEL, HOST, Action(T.START))).table
    if how == "end":
        return (await sessions.act(CHANNEL, HOST, Action(T.END))).table
    if how == "leave":
        await sessions.act(CHANNEL, BOB, Action(T.LEAVE))
        return (await sessions.act(CHANNEL, HOST, Action(T.LEAVE))).table
    assert await sessions.channel_gone(CHANNEL)
    ended = await store.load_latest(CHANNEL)
    assert ended is not None and ended.id == table.id
    return ended


WHY = {"end": say("moderation.ended", name=HOST.name),
       "leave": say("moderation.abandoned"),
       "gone": say("moderation.channel_gone")}


@pytest.mark.parametrize("how", sorted(WHY))
async def test_a_game_ended_early_says_why_and_plays_no_side(store: SqliteStore,
                                                             how: str) -> None:
    """README: `/game history game:<number>` "opens one's story as the table read it at
    the end", and /stats counts a member's games by side. A game cut short (/game end,
    everyone gone, its channel deleted) told only "The game was ended before its end",
    not who or what ended it (a deleted channel's game has no other line anywhere), and
    its seats were kept as "on their own", a side Betrayal has none of."""
    table = await _ended_early(store, how)
    assert table.status == OVER
    result = await store.result(table.id or 0)
    assert result is not None and not result.winners
    assert WHY[how] in result.summary, result.summary
    assert say("summary.ended_early") in result.summary
    assert all(seat.side not in SIDES for seat in result.seats)
    seats = await store.played_seats(GUILD, HOST.user_id)
    assert not member_stats(seats).by_side


async def test_the_replays_end_card_says_why_a_game_ended_in_the_servers_language(
        store: SqliteStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """README, /game replay: the replay is posted in the channel, and a server's public
    posts follow the server's language. Its end card said how a game cut short ended
    from the table's record, which keeps it in English ("Hana ended the game.") on a
    Chinese server, beside the story's line in Chinese."""
    sessions = Sessions(store, RecordingOutlet(), render=False)
    await sessions.open(CHANNEL, GUILD, HOST_ZH, "cthulhu", 5)
    for _ in range(2):
        await sessions.act(CHANNEL, HOST_ZH, Action(T.ADD_AI))
    await sessions.act(CHANNEL, HOST_ZH, Action(T.START))
    table = (await sessions.act(CHANNEL, HOST_ZH, Action(T.END))).table
    cards: list[list[str]] = []
    real = replay.animation.card

    def card(title: str, lines: list[str]) -> object:
        cards.append(list(lines))
        return real(title, lines)

    monkeypatch.setattr(replay.animation, "card", card)
    await Replays(in_process=False).draw(store, table, Progress(), ZH)
    with speaking(ZH):
        expected = [say("summary.ended_early"), say("moderation.ended", name=HOST.name)]
    assert cards == [expected]


def test_a_seat_taken_from_a_traitors_player_is_named_as_the_ai_it_goes_to(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """RULES.md / README: one person may play two explorers; "if one turns traitor, the
    other passes to a hero's player, or to the AI". The seat passed to the AI kept its
    player's name, so the story and /game history named the traitor's player among the
    heroes who won ("won: Hana, Zed, Ada" while Hana, the traitor, lost)."""
    table, _ = T.new_table("betrayal", CHANNEL, GUILD, HOST, 5)
    for actor, kind in ((HOST, T.SECOND), (BOB, T.JOIN), (BOB, T.SECOND)):
        table, _ = T.apply(table, actor, Action(kind))
    table, _ = T.apply(table, HOST, Action(T.START))
    hana, hana_2nd = table.seats_of(HOST.user_id or 0)
    bob = table.seats_of(BOB.user_id or 0)
    game = T.game_of(table)
    monkeypatch.setattr(type(game), "teams", lambda self, state: {
        "heroes": [hana, *bob], "traitor": [hana_2nd]})
    seat = T.to_act_seat(table)
    assert seat is not None
    actor = HOST if seat in (hana, hana_2nd) else BOB
    table, _ = T.apply(table, actor, game.ai_action(T.game_state(table), seat))
    handed = table.seats[hana]
    assert handed.ai and handed.user_id is None
    assert handed.name != HOST.name and HOST.name not in handed.name
    assert handed.name not in {s.name for n, s in enumerate(table.seats) if n != hana}
    assert T.game_state(table).players[hana] == handed.name
