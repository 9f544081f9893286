"""bot/client.py lets each interaction in once, remembering a bounded number of ids:
a copy the gateway hands over again (a RESUME's replay) is dropped before discord.py
dispatches it, and memory stays bounded (tests/test_e2e_shown_once.py drives
the copy through the fake Discord)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot import client
from bot.client import HauntBot


async def test_a_copy_is_dropped_and_the_ids_kept_are_bounded(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(client, "SEEN_INTERACTIONS", 3)
    bot = HauntBot(db_path=str(tmp_path / "x.sqlite3"), sync_commands=False)
    parsed: list[str] = []
    bot._parse_interaction = lambda data: parsed.append(data["id"])  # type: ignore[method-assign]
    take: Any = bot._connection.parsers["INTERACTION_CREATE"]  # where the gateway calls
    for iid in ("1", "1", "2", "3", "2", "4", "1"):
        take({"id": iid})
    # "1" again once forgotten (three kept): bounded memory, not a growing set.
    assert parsed == ["1", "2", "3", "4", "1"]
    assert len(bot._seen) == 3
    await bot.close()
