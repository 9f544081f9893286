"""IT: Evil Below's story at the end: the Losers' Club against Pennywise, together;
the last fight and the victims rescued, and where each Loser ended."""

from __future__ import annotations

import re

from bot.core.story import (
    HOUSE,
    LogLine,
    SeatStory,
    Story,
    count_of,
    deeds_of,
    last_of,
    with_deeds,
)
from bot.games.evilbelow import content
from bot.games.evilbelow.content import evil_below_line
from bot.games.evilbelow.state import WIN, EvilBelowState
from bot.locales import ENGLISH, speaking

# A sentence's end in either language: ". " or "。".
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=。)")


def first_sentence(line: str) -> str:
    """A rescue line's first sentence: who brought a child back, and where. Its second
    counts the children still on the track then, which the story's end contradicts (a
    game lost on a full track read "8 still on the Evil Influence track")."""
    return _SENTENCE_END.split(line, maxsplit=1)[0]


def story_of(state: EvilBelowState, log: list[LogLine]) -> Story:
    won = state.result == WIN
    # Every end comes during a turn (a fight, a sighting, a lost Bravery), which
    # `turns_played` does not count yet: the board's header reads "Turn N" then.
    turns = state.turns_played + 1
    if won:
        outcome = evil_below_line("story.win", turns=turns)
    elif state.result:
        outcome = evil_below_line("story.lost", turns=turns,
                                  why=evil_below_line(f"story.why_{state.result}"))
    else:  # only a finished game has a story: its result is set
        outcome = last_of(log, "game_over")
    turning = []
    rescues = count_of(log, "rescue")
    if rescues:
        turning.append(evil_below_line("story.rescued", count=rescues,
                                       line=first_sentence(last_of(log, "rescue"))))
    fight = last_of(log, "fight")
    if fight:
        turning.append(evil_below_line("story.last_fight", line=fight))
    seats = []
    for seat, hero in enumerate(state.heroes):
        deeds = [evil_below_line(f"story.deed_{deed}", count=count)
                 for deed, kind in (("rescued", "rescue"), ("fights", "fight"))
                 if (count := deeds_of(log, seat, kind))]
        seats.append(SeatStory(
            side=HOUSE, won=won, character=content.character(hero.character).name,
            did=with_deeds(evil_below_line("story.did", bravery=hero.bravery,
                                           cards=len(hero.hand)), deeds)))
    return Story(outcome=outcome, turning=turning, seats=seats)


def character_word(stored: str) -> str:
    """A hero as a story named it (English, the engine's truth) -> named in the language
    spoken, through its key; a name not ours is said as stored."""
    with speaking(ENGLISH):
        keys = {info.name: info.key for info in content.characters()}
    key = keys.get(stored)
    return stored if key is None else content.character(key).name
