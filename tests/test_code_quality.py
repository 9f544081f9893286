"""ruff runs with the tests, so "the tests pass" also means the code is lint clean; and
the house's import rules hold: no import inside a function, no import cycle, and every
Betrayal module imports on its own, first."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from collections.abc import Mapping
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_is_clean() -> None:
    ruff = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    if not Path(ruff).exists():
        pytest.fail("ruff is not installed: install the test extras (pip install -e '.[test]')")
    result = subprocess.run([ruff, "check", "--no-cache", "."], cwd=ROOT, capture_output=True,
                            text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


# ---------------------------------------------------------------- imports

SOURCE_TREES = ("bot", "cogs", "renderers")
# The only module allowed imports inside functions: the command line defers discord and
# the bot (bot.client) to the commands that need them, so `--help` and `demo` start fast.
LAZY_IMPORTS_ALLOWED = frozenset({"bot/__main__.py"})


def _sources() -> dict[str, Path]:
    """Every module of the source trees, by dotted name (a package by its own name)."""
    found = {}
    for tree in SOURCE_TREES:
        for path in sorted((ROOT / tree).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


@cache
def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def _imports_in_functions(tree: ast.AST) -> list[ast.stmt]:
    """The import statements inside a function or method body, however deeply nested."""
    found: list[ast.stmt] = []

    def visit(node: ast.AST, inside: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if inside and isinstance(child, ast.Import | ast.ImportFrom):
                found.append(child)
            visit(child, inside or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef))

    visit(tree, False)
    return found


def test_no_import_inside_a_function() -> None:
    """Imports sit at a module's top (a TYPE_CHECKING block is fine: it is module level):
    an import inside a function hides a dependency, usually one that dodges a cycle."""
    assert all((ROOT / name).is_file() for name in LAZY_IMPORTS_ALLOWED)
    found = [f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}"
             for path in _sources().values()
             if path.relative_to(ROOT).as_posix() not in LAZY_IMPORTS_ALLOWED
             for node in _imports_in_functions(_tree(path))]
    assert found == []


def test_the_checker_sees_an_import_in_a_method() -> None:
    tree = ast.parse("import os\nclass A:\n    def f(self):\n        if os:\n"
                     "            from os import path\n")
    assert [n.lineno for n in _imports_in_functions(tree)] == [5]


def _module_imports(name: str, path: Path, known: Mapping[str, Path], *,
                    types: bool = False) -> set[str]:
    """The project modules `name` imports when it is executed: its module-level imports
    (in if/try blocks too, not under TYPE_CHECKING unless `types`, not inside functions
    or classes' methods). `from package import x` counts as importing the submodule x if
    there is one, else the package (whose `__init__` must then have run)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                visit([*node.body, *node.orelse] if types else node.orelse)
            elif isinstance(node, ast.Import):
                found.update(a.name for a in node.names if a.name in known)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, base] if base else up)
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    found.update([sub] if sub in known else [base] if base in known else [])
            elif not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                for block in ("body", "orelse", "finalbody"):
                    visit(getattr(node, block, []))
                for handler in getattr(node, "handlers", []):
                    visit(handler.body)

    visit(_tree(path).body)
    found.discard(name)
    return found


def _cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            part = []
            while not part or part[-1] != node:
                part.append(stack.pop())
            if len(part) > 1:
                found.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_cycle() -> None:
    """Registries sit low and content registers into them: no module imports, at its
    top, a module that imports it back, however far round. (A package's `__init__`
    importing its own modules is no cycle: Python runs it before them, and they only
    need it when they import a name from it, which counts.)"""
    known = _sources()
    graph = {name: _module_imports(name, path, known) for name, path in known.items()}
    assert len(graph) > 150
    assert "bot.games.betrayal.effects" in graph["bot.games.betrayal.movement"]
    assert _cycles(graph) == []


# Type-only circles: none (the Betrayal renderers' MapGeometry has a module of its own).
KNOWN_TYPE_CYCLES: list[list[str]] = []


def test_no_import_cycle_even_for_types() -> None:
    """A circle through TYPE_CHECKING imports runs, but it says two modules need each
    other: bot/client.py loaded the cogs, and cogs/common.py named bot/client.py's
    HauntBot for its annotations. The cogs name what they use of the bot instead
    (cogs/common.py's GameBot)."""
    known = _sources()
    graph = {name: _module_imports(name, path, known, types=True)
             for name, path in known.items()}
    assert "bot.client" in graph["bot.__main__"]  # its TYPE_CHECKING import is seen
    assert _cycles(graph) == KNOWN_TYPE_CYCLES


def test_the_cycle_finder_finds_a_long_way_round() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}}
    assert _cycles(graph) == [["a", "b", "c"]]


CHECKED_TREES = (*SOURCE_TREES, "tests", "bench")


