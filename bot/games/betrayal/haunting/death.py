"""Death (seed 003): in the haunt, an explorer whose trait reaches the skull dies.

Its cards fall where it died, companions too (Dog, Girl, Madman), as an item pile
anyone may pick up; a companion follows the first living explorer to walk in
(companions.py). Lasting events in front of it are discarded. The dead take no more turns.
"""

from __future__ import annotations

from bot.games.betrayal import content
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.haunting import base
from bot.games.betrayal.haunting.parts import TurnHooks
from bot.games.betrayal.haunting.words import haunt_line, tell
from bot.games.betrayal.state import BetrayalState
from bot.texts import listed

# Steps that only put a card where it belongs once it has been read: they still run
# when the explorer they were for has died; the rest of its steps are dropped as they
# come up (effects.run), so nothing more happens to the dead.
BOOKKEEPING = frozenset({"_finish_card"})
# The source of the frames of the house's turn (haunting/house.py): they are the
# house's, not the steps of the explorer (maybe dead) whose turn it follows.
HOUSE = "house"


def skips(state: BetrayalState, seat: int, step: dict[str, object], source: str = "") -> bool:
    """Whether a step for this explorer is dropped: it is dead, and the step is not
    bookkeeping nor the house's."""
    return (0 <= seat < len(state.explorers) and not state.explorers[seat].alive
            and source != HOUSE and next(iter(step)) not in BOOKKEEPING)


def die(ctx: Ctx, seat: int) -> None:
    state = ctx.state
    explorer = state.explorers[seat]
    if not explorer.alive:
        return
    explorer.alive = False
    tile = state.tiles[explorer.tile]
    dropped = list(explorer.cards)
    tile.items.extend(dropped)
    explorer.cards.clear()
    for key in explorer.lasting:
        state.discards[content.card(key).deck].append(key)
    explorer.lasting.clear()
    names = listed([content.card(k).name for k in dropped])
    tell(ctx, "events.death", kind="death", who=ctx.who(seat), player=state.players[seat],
         room=ctx.room_name(explorer.tile),
         cards=tell_cards(names), data={"seat": seat, "tile": explorer.tile,
                                        "cards": dropped})
    base.hooks(state, TurnHooks).on_death(ctx, seat)


def tell_cards(names: str) -> str:
    return haunt_line("events.death_cards", cards=names) if names else ""

