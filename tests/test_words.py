"""Lines that read right (issue 11): a count agrees with its noun ("1 die", "2 dice"),
a trait at the end of its track says so instead of "4 → 4", and no line says "0 damage".

Rule-level: the engines' own events, plus one scan of every template in data/ for a
count placed before a plural noun it does not agree with.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot import yaml_files
from bot.games.base import PlayerInfo
from bot.games.betrayal import traits
from bot.games.betrayal.state import BetrayalState
from bot.games.evilbelow import GAME as EVIL_BELOW
from bot.games.evilbelow import effects as evil_below_effects
from bot.paths import DATA
from bot.texts import fill, plural
from tests.test_betrayal_engine_helpers import OX, dice, new_game, value
from tests.test_betrayal_engine_traits import run_steps

__all__ = ["dice"]


# ---------------------------------------------------------------- the helper

def test_a_count_takes_the_singular_for_one_and_the_plural_otherwise() -> None:
    assert [plural(n, "die", "dice") for n in (0, 1, 2)] == ["0 dice", "1 die", "2 dice"]
    line = "Roll {n:die|dice}, {cards:card is|cards are} left, {who}."
    assert fill(line, n=1, cards=1, who="Ox") == "Roll 1 die, 1 card is left, Ox."
    assert fill(line, n=3, cards=2, who="Ox") == "Roll 3 dice, 2 cards are left, Ox."
    assert fill("{a} and {b!r}", a=1, b="x") == "1 and 'x'"  # the rest as str.format


# Nouns a count stands before in our lines; a placeholder right before one of them must
# name the noun's singular too ({n:die|dice}), unless it is a range ("2 to {high}
# players") or a share ("3 of {needed} successes"), or not a count at all.
NOUNS = ("dice", "cards", "rooms", "rounds", "totems", "spaces", "seats", "points", "omens",
         "heroes", "forms", "nights", "rats", "servants", "items", "names", "explorers",
         "players", "tiles", "attacks among", "attack cards", "totem cards")
NOT_COUNTS = {"deck"}  # "the top two {deck} cards": a deck's name
BARE = re.compile(r"(?<!of )(?<!to )\{(\w+)\} (?:more |new )?(" + "|".join(NOUNS) + r")\b")


def _strings(node: Any, where: str) -> Iterator[tuple[str, str]]:
    if isinstance(node, str):
        yield where, node
    elif isinstance(node, dict):
        for key, value_ in node.items():
            if key != "note":  # a haunt's design note: read by us, never by players
                yield from _strings(value_, f"{where}.{key}")
    elif isinstance(node, list):
        for n, value_ in enumerate(node):
            yield from _strings(value_, f"{where}[{n}]")


def test_no_template_puts_a_bare_count_before_a_plural_noun() -> None:
    found = []
    for path in sorted(Path(DATA).rglob("*.yaml")):
        for where, text in _strings(yaml_files.read(path), path.name):
            found += [f"{where}: {m.group(0)}" for m in BARE.finditer(text)
                      if m.group(1) not in NOT_COUNTS]
    assert found == []


# ---------------------------------------------------------------- "1 die"

def test_one_die_is_a_die(dice: list[int]) -> None:
    state = new_game()
    dice.extend([2, 1])
    _, events = run_steps(state, [{"roll": {"dice": 1, "outcomes": []}},
                                  {"attack": {"trait": "might", "dice": 1}}])
    assert any("rolls 1 die: 2 = 2." in e for e in events)
    assert any("attacks Ox Bellows: 1 die against Might" in e for e in events)
    assert not any("1 dice" in e for e in events)


# ---------------------------------------------------------------- the ends of a track

def _at(state: BetrayalState, trait: str, index: int) -> BetrayalState:
    state.explorers[OX].traits[trait] = index
    return state


def test_a_gain_at_the_top_says_it_is_already_at_its_highest() -> None:
    state = _at(new_game(), "knowledge", traits.TOP)  # Ox's Knowledge: ... 6 [6]
    top = value(state, OX, "knowledge")
    after, events = run_steps(state, [{"gain": {"trait": "knowledge", "amount": 1}}])
    assert events == [f"Ox Bellows gains 1 step of Knowledge, but it is already at its highest "
                      f"({top})."]
    assert after.explorers[OX].traits == state.explorers[OX].traits


def test_a_loss_at_the_lowest_says_it_is_already_at_its_lowest() -> None:
    state = _at(new_game(), "speed", 0)  # before the haunt: the lowest value, not the skull
    after, events = run_steps(state, [{"lose": {"trait": "speed", "amount": 2}}])
    assert events == ["Ox Bellows loses 2 steps of Speed, but it is already at its lowest (2): it "
                      "holds there before the haunt."]
    assert after.explorers[OX].traits["speed"] == 0


def test_a_step_onto_the_same_value_says_the_value_stays() -> None:
    state = _at(new_game(), "speed", 2)  # Ox's Speed: 2 2 [2] 3 ...: one down is still 2
    after, events = run_steps(state, [{"lose": {"trait": "speed", "amount": 1}}])
    assert events == ["Ox Bellows's Speed moves 1 step down its track (still 2)."]
    assert after.explorers[OX].traits["speed"] == 1
    assert not any("→" in e for e in events)
    _, events = run_steps(state, [{"gain": {"trait": "speed", "amount": 1}}])
    assert events == ["Ox Bellows gains 1 step of Speed (2 → 3)."]  # a real change keeps its arrow


def test_a_choice_of_traits_offers_none_at_its_top() -> None:
    state = _at(new_game(), "might", traits.TOP)  # a gain there would change nothing
    after, events = run_steps(state, [{"gain": {"choose": ["might", "sanity"], "amount": 1}}])
    assert after.pending is None and events == ["Ox Bellows gains 1 step of Sanity (3 → 4)."]
    state = _at(state, "speed", traits.TOP - 1)
    asked, _ = run_steps(state, [{"gain": {"choose": ["might", "speed", "sanity"],
                                           "amount": 1}}])
    assert asked.pending is not None and [label.split(" (")[0] for label in
                                          asked.pending.labels] == ["Speed", "Sanity"]


# ---------------------------------------------------------------- no "0 damage"

def test_damage_rolled_as_zero_is_no_damage(dice: list[int]) -> None:
    state = new_game()
    dice.extend([0, 0])
    after, events = run_steps(state, [{"damage": {"kind": "mental", "dice": 2}}])
    assert "Ox Bellows takes no damage." in events
    assert not any("0 mental damage" in e or "0 damage" in e for e in events)
    assert after.explorers[OX].traits == state.explorers[OX].traits


# ---------------------------------------------------------------- Evil Below's Bravery

@pytest.fixture
def derry() -> Any:
    state, _ = EVIL_BELOW.setup([PlayerInfo("Ann"), PlayerInfo("Bo")], 3, {})
    return state


def test_bravery_at_zero_or_at_five_says_so(derry: Any) -> None:
    name = evil_below_effects.hero_name(derry, 0)
    derry.heroes[0].bravery = 0
    events: list[Any] = []
    evil_below_effects.lose_bravery(derry, 0, 1, events)
    assert [e.text for e in events] == [f"{name} loses 1 Bravery, but has none left to lose (0)."]
    derry.heroes[0].bravery = evil_below_effects.MAX_BRAVERY
    derry.heroes[1].bravery = 2
    events = []
    evil_below_effects.gain_bravery(derry, [0, 1], events)
    other = evil_below_effects.hero_name(derry, 1)
    assert [e.text for e in events] == [
        f"Courage! Bravery now: {name} 5 (already at its highest), {other} 3."]
