"""Checks for data/betrayal/omens.yaml and data/betrayal/items.yaml.

The names are those seed 003 prints (English, beside the Chinese); the step vocabulary
is the one data/betrayal/README.md defines.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
import yaml

from tests.betrayal_vocabulary import SNAKE, TRAITS, check_int, check_steps, snake_of

DATA = Path(__file__).resolve().parent.parent / "data" / "betrayal"

# Seed 003, lines 322-381 (omens) and 382-512 (items). The seed prints a typographic
# apostrophe in Rabbit's Foot; we write it with a plain one.
OMEN_NAMES = [
    "Bite",
    "Book",
    "Crystal Ball",
    "Dog",
    "Girl",
    "Holy Symbol",
    "Madman",
    "Mask",
    "Medallion",
    "Ring",
    "Skull",
    "Spear",
    "Spirit Board",
]
ITEM_NAMES = [
    "Adrenaline Shot",
    "Amulet of the Ages",
    "Angel Feather",
    "Armor",
    "Axe",
    "Bell",
    "Blood Dagger",
    "Bottle",
    "Candle",
    "Druidic Charm",
    "Dynamite",
    "Healing Salve",
    "Lucky Stone",
    "Medical Kit",
    "Mystic Coin",
    "Puzzle Box",
    "Rabbit's Foot",
    "Revolver",
    "Rope",
    "Skeleton Key",
    "Smelling Salts",
    "Toy Monkey",
]
COMPANIONS = {"Dog", "Girl", "Madman"}
WEAPONS = {"Spear", "Axe", "Blood Dagger", "Revolver"}
HAUNT_ONLY = {"Bell", "Bottle", "Dynamite"}

CARD_KEYS = {
    "key", "name", "text", "keep", "companion", "weapon", "haunt_only",
    "on_gain", "on_lose", "on_draw", "use", "modifiers", "lasting", "custom",
    "designed", "note", "tradeable",
}
STEP_LISTS = ("on_gain", "on_lose", "on_draw", "use")


def _load(name: str, top: str) -> list[dict]:
    with open(DATA / name, encoding="utf-8") as fh:
        doc = yaml.safe_load(fh)
    assert isinstance(doc, dict) and set(doc) == {top}, f"{name}: one top key, {top!r}"
    cards = doc[top]
    assert isinstance(cards, list)
    return cards


OMENS = _load("omens.yaml", "omens")
ITEMS = _load("items.yaml", "items")
ALL = OMENS + ITEMS
BY_NAME = {c["name"]: c for c in ALL}


def check_modifier(mod, where: str) -> None:
    assert isinstance(mod, dict), where
    # YAML 1.1 reads a bare `on:` key as the boolean True: it must be written "on".
    assert True not in mod, f'{where}: write the key as "on" (quoted); bare on: loads as True'
    on = mod.get("on")
    if on in ("trait_roll", "event_roll", "attack") and "dice" in mod:
        assert set(mod) == {"on", "traits", "dice"}, where
        assert mod["traits"] and all(t in TRAITS for t in mod["traits"]), where
        assert isinstance(mod["dice"], int) and mod["dice"] != 0, where
    elif on == "trait_roll" and "reroll" in mod:
        assert mod == {"on": "trait_roll", "reroll": "blanks"}, where
    elif on == "damage":
        assert set(mod) == {"on", "kind", "reduce"}, where
        assert mod["kind"] in {"physical", "mental", "general"}, where
        check_int(mod["reduce"], where, 1)
    else:
        pytest.fail(f"{where}: not a modifier of README.md: {mod!r}")


# ---- the decks ----

def test_omen_names_are_exactly_seed_003s():
    names = [c["name"] for c in OMENS]
    assert len(names) == 13
    assert Counter(names) == Counter(OMEN_NAMES)


def test_item_names_are_exactly_seed_003s():
    names = [c["name"] for c in ITEMS]
    assert len(names) == 22
    assert Counter(names) == Counter(ITEM_NAMES)


def test_keys_unique_snake_case_of_name():
    keys = [c["key"] for c in ALL]
    assert len(keys) == len(set(keys))
    for c in ALL:
        assert SNAKE.match(c["key"]), c["key"]
        assert c["key"] == snake_of(c["name"]), c["name"]


@pytest.mark.parametrize("card", ALL, ids=lambda c: c.get("key", "?"))
def test_card_shape(card):
    assert set(card) <= CARD_KEYS, f"unknown fields: {set(card) - CARD_KEYS}"
    for flag in ("keep", "companion", "weapon", "haunt_only", "designed"):
        assert isinstance(card.get(flag), bool), f"{card['key']}.{flag} must be true/false"
    text = card["text"]
    assert isinstance(text, str) and text.strip(), card["key"]
    assert len(text) <= 300, f"{card['key']}: text is {len(text)} characters"
    assert not re.search(r"[\u3400-\u9fff]", text), "texts are in English"
    if card["designed"]:
        assert isinstance(card.get("note"), str) and card["note"].strip(), \
            f"{card['key']}: designed content needs a note"
    else:
        assert "note" not in card, f"{card['key']}: a note explains designed content"


@pytest.mark.parametrize("card", ALL, ids=lambda c: c.get("key", "?"))
def test_steps_use_only_the_readme_vocabulary(card):
    for field in STEP_LISTS:
        if field in card:
            assert card[field], f"{card['key']}.{field}: leave out empty lists"
            check_steps(card[field], f"{card['key']}.{field}")
    for i, mod in enumerate(card.get("modifiers", [])):
        check_modifier(mod, f"{card['key']}.modifiers[{i}]")
    if "custom" in card:
        assert isinstance(card["custom"], str) and SNAKE.match(card["custom"])


def test_companions_are_dog_girl_madman():
    assert {c["name"] for c in ALL if c["companion"]} == COMPANIONS
    for name in COMPANIONS:
        assert BY_NAME[name]["keep"] is True


def test_weapons_and_haunt_only():
    assert {c["name"] for c in ALL if c["weapon"]} == WEAPONS
    assert {c["name"] for c in ALL if c["haunt_only"]} == HAUNT_ONLY
    for name in WEAPONS:
        mods = BY_NAME[name].get("modifiers", [])
        assert any(m.get("on") == "attack" for m in mods), name


def test_bite_is_not_kept_and_attacks_on_draw():
    bite = BY_NAME["Bite"]
    assert bite["keep"] is False
    assert bite["on_draw"] == [{"attack": {"trait": "might", "dice": 4}}]
    assert [c["name"] for c in ALL if not c["keep"]] == ["Bite"]
    assert all("on_draw" not in c for c in ALL if c["name"] != "Bite")


def _pure(steps):
    return steps and all(
        len(s) == 1 and next(iter(s)) in ("gain", "lose") and "trait" in next(iter(s.values()))
        for s in steps
    )


def _as_changes(steps, flip=False):
    out = Counter()
    for s in steps:
        (kind, arg), = s.items()
        sign = 1 if kind == "gain" else -1
        out[arg["trait"]] += -sign * arg["amount"] if flip else sign * arg["amount"]
    return out


# Seed 003 prints one card whose loss is not the mirror of its gain.
NOT_MIRRORED = {"amulet_of_the_ages"}


@pytest.mark.parametrize("card", ALL, ids=lambda c: c.get("key", "?"))
def test_on_gain_and_on_lose_mirror(card):
    gain, lose = card.get("on_gain"), card.get("on_lose")
    if not (_pure(gain) and _pure(lose)):
        return
    if card["key"] in NOT_MIRRORED:
        return
    assert _as_changes(gain) == _as_changes(lose, flip=True), card["key"]


def test_trait_cards_have_both_sides():
    # a card that changes traits when gained gives them back when lost
    for c in ALL:
        if "on_gain" in c:
            assert "on_lose" in c, c["key"]


def test_amulet_gains_one_loses_three():
    amulet = BY_NAME["Amulet of the Ages"]
    assert _as_changes(amulet["on_gain"]) == Counter({t: 1 for t in TRAITS})
    assert _as_changes(amulet["on_lose"]) == Counter({t: -3 for t in TRAITS})


def test_seed_numbers_on_key_cards():
    assert BY_NAME["Book"]["on_gain"] == [{"gain": {"trait": "knowledge", "amount": 2}}]
    assert BY_NAME["Holy Symbol"]["on_gain"] == [{"gain": {"trait": "sanity", "amount": 2}}]
    assert _as_changes(BY_NAME["Madman"]["on_gain"]) == Counter({"might": 2, "sanity": -1})
    assert {"on": "attack", "traits": ["might"], "dice": 2} in BY_NAME["Spear"]["modifiers"]
    assert {"on": "attack", "traits": ["might"], "dice": 1} in BY_NAME["Axe"]["modifiers"]
    assert {"on": "attack", "traits": ["might"], "dice": 3} in BY_NAME["Blood Dagger"]["modifiers"]
    assert {"on": "attack", "traits": ["speed"], "dice": 1} in BY_NAME["Revolver"]["modifiers"]
    assert {"on": "damage", "kind": "physical", "reduce": 1} in BY_NAME["Armor"]["modifiers"]
    candle = BY_NAME["Candle"]["modifiers"][0]
    assert candle["on"] == "event_roll" and candle["dice"] == 1 and set(candle["traits"]) == TRAITS
    crystal = BY_NAME["Crystal Ball"]["use"][0]["roll"]
    assert crystal["trait"] == "knowledge" and crystal["outcomes"][0]["min"] == 4
    bottle = BY_NAME["Bottle"]["use"][0]["roll"]
    assert bottle["dice"] == 3 and len(bottle["outcomes"]) == 7


def test_roll_outcomes_cover_every_result():
    """Every possible total of a roll lands in exactly one outcome (trait rolls up to 16)."""
    def walk(steps, where):
        for s in steps:
            (kind, arg), = s.items()
            if kind != "roll":
                continue
            top = 2 * arg["dice"] if "dice" in arg else 16
            for total in range(top + 1):
                hits = [o for o in arg["outcomes"]
                        if o.get("min", 0) <= total <= o.get("max", 10**6)]
                assert len(hits) == 1, f"{where}: total {total} matches {len(hits)} outcomes"
            for o in arg["outcomes"]:
                walk(o["do"], where)

    for c in ALL:
        for field in STEP_LISTS:
            walk(c.get(field, []), f"{c['key']}.{field}")


def test_custom_handler_names_are_unique_per_meaning():
    """A card-level handler is named after its card unless it is shared on purpose."""
    shared = {"bell_book_candle"}
    for c in ALL:
        h = c.get("custom")
        if h and h not in shared:
            assert h == c["key"], f"{c['key']}: card-level handler {h!r}"
