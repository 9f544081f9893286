"""The moderators' table rules (bot/table.py): pause and resume, handing a seat, moving
the host, and restoring an earlier table (/gm undo). Pure and synchronous, like
tests/test_table.py; lines come from data/texts.yaml through `say`."""

from __future__ import annotations

import json

import pytest

from bot import games
from bot import table as T
from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.core.events import to_player, to_team
from bot.games.base import PlayerInfo
from bot.table_record import ACTIVE, Table
from bot.texts import say
from tests.helpers import team_game

KIND = "cthulhu"
GAME = games.get(KIND)
HOST = T.Actor(1, "Hana")
BOB = T.Actor(2, "Bob")
NEW = T.Actor(3, "Nia")
MOD = T.Actor(99, "Mod", moderator=True)


def started(kind: str = KIND, *others: T.Actor) -> Table:
    table, _ = T.new_table(kind, 42, 7, HOST, 1234)
    for actor in others or (BOB,):
        table, _ = T.apply(table, actor, Action(T.JOIN))
    table, _ = T.apply(table, HOST, Action(T.START))
    assert table.status == ACTIVE
    return table


def snapshot(table: Table) -> str:
    return json.dumps({"envelope": table.envelope(), "status": table.status}, sort_keys=True)


def refused(table: Table, actor: T.Actor, action: Action, message: str) -> None:
    before = snapshot(table)
    with pytest.raises(IllegalAction) as info:
        T.apply(table, actor, action)
    assert info.value.message == message
    assert snapshot(table) == before


def mover(table: Table) -> T.Actor:
    seat = T.to_act_seat(table)
    assert seat is not None
    return HOST if table.seats[seat].user_id == HOST.user_id else BOB


def a_move(table: Table) -> Action:
    seat = T.to_act_seat(table)
    assert seat is not None
    return GAME.options(T.game_state(table), seat)[0].action


# ---------------------------------------------------------------- pause and resume

def test_pause_is_for_moderators_in_a_running_game() -> None:
    table = started()
    refused(table, HOST, Action(T.PAUSE), say("errors.mod_only"))
    lobby, _ = T.new_table(KIND, 42, 7, HOST, 1)
    refused(lobby, MOD, Action(T.PAUSE), say("errors.not_started"))
    refused(table, MOD, Action(T.RESUME), say("errors.not_paused"))


def test_a_paused_table_refuses_moves_and_holds_the_ai() -> None:
    table = started()
    paused, events = T.apply(table, MOD, Action(T.PAUSE))
    assert paused.paused and not table.paused
    assert [e.text for e in events] == [say("moderation.paused", name="Mod")]
    refused(paused, mover(paused), a_move(paused), say("errors.paused"))
    refused(paused, MOD, Action(T.SKIP), say("errors.paused"))
    refused(paused, MOD, Action(T.PAUSE), say("errors.already_paused"))
    kicked, _ = T.apply(paused, MOD, Action(T.KICK, {"user": mover(paused).user_id}))
    seat = T.to_act_seat(kicked)
    assert seat is not None and kicked.seats[seat].ai  # the AI is to act, but waits
    assert T.ai_work(kicked) == (False, False) and not T.ai_due(kicked)
    with pytest.raises(IllegalAction):
        T.ai_step(kicked)
    resumed, events = T.apply(kicked, MOD, Action(T.RESUME))
    assert not resumed.paused and T.ai_to_act(resumed)
    assert [e.text for e in events] == [say("moderation.resumed", name="Mod")]


def test_pause_survives_the_store_envelope() -> None:
    paused, _ = T.apply(started(), MOD, Action(T.PAUSE))
    again = Table.from_row(id=1, channel_id=42, guild_id=7, kind=KIND, status=ACTIVE,
                           version=3, envelope=json.loads(json.dumps(paused.envelope())))
    assert again.paused


# ---------------------------------------------------------------- seats and the host

def test_seat_hands_an_ai_seat_to_a_member_with_its_secrets() -> None:
    table = started()
    kicked, _ = T.apply(table, MOD, Action(T.KICK, {"user": BOB.user_id}))
    seat = next(i for i, s in enumerate(kicked.seats) if s.user_id == BOB.user_id)
    handed, events = T.apply(kicked, MOD, Action(T.SEAT, {"seat": seat, "user": NEW.user_id,
                                                          "name": NEW.name}))
    assert handed.seats_of(NEW.user_id or 0) == [seat] and handed.seats[seat].name == "Nia"
    assert T.game_state(handed).players[seat] == "Nia" and not T.game_state(handed).ai[seat]
    public, private = events
    assert public.text == say("moderation.seat_handed", seat=seat + 1,
                              old=say("moderation.seat_ai"), new="Nia", name="Mod")
    assert private.audience == to_player(seat)
    assert private.text == GAME.private_view(T.game_state(handed), seat)
    # the secrets stayed with the seat: the same as before it changed hands
    assert T.game_state(handed).secrets == T.game_state(kicked).secrets


