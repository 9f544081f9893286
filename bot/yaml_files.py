"""The one way data files are read: YAML through libyaml's C loader when PyYAML was
built with it (about 9 times faster than the pure-Python loader on our data), else
the pure-Python SafeLoader. Both are safe loaders and build the same plain data
(tests/test_yaml_files.py checks it on every file in data/).

A file is read in the language being spoken (bot/locales): its mirror beside it
(`name.zh-TW.yaml`) laid over the English, so every content lookup and every line
comes in that language, English where the mirror says nothing. A mirror is parsed once
per process; a file with none reads as before."""

from __future__ import annotations

from functools import cache
from importlib.resources.abc import Traversable
from typing import Any

import yaml

from bot import locales

LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def parse(text: str, loader: type[yaml.SafeLoader] = LOADER) -> Any:
    """A YAML document as plain data (None for an empty one)."""
    return yaml.load(text, Loader=loader)


def read_english(path: Traversable) -> Any:
    """A YAML file as written, in English (None for an empty one)."""
    return parse(path.read_text(encoding="utf-8"))


# Mirrors kept elsewhere than beside their file: (file, language) -> mirror. Only the
# tests place one (a small fixture, so a test sees the language whatever the translators'
# files hold yet).
PLACED: dict[tuple[str, str], Traversable] = {}


def place_mirror(path: Traversable, language: str, found: Traversable | None) -> None:
    """Read `path`'s mirror in `language` from `found` (None: from beside it again), and
    forget every word read so far."""
    if found is None:
        PLACED.pop((str(path), language), None)
    else:
        PLACED[(str(path), language)] = found
    locales.forget()


def mirror_path(path: Traversable, language: str) -> Traversable | None:
    """Where `path`'s mirror in `language` is or would be (None: English has none)."""
    placed = PLACED.get((str(path), language))
    if placed is not None:
        return placed
    suffix = locales.SUFFIX.get(language)
    name = getattr(path, "name", "")
    if suffix is None or not name.endswith(".yaml"):
        return None
    parent = getattr(path, "parent", None)
    if parent is None:
        return None
    return parent / (name[: -len(".yaml")] + suffix)  # type: ignore[no-any-return]


def mirror(path: Traversable, language: str) -> Any:
    """`path`'s mirror in `language`, parsed once (None: there is none)."""
    # mypy takes a Traversable (a Protocol) for unhashable; every real one hashes.
    return _mirror(path, language)  # type: ignore[arg-type]


@cache
def _mirror(path: Traversable, language: str) -> Any:
    found = mirror_path(path, language)
    if found is None or not found.is_file():
        return None
    return read_english(found)


locales.keeps(_mirror.cache_clear)


def read(path: Traversable) -> Any:
    """A YAML file as plain data (None for an empty one), in the language spoken now."""
    english = read_english(path)
    language = locales.current()
    if language == locales.ENGLISH:
        return english
    words = mirror(path, language)
    return english if words is None else locales.overlay(english, words)


@cache
def _mapping(path: Traversable, language: str) -> dict[str, Any]:
    with locales.speaking(language):
        raw = read(path)
    if not isinstance(raw, dict):
        raise ValueError(f"{path} must hold a mapping")
    return raw


locales.keeps(_mapping.cache_clear)


def mapping(path: Traversable) -> dict[str, Any]:
    """A content file that holds a mapping, in the language spoken now, read once per
    process and language (treat it as read-only: every caller shares it)."""
    # mypy takes a Traversable (a Protocol) for unhashable; every real one hashes.
    return _mapping(path, locales.current())  # type: ignore[arg-type]


def topics(path: Traversable) -> dict[str, str]:
    """A rules file's `/game rules` topics (topic -> text), a new dict each call."""
    return {str(k): str(v).strip() for k, v in mapping(path)["topics"].items()}


def titles(path: Traversable) -> dict[str, str]:
    """A rules file's topic titles (topic -> title): players read titles, never keys."""
    return {str(k): str(v).strip() for k, v in mapping(path).get("titles", {}).items()}
