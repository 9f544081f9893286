"""The languages the bot speaks, and which one the words being made now are in.

English is the source of every line and the default; Traditional Chinese (Discord's
locale "zh-TW") is written beside it, file by file, as a sparse mirror: beside
`data/<path>/<name>.yaml`, `data/<path>/<name>.zh-TW.yaml` holds only the strings
players read, laid out by the mirror rules (`overlay`). What the mirror leaves out is
said in English, so a translation still under way never breaks a line.

Which language a line is made in is not an argument threaded through every `say`: the
words come from the language of the context (`current`, a contextvar set by `speaking`),
so the engines and the content modules stay as they are. The sessions layer plays an
action once in English (the stored truth) and again on a copy under `speaking(lang)`
for each other language its table needs (bot/languages.py); the cogs speak each
interaction's own locale around its handling (cogs/common.py).

A contextvar, not a global: every asyncio task and every worker thread (bot/worker.py
hands its context over) has its own, so two channels in two languages never mix.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from functools import cache, update_wrapper
from typing import Any, Generic, TypeVar

ENGLISH = "en"
CHINESE = "zh-TW"
LANGUAGES: tuple[str, ...] = (ENGLISH, CHINESE)
OTHER_LANGUAGES: tuple[str, ...] = tuple(lang for lang in LANGUAGES if lang != ENGLISH)
SUFFIX = {CHINESE: ".zh-TW.yaml"}  # a data file's mirror, by language
# Languages written with no space between words: a template's space beside a name (kept
# for a name in Latin letters, "ann 加入了牌桌。") goes where the name is in the
# language's own script (bot/texts.py, `fill`).
UNSPACED: frozenset[str] = frozenset({CHINESE})

# Discord's locale values that we speak, as the language we answer them in. Every
# English locale reads our English; Traditional Chinese is zh-TW alone (zh-CN would
# read Simplified characters, which we do not write).
_OF_LOCALE = {"en-US": ENGLISH, "en-GB": ENGLISH, "en": ENGLISH, CHINESE: CHINESE}

_SPEAKING: contextvars.ContextVar[str] = contextvars.ContextVar("hk_language",
                                                                 default=ENGLISH)

T = TypeVar("T")

# What was read in a language and kept: each cache's clear, called by `forget` (a
# test placing a mirror of its own, bot/yaml_files.py's `place_mirror`).
_KEPT: list[Callable[[], None]] = []


def keeps(clear: Callable[[], None]) -> None:
    """Register a cache of words read in some language, for `forget` to clear."""
    _KEPT.append(clear)


def forget() -> None:
    """Every cache of words read in any language, cleared: the next read reads the
    files again."""
    for clear in _KEPT:
        clear()


def current() -> str:
    """The language the words being made now are in."""
    return _SPEAKING.get()


@contextmanager
def speaking(language: str) -> Iterator[str]:
    """Make the words inside in `language` (an unsupported one is English)."""
    token = _SPEAKING.set(language if language in LANGUAGES else ENGLISH)
    try:
        yield current()
    finally:
        _SPEAKING.reset(token)


def speak(language: str) -> None:
    """Make this task's words from now on in `language` (an interaction's own locale,
    set once where it is dispatched; the task ends with the interaction)."""
    _SPEAKING.set(language if language in LANGUAGES else ENGLISH)


def supported(locale: object) -> str | None:
    """The language we speak for a Discord locale ("zh-TW", "en-US"; discord.py's
    `Locale` or its value), None for a locale we do not write."""
    value = getattr(locale, "value", locale)
    return _OF_LOCALE.get(str(value)) if value is not None else None


def language_of(locale: object) -> str:
    """The language for a Discord locale: ours when we speak it, else English."""
    return supported(locale) or ENGLISH


def overlay(english: Any, mirror: Any) -> Any:
    """English data with a language's mirror laid over it, by the rules every mirror
    file follows (docs/translating.md):

    1. a mapping is mirrored by the same keys, only those that carry words;
    2. a list of mappings is mirrored as a mapping keyed by each item's `key` (or, with
       no `key`, its English `name`);
    3. a list of strings is mirrored as a list of the same length, in order;
    4. anything not mirrored, or mirrored in another shape, stays English.

    Only a string replaces a string: a number, flag or key the mirror names by mistake
    keeps its English value, so a translation cannot change a rule."""
    if isinstance(english, dict):
        if not isinstance(mirror, dict):
            return english
        return {k: overlay(v, mirror[k]) if k in mirror else v for k, v in english.items()}
    if isinstance(english, list):
        if isinstance(mirror, dict):
            return [overlay(item, mirror[item_key(item)])
                    if isinstance(item, dict) and item_key(item) in mirror else item
                    for item in english]
        if isinstance(mirror, list) and len(mirror) == len(english):
            return [overlay(a, b) for a, b in zip(english, mirror, strict=True)]
        return english
    if isinstance(english, str) and isinstance(mirror, str):
        return mirror
    return english


def item_key(item: dict[str, Any]) -> str:
    """What a list item is mirrored under: its `key`, else its English `name`."""
    return str(item.get("key", item.get("name")))


class PerLanguage(Generic[T]):
    """A function's results cached per (language, arguments): content built from the
    data files once per language, as `functools.cache` builds it once."""

    def __init__(self, build: Callable[..., T]) -> None:
        self.build = build
        self._cached = cache(self._in)
        update_wrapper(self, build)
        keeps(self._cached.cache_clear)

    def _in(self, language: str, *args: Hashable) -> T:
        with speaking(language):
            return self.build(*args)

    def __call__(self, *args: Hashable) -> T:
        # `current()` inlined: the engines read their content through here a few
        # hundred times an action (bot/worker.py's move).
        return self._cached(_SPEAKING.get(), *args)

    def cache_clear(self) -> None:
        self._cached.cache_clear()

    def cache_info(self) -> Any:
        """functools' count of hits and misses, over every language."""
        return self._cached.cache_info()


def per_language(build: Callable[..., T]) -> PerLanguage[T]:
    """`functools.cache`, one cache per language (see PerLanguage)."""
    return PerLanguage(build)
