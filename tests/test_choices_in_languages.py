"""A pending choice's question and buttons in each reader's language (issue 25).

Betrayal and IT: Evil Below word a choice's prompt and labels from their data when they
pause, in the language spoken; the state keeps the English. The table's replay of the
step in Chinese (bot/languages.py's `said_in`) keeps its words with the English choice,
so a Chinese reader's buttons and status line read in Chinese and an English reader's
as before. The real zh-TW files are read: a CJK character proves the Chinese.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from bot import languages
from bot.core.actions import Action
from bot.core.choices import CHOOSE, PendingChoice, texts_kept
from bot.core.events import Event
from bot.core.seats import Seat
from bot.games import betrayal, evilbelow
from bot.games.base import Game, PlayerInfo
from bot.locales import CHINESE, ENGLISH, current, speaking
from bot.store import Table

CJK = re.compile(r"[\u4e00-\u9fff]")
GAMES: dict[str, Game[Any]] = {"betrayal": betrayal.GAME, "evilbelow": evilbelow.GAME}
STEPS = 400  # how far a seeded game is played looking for a choice (it pauses well before)


def first_choice(kind: str | Game[Any], seed: int) -> tuple[Any, int, Any]:
    """The first state, seat and action of a seeded all-AI game (of GAMES by its key,
    or the game given) whose step pauses on a choice: the step to say in two
    languages."""
    game = GAMES[kind] if isinstance(kind, str) else kind
    players = [PlayerInfo(n, ai=True) for n in ("Ann", "Bo", "Cy", "Di")]
    with speaking(ENGLISH):
        state, _ = game.setup(players, seed, {})
        for _ in range(STEPS):
            seat = game.to_act(state)
            assert seat is not None, "the game ended before any choice"
            action = game.ai_action(state, seat)
            after, _ = game.apply(state, seat, action)
            if after.pending is not None and state.pending is None:
                return state, seat, action
            state = after
    raise AssertionError("no choice within the steps played")


def said(kind: str, seed: int) -> tuple[Any, PendingChoice]:
    """The step that pauses, said in English and Chinese; the English state it stored."""
    game = GAMES[kind]
    state, seat, action = first_choice(kind, seed)

    def step() -> tuple[Table, list[Event]]:
        after, events = game.apply(game.copy_state(state), seat, action)
        return Table(channel_id=1, guild_id=2, kind=kind, host_id=1, seed=seed,
                     seats=[Seat("Ann", 1, language=CHINESE)], state=game.dump(after),
                     guild_language=ENGLISH), events

    table, _ = languages.said_in(step, (CHINESE,))
    assert table.state is not None
    stored = game.load(table.state)
    assert stored.pending is not None
    return stored, stored.pending


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_a_choice_reads_in_chinese_to_a_chinese_reader_and_english_to_an_english_one(
        kind: str) -> None:
    game = GAMES[kind]
    stored, pending = said(kind, 5)
    assert not CJK.search(pending.prompt + "".join(pending.labels))  # the truth: English
    assert CHINESE in pending.texts
    with speaking(ENGLISH):
        english = [o.label for o in game.options(stored, pending.seat)]
        assert english == pending.labels
        assert pending.prompt in game.status_text(stored)
    with speaking(CHINESE):
        chinese = [o.label for o in game.options(stored, pending.seat)]
        prompt = pending.asked
        status = game.status_text(stored)
    assert len(chinese) == len(english) and chinese != english
    assert CJK.search(prompt) and prompt != pending.prompt and prompt in status
    assert all(CJK.search(label) for label, e in zip(chinese, english, strict=True)
               if CJK.search(e) is None and re.search(r"[A-Za-z]{3}", e))


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_the_kept_words_survive_the_store(kind: str) -> None:
    game = GAMES[kind]
    stored, pending = said(kind, 5)
    again = game.load(game.dump(stored))
    assert again.pending is not None and again.pending.texts == pending.texts


def _settles(game: Game[Any], state: Any, seat: int, action: Any) -> bool:
    """Whether the first option of the choice this step pauses on ends the pause."""
    paused, _ = game.apply(game.copy_state(state), seat, action)
    return game.apply(paused, seat, Action(CHOOSE, {"pick": 0}))[0].pending is None


def test_an_english_only_table_plays_a_step_once_unless_it_leaves_a_choice_unworded() -> None:
    """English readers only: a step is played once, but the one that pauses on a choice,
    played again for the choice's words in each language the bot speaks (a reader of it
    may come while it waits: tests/test_waiting_choices_in_languages.py); its lines stay
    English only."""
    game = GAMES["betrayal"]
    state, seat, action = next(found for found in map(
        lambda seed: first_choice("betrayal", seed), range(5, 25))
        if _settles(game, *found))  # its pick ends the pause (some lead to another)
    plays: list[str] = []

    def step(before: Any, chosen: Any) -> Callable[[], tuple[Table, list[Event]]]:
        def played() -> tuple[Table, list[Event]]:
            plays.append(current())
            after, events = game.apply(game.copy_state(before), seat, chosen)
            return Table(channel_id=1, guild_id=2, kind="betrayal", host_id=1, seed=5,
                         state=game.dump(after)), events
        return played

    table, events = languages.said_in(step(state, action), ())
    assert plays == [ENGLISH, CHINESE] and all(not e.texts for e in events)
    assert table.state is not None and set(table.state["pending"]["texts"]) == {CHINESE}
    paused = game.load(table.state)
    assert paused.pending is not None
    plays.clear()
    unpaused, _ = languages.said_in(step(paused, Action(CHOOSE, {"pick": 0})), ())
    assert unpaused.state is not None and unpaused.state["pending"] is None  # settled
    assert plays == [ENGLISH]


def test_kept_words_that_do_not_fit_the_choice_read_in_english() -> None:
    pending = PendingChoice(0, "Pick", "k", ["a", "b"],
                            texts={CHINESE: {"prompt": "選", "labels": ["甲"]}})
    with speaking(CHINESE):
        assert [o.label for o in pending.options()] == ["a", "b"]
    pending.texts[CHINESE]["labels"].append("乙")
    with speaking(CHINESE):
        assert [o.label for o in pending.options()] == ["甲", "乙"]
        assert pending.asked == "選"
    assert [o.label for o in pending.options()] == ["a", "b"]


def test_a_stored_choice_of_before_gains_no_words() -> None:
    raw = {"pending": {"seat": 0, "prompt": "Pick", "kind": "k", "labels": ["a"],
                       "payload": {}}}
    assert texts_kept(raw)["pending"]["texts"] == {}
    assert texts_kept({"pending": None}) == {"pending": None}
