"""The classic edition (seed 003): the default edition of every Betrayal game.

Its decks are the three of data/betrayal/, each symbol draws its own deck, the haunt
roll after a turn with an omen is six dice below the omens drawn (haunt_roll.py), and the
omen x room chart picks the haunt, swapped for a fresh one by Selecting the Haunt.
The map's footer counts omens on a track of the 13 omen cards.
"""

from __future__ import annotations

from bot.games.betrayal import content, haunt_roll
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.editions import DEFAULT, Edition, register
from bot.games.betrayal.pictures import TrackView
from bot.games.betrayal.rolls import AFTER_TURN
from bot.games.betrayal.state import EXPLORE, BetrayalState, Frame

OMEN_CARDS = 13  # the marks of the footer's omen track: every omen of the deck
HAUNT_DICE = 6


@register
class Classic(Edition):
    key = DEFAULT
    order = 0

    def label(self) -> str:
        return content.betrayal_line("labels.edition_classic")

    def turn_over(self, ctx: Ctx, frame: Frame) -> None:
        """Seed 003: the player who turned up an omen makes the haunt roll as its own
        turn ends; one roll, however many omens (RULES.md), read with the last one."""
        state = ctx.state
        if state.phase != EXPLORE:
            return
        omen, room, now = haunt_roll.roll_owed(state, frame.seat)
        if not omen:
            return
        ctx.say("events.haunt_roll" if now else "events.haunt_roll_owed",
                who=ctx.who(frame.seat), omens=state.omens_drawn, omen=content.card(omen).name)
        ctx.push_child(frame, [{"roll": {"dice": HAUNT_DICE, "purpose": "haunt", AFTER_TURN: True,
                                         "then": [{"_haunt_check": {"omen": omen,
                                                                    "room": room}}]}}])

    def stalled(self, state: BetrayalState) -> bool:
        return haunt_roll.stalled(state)

    def begin_stalled(self, ctx: Ctx, seat: int) -> None:
        haunt_roll.begin_stalled(ctx, seat)

    def choose_haunt(self, ctx: Ctx, seat: int, omen: str, room: str
                     ) -> tuple[str, str, str]:
        found, omen, room = haunt_roll.fresh_haunt(ctx, seat, omen, room)
        return (found.key if found else ""), omen, room

    def haunts(self) -> list[str]:
        return list(haunt_roll.haunts(""))

    def track(self, state: BetrayalState) -> TrackView:
        drawn = max(0, state.omens_drawn)
        return TrackView(content.betrayal_line("views.track_omens"), drawn, OMEN_CARDS,
                     content.betrayal_line("views.track_drawn", count=drawn),
                     content.betrayal_line("views.track_drawn", count=OMEN_CARDS))
