"""The step vocabulary of data/betrayal/README.md, as one checker every content test uses.

Omens, items, events and rooms all write effects as step lists; checking them in one
place means a new step kind is taught to the tests once.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

TRAITS = {"speed", "might", "sanity", "knowledge"}
STEP_KINDS = {"roll", "gain", "lose", "damage", "heal", "draw", "move", "attack",
              "token", "lasting", "custom"}
SNAKE = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")


def snake_of(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower().replace("'", "")).strip("_")


def check_trait(value: Any, where: str) -> None:
    assert value in TRAITS, f"{where}: bad trait {value!r}"


def check_int(value: Any, where: str, low: int = 0) -> None:
    assert isinstance(value, int) and not isinstance(value, bool) and value >= low, \
        f"{where}: bad number {value!r}"


def walk(steps: Any, where: str) -> Iterator[tuple[str, str, Any]]:
    """Yield (where, kind, arg) for every step, down through roll outcomes."""
    assert isinstance(steps, list), f"{where}: a step list must be a list"
    for i, step in enumerate(steps):
        w = f"{where}[{i}]"
        assert isinstance(step, dict) and len(step) == 1, f"{w}: one key per step: {step!r}"
        (kind, arg), = step.items()
        yield w, kind, arg
        if kind == "roll" and isinstance(arg, dict):
            for j, out in enumerate(arg.get("outcomes") or []):
                if isinstance(out, dict):
                    yield from walk(out.get("do"), f"{w}.outcomes[{j}].do")


def check_steps(steps: Any, where: str) -> list[str]:
    """Check a whole step list; return the custom handler names it uses."""
    customs = []
    for w, kind, arg in walk(steps, where):
        check_step(w, kind, arg)
        if kind == "custom":
            customs.append(arg)
    return customs


def check_step(w: str, kind: str, arg: Any) -> None:
    assert kind in STEP_KINDS, f"{w}: unknown step {kind!r}"
    if kind == "roll":
        assert isinstance(arg, dict), w
        assert set(arg) in ({"trait", "outcomes"}, {"dice", "outcomes"}), w
        if "trait" in arg:
            check_trait(arg["trait"], w)
        else:
            check_int(arg["dice"], w, 1)
            assert arg["dice"] <= 8, w
        outcomes = arg["outcomes"]
        assert isinstance(outcomes, list) and outcomes, w
        for j, out in enumerate(outcomes):
            ow = f"{w}.outcomes[{j}]"
            assert isinstance(out, dict) and "do" in out, ow
            assert set(out) - {"do"} and set(out) <= {"min", "max", "do"}, ow
            assert isinstance(out["do"], list), ow
            for bound in ("min", "max"):
                if bound in out:
                    check_int(out[bound], ow)
            if "min" in out and "max" in out:
                assert out["min"] <= out["max"], ow
    elif kind in ("gain", "lose"):
        assert isinstance(arg, dict), w
        check_int(arg.get("amount"), w, 1)
        if kind == "gain" and "choose" in arg:
            assert set(arg) == {"choose", "amount"}, w
            assert isinstance(arg["choose"], list) and len(arg["choose"]) >= 2, w
            for t in arg["choose"]:
                check_trait(t, w)
        else:
            assert set(arg) == {"trait", "amount"}, w
            check_trait(arg["trait"], w)
    elif kind == "damage":
        assert isinstance(arg, dict) and arg.get("kind") in {"physical", "mental", "general"}, w
        assert set(arg) in ({"kind", "amount"}, {"kind", "dice"}), w
        check_int(arg.get("amount", arg.get("dice")), w, 1)
    elif kind == "heal":
        assert set(arg) == {"traits", "to"} and arg["to"] == "start", w
        for t in arg["traits"]:
            check_trait(t, w)
    elif kind == "draw":
        assert set(arg) == {"deck", "count"} and arg["deck"] in {"omen", "item", "event"}, w
        check_int(arg["count"], w, 1)
    elif kind == "move":
        assert set(arg) == {"to"} and isinstance(arg["to"], str) and SNAKE.match(arg["to"]), w
    elif kind == "attack":
        assert set(arg) == {"trait", "dice"}, w
        check_trait(arg["trait"], w)
        check_int(arg["dice"], w, 1)
    elif kind == "token":
        assert set(arg) == {"kind", "place"}, w
        assert SNAKE.match(arg["kind"]) and arg["place"] in {"here", "choose_placed"}, w
    elif kind == "lasting":
        assert arg == {}, w
    elif kind == "custom":
        assert isinstance(arg, str) and SNAKE.match(arg), f"{w}: bad handler name {arg!r}"
