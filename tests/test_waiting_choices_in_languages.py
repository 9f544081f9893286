"""A choice made while its table read only English, read later in Chinese (issue 25).

A choice waits; while it waits, its table may come to need Chinese with no step to say
it in: the server switches `/gm settings language`, a Chinese reader sits down or clicks
for the first time. The step that paused said the choice's words in every language the
bot speaks (bot/languages.py's `unworded`), so the question and buttons read in Chinese
to whoever comes to read them, the English the table stored is the same, and the choice
plays as it would have. The real zh-TW files are read: a CJK character proves the
Chinese. The same through the fake Discord: tests/test_e2e_waiting_choice.py.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from bot import languages, replay
from bot import table as T
from bot.core.actions import Action
from bot.core.choices import CHOOSE, game_only
from bot.core.events import Event
from bot.core.seats import Seat
from bot.delivery import plan, sequenced
from bot.games import cthulhu
from bot.locales import CHINESE, ENGLISH, current, speaking
from bot.store import Table, open_store
from tests.golden_states import CHANNEL, HOST, VARIANTS, open_lobby, play_step, sessions_on
from tests.test_choices_in_languages import GAMES, first_choice

CJK = re.compile(r"[\u4e00-\u9fff]")
STEPS = 600  # decisions a seeded table plays looking for a choice (it pauses well before)


def english_table(kind: str, state: Any) -> Table:
    """A running table of English readers only: four English players (first_choice's
    seats), an English server."""
    return Table(channel_id=1, guild_id=2, kind=kind, host_id=1, seed=5,
                 seats=[Seat(name, n + 1, language=ENGLISH)
                        for n, name in enumerate(("Ann", "Bo", "Cy", "Di"))],
                 state=GAMES[kind].dump(state), guild_language=ENGLISH, status=T.ACTIVE)


def paused_in_english(kind: str) -> tuple[Any, Table, list[Event], Table, list[Event]]:
    """The step that pauses on a choice: played bare in English (what the table stored
    before), and as the worker plays it for an English-only table (no other language
    needed); the state before it."""
    game = GAMES[kind]
    state, seat, action = first_choice(kind, 5)

    def step() -> tuple[Table, list[Event]]:
        after, events = game.apply(game.copy_state(state), seat, action)
        return english_table(kind, after), events

    with speaking(ENGLISH):
        bare, bare_events = step()
    table, events = languages.said_in(step, languages.needed(bare, ENGLISH))
    return state, bare, bare_events, table, events


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_a_choice_made_for_english_readers_keeps_its_chinese_words_too(kind: str) -> None:
    _, bare, bare_events, table, events = paused_in_english(kind)
    assert languages.needed(table, ENGLISH) == ()  # nobody read Chinese as it paused
    assert table.state is not None and bare.state is not None
    assert game_only(table.state) == game_only(bare.state) != table.state  # the English, as it was
    assert [e.text for e in events] == [e.text for e in bare_events]
    assert all(not e.texts for e in events)  # no reader, no Chinese lines kept
    words = table.state["pending"]["texts"][CHINESE]
    assert CJK.search(words["prompt"]) and len(words["labels"]) == len(
        bare.state["pending"]["labels"])


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_a_chinese_reader_who_comes_later_reads_it_in_chinese(kind: str) -> None:
    """A Chinese player sits down (or clicks for the first time) while it waits: their
    own prompt and status line, in Chinese; the English readers' as before."""
    game = GAMES[kind]
    _, bare, _, table, _ = paused_in_english(kind)
    table.seats[0].language = CHINESE  # heard from their first click
    assert languages.needed(table, ENGLISH) == (CHINESE,)
    stored = T.game_state(table)
    seat = stored.pending.seat
    with speaking(CHINESE):
        chinese = [o.label for o in game.options(stored, seat)]
        status = game.status_text(stored)
    with speaking(ENGLISH):
        english = [o.label for o in game.options(stored, seat)]
        assert english == [o.label for o in game.options(T.game_state(bare), seat)]
        assert game.status_text(stored) == game.status_text(T.game_state(bare))
    assert len(chinese) == len(english) and chinese != english
    assert stored.pending.said(CHINESE)[0] in status and CJK.search(status)
    assert stored.pending.prompt not in status


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_the_server_switched_to_chinese_shows_the_waiting_choice_in_chinese(
        kind: str) -> None:
    """`/gm settings language` switched to Chinese while it waits: the next delivery's
    prompt (the live message's buttons) in Chinese; the English delivery as before."""
    _, bare, bare_events, table, events = paused_in_english(kind)
    table.last_seq = bare.last_seq = len(events)
    chinese = plan(table, sequenced(table, events), "k", render=False, language=CHINESE)
    english = plan(table, sequenced(table, events), "k", render=False, language=ENGLISH)
    before = plan(bare, sequenced(bare, bare_events), "k", render=False, language=ENGLISH)
    assert chinese.prompt is not None and english.prompt is not None
    assert english.prompt == before.prompt
    pending = T.game_state(table).pending
    picks = [o for o in chinese.prompt.options if o.action.kind == CHOOSE]
    assert [o.label for o in picks] == pending.said(CHINESE)[1] != pending.labels
    assert all(o.group == pending.said(CHINESE)[0] for o in picks)
    assert [o.action for o in picks] == [o.action for o in english.prompt.options
                                         if o.action.kind == CHOOSE]


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_the_choice_plays_as_it_would_have(kind: str) -> None:
    """Picked by a Chinese reader's button (its action is the English one's): the game
    goes on exactly as from the bare English state, dice and all."""
    game = GAMES[kind]
    _, bare, _, table, _ = paused_in_english(kind)
    stored, plain = T.game_state(table), T.game_state(bare)
    seat = stored.pending.seat
    with speaking(CHINESE):
        pick = [o.action for o in game.options(stored, seat) if o.action.kind == CHOOSE][-1]
    with speaking(ENGLISH):
        after, said = game.apply(stored, seat, pick)
        expected, told = game.apply(plain, seat, pick)
    assert [e.text for e in said] == [e.text for e in told]
    assert game_only(game.dump(after)) == game_only(game.dump(expected))


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_a_later_step_keeps_the_words_and_needs_no_replay_of_its_own(kind: str) -> None:
    """A step that leaves the choice waiting (a seat handed over) carries its words
    along: nothing more is played for them."""
    _, _, _, table, _ = paused_in_english(kind)
    assert table.state is not None
    kept = table.state["pending"]["texts"]
    plays: list[str] = []

    def step() -> tuple[Table, list[Event]]:
        plays.append("step")
        return table.copy(), [Event("The seat passes.")]

    again, _ = languages.said_in(step, ())
    assert plays == ["step"] and again.state is not None
    assert again.state["pending"]["texts"] == kept
    assert languages.unworded(again, ()) == ()


