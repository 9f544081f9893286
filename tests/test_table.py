"""The table rules around a game (bot/table.py): lobby, leaving, moderation, dispatch.

Pure and synchronous. Expected player-facing lines are computed from data/texts.yaml
through `say`, and expected game outcomes from the game engine itself, so the tests
follow the data instead of copying it.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from bot import games
from bot import table as T
from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.core.events import Event
from bot.table_record import ACTIVE, LOBBY, OVER, Table
from bot.texts import ai_names, and_list, say

KIND = "cthulhu"
GAME = games.get(KIND)
CHANNEL = 42
GUILD = 7
SEED = 1234

HOST = T.Actor(1, "Hana")
BOB = T.Actor(2, "Bob")
CAT = T.Actor(3, "Cat")
DAN = T.Actor(4, "Dan")
STRANGER = T.Actor(50, "Stranger")
MOD = T.Actor(99, "Mod", moderator=True)


# ---------------------------------------------------------------- helpers

def snapshot(table: Table) -> str:
    """Everything a refusal must leave alone, as one comparable string."""
    return json.dumps({"envelope": table.envelope(), "status": table.status,
                       "version": table.version, "kind": table.kind,
                       "channel": table.channel_id}, sort_keys=True)


def refused(table: Table, actor: T.Actor, action: Action, message: str | None = None) -> str:
    """Assert the action is refused (with `message` if given) and the table is untouched."""
    before = snapshot(table)
    with pytest.raises(IllegalAction) as info:
        T.apply(table, actor, action)
    assert snapshot(table) == before
    if message is not None:
        assert info.value.message == message
    return info.value.message


def lobby(*others: T.Actor, ai: int = 0) -> Table:
    table, _ = T.new_table(KIND, CHANNEL, GUILD, HOST, SEED)
    for actor in others:
        table, _ = T.apply(table, actor, Action(T.JOIN))
    for _ in range(ai):
        table, _ = T.apply(table, HOST, Action(T.ADD_AI))
    return table


def started(*others: T.Actor, ai: int = 0) -> Table:
    table, _ = T.apply(lobby(*others, ai=ai), HOST, Action(T.START))
    assert table.status == ACTIVE
    return table


def state_of(table: Table) -> Any:
    assert table.state is not None
    return GAME.load(table.state)


def texts(events: list[Event]) -> list[str]:
    return [e.text for e in events]


def actor_of(table: Table, seat: int) -> T.Actor:
    s = table.seats[seat]
    assert s.user_id is not None
    return T.Actor(s.user_id, s.name)


def waiting(table: Table) -> int:
    seat = T.to_act_seat(table)
    assert seat is not None
    return seat


# ---------------------------------------------------------------- new table and join

def test_new_table_seats_the_host() -> None:
    table, events = T.new_table(KIND, CHANNEL, GUILD, HOST, SEED, {"layout": "x"})
    assert table.status == LOBBY and table.state is None
    assert table.host_id == HOST.user_id
    assert [(s.name, s.user_id, s.ai) for s in table.seats] == [(HOST.name, HOST.user_id, False)]
    assert table.seat_of(HOST.user_id or 0) == 0
    assert (table.channel_id, table.guild_id, table.kind, table.seed) == (CHANNEL, GUILD, KIND,
                                                                          SEED)
    assert table.options == {"layout": "x"}
    assert texts(events) == [say("lobby.joined", name=HOST.name)]


def test_new_table_refuses_an_unknown_game() -> None:
    with pytest.raises(KeyError):
        T.new_table("no-such-game", CHANNEL, GUILD, HOST, SEED)


def test_join_seats_a_new_player_and_says_so() -> None:
    table = lobby()
    new, events = T.apply(table, BOB, Action(T.JOIN))
    assert [s.user_id for s in new.seats] == [HOST.user_id, BOB.user_id]
    assert texts(events) == [say("lobby.joined", name=BOB.name)]
    assert len(table.seats) == 1  # the given table is not the one changed


def test_join_twice_is_refused() -> None:
    table = lobby(BOB)
    refused(table, BOB, Action(T.JOIN), say("errors.already_seated"))
    refused(table, HOST, Action(T.JOIN), say("errors.already_seated"))


def test_join_a_full_table_is_refused() -> None:
    table = lobby()
    for uid in range(2, GAME.max_players + 1):
        table, _ = T.apply(table, T.Actor(uid, f"P{uid}"), Action(T.JOIN))
    assert len(table.seats) == GAME.max_players
    refused(table, STRANGER, Action(T.JOIN), say("errors.table_full", max=GAME.max_players))


def test_join_after_start_is_refused() -> None:
    refused(started(BOB), CAT, Action(T.JOIN), say("errors.not_lobby"))


# ---------------------------------------------------------------- AI seats

def test_ai_seats_take_names_from_the_data_in_order() -> None:
    table = lobby(BOB)
    expected = ai_names()[:2]
    for name in expected:
        table, events = T.apply(table, BOB, Action(T.ADD_AI))  # any seated player may add
        assert texts(events) == [say("lobby.ai_added", name=name)]
    assert [(s.name, s.user_id, s.ai) for s in table.seats[2:]] == [(n, None, True)
                                                                     for n in expected]


def test_an_ai_seat_skips_a_name_already_at_the_table() -> None:
    first, second = ai_names()[:2]
    table = lobby(T.Actor(2, first))
    table, events = T.apply(table, HOST, Action(T.ADD_AI))
    assert table.seats[-1].name == second
    assert texts(events) == [say("lobby.ai_added", name=second)]


def test_only_seated_players_can_add_an_ai_seat() -> None:
    refused(lobby(), STRANGER, Action(T.ADD_AI), say("errors.not_seated"))
    refused(lobby(), MOD, Action(T.ADD_AI), say("errors.not_seated"))


def test_an_ai_seat_is_refused_at_a_full_table() -> None:
    table = lobby(ai=GAME.max_players - 1)
    assert len(table.seats) == GAME.max_players
    refused(table, HOST, Action(T.ADD_AI), say("errors.table_full", max=GAME.max_players))


def test_an_ai_seat_is_refused_after_start() -> None:
    refused(started(BOB), HOST, Action(T.ADD_AI), say("errors.not_lobby"))


# ---------------------------------------------------------------- leaving the lobby

def test_a_guest_leaving_the_lobby_frees_the_seat() -> None:
    table, events = T.apply(lobby(BOB, CAT), BOB, Action(T.LEAVE))
    assert [s.user_id for s in table.seats] == [HOST.user_id, CAT.user_id]
    assert table.host_id == HOST.user_id and table.status == LOBBY
    assert texts(events) == [say("lobby.left", name=BOB.name)]


def test_the_host_leaving_hands_the_lobby_to_the_next_human() -> None:
    table = lobby(ai=1)
    for actor in (BOB, CAT):
        table, _ = T.apply(table, actor, Action(T.JOIN))
    # seats: Hana, <AI>, Bob, Cat -> the AI is skipped, Bob is next
    table, events = T.apply(table, HOST, Action(T.LEAVE))
    assert table.host_id == BOB.user_id and table.status == LOBBY
    assert table.seat_of(HOST.user_id or 0) is None
    assert texts(events) == [say("lobby.left", name=HOST.name),
                             say("lobby.host_moved", name=BOB.name)]
    table, events = T.apply(table, BOB, Action(T.LEAVE))
    assert table.host_id == CAT.user_id
    assert texts(events)[-1] == say("lobby.host_moved", name=CAT.name)


def test_the_last_human_leaving_closes_the_lobby() -> None:
    table, events = T.apply(lobby(ai=2), HOST, Action(T.LEAVE))
    assert table.status == OVER
    assert table.ended_reason == say("lobby.closed")
    assert texts(events) == [say("lobby.left", name=HOST.name), say("lobby.closed")]


def test_leaving_a_table_you_are_not_at_is_refused() -> None:
    refused(lobby(BOB), STRANGER, Action(T.LEAVE), say("errors.not_seated"))


# ---------------------------------------------------------------- start

def test_only_the_host_starts() -> None:
    table = lobby(BOB)
    refused(table, BOB, Action(T.START), say("errors.host_only", host=HOST.name))
    refused(table, MOD, Action(T.START), say("errors.host_only", host=HOST.name))


def test_start_with_too_few_players_says_how_many_are_needed() -> None:
    refused(lobby(), HOST, Action(T.START),
            say("errors.too_few", game=GAME.title, min=GAME.min_players, count=1))


def test_start_creates_the_game_state_and_announces_it() -> None:
    table = lobby(BOB, ai=1)
    new, events = T.apply(table, HOST, Action(T.START))
    assert new.status == ACTIVE and table.status == LOBBY
    expected_state, expected_events = GAME.setup(T.players(table), SEED, table.options)
    assert new.state == GAME.dump(expected_state)
    names = and_list([s.name for s in table.seats])  # "Hana, Bob and Ada"
    assert events[0].text == say("lobby.started", game=GAME.title, players=names)
    assert [(e.text, e.audience) for e in events[1:]] == [(e.text, e.audience)
                                                         for e in expected_events]
    state = state_of(new)
    assert state.players == [s.name for s in new.seats]
    assert state.ai == [s.ai for s in new.seats]


def test_start_twice_is_refused() -> None:
    refused(started(BOB), HOST, Action(T.START), say("errors.not_lobby"))


# ---------------------------------------------------------------- end

@pytest.mark.parametrize("ender", [HOST, MOD])
def test_the_host_or_a_moderator_ends_the_game(ender: T.Actor) -> None:
    for table in (lobby(BOB), started(BOB)):
        new, events = T.apply(table, ender, Action(T.END))
        assert new.status == OVER
        assert new.ended_reason == say("moderation.ended", name=ender.name)
        assert texts(events) == [new.ended_reason]


def test_a_guest_cannot_end_the_game() -> None:
    for table in (lobby(BOB), started(BOB)):
        refused(table, BOB, Action(T.END), say("errors.host_or_mod"))
        refused(table, STRANGER, Action(T.END), say("errors.host_or_mod"))


# ---------------------------------------------------------------- kick

def test_kick_is_for_moderators_only() -> None:
    for table in (lobby(BOB), started(BOB)):
        refused(table, HOST, Action(T.KICK, {"user": BOB.user_id or 0}), say("errors.mod_only"))


def test_kick_in_the_lobby_removes_the_seat() -> None:
    table, events = T.apply(lobby(BOB, CAT), MOD, Action(T.KICK, {"user": BOB.user_id or 0}))
    assert [s.user_id for s in table.seats] == [HOST.user_id, CAT.user_id]
    assert table.status == LOBBY
    assert texts(events) == [say("lobby.left", name=BOB.name)]


def test_kicking_the_host_from_the_lobby_moves_the_host() -> None:
    table, events = T.apply(lobby(BOB), MOD, Action(T.KICK, {"user": HOST.user_id or 0}))
    assert table.status == LOBBY
    assert table.host_id == BOB.user_id
    assert table.seat_of(table.host_id) is not None
    assert texts(events) == [say("lobby.left", name=HOST.name),
                             say("lobby.host_moved", name=BOB.name)]


def test_kicking_the_last_human_from_the_lobby_closes_it() -> None:
    """Like leaving: an open lobby with no human could never start again."""
    table, events = T.apply(lobby(ai=1), MOD, Action(T.KICK, {"user": HOST.user_id or 0}))
    assert table.status == OVER
    assert table.ended_reason == say("lobby.closed")
    assert say("lobby.closed") in texts(events)


def test_kick_in_a_running_game_hands_the_seat_to_the_ai() -> None:
    table = started(BOB, CAT)
    seat = table.seat_of(BOB.user_id or 0)
    assert seat is not None
    new, events = T.apply(table, MOD, Action(T.KICK, {"user": BOB.user_id or 0}))
    assert new.status == ACTIVE
    assert len(new.seats) == len(table.seats)
    assert new.seats[seat].ai and new.seats[seat].name == BOB.name
    assert new.seat_of(BOB.user_id or 0) is None and new.was_seated(BOB.user_id or 0)
    assert texts(events) == [say("moderation.kicked", target=BOB.name, name=MOD.name)]
    # the game was told through set_player; nothing else about the game changed
    expected = GAME.set_player(state_of(table), seat, T.players(new)[seat])
    assert new.state == GAME.dump(expected)
    assert state_of(new).ai == [s.ai for s in new.seats]


def test_kick_an_unknown_or_already_replaced_player_is_refused() -> None:
    table = started(BOB, CAT)
    refused(table, MOD, Action(T.KICK, {"user": STRANGER.user_id or 0}),
            say("errors.kick_target", name=f"<@{STRANGER.user_id}>"))
    table, _ = T.apply(table, MOD, Action(T.KICK, {"user": BOB.user_id or 0}))
    refused(table, MOD, Action(T.KICK, {"user": BOB.user_id or 0}),
            say("errors.kick_target", name=f"<@{BOB.user_id}>"))
    refused(table, MOD, Action(T.KICK))  # no target at all
    refused(table, MOD, Action(T.KICK, {"user": "bob"}))


def test_kicking_the_last_human_ends_a_running_game() -> None:
    table, _ = T.apply(started(ai=2), MOD, Action(T.KICK, {"user": HOST.user_id or 0}))
    assert table.status == OVER
    assert table.ended_reason == say("moderation.abandoned")


# ---------------------------------------------------------------- skip

def test_skip_is_for_moderators_only() -> None:
    table = started(BOB)
    refused(table, HOST, Action(T.SKIP), say("errors.mod_only"))
    refused(table, actor_of(table, waiting(table)), Action(T.SKIP), say("errors.mod_only"))


def test_skip_before_the_start_is_refused() -> None:
    refused(lobby(BOB), MOD, Action(T.SKIP), say("errors.not_started"))


def test_skip_lets_the_ai_play_exactly_the_waiting_seats_decision() -> None:
    table = started(BOB, CAT)
    seat = waiting(table)
    state = state_of(table)
    expected_state, expected_events = GAME.apply(state, seat, GAME.ai_action(state, seat))
    new, events = T.apply(table, MOD, Action(T.SKIP))
    assert events[0].text == say("moderation.skipped", name=MOD.name,
                                 target=table.seats[seat].name)
    assert [(e.text, e.audience) for e in events[1:]] == [(e.text, e.audience)
                                                         for e in expected_events]
    assert new.state == GAME.dump(expected_state)
    assert not new.seats[seat].ai  # the seat is played for, not handed over


# ---------------------------------------------------------------- leaving a running game

def test_leaving_a_running_game_hands_the_seat_to_the_ai() -> None:
    table = started(BOB, CAT)
    seat = table.seat_of(CAT.user_id or 0)
    assert seat is not None
    new, events = T.apply(table, CAT, Action(T.LEAVE))
    assert new.status == ACTIVE
    assert new.seats[seat].ai and new.seats[seat].name == CAT.name
    assert texts(events) == [say("moderation.left_game", name=CAT.name)]
    assert state_of(new).ai[seat] is True
    assert state_of(new).ai == [s.ai for s in new.seats]
    # they are no longer playing: their game actions are refused
    refused(new, CAT, Action("move", {"character": 0, "room": 0}), say("errors.not_seated"))


def test_the_game_ends_when_no_human_is_left() -> None:
    table, events = T.apply(started(BOB), BOB, Action(T.LEAVE))
    assert table.status == ACTIVE
    table, events = T.apply(table, HOST, Action(T.LEAVE))
    assert table.status == OVER
    assert table.ended_reason == say("moderation.abandoned")
    assert texts(events) == [say("moderation.left_game", name=HOST.name),
                             say("moderation.abandoned")]
    assert all(s.ai for s in table.seats)


def test_a_host_who_leaves_or_is_kicked_from_a_running_game_hands_the_host_on() -> None:
    """README: /game end is the host's or a moderator's. A host whose seat went to the
    AI no longer plays: the next human seat is the host, as in the lobby, and the one
    who left can no longer end everyone else's game."""
    for actor, action in ((HOST, Action(T.LEAVE)),
                          (MOD, Action(T.KICK, {"user": HOST.user_id or 0}))):
        table, events = T.apply(started(BOB, CAT), actor, action)
        assert table.status == ACTIVE and table.host_id == BOB.user_id
        assert texts(events)[-1] == say("lobby.host_moved", name=BOB.name)
        refused(table, HOST, Action(T.END), say("errors.host_or_mod"))
        ended, _ = T.apply(table, BOB, Action(T.END))
        assert ended.status == OVER


