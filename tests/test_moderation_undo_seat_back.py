"""Moderation meets the rules, the defects tests/test_moderation_mixed_property.py's
random play found, each reduced to the table rules it breaks."""

from __future__ import annotations

from bot import games
from bot import table as T
from bot.core.actions import Action
from bot.core.events import to_player
from bot.table_record import Table

KIND = "cthulhu"
GAME = games.get(KIND)
HOST = T.Actor(1, "Hana")
BOB_ID = 2
BOB = T.Actor(BOB_ID, "Bob")
NIA = T.Actor(3, "Nia")
MOD = T.Actor(99, "Mod", moderator=True)


def started(*others: T.Actor) -> Table:
    table, _ = T.new_table(KIND, 42, 7, HOST, 1234)
    for actor in others:
        table, _ = T.apply(table, actor, Action(T.JOIN))
    table, _ = T.apply(table, HOST, Action(T.START))
    return table


def humans_turn(table: Table) -> Table:
    """The AI seats play until a human is to act (the sessions' AI chain)."""
    while T.ai_to_act(table):
        table, _ = T.ai_step(table)
    return table


def human_move(table: Table) -> Table:
    seat = T.to_act_seat(table)
    assert seat is not None and table.seats[seat].is_human
    holder = table.seats[seat]
    actor = T.Actor(holder.user_id, holder.name)
    table, _ = T.apply(table, actor, GAME.options(T.game_state(table), seat)[0].action)
    return table


def test_an_undo_tells_a_seat_handed_back_from_the_ai_its_secrets() -> None:
    """bot/table_moderation.py, `restore`: "A seat that changed hands since then (/gm
    seat, a split team) holds its secrets as they stood then, which its holder never
    read: told again, as `seat` tells them." Bob was kicked (his seat to the AI, which
    keeps his id on the seat) before the move undone, and handed his seat back after it:
    at the point the undo returns to, the AI held the seat, so it changed hands since
    then, and Bob must read its secrets as they stand. The undo told him nothing: it
    looked only at the seat's user id, which the AI seat had kept."""
    table = started(BOB, NIA)
    bob = table.seat_of(BOB.user_id or 0)
    assert bob is not None
    table, _ = T.apply(table, MOD, Action(T.KICK, {"user": BOB_ID}))
    table = humans_turn(table)
    before = table.copy()
    assert before.seats[bob].ai and before.seats[bob].user_id == BOB.user_id
    table = humans_turn(human_move(table))
    table, _ = T.apply(table, MOD, Action(T.SEAT, {"seat": bob, "user": BOB_ID,
                                                   "name": "Bob"}))
    restored, events = T.restore(table, before, MOD, 1, "moved")
    assert restored.seats[bob].is_human and restored.seats[bob].user_id == BOB.user_id
    told = [e.text for e in events if e.audience == to_player(bob)]
    assert told == [GAME.private_view(T.game_state(restored), bob)]


def test_an_undo_tells_nothing_to_a_seat_that_kept_its_holder() -> None:
    """The same undo tells no seat that its holder held then and holds now."""
    table = started(BOB, NIA)
    before = table = humans_turn(table)
    table = humans_turn(human_move(table))
    _, events = T.restore(table, before, MOD, 1, "moved")
    assert [e for e in events if not e.audience.is_public] == []
