"""Opening and starting a table at its edges (bot/table.py), for all four games: the
player counts each rulebook allows (RULES.md: Cthulhu in the House 2-6, Betrayal 3-6
with the Neibolt House alike, IT: Evil Below 2-7), one too few, the most, one too many,
AI seats and a second seat pushing past the most, and who the host is when a person
holding two seats leaves.

Pure and synchronous; the expected lines come from data/ through `say`.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot import games
from bot import table as T
from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.core.events import Event
from bot.games.evilbelow.content import evil_below_line
from bot.locales import speaking
from bot.table_record import ACTIVE, LOBBY, OVER, Table
from bot.texts import and_list, say

HANA = T.Actor(1, "Hana")
BOB = T.Actor(2, "Bob")
MOD = T.Actor(99, "Mod", moderator=True)
SEED = 77

# (game, options, fewest, most): RULES.md sections 1-4.
COUNTS = [
    ("cthulhu", {}, 2, 6),  # RULES.md 4: "hidden identities, 2-6 players"
    ("betrayal", {}, 3, 6),  # RULES.md 1: "3 to 6 explorers"
    ("betrayal", {"expansion": "neibolt"}, 3, 6),  # RULES.md 2: {a/b/c/d} for 3/4/5/6
    ("evilbelow", {}, 2, 7),  # RULES.md 3: "cooperative, 2-7 players"
]


def _lobby(kind: str, options: dict[str, Any], seats: int) -> Table:
    """A lobby of `seats` seats: the host and AI seats."""
    table, _ = T.new_table(kind, 5, 6, HANA, SEED, {**options, "today": "03-01"})
    for _ in range(seats - 1):
        table, _ = T.apply(table, HANA, Action(T.ADD_AI))
    return table


def _texts(events: list[Event]) -> list[str]:
    return [e.text for e in events]


@pytest.mark.parametrize(("kind", "options", "fewest", "most"), COUNTS)
def test_each_game_starts_from_its_fewest_to_its_most_and_no_further(
        kind: str, options: dict[str, Any], fewest: int, most: int) -> None:
    """RULES.md: Cthulhu in the House is for 2-6 players, Betrayal (and the Neibolt
    House) for 3 to 6 explorers, IT: Evil Below for 2-7 players. One too few is refused
    with the count; the most start; one too many cannot sit down, neither as a person
    nor as an AI seat."""
    game = games.get(kind)
    assert (game.min_players, game.max_players) == (fewest, most)
    short = _lobby(kind, options, fewest - 1)
    with pytest.raises(IllegalAction) as refused:
        T.apply(short, HANA, Action(T.START))
    assert refused.value.message == say("errors.too_few", game=T.title(short), min=fewest,
                                        count=fewest - 1)
    for count in (fewest, most):
        table, _ = T.apply(_lobby(kind, options, count), HANA, Action(T.START))
        assert table.status == ACTIVE and len(game.load(table.state or {}).players) == count
    full = _lobby(kind, options, most)
    for actor, action in ((BOB, Action(T.JOIN)), (HANA, Action(T.ADD_AI))):
        with pytest.raises(IllegalAction) as refused:
            T.apply(full, actor, action)
        assert refused.value.message == say("errors.table_full", max=most)


def test_a_second_seat_may_not_push_past_the_most() -> None:
    """RULES.md 1: "Seed 003 also plays two explorers per person when few play", within
    the 3 to 6 explorers: the second seat counts as an explorer, so it is refused at a
    table of six, and two people holding two seats each start a game of four."""
    full = _lobby("betrayal", {}, 6)
    with pytest.raises(IllegalAction) as refused:
        T.apply(full, HANA, Action(T.SECOND))
    assert refused.value.message == say("errors.table_full", max=6)
    table, _ = T.new_table("betrayal", 5, 6, HANA, SEED, {"today": "03-01"})
    table, _ = T.apply(table, BOB, Action(T.JOIN))
    with pytest.raises(IllegalAction):  # two explorers are one too few
        T.apply(table, HANA, Action(T.START))
    for actor in (HANA, BOB):
        table, _ = T.apply(table, actor, Action(T.SECOND))
    table, _ = T.apply(table, HANA, Action(T.START))
    assert table.status == ACTIVE and [s.user_id for s in table.seats] == [1, 2, 1, 2]


def test_a_host_holding_two_seats_who_leaves_hands_the_host_to_the_next_person() -> None:
    """README: "a host who leaves hands the host on to the first player still seated".
    A host playing two explorers leaves once, with both seats: the table is told so
    once, and the host passes to Bob, never "back" to the host who is leaving."""
    table, _ = T.new_table("betrayal", 5, 6, HANA, SEED, {"today": "03-01"})
    table, _ = T.apply(table, HANA, Action(T.SECOND))
    table, _ = T.apply(table, BOB, Action(T.JOIN))
    for actor, action in ((HANA, Action(T.LEAVE)), (MOD, Action(T.KICK, {"user": 1}))):
        left, events = T.apply(table, actor, action)
        assert left.status == LOBBY and left.host_id == BOB.user_id
        assert [s.user_id for s in left.seats] == [2]
        assert _texts(events) == [say("lobby.left", name="Hana"),
                                  say("lobby.host_moved", name="Bob")]


def test_the_last_person_holding_two_seats_who_leaves_closes_the_lobby() -> None:
    """A lobby closes when everyone left: one line for the leaving, one for the close,
    and no host handed to the person who is leaving."""
    table, _ = T.new_table("betrayal", 5, 6, HANA, SEED, {"today": "03-01"})
    table, _ = T.apply(table, HANA, Action(T.SECOND))
    table, _ = T.apply(table, HANA, Action(T.ADD_AI))
    left, events = T.apply(table, HANA, Action(T.LEAVE))
    assert left.status == OVER
    assert _texts(events) == [say("lobby.left", name="Hana"), say("lobby.closed")]


def test_a_guest_holding_two_seats_who_leaves_keeps_the_host() -> None:
    """Bob's leaving moves no host: one line, Hana still hosts."""
    table, _ = T.new_table("betrayal", 5, 6, HANA, SEED, {"today": "03-01"})
    table, _ = T.apply(table, BOB, Action(T.JOIN))
    table, _ = T.apply(table, BOB, Action(T.SECOND))
    left, events = T.apply(table, BOB, Action(T.LEAVE))
    assert left.host_id == HANA.user_id and [s.user_id for s in left.seats] == [1]
    assert _texts(events) == [say("lobby.left", name="Bob")]


