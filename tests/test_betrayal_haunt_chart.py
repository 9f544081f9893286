"""Betrayal: the haunt chart (data/betrayal/haunt_chart.yaml) and the 8 haunts
(haunts.yaml): every omen meets every omen room, the haunts are spread evenly, seed
003's stated pairings hold, and the haunt's start names the haunt the chart gives."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest
import yaml

from bot.games.betrayal import GAME, content
from bot.games.betrayal.haunt_roll import chart, chart_haunt, haunts
from bot.games.betrayal.state import BetrayalState
from tests.test_betrayal_engine_helpers import (
    DATA,
    OX,
    apply,
    choose,
    deck_top,
    dice,
    new_game,
    put,
    same,
    stack_top,
)

__all__ = ["dice"]

CLASSIC = {  # RULES.md section 1: the haunts we support
    "It's Alive!", "Pay the Piper", "A Little Night Murder", "Offspring",
    "The Mummy Walks", "Wail of the Banshee", "The Ghost Bride", "Better with Friends",
}
TRAITOR_RULES = {"revealer", "left_of_revealer", "none"} | {
    f"{side}_{trait}" for side in ("highest", "lowest") for trait in content.TRAITS}


def _raw(name: str) -> dict:  # type: ignore[type-arg]
    return yaml.safe_load((DATA / f"{name}.yaml").read_text(encoding="utf-8"))


def _omens() -> list[str]:
    return content.get().deck("omen", "classic")


def _omen_rooms() -> list[str]:
    return [r.key for r in content.get().rooms.values() if r.symbol == "omen" and not r.edition]


# ---------------------------------------------------------------- the 8 haunts

def test_the_eight_classic_haunts() -> None:
    found = haunts("")
    assert {h.name for h in found.values()} == CLASSIC
    assert sorted(h.number for h in found.values()) == list(range(1, 9))
    assert found["the_mummy_walks"].number == 1  # seed 003: haunt #1, The Mummy Walks
    assert not found["the_mummy_walks"].designed
    assert all(h.designed for h in found.values() if h.number != 1)  # numbers are ours
    for h in found.values():
        assert re.fullmatch(r"[a-z_]+", h.key)
        assert 20 <= len(h.teaser) <= 140 and "\n" not in h.teaser
        # public: nothing of either book (who wins how, who the traitor is, no numbers)
        assert not re.search(r"\b(traitor|heroe?s?|win|wins|successe?s?)\b|\d",
                             h.teaser, re.IGNORECASE), h.key


def test_traitor_rules() -> None:
    explorers = content.get().explorers
    for h in haunts("").values():
        rule = h.traitor
        assert set(rule) <= {"named", "else", "designed", "note"}, h.key
        assert rule["else"] in TRAITOR_RULES, h.key
        assert all(k in explorers for k in rule.get("named", [])), h.key
        assert isinstance(rule["designed"], bool) and rule["note"], h.key
    piper = haunts("")["pay_the_piper"].traitor  # seed 003: Ox Bellows, else lowest Sanity
    assert piper["named"] == ["ox_bellows"] and piper["else"] == "lowest_sanity"
    assert piper["designed"] is False
    assert haunts("")["a_little_night_murder"].traitor["named"] == ["jenny_leclerc"]
    friends = haunts("")["better_with_friends"].traitor["named"]  # the little girl
    assert {content.explorer(k).colour for k in friends} == {"yellow"}


# ---------------------------------------------------------------- the chart

def test_every_omen_meets_every_omen_room() -> None:
    table = chart()
    assert len(_omens()) == 13 and len(_omen_rooms()) == 13
    assert sorted(table) == sorted(_omens())
    for omen, row in table.items():
        assert sorted(row) == sorted(_omen_rooms()), omen
        assert set(row.values()) <= set(haunts("")), omen
    raw = _raw("haunt_chart")
    assert raw["designed"] is True and raw["note"]


def test_haunts_are_spread_evenly() -> None:
    counts = Counter(h for row in chart().values() for h in row.values())
    assert sum(counts.values()) == 169
    assert set(counts) == set(haunts(""))
    assert all(18 <= n <= 24 for n in counts.values()), counts
    for omen, row in chart().items():  # every omen can lead to several haunts
        assert len(set(row.values())) >= 5, omen
    for room in _omen_rooms():
        assert len({chart()[o][room] for o in _omens()}) >= 5, room


def test_seed_003_pairings_hold() -> None:
    table = chart()
    # the rules' example
    assert table["girl"]["catacombs"] == "the_mummy_walks"
    assert haunts("")[table["girl"]["catacombs"]].number == 1
    # the play reports
    assert table["spear"]["abandoned_room"] == "its_alive"
    assert "pay_the_piper" in {table[o]["pentagram_chamber"] for o in _omens()}
    assert "offspring" in table["book"].values()
    basement = [r for r in _omen_rooms() if "basement" in content.room(r).floors]
    assert "a_little_night_murder" in {table[o][r] for o in _omens() for r in basement}
    assert "wail_of_the_banshee" in table["spirit_board"].values()


def test_the_facts_listed_in_the_chart_file_hold() -> None:
    facts = _raw("haunt_chart")["facts"]
    assert len(facts) >= 6
    table = chart()
    for fact in facts:
        assert fact["haunt"] in haunts("") and fact["source"]
        omens = [fact["omen"]] if "omen" in fact else _omens()
        rooms = [fact["room"]] if "room" in fact else [
            r for r in _omen_rooms() if fact.get("floor", "") in ("", *content.room(r).floors)]
        assert fact["haunt"] in {table[o][r] for o in omens for r in rooms}, fact
    exact = [f for f in facts if "omen" in f and "room" in f]
    assert {(f["omen"], f["room"]) for f in exact} == {("girl", "catacombs"),
                                                       ("spear", "abandoned_room")}
    for f in exact:
        assert table[f["omen"]][f["room"]] == f["haunt"]


def test_themes_lean_where_they_should() -> None:
    table = chart()

    def lead(omen: str) -> str:
        return Counter(table[omen].values()).most_common(1)[0][0]

    assert lead("spear") == "its_alive"
    assert lead("spirit_board") == "wail_of_the_banshee"
    assert lead("ring") == lead("girl") == "the_ghost_bride"
    assert lead("book") == lead("crystal_ball") == "offspring"
    assert table["ring"]["master_bedroom"] == "the_ghost_bride"


def test_an_omen_outside_an_omen_room_reads_the_last_omen_room_placed() -> None:
    state = new_game()
    put(state, "kitchen", "ground", 0, -1)
    put(state, "dining_room", "ground", 1, 0)
    found = chart_haunt(state, "dog", "entrance_hall")
    assert found is not None and found.key == chart()["dog"]["dining_room"]
    assert chart_haunt(state, "no_such_omen", "kitchen") is None


# ---------------------------------------------------------------- the haunt begins

def _haunt_turn(state: BetrayalState, dice: list[int], room: str, omen: str,
                ) -> tuple[BetrayalState, list[str]]:
    state.omens_drawn = 3  # earlier omens
    stack_top(state, room)
    deck_top(state, "omen", omen)
    state, _ = apply(state, "explore", dir="N")
    while state.pending:
        state, _ = choose(state, 0)
    dice[:] = [0, 0, 1, 0, 1, 1]  # 3 < 4 omens: the haunt begins
    return apply(state, "end_turn")


@pytest.mark.parametrize(("room", "omen"), [
    ("abandoned_room", "spear"),  # seed 003's It's Alive!
    ("dining_room", "holy_symbol"),
    ("kitchen", "ring"),
])
def test_the_haunt_start_names_the_haunt(dice, room: str, omen: str) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    state, events = _haunt_turn(state, dice, room, omen)
    assert state.phase == "haunt" and state.haunt is not None
    haunt = haunts("")[chart()[omen][room]]
    assert (state.haunt.revealer, state.haunt.omen, state.haunt.room) == (OX, omen, room)
    assert (state.haunt.key, state.haunt.number) == (haunt.key, haunt.number)
    line = f"The chart gives haunt #{haunt.number}: {haunt.name} — {haunt.teaser}"
    begins = next(i for i, e in enumerate(events) if "THE HAUNT BEGINS" in e)
    assert events[begins + 1] == line
    assert not state.over and (state.haunt.round >= 1 or state.pending is not None)


def test_its_alive_from_seed_003(dice) -> None:  # type: ignore[no-untyped-def]
    state, events = _haunt_turn(new_game(), dice, "abandoned_room", "spear")
    assert state.haunt is not None
    assert state.haunt.key == "its_alive"
    assert any("The chart gives haunt #" in e and "It's Alive!" in e for e in events)


def test_the_map_footer_names_the_haunt_from_the_chart(dice) -> None:  # type: ignore[no-untyped-def]
    from bot.games.betrayal import map_view

    state, _ = _haunt_turn(new_game(), dice, "abandoned_room", "spear")
    assert map_view(state).footer == (
        "The haunt has begun: #2 It's Alive! (Ox Bellows found the Spear in the Abandoned Room)")
    state.haunt.key, state.haunt.number = "", 0  # type: ignore[union-attr]  # no chart line
    assert map_view(state).footer == (
        "The haunt has begun: Ox Bellows found the Spear in the Abandoned Room")


def test_the_rules_tell_of_the_chart() -> None:
    assert "chart" in GAME.rules_topics()["haunt"]


def test_the_chart_event_is_public_and_carries_the_haunt(dice) -> None:  # type: ignore[no-untyped-def]
    from bot.core.actions import Action

    state = new_game()
    state.omens_drawn = 3
    stack_top(state, "abandoned_room")
    deck_top(state, "omen", "spear")
    state, _ = apply(state, "explore", dir="N")
    while state.pending:
        state, _ = choose(state, 0)
    dice[:] = [0, 0, 1, 0, 1, 1]
    state, events = GAME.apply(state, OX, Action("end_turn", {}))
    chart_events = [e for e in events if e.text.startswith("The chart gives")]
    assert len(chart_events) == 1
    event = chart_events[0]
    assert event.audience.is_public and event.kind == "haunt"
    assert event.data == {"haunt": "its_alive", "number": haunts("")["its_alive"].number,
                          "played": "its_alive"}  # the server remembers it (sessions)


def test_the_haunt_record_round_trips(dice) -> None:  # type: ignore[no-untyped-def]
    state, _ = _haunt_turn(new_game(), dice, "dining_room", "holy_symbol")
    raw = json.loads(json.dumps(state.to_dict()))
    assert raw["haunt"]["key"] == state.haunt.key != ""  # type: ignore[union-attr]
    back = BetrayalState.from_dict(raw)
    assert same(back, state) and back.haunt == state.haunt
    # a game saved before the chart existed still loads
    del raw["haunt"]["key"], raw["haunt"]["number"]
    old = BetrayalState.from_dict(raw)
    assert old.haunt is not None and (old.haunt.key, old.haunt.number) == ("", 0)
