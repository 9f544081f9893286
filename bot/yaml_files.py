"""The one way data files are read: YAML through libyaml's C loader when PyYAML was
built with it (about 9 times faster than the pure-Python loader on our data), else
the pure-Python SafeLoader. Both are safe loaders and build the same plain data
(tests/test_yaml_files.py checks it on every file in data/)."""

from __future__ import annotations

from functools import cache
from importlib.resources.abc import Traversable
from typing import Any

import yaml

LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def parse(text: str, loader: type[yaml.SafeLoader] = LOADER) -> Any:
    """A YAML document as plain data (None for an empty one)."""
    return yaml.load(text, Loader=loader)


def read(path: Traversable) -> Any:
    """A YAML file as plain data (None for an empty one)."""
    return parse(path.read_text(encoding="utf-8"))


@cache
def mapping(path: Traversable) -> dict[str, Any]:
    """A content file that holds a mapping, read once per process (treat it as
    read-only: every caller shares it)."""
    raw = read(path)
    if not isinstance(raw, dict):
        raise ValueError(f"{path} must hold a mapping")
    return raw


def topics(path: Traversable) -> dict[str, str]:
    """A rules file's `/game rules` topics (topic -> text), a new dict each call."""
    return {str(k): str(v).strip() for k, v in mapping(path)["topics"].items()}


def titles(path: Traversable) -> dict[str, str]:
    """A rules file's topic titles (topic -> title): players read titles, never keys."""
    return {str(k): str(v).strip() for k, v in mapping(path).get("titles", {}).items()}
