"""Boards drawn with Chinese labels, for the renderers' tests in both languages.

The renderers draw from the views the engines build (bot/games/*/pictures.py), Cthulhu's
from its state, and look a few words up as they draw (the boards' legends, counts and
titles). `translated` gives a view or state whose labels are Chinese, and
`speak_chinese` makes those look-ups answer in Chinese, whatever the locale machinery
does: the tests then measure what the renderers do with Chinese they are given.

The Chinese is made up, deterministically, and on purpose no shorter than the English:
each English word becomes about 0.6 characters a letter (real translations are denser:
"Grand Staircase" is 大樓梯), of dense characters, with no spaces between them as
Chinese writes. The same English always gives the same Chinese, so names compared
across a view (a card revealed and the card shown) still match.
"""

from __future__ import annotations

import math
import re
import sys
import zlib
from dataclasses import fields, is_dataclass, replace
from typing import Any, TypeVar

import pytest

from bot.games.cthulhu.state import CthulhuState
from renderers import canvas, evilbelow
from renderers.betrayal import board as betrayal_board
from renderers.betrayal import map as betrayal_map
from renderers.betrayal import words as betrayal_words
from renderers.cjk import needs_cjk
from renderers.cthulhu import draw as cthulhu_draw
from renderers.cthulhu import pieces as cthulhu_pieces
from renderers.evilbelow import draw as evil_draw

LANGUAGES = ("en", "zh-TW")
# Dense characters, all in the shipped face.
POOL = ("鬧鬼樓梯廳廚餐舞廢墟藏書閣臺階禮拜堂溫室圖書館陽臺塔頂儲藏櫃壁爐鐘聲鏡龍蠟燭龜匙嚴肅"
        "魔鬱轟襲擊驅護衛戰鬥勝贏輸獵殺靈魂醫療壞嚇響灣議讀聽觀")
WORDS = re.compile(r"[A-Za-z][A-Za-z']*(?:[ -][A-Za-z][A-Za-z']*)*")
# The fields of the views that carry words (every other one is a key, a colour, a
# floor, a door or a letter the layout reserves).
LABELS = frozenset({"name", "player", "header", "footer", "footer_shown", "label", "note",
                    "widest", "progress", "item_pile", "haunt_tokens", "glyph", "drainpipe",
                    "revealed", "roller", "players", "rooms", "characters"})

T = TypeVar("T")


def _word(word: str) -> str:
    letters = sum(ch.isalpha() for ch in word)
    count = 1 if letters <= 1 else math.ceil(letters * 0.6)
    seed = zlib.crc32(word.encode())
    return "".join(POOL[(seed + 7 * i * i + 13 * i) % len(POOL)] for i in range(count))


def zh(text: str) -> str:
    """`text` with every English word made Chinese (numbers and signs kept)."""
    return WORDS.sub(lambda m: "".join(_word(w) for w in re.split(r"[ -]", m.group())),
                     text)


def translated(value: T) -> T:
    """`value` (a view, a Cthulhu state, or parts of them) with its labels in Chinese."""
    return _walk(value, False)


def _walk(value: Any, label: bool) -> Any:
    if isinstance(value, str):
        return zh(value) if label else value
    if isinstance(value, tuple):
        return tuple(_walk(v, label) for v in value)
    if isinstance(value, list):
        return [_walk(v, label) for v in value]
    if isinstance(value, dict):
        return {k: _walk(v, label) for k, v in value.items()}
    if is_dataclass(value) and not isinstance(value, type):
        changes = {f.name: _walk(getattr(value, f.name), f.name in LABELS)
                   for f in fields(value) if f.init}
        if isinstance(value, CthulhuState):
            changes = {k: changes[k] for k in ("players", "rooms", "characters")}
        return replace(value, **changes)
    return value


def speak_chinese(monkeypatch: pytest.MonkeyPatch) -> None:
    """The renderers draw Chinese: the views they build are translated, and the words
    they look up as they draw answer in Chinese."""
    for module, name in ((betrayal_words, "betrayal_line"), (evil_draw, "evil_below_line"),
                         (cthulhu_draw, "cthulhu_line"), (cthulhu_pieces, "cthulhu_line")):
        original = getattr(module, name)
        monkeypatch.setattr(module, name,
                            lambda key, *a, _o=original, **kw: zh(_o(key, *a, **kw)))
    for module, name in ((betrayal_board, "map_view"), (betrayal_map, "map_view"),
                         (evilbelow, "board_view")):
        original = getattr(module, name)
        monkeypatch.setattr(module, name,
                            lambda *a, _o=original, **kw: translated(_o(*a, **kw)))


def forget_drawn_words() -> None:
    """Empty every cache of the renderers: some keep words looked up by a key (a token's
    label by the token's key), which would keep the other language's."""
    canvas.clear_caches()
    for name, module in list(sys.modules.items()):
        if name.startswith("renderers"):
            for value in list(vars(module).values()):
                if not isinstance(value, type) and callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()


def in_language(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch,
                language: str) -> None:
    """`speak_chinese` for "zh-TW", with the renderers' caches emptied before and after;
    nothing for English (the tests' parameter)."""
    if language == "zh-TW":
        forget_drawn_words()
        request.addfinalizer(forget_drawn_words)
        speak_chinese(monkeypatch)


def is_chinese(text: str) -> bool:
    return needs_cjk(text)
