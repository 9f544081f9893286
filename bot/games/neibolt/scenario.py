"""What a COME HOME TO EVIL scenario may add to a haunt plugin: its own card draws.

Seed 000's scenario 4 changes what a discovered room's symbol does in the haunt (an
event room hands over the Monster Card; an item or omen room may give up an artifact
instead of a card). The edition (edition.py) asks the running scenario, when it is a
`Scenario`, for the steps of each symbol draw.
"""

from __future__ import annotations

from typing import Any

from bot.games.betrayal.haunting.base import HauntPlugin
from bot.games.betrayal.state import BetrayalState


class Scenario(HauntPlugin):
    """A haunt plugin of the Neibolt House edition."""

    def symbol_steps(self, state: BetrayalState, symbol: str,
                     steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The steps a discovered room's `symbol` runs in the haunt; `steps` are the
        edition's own (the card drawn). The room is the frame's `symbol_tile` var."""
        return steps
