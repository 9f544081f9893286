"""Where everything on a Betrayal board is drawn, as the layout worked it out: a plain
record that the layout (layout.py) fills in and the drawing modules (explorers.py,
map.py...) read, kept in a module of its own so that neither needs the other to name
it."""

from __future__ import annotations

from dataclasses import dataclass, field

from renderers.common import Box, Point


@dataclass(frozen=True)
class MapGeometry:
    """Where everything is drawn, in image pixels. Boxes are (x0, y0, x1, y1), x1/y1
    exclusive."""

    width: int
    height: int
    scale: float
    tile: int  # side of a tile
    gap: int  # space between neighbouring tiles
    arrangement: str
    header: Box
    roster: Box
    footer: Box
    panels: dict[str, Box]  # floor -> its panel (floors with something on them)
    grids: dict[str, Box]  # floor -> the cells of its explored extent
    extents: dict[str, tuple[int, int, int, int]]  # floor -> grid x0, y0, x1, y1 (incl.)
    tiles: dict[str, Box]  # tile key -> tile box
    sides: dict[str, dict[str, Point]]  # tile key -> side -> middle of that wall
    tokens: dict[int, Point]  # seat -> explorer token centre
    token_radius: dict[int, int]  # seat -> disc radius
    ring_radius: dict[int, int]  # seat -> radius of the middle of the acting ring
    roster_chips: dict[int, Box]  # seat -> its chip in the roster row
    omen_track: tuple[Point, ...]  # centres of the card track's marks in the footer
    footer_text: Box | None  # where view.footer (or view.footer_shown) is written
    progress_text: Box | None = None  # where view.progress is written (the haunt's rows)
    progress: tuple[str, ...] = ()  # its lines, one a row (`progress_lines`)
    track_widest: str = ""  # the widest note of the track: the legend starts after it
    # Monster id -> its token centre and disc radius (alike monsters in a room share one
    # stacked token, so they share a centre).
    monsters: dict[int, Point] = field(default_factory=dict)
    monster_radius: dict[int, int] = field(default_factory=dict)
    tile_font: int = 0  # no text inside a tile is drawn smaller (TILE_FONT scaled)
