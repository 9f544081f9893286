"""The views built from a prompt: what goes on the public turn message and what not."""

from __future__ import annotations

from bot.core.actions import Action, Option
from bot.core.choices import PendingChoice
from bot.sessions import Prompt
from cogs.components import PRIVATE_CHOICES, SECRET, STEP, first_steps, prompt_view


def labels_of(view: object) -> list[str]:
    out = []
    for item in view.children:  # type: ignore[attr-defined]
        inner = getattr(item, "item", item)
        out.append(getattr(inner, "label", None) or getattr(inner, "placeholder", ""))
        out.extend(o.label for o in getattr(inner, "options", []))
    return out


def custom_ids_of(view: object) -> list[str]:
    return [getattr(getattr(i, "item", i), "custom_id", "") for i in view.children]  # type: ignore[attr-defined]


async def test_private_choices_stay_off_the_public_message() -> None:
    choice = PendingChoice(1, "Order the top cards", "meant_order",
                           ["Axe, Bell, Rope", "Rope, Axe, Bell"], private=True)
    prompt = Prompt(1, 42, "Ann", choice.options(), version=7)
    public = prompt_view(99, prompt)
    assert not any("Axe" in label for label in labels_of(public))
    assert "Choose privately" in labels_of(public)
    assert f"hk:99:7:{Action(PRIVATE_CHOICES).encode()}" in custom_ids_of(public)

    alone = prompt_view(99, prompt, with_secret=False, reveal_private=True)
    assert {"Axe, Bell, Rope", "Rope, Axe, Bell"} <= set(labels_of(alone))
    assert "Choose privately" not in labels_of(alone)


async def test_small_groups_are_buttons_and_large_ones_selects() -> None:
    moves = [Option(f"Move {i}", Action("move", {"to": i}), group="Move") for i in range(30)]
    turn = [Option("End turn", Action("end_turn"), group="Turn")]
    view = prompt_view(5, Prompt(0, 1, "Ann", moves + turn, version=3))
    ids = custom_ids_of(view)
    assert ids.count("hks:5:3:0") == 1 and ids.count("hks:5:3:1") == 1  # 30 moves: 25 + 5
    assert "hk:5:3:end_turn" in ids
    assert f"hk:5:0:{SECRET}" in ids  # the secrets button works at any version
    assert len({getattr(getattr(i, "item", i), "row", 0) for i in view.children}) <= 5


def _two_step(places: int, dice: int) -> list[Option]:
    return [Option(f"Move to P{p} (die {d})", Action("move", {"to": p, "die": d}),
                   group="Move", first=f"To P{p}", then=f"die {d}")
            for p in range(places) for d in range(dice)]


async def test_a_two_step_group_shows_each_first_once_and_a_lone_option_itself() -> None:
    moves = _two_step(3, 7)
    lone = Option("Move to P9 (die 0)", Action("move", {"to": 9, "die": 0}), group="Move",
                  first="To P9", then="die 0")
    prompt = Prompt(0, 1, "Ann", [*moves, lone], version=4)
    steps = first_steps(prompt, prompt.options)
    assert [o.label for o in steps] == ["To P0", "To P1", "To P2", "Move to P9 (die 0)"]
    assert [o.action for o in steps[:3]] == [Action(STEP, {"n": n}) for n in (0, 7, 14)]
    assert steps[3] is lone  # one die goes there: a click moves at once
    view = prompt_view(5, prompt)
    assert "To P1" in labels_of(view) and "die 3" not in labels_of(view)
    assert not any("(1/" in label for label in labels_of(view))  # 22 options, one row


async def test_a_two_step_group_that_fits_in_a_row_stays_flat() -> None:
    moves = _two_step(2, 2)  # four options: four buttons, one click each
    prompt = Prompt(0, 1, "Ann", moves, version=4)
    assert first_steps(prompt, prompt.options) == moves
    assert labels_of(prompt_view(5, prompt))[:4] == [o.label for o in moves]