# ---------------------------------------------------------------- dispatch into the game

def test_a_legal_game_action_by_the_seat_to_act_is_played() -> None:
    table = started(BOB, CAT)
    seat = waiting(table)
    option = GAME.options(state_of(table), seat)[0]
    expected_state, expected_events = GAME.apply(state_of(table), seat, option.action)
    new, events = T.apply(table, actor_of(table, seat), option.action)
    assert new.state == GAME.dump(expected_state)
    assert texts(events) == texts(expected_events)


def test_a_game_action_by_someone_not_seated_is_refused() -> None:
    table = started(BOB)
    option = GAME.options(state_of(table), waiting(table))[0]
    refused(table, STRANGER, option.action, "You're not playing in this game.")
    refused(table, MOD, option.action, say("errors.not_seated"))


def test_a_game_action_out_of_turn_is_refused_by_the_game() -> None:
    table = started(BOB, CAT)
    seat = waiting(table)
    other = next(i for i in range(len(table.seats)) if i != seat)
    option = GAME.options(state_of(table), seat)[0]
    refused(table, actor_of(table, other), option.action)
    refused(table, actor_of(table, seat), Action("dance"))


def test_a_game_action_in_the_lobby_is_refused() -> None:
    refused(lobby(BOB), HOST, Action("move", {"character": 0, "room": 1}),
            say("errors.not_started"))


