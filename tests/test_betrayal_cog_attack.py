"""`/betrayal attack`: the typed target, trait and weapon pick one of the engine's own
attack options (cogs/betrayal.pick_attack), or refuse with what is in reach."""

from __future__ import annotations

import pytest

from bot.core.actions import Action, Option
from bot.core.errors import IllegalAction
from cogs.betrayal import pick_attack


def _opt(target: int | str, trait: str, weapon: str = "", ranged: bool = False,
         name: str = "Ox Bellows") -> Option:
    args: dict[str, int | str] = {"target": target, "trait": trait}
    if weapon:
        args["weapon"] = weapon
    if ranged:
        args["ranged"] = 1
    verb = "Shoot" if ranged else "Attack"
    return Option(f"{verb} {name}: {trait.capitalize()} (4 dice)", Action("attack", args))


OPTIONS = [_opt(2, "might"), _opt(2, "might", "axe"), _opt(2, "sanity"),
           _opt("m3", "might", name="Rat 3"), _opt("m5", "speed", "revolver", True, "Rat 5")]


def test_the_target_alone_means_might_and_no_weapon() -> None:
    assert pick_attack(OPTIONS, "2", None, None) == Action("attack", {"target": 2,
                                                                      "trait": "might"})


def test_a_typed_name_a_trait_and_a_weapon() -> None:
    assert pick_attack(OPTIONS, "ox", "might", "axe").args["weapon"] == "axe"
    assert pick_attack(OPTIONS, "Ox Bellows", "sanity", None).args["trait"] == "sanity"
    assert pick_attack(OPTIONS, "m5", None, "revolver").args["ranged"] == 1


@pytest.mark.parametrize(("target", "trait", "weapon", "says"), [
    ("Zoe", None, None, "In reach: Ox Bellows, Rat 3, Rat 5"),
    ("2", "knowledge", None, "isn't open"),
    ("2", None, "spear", "isn't open"),
])
def test_refusals_say_what_is_open(target: str, trait: str | None, weapon: str | None,
                                   says: str) -> None:
    with pytest.raises(IllegalAction, match=says):
        pick_attack(OPTIONS, target, trait, weapon)


def test_no_attack_open() -> None:
    with pytest.raises(IllegalAction, match="only in the haunt"):
        pick_attack([], "2", None, None)
