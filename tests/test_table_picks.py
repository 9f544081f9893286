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
from bot.games.betrayal import content
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
def hat_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """Registered for this file's tests only: a game with no renderer left in the
    registry would make a later bot's warm-up draw fail."""
    games.all_games()  # the real games first, so the patch below is undone cleanly
    monkeypatch.setitem(games._GAMES, HatGame.key, HatGame())


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


# -- two explorers per person (RULES.md: Betrayal when few play) --------------------------

ANN, BOB = table_rules.Actor(10, "Ann"), table_rules.Actor(20, "Bob")


def _betrayal_lobby() -> table_rules.Table:
    table, _ = table_rules.new_table("betrayal", 7, 1, ANN, seed=5, options={"today": "01-01"})
    table, _ = table_rules.apply(table, BOB, Action(table_rules.JOIN))
    return table


def test_a_person_may_hold_two_seats_in_betrayal_but_not_three() -> None:
    table, events = table_rules.apply(_betrayal_lobby(), ANN, Action(table_rules.SECOND))
    assert table.seats_of(10) == [0, 2] and events[-1].text.startswith("Ann takes a second")
    with pytest.raises(IllegalAction, match="at most 2 seats"):
        table_rules.apply(table, ANN, Action(table_rules.SECOND))
    cthulhu, _ = table_rules.new_table("cthulhu", 8, 1, ANN, seed=5)
    with pytest.raises(IllegalAction, match="at most 1 seat\\."):
        table_rules.apply(cthulhu, ANN, Action(table_rules.SECOND))


def test_picks_fill_a_two_seat_players_seats_in_turn() -> None:
    table, _ = table_rules.apply(_betrayal_lobby(), ANN, Action(table_rules.SECOND))
    for explorer in ("ox_bellows", "zoe_ingstrom"):
        table, _ = table_rules.apply(table, ANN, Action(table_rules.PICK,
                                                        {"name": "explorer", "value": explorer}))
    assert [table.seats[i].picks.get("explorer") for i in (0, 2)] == ["ox_bellows",
                                                                       "zoe_ingstrom"]
    with pytest.raises(IllegalAction, match="other side"):  # Darrin is Ox's other side
        table_rules.apply(table, BOB, Action(table_rules.PICK,
                                             {"name": "explorer", "value": "darrin_williams"}))


def test_the_game_waits_for_whichever_seat_is_due_and_leaving_frees_both() -> None:
    table, _ = table_rules.apply(_betrayal_lobby(), ANN, Action(table_rules.SECOND))
    table, _ = table_rules.apply(table, ANN, Action(table_rules.START))
    state = games.get("betrayal").load(table.state or {})
    known = content.get().explorers  # never two sides of one card, even for one person
    assert len({known[e.key].colour for e in state.explorers}) == 3
    due = table_rules.to_act_seat(table)
    assert due is not None
    owner = table.seats[due].user_id
    assert table_rules.acting_seat(table, owner or 0) == due  # either of Ann's seats
    table, _ = table_rules.apply(table, ANN, Action(table_rules.LEAVE))
    assert [s.ai for s in table.seats] == [True, False, True]  # both of Ann's seats
    assert table.status == "active"  # Bob still plays


def test_leaving_a_lobby_frees_every_seat_of_that_person() -> None:
    table, _ = table_rules.apply(_betrayal_lobby(), ANN, Action(table_rules.SECOND))
    table, _ = table_rules.apply(table, ANN, Action(table_rules.LEAVE))
    assert [s.user_id for s in table.seats] == [20] and table.host_id == 20
