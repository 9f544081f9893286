"""The public picture of an IT: Evil Below game: the board after every step that
changes it, the dice of the last roll and the fight's turned cards on it (one image per
post: Discord lays a second one beside the first, cropped).

It is drawn from the engine's view (bot/games/evilbelow/pictures.py), never from the state
itself, so nothing face down can reach it: victims still in their circles are drawn
face down alike, the Fight Stack, decks and attack pile only as counts.

One fixed landscape canvas for the whole game, shaped as Discord shows images inline
(renderers/evilbelow/layout.py: where everything goes, and why the smallest text reads
at chat size).

A board is posted after every action, and drawing it whole in RGB, then quantizing and
encoding it, cost more than the rest of the action several times over. So it is
composed as Cthulhu's is (renderers.canvas): from pieces (a panel, a circle, a pawn, a
row of hearts, a die) each drawn once in RGB with the shared anti-aliased helpers on
the flat colour it lies on and quantized once, then pasted in the palette, and written
band by band, the bands unchanged since any earlier render reused. Pieces are keyed by
public facts only (sizes, names, colours, counts, a circle's "face down"), so no cache
can carry a secret. A piece with round()ed edges is drawn at its point's offset from an
even pixel (`_glyph`), where round()'s ties to even fall as on the board, so the board
is the one drawing in place gives, pixel for pixel. The palette is fitted once per
width and fonts to a made-up sample board (no game's state is in it): the same state
always gives the same bytes. bench/bench_render_evil_below.py times it.

Where to look: glyphs.py draws each thing once (a balloon, a pawn, a die, a panel),
draw.py lays them on the board panel by panel, layout.py says where; this module fits
the palette and writes the PNG.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from PIL import Image

from bot.games.base import PlayerInfo
from bot.games.evilbelow import GAME, content
from bot.games.evilbelow.pictures import CHILD, BoardView, CardView, DieView, board_view
from bot.locales import ENGLISH, speaking
from renderers import budgets
from renderers.canvas import Ink, register
from renderers.common import font_signature, make_palette, mix, parse_colour
from renderers.evilbelow.draw import compose, compose_canvas, geometry
from renderers.evilbelow.glyphs import BALLOON, BG, CHILD_FILL, DOWN_FILL, FLAT_COLOURS, HOLE, TRAIL
from renderers.evilbelow.layout import BASE_WIDTH, MIN_TEXT, Geometry, U

__all__ = ["BALLOON", "BASE_WIDTH", "CHILD_FILL", "DOWN_FILL", "HOLE", "MIN_TEXT", "TRAIL",
           "Geometry", "U", "compose", "geometry"]


# ---------------------------------------------------------------- palette and output


def _sample() -> BoardView:
    """A made-up game (fixed seed, seven seats) with every kind of thing on show, to fit
    the palette to: no real game's state is in it."""
    state, _ = GAME.setup([PlayerInfo(f"Player {i + 1}") for i in range(7)], 1, {})
    view = board_view(state)
    locs = list(view.locations)
    locs[0] = replace(locs[0], pennywise=True, circles=tuple(
        replace(c, token="") for c in locs[0].circles))
    locs[1] = replace(locs[1], circles=(replace(locs[1].circles[0], token=CHILD),
                                        *locs[1].circles[1:]))
    board = content.board()
    faces = ["balloon", "hand", "heart", "hand", "heart", "balloon", "hand"]
    dice = tuple(DieView(d, board.names[d], board.colours[d], face, d % 2 == 0)
                 for d, face in enumerate(faces))
    cards = (CardView("Rock (The Barrens)", board.colours[1], "R", False),
             CardView("Pennywise Attack", "", "", True))
    return replace(view, locations=tuple(locs), pennywise_drainpipe=False, fighting=True,
                   revealed=("Rock (The Barrens)",), footer="The Losers' Club wins.",
                   influence=replace(view.influence, filled=6),
                   strength=replace(view.strength, filled=3), changed=(0, 1),
                   heroes=tuple(replace(h, moved=h.seat == 1) for h in view.heroes),
                   dice=dice, roller="Player 1", cards=cards)


@budgets.small(budgets.INKS, budgets.owned(budgets.INK_BYTES))
def _palette(width: int, fonts: tuple[object, ...]) -> Any:
    del fonts  # part of the key only: new fonts draw new edges
    with speaking(ENGLISH):  # one palette for every language (the sample's words: English)
        colours = tuple(parse_colour(c) for c in content.board().colours)
        faded = tuple(mix(c, BG, 0.6) for c in colours)
        sample = compose(_sample(), width)
    return make_palette([sample], exact=FLAT_COLOURS + colours + faded)


register(_palette)


def palette(width: int) -> Any:
    return _palette(int(width), font_signature())


@budgets.small(budgets.INKS, budgets.owned(budgets.INK_BYTES))
def _ink(width: int, fonts: tuple[object, ...]) -> Ink:
    return Ink(_palette(width, fonts))


register(_ink)


def board_ink(width: int) -> Ink:
    """The boards' palette at this width, with the lookups drawing in it needs."""
    return _ink(int(width), font_signature())


def render_image(state: Any, *, width: int = BASE_WIDTH) -> Image.Image:
    """The board as an RGB image (before its palette)."""
    return compose(board_view(state), width)


def render_view(view: BoardView) -> bytes:
    """The public board of this view (`renderers.board`: drawn only when it changed;
    `board_view` is the game's own, imported above)."""
    return compose_canvas(view, BASE_WIDTH, board_ink(BASE_WIDTH)).png()


def render_board(state: Any, *, width: int = BASE_WIDTH) -> bytes:
    """The public board as PNG bytes: composed in the palette from cached pieces and
    written band by band, the bands drawn as before (by any game) reused."""
    return compose_canvas(board_view(state), width, board_ink(width)).png()

