"""The turn message's rows for the other seats that may act now (Prompt.others): one row
each, labelled with whose they are, pinned to their seat, never their private options."""

from __future__ import annotations

import discord

from bot import table as T
from bot.core.actions import Action, Option
from bot.sessions import Prompt
from cogs.components import MAX_ROWS, prompt_view
from tests.test_components import custom_ids_of, labels_of


def _rows(view: object) -> list[int]:
    return [getattr(getattr(i, "item", i), "row", 0) for i in view.children]  # type: ignore[attr-defined]


def _other(seat: int, name: str, options: list[Option]) -> Prompt:
    pinned = [Option(o.label, T.for_seat(o.action, seat), group=o.group, private=o.private)
              for o in options]
    return Prompt(seat, 100 + seat, name, pinned, version=4)


def test_each_other_seat_gets_its_own_labelled_row_at_the_current_version() -> None:
    moves = [Option(f"Move {i}", Action("move", {"to": i}), group=f"G{i}") for i in range(6)]
    bob = _other(1, "Bob", [Option("Ride", Action("ride", {"to": 3}), group="Bike"),
                            Option("Peek", Action("peek"), private=True)])
    cat = _other(2, "Cat", [Option(f"Place {i}", Action("place", {"card": i}), group="Cards")
                            for i in range(7)])
    prompt = Prompt(0, 100, "Ann", moves, version=4, others=(bob, cat))
    view = prompt_view(9, prompt)
    labels, ids = labels_of(view), custom_ids_of(view)
    assert "Bob: Ride" in labels and not any("Peek" in label for label in labels)
    assert "hk:9:4:ride~for_seat=1~to=3" in ids
    assert "Cat: Cards…" in labels and "hks:9:4:0" in ids  # seven options: a select
    assert max(_rows(view)) < MAX_ROWS
    # the turn's own groups gave up the rows the others needed, not the other way
    assert sum(label.startswith("Move") for label in labels) == MAX_ROWS - 2

    dm = prompt_view(9, prompt, reveal_private=True, others=False)
    assert not any(label.startswith(("Bob", "Cat")) for label in labels_of(dm))
    channel_only = prompt_view(9, prompt, main=False)
    assert not any(label.startswith("Move") for label in labels_of(channel_only))
    assert "Bob: Ride" in labels_of(channel_only)


def test_many_other_seats_share_one_select_and_the_turn_keeps_its_controls() -> None:
    """Four Bike holders and Eddie may all act on someone's turn: a row each would
    leave the turn one row, so they share one select, each entry named and pinned."""
    groups = ("Move", "Pick up", "Courage", "Turn")
    turn = [Option(f"{g} {i}", Action(g.lower().replace(" ", ""), {"n": i}), group=g)
            for g in groups for i in range(2)]
    others = tuple(_other(s, f"P{s}", [Option(f"Ride to {t}", Action("ride", {"to": t}),
                                              group="Bike") for t in range(3)])
                   for s in range(1, 6))
    view = prompt_view(9, Prompt(0, 100, "Ann", turn, version=4, others=others))
    labels = labels_of(view)
    assert all(f"{g} {i}" in labels for g in groups for i in range(2))
    [shared] = [i.item for i in view.children if getattr(i, "item", None) is not None
                and isinstance(i.item, discord.ui.Select)]
    assert shared.placeholder.startswith("Out of turn (P1, P2, P3, P4, P5)")
    entries = {o.label: o.value for o in shared.options}
    assert len(entries) == 15 and entries["P3: Ride to 2"] == "ride~for_seat=3~to=2"
    assert max(_rows(view)) < MAX_ROWS
