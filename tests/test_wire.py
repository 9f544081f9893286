"""The strict reader of custom_ids and actions' wire form: fuzzed, it only ever refuses.

Whatever text arrives, reading it either raises IllegalAction (the refusal the cogs show
privately) or gives a value that writes back to exactly that text: one spelling per
value, so a custom_id cannot smuggle a second meaning past a check.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot import games
from bot.core import wire
from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.games.base import PlayerInfo

FUZZ = settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Pieces that look almost right: unicode digits that pass isdigit(), signs, zeros, huge.
NUMBERS = st.sampled_from(["0", "1", "7", "007", "-1", "--1", "+1", "²", "٣", "1²", " 1",
                           "1\n", str(2**31), str(2**63 - 1), str(2**63), str(2**64),
                           "9" * 25, ""]) | st.integers(0, 2**70).map(str)
KINDS = st.sampled_from(["move", "choose", "lobby.join", "view.secret", "end_turn", "", "Move",
                         "a..b", "x" * 40, "mové", "use"])
KEYS = st.sampled_from(["pick", "room", "dir", "a", "", "Pick", "pïck", "p-k", "z" * 20])
VALUES = NUMBERS | st.sampled_from(["N", "ox_bellows", "give-1", "m1", "-x", "a b", "é", "~",
                                    "a:b", "=", "x" * 60]) | st.text(max_size=6)


@st.composite
def near_actions(draw: st.DrawFn) -> str:
    pairs = draw(st.lists(st.tuples(KEYS, VALUES), max_size=4))
    seps = draw(st.sampled_from(["=", "", "==", ":"]))
    return "~".join([draw(KINDS)] + [f"{k}{seps if i else '='}{v}"
                                     for i, (k, v) in enumerate(pairs)])


@st.composite
def near_custom_ids(draw: st.DrawFn) -> str:
    prefix = draw(st.sampled_from(["hk:", "hks:", "hk", "HK:", "hk::", ""]))
    tail = draw(st.one_of(near_actions(), NUMBERS))
    parts = [draw(NUMBERS), draw(NUMBERS), tail]
    return prefix + ":".join(parts[: draw(st.integers(1, 3))])


ANY_TEXT = st.text(max_size=120) | near_actions() | near_custom_ids()


@FUZZ
@given(text=ANY_TEXT)
def test_an_action_reads_back_to_itself_or_is_refused(text: str) -> None:
    try:
        action = Action.decode(text)
    except IllegalAction as exc:
        assert exc.message == "That button or choice could not be read. Use the newest message."
        return
    assert action.encode() == text
    assert all(isinstance(v, str) or 0 <= v < 2**63 for v in action.args.values())


@FUZZ
@given(text=ANY_TEXT)
def test_a_custom_id_reads_back_to_itself_or_is_refused(text: str) -> None:
    for read in (wire.read_button_id, wire.read_select_id):
        try:
            ref = read(text)
        except IllegalAction:
            continue
        assert ref.encode() == text
        assert 0 < ref.channel_id < 2**63 and 0 <= ref.version < 2**31
        assert len(text) <= wire.MAX_CUSTOM_ID


@given(channel=st.integers(1, 2**63 - 1), version=st.integers(0, 2**31 - 1),
       kind=st.from_regex(r"[a-z][a-z_]{0,10}(\.[a-z]{1,8})?", fullmatch=True),
       args=st.dictionaries(st.from_regex(r"[a-z][a-z0-9_]{0,7}", fullmatch=True),
                            st.integers(0, 2**63 - 1)
                            | st.from_regex(r"[A-Za-z_][A-Za-z0-9_\-]{0,12}", fullmatch=True),
                            max_size=3))
def test_what_we_write_we_read(channel: int, version: int, kind: str,
                               args: dict[str, int | str]) -> None:
    ref = wire.ButtonId(channel, version, kind, args)
    if len(ref.encode()) <= wire.MAX_CUSTOM_ID:
        assert wire.read_button_id(ref.encode()) == ref
    assert Action.decode(Action(kind, args).encode()) == Action(kind, args)
    select = wire.SelectId(channel, version, version % wire.SELECTS_LIMIT)
    assert wire.read_select_id(select.encode()) == select


@pytest.mark.parametrize("text", [
    "use~pick=²", "use~pick=٣", "--1", "use~pick=--1", "use~pick=-1", "use~pick=007",
    f"use~pick={2**63}", "move~room=1~room=2", "move~room=1~character=2", "move~=1", "~x=1",
    "move~character", "", "mové", "move~dir=a b", "x" * 101,
])
def test_the_reported_actions_are_refused(text: str) -> None:
    with pytest.raises(IllegalAction):
        Action.decode(text)


@pytest.mark.parametrize("custom_id", [
    f"hk:{2**64}:0:lobby.join", f"hk:{2**63}:0:lobby.join", "hk:0:0:lobby.join",
    "hk:٣:0:lobby.join", "hk:12:²:lobby.join", "hk:12:-1:lobby.join", f"hk:12:{2**31}:end_turn",
    "hk:12:0", "hk:12:0:", "hk:012:0:end_turn", "hks:12:0:25", "hks:12:0:x", "hks:12:0:1:2",
    "hk:12:0:end_turn:x", "hk:12:0:end_turn" + "~a=1" * 30,
])
def test_the_reported_custom_ids_are_refused(custom_id: str) -> None:
    for read in (wire.read_button_id, wire.read_select_id):
        with pytest.raises(IllegalAction):
            read(custom_id)


def test_indexes_are_ascii_digits_below_the_count() -> None:
    assert wire.index_of("2", 3) == 2 and wire.index_of(" 0 ", 1) == 0
    for text in ("3", "²", "٣", "-1", "01", "", str(2**64), "1.0"):
        assert wire.index_of(text, 3) is None


@pytest.mark.parametrize("kind", sorted(games.all_games()))
def test_every_option_the_games_offer_reads_back(kind: str) -> None:
    """What the engines offer must survive the strict reader, or its button would refuse.
    A few short AI games per game, every seat's options at every step."""
    game = games.get(kind)
    offered: set[str] = set()
    for seed in range(3):
        count = game.max_players if seed % 2 else game.min_players
        state, _ = game.setup([PlayerInfo(f"P{i}", True) for i in range(count)], seed,
                              {"today": "05-05"})
        for _ in range(400):
            seat = game.to_act(state)
            if game.is_over(state) or seat is None:
                break
            for other in range(count):
                offered.update(o.action.encode() for o in game.options(state, other))
            state, _ = game.apply(state, seat, game.ai_action(state, seat))
    for name, values in game.seat_choices().items():
        offered.update(Action("lobby.pick", {"name": name, "value": v}).encode()
                       for v, _ in values)
    assert offered
    for text in offered:
        assert Action.decode(text).encode() == text
        assert len(wire.ButtonId(2**63 - 1, 2**31 - 1, *wire.read_action(text)).encode()) <= 100