@pytest.mark.parametrize(("kind", "options", "fewest", "most"), COUNTS)
def test_only_the_host_starts_and_the_host_or_a_moderator_ends_a_lobby(
        kind: str, options: dict[str, Any], fewest: int, most: int) -> None:
    """README: `/game start` "(host only)"; `/game end` "(host or moderator)"; a
    moderator who is not the host may not start it."""
    table = _lobby(kind, options, fewest)
    table, _ = T.apply(table, BOB, Action(T.JOIN))
    for actor in (BOB, MOD):
        with pytest.raises(IllegalAction) as refused:
            T.apply(table, actor, Action(T.START))
        assert refused.value.message == say("errors.host_only", host="Hana")
    with pytest.raises(IllegalAction):
        T.apply(table, BOB, Action(T.END))
    for actor in (HANA, MOD):
        ended, _ = T.apply(table, actor, Action(T.END))
        assert ended.status == OVER


def test_a_lobby_of_the_host_and_ai_seats_closes_when_the_host_leaves() -> None:
    """All AI: a lobby needs a person; when the last one leaves, it closes."""
    table = _lobby("evilbelow", {}, 7)
    left, events = T.apply(table, HANA, Action(T.LEAVE))
    assert left.status == OVER and _texts(events)[-1] == say("lobby.closed")


@pytest.mark.parametrize(("stored", "seat"), [("seat1", 0), ("seat7", 6), ("3", 3), (2, 2)])
def test_the_youngest_option_names_a_seat_stored_either_way(stored: object, seat: int) -> None:
    """Seed 001, Setup step 9: "Give the youngest player the dice to start the game".
    The lobby offers "seatN" (seat N, from 1, as its label says); a lobby or a game
    stored by an earlier release kept the bare index, which still names the same seat,
    so a table opened before the change starts (and replays) as it did."""
    game = games.get("evilbelow")
    assert [v for v, _ in game.setup_choices()["youngest"]] == [f"seat{n}" for n in
                                                                range(1, 8)]
    table = _lobby("evilbelow", {"youngest": stored}, 7)
    table, _ = T.apply(table, HANA, Action(T.START))
    assert game.load(table.state or {}).starter == seat


@pytest.mark.parametrize("stored", ["seat0", "seat3", "seven"])
def test_a_youngest_seat_the_table_does_not_have_is_refused_at_start(stored: str) -> None:
    """The youngest must be one of the seats: seat 3 at a table of two, seat 0 or a
    word are refused with the game's words, and the lobby stays open."""
    table = _lobby("evilbelow", {"youngest": stored}, 2)
    with pytest.raises(IllegalAction) as refused:
        T.apply(table, HANA, Action(T.START))
    with speaking("en"):
        assert refused.value.message == evil_below_line("errors.bad_youngest", count=2)


@pytest.mark.parametrize("language", ["en", "zh-TW"])
def test_the_opening_line_names_each_player_once_in_their_own_name(language: str) -> None:
    """The line a game opens with names who plays: a player holding two explorers is one
    player (not "Hana, Hana (2nd)"), listed the language's way."""
    with speaking(language):
        table, _ = T.new_table("betrayal", 5, 6, HANA, SEED, {"today": "03-01"})
        table, _ = T.apply(table, BOB, Action(T.JOIN))
        table, _ = T.apply(table, HANA, Action(T.SECOND))
        table, events = T.apply(table, HANA, Action(T.START))
        assert table.status == ACTIVE
        names = [s.name for s in table.seats]
        assert len(names) == 3 and names[0] == "Hana" and names[2] != "Hana"
        from_texts = say("lobby.started", game=T.title(table), players=and_list(
            ["Hana", "Bob"]))
        assert _texts(events)[0] == from_texts
        assert names[2] not in _texts(events)[0]
