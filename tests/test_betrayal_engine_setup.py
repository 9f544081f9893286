"""Betrayal engine: setup (explorers, birthdays), turns, the haunt roll, refusals, views."""

from __future__ import annotations

import json

import pytest

from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.games.base import PlayerInfo
from bot.games.betrayal import GAME, content, effects, map_view, sheet_view
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.state import STATE_FORMATS, BetrayalState
from bot.games.betrayal.turn import day_of_year, first_player
from tests.test_betrayal_engine_helpers import (
    MISSY,
    OX,
    PETER,
    apply,
    at,
    choose,
    deck_top,
    dice,
    new_game,
    same,
    stack_top,
)

__all__ = ["dice"]


def players(n: int) -> list[PlayerInfo]:
    return [PlayerInfo(f"P{i}") for i in range(n)]


# ---------------------------------------------------------------- birthdays and explorers

def test_the_next_birthday_goes_first() -> None:
    birthdays = ["10-18", "02-14", "09-03"]
    assert first_player(birthdays, "10-01") == 0
    assert first_player(birthdays, "10-19") == 1  # wraps round the new year
    assert first_player(birthdays, "02-14") == 1  # a birthday today is the nearest
    assert first_player(birthdays, "03-01") == 2
    assert day_of_year("01-01") == 0 and day_of_year("12-31") == 364


def test_setup_uses_the_date_and_plays_clockwise() -> None:
    state = new_game(today="03-01")
    assert state.first == PETER and state.turn.seat == PETER
    state, _ = apply(state, "end_turn")
    assert state.turn.seat == OX  # clockwise: seat numbers rise and wrap
    state, _ = apply(state, "end_turn")
    assert state.turn.seat == MISSY


def test_default_date_and_explorers_come_from_the_seed() -> None:
    a, _ = GAME.setup(players(5), 42, {})
    b, _ = GAME.setup(players(5), 42, {})
    assert same(a, b)
    known = content.get().explorers
    for seed in range(60):
        state, _ = GAME.setup(players(3 + seed % 4), seed, {})
        colours = [known[e.key].colour for e in state.explorers]
        assert len(set(colours)) == len(colours)  # never both sides of one card
        birthdays = [known[e.key].birthday for e in state.explorers]
        assert state.first == first_player(birthdays, state.today)


def test_chosen_explorers_and_dealt_ones() -> None:
    state, _ = GAME.setup(players(4), 3, {"explorers": "zoe_ingstrom,,father_rhinehardt"})
    keys = [e.key for e in state.explorers]
    assert keys[0] == "zoe_ingstrom" and keys[2] == "father_rhinehardt"
    colours = [content.explorer(k).colour for k in keys]
    assert len(set(colours)) == 4 and "yellow" not in colours[1::2]


@pytest.mark.parametrize(("options", "message"), [
    ({"explorers": ["ox_bellows", "darrin_williams"]}, "other side of a red card"),
    ({"explorers": ["nobody"]}, "There is no explorer"),
    ({"today": "13-45"}, "is not a date"),
    ({"explorers": ["ox_bellows"] * 0 + ["zoe_ingstrom"] * 1 + [""] * 3}, "explorers were"),
])
def test_setup_refusals(options: dict[str, object], message: str) -> None:
    with pytest.raises(IllegalAction) as err:
        GAME.setup(players(3), 1, options)
    assert message in err.value.message


@pytest.mark.parametrize("count", [2, 7])
def test_three_to_six_explorers(count: int) -> None:
    with pytest.raises(IllegalAction):
        GAME.setup(players(count), 1, {})


def test_one_person_may_hold_two_seats() -> None:
    """The table gives one user two seats when few play; seats are all the engine knows."""
    state, _ = GAME.setup([PlayerInfo("Ann"), PlayerInfo("Ann"), PlayerInfo("Bo"),
                           PlayerInfo("Bo")], 9, {"today": "10-01"})
    for _ in range(4):
        state, _ = apply(state, "end_turn")
    assert state.turn.number == 5 and state.players == ["Ann", "Ann", "Bo", "Bo"]


