"""A game's rules topics as players read them: titled, and only those its table plays.

Shared by `/game rules` (cogs/lobby.py) and the lobby's How to play button
(cogs/components.py), so both name a topic the same way.
"""

from __future__ import annotations

from typing import Any

from bot import games
from bot.texts import say


def rules_topics(kind: str, options: dict[str, Any] | None) -> dict[str, tuple[str, str]]:
    """Key -> (title, text) of one game's topics for a table with these setup `options`
    (None: every variant's). A topic without a title reads as its key with spaces
    (data/*/rules.yaml gives every one a title: tests/test_e2e_lobby.py checks it)."""
    game = games.get(kind)
    titles = game.rules_titles(options)
    return {key: (titles.get(key) or key.replace("_", " ").replace("-", " "), text)
            for key, text in game.rules_topics(options).items()}


def how_to_play(kind: str, options: dict[str, Any]) -> str:
    """The rules' overview, then the overview of the variant played (a topic named like
    the option's value: an expansion's key), then where the rest is."""
    topics = rules_topics(kind, options)
    keys = ["overview", *(str(v) for v in options.values() if str(v) in topics)]
    if not any(k in topics for k in keys):
        keys = list(topics)[:1]
    parts = [f"**{topics[k][0]}**\n{topics[k][1]}" for k in dict.fromkeys(keys) if k in topics]
    return "\n\n".join([*parts, say("lobby.how_more")])