def test_a_finished_table_refuses_everything() -> None:
    table, _ = T.apply(started(BOB), MOD, Action(T.END))
    assert table.status == OVER
    message = say("errors.game_over")
    for actor in (HOST, BOB, MOD, STRANGER):
        for action in (Action(T.JOIN), Action(T.LEAVE), Action(T.ADD_AI), Action(T.START),
                       Action(T.END), Action(T.SKIP), Action(T.KICK, {"user": 2}),
                       Action("move", {"character": 0, "room": 1}), Action("garbage")):
            refused(table, actor, action, message)


def test_a_whole_game_through_the_table_ends_over() -> None:
    table = started(BOB, ai=1)
    for _ in range(2000):
        if table.status == OVER:
            break
        seat = waiting(table)
        if table.seats[seat].ai:
            table, _ = T.ai_step(table)
        else:
            option = GAME.options(state_of(table), seat)[-1]
            table, _ = T.apply(table, actor_of(table, seat), option.action)
    assert table.status == OVER
    assert GAME.is_over(state_of(table))
    assert T.to_act_seat(table) is None
    refused(table, HOST, Action(T.END), say("errors.game_over"))


# ---------------------------------------------------------------- property: random tables

USERS = [1, 2, 3, 4, 5, 6, 7]  # 1 opens the table; the others may join
STRANGERS = [50, 51]
MOD_ID = 99
ROLES = ["host", "seated", "waiting", "user", "stranger", "mod", "mod"]
TABLE_ACTIONS = [T.JOIN, T.LEAVE, T.ADD_AI, T.START, T.END, T.KICK, T.SKIP]
GAME_MOVES = ["legal", "legal", "legal", "garbage", "bad-args"]
ALLOWED_STEPS = {(LOBBY, LOBBY), (LOBBY, ACTIVE), (LOBBY, OVER), (ACTIVE, ACTIVE),
                 (ACTIVE, OVER), (OVER, OVER)}

