"""mypy runs with the tests, so the type hints stay true: a newcomer may trust them.

It checks what `[tool.mypy]` in pyproject.toml names (bot, cogs and renderers), with a
cache of its own in a temporary folder, so every run checks from scratch (about 10 s on
a quiet 2-core machine, under 30 s on a busy one). The only errors tolerated are those
listed in KNOWN, in modules another branch is rewriting; any other error fails."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# (module, message) of each error tolerated, as many times as it is: the line numbers
# are left out, so an edit elsewhere in the file does not move them out of the list.
KNOWN: Counter[tuple[str, str]] = Counter({
    ("bot/games/neibolt/scenarios/the_ritual_of_chud.py",
     'Incompatible types in assignment (expression has type "str", variable has type '
     '"int")  [assignment]'): 1,
    ("bot/games/neibolt/scenarios/the_ritual_of_chud.py",
     'Incompatible types in assignment (expression has type "dict[str, dict[str, Any]]", '
     'variable has type "Monster | None")  [assignment]'): 1,
    ("bot/games/neibolt/scenarios/the_ritual_of_chud.py",
     'Item "Monster" of "Monster | None" has no attribute "items"  [union-attr]'): 1,
    ("bot/games/neibolt/scenarios/the_ritual_of_chud.py",
     'Item "None" of "Monster | None" has no attribute "items"  [union-attr]'): 1,
})

ERROR = re.compile(r"^(?P<path>[^:\n]+):(?P<line>\d+): error: (?P<message>.*)$", re.M)


def new_errors(output: str) -> list[str]:
    """mypy's error lines that KNOWN does not tolerate (each tolerated one only as
    many times as it is listed)."""
    left = Counter(KNOWN)
    found = []
    for match in ERROR.finditer(output):
        key = (match["path"].replace("\\", "/"), match["message"])
        if left[key] > 0:
            left[key] -= 1
        else:
            found.append(match.group(0))
    return found


def test_new_errors_tolerates_only_the_known_ones() -> None:
    known_path, known_message = next(iter(KNOWN))
    output = "\n".join([
        f"{known_path}:264: error: {known_message}",
        f"{known_path}:300: error: {known_message}",  # once more than listed
        "bot/table.py:12: error: Name \"x\" is not defined  [name-defined]",
        "bot/table.py:12: note: a note is no error",
        "Found 3 errors in 2 files (checked 241 source files)",
    ])
    assert new_errors(output) == [
        f"{known_path}:300: error: {known_message}",
        "bot/table.py:12: error: Name \"x\" is not defined  [name-defined]",
    ]


def test_mypy_finds_no_new_error(tmp_path: Path) -> None:
    if importlib.util.find_spec("mypy") is None:
        pytest.fail("mypy is not installed: install the test extras (pip install -e '.[test]')")
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "mypy-cache"),
         "--no-error-summary", "--hide-error-context", "--no-color-output"],
        cwd=ROOT, capture_output=True, text=True, check=False, timeout=300)
    assert result.returncode in (0, 1), result.stdout + result.stderr  # 2: mypy itself failed
    new = new_errors(result.stdout)
    assert not new, "\n".join(new)