async def test_a_game_ended_while_a_choice_waits_replays_exactly(tmp_path: Path) -> None:
    """The stored end keeps the choice's Chinese words; the game played again from its
    moves (in English) does not: the words are no part of the game, so it is exact."""
    variant = next(v for v in VARIANTS if v.kind == "evilbelow")
    store = await open_store(tmp_path / "choice.sqlite3")
    try:
        sessions = sessions_on(store)
        await open_lobby(sessions, variant, 5)
        table = (await sessions.act(CHANNEL, HOST, Action(T.START))).table
        for _ in range(STEPS):
            if T.game_state(table).pending is not None:
                break
            table = await play_step(sessions, table)
        assert table.state is not None and table.state["pending"]["texts"].get(CHINESE)
        ended = (await sessions.act(CHANNEL, HOST, Action(T.END))).table
        assert ended.state is not None and ended.state["pending"]["texts"].get(CHINESE)
        rebuilt = replay.rebuild(ended, await store.moves(ended.id or 0))
        assert rebuilt.exact, rebuilt.why
    finally:
        await store.close()


def test_a_game_that_words_its_choices_as_read_plays_a_pausing_step_once() -> None:
    """Cthulhu words a choice again from its kind and payload as it is read: an English
    table's step that pauses on one is played once, and a Chinese reader still reads it
    in Chinese."""
    game = cthulhu.GAME
    assert game.words_choices_when_read
    state, seat, action = first_choice(game, 5)
    plays: list[str] = []

    def step() -> tuple[Table, list[Event]]:
        plays.append(current())
        moved, events = game.apply(game.copy_state(state), seat, action)
        return Table(channel_id=1, guild_id=2, kind="cthulhu", host_id=1, seed=5,
                     state=game.dump(moved)), events

    table, _ = languages.said_in(step, ())
    assert plays == [ENGLISH] and languages.unworded(table, ()) == ()
    assert table.state is not None and table.state["pending"]["texts"] == {}
    paused = T.game_state(table)
    with speaking(CHINESE):
        prompt = game.status_text(paused)
        labels = [o.label for o in game.options(paused, paused.pending.seat)]
    assert CJK.search(prompt) and any(CJK.search(label) for label in labels)


@pytest.mark.parametrize("kind", sorted(GAMES))
@pytest.mark.parametrize("paused", [False, True])
def test_a_choice_an_ai_seat_makes_is_worded_only_on_a_paused_table(
        kind: str, paused: bool) -> None:
    """The AI chain makes an AI seat's choice right after the save, before any post
    shows it: the step is played once, in English. A paused table holds the AI until
    /gm resume, and a reader may come meanwhile: its choice is worded as a player's."""
    game = GAMES[kind]
    state, seat, action = first_choice(kind, 5)
    plays: list[str] = []

    def step() -> tuple[Table, list[Event]]:
        plays.append(current())
        after, events = game.apply(game.copy_state(state), seat, action)
        table = english_table(kind, after)
        waiting = T.game_state(table).pending.seat
        table.seats[waiting] = Seat("AI", None, ai=True)
        table.paused = paused
        return table, events

    table, _ = languages.said_in(step, ())
    assert table.state is not None
    if paused:
        assert plays == [ENGLISH, CHINESE]
        assert CJK.search(table.state["pending"]["texts"][CHINESE]["prompt"])
    else:
        assert plays == [ENGLISH]
        assert table.state["pending"]["texts"] == {}
