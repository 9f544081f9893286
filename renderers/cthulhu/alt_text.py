"""The Cthulhu board in words (the image's alt text): whose turn, who stands where, the
portals, who left the house and the scores. Public facts only, like the picture: who
owns which character is never said."""

from __future__ import annotations

from bot.games.cthulhu.names import character_name, room_name
from bot.games.cthulhu.state import RUMBLES, CthulhuState
from bot.paths import DATA
from bot.texts import TextBook
from renderers.common import sentences

WORDS = TextBook(DATA / "cthulhu" / "alt_text.yaml")


def _say(key: str, **kw: object) -> str:
    return WORDS.say(f"alt.{key}", **kw)


def _room_name(state: CthulhuState, room: object) -> str:
    return room_name(state, room) if isinstance(room, int) and 0 <= room < len(
        state.rooms) else "?"


def _last(state: CthulhuState) -> str:
    last = state.last or {}
    character = last.get("character")
    if last.get("kind") == "move" and isinstance(character, int) \
            and 0 <= character < len(state.characters):
        return _say("last_move", character=character_name(state, character),
                    origin=_room_name(state, last.get("from")),
                    target=_room_name(state, last.get("to")))
    if last.get("kind") == "fight":
        return _say("last_fight", room=_room_name(state, last.get("room")))
    return ""


def describe(state: CthulhuState) -> str:
    """What the board shows, as a screen reader should hear it."""
    join = WORDS.text("alt.joiner")
    parts = [_say("title", rumble=min(state.rumble, RUMBLES), rumbles=RUMBLES)]
    if state.over:
        names = [state.players[w] for w in state.winners if 0 <= w < len(state.players)]
        parts.append(_say("winner" if len(names) == 1 else "winners", names=" & ".join(names))
                     if names else _say("over"))
    elif 0 <= state.turn < len(state.players):
        parts.append(_say("turn", player=state.players[state.turn]))
    parts.append(_last(state))
    anyone = False
    for i in range(len(state.rooms)):
        inside = [character_name(state, c) for c, where in enumerate(state.location)
                  if where == i]
        if inside:
            anyone = True
            parts.append(_say("room", room=room_name(state, i), who=join.join(inside)))
    if not anyone:
        parts.append(_say("empty_house"))
    for i, portals in enumerate(state.room_portals):
        if portals and i < len(state.rooms):
            parts.append(_say("portals", room=room_name(state, i), n=len(portals)))
    if state.reserve:
        parts.append(_say("reserve", n=len(state.reserve)))
    if state.removed:
        parts.append(_say("removed", names=join.join(
            character_name(state, c) for c in state.removed if 0 <= c < len(state.characters))))
    if state.scores:
        parts.append(_say("scores", scores=join.join(
            _say("score", player=p, points=state.scores[s]) for s, p in enumerate(state.players)
            if s < len(state.scores))))
    return sentences(parts)
