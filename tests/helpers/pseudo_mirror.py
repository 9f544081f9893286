"""A stand-in translation for tests: a data file's mirror in which every word string
is its English with a mark in front (`MARK`), made by the mirror rules and placed for
the test's run (bot/yaml_files.py's `place_mirror`).

Why not the real zh-TW files: they are being written beside this work, file by file;
a test that reads them would change as they land. A marked English line also keeps
every placeholder and every word a test helper looks for ("your move"), and shows at a
glance which language a message was made in: marked, the table's other language;
unmarked, English."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import yaml

from bot import locales, yaml_files
from bot.locales.missing import STEP_WORDS, STRUCTURAL, is_word

MARK = "譯·"


def pseudo(english: Any) -> Any:
    """The mirror of `english` by the mirror rules, every word marked (None: nothing)."""
    if isinstance(english, dict):
        in_step = "step" in english
        out = {k: pseudo(v) for k, v in english.items()
               if str(k) not in STRUCTURAL and not (in_step and str(k) not in STEP_WORDS)}
        return {k: v for k, v in out.items() if v is not None} or None
    if isinstance(english, list):
        if english and all(isinstance(i, dict) and ("key" in i or "name" in i)
                           for i in english):
            keyed = {locales.item_key(i): pseudo(i) for i in english}
            return {k: v for k, v in keyed.items() if v is not None} or None
        by_place = [pseudo(i) for i in english]  # item by place, a shape kept for each
        return [i if i is not None else ({} if isinstance(e, dict) else e)
                for i, e in zip(by_place, english, strict=True)]
    if isinstance(english, str) and is_word(english):
        return MARK + english
    return None


@contextmanager
def marked(folder: Path, *paths: Traversable,
           language: str = locales.CHINESE) -> Iterator[None]:
    """While inside: each of `paths` reads a marked mirror in `language`, written to
    `folder`; then the real mirrors again."""
    for n, path in enumerate(paths):
        mirror = folder / f"mirror{n}.yaml"
        mirror.write_text(yaml.safe_dump(pseudo(yaml_files.read_english(path)),
                                         allow_unicode=True), encoding="utf-8")
        yaml_files.place_mirror(path, language, mirror)
    try:
        yield
    finally:
        for path in paths:
            yaml_files.place_mirror(path, language, None)
