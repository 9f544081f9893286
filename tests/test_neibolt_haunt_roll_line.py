"""Neibolt's haunt roll (seed 000: "At the end of your turn, make a haunt roll"): the
line that announces each encounter's roll names who rolls, as the line of its result
does (events.haunt_not_yet's {who}), in English and in zh-TW."""

from __future__ import annotations

import pytest

from bot.games.base import PlayerInfo
from bot.games.betrayal import GAME, content
from bot.games.betrayal.context import Ctx, explorer_name
from bot.games.betrayal.effects import run
from bot.games.neibolt import encounters
from bot.locales import CHINESE, ENGLISH, speaking

TRIO = ["ox_bellows", "missy_dubourde", "peter_akimoto"]


@pytest.mark.parametrize("language", [ENGLISH, CHINESE])
@pytest.mark.parametrize("owed", [False, True])
def test_the_haunt_roll_line_names_the_roller(language: str, owed: bool) -> None:
    state, _ = GAME.setup([PlayerInfo(f"P{i}") for i in range(3)], 5,
                          {"explorers": TRIO, "today": "10-01", "expansion": "neibolt"})
    card = "floating_lights"
    state.decks[encounters.DECK].remove(card)
    state.discards[encounters.DECK].append(card)
    seat = 1
    with speaking(language):
        ctx = Ctx(state)
        ctx.push([{"_nb_roll_said": {"card": card, "dice": 1, "owed": owed}}], seat)
        run(ctx)
        lines = [e.text for e in ctx.events]
        name, title = explorer_name(state, seat), content.card(card).name
    said = next(line for line in lines if title in line)
    assert name in said
