"""The table's own player-facing lines, loaded from data/texts.yaml."""

from __future__ import annotations

from functools import cache
from typing import Any

import yaml

from bot.paths import DATA


@cache
def _texts() -> dict[str, Any]:
    with open(DATA / "texts.yaml", encoding="utf-8") as fh:
        return yaml.safe_load(fh)


def say(key: str, **kwargs: Any) -> str:
    """Format the line at a dotted key, e.g. say("errors.host_only", host="Ann")."""
    node: Any = _texts()
    for part in key.split("."):
        node = node[part]
    return str(node).format(**kwargs)


def ai_names() -> list[str]:
    return list(_texts()["ai_names"])
