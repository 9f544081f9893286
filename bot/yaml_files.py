"""The one way data files are read: YAML through libyaml's C loader when PyYAML was
built with it (about 9 times faster than the pure-Python loader on our data), else
the pure-Python SafeLoader. Both are safe loaders and build the same plain data
(tests/test_yaml_files.py checks it on every file in data/)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def parse(text: str, loader: type[yaml.SafeLoader] = LOADER) -> Any:
    """A YAML document as plain data (None for an empty one)."""
    return yaml.load(text, Loader=loader)


def read(path: Path) -> Any:
    """A YAML file as plain data (None for an empty one)."""
    return parse(path.read_text(encoding="utf-8"))
