"""What players read in a glance says each thing once (bench/text_glance.py measures it).

The live message's few headlines and the log are read line by line: a rule that resolves
point by point (an attack's Bravery, its discards) is told as one line per Loser, and a
revealed totem's line leaves out the counts that say nothing (no weakness met). Every
fact stays: who lost how much, what is left, the game's end; in English and zh-TW alike.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.core.events import Event
from bot.games.evilbelow import content, effects
from bot.locales import CHINESE, ENGLISH, speaking
from tests.evil_below_helpers import (
    BALLOON,
    BARRENS,
    NEIBOLT,
    PHARMACY,
    ROCK,
    act,
    arrange,
    card,
    fight_ready,
    rolled,
    take,
)

DEEP_WATER = 0  # 0/A: flip 2; B: lose 2 Bravery, discard 2 totem cards (data/evilbelow/cards.yaml)


def attacked(language: str, bravery: int, hand: list[int]) -> tuple[Any, list[str]]:
    """Bev alone at the Pharmacy, two victims gone there, with this Bravery and hand:
    the Barrens' balloon fills an Evil Influence attack space and Pennywise lunges at
    her with Deep Water (its 0/A and B lines)."""
    with speaking(language):
        state = arrange(["bev", "eddie"], {0: PHARMACY, 1: NEIBOLT})
        take(state, content.board().influence_attacks[0] - 1)
        state.circles[PHARMACY][0] = None
        state.circles[PHARMACY][1] = None
        state.heroes[0].bravery = bravery
        state.heroes[0].hand = list(hand)
        attack = content.attack_ids()[DEEP_WATER]
        for pile in (state.attack_pile, state.fight_stack):
            if attack in pile:
                pile.remove(attack)
        state.attack_pile.append(attack)
        after, events = rolled(state, {BARRENS: BALLOON})
    return after, [e.text_in(language) for e in events]


WORDS = {
    ENGLISH: {"name": "Bev Marsh", "none_card": "Nobody there has a card to lose.",
              "all": "Bev Marsh loses 1 Bravery, all there was (0 left).",
              "two": "Bev Marsh loses 2 Bravery (1 left).",
              "broken": "Bev Marsh loses 2 Bravery, but has none left to lose (0)."},
    CHINESE: {"name": "貝芙·馬許", "none_card": "那裡沒有人有牌可以失去。",
              "all": "貝芙·馬許失去僅剩的 1 點膽量（剩 0）。",
              "two": "貝芙·馬許失去 2 點膽量（剩 1）。",
              "broken": "貝芙·馬許失去 2 點膽量，但已經沒有膽量可失去了（0）。"},
}


@pytest.mark.parametrize("language", [ENGLISH, CHINESE])
def test_an_attack_on_a_broken_loser_says_it_once(language: str) -> None:
    """Seed 001: 'The damage effects must still be satisfied to their full extent.' and
    'After resolving the Attack, if any player's Bravery is reduced to zero, Pennywise
    claims that player as his final victim and all players lose.' Two points of Bravery
    on a Loser with one left: one line (what she lost, none left), not a second "loses
    1 Bravery, but has none left to lose (0)"; two cards from nobody holding any: one
    "Nobody there has a card to lose.", not two. The attack still resolves in full."""
    words = WORDS[language]
    state, lines = attacked(language, 1, [])
    assert state.over
    about_bev = [line for line in lines if words["name"] in line]
    assert about_bev == [words["all"]]
    assert lines.count(words["none_card"]) == 1
    assert len(lines) == len(set(lines))


@pytest.mark.parametrize("language", [ENGLISH, CHINESE])
def test_two_points_on_one_loser_are_one_line(language: str) -> None:
    """Seed 001: 'The damage effects must still be satisfied to their full extent.' A
    line's 'lose 2 Bravery' that can land on one Loser only is one loss of two, told
    once with what is left; her one card goes, and the second discard finds nothing."""
    words = WORDS[language]
    state, lines = attacked(language, 3, [card(NEIBOLT, ROCK)])
    assert not state.over and state.heroes[0].bravery == 1 and not state.heroes[0].hand
    bravery = [line for line in lines if words["name"] in line and line != lines[-1]
               and ("Bravery" in line or "膽量" in line)]
    assert bravery == [words["two"]]
    assert lines.count(words["none_card"]) == 1


@pytest.mark.parametrize("language", [ENGLISH, CHINESE])
def test_points_on_a_loser_with_none_are_told_together(language: str) -> None:
    """Seed 001: the effect is satisfied to its full extent, point by point; a Loser with
    no Bravery left takes two such points as one line."""
    with speaking(language):
        state = arrange(["bev", "eddie"])
        state.heroes[0].bravery = 0
        events: list[Event] = []
        effects.lose_bravery(state, 0, 1, events, joined=True)
        effects.lose_bravery(state, 0, 1, events, joined=True)
    assert [e.text_in(language) for e in events] == [WORDS[language]["broken"]]
    assert state.heroes[0].bravery == 0


REVEALS = {
    ENGLISH: "Revealed: {card}. Totems out: 1.",
    CHINESE: "翻開：{card}。已翻出的信物：1。",
}


@pytest.mark.parametrize("language", [ENGLISH, CHINESE])
def test_a_reveal_meeting_no_weakness_says_no_empty_counts(language: str) -> None:
    """A totem revealed with no face-up weakness met: the line names the card and how
    many totems are out, without "face-up weaknesses met: 0 (worth 0)"."""
    totem = card(NEIBOLT, ROCK)
    with speaking(language):
        state = fight_ready(["bev", "eddie"], [totem])
        state.weakness_stacks = [[] for _ in state.weakness_stacks]
        state, _ = act(state, 0, "fight")
        state.fight_stack = [totem, *[c for c in state.fight_stack if c != totem]][::-1]
        _, events = act(state, 0, "reveal")
        name = content.card_name(totem)
    texts = [e.text_in(language) for e in events if e.kind == "reveal"]
    assert texts == [REVEALS[language].format(card=name)]
