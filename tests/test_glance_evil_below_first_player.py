"""Who takes the dice first in IT: Evil Below, said truly.

Seed 001, Setup step 9: "Give the youngest player the dice to start the game." RULES.md:
"the host names the youngest player in the lobby (default: the host)". A table where
nobody was named youngest starts with the host, and the opening line said "ann is the
youngest and takes the dice first.", a claim nobody made. It says the host starts
because nobody was named; a named youngest is still called the youngest.
"""

from __future__ import annotations

import pytest

from bot.games.base import HOST_SEAT, PlayerInfo
from bot.locales import CHINESE, ENGLISH, speaking
from tests.evil_below_helpers import GAME

PLAYERS = [PlayerInfo("ann"), PlayerInfo("bo"), PlayerInfo("cy")]
SAID = {
    ENGLISH: {"named": "bo is the youngest and takes the dice first.",
              "host": "Nobody was named youngest: ann, the host, takes the dice first.",
              "first": "Nobody was named youngest: ann, in the first seat, takes the dice first."},
    CHINESE: {"named": "bo 年紀最小，先拿骰子。",
              "host": "沒有人被指定為最年輕的玩家：由主持人 ann 先拿骰子。",
              "first": "沒有人被指定為最年輕的玩家：由第一個座位的 ann 先拿骰子。"},
}


def _starter_line(options: dict[str, object]) -> str:
    _, events = GAME.setup(PLAYERS, 1, options)
    return next(e.text for e in events if e.kind == "starter")


@pytest.mark.parametrize("language", [ENGLISH, CHINESE])
def test_a_named_youngest_is_called_the_youngest(language: str) -> None:
    with speaking(language):
        assert _starter_line({"youngest": "seat2", HOST_SEAT: 0}) == SAID[language]["named"]


@pytest.mark.parametrize("language", [ENGLISH, CHINESE])
def test_the_host_starts_when_nobody_was_named(language: str) -> None:
    with speaking(language):
        state, events = GAME.setup(PLAYERS, 1, {HOST_SEAT: 0})
        assert state.turn == 0
        line = next(e.text for e in events if e.kind == "starter")
        assert line == SAID[language]["host"]
        assert "youngest and" not in line and "年紀最小" not in line


@pytest.mark.parametrize("language", [ENGLISH, CHINESE])
def test_the_first_seat_starts_with_no_host_seated(language: str) -> None:
    with speaking(language):
        assert _starter_line({}) == SAID[language]["first"]
