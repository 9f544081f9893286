"""The haunt: the second half of a Betrayal game, once the haunt roll succeeds.

Modules: base.py (a haunt's data and plugin hooks), sides.py (who is on which side,
turn order), flow.py (the split, the rounds, winning), combat.py (attacks), monsters.py
(the monsters' turn), death.py, companions.py (the dead's companions follow the
living), actions.py (the actions the haunt adds to a turn), house.py (the house's turn
in a cooperative haunt), parts.py (the engine's parts a haunt plugin names),
ai.py (AI traitor, monsters and heroes), plugins/ (one module per haunt) and
words.py (the lines said, from data/betrayal/haunt_texts.yaml).
"""

from __future__ import annotations

from bot.games.betrayal import loading
from bot.games.betrayal.haunting import base


def has_plugin(key: str) -> bool:
    loading.load()
    return key in base.PLUGINS
