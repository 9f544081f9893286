"""IT: Evil Below's buttons read at a glance: no brackets inside brackets.

A die's action named its die inside the action's brackets, and the die its face inside
its own: "Draw a totem (House on Neibolt Street die (pick up))". The die reads "House on
Neibolt Street die: pick up" now, one pair of brackets in all, in English and zh-TW, and
every label stays within Discord's 80 characters for a button (or a select's option).
"""

from __future__ import annotations

import re

import pytest

from bot.games.evilbelow.content import BALLOON, HAND, HEART
from bot.locales import CHINESE, ENGLISH, speaking
from tests.evil_below_helpers import GAME, actions_phase, arrange

LABEL_MAX = 80  # Discord: a button's label, a select option's label
NESTED = re.compile(r"[(（][^()（）]*[(（]")
SAID = {ENGLISH: "Draw a totem (House on Neibolt Street die: pick up)",
        CHINESE: "抽一張信物牌（尼伯特街鬼屋的骰子：撿起）"}


def _labels(language: str) -> list[str]:
    """Every option's label (and a two-step choice's second-step words) for a hero at
    each location in turn, with every die free, rolled all pick-ups, then all courage,
    then mixed."""
    found: list[str] = []
    with speaking(language):
        for where in range(7):
            for faces in ({}, dict.fromkeys(range(7), HEART),
                          {d: (HEART, HAND, BALLOON)[d % 3] for d in range(7)}):
                state = actions_phase(arrange(["bill", "bev"], {0: where, 1: where}), faces)
                for option in GAME.options(state, 0):
                    found += [option.label, option.then, option.first]
    return [label for label in found if label]


@pytest.mark.parametrize("language", [ENGLISH, CHINESE])
def test_a_die_action_reads_with_one_pair_of_brackets(language: str) -> None:
    labels = _labels(language)
    assert SAID[language] in labels
    assert [label for label in labels if NESTED.search(label)] == []
    assert [label for label in labels if len(label) > LABEL_MAX] == []
