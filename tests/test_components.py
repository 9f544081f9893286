"""The views built from a prompt: what goes on the public turn message and what not."""

from __future__ import annotations

from bot.core.actions import Action, Option
from bot.core.choices import PendingChoice
from bot.sessions import Prompt
from cogs.components import PRIVATE_CHOICES, SECRET, prompt_view


def _labels(view: object) -> list[str]:
    out = []
    for item in view.children:  # type: ignore[attr-defined]
        inner = getattr(item, "item", item)
        out.append(getattr(inner, "label", None) or getattr(inner, "placeholder", ""))
        out.extend(o.label for o in getattr(inner, "options", []))
    return out


def _custom_ids(view: object) -> list[str]:
    return [getattr(getattr(i, "item", i), "custom_id", "") for i in view.children]  # type: ignore[attr-defined]


async def test_private_choices_stay_off_the_public_message() -> None:
    choice = PendingChoice(1, "Order the top cards", "meant_order",
                           ["Axe, Bell, Rope", "Rope, Axe, Bell"], private=True)
    prompt = Prompt(1, 42, "Ann", choice.options(), version=7)
    public = prompt_view(99, prompt)
    assert not any("Axe" in label for label in _labels(public))
    assert "Choose privately" in _labels(public)
    assert f"hk:99:7:{Action(PRIVATE_CHOICES).encode()}" in _custom_ids(public)

    alone = prompt_view(99, prompt, with_secret=False, reveal_private=True)
    assert {"Axe, Bell, Rope", "Rope, Axe, Bell"} <= set(_labels(alone))
    assert "Choose privately" not in _labels(alone)


async def test_small_groups_are_buttons_and_large_ones_selects() -> None:
    moves = [Option(f"Move {i}", Action("move", {"to": i}), group="Move") for i in range(30)]
    turn = [Option("End turn", Action("end_turn"), group="Turn")]
    view = prompt_view(5, Prompt(0, 1, "Ann", moves + turn, version=3))
    ids = _custom_ids(view)
    assert ids.count("hks:5:3:0") == 1 and ids.count("hks:5:3:1") == 1  # 30 moves: 25 + 5
    assert "hk:5:3:end_turn" in ids
    assert f"hk:5:0:{SECRET}" in ids  # the secrets button works at any version
    assert len({getattr(getattr(i, "item", i), "row", 0) for i in view.children}) <= 5
