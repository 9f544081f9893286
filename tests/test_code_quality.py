"""ruff runs with the tests, so "the tests pass" also means the code is lint clean."""

from __future__ import annotations

import shutil
import subprocess
import sys
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
