"""The map's text sizes, at the base width (renderers.betrayal.layout.BASE_WIDTH, 1200
px): the frame's text scales with the image, so these decide whether it can be read
once a chat shows the image smaller.

The live message shows the chat board (`renderers.betrayal.board`, 1100 x 700) inside
Discord's 550 x 350 box, at half size: text under 9 px there cannot be read, so nothing
on it is drawn under 18 px, which is these sizes scaled to its width (20 -> 18). The
whole house (`/game map`) is 1200 wide and must still read at READ_WIDTH (READ_PX): every
size here is READ_PX * 1200 / READ_WIDTH (20) or more; the smallest is SMALLEST_FONT
(the legend, the roster's names and notes, a shrunk footer line). `FRAME_FONTS` lists
them all for the tests.

Text inside the tiles (room names, explorer and monster labels, the strip's tokens,
letters and counts) scales with the tile, but never below TILE_FONT (at the base width):
`MapGeometry.tile_font` is that floor for the image's width.
"""

from __future__ import annotations

HEADER_FONT = 30
PANEL_TITLE_FONT = 21
FOOTER_FONT = 21
READ_WIDTH = 600
READ_PX = 10
SMALLEST_FONT = 20
LEGEND_FONT = SMALLEST_FONT
PROGRESS_FONT = 22  # the haunt's progress row
ROSTER_PLAYER_FONT = 22  # the player's name on a roster chip, shrunk to SMALLEST_FONT
ROSTER_DETAIL_FONT = 20  # the explorer's name (and fate) beside it
PANEL_NOTE_FONT = SMALLEST_FONT  # "4 rooms" beside a floor's title
TILE_FONT = SMALLEST_FONT  # the smallest text drawn inside a tile
PILL_TEXT = 0.66  # a strip pill's text per strip height (the strip grows to hold TILE_FONT)
HEADER_MIN_FONT = round(HEADER_FONT * 0.7)  # a long header shrinks to this
FRAME_FONTS: tuple[int, ...] = (HEADER_FONT, HEADER_MIN_FONT, PANEL_TITLE_FONT,
                                PANEL_NOTE_FONT, FOOTER_FONT, LEGEND_FONT, PROGRESS_FONT,
                                ROSTER_PLAYER_FONT, ROSTER_DETAIL_FONT, SMALLEST_FONT)
