"""The public board image for Cthulhu in the House, posted after every turn.

The image is public, so it draws only public facts: where characters stand, how many
face-down portals lie in each room, the removal line and the scores. Portal kinds,
the reserve's kinds and who owns which character (`state.secrets`) never reach the
drawing code — tests render states that differ only in those and demand identical bytes.

Geometry is computed once, in `board_geometry`, from arithmetic alone (no font
measurements), and the renderer draws from that same object. Tests and anything else
that needs to know "what is where" therefore see exactly what was drawn.

Sizes are written for the 1100 px wide board (layout.py's BASE_WIDTH) and scaled; no
text is smaller than what still reads when Discord shows the board 550 px wide.

A board is drawn after every action of every channel, so it is composed in its PNG
palette from pieces any game may share (`renderers.canvas`: rooms, tokens, slots,
markers, words) and written band by band, bands drawn before reused (bench/bench_render.py
and bench/bench_render_rr.py measure it); the palette is fitted once per look
(`_ink`). No cache can carry a secret from one render to another: pieces are keyed by,
and drawn from, public facts only (sizes, names, colours, counts, the fonts), never from
a state, and a band is described by the pieces in it.
"""

from __future__ import annotations

from PIL import Image

from bot.games.cthulhu.state import RUMBLES, Character, CthulhuState, Room
from bot.locales import ENGLISH, speaking
from renderers import budgets
from renderers.canvas import Ink, register
from renderers.common import (
    BLACK,
    WHITE,
    Colour,
    font_signature,
    make_palette,
    parse_colour,
    to_png,
)
from renderers.cthulhu.draw import compose
from renderers.cthulhu.draw import house_key as _house_key
from renderers.cthulhu.layout import (
    ACCENT,
    BASE_WIDTH,
    BG,
    DIM,
    FLOOR,
    FONT_SIZES,
    GOLD,
    MUTED,
    PANEL,
    PANEL_EDGE,
    PORTAL_CORE,
    PORTAL_GLOW,
    PORTAL_VOID,
    READ_PX,
    READ_WIDTH,
    SMALLEST_FONT,
    TEXT,
    TRAIL,
    WALL,
    BoardGeometry,
    board_geometry,
    position_points,
)
from renderers.cthulhu.seats import seat_marker

# The PNG palette is fitted once per look (width, character colours, fonts) to two
# sample boards drawn from made-up states, then reused for every board of that look
# (every game plays the same twelve characters, so in play there is one): the layout
# does not matter (only the colours do), and since it is fitted to nothing from a real
# game, no state can leak into another's image through it.
FLAT_COLOURS: tuple[Colour, ...] = (BG, PANEL, PANEL_EDGE, FLOOR, WALL, TEXT, MUTED, DIM,
                                    GOLD, ACCENT, PORTAL_GLOW, PORTAL_VOID, PORTAL_CORE,
                                    TRAIL, BLACK, WHITE)
_SAMPLE_ROOMS = ("Attic", "Observatory", "Nursery", "Chapel", "Library", "Great Hall",
                 "Ballroom", "Conservatory", "Cellar", "Kitchen", "Crypt", "Study")


def _sample_states(colours: tuple[Colour, ...]) -> list[CthulhuState]:
    n = len(colours)
    rooms = [Room(name, i % 4, i // 4) for i, name in enumerate(_SAMPLE_ROOMS)]
    passages = [(i, i + 1) for i in range(12) if i % 4 < 3 and i not in (1, 6)]
    passages += [(i, i + 4) for i in range(8) if i not in (5,)]
    chars = [Character(f"Character {c + 1}", "#{:02x}{:02x}{:02x}".format(*colours[c]))
             for c in range(n)]
    players = [f"Player {p + 1}" for p in range(6)]
    inside, out = list(range(0, n, 2)), list(range(1, n, 2))
    location: list[int | None] = [None] * n
    for k, c in enumerate(inside):
        location[c] = (k % 4) * 3 if k < 8 else 5  # single, shared and crowded rooms
    portals: list[list[str]] = [[] for _ in rooms]
    portals[3], portals[5], portals[10] = ["?", "?"], ["?"], ["?"]
    mid = CthulhuState(
        players=players, ai=[False] * 6, layout="", rooms=rooms, passages=passages,
        characters=chars, location=location, room_portals=portals, reserve=["?"] * 3,
        removed=out, scores=[0, 4, 9, 13, 21, 30], rumble=2, turn=1,
        last={"seat": 0, "kind": "move", "character": 0, "from": 1, "to": 0} if n else {},
    )
    last: list[int | None] = [None] * n
    if n:
        last[0] = 7
    over = CthulhuState(
        players=players, ai=[False] * 6, layout="", rooms=rooms, passages=passages,
        characters=chars, location=last, room_portals=[[] for _ in rooms], reserve=["?"],
        removed=list(range(1, n)), scores=[3, 11, 35, 7, 19, 26], rumble=RUMBLES, over=True,
        winners=[2],
    )
    return [mid, over]


@budgets.small(budgets.INKS, budgets.owned(budgets.INK_BYTES))
def _ink(width: int, colours: tuple[Colour, ...], fonts: tuple[object, ...]) -> Ink:
    """The palette, fitted to samples drawn in English whatever the language spoken: one
    palette for every language, so a board's bytes never depend on which language drew
    the first board of a width."""
    with speaking(ENGLISH):
        samples = [compose(state, width, None).image for state in _sample_states(colours)]
    return Ink(make_palette(samples, exact=FLAT_COLOURS + colours))  # type: ignore[arg-type]


register(_ink)


def board_ink(state: CthulhuState, width: int) -> Ink:
    """The palette (with its lookups) of boards with these characters at this width."""
    colours = tuple(parse_colour(c.colour) for c in state.characters)
    return _ink(int(width), colours, font_signature())


def render_indexed(state: CthulhuState, *, width: int = BASE_WIDTH) -> Image.Image:
    """The board as the PNG holds it: a "P" image in the board's fixed palette."""
    return compose(state, width, board_ink(state, width)).finish()


def render_image(state: CthulhuState, *, width: int = BASE_WIDTH) -> Image.Image:
    """The board as an RGB image (for callers that compose or inspect it). Quantized to
    the board's palette it is `render_indexed`, pixel for pixel."""
    return compose(state, width, None).finish()


def encode_board(state: CthulhuState, img: Image.Image) -> bytes:
    """PNG bytes of a board image drawn for `state` (RGB is mapped to its palette)."""
    if img.mode == "P":
        return to_png(img)
    return to_png(img, palette=board_ink(state, img.width).palette)


def render_board(state: CthulhuState, *, width: int = BASE_WIDTH) -> bytes:
    """The public board as PNG bytes, ready to attach to the channel message: written
    band by band, the bands drawn as before (by this game or any other) reused."""
    return compose(state, width, board_ink(state, width)).png()


__all__ = [
    "BASE_WIDTH",
    "BG",
    "FLOOR",
    "FONT_SIZES",
    "PORTAL_CORE",
    "READ_PX",
    "READ_WIDTH",
    "SMALLEST_FONT",
    "TRAIL",
    "BoardGeometry",
    "_house_key",
    "board_geometry",
    "board_ink",
    "compose",
    "encode_board",
    "position_points",
    "render_board",
    "render_image",
    "render_indexed",
    "seat_marker",
]  # _house_key: the tests check what the cached house is keyed by
