"""An option's group is words a player reads: a select's placeholder ("Move…") when the
group has too many options for a row of buttons (cogs/prompt_rows.py). Issue 25: a
Chinese server's posts are in Chinese, so each game's groups are said in the language
spoken, as its labels are. The real zh-TW files are read: a Latin word is a leak."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.games import betrayal, cthulhu, evilbelow
from bot.games.base import Game, PlayerInfo
from bot.games.betrayal import explore
from bot.locales import CHINESE, ENGLISH, speaking

LATIN = re.compile(r"[A-Za-z]{2,}")
STEPS = 60  # AI moves played, the groups of each step's options read


@pytest.mark.parametrize("game", [cthulhu.GAME, evilbelow.GAME, betrayal.GAME],
                         ids=["cthulhu", "evilbelow", "betrayal"])
def test_every_options_group_is_said_in_chinese(game: Game[Any]) -> None:
    players = [PlayerInfo(name, ai=True) for name in ("安", "博", "西")]
    with speaking(CHINESE):
        state, _ = game.setup(players, 3, {})
        groups: set[str] = set()
        for _ in range(STEPS):
            seat = game.to_act(state)
            if seat is None or game.is_over(state):
                break
            groups |= {option.group for option in game.options(state, seat)}
            state, _ = game.apply(state, seat, game.ai_action(state, seat))
    assert groups
    assert not [group for group in groups if LATIN.search(group)], groups


def test_a_rooms_turnings_name_their_doors_in_chinese() -> None:
    """A tile's turnings ("Doors N, E") are the buttons of a choice a Chinese server
    reads; its cells already say 北/東/南/西 ("崩塌的房間的北邊"), so a turning beside it
    reading "門朝E, S" mixed two alphabets in one label."""
    with speaking(CHINESE):
        labels = [explore.rotation_label("kitchen", turn) for turn in range(4)]
    assert not [label for label in labels if LATIN.search(label) or re.search("[NESW]", label)], \
        labels
    with speaking(ENGLISH):
        assert explore.rotation_label("kitchen", 0).startswith("Doors ")
