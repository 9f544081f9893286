"""Lobby picks (an explorer per player): offered by the game, checked against each other,
and handed to the game's setup one entry per seat."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

from bot import games
from bot import table as table_rules
from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.core.events import Event
from bot.games.base import PlayerInfo
from bot.games.cthulhu.rules import CthulhuGame
from bot.games.cthulhu.state import CthulhuState

HATS = [("red_hat", "Red hat"), ("red_cap", "Red cap"), ("blue_hat", "Blue hat")]


class HatGame(CthulhuGame):
    """Cthulhu with a hat per player; two red ones may not sit at one table."""

    key = "hats"
    seen_options: ClassVar[dict[str, Any]] = {}

    def seat_choices(self) -> dict[str, list[tuple[str, str]]]:
        return {"hat": HATS}

    def check_pick(self, picks: list[dict[str, str]], seat: int, name: str, value: str) -> None:
        colour = value.split("_")[0]
        for other, chosen in enumerate(picks):
            if other != seat and chosen.get(name, "").split("_")[0] == colour:
                raise IllegalAction("Someone already wears that colour.")

    def setup(self, players: list[PlayerInfo], seed: int,
              options: dict[str, Any]) -> tuple[CthulhuState, list[Event]]:
        HatGame.seen_options = dict(options)
        return super().setup(players, seed, {k: v for k, v in options.items() if k != "hats"})


@pytest.fixture(autouse=True)
def hat_game() -> None:
    games.register(HatGame())


def _lobby() -> table_rules.Table:
    table, _ = table_rules.new_table("hats", 1, 1, table_rules.Actor(10, "Ann"), seed=3)
    return table


def test_picking_takes_a_seat_and_records_the_pick() -> None:
    pick = Action(table_rules.PICK, {"name": "hat", "value": "blue_hat"})
    table, events = table_rules.apply(_lobby(), table_rules.Actor(20, "Bob"), pick)
    assert [s.user_id for s in table.seats] == [10, 20]
    assert table.seats[1].picks == {"hat": "blue_hat"}
    assert events[-1].text == "Bob picks Blue hat."


def test_the_game_refuses_a_clashing_pick_and_nothing_changes() -> None:
    table, _ = table_rules.apply(_lobby(), table_rules.Actor(10, "Ann"),
                                 Action(table_rules.PICK, {"name": "hat", "value": "red_hat"}))
    before = table.envelope()
    with pytest.raises(IllegalAction, match="already wears"):
        table_rules.apply(table, table_rules.Actor(20, "Bob"),
                          Action(table_rules.PICK, {"name": "hat", "value": "red_cap"}))
    assert table.envelope() == before
    # Changing your own pick to the other side of your colour is fine.
    table, _ = table_rules.apply(table, table_rules.Actor(10, "Ann"),
                                 Action(table_rules.PICK, {"name": "hat", "value": "red_cap"}))
    assert table.seats[0].picks == {"hat": "red_cap"}


@pytest.mark.parametrize("args", [{"name": "hat", "value": "green_hat"},
                                  {"name": "shoe", "value": "red_hat"}, {}])
def test_unknown_picks_are_refused(args: dict[str, str]) -> None:
    with pytest.raises(IllegalAction):
        table_rules.apply(_lobby(), table_rules.Actor(10, "Ann"), Action(table_rules.PICK, args))


def test_picks_reach_setup_one_per_seat() -> None:
    table = _lobby()
    table, _ = table_rules.apply(table, table_rules.Actor(10, "Ann"),
                                 Action(table_rules.PICK, {"name": "hat", "value": "blue_hat"}))
    table, _ = table_rules.apply(table, table_rules.Actor(10, "Ann"), Action(table_rules.ADD_AI))
    table, _ = table_rules.apply(table, table_rules.Actor(10, "Ann"), Action(table_rules.START))
    assert table.status == "active"
    assert HatGame.seen_options["hats"] == ["blue_hat", None]


def test_picking_after_the_start_is_refused() -> None:
    table = _lobby()
    table, _ = table_rules.apply(table, table_rules.Actor(10, "Ann"), Action(table_rules.ADD_AI))
    table, _ = table_rules.apply(table, table_rules.Actor(10, "Ann"), Action(table_rules.START))
    with pytest.raises(IllegalAction, match="already started"):
        table_rules.apply(table, table_rules.Actor(10, "Ann"),
                          Action(table_rules.PICK, {"name": "hat", "value": "blue_hat"}))