step_strategy = st.tuples(
    st.sampled_from(ROLES),
    st.sampled_from(TABLE_ACTIONS + GAME_MOVES),
    st.integers(min_value=0, max_value=60),
    st.booleans(),
)
Step = tuple[str, str, int, bool]


def _user(user_id: int, moderator: bool = False) -> T.Actor:
    return T.Actor(user_id, f"U{user_id}", moderator=moderator)


def _pick_actor(table: Table, role: str, n: int, flag: bool) -> T.Actor:
    """Resolve a role against the table as it is now; `flag` makes a player a moderator
    too (for "seated") or the moderator a seated player (for "mod")."""
    humans = [s.user_id for s in table.seats if s.is_human and s.user_id is not None]
    if role == "host":
        return _user(table.host_id)
    if role == "seated" and humans:
        return _user(humans[n % len(humans)], moderator=flag)
    if role == "waiting":
        seat = T.to_act_seat(table)
        user_id = table.seats[seat].user_id if seat is not None else None
        return _user(user_id if user_id is not None else USERS[n % len(USERS)])
    if role == "mod":
        return _user(humans[0] if flag and humans else MOD_ID, moderator=True)
    if role == "stranger":
        return _user(STRANGERS[n % len(STRANGERS)])
    return _user(USERS[n % len(USERS)])


