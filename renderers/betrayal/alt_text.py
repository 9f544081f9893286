"""The Betrayal map (every edition's) in words, the image's alt text: whose turn, where each
explorer stands, the monsters, the card track and the haunt's line. Drawn from the same
public view as the map (bot/games/betrayal/views.map_view), so it says nothing the
picture hides."""

from __future__ import annotations

from bot.games.betrayal.pictures import MapView, TileView
from bot.games.betrayal.shown import map_view
from bot.games.betrayal.state import BetrayalState
from bot.paths import DATA
from bot.texts import TextBook
from renderers.common import sentence, sentences

WORDS = TextBook(DATA / "betrayal" / "alt_text.yaml")


def _say(key: str, **kw: object) -> str:
    return WORDS.say(f"alt.{key}", **kw)


def _room(view: MapView, floor: str, x: int, y: int) -> TileView | None:
    return next((t for t in view.tiles if (t.floor, t.x, t.y) == (floor, x, y)), None)


def _floor(floor: str) -> str:
    try:
        return WORDS.text(f"alt.floors.{floor}")
    except KeyError:
        return floor


def describe_view(view: MapView) -> str:
    """The map view in words."""
    join = WORDS.text("alt.joiner")
    parts = [sentence(view.header), _say("title", n=len(view.tiles))]
    people = []
    for e in view.explorers:
        tile = _room(view, e.floor, e.x, e.y)
        where = dict(explorer=e.name, player=e.player, room=tile.name if tile else "?",
                     floor=_floor(e.floor))
        line = _say("explorer" if e.alive else "dead", **where)
        if e.traitor:
            line = _say("tagged", line=line, tag=_say("traitor"))
        if e.acting:
            line = _say("tagged", line=line, tag=_say("to_play"))
        people.append(line)
    if people:
        parts.append(_say("people", list=join.join(people)))
    monsters = []
    for m in view.monsters:
        tile = _room(view, m.floor, m.x, m.y)
        monsters.append(_say("stunned" if m.stunned else "monster", monster=m.name,
                             room=tile.name if tile else "?"))
    if monsters:
        parts.append(_say("monsters", list=join.join(monsters)))
    parts.append(_say("track", label=view.track.label, note=view.track.note))
    if view.footer:
        parts.append(sentence(view.footer))
    return sentences(parts)


def describe(state: BetrayalState) -> str:
    """What the board shows, as a screen reader should hear it."""
    return describe_view(map_view(state))
