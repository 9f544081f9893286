"""mypy runs with the tests, so the type hints stay true: a newcomer may trust them.

It checks what `[tool.mypy]` in pyproject.toml names (bot, cogs and renderers), with a
cache of its own in a temporary folder, so every run checks from scratch (about 10 s on
a quiet 2-core machine, under 30 s on a busy one). Any error fails: there are none."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

ERROR = re.compile(r"^(?P<path>[^:\n]+):(?P<line>\d+): error: (?P<message>.*)$", re.M)


def errors(output: str) -> list[str]:
    """mypy's error lines (its notes and summary aside)."""
    return [match.group(0) for match in ERROR.finditer(output)]


def test_errors_are_read_from_mypys_output() -> None:
    output = "\n".join([
        "bot/table.py:12: error: Name \"x\" is not defined  [name-defined]",
        "bot/table.py:12: note: a note is no error",
        "Found 1 error in 1 file (checked 241 source files)",
    ])
    assert errors(output) == ["bot/table.py:12: error: Name \"x\" is not defined  [name-defined]"]


def test_mypy_finds_no_error(tmp_path: Path) -> None:
    if importlib.util.find_spec("mypy") is None:
        pytest.fail("mypy is not installed: install the test extras (pip install -e '.[test]')")
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "mypy-cache"),
         "--no-error-summary", "--hide-error-context", "--no-color-output"],
        cwd=ROOT, capture_output=True, text=True, check=False, timeout=300)
    assert result.returncode in (0, 1), result.stdout + result.stderr  # 2: mypy itself failed
    found = errors(result.stdout)
    assert not found, "\n".join(found)
