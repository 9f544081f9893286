"""The Neibolt House edition (seed 000), registered with the Betrayal core.

What it changes (seed 000, "How to Play"): the game opens with the COME HOME TO EVIL
card's story (ours, data/neibolt/texts.yaml), the four rooms join the stack, the
Pennywise Encounter deck is dealt beside the three decks, before the haunt an omen
room draws an encounter instead of an omen, the haunt roll counts face-up encounters
and starts at 5+, and the encounter that starts it picks the scenario (COME HOME TO
EVIL). After the haunt begins, omen rooms draw omens again. Seed 000 removes Strange
Dust and Say Cheese from the event deck; our deck has neither (RULES.md section 2).
The map's footer tracks the face-up encounters.
"""

from __future__ import annotations

from typing import Any

from bot.games.base import About
from bot.games.betrayal.plugin_api import (
    EXPLORE,
    BetrayalState,
    Ctx,
    Edition,
    Frame,
    TrackView,
    content,
    haunts,
    register_edition,
)
from bot.games.neibolt import encounters
from bot.games.neibolt.words import FOLDER, neibolt_line, rules_titles, rules_topics
from bot.texts import listed

KEY = "neibolt"
# What Betrayal's loader (bot/games/betrayal/loading.py) loads right after this edition:
# the four rooms' passives, then every scenario of COME HOME TO EVIL.
LOADS = ("bot.games.neibolt.rooms", "bot.games.neibolt.scenarios")

content.add_folder(KEY, FOLDER, {encounters.DECK: "encounters"})


@register_edition
class Neibolt(Edition):
    key = KEY
    order = 1

    def label(self) -> str:
        return neibolt_line("labels.edition")

    def title(self) -> str:
        """Seed 000 is its own box, Betrayal at the Neibolt House: a table playing it
        reads that name, not the classic game's."""
        return neibolt_line("title")

    def about(self) -> About:
        """Seed 000's box, told in its own few words in the lobby."""
        return About.said(neibolt_line)

    def story(self) -> str:
        """Seed 000 has the COME HOME TO EVIL card's story read out instead of the
        classic game's; the card's words are not ours to print, so this is our telling."""
        return neibolt_line("story.come_home_to_evil")

    def decks(self, c: content.Content) -> dict[str, list[str]]:
        decks = super().decks(c)
        decks[encounters.DECK] = c.deck(encounters.DECK, self.key)
        return decks

    def symbol_steps(self, state: BetrayalState, symbol: str) -> list[dict[str, Any]]:
        if symbol == "omen" and state.phase == EXPLORE:
            return [{"_nb_encounter": {}}]
        return super().symbol_steps(state, symbol)

    def turn_over(self, ctx: Ctx, frame: Frame) -> None:
        encounters.haunt_rolls(ctx, frame)

    def stalled(self, state: BetrayalState) -> bool:
        return encounters.stalled(state)

    def begin_stalled(self, ctx: Ctx, seat: int) -> None:
        encounters.begin_stalled(ctx, seat)

    def choose_haunt(self, ctx: Ctx, seat: int, omen: str, room: str
                     ) -> tuple[str, str, str]:
        return encounters.scenario_of(omen), omen, room

    def haunts(self) -> list[str]:
        return list(haunts(self.key))

    def haunt_line(self, number: int, name: str, teaser: str, card: str) -> str | None:
        return neibolt_line("events.haunt_named", card=content.card(card).name, number=number,
                            name=name, teaser=teaser)

    def haunt_footer(self, number: int, name: str, who: str, card: str, room: str
                     ) -> str | None:
        return neibolt_line("views.footer_haunt", number=number, name=name, who=who, card=card,
                            room=room)

    def topics(self) -> dict[str, str]:
        return rules_topics()

    def titles(self) -> dict[str, str]:
        return rules_titles()

    def status(self, state: BetrayalState) -> list[str]:
        up = encounters.face_up(state)
        names = listed([content.card(k).name for k in up]) or neibolt_line("views.none_yet")
        return [neibolt_line("views.status", count=len(up), names=names)]

    def track(self, state: BetrayalState) -> TrackView:
        up = len(encounters.face_up(state))
        marks = len(state.decks.get(encounters.DECK, [])) + up
        return TrackView(neibolt_line("views.track"), up, marks, neibolt_line("views.track_note",
                                                                              count=up),
                     neibolt_line("views.track_note", count=marks))
