"""Betrayal engine: helpers the other test_betrayal_engine_* files share, and the
checks that the engine's own plumbing (content, texts, custom handlers) is complete.

Tests arrange houses by hand (`put`), script the dice (`dice`) and drive the engine
through GAME.apply only, so they exercise exactly what a player can do.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.core.actions import Action
from bot.core.events import Event
from bot.games.base import PlayerInfo
from bot.games.betrayal import GAME, content, damage_split
from bot.games.betrayal.cards import HANDLERS, PASSIVES, handled
from bot.games.betrayal.state import BetrayalState, Tile

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "bot" / "games" / "betrayal"
DATA = ROOT / "data" / "betrayal"
# Three explorers of three different cards, birthdays Oct 18, Feb 14, Sep 3: with
# today = Oct 1 (the default here) Ox plays first.
TRIO = ["ox_bellows", "missy_dubourde", "peter_akimoto"]
OX, MISSY, PETER = 0, 1, 2


def new_game(explorers: list[str] | None = None, today: str = "10-01", seed: int = 5,
             players: int | None = None) -> BetrayalState:
    keys = TRIO if explorers is None else explorers
    count = players or len(keys)
    state, _ = GAME.setup([PlayerInfo(f"P{i}") for i in range(count)], seed,
                          {"explorers": keys, "today": today})
    return state


def put(state: BetrayalState, room: str, floor: str, x: int, y: int, rotation: int = 0) -> int:
    """Place a tile by hand (taking it out of the stack) and return its id."""
    for pile in (state.stack, state.room_discard):
        if room in pile:
            pile.remove(room)
    state.tiles.append(Tile(room, floor, x, y, rotation))
    return len(state.tiles) - 1


def tile(state: BetrayalState, room: str) -> int:
    found = state.tile_of(room)
    assert found is not None, room
    return found


def at(state: BetrayalState, seat: int, room: str, side: str | None = None) -> None:
    state.explorers[seat].tile = tile(state, room)
    state.explorers[seat].side = side


def stack_top(state: BetrayalState, *rooms: str) -> None:
    """Put these rooms on top of the stack, in this order."""
    for room in rooms:
        for pile in (state.stack, state.room_discard):
            if room in pile:
                pile.remove(room)
    state.stack[:0] = list(rooms)


def deck_top(state: BetrayalState, deck: str, *cards: str) -> None:
    for card in cards:
        for pile in (state.decks[deck], state.discards[deck]):
            if card in pile:
                pile.remove(card)
    state.decks[deck][:0] = list(cards)


def hold(state: BetrayalState, seat: int, *cards: str) -> None:
    """Hand cards to an explorer without running their on_gain (a test's setup)."""
    for card in cards:
        deck = content.card(card).deck
        for pile in (state.decks[deck], state.discards[deck]):
            if card in pile:
                pile.remove(card)
        state.explorers[seat].cards.append(card)


def apply(state: BetrayalState, kind: str, seat: int | None = None,
          **args: Any) -> tuple[BetrayalState, list[str]]:
    seat = GAME.to_act(state) if seat is None else seat
    assert seat is not None
    new, events = GAME.apply(state, seat, Action(kind, args))
    return new, [e.text for e in events]


def choose(state: BetrayalState, pick: int | str) -> tuple[BetrayalState, list[str]]:
    """Answer the pending choice by index, or by the first label containing `pick`."""
    assert state.pending is not None, "nothing to choose"
    if isinstance(pick, str):
        pick = next(i for i, label in enumerate(state.pending.labels) if pick in label)
    return apply(state, "choose", pick=pick)


def landing_split(state: BetrayalState) -> int:
    """The pending damage split's first option that loses no point (each trait takes at
    most what it can lose): the first trait filled first, then the next."""
    assert state.pending is not None and state.pending.kind == "damage_split"
    spec = state.script[-1].steps[0]["_damage"]
    seat = state.pending.seat
    return next(i for i, raw in enumerate(spec["choices"])
                if all(int(p) <= damage_split.room(state, seat, str(t))
                       for t, p in raw["parts"]))


def labels(state: BetrayalState, seat: int | None = None) -> list[str]:
    seat = GAME.to_act(state) if seat is None else seat
    return [o.label for o in GAME.options(state, seat)]


def value(state: BetrayalState, seat: int, trait: str) -> int:
    from bot.games.betrayal import traits

    return traits.value(state, seat, trait)


def script_dice(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Script the dice: append faces; each die rolled takes the next one (a roll of N
    dice takes N faces), the explorers' rolls and the haunt's (monsters, fights) alike.
    Unscripted dice fall back to the seeded Rng."""
    from bot.games.betrayal import dice as betrayal_dice
    from bot.games.betrayal import rolls
    from bot.games.betrayal.haunting import combat, monsters

    queue: list[int] = []
    real = betrayal_dice.roll_betrayal

    def scripted(rng: Any, count: int, cap: int = 8) -> list[int]:
        n = min(max(1, count), cap)
        if len(queue) >= n:
            taken = queue[:n]
            del queue[:n]
            return taken
        return real(rng, count, cap)

    for module in (betrayal_dice, rolls, combat, monsters):
        monkeypatch.setattr(module, "roll_betrayal", scripted)
    return queue


@pytest.fixture
def dice(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The scripted dice (script_dice) for one test."""
    yield script_dice(monkeypatch)


def same(a: BetrayalState, b: BetrayalState) -> bool:
    return json.dumps(a.to_dict(), sort_keys=True) == json.dumps(b.to_dict(), sort_keys=True)


def texts(events: list[Event]) -> list[str]:
    return [e.text for e in events]


# ---------------------------------------------------------------- plumbing checks

def _custom_names() -> dict[str, list[str]]:
    """Every `custom:` name in data/betrayal/*.yaml -> where it appears."""
    found: dict[str, list[str]] = {}

    def walk(node: Any, where: str) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if k == "custom" and isinstance(v, str):
                    found.setdefault(v, []).append(where)
                walk(v, where)
        elif isinstance(node, list):
            for item in node:
                walk(item, f"{where}/{item.get('key', '')}" if isinstance(item, dict)
                     and "key" in item else where)

    for path in sorted(DATA.glob("*.yaml")):
        walk(yaml.safe_load(path.read_text(encoding="utf-8")), path.stem)
    return found


def test_custom_handlers_listed() -> None:
    """Every `custom:` name in the content, and whether the engine has a handler for it.
    The missing ones are printed (pytest -s) and listed in the report; they are card
    effects for the content engineers, and the engine says so when they come up."""
    names = _custom_names()
    missing = sorted(n for n in names if not handled(n))
    present = sorted(n for n in names if handled(n))
    print(f"\n{len(present)} custom names handled: {', '.join(present)}")
    print(f"{len(missing)} custom names without a handler: {', '.join(missing)}")
    # The ones the exploration engine owns must all be there.
    engine_owned = {
        "grand_staircase_link", "basement_stairs_link", "coal_chute", "collapsed_room",
        "collapsed_room_fall", "gallery", "mystic_elevator", "underground_lake", "vault",
        "catacombs", "chasm", "tower", "discard_self", "remove_token", "may_decline",
        "rope", "skull", "medallion", "skeleton_key", "angel_feather", "adrenaline_shot",
        "lucky_stone", "rabbits_foot", "it_is_meant_to_be", "a_moment_of_hope",
        "drip_drip_drip", "smoke", "secret_passage", "secret_stairs", "closet_door",
        "locked_safe", "skeletons", "mystic_slide", "revolving_wall",
    }
    assert engine_owned <= set(HANDLERS) | set(PASSIVES)
    assert engine_owned <= set(names), engine_owned - set(names)


def test_every_text_key_exists() -> None:
    """Every literal `say("section.key")` in the engine is in texts.yaml; the haunt
    engine's own `say`/`tell` keys (haunting/) are in haunt_texts.yaml."""
    texts_yaml = yaml.safe_load((DATA / "texts.yaml").read_text(encoding="utf-8"))
    haunt_yaml = yaml.safe_load((DATA / "haunt_texts.yaml").read_text(encoding="utf-8"))
    pattern = re.compile(
        r"""(?<![.\w])(?:say|tell|betrayal_line|haunt_line)\(\s*(?:ctx,\s*)?"([a-z_]+)\.([a-z_]+)\"""")
    method = re.compile(r"""\.(?:say|betrayal_line)\(\s*"([a-z_]+)\.([a-z_]+)\"""")
    missing = []
    found = 0
    for path in ENGINE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        own = haunt_yaml if "haunting" in path.parts else texts_yaml
        found += len(pattern.findall(text))
        for section, key in pattern.findall(text):
            if key not in own.get(section, {}):
                missing.append(f"{section}.{key} ({path.name})")
        for section, key in method.findall(text):
            if key not in texts_yaml.get(section, {}):
                missing.append(f"{section}.{key} ({path.name})")
    assert not missing, missing
    assert found > 80  # the engine's lines are found at all


def _engine_text_keys() -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """Every string literal of the engine that is a texts.yaml key ("events.duel"), and
    the literal start of every f-string key ("labels.meant_"), with the file it is in."""
    import ast

    sections = "|".join(yaml.safe_load((DATA / "texts.yaml").read_text(encoding="utf-8")))
    whole = re.compile(rf"^({sections})\.[A-Za-z_]+$")
    start = re.compile(rf"^({sections})\.")
    literals, prefixes = [], []
    for path in sorted(ENGINE.rglob("*.py")):
        if "haunting" in path.parts:
            continue  # its lines are in haunt_texts.yaml (test_every_text_key_exists)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        in_fstring: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.JoinedStr):
                in_fstring |= {id(v) for v in node.values}
                first = node.values[0] if node.values else None
                if isinstance(first, ast.Constant) and start.match(str(first.value)):
                    prefixes.append((str(first.value), path.name))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and id(node) not in in_fstring and whole.match(node.value):
                literals.append((node.value, path.name))
    return literals, prefixes


def _has_text(key: str) -> bool:
    try:
        content._template(key)
    except KeyError:
        return False
    return True


def test_every_line_key_of_the_engine_is_in_texts_yaml() -> None:
    """texts.yaml is the only source of player-facing lines: every key the engine and
    its card handlers name (say, ctx.say, a `_say` step's key, a message passed on) is
    there, and every family of keys built with an f-string has all its members."""
    from bot.games.betrayal import actions
    from bot.games.betrayal.cards import rolls
    from bot.games.betrayal.content import DECKS, FLOORS
    from bot.games.betrayal.house import DIRS

    literals, prefixes = _engine_text_keys()
    assert len(literals) > 250  # the scan does find them
    missing = sorted({f"{key} ({where})" for key, where in literals if not _has_text(key)})
    assert not missing, missing
    texts_yaml = yaml.safe_load((DATA / "texts.yaml").read_text(encoding="utf-8"))
    flat = {f"{s}.{k}" for s, keys in texts_yaml.items() for k in keys}
    loose = sorted({f"{p} ({where})" for p, where in prefixes
                    if not any(k.startswith(p) for k in flat)})
    assert not loose, loose
    families = [
        *(f"labels.meant_{s}" for s in (*rolls.PEEK_SOURCES, "roll", "use")),
        *(f"piles.{s}" for s in rolls.PEEK_SOURCES),
        *(f"labels.dog_{what}" for what in ("fetch", "carry", "nothing")),
        *(f"events.slide_{how}" for how in ("ride", "land")),
        *(f"events.draw_{deck}" for deck in DECKS),
        *(f"events.{k}{none}" for k in ("gain", "lose") for none in ("", "_none")),
        *(f"dirs.{d}" for d in DIRS), *(f"floors.{f}" for f in FLOORS),
        *(f"groups.{g}" for g in actions.GROUPS.values()),
    ]
    assert not [k for k in families if not _has_text(k)]


def test_no_fallback_lines_in_the_engine() -> None:
    """No module keeps lines of its own for keys texts.yaml lacks (the old LINES / TEXTS
    tables), and content.betrayal_line is the only reader of the templates."""
    import ast

    tables = {"LINES", "TEXTS", "PROPOSED"}
    helpers = {"line", "tell", "propose"}
    found = []
    for path in sorted(ENGINE.rglob("*.py")):
        if "haunting" in path.parts:
            continue  # its lines are in haunt_texts.yaml (test_every_text_key_exists)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            targets = node.targets if isinstance(node, ast.Assign) else \
                [node.target] if isinstance(node, ast.AnnAssign) else []
            found += [f"{path.name}: {t.id}" for t in targets
                      if isinstance(t, ast.Name) and t.id in tables]
            if isinstance(node, ast.FunctionDef) and node.name in helpers:
                found.append(f"{path.name}: def {node.name}")
    assert not found, found
    assert not hasattr(content, "text")
    with pytest.raises(KeyError):
        content.betrayal_line("events.no_such_line")


def test_link_kinds_have_texts() -> None:
    texts_yaml = yaml.safe_load((DATA / "texts.yaml").read_text(encoding="utf-8"))
    kinds = {"stairs_up", "stairs_down", "hidden_stairs_down", "hidden_stairs_up", "chute",
             "rope_chute", "rope_up", "rope_down", "gallery_jump", "collapsed_jump",
             "secret_passage", "secret_stairs"}
    assert kinds <= set(texts_yaml["links"]) and kinds <= set(texts_yaml["link_labels"])


def test_content_is_complete() -> None:
    """The classic game's content (data/betrayal/; an expansion's folder adds its own)."""
    c = content.get()
    classic = {k: r for k, r in c.rooms.items() if not r.edition}
    assert len(c.explorers) == 12
    assert len(classic) == 47 and len(c.discoverable("classic")) == 42
    assert [len(c.deck(d, "classic")) for d in ("omen", "item", "event")] == [13, 22, 45]
    assert sum(1 for r in classic.values() if r.symbol == "omen") == 13


def test_rules_topics() -> None:
    topics = GAME.rules_topics()
    for topic in ("overview", "setup", "turn", "move", "explore", "closing_a_floor",
                  "traits", "rolls", "items", "rooms", "haunt", "rulings"):
        assert topics.get(topic), topic
