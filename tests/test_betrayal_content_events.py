"""Checks for data/betrayal/events.yaml.

The names are the 45 English names seed 003 prints beside the Chinese (lines 627-902);
the step vocabulary is the one data/betrayal/README.md defines.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
import yaml

from tests.betrayal_vocabulary import SNAKE, TRAITS, check_step, snake_of, walk

DATA = Path(__file__).resolve().parent.parent / "data" / "betrayal"

# Seed 003, in its order. It prints a typographic apostrophe and ellipses; we write them
# plainly. It prints "Image in the Mirror" twice (its two cards, forward and reversed).
EVENT_NAMES = [
    "A Moment of Hope",
    "Angry Being",
    "Bloody Vision",
    "Burning Man",
    "Closet Door",
    "Creepy Crawlies",
    "Creepy Puppet",
    "Debris",
    "Disquieting Sounds",
    "Drip...Drip...Drip...",
    "Footsteps",
    "Funeral",
    "Grave Dirt",
    "Groundskeeper",
    "Hanged Men",
    "Hideous Shriek",
    "Image in the Mirror",
    "Image in the Mirror",
    "It is meant to be",
    "Jonah's Turn",
    "Lights Out",
    "Locked Safe",
    "Mists from the Walls",
    "Mystic Slide",
    "Night View",
    "Phone Call",
    "Possession",
    "Revolving Wall",
    "Rotten",
    "Secret Passage",
    "Secret Stairs",
    "Shrieking Wind",
    "Silence",
    "Skeletons",
    "Smoke",
    "Something Hidden",
    "Something Slimy",
    "Spider",
    "The Beckoning",
    "The Lost One",
    "The Voice",
    "The Walls",
    "Webs",
    "What the...?",
    "Whoops!",
]
# Strange Dust and Say Cheese belong to a later edition (shared/RULES.md): not ours.
NOT_OURS = {"Strange Dust", "Say Cheese"}
MIRROR_KEYS = {"image_in_the_mirror_forward", "image_in_the_mirror_reversed"}

LASTING = {"debris", "grave_dirt", "lights_out", "webs"}
TOKENS = {  # card key -> the token its on_draw puts in the room
    "a_moment_of_hope": "blessing",
    "closet_door": "closet",
    "drip_drip_drip": "drip",
    "locked_safe": "safe",
    "mystic_slide": "slide",
    "secret_passage": "secret_passage",
    "secret_stairs": "secret_stairs",
    "skeletons": "skeletons",
    "smoke": "smoke",
}
TOKEN_USE = {"closet_door", "locked_safe", "mystic_slide", "revolving_wall", "skeletons"}
DESIGNED = {
    "bloody_vision", "debris", "footsteps", "groundskeeper", "mystic_slide", "possession",
    "revolving_wall", "rotten", "shrieking_wind", "the_beckoning", "the_walls", "webs",
    "what_the",
}

# Every handler the file names; the engine implements each (see the list in the report).
CARD_HANDLERS = {  # card-level: what stays after the draw (a lasting card, a token)
    "a_moment_of_hope", "closet_door", "debris", "drip_drip_drip", "grave_dirt",
    "lights_out", "locked_safe", "mystic_slide", "revolving_wall", "secret_passage",
    "secret_stairs", "skeletons", "smoke", "webs",
}
STEP_HANDLERS = {  # steps run in order with the others
    "bloody_vision_attack", "creepy_puppet_spear", "disquieting_sounds", "footsteps",
    "funeral_move", "groundskeeper_gardens", "hanged_men_bonus", "hideous_shriek",
    "image_in_the_mirror_pass", "image_in_the_mirror_send", "it_is_meant_to_be",
    "jonahs_turn", "may_decline", "mists_from_the_walls", "mystic_slide_fall",
    "mystic_slide_pass", "mystic_slide_ride", "possession", "remove_token",
    "revolving_wall_pass", "revolving_wall_place", "rotten", "secret_passage_any",
    "secret_passage_basement", "secret_passage_ground", "secret_passage_upper",
    "secret_stairs_climb", "secret_stairs_other_end", "shrieking_wind", "silence",
    "spider", "the_beckoning", "the_lost_one_basement", "the_lost_one_upper",
    "the_walls", "what_the", "whoops",
}

CARD_KEYS = {"key", "name", "text", "keep", "on_draw", "use", "lasting", "custom",
             "designed", "note", "does_damage"}
# Seed 003, "Haunt": the traitor is not affected by a roll or card that does no damage
# (奸徒與怪物是完全不受一切不會引致損傷的考驗/卡片影響). The cards whose damage (or attack)
# lies in a handler, where the steps cannot show it; every other card's `does_damage`
# must agree with its steps.
DAMAGE_IN_HANDLER = {"bloody_vision", "disquieting_sounds", "grave_dirt", "hideous_shriek",
                     "jonahs_turn", "mists_from_the_walls", "shrieking_wind", "silence",
                     "spider", "the_beckoning"}
STEP_LISTS = ("on_draw", "use")
TRAIT_ROLL_TOP = 16  # 8 dice at most, faces 0 0 1 1 2 2


def _load() -> list[dict]:
    with open(DATA / "events.yaml", encoding="utf-8") as fh:
        doc = yaml.safe_load(fh)
    assert isinstance(doc, dict) and set(doc) == {"events"}, "one top key, 'events'"
    assert isinstance(doc["events"], list)
    return doc["events"]


EVENTS = _load()
BY_KEY = {c["key"]: c for c in EVENTS}


def all_steps(card):
    for field in STEP_LISTS:
        if field in card:
            yield from walk(card[field], f"{card['key']}.{field}")


# ---- the deck ----

def test_exactly_the_45_events_of_seed_003():
    names = [c["name"] for c in EVENTS]
    assert len(EVENTS) == 45
    assert Counter(names) == Counter(EVENT_NAMES)
    assert not NOT_OURS & set(names)


def test_keys_unique_snake_case_of_name():
    keys = [c["key"] for c in EVENTS]
    assert len(keys) == len(set(keys))
    for c in EVENTS:
        assert SNAKE.match(c["key"]), c["key"]
        if c["name"] == "Image in the Mirror":
            assert c["key"] in MIRROR_KEYS, c["key"]
        else:
            assert c["key"] == snake_of(c["name"]), c["name"]
    assert set(keys) >= MIRROR_KEYS


@pytest.mark.parametrize("card", EVENTS, ids=lambda c: c.get("key", "?"))
def test_card_shape(card):
    assert set(card) <= CARD_KEYS, f"unknown fields: {set(card) - CARD_KEYS}"
    assert card["keep"] is False, f"{card['key']}: events are never kept"
    assert isinstance(card["lasting"], bool) and isinstance(card["designed"], bool)
    text = card["text"]
    assert isinstance(text, str) and text.strip(), card["key"]
    assert len(text) <= 300, f"{card['key']}: text is {len(text)} characters"
    assert not re.search(r"[\u3400-\u9fff]", text), "texts are in English"
    assert card.get("on_draw"), f"{card['key']}: every event does something when drawn"
    if card["designed"]:
        assert isinstance(card.get("note"), str) and card["note"].strip(), \
            f"{card['key']}: designed content needs a note"
    else:
        assert "note" not in card, f"{card['key']}: a note explains designed content"
    if "custom" in card:
        assert card["custom"] == card["key"], f"{card['key']}: card-level handler is named after it"


@pytest.mark.parametrize("card", EVENTS, ids=lambda c: c.get("key", "?"))
def test_steps_use_only_the_readme_vocabulary(card):
    for field in STEP_LISTS:
        if field in card:
            assert card[field], f"{card['key']}.{field}: leave out empty lists"
    for w, kind, arg in all_steps(card):
        check_step(w, kind, arg)


@pytest.mark.parametrize("card", EVENTS, ids=lambda c: c.get("key", "?"))
def test_roll_outcomes_cover_every_total_once(card):
    for w, kind, arg in all_steps(card):
        if kind != "roll":
            continue
        top = 2 * arg["dice"] if "dice" in arg else TRAIT_ROLL_TOP
        for total in range(top + 1):
            hits = [o for o in arg["outcomes"] if o.get("min", 0) <= total <= o.get("max", 10**6)]
            assert len(hits) == 1, f"{w}: total {total} matches {len(hits)} outcomes"
        for o in arg["outcomes"]:  # no band that no total can reach
            assert o.get("min", 0) <= top, f"{w}: a band starts above {top}"


@pytest.mark.parametrize("card", EVENTS, ids=lambda c: c.get("key", "?"))
def test_does_damage_agrees_with_the_steps(card):
    assert isinstance(card.get("does_damage"), bool), f"{card['key']}: say does_damage"
    hurts = any(kind in ("damage", "attack") for _, kind, _ in all_steps(card))
    assert card["does_damage"] == (hurts or card["key"] in DAMAGE_IN_HANDLER), card["key"]


def test_the_lasting_set():
    assert {c["key"] for c in EVENTS if c["lasting"]} == LASTING
    for c in EVENTS:
        has_step = any(kind == "lasting" for _, kind, _ in all_steps(c))
        assert has_step == c["lasting"], f"{c['key']}: lasting flag and lasting step disagree"
        if c["lasting"]:
            assert c.get("custom") == c["key"], f"{c['key']}: its ongoing part needs a handler"


def test_token_cards():
    placed = {}
    for c in EVENTS:
        for _, kind, arg in all_steps(c):
            if kind == "token":
                placed[c["key"]] = arg["kind"]
                assert arg["place"] == "here", c["key"]
    assert placed == TOKENS
    for key in TOKENS:
        assert BY_KEY[key].get("custom") == key, f"{key}: its token needs a handler"
    assert {c["key"] for c in EVENTS if "use" in c} == TOKEN_USE


def test_designed_set():
    assert {c["key"] for c in EVENTS if c["designed"]} == DESIGNED


def test_handlers_are_the_listed_ones():
    card_level = {c["custom"] for c in EVENTS if "custom" in c}
    steps = {arg for c in EVENTS for _, kind, arg in all_steps(c) if kind == "custom"}
    assert card_level == CARD_HANDLERS
    assert steps == STEP_HANDLERS


def _roll(key, index=0):
    return BY_KEY[key]["on_draw"][index]["roll"]


def _band(roll, total):
    (hit,) = [o for o in roll["outcomes"] if o.get("min", 0) <= total <= o.get("max", 10**6)]
    return hit["do"]


def test_seed_numbers_on_some_cards():
    angry = _roll("angry_being")
    assert angry["trait"] == "speed"
    assert _band(angry, 5) == [{"gain": {"trait": "speed", "amount": 1}}]
    assert _band(angry, 2) == _band(angry, 4) == [{"damage": {"kind": "mental", "dice": 1}}]
    assert _band(angry, 0) == [{"damage": {"kind": "mental", "dice": 1}},
                               {"damage": {"kind": "physical", "dice": 1}}]
    crawl = _roll("creepy_crawlies")
    assert _band(crawl, 0) == [{"lose": {"trait": "sanity", "amount": 2}}]
    assert _band(crawl, 4) == [{"lose": {"trait": "sanity", "amount": 1}}]
    debris = _roll("debris")
    assert debris["trait"] == "speed" and _band(debris, 3)[0]["gain"]["trait"] == "speed"
    assert _band(debris, 0) == [{"damage": {"kind": "physical", "dice": 2}}, {"lasting": {}}]
    assert _band(_roll("webs"), 3) == [{"lasting": {}}] == _band(_roll("grave_dirt"), 3)
    assert BY_KEY["lights_out"]["on_draw"] == [{"lasting": {}}]
    assert BY_KEY["creepy_puppet"]["on_draw"][0] == {"attack": {"trait": "might", "dice": 4}}
    phone = _roll("phone_call")
    assert phone["dice"] == 2 and _band(phone, 0) == [{"damage": {"kind": "physical", "dice": 2}}]
    passage = _roll("secret_passage", 1)
    assert passage["dice"] == 3 and _band(passage, 6) == [{"custom": "secret_passage_any"}]
    lost = _band(_roll("the_lost_one"), 4)[0]["roll"]
    assert _band(lost, 6) == [{"move": {"to": "entrance_hall"}}]
    assert _band(lost, 4) == [{"move": {"to": "upper_landing"}}]
    safe = BY_KEY["locked_safe"]["use"][0]["roll"]
    assert safe["trait"] == "knowledge"
    assert _band(safe, 5)[0] == {"draw": {"deck": "item", "count": 2}}
    closet = BY_KEY["closet_door"]["use"][0]["roll"]
    assert closet["dice"] == 2 and _band(closet, 4) == [{"draw": {"deck": "item", "count": 1}}]
    hanged = [s["roll"]["trait"] for s in BY_KEY["hanged_men"]["on_draw"] if "roll" in s]
    assert sorted(hanged) == sorted(TRAITS)