def _build_action(table: Table, what: str, n: int) -> Action:
    if what == T.KICK:  # mostly someone at the table, sometimes anyone
        seated = [s.user_id for s in table.seats if s.user_id is not None]
        targets = [*seated, *seated, *seated, *USERS, *STRANGERS]
        return Action(T.KICK, {"user": targets[n % len(targets)]})
    if what in TABLE_ACTIONS:
        return Action(what)
    if what == "garbage":
        return Action(["dance", "lobby.nope", "", "choose", "gm.undo"][n % 5], {"x": n})
    if what == "bad-args":
        return Action(["move", "fight", "choose"][n % 3], {"character": n, "room": -n,
                                                           "pick": n, "remove": "z"})
    seat = T.to_act_seat(table)
    if seat is None:
        return Action("move", {"character": n % 12, "room": n % 12})
    options = GAME.options(state_of(table), seat)
    return options[n % len(options)].action


def _check_invariants(table: Table) -> None:
    assert len(table.seats) <= GAME.max_players
    if table.status == LOBBY:
        assert table.seat_of(table.host_id) is not None, "the host must sit at an open lobby"
        assert table.state is None
    if table.status == ACTIVE:
        assert any(s.is_human for s in table.seats), "a running game needs a human"
        state = state_of(table)
        assert state.players == [s.name for s in table.seats]
        assert state.ai == [s.ai for s in table.seats]
        assert T.to_act_seat(table) is not None
        assert table.seat_of(table.host_id) is not None, "the host plays a running game"
    if table.status == OVER:
        assert T.to_act_seat(table) is None
    for seat in table.seats:
        assert seat.ai or seat.user_id is not None


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(humans=st.integers(min_value=0, max_value=3), ais=st.integers(min_value=0, max_value=2),
       start=st.booleans(), steps=st.lists(step_strategy, min_size=1, max_size=40))
