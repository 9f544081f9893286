"""Seats that may act while it is someone else's turn (bot/games/base.py, out_of_turn):
the table plays such a seat's action for it, a seat's own button (for_seat) is for its
holder alone, and every other refusal stays as it was. The game is
tests/helpers/bell_game.py: every seat but the one to act may ring its bell once."""

from __future__ import annotations

import pytest

from bot import table as T
from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.delivery import prompt_of
from bot.table_record import Table
from bot.texts import say
from tests.helpers import bell_game
from tests.helpers.bell_game import GAME, KEY, RING, RING_LABEL, STEP, BellState

HOST = T.Actor(10, "Ann")
BOB = T.Actor(20, "Bob")
CAT = T.Actor(30, "Cat")
STRANGER = T.Actor(99, "Stranger")


@pytest.fixture(autouse=True)
def _bells(monkeypatch: pytest.MonkeyPatch) -> None:
    bell_game.register(monkeypatch)


def started(*guests: T.Actor, ai: int = 0) -> Table:
    table, _ = T.new_table(KEY, 1, 1, HOST, seed=1)
    for guest in guests:
        table, _ = T.apply(table, guest, Action(T.JOIN))
    for _ in range(ai):
        table, _ = T.apply(table, HOST, Action(T.ADD_AI))
    table, _ = T.apply(table, HOST, Action(T.START))
    return table


def state_of(table: Table) -> BellState:
    state = T.game_state(table)
    assert isinstance(state, BellState)
    return state


def refused(table: Table, actor: T.Actor, action: Action, message: str | None = None) -> None:
    before = table.envelope()
    with pytest.raises(IllegalAction) as caught:
        T.apply(table, actor, action)
    if message is not None:
        assert caught.value.message == message
    assert table.envelope() == before


def test_the_seats_that_may_act_out_of_turn_are_the_games_besides_the_one_to_act() -> None:
    table = started(BOB, CAT)
    assert T.to_act_seat(table) == 0
    assert T.out_of_turn_seats(table) == GAME.out_of_turn(state_of(table)) == [1, 2]
    lobby, _ = T.new_table(KEY, 2, 1, HOST, seed=1)
    assert T.out_of_turn_seats(lobby) == []


def test_an_out_of_turn_action_is_played_for_the_users_seat_not_the_one_to_act() -> None:
    table = started(BOB, CAT)
    table, events = T.apply(table, BOB, RING)
    assert state_of(table).rings == [1] and state_of(table).bells == [True, False, True]
    assert [e.text for e in events] == [bell_game.rang_line("Bob")]
    assert T.to_act_seat(table) == 0  # the turn did not move
    assert T.out_of_turn_seats(table) == [2]


def test_refusals_are_unchanged_for_what_is_not_an_out_of_turn_option() -> None:
    table = started(BOB, CAT)
    refused(table, BOB, STEP, "It is not your turn.")  # the turn's action, out of turn
    refused(table, HOST, RING)  # the seat to act has no out-of-turn options of its own
    table, _ = T.apply(table, BOB, RING)
    refused(table, BOB, RING)  # rung already: Bob's seat may not act now
    refused(table, STRANGER, RING, say("errors.not_seated"))


def test_a_seats_own_button_is_played_for_that_seat_by_its_holder_only() -> None:
    table = started(BOB, CAT)
    pinned = T.for_seat(RING, 2)
    assert pinned.args == {T.FOR_SEAT: 2}
    refused(table, BOB, pinned, say("errors.not_your_button", name="Cat"))
    refused(table, HOST, pinned, say("errors.not_your_button", name="Cat"))
    refused(table, STRANGER, pinned, say("errors.not_seated"))
    refused(table, CAT, T.for_seat(RING, 9), say("errors.not_your_button",
                                                 name="another player"))
    table, _ = T.apply(table, CAT, pinned)
    assert state_of(table).rings == [2]
    refused(table, CAT, pinned)  # the game refuses a second ring, as without the pin


def test_the_prompt_offers_each_other_human_seat_exactly_its_options_pinned_to_it() -> None:
    table = started(BOB, ai=1)
    prompt = prompt_of(table)
    assert prompt is not None and prompt.seat == 0 and prompt.user_id == HOST.user_id
    assert [o.action for o in prompt.options] == [STEP]
    [bob] = prompt.others  # the AI seat (2) rings by itself, through ai_offer
    assert (bob.seat, bob.user_id, bob.name, bob.version) == (1, BOB.user_id, "Bob",
                                                              table.version)
    assert [(o.label, o.action) for o in bob.options] == [(RING_LABEL, T.for_seat(RING, 1))]
    table, _ = T.apply(table, BOB, T.for_seat(RING, 1))
    prompt = prompt_of(table)
    assert prompt is not None and prompt.others == ()


def test_an_ai_seat_offers_its_out_of_turn_action_and_the_table_plays_it() -> None:
    table = started(BOB, ai=1)
    assert T.ai_offer(table) is None and not T.ai_due(table)  # no one has stepped yet
    table, _ = T.apply(table, HOST, STEP)
    assert T.to_act_seat(table) == 1 and not T.ai_to_act(table)
    assert T.ai_offer(table) == (2, RING) and T.ai_due(table)
    assert T.ai_work(table) == (False, True)
    table, events = T.ai_offer_step(table)
    assert state_of(table).rings == [2]
    assert [e.text for e in events] == [bell_game.rang_line(table.seats[2].name)]
    assert T.ai_offer(table) is None
    with pytest.raises(IllegalAction):
        T.ai_offer_step(table)
