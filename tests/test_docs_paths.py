"""Every file and folder a documentation page names exists, so the pages stay true as
code moves: a module renamed or a folder split breaks this test, not a reader's trust.

A page names a path when it writes `something.py` (or .md, .yaml, .json, .toml)
or `some/folder/`, in backticks, in a link or in plain text. A path with a folder in it
is read from the page's own folder (a Markdown link) or else from the repository's root;
a bare file name (`outlet.py`) must be some file of the repository. Placeholders
(`bot/games/<key>/`, `{a/b/c/d}`), web addresses and absolute paths are not paths of
ours; the project's shared folder beside the checkout (`shared/`, `../shared/`, its
RULES.md and DESIGN.md) is outside the repository and not checked, and `discord.py` is a
library.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted({*ROOT.glob("*.md"), *(ROOT / "docs").glob("*.md"), ROOT / "tests" / "README.md",
                *(ROOT / "data").glob("*/README.md")})
# Where the repository's own files are (not a virtualenv, caches or build output).
TREES = ("bot", "cogs", "renderers", "tests", "bench", "data", "docs", ".ci")
SKIP_PARTS = {"__pycache__", ".pytest_cache", ".hypothesis"}
# The project's shared notes beside the checkout, outside the repository (RULES.md is
# the scope and rulings note docs/rulings.md brings in; DESIGN.md the first design).
OUTSIDE = ("shared/", "../shared/", "RULES.md", "DESIGN.md")
NOT_PATHS = {"discord.py"}  # the library's own name

_EXTENSIONS = r"(?:py|md|yaml|json|toml)"
# A path: segments of letters, digits, _ . - joined by /, ending in a known extension or
# in /. Not preceded by a character that would make it part of something longer (a
# placeholder, an absolute path, a URL), and not followed by one either.
PATH = re.compile(
    r"(?<![\w/.<>{}~@:*-])"
    r"((?:\.\./)*[A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)*"
    rf"(?:\.{_EXTENSIONS}|/))"
    r"(?![\w/<>{}*-])"
)
URL = re.compile(r"[a-z][a-z0-9+.-]*://\S+")


def paths_named(text: str) -> list[str]:
    """The paths a page's text names, in order, each once."""
    text = URL.sub(" ", text)
    found: list[str] = []
    for match in PATH.finditer(text):
        path = match.group(1)
        if path.startswith(OUTSIDE) or path in NOT_PATHS:
            continue
        if path not in found:
            found.append(path)
    return found


@cache
def _file_names() -> frozenset[str]:
    names = {p.name for p in ROOT.iterdir() if p.is_file()}
    for tree in TREES:
        for path in (ROOT / tree).rglob("*"):
            if path.is_file() and not SKIP_PARTS & set(path.parts):
                names.add(path.name)
    return frozenset(names)


def exists(path: str, page: Path) -> bool:
    """Whether the repository holds `path` as `page` names it (see the module's doc)."""
    folder = path.endswith("/")
    plain = path.rstrip("/")
    for base in (page.parent, ROOT):
        target = (base / plain).resolve()
        if target.is_relative_to(ROOT) and (target.is_dir() if folder else target.is_file()):
            return True
    if "/" not in plain and not folder:
        return plain in _file_names()
    return False


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_path_a_page_names_exists(page: Path) -> None:
    named = paths_named(page.read_text(encoding="utf-8"))
    missing = [path for path in named if not exists(path, page)]
    assert not missing, f"{page.relative_to(ROOT)} names paths the repository lacks: {missing}"


def test_the_pages_are_found() -> None:
    names = {str(p.relative_to(ROOT)) for p in PAGES}
    assert {"README.md", "CONTRIBUTING.md", "docs/architecture.md", "docs/rulings.md",
            "docs/glossary.md", "docs/operations.md", "tests/README.md"} <= names


def test_the_reader_finds_paths_and_leaves_the_rest() -> None:
    text = """The door is `bot/sessions.py`; the cogs live in cogs/ and [ops](operations.md).
    Add `bot/games/<key>/` and `renderers/<key>.py`; {2/2/3/3} and/or 1/5/7/9.
    See https://example.com/a/b.py and /app/.env, /tmp/x/y.py, ../shared/RULES.md.
    Run `.venv/bin/python bench/bench_render.py`; texts in data/texts.yaml."""
    assert paths_named(text) == ["bot/sessions.py", "cogs/", "operations.md",
                                 "bench/bench_render.py", "data/texts.yaml"]


def test_a_missing_path_is_missing() -> None:
    page = ROOT / "docs" / "architecture.md"
    assert exists("bot/sessions.py", page)
    assert exists("operations.md", page)  # beside the page
    assert exists("outlet.py", page)  # a bare name: somewhere in the repository
    assert exists("cogs/", page)
    assert not exists("bot/sessions/", page)  # a file named as a folder
    assert not exists("bot/no_such_module.py", page)
    assert not exists("no_such_module.py", page)