@example(humans=0, ais=1, start=False, steps=[("mod", T.KICK, 0, False)])  # found by it
def test_random_table_actions_keep_the_invariants(humans: int, ais: int, start: bool,
                                                  steps: list[Step]) -> None:
    # a random opening (so running games are common), then random actions by anyone
    host = _user(USERS[0])
    table, _ = T.new_table(KIND, CHANNEL, GUILD, host, SEED)
    for user_id in USERS[1:1 + humans]:
        table, _ = T.apply(table, _user(user_id), Action(T.JOIN))
    for _ in range(ais):
        table, _ = T.apply(table, host, Action(T.ADD_AI))
    if start and len(table.seats) >= GAME.min_players:
        table, _ = T.apply(table, host, Action(T.START))
    _check_invariants(table)
    for role, what, n, flag in steps:
        actor = _pick_actor(table, role, n, flag)
        action = _build_action(table, what, n)
        before = snapshot(table)
        kept = copy.deepcopy(table)
        try:
            new, events = T.apply(table, actor, action)
        except IllegalAction as exc:
            assert exc.message, "a refusal must say why"
            assert snapshot(table) == before, f"refused {action} by {actor} changed the table"
            assert table == kept
            event(f"refused in {table.status}")
            continue
        # success: the given table is untouched, a new one is returned
        assert snapshot(table) == before and table == kept
        assert new is not table
        assert all(isinstance(e, Event) and e.text for e in events)
        assert (table.status, new.status) in ALLOWED_STEPS, (table.status, new.status, action)
        _check_invariants(new)
        if new.status != table.status:
            event(f"{table.status} -> {new.status}")
        table = new
    event(f"ends {table.status}")
