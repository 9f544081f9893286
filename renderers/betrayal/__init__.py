"""The Betrayal at House on the Hill images: the house map and an explorer's sheet.

The engine turns its state into plain views (`bot.games.betrayal.pictures`) and this package
draws them, so the pictures can never show more than the table may see. Everything
callers use is imported from here (`renderers.betrayal`); the modules split the work:

- `fonts`     the map's text sizes, and the smallest a chat preview can still show
- `layout`    where things go: panel arrangement, tile size, `MapGeometry`/`map_geometry`
- `tiles`     one tile (walls, doors, name, symbol, tokens, item pile, link letters) and
              the passages between tiles
- `explorers` explorer and monster tokens in their tiles, the acting ring, the
              traitor's band, the dead's cross, the roster row
- `map`       the whole map composed from shared pieces in its fixed palette, header
              and footer: `render_map`, `render_indexed`, `render_image`, `encode_map`,
              `render_house` (the whole house at full size)
- `board`     the chat board: one fixed 1100 x 700 canvas, the floor in play large, the
              others as overviews in fixed slots, a legend of every marker shown:
              `render_board` (the live message), `board_geometry`
- `overview`  where an overview's explorer and monster marks go: in their room, or on a
              chip beside a room too small for them to read at chat size
- `sheet`     an explorer's sheet: `render_sheet`, `render_sheet_image`, `sheet_geometry`
- `glyphs`    the omen, event, item and skull sprites
- `palette`   colours, token labels and the scaling rule shared by all of the above
- `geometry`  `MapGeometry`, the record `layout` fills and the drawing modules read
- `words`     the words drawn, from data/betrayal/texts.yaml's `board` section
"""

from __future__ import annotations

from renderers.betrayal.board import (
    BOARD_H,
    BOARD_W,
    READ_SHOWN_PX,
    SHOWN_SCALE,
    BoardGeometry,
    board_geometry,
    board_view,
    render_board,
    render_chat,
    render_chat_image,
    render_view,
)

# The `_name as _name` imports are internals the tests and the bench reach for (cache
# resets, tile and strip checks); everything else public is listed in __all__.
from renderers.betrayal.fonts import FRAME_FONTS, READ_PX, READ_WIDTH, SMALLEST_FONT, TILE_FONT
from renderers.betrayal.glyphs import glyph
from renderers.betrayal.layout import (
    ARRANGEMENTS,
    BASE_WIDTH,
    FOOTER_FONT,
    FOOTER_ROW_H,
    GAP_RATIO,
    HEADER_FONT,
    HEADER_H,
    MARGIN,
    PANEL_GAP,
    PANEL_MIN_W,
    PANEL_PAD,
    PANEL_TITLE_FONT,
    PANEL_TITLE_H,
    PREVIEW_ASPECT,
    ROSTER_GAP,
    ROSTER_H,
    TILE_LEGIBLE,
    TILE_MAX,
    TILE_MIN,
    MapGeometry,
    Node,
    map_geometry,
)
from renderers.betrayal.map import (
    encode_map,
    framed_box,
    map_ink,
    render_house,
    render_image,
    render_indexed,
    render_map,
)
from renderers.betrayal.palette import (
    ACCENT,
    BARRIER,
    BG,
    CARD_FACE,
    DEAD,
    DIM,
    EVENT,
    FIXED_TOKEN_COLOURS,
    FLAT_COLOURS,
    FLOOR_FILL,
    FRESH,
    GOLD,
    HAUNT_TOKEN,
    ITEM,
    LINK,
    MONSTER,
    MONSTER_EDGE,
    MUTED,
    OMEN,
    PANEL,
    PANEL_EDGE,
    PILE_BG,
    RING_GAP,
    START_FILL,
    START_LINE,
    STUNNED,
    SYMBOL_COLOURS,
    TEXT,
    TOKEN_COLOURS,
    TOKEN_EDGE,
    TRAIL,
    TRAITOR,
    WALL,
)
from renderers.betrayal.palette import glyph_mark as glyph_mark
from renderers.betrayal.sheet import (
    CARD_BG,
    CELL,
    CELL_EDGE,
    SHEET_FLAT,
    SHEET_WIDTH,
    SKULL_CELL,
    TRAITS,
    SheetGeometry,
    render_sheet,
    render_sheet_image,
    sheet_geometry,
)
from renderers.betrayal.tiles import MAP_LETTERS, SIDES, StripItem, TileLook, TileParts, link_pool
from renderers.betrayal.tiles import link_letters as link_letters
from renderers.betrayal.tiles import strip_layout as strip_layout
from renderers.betrayal.tiles import tile_look as tile_look
from renderers.betrayal.tiles import tile_parts as tile_parts
from renderers.betrayal.tiles import tile_sprite as tile_sprite

__all__ = [
    "ACCENT",
    "ARRANGEMENTS",
    "BARRIER",
    "BASE_WIDTH",
    "BG",
    "BOARD_H",
    "BOARD_W",
    "CARD_BG",
    "CARD_FACE",
    "CELL",
    "CELL_EDGE",
    "DEAD",
    "DIM",
    "EVENT",
    "FIXED_TOKEN_COLOURS",
    "FLAT_COLOURS",
    "FLOOR_FILL",
    "FOOTER_FONT",
    "FOOTER_ROW_H",
    "FRAME_FONTS",
    "FRESH",
    "GAP_RATIO",
    "GOLD",
    "HAUNT_TOKEN",
    "HEADER_FONT",
    "HEADER_H",
    "ITEM",
    "LINK",
    "MAP_LETTERS",
    "MARGIN",
    "MONSTER",
    "MONSTER_EDGE",
    "MUTED",
    "OMEN",
    "PANEL",
    "PANEL_EDGE",
    "PANEL_GAP",
    "PANEL_MIN_W",
    "PANEL_PAD",
    "PANEL_TITLE_FONT",
    "PANEL_TITLE_H",
    "PILE_BG",
    "PREVIEW_ASPECT",
    "READ_PX",
    "READ_SHOWN_PX",
    "READ_WIDTH",
    "RING_GAP",
    "ROSTER_GAP",
    "ROSTER_H",
    "SHEET_FLAT",
    "SHEET_WIDTH",
    "SHOWN_SCALE",
    "SIDES",
    "SKULL_CELL",
    "SMALLEST_FONT",
    "START_FILL",
    "START_LINE",
    "STUNNED",
    "SYMBOL_COLOURS",
    "TEXT",
    "TILE_FONT",
    "TILE_LEGIBLE",
    "TILE_MAX",
    "TILE_MIN",
    "TOKEN_COLOURS",
    "TOKEN_EDGE",
    "TRAIL",
    "TRAITOR",
    "TRAITS",
    "WALL",
    "BoardGeometry",
    "MapGeometry",
    "Node",
    "SheetGeometry",
    "StripItem",
    "TileLook",
    "TileParts",
    "board_geometry",
    "board_view",
    "encode_map",
    "framed_box",
    "glyph",
    "link_pool",
    "map_geometry",
    "map_ink",
    "render_board",
    "render_chat",
    "render_chat_image",
    "render_house",
    "render_image",
    "render_indexed",
    "render_map",
    "render_sheet",
    "render_sheet_image",
    "render_view",
    "sheet_geometry",
]