# ---------------------------------------------------------------- the haunt roll

def _omen_turn(state, dice):  # type: ignore[no-untyped-def]
    stack_top(state, "dining_room")
    deck_top(state, "omen", "holy_symbol")
    state, _ = apply(state, "explore", dir="N")
    if state.pending:
        state, _ = choose(state, 0)
    return state


def test_no_omen_no_haunt_roll(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    state, events = apply(state, "end_turn")
    assert not any("haunt roll" in e for e in events)


def test_the_haunt_waits_while_the_roll_is_high_enough(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    state = _omen_turn(state, dice)
    dice[:] = [0, 0, 0, 0, 0, 1]  # 1, not under 1 omen
    state, events = apply(state, "end_turn")
    assert any("the haunt roll" in e for e in events)
    assert any("Not yet" in e for e in events) and not state.over
    assert state.turn.seat == MISSY and state.turn.omen == ""


def test_the_haunt_begins_under_the_omen_count(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    state.omens_drawn = 3  # earlier omens
    state = _omen_turn(state, dice)
    dice[:] = [0, 0, 1, 0, 1, 1]  # 3 < 4 omens
    state, events = apply(state, "end_turn")
    assert not GAME.is_over(state) and state.phase == "haunt"
    assert state.haunt is not None and state.haunt.key
    assert (state.haunt.revealer, state.haunt.omen, state.haunt.room, state.haunt.roll,
            state.haunt.omens) == (OX, "holy_symbol", "dining_room", 3, 4)
    assert any("THE HAUNT BEGINS" in e for e in events)
    assert not any("the game ends here" in e for e in events)  # the haunt is played
    assert GAME.to_act(state) is not None
    assert "haunt has begun" in map_view(state).footer or state.haunt.key


def _draws(state: BetrayalState, seat: int, deck: str) -> tuple[BetrayalState, list[str]]:
    """`seat` draws the top card of `deck` now, as a card or room would make it."""
    ctx = Ctx(state)
    ctx.push([{"draw": {"deck": deck, "count": 1}}], seat)
    effects.run(ctx)
    return state, [e.text for e in ctx.events]


def _missy_draws_an_omen_on_ox_s_turn(dice: list[int]) -> BetrayalState:
    """Ox, in the basement, draws the Mystic Slide: it passes left to Missy, who fails
    her Might roll and falls into a new basement room, the Gymnasium, where she turns up
    the Book. It is still Ox's turn."""
    state = new_game()
    at(state, OX, "basement_landing")
    stack_top(state, "gymnasium")
    deck_top(state, "event", "mystic_slide")
    deck_top(state, "omen", "book")
    dice.extend([0, 0, 0, 0])  # Missy's Might 3: 0; the slide's die of damage: 0
    state, _ = _draws(state, OX, "event")
    while state.pending:
        state, _ = choose(state, 0)
    assert state.turn.seat == OX and "book" in state.explorers[MISSY].cards
    assert state.tiles[state.explorers[MISSY].tile].room == "gymnasium"
    return state


def test_an_omen_drawn_on_another_s_turn_is_rolled_for_by_its_drawer(dice) -> None:  # type: ignore[no-untyped-def]
    """Seed 003: 每當一名玩家翻開一張預兆牌後，在該玩家完結其回合後，必須試圖揭露真相 (whoever
    turns up an omen makes the haunt roll after ending their own turn), and 擲骰的玩家即是
    揭露者 (the one who rolls is the revealer)."""
    state = _missy_draws_an_omen_on_ox_s_turn(dice)
    state, events = apply(state, "end_turn")  # Ox's turn: he drew no omen
    assert not _haunt_rolls(state, events)
    assert state.turn.seat == MISSY and state.phase == "explore"
    dice[:] = [0, 0, 0, 0, 0, 0]  # 0, under 1 omen
    state, events = apply(state, "end_turn")
    assert _haunt_rolls(state, events) == [content.betrayal_line(
        "events.haunt_roll_owed", who=_name(state, MISSY), omens=1,
        omen=content.card("book").name)]
    assert state.haunt is not None
    assert (state.haunt.revealer, state.haunt.omen, state.haunt.room) == (
        MISSY, "book", "gymnasium")


def test_one_haunt_roll_a_turn_with_an_owed_omen_and_one_of_its_own(dice) -> None:  # type: ignore[no-untyped-def]
    """RULES.md: after a turn in which an omen was drawn, roll 6 dice -- one roll for
    the turn, however many omens (one owed from another's turn, one drawn now): read
    with the last one drawn."""
    state = _missy_draws_an_omen_on_ox_s_turn(dice)
    state, _ = apply(state, "end_turn")
    deck_top(state, "omen", "holy_symbol")
    state, _ = _draws(state, MISSY, "omen")
    dice[:] = [0, 0, 0, 0, 0, 0]  # 0, under 2 omens
    state, events = apply(state, "end_turn")
    assert _haunt_rolls(state, events) == [content.betrayal_line(
        "events.haunt_roll", who=_name(state, MISSY), omens=2)]
    assert state.haunt is not None
    assert (state.haunt.revealer, state.haunt.omen) == (MISSY, "holy_symbol")


def test_a_game_stored_mid_turn_before_omens_were_owed_plays_on(dice) -> None:  # type: ignore[no-untyped-def]
    """The format step `omens_owed`: a state stored before marked Missy's omen on Ox's
    turn (`turn.omen`) and no explorer owed one. It loads, owing nothing, and Ox's turn
    still rolls for it, as it would have then (one roll, not two)."""
    state = _missy_draws_an_omen_on_ox_s_turn(dice)
    raw = json.loads(json.dumps(GAME.dump(state)))
    raw["format"] = STATE_FORMATS.current - 1
    for explorer in raw["explorers"]:
        del explorer["owed_omen"], explorer["owed_omen_room"]
    raw["turn"]["omen"], raw["turn"]["omen_room"] = "book", "gymnasium"
    old = GAME.load(raw)
    assert all(e.owed_omen == "" == e.owed_omen_room for e in old.explorers)
    dice[:] = [2, 2, 2, 2, 2, 2]
    old, events = apply(old, "end_turn")
    assert _haunt_rolls(old, events) == [content.betrayal_line(
        "events.haunt_roll", who=_name(old, OX), omens=1)]
    old, events = apply(old, "end_turn")
    assert not _haunt_rolls(old, events)


def _name(state: BetrayalState, seat: int) -> str:
    return content.explorer(state.explorers[seat].key).name


def _haunt_rolls(state: BetrayalState, events: list[str]) -> list[str]:
    """The lines that announce a haunt roll, whoever makes it."""
    said = {content.betrayal_line(key, who=_name(state, seat), omens=n, omen=content.card(o).name)
            for key in ("events.haunt_roll", "events.haunt_roll_owed")
            for seat in range(len(state.explorers)) for n in range(1, 14)
            for o in ("book", "holy_symbol")}
    return [e for e in events if e in said]


# ---------------------------------------------------------------- refusals

BAD = [
    (MISSY, Action("end_turn")),  # not Missy's turn
    (OX, Action("fly")),
    (OX, Action("move", {"dir": "E"})),  # the front door is locked: no door east
    (OX, Action("move", {"dir": "Q"})),
    (OX, Action("move", {"via": "stairs_up", "to": 4})),  # not at the staircase
    (OX, Action("explore", {"dir": "W"})),  # the Foyer is there
    (OX, Action("use", {"card": "axe"})),
    (OX, Action("trade", {"with": MISSY, "give": "axe"})),
    (OX, Action("drop", {"card": "rope"})),
    (OX, Action("pickup", {"card": "rope"})),
    (OX, Action("act", {"what": "vault"})),
    (OX, Action("choose", {"pick": 0})),
    (9, Action("end_turn")),
]


@pytest.mark.parametrize(("seat", "action"), BAD)
def test_illegal_actions_leave_the_state_unchanged(seat: int, action: Action) -> None:
    state = new_game()
    before = json.dumps(state.to_dict(), sort_keys=True)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, seat, action)
    assert err.value.message
    assert json.dumps(state.to_dict(), sort_keys=True) == before


def test_a_pending_choice_refuses_everything_else() -> None:
    state = new_game()
    stack_top(state, "library")
    state, _ = apply(state, "explore", dir="N")
    assert state.pending is not None
    before = json.dumps(state.to_dict(), sort_keys=True)
    for seat, action in [(OX, Action("end_turn")), (OX, Action("choose", {"pick": 7})),
                         (MISSY, Action("choose", {"pick": 0}))]:
        with pytest.raises(IllegalAction):
            GAME.apply(state, seat, action)
    assert json.dumps(state.to_dict(), sort_keys=True) == before


def test_every_option_is_legal_and_encodes() -> None:
    state = new_game()
    for option in GAME.options(state, OX):
        assert len(option.action.encode()) <= 100
        assert Action.decode(option.action.encode()) == option.action
        GAME.apply(state, OX, option.action)
    groups = {o.group for o in GAME.options(state, OX)}
    assert groups == {"Move", "Explore", "Turn"}


# ---------------------------------------------------------------- storage and views

def test_dump_and_load_mid_choice() -> None:
    state = new_game()
    stack_top(state, "library")
    state, _ = apply(state, "explore", dir="N")
    raw = json.loads(json.dumps(GAME.dump(state)))
    loaded = GAME.load(raw)
    assert same(loaded, state)
    a, _ = choose(state, 0)
    b, _ = choose(loaded, 0)
    assert same(a, b)


def test_views() -> None:
    state = new_game()
    view = map_view(state)
    assert {t.key for t in view.tiles} == {"entrance_hall", "foyer", "grand_staircase",
                                          "upper_landing", "basement_landing"}
    hall = next(t for t in view.tiles if t.key == "entrance_hall")
    assert hall.doors == ("N", "S", "W") and hall.start and hall.floor == "ground"
    assert ("grand_staircase", "upper_landing") in view.links
    assert [e.acting for e in view.explorers] == [True, False, False]
    assert view.header == "Turn 1 · Ox Bellows (P0) to play"
    assert view.track.filled == 0 and view.track.marks == 13
    sheet = sheet_view(state, OX)
    assert sheet.name == "Ox Bellows" and sheet.traits["might"].index == 2
    assert sheet.traits["might"].track == (4, 5, 5, 6, 6, 7, 8, 8)
    assert sheet.room == "Entrance Hall"
    text = GAME.private_view(state, OX)
    assert "Might 5: 4 5 [5] 6 6 7 8 8" in text
    status = GAME.status_text(state)
    assert "Ox Bellows (P0)" in status and "Omens drawn: 0" in status
    renamed = GAME.set_player(state, OX, PlayerInfo("Bot", ai=True))
    assert renamed.players[OX] == "Bot" and renamed.ai[OX] and state.players[OX] == "P0"


def test_the_ai_plays_whole_games_to_the_haunt() -> None:
    """Setup to the haunt's end, the AI at every seat: each action legal and the same
    for the same state. AI games take a few hundred actions (bench/haunt_endings.py
    --natural); the haunt's last round bounds them, so 1500 is only reached by a game
    that would never end."""
    for seed in range(6):
        state, _ = GAME.setup([PlayerInfo(f"A{i}", ai=True) for i in range(3 + seed % 4)],
                              seed, {})
        for _ in range(1500):
            if GAME.is_over(state):
                break
            seat = GAME.to_act(state)
            assert seat is not None
            action = GAME.ai_action(state, seat)
            assert action in [o.action for o in GAME.options(state, seat)]
            assert GAME.ai_action(state, seat) == action  # deterministic
            state, _ = GAME.apply(state, seat, action)
        assert state.over and state.haunt is not None
