"""One person, two explorers, and one of them turns traitor (seed 003's play report:
"if player A's character becomes the traitor, one of A's characters is given to B"):
the table hands the other seat to a player of its side, or to the AI, so no one reads
both secret books."""

from __future__ import annotations

from bot import table as table_rules
from bot.core.actions import Action
from bot.games.betrayal import GAME
from bot.games.betrayal.haunting import sides
from bot.store import Table

ANN = table_rules.Actor(10, "Ann")
BOB = table_rules.Actor(20, "Bob")
CAT = table_rules.Actor(30, "Cat")


def _started(*joins: tuple[table_rules.Actor, bool]) -> Table:
    """Ann hosts; each (actor, second) joins, and takes a second seat if asked."""
    table, _ = table_rules.new_table("betrayal", 1, 1, ANN, seed=4)
    table, _ = table_rules.apply(table, ANN, Action(table_rules.SECOND))
    for actor, second in joins:
        table, _ = table_rules.apply(table, actor, Action(table_rules.JOIN))
        if second:
            table, _ = table_rules.apply(table, actor, Action(table_rules.SECOND))
    table, _ = table_rules.apply(table, ANN, Action(table_rules.START))
    return table


def _haunt_on_anns_turn(table: Table) -> tuple[Table, list[str]]:
    """It is one of Ann's seats' turn; it found the Girl in the Catacombs (The Mummy
    Walks, whose traitor is the revealer) and 13 omens are out: ending the turn
    begins the haunt with Ann's explorer as the traitor."""
    state = GAME.load(table.state or {})
    state.turn.seat = table.seats_of(ANN.user_id or 0)[0]
    state.turn.omen, state.turn.omen_room, state.omens_drawn = "girl", "catacombs", 13
    table.state = GAME.dump(state)
    table, events = table_rules.apply(table, ANN, Action("end_turn"))
    return table, [e.text for e in events]


def test_the_traitors_other_seat_passes_to_a_hero_player() -> None:
    table = _started((BOB, False), (CAT, False))
    traitor_seat, other_seat = table.seats_of(ANN.user_id or 0)
    table, lines = _haunt_on_anns_turn(table)
    state = GAME.load(table.state or {})
    assert state.haunt is not None and sides.traitor(state) == traitor_seat
    assert table.seats_of(ANN.user_id or 0) == [traitor_seat]
    assert table.seats[other_seat].user_id == BOB.user_id  # fewest seats, first in order
    assert state.players[other_seat] == "Bob (2nd)"
    assert any("Ann is on both sides now" in line and "Bob" in line for line in lines)
    heroes = GAME.teams(state)["heroes"]
    assert {table.seats[s].user_id for s in heroes} == {BOB.user_id, CAT.user_id}


def test_with_no_hero_player_free_the_ai_takes_it() -> None:
    table = _started((BOB, True))
    traitor_seat, other_seat = table.seats_of(ANN.user_id or 0)
    table, lines = _haunt_on_anns_turn(table)
    assert table.seats_of(ANN.user_id or 0) == [traitor_seat]
    assert table.seats[other_seat].ai and table.seats[other_seat].user_id is None
    assert GAME.load(table.state or {}).ai[other_seat]
    assert any("the AI plays their other seat" in line for line in lines)


def test_before_the_haunt_nothing_moves() -> None:
    table = _started((BOB, False))
    state = GAME.load(table.state or {})
    mover = state.turn.seat
    user = table.seats[mover].user_id
    actor = ANN if user == ANN.user_id else BOB
    table, _ = table_rules.apply(table, actor, Action("end_turn"))
    assert len(table.seats_of(ANN.user_id or 0)) == 2
