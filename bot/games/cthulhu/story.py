"""Cthulhu in the House's story at the end: who won on points, who was left standing
in each rumble, the fight that settled the last one, and each seat's scores and the
two characters it hid last (public once the game is over)."""

from __future__ import annotations

from bot.core.story import (
    SOLO,
    LogLine,
    SeatStory,
    Story,
    deeds_of,
    last_and_after,
    last_of,
    with_deeds,
)
from bot.games.cthulhu.content import cthulhu_line
from bot.games.cthulhu.names import character_name
from bot.games.cthulhu.state import CthulhuState
from bot.texts import and_list, listed


def story_of(state: CthulhuState, log: list[LogLine]) -> Story:
    winners = state.winners
    if len(winners) == 1:
        outcome = cthulhu_line("story.win", player=state.players[winners[0]],
                               points=state.scores[winners[0]])
    elif winners:
        outcome = cthulhu_line("story.shared",
                               players=and_list([state.players[s] for s in winners]),
                               points=state.scores[winners[0]])
    else:  # only a finished game has a story: it has its winners
        outcome = last_of(log, "game_over")
    turning = []
    if state.results:
        turning.append(cthulhu_line("story.survivors", survivors=listed([
            cthulhu_line("story.survivor_item", number=r.number,
                         character=character_name(state, r.survivor))
            for r in state.results])))
    fight = _deciding_fight(log)
    if fight:
        turning.append(cthulhu_line("story.deciding", line=fight))
    seats = []
    for seat in range(len(state.players)):
        did = ""
        if state.results:
            first, second = state.results[-1].secrets[seat]
            rumbles = " + ".join(str(r.points[seat]) for r in state.results)
            did = cthulhu_line("story.did", rumbles=rumbles, points=state.scores[seat],
                               first=character_name(state, first),
                               second=character_name(state, second))
        fights = deeds_of(log, seat, "fight")
        did = with_deeds(did, [cthulhu_line("story.deed_fights", count=fights)] if fights else [])
        seats.append(SeatStory(side=SOLO, won=seat in winners, score=state.scores[seat],
                               did=did))
    return Story(outcome=outcome, turning=turning, seats=seats)


def _deciding_fight(log: list[LogLine]) -> str:
    """The last fight's line, followed by its abyss lines if it flipped one: an abyss
    sends the thrown-out character back (ruling 6), so the fight line alone would name
    the rumble's survivor as thrown out."""
    told = ""
    for text in last_and_after(log, "fight", "abyss"):
        told = cthulhu_line("story.then", first=told, then=text) if told else text
    return told
