"""The IT: Evil Below board in words, the image's alt text: whose turn, Pennywise, who
stands where and what each location has left, the tracks, the last roll, the fight's
turned cards and the weaknesses. Drawn from the same public view as the picture
(bot/games/evilbelow/pictures.py), so it says nothing the board hides."""

from __future__ import annotations

from bot.games.evilbelow.pictures import DOWN, BoardView, board_view
from bot.games.evilbelow.state import EvilBelowState
from bot.paths import DATA
from bot.texts import TextBook
from renderers.common import sentence, sentences

WORDS = TextBook(DATA / "evilbelow" / "alt_text.yaml")


def _say(key: str, **kw: object) -> str:
    return WORDS.say(f"alt.{key}", **kw)


def _face(face: str) -> str:
    try:
        return WORDS.text(f"alt.faces.{face}")
    except KeyError:
        return face


def describe_view(view: BoardView) -> str:
    """The board view in words."""
    join = WORDS.text("alt.joiner")
    parts = [_say("title"), sentence(view.footer or view.header)]
    # The headline facts first (a long text is cut at its end): the tracks, the fight,
    # the roll; then the town, place by place.
    for track in (view.influence, view.strength):
        parts.append(_say("track", label=track.label, filled=track.filled,
                          length=track.length))
    if view.cards:
        parts.append(_say("fight", cards=join.join(c.name for c in view.cards)))
    if view.dice:
        parts.append(_say("dice", player=view.roller, faces=join.join(
            _say("die", place=d.name, face=_face(d.face)) for d in view.dice)))
    where = next((loc.name for loc in view.locations if loc.pennywise), view.drainpipe)
    parts.append(_say("pennywise", place=where))
    for loc in view.locations:
        heroes = [_say("hero", character=view.heroes[s].name, player=view.heroes[s].player,
                       bravery=view.heroes[s].bravery, n=len(view.heroes[s].cards),
                       bike=_say("bike") if view.heroes[s].bike else "")
                  for s in loc.heroes]
        who = _say("who", names=join.join(heroes)) if heroes else ""
        victims = sum(1 for c in loc.circles if c.token == DOWN)
        parts.append(_say("location", place=loc.name, victims=victims, who=who))
    parts.append(_say("stack", size=view.fight_stack, attacks=view.fight_attacks))
    parts += [_say("weakness", reward=w.reward, name=w.name) for w in view.weaknesses
              if w.name]
    parts.append(_say("found", count=view.weaknesses_done))
    return sentences(parts)


def describe(state: EvilBelowState) -> str:
    """What the board shows, as a screen reader should hear it."""
    return describe_view(board_view(state))