def test_handing_on_the_hosts_seat_hands_on_the_host() -> None:
    """The host's only seat handed to another member: the host no longer plays, so the
    first human seat's holder hosts (and ends) the game from now on."""
    table = started()
    seat = table.seat_of(HOST.user_id or 0)
    assert seat is not None
    handed, events = T.apply(table, MOD, Action(T.SEAT, {"seat": seat, "user": NEW.user_id,
                                                         "name": NEW.name}))
    assert handed.seat_of(handed.host_id) is not None and handed.host_id != HOST.user_id
    host = handed.seats[handed.seat_of(handed.host_id) or 0].name
    assert events[-1].text == say("lobby.host_moved", name=host)
    refused(handed, HOST, Action(T.END), say("errors.host_or_mod"))


def test_seat_refusals_leave_the_table_alone() -> None:
    table = started()
    refused(table, BOB, Action(T.SEAT, {"seat": 0, "user": 3}), say("errors.mod_only"))
    refused(table, MOD, Action(T.SEAT, {"seat": 5, "user": 3}),
            say("errors.no_such_seat", seat=6, count=2))
    refused(table, MOD, Action(T.SEAT, {"seat": 1, "user": BOB.user_id, "name": "Bob"}),
            say("errors.seat_theirs", name="Bob", seat=2))
    refused(table, MOD, Action(T.SEAT, {"seat": 1, "user": HOST.user_id, "name": "Hana"}),
            say("errors.seats_per_player", game=GAME.title, most=1))


def test_a_seat_on_a_team_joins_its_thread_and_never_both_sides() -> None:
    ann, cat = T.Actor(10, "Ann"), T.Actor(30, "Cat")
    with team_game.registered():
        table = started(team_game.KEY, BOB, ann)
        blue = team_game.BLUE_SEAT
        handed, events = T.apply(table, MOD, Action(T.SEAT, {"seat": blue, "user": 30,
                                                             "name": "Cat"}))
        assert [e.audience for e in events][1:] == [to_player(blue), to_team("blue")]
        assert events[2].text == say("moderation.seat_joins_team", new="Cat")
        other_red = 0  # Hana's, on Ann's (red) side: a second seat for Ann
        second, _ = T.apply(handed, MOD, Action(T.SEAT, {"seat": other_red, "user": 10,
                                                         "name": "Ann"}))
        assert second.seats[other_red].name == say("lobby.second_name", name="Ann")
        assert second.seats_of(10) == [0, 2] and table.seats_of(10) == [2]
        red = next(i for i in range(len(handed.seats)) if i != blue)
        holder = handed.seats[red]
        refused(handed, MOD, Action(T.SEAT, {"seat": red, "user": cat.user_id, "name": "Cat"}),
                say("errors.seat_two_teams", name="Cat"))
        assert holder.user_id != cat.user_id


def test_host_moves_to_a_seated_member_only() -> None:
    table = started()
    refused(table, BOB, Action(T.HOST, {"user": BOB.user_id}), say("errors.mod_only"))
    refused(table, MOD, Action(T.HOST, {"user": 77}), say("errors.host_target", name="<@77>"))
    refused(table, MOD, Action(T.HOST, {"user": HOST.user_id}),
            say("errors.host_already", name="Hana"))
    moved, events = T.apply(table, MOD, Action(T.HOST, {"user": BOB.user_id}))
    assert moved.host_id == BOB.user_id
    assert [e.text for e in events] == [say("moderation.host", new="Bob", name="Mod")]


# ---------------------------------------------------------------- restore (undo)

def test_restore_brings_the_state_back_but_keeps_who_holds_the_seats() -> None:
    table = started()
    before = table.copy()
    moved, _ = T.apply(table, mover(table), a_move(table))
    kicked, _ = T.apply(moved, MOD, Action(T.KICK, {"user": BOB.user_id}))
    restored, events = T.restore(kicked, before, MOD, 1, "Hana moved")
    assert restored.state is not None and before.state is not None
    bob_seat = next(i for i, s in enumerate(kicked.seats) if s.user_id == BOB.user_id)
    assert restored.seats[bob_seat].ai  # the kick stands: it was not a move
    assert T.game_state(restored).ai[bob_seat]
    expected = GAME.load(before.state)
    assert GAME.dump(GAME.set_player(expected, bob_seat, PlayerInfo("Bob", True))) == \
        restored.state
    assert [e.text for e in events] == [say("moderation.undone", name="Mod", count=1,
                                            actions=say("moderation.action_word"),
                                            summary="Hana moved")]
    with pytest.raises(IllegalAction):
        T.restore(kicked, before, BOB, 1, "")
