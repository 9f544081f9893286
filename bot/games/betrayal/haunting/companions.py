"""A dead explorer's companion (Dog, Girl, Madman) follows the first living explorer to
walk into the room where it waits (seed 003).

Apart from death.py because it sits a level higher: it hands the card over as any card
changes hands (decks.py), while death.py sits below the step interpreter (effects.py
kills through it) and so below decks.py.
"""

from __future__ import annotations

from bot.games.betrayal import content, decks
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.haunting.words import tell


def companions_follow(ctx: Ctx, seat: int, tile_id: int) -> None:
    """A living explorer walks into a room where a dead explorer's companion waits."""
    state = ctx.state
    tile = state.tiles[tile_id]
    if state.haunt is None or not state.explorers[seat].alive:
        return
    for key in [k for k in tile.items if content.card(k).companion]:
        tile.items.remove(key)
        decks.give_card(ctx, seat, key)
        tell(ctx, "events.companion_follows", kind="card", card=content.card(key).name,
             who=ctx.who(seat), data={"seat": seat, "card": key})
