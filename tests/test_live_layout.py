"""The live message's Components v2 layout (cogs/live_layout.py, components.live_rows):
one frame in the game's colour holding the turn's text, the board (by its upload's name,
with its alt text) and the controls; each other seat's row under its player's name;
"My secrets" and "Whole house" never crowded out (a classic message's five rows dropped
them); and whatever the prompt, within Discord's 40 components and 4,000 characters."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot import table as T
from bot.core.actions import Action, Option
from bot.sessions import Prompt
from bot.texts import say
from cogs.components import SECRET, WholeHouse, live_rows, prompt_view
from cogs.live_layout import (
    COMPONENTS_MAX,
    CONTROLS_BUDGET,
    TEXT_MAX,
    Board,
    live_layout,
)

CHANNEL = 9


def _walk(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for comp in components:
        out.append(comp)
        out.extend(_walk(comp.get("components") or []))
    return out


def _crowded(others: int = 2) -> Prompt:
    """Five groups of five moves (five full rows) and other seats that may act too."""
    moves = [Option(f"Move {g}.{i}", Action("move", {"g": g, "i": i}), group=f"G{g}")
             for g in range(5) for i in range(5)]
    extra = tuple(Prompt(s, 100 + s, f"P{s}", [Option("Ride", T.for_seat(Action("ride"), s))],
                         version=4) for s in range(1, 1 + others))
    return Prompt(0, 100, "Ann", moves, version=4, others=extra)


def test_the_frame_holds_the_turn_the_board_and_the_controls() -> None:
    rows = live_rows(CHANNEL, _crowded(), budget=CONTROLS_BUDGET, kind="betrayal")
    view = live_layout("Ann moved.\n**<@100>**, it's your move.", colour=0x6B3FA0,
                       board=Board(alt="Ann's turn; everyone in the Foyer."), rows=rows)
    (frame,) = view.to_components()
    assert frame["type"] == 17 and frame["accent_color"] == 0x6B3FA0
    first, board = frame["components"][:2]
    assert first == {"type": 10, "content": "Ann moved.\n**<@100>**, it's your move."}
    assert board["type"] == 12
    assert board["items"] == [{"media": {"url": "attachment://board.png"}, "spoiler": False,
                               "description": "Ann's turn; everyone in the Foyer."}]
    every = _walk([frame])
    assert len(every) <= COMPONENTS_MAX
    ids = [c.get("custom_id") for c in every if c.get("custom_id")]
    assert f"hkh:1:{CHANNEL}" in ids and any(SECRET in i for i in ids)
    # each other seat under its name, its buttons without it
    texts = [c["content"] for c in frame["components"] if c["type"] == 10]
    assert say("view.other_heading", name="P1") in texts
    assert say("view.other_heading", name="P2") in texts
    labels = [c.get("label") for c in every if c.get("type") == 2]
    assert labels.count("Ride") == 2 and not any(str(x).startswith("P1:") for x in labels)


def test_whole_house_is_never_crowded_out_of_the_live_message() -> None:
    """Five full rows of the turn's moves left no row for "My secrets" and "Whole
    house" on a classic message; the layout keeps them (and every move)."""
    prompt = _crowded(others=0)
    classic = prompt_view(CHANNEL, prompt, kind="betrayal")
    assert not any(isinstance(i, WholeHouse) for i in classic.children)
    rows = live_rows(CHANNEL, prompt, budget=CONTROLS_BUDGET, kind="betrayal")
    items = [i for row in rows for i in row.items]
    assert any(isinstance(i, WholeHouse) for i in items)
    assert sum(getattr(i, "action", Action("x")).kind == "move" for i in items) == 25


def test_a_closed_message_keeps_its_words_and_board_without_controls() -> None:
    (frame,) = live_layout("Round one ends.", colour=None, board=Board(alt="the end"),
                           rows=None).to_components()
    kinds = [c["type"] for c in _walk([frame])]
    assert kinds == [17, 10, 12]  # no separator, no rows


def _options(draw: st.DrawFn, prefix: str, seat: int | None) -> list[Option]:
    groups = draw(st.integers(1, 8))
    out: list[Option] = []
    for g in range(groups):
        size = draw(st.integers(1, 30))
        two_step = draw(st.booleans())
        for i in range(size):
            action = Action("act", {"g": g, "i": i, "p": prefix})
            if seat is not None:
                action = T.for_seat(action, seat)
            out.append(Option(f"{prefix}{g}.{i} " + "x" * draw(st.integers(0, 60)), action,
                              group=f"{prefix}G{g}", private=draw(st.booleans()) and i == 0,
                              first=f"F{i % 4}" if two_step else "",
                              then=f"T{i}" if two_step else ""))
    return out


@st.composite
def prompts(draw: st.DrawFn) -> Prompt:
    others = tuple(Prompt(s, 100 + s, f"Player{s}", _options(draw, f"o{s}", s), version=7)
                   for s in range(1, 1 + draw(st.integers(0, 5))))
    return Prompt(0, 100, "Ann", _options(draw, "m", None), version=7, others=others)


@settings(max_examples=60, deadline=None)
@given(prompts(), st.sampled_from(["betrayal", "cthulhu", ""]), st.booleans())
def test_any_prompt_fits_discords_limits(prompt: Prompt, kind: str, main: bool) -> None:
    rows = live_rows(CHANNEL, prompt, budget=CONTROLS_BUDGET, main=main, kind=kind)
    view = live_layout("x" * 1900, colour=1, board=Board(alt="y" * 2000), rows=rows)
    (frame,) = view.to_components()
    every = _walk([frame])
    assert len(every) <= COMPONENTS_MAX
    assert sum(len(c.get("content") or "") for c in every if c["type"] == 10) <= TEXT_MAX
    assert len(frame["components"][1]["items"][0]["description"]) <= 1024
    for row in (c for c in every if c["type"] == 1):
        inner = row["components"]
        assert 1 <= len(inner) <= 5 and (len(inner) == 1 or all(c["type"] == 2 for c in inner))
    ids = [c["custom_id"] for c in every if c.get("custom_id")]
    assert len(ids) == len(set(ids))
    assert any(SECRET in i for i in ids)  # "My secrets" always
    assert (f"hkh:1:{CHANNEL}" in ids) == (kind == "betrayal")
    if main and any(not o.private for o in prompt.options):
        assert any(":7:" in i and "for_seat" not in i for i in ids if i != f"hkh:1:{CHANNEL}"
                   and SECRET not in i)  # the turn's own controls are there
