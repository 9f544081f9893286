"""A game state's stored form, for the parts every game keeps alike: its seeded Rng
(kept in the state, so a game replays) and the choice it may be waiting on.

Each state's `to_dict` starts from `stored_dict` and `from_dict` from `restored`, then
rebuilds only its own dataclasses; so the two shared parts are written and read one way.
"""

from __future__ import annotations

from typing import Any

from bot.core.choices import PendingChoice
from bot.core.plain import as_dicts
from bot.core.rng import Rng


def stored_dict(state: Any) -> dict[str, Any]:
    """The state as plain JSON data, its `pending` choice and `rng` in their own forms."""
    raw: dict[str, Any] = as_dicts(state)
    raw["pending"] = state.pending.to_dict() if state.pending else None
    raw["rng"] = state.rng.state
    return raw


def restored(raw: dict[str, Any]) -> dict[str, Any]:
    """A copy of `raw` with its `pending` choice and `rng` rebuilt; the caller rebuilds
    its own nested dataclasses and passes the rest to its constructor."""
    data = dict(raw)
    data["pending"] = PendingChoice.from_dict(raw.get("pending"))
    data["rng"] = Rng(raw["rng"])
    return data
