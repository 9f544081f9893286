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

A path is not all a page names: a newcomer follows "`bot/sessions_channel.py`'s
`_ready`" or "`Sessions.fire_timer`" into the code, and a function moved to another
module (as the sessions' and the outlet's layers were) leaves the page pointing at
nothing, though every path still exists. So every name a page gives a module of ours
(`path.py`'s `name`, and each name listed after it) is defined in that module, and every
`Class.member` of one of our classes is defined in the class or a class it extends.
CONTRIBUTING.md's list of the shared tests that take every game by themselves names
each one that does, so a newcomer adding a game knows every test that will ask.
"""

from __future__ import annotations

import ast
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
# "`bot/courier.py`'s `Courier.deliver`", "`tests/e2e_helpers.py`'s `open_and_start`,
# `latest_turn` and `play_by_click`": the module, then the names given to it.
OWNED = re.compile(r"`((?:[\w.-]+/)+[\w.-]+\.py)`'s ((?:`[^`/]+`(?:,? and |,? or |, )?)+)")
OWNED_NAME = re.compile(r"`([A-Za-z_]\w*)(?:\.\w+)*(?:\(\))?`")
# `Sessions.act`, `Game.apply()`: a class of ours (capitalised, then lower case) and a
# member; `GAME.key` (a constant) and `app_commands.Translator` (a library's) are not.
MEMBER = re.compile(r"`([A-Z][a-z]\w*)\.([A-Za-z_]\w*)(?:\(\))?`")
# Where the classes a page names live (a test's helper class is named by its module).
CLASS_TREES = ("bot", "cogs", "renderers")
# CONTRIBUTING.md's "Add a game" lists the shared tests that take every game by
# themselves: a test module that walks the registry is one.
TAKES_EVERY_GAME = re.compile(
    r"(?:\bin |parametrize\(.*|= (?:sorted|list)\()(?:sorted\()?(?:games\.)?"
    r"(?:all_games|walk_games)\(\)")


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


# -------------------------------------------------------------- the names a page gives


def _assigned(node: ast.AST) -> list[str]:
    """The names an assignment binds (`A = ...`, `self.a = ...`, `a: int = ...`)."""
    targets: list[ast.expr] = []
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, ast.AnnAssign | ast.AugAssign):
        targets = [node.target]
    names = []
    for target in targets:
        for part in ast.walk(target):
            if isinstance(part, ast.Name):
                names.append(part.id)
            elif isinstance(part, ast.Attribute):
                names.append(part.attr)
    return names


def _bound(tree: ast.AST) -> set[str]:
    """Every name a piece of code defines: its functions, classes (and their members),
    assignments and imports (a door re-exports what its layers define)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        names.update(_assigned(node))
    return names


@cache
def defined_in(path: Path) -> frozenset[str]:
    return frozenset(_bound(ast.parse(path.read_text(encoding="utf-8"))))


def _base_name(base: ast.expr) -> str:
    """`Base`, `module.Base` or `Base[T]`: the class's own name."""
    if isinstance(base, ast.Subscript):
        base = base.value
    if isinstance(base, ast.Attribute):
        return base.attr
    return base.id if isinstance(base, ast.Name) else ""


@cache
def our_classes() -> dict[str, list[tuple[frozenset[str], tuple[str, ...]]]]:
    """Each class of ours by name: its members and the names of the classes it extends
    (a name may be taken twice: every one is tried)."""
    found: dict[str, list[tuple[frozenset[str], tuple[str, ...]]]] = {}
    for tree in CLASS_TREES:
        for path in sorted((ROOT / tree).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ClassDef):
                    members = frozenset(_bound(node)) - {node.name}
                    bases = tuple(_base_name(b) for b in node.bases)
                    found.setdefault(node.name, []).append((members, bases))
    return found


def has_member(cls: str, member: str, seen: frozenset[str] = frozenset()) -> bool:
    """Whether `cls` (of ours) or a class it extends defines `member`."""
    for members, bases in our_classes().get(cls, []):
        if member in members:
            return True
        if any(has_member(base, member, seen | {cls}) for base in bases
               if base and base not in seen):
            return True
    return False


def owned_names(text: str) -> list[tuple[str, str]]:
    """(module path, name) for each name a page gives a module: "`a/b.py`'s `c`"."""
    found = []
    for match in OWNED.finditer(" ".join(text.split())):
        found += [(match.group(1), name.group(1))
                  for name in OWNED_NAME.finditer(match.group(2))]
    return found


def missing_names(page: Path) -> list[str]:
    """What the page names that the code does not define where the page says."""
    text = page.read_text(encoding="utf-8")
    missing = []
    for path, name in owned_names(text):
        for base in (ROOT, page.parent):
            module = (base / path).resolve()
            if module.is_relative_to(ROOT) and module.is_file():
                if name not in defined_in(module):
                    missing.append(f"{path}'s {name}")
                break
    for cls, member in MEMBER.findall(" ".join(text.split())):
        if cls in our_classes() and not has_member(cls, member):
            missing.append(f"{cls}.{member}")
    return missing


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_name_a_page_gives_a_module_or_class_is_there(page: Path) -> None:
    missing = missing_names(page)
    assert not missing, f"{page.relative_to(ROOT)} names what the code lacks there: {missing}"


def test_the_name_reader_reads_the_pages_forms() -> None:
    text = """`bot/courier.py`'s `Courier.deliver` and `tests/e2e_helpers.py`'s
    `open_and_start`, `latest_turn` and `play_by_click()`; `bot/x.py`'s job."""
    assert owned_names(text) == [
        ("bot/courier.py", "Courier"), ("tests/e2e_helpers.py", "open_and_start"),
        ("tests/e2e_helpers.py", "latest_turn"), ("tests/e2e_helpers.py", "play_by_click")]


def test_a_name_in_the_wrong_module_or_class_is_missing() -> None:
    assert "_ready" in defined_in(ROOT / "bot" / "sessions_channel.py")
    assert "_ready" not in defined_in(ROOT / "bot" / "sessions.py")  # a layer's, not the door's
    assert "Outcome" in defined_in(ROOT / "bot" / "sessions.py")  # re-exported by the door
    assert has_member("Sessions", "fire_timer")  # a layer it extends defines it
    assert has_member("DiscordOutlet", "prompt_by_dm")
    assert not has_member("Sessions", "no_such_step")
    assert not has_member("Post", "extras")  # gone


def test_contributing_names_every_shared_test_that_takes_every_game() -> None:
    """A shared test that walks the registry asks something of a new game: CONTRIBUTING's
    "Add a game" names it, so its author runs it before CI does."""
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    section = text.split("## Add a game", 1)[1].split("\n## ", 1)[0]
    takers = sorted(f"tests/{path.name}" for path in (ROOT / "tests").glob("test_*.py")
                    if TAKES_EVERY_GAME.search(path.read_text(encoding="utf-8")))
    assert takers, "the registry's walkers are found"
    unnamed = [path for path in takers if f"`{path}`" not in section]
    assert not unnamed, f"CONTRIBUTING.md's \"Add a game\" does not name {unnamed}"
