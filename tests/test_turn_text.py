"""A turn told at a glance (issue 20): over seeded AI games of every game, each live
message's text keeps to 3 short lines with no overflow message, and no line says the
same thing twice or reads oddly; the wording cases each as a test of the engine."""

from __future__ import annotations

import asyncio
import re
import statistics
from functools import cache

import pytest

from bench import turn_text
from bot.core.events import Event
from bot.games.betrayal.state import HAUNT
from bot.headlines import LINES, pick, short
from tests.test_betrayal_engine_helpers import OX, new_game
from tests.test_betrayal_engine_traits import run_steps

SEEDS = (1, 2)
ACTIONS = 25  # the host's moves per game: bounded, each with the AI turns after it
GLANCE = 400  # characters a live text may hold, the mentions included


@cache
def _played(name: str, seed: int) -> turn_text.TextOutlet:
    return asyncio.run(turn_text.play(name, 4, seed, ACTIONS))


CASES = [(name, seed) for name in turn_text.GAMES for seed in SEEDS]


@pytest.mark.parametrize(("name", "seed"), CASES)
def test_every_turn_fits_three_short_lines_and_never_overflows(name: str, seed: int) -> None:
    outlet = _played(name, seed)
    assert len(outlet.texts) >= 5
    for n, text in enumerate(outlet.texts):
        lines = text.splitlines()
        if n in outlet.wholes:  # a rumble's end: its score, whole, and no more
            assert len(lines) <= LINES + 6, text
            continue
        assert len(lines) <= LINES, text
        assert len(text) <= GLANCE, text
        assert len(set(lines)) == len(lines), text  # no line twice
    assert outlet.overflow == 0
    assert statistics.median(outlet.live_chars) < 300
    assert max(outlet.all_chars) > max(outlet.live_chars)  # the detail went to the log


@pytest.mark.parametrize(("name", "seed"), CASES)
def test_the_table_reads_no_odd_or_repeated_line(name: str, seed: int) -> None:
    outlet = _played(name, seed)
    for line in outlet.public:
        assert "must choose:" not in line  # a player's own prompt, not for the table
        assert "No special rule." not in line
        assert "a step up its track: it stays" not in line
        assert "a step down its track: it stays" not in line
        assert not re.fullmatch(r".+ rolls \d+\.", line), line  # the roll's line said it
    for text in outlet.texts:
        assert "Set aside, for they do not fit here" not in text
        assert "has already drawn strength" not in text
        assert not re.search(r"It's .+'s turn", text), text  # the footer says who is next
        assert "rolls" not in text or "=" not in text, text  # the dice are the log's


def test_a_step_up_the_track_onto_the_same_value_reads_plainly() -> None:
    state = new_game()
    state.explorers[OX].traits["speed"] = 1  # Ox's Speed: 2 [2] 2 3 ...: up one is still 2
    _, events = run_steps(state, [{"gain": {"trait": "speed", "amount": 1}}])
    assert events == ["Ox Bellows's Speed moves 1 step up its track (still 2)."]


def test_a_loss_to_the_skull_says_so_not_zero() -> None:
    state = new_game()
    state.phase = HAUNT
    state.explorers[OX].traits["speed"] = 1
    _, events = run_steps(state, [{"lose": {"trait": "speed", "amount": 2}}])
    assert events[0] == "Ox Bellows loses 2 steps of Speed: it falls to the skull."
    assert not any("→ 0" in e for e in events)


def test_a_choice_is_told_to_the_table_in_its_own_words() -> None:
    state = new_game()
    _, events = run_steps(state, [{"gain": {"choose": ["might", "speed"], "amount": 1}}])
    assert events == ["Ox Bellows has a choice to make."]


def test_a_long_headline_shows_its_first_sentence_and_a_short_one_whole() -> None:
    card = ("Zoe draws an event: Image in the Mirror. Your reflection, from another time, "
            "holds something out to you through the glass. Draw an item.")
    assert short(card) == "Zoe draws an event: Image in the Mirror."
    assert short("Mr. Keene says hi. Then more.") == "Mr. Keene says hi. Then more."
    assert pick(["a", "b", "c", "d"], 2) == ["c", "d"] and pick(["a"], 0) == []
    assert pick(["a", "b", "b"], 2) == ["a", "b"] and pick(["b", "a", "b"], 3) == ["a", "b"]
    assert Event("x", kind="detail").kind in turn_text.games.get("betrayal").detail_kinds()
