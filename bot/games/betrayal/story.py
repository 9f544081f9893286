"""Betrayal's story at the end (an edition's too: its scenarios are haunts):
which side won and why, the haunt and who turned, the last victim, the monsters slain,
and each explorer's fate. The traitor is public by then (both books are read out)."""

from __future__ import annotations

from bot.core.story import (
    HEROES,
    HOUSE,
    TRAITOR,
    LogLine,
    SeatStory,
    Story,
    deeds_of,
    last_of,
    with_deeds,
)
from bot.games.betrayal import content
from bot.games.betrayal.content import betrayal_line
from bot.games.betrayal.context import explorer_name
from bot.games.betrayal.explore import DISCOVER
from bot.games.betrayal.haunt_list import haunts
from bot.games.betrayal.haunting import base, sides
from bot.games.betrayal.haunting.combat import SLAIN
from bot.games.betrayal.haunting.flow import winner_key
from bot.games.betrayal.haunting.words import haunt_line
from bot.games.betrayal.state import BetrayalState
from bot.locales import ENGLISH, speaking

OMEN = "omen"  # the deck a classic haunt's card comes from (content.DECKS)


def story_of(state: BetrayalState, log: list[LogLine]) -> Story:
    haunt = state.haunt
    plugin = base.for_state(state)
    traitor = sides.traitor(state)
    named = False  # the outcome names the traitor: a turning point need not again
    if haunt is None or not haunt.winner:
        outcome = betrayal_line("story.no_haunt" if haunt is None else "story.winner_none")
    elif haunt.winner == sides.EVIL and plugin.cooperative:
        outcome = betrayal_line("story.winner_house", reason=reason_said(state, log))
    elif haunt.winner == sides.EVIL and traitor is not None:
        outcome = betrayal_line("story.winner_traitor", explorer=explorer_name(state, traitor),
                                player=state.players[traitor], reason=reason_said(state, log))
        named = True
    else:
        outcome = betrayal_line("story.winner_heroes", reason=reason_said(state, log))
    turning: list[str] = []
    name = ""
    if haunt is not None and haunt.key:
        info = haunts().get(haunt.key)
        name = info.name if info is not None else haunt.key
        turning.append(haunt_begun(state, name))
        if traitor is None:
            turning.append(betrayal_line("story.haunt_together"))
        elif not named:
            turning.append(betrayal_line("story.haunt_traitor",
                                         explorer=explorer_name(state, traitor),
                                         player=state.players[traitor]))
    victim = last_of(log, "death")
    if victim:
        turning.append(betrayal_line("story.last_victim", line=victim))
    slain = sum(1 for m in state.monsters if not m.alive)
    if slain:
        turning.append(betrayal_line("story.slain", count=slain))
    else:
        turning.append(betrayal_line("story.rooms", count=len(state.tiles)))
    won_side = haunt.winner if haunt is not None else ""
    seats = []
    for seat, explorer in enumerate(state.explorers):
        if plugin.cooperative:
            side, won = HOUSE, won_side == sides.HERO
        elif traitor is not None and seat == traitor:
            side, won = TRAITOR, won_side == sides.EVIL
        else:
            side, won = HEROES, won_side == sides.HERO
        did = with_deeds(
            betrayal_line("story.did_alive" if explorer.alive else "story.did_dead",
                          cards=len(explorer.cards)),
            [betrayal_line(f"story.deed_{deed}", count=count)
             for deed, kind in (("rooms", DISCOVER), ("slain", SLAIN))
             if (count := deeds_of(log, seat, kind))])
        seats.append(SeatStory(side=side, won=won, character=explorer_name(state, seat),
                               did=did))
    return Story(outcome=outcome, turning=turning, seats=seats,
                 content=haunt.key if haunt is not None else "", content_name=name)


def haunt_begun(state: BetrayalState, name: str) -> str:
    """The haunt, who revealed it, with what and where. An edition's haunt may begin
    with a card of another deck, named as printed (an expansion's encounter: "THE
    EATER OF WORLDS"), which reads as drawn, not as "the" omen."""
    haunt = state.haunt
    assert haunt is not None
    card = content.card(haunt.omen) if haunt.omen else None
    return betrayal_line("story.haunt" if card is None or card.deck == OMEN
                         else "story.haunt_card", haunt=name,
                         revealer=explorer_name(state, haunt.revealer),
                         omen=card.name if card is not None else "?",
                         room=content.room(haunt.room).name if haunt.room else "?")


def reason_said(state: BetrayalState, log: list[LogLine]) -> str:
    """Why the winning side won, in the language the story is told in. The state keeps
    the reason's words (`Haunt.reason_words`), said here in this language. A game
    decided before they were kept has the reason in English alone (the engine's truth:
    bot/languages.py's `said_in`); the line that told the table who won was said in
    each of its languages, and the log reads it in this one, so the reason is read back
    from it. Where the line does not fit its template here (a table that never read
    this language), the English reason."""
    haunt = state.haunt
    assert haunt is not None
    if haunt.reason_words:  # kept as words: said in this language whatever the log holds
        return base.reason_text(state)
    mark = "\x00"
    around = haunt_line(winner_key(state, haunt.winner), reason=mark).split(mark)
    told = last_of(log, "game_over")
    if len(around) == 2 and told:
        before, after = around
        inside = told[len(before):len(told) - len(after)]
        if told.startswith(before) and told.endswith(after) and inside.strip():
            return inside
    return haunt.reason


def explorer_word(stored: str) -> str:
    """An explorer as a story named it (English, the engine's truth) -> named in the
    language spoken, through its key; a name not ours is said as stored."""
    with speaking(ENGLISH):
        keys = {info.name: key for key, info in content.get().explorers.items()}
    key = keys.get(stored)
    return stored if key is None else content.explorer(key).name


def content_names(edition: str | None = None) -> dict[str, str]:
    """Every haunt a server may meet (every edition's; with `edition`, that edition's
    own, "" the classic 8), by key: what /stats lists as not yet seen."""
    return {key: info.name for key, info in haunts(edition).items()}
