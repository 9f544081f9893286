"""IT: Evil Below's `youngest` setup option names a seat by its place in the lobby
(`/game new youngest:seat3`); a seat leaving the lobby moves every later seat up one, so
the option must follow the player it named.

Seed 001, setup step 9: "Give the youngest player the dice to start the game."
docs/rulings.md 10: "the host names the youngest in the lobby (`/game new youngest:`);
by default, the host." Removing an AI seat, or a player leaving, before the youngest's
seat handed the dice to whoever took that place (or refused the start: "The youngest
player must be one of the N seats").
"""

from __future__ import annotations

from bot import table as T
from bot.core.actions import Action
from bot.games.evilbelow.setup import YOUNGEST
from bot.table_record import Table
from bot.texts import say

ANN, BO, CY = T.Actor(1, "Ann"), T.Actor(2, "Bo"), T.Actor(3, "Cy")


def _lobby(youngest: str) -> Table:
    """Ann (the host), an AI seat, Bo and Cy, with the youngest named at /game new."""
    table, _ = T.new_table("evilbelow", 5, 6, ANN, seed=3, options={YOUNGEST: youngest})
    table, _ = T.apply(table, ANN, Action(T.ADD_AI))
    table, _ = T.apply(table, BO, Action(T.JOIN))
    table, _ = T.apply(table, CY, Action(T.JOIN))
    return table


def _starter(table: Table) -> str:
    table, _ = T.apply(table, ANN, Action(T.START))
    state = T.game_state(table)
    return table.seats[state.starter].name


def _remove_ai(table: Table) -> Table:
    table, events = T.apply(table, ANN, T.remove_ai_action(table, 1))
    assert events[0].text.startswith(say("lobby.ai_removed", name="\0", by="Ann")
                                     .split("\0")[0])
    return table


def test_the_youngest_stays_the_player_named_when_an_earlier_ai_seat_is_removed() -> None:
    """Bo, seat 3, is named the youngest; the AI seat 2 is taken out, so Bo is seat 2
    now: Bo still takes the dice first (it was Cy, now seat 3)."""
    table = _remove_ai(_lobby("seat3"))
    assert [s.name for s in table.seats] == ["Ann", "Bo", "Cy"]
    assert table.options[YOUNGEST] == "seat2"
    assert _starter(table) == "Bo"


def test_the_youngest_stays_the_player_named_when_an_earlier_player_leaves() -> None:
    """Cy, seat 4, is the youngest; Bo (seat 3) leaves: Cy, now seat 3, starts (the
    start was refused: no seat 4)."""
    table, _ = T.apply(_lobby("seat4"), BO, Action(T.LEAVE))
    assert _starter(table) == "Cy"


def test_a_later_seat_leaving_changes_nothing() -> None:
    table, _ = T.apply(_lobby("seat3"), CY, Action(T.LEAVE))
    assert table.options[YOUNGEST] == "seat3"
    assert _starter(table) == "Bo"


def test_the_youngest_seat_leaving_leaves_the_hosts_default() -> None:
    """The seat named the youngest is taken out: no one is named any more, and the
    rulings' default stands (the host starts), rather than whoever moved into the
    place."""
    table = _remove_ai(_lobby("seat2"))
    assert YOUNGEST not in table.options
    assert _starter(table) == "Ann"