def _private_imports(tree: ast.Module, where: str, name: str, package: str) -> list[str]:
    """`from module import _name` statements of module `name` (in `package`; the file
    `where`) that reach into another of our modules."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        base = node.module or ""
        if node.level:
            up = package.split(".")[: len(package.split(".")) - node.level + 1]
            base = ".".join([*up, base] if base else up)
        if base.split(".")[0] not in CHECKED_TREES or base == name:
            continue
        found += [f"{where}:{node.lineno}: from {base} import {a.name}"
                  for a in node.names if a.name.startswith("_") and not a.name.startswith("__")]
    return found


def test_no_private_name_is_imported_from_another_module() -> None:
    """A leading underscore says "only this module uses it": a name another module needs
    is public (renamed, or given a public way in), so reading a module tells what others
    may rely on. Tests and benchmarks too."""
    found = []
    for tree in CHECKED_TREES:
        for path in sorted((ROOT / tree).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            package = name if path.name == "__init__.py" else name.rpartition(".")[0]
            found += _private_imports(_tree(path), path.relative_to(ROOT).as_posix(), name,
                                      package)
    assert found == []


def test_the_private_import_checker_sees_one() -> None:
    tree = ast.parse("from bot.sessions import _Hidden, Shown\nfrom bot.games.x import _y\n"
                     "from . import _mine\nfrom .sibling import _theirs\n")
    found = _private_imports(tree, "cogs/x.py", "cogs.x", "cogs")
    assert found == ["cogs/x.py:1: from bot.sessions import _Hidden",
                     "cogs/x.py:2: from bot.games.x import _y",
                     "cogs/x.py:3: from cogs import _mine",
                     "cogs/x.py:4: from cogs.sibling import _theirs"]


# Pure layers: the table rules and what a delivery sends. Loading them must not load a
# database driver or discord (the store and the cogs depend on them, not the reverse).
PURE = ("bot.table_record", "bot.table", "bot.delivery")
DRIVERS = ("asyncpg", "aiosqlite", "discord")
LOADED = "import importlib, sys\nfor name in sys.argv[2:]: importlib.import_module(name)\n" \
         "print(sorted(d for d in sys.argv[1].split(',') if d in sys.modules))"


def test_the_table_rules_load_no_database_driver() -> None:
    """bot/table.py once took its Table from the store's records, and importing those
    runs bot/store/__init__.py: the table's pure rules loaded asyncpg and aiosqlite.
    The record lives beside the rules now (bot/table_record.py); the store maps it."""
    result = subprocess.run([sys.executable, "-c", LOADED, ",".join(DRIVERS), *PURE],
                            cwd=ROOT, capture_output=True, text=True, check=False,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_a_sqlite_bot_never_loads_the_postgresql_driver() -> None:
    """`python -m bot run` on SQLite, every cog and module of the bot imported, and a
    SQLite store opened: asyncpg (about a tenth of the start) stays unloaded. Only a
    PostgreSQL URL, or `PostgresStore` named, loads bot/store/postgres.py."""
    modules = sorted(
        ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for tree in ("bot", "cogs") for path in (ROOT / tree).rglob("*.py")
        if path.name != "__init__.py" and "games" not in path.parts
        and path.relative_to(ROOT).as_posix() not in POSTGRES_SIDE)
    code = LOADED + "\n" + (
        "import asyncio, bot.store\n"
        "store = asyncio.run(bot.store.open_store(':memory:'))\n"
        "asyncio.run(store.close())\n"
        "print('asyncpg' in sys.modules)\n"
        "bot.store.PostgresStore\n"
        "print('asyncpg' in sys.modules)\n")
    result = subprocess.run([sys.executable, "-c", code, "asyncpg", *modules], cwd=ROOT,
                            capture_output=True, text=True, check=False,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["[]", "False", "True"]


# The modules that are PostgreSQL's own (and the copy into it): they load the driver.
POSTGRES_SIDE = frozenset({"bot/store/postgres.py", "bot/store/pg_migrations.py",
                           "bot/store/copy.py"})


# Each module is imported first, in a process that has imported only what lies outside
# the game, so that the module's own imports (and theirs) run in its order. The Betrayal
# package's `__init__` imports the whole game (its GAME), which would otherwise always
# come first: its package is set up without running it, except for the package itself.
ALONE = """
import importlib, importlib.util, os, sys, traceback

STUBBED = "bot.games.betrayal"
for shared in ("yaml", "bot.games.base", "bot.texts", "bot.yaml_files", "bot.core.dice"):
    importlib.import_module(shared)
assert not [m for m in sys.modules if m.startswith((STUBBED, "bot.games.neibolt"))]

def alone(name):
    try:
        if name != STUBBED:
            sys.modules[STUBBED] = importlib.util.module_from_spec(
                importlib.util.find_spec(STUBBED))
        importlib.import_module(name)
    except BaseException:
        print(f"--- {name} does not import alone:\\n{traceback.format_exc()}", flush=True)
        return 1
    return 0

running, failed = {}, 0
for name in sys.argv[1:]:  # two children at a time, each a copy of this process
    if len(running) == 2:
        pid, status = os.wait()
        failed += status != 0
        del running[pid]
    pid = os.fork()
    if pid == 0:
        os._exit(alone(name))
    running[pid] = name
for pid in running:
    failed += os.waitpid(pid, 0)[1] != 0
sys.exit(1 if failed else 0)
"""


def test_every_betrayal_module_imports_alone() -> None:
    names = sorted(n for n in _sources()
                   if n.startswith(("bot.games.betrayal", "bot.games.neibolt")))
    assert len(names) > 60
    result = subprocess.run([sys.executable, "-c", ALONE, *names], cwd=ROOT,
                            capture_output=True, text=True, check=False,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert result.returncode == 0, result.stdout + result.stderr
