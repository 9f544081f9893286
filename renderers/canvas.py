"""Composing board images from cached pieces, in RGB or in their PNG palette.

A board is drawn after every action of every channel, and many channels take turns,
so a cache of one channel's drawing is evicted by the others' before that channel
comes round again. Boards are therefore composed on every render from pieces keyed by
what they show (a tile, a pawn, a word), which any game showing the same thing
shares: each piece is drawn once in RGB with the usual helpers and quantized once to
the board's fixed palette (an `Ink`). Nothing is quantized per render.

An indexed canvas is a list of what goes where (flat fills and pieces, in order); it
becomes an image (`finish`), or a PNG written band by band (`png`, see
`renderers.png`): a band is described exactly by the fills and pieces that touch it
(each piece has a serial number for life), so a band described as one already written
is reused, neither drawn nor compressed again. In a turn most bands are.

Pieces are drawn on the flat colour they are put on (`on`), so a piece quantized
alone is what quantizing the whole board would give at its pixels; text is mapped
through a ramp (`Ink.ramp`) from coverage to the index of the colour Pillow would
have blended. The same composition run without an ink gives the RGB image, and
quantizing that gives the indexed one pixel for pixel (the renderers' tests hold them
to it). Text stays anti-aliased and flat fills stay exact, as before.

Every cache is bounded by entries and by bytes (`bot.core.lru`), each entry weighed at
what it costs in memory and each cache's budget set in `renderers.budgets`. Indexed
pieces are kept as "L" images of palette indices: a quantized "P" image carries a
palette object of its own (~8 KB, more than most pieces' pixels), and pasting indices
needs none.
"""

from __future__ import annotations

import itertools
import math
import struct
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from functools import update_wrapper
from typing import Any, Generic, ParamSpec

from PIL import Image, ImageChops, ImageDraw, ImageFont

from bot.core.lru import CacheInfo, Lru
from bot.locales import current
from renderers import BOARDS, budgets, heap, png
from renderers.common import (
    Box,
    Colour,
    Font,
    Palette,
    Point,
    draw_text,
    face_for,
    font_signature,
    printable,
    text_mask,
    text_stroke,
    text_width,
    to_png,
)

P = ParamSpec("P")


_SERIALS = itertools.count(1)


@dataclass(frozen=True, eq=False)
class Sprite:
    """A drawn piece: `image` is RGB, or "P" indices once quantized; `mask` ("1") marks
    the pixels it covers, None when it covers its whole box; `offset` is where its
    top-left corner goes relative to the point it is put at. `serial` is unique for
    the life of the process: a band that holds the same serials holds the same pixels."""

    image: Image.Image
    mask: Image.Image | None = None
    offset: Point = (0, 0)
    serial: int = field(default_factory=lambda: next(_SERIALS))


class Ink:
    """A fixed palette and the lookups drawing in it needs.

    Caches key on an ink by identity (hashing a 768-entry palette per lookup would cost
    more than the lookup), so the renderers make one per palette and keep it.
    """

    def __init__(self, palette: Palette) -> None:
        self.palette = palette
        self.serial = next(_SERIALS)
        self._index: dict[Colour, int] = {}
        self._ramps: dict[tuple[Colour, Colour], list[int]] = {}

    def quantize(self, img: Image.Image) -> Image.Image:
        """`img` as palette indices, each pixel mapped as the whole board would map it."""
        rgb = img if img.mode == "RGB" else img.convert("RGB")
        return rgb.quantize(palette=self.palette.lookup, dither=Image.Dither.NONE)

    def index(self, colour: Colour) -> int:
        """The index a pixel of `colour` gets (its own entry for the pinned flat ones)."""
        found = self._index.get(colour)
        if found is None:
            rgb = (colour[0], colour[1], colour[2])
            found = self._index[colour] = int(
                self.quantize(Image.new("RGB", (1, 1), rgb)).getpixel((0, 0)))  # type: ignore[arg-type]
        return found

    def ramp(self, fill: Colour, on: Colour) -> list[int]:
        """Coverage (0..255) -> the index of `fill` blended over `on` at that coverage,
        blended the way ImageDraw fills through a text mask."""
        key = ((fill[0], fill[1], fill[2]), (on[0], on[1], on[2]))
        found = self._ramps.get(key)
        if found is None:
            row = Image.new("RGB", (256, 1), key[1])
            row.paste(key[0], (0, 0, 256, 1), _GRADIENT)
            found = self._ramps[key] = list(self.quantize(row).tobytes())
        return found

    def finish(self, img: Image.Image) -> Image.Image:
        """A composed "P" image with this palette's colours attached, ready to encode."""
        img.putpalette(self.palette.colours)
        return img


_GRADIENT = Image.frombytes("L", (256, 1), bytes(range(256)))
# Image.point table: any coverage at all -> set (a mask of the pixels a piece touches).
COVERED: list[int] = [0] + [255] * 255

# Every cache a render may fill, so `clear_caches` can empty them all (tests compare a
# render from cold caches with a warm one; the bench reports their hit rates).
_CACHES: list[Any] = []


def register(cache: Any) -> Any:
    """Note a cache (anything with cache_clear) for `clear_caches`; returns it."""
    _CACHES.append(cache)
    return cache


register(BOARDS)  # whole boards by their view (renderers.board)


def registered() -> tuple[Any, ...]:
    """Every cache noted so far (the memory bench and tests read their sizes)."""
    return tuple(_CACHES)


def clear_caches() -> None:
    """Forget every cached piece, ink and layer of every renderer."""
    for cache in _CACHES:
        cache.cache_clear()


class Pieces(Generic[P]):
    """A function drawing a piece (an RGB `Sprite`) from hashable arguments, and a
    bounded cache of that piece quantized for each ink. Call it as `pieces(ink, *args)`:
    with an ink, the cached indexed sprite; with None, the RGB one, drawn afresh (only
    palette fitting and callers inspecting RGB images ask for those).

    A piece that draws words it looks up itself (a label from data/, not one of its
    arguments) is made with `words=True`: its key takes the language spoken
    (bot.locales), so a board in one language never shows a piece drawn for another."""

    def __init__(self, draw: Callable[P, Sprite], maxsize: int, maxbytes: int,
                 words: bool = False) -> None:
        self.draw = draw
        self.words = words
        self.kept: Lru[Hashable, Sprite] = Lru(maxsize, maxbytes, draw.__qualname__)
        update_wrapper(self, draw)
        register(self)

    # The type: ignores: typing cannot say "P's positional arguments, no keywords"
    # (P.args comes only with P.kwargs), and the cache key needs them hashable.
    def __call__(self, ink: Ink | None, *args: Hashable) -> Sprite:
        if ink is None:
            return self.draw(*args)  # type: ignore[arg-type, call-arg]
        key = (ink, current(), args) if self.words else (ink, args)
        sprite = self.kept.get(key)
        if sprite is None:
            drawn = self.draw(*args)  # type: ignore[arg-type, call-arg]
            sprite = Sprite(indices(ink.quantize(drawn.image)), drawn.mask, drawn.offset)
            self.kept.put(key, sprite, sprite_bytes(sprite))
        return sprite

    def cache_info(self) -> CacheInfo:
        return self.kept.cache_info()

    def cache_clear(self) -> None:
        self.kept.cache_clear()


# What a cached sprite costs beyond its images (the Sprite, its key and the entry).
_SPRITE_OVERHEAD = 300


def sprite_bytes(sprite: Sprite) -> int:
    """What a cached sprite costs in memory: its image, its mask and itself."""
    return _SPRITE_OVERHEAD + budgets.image_bytes(sprite.image) + budgets.image_bytes(
        sprite.mask)


def indices(img: Image.Image) -> Image.Image:
    """A quantized "P" image as an "L" image of the same indices, without the palette
    (the canvas pastes indices into its own "P" image, which has the palette)."""
    return Image.frombytes("L", img.size, img.tobytes())


def pieces(maxsize: int, maxbytes: int = budgets.SMALL_PIECES, *, words: bool = False
           ) -> Callable[[Callable[P, Sprite]], Pieces[P]]:
    """Decorator form of `Pieces` (`budgets.SMALL_PIECES` unless told; `words`: the
    piece looks words up, so it is kept per language)."""
    return lambda draw: Pieces(draw, maxsize, maxbytes, words)


def footprint(img: Image.Image, on: Colour) -> Image.Image:
    """A "1" mask of the pixels of an RGB piece that differ from the flat `on` it was
    drawn on."""
    r, g, b = ImageChops.difference(img, Image.new("RGB", img.size, on)).split()
    return ImageChops.lighter(ImageChops.lighter(r, g), b).point(COVERED, "1")


def trimmed(img: Image.Image, on: Colour, origin: Point) -> Sprite:
    """A piece drawn on a generous canvas of `on` around `origin`, cut to what was drawn
    and masked to it, placed relative to `origin`."""
    mask = footprint(img, on)
    box = mask.getbbox()
    if box is None:
        return Sprite(Image.new("RGB", (1, 1), on), Image.new("1", (1, 1), 0), (0, 0))
    return Sprite(img.crop(box), mask.crop(box), (box[0] - origin[0], box[1] - origin[1]))


# Words and lines of text drawn as pieces, by font, text, colours and offset: small (a
# few hundred bytes to ~2 KB); a channel asks for its own every turn. At most
# budgets.TEXTS bytes. Keyed by what `Canvas.text` is given (and the fonts there are,
# font_signature()): the face a text is drawn in, the characters it swaps and the stroke
# are worked out from those, so a hit skips them (three lookups a text, 30 texts a
# board).
TEXTS: Lru[Hashable, Sprite] = register(Lru(1 << 20, budgets.TEXTS, "TEXTS"))


def _text_piece(key: Hashable, ink: Ink | None, f: ImageFont.FreeTypeFont, text: str,
                anchor: str, stroke: int, fx: float, fy: float, fill: Colour, on: Colour
                ) -> Sprite | None:
    """One line of text in `fill` on `on`, as ImageDraw.text draws it (None: nothing to
    draw), kept in TEXTS under `key`. Indexed, coverage goes through the ink's ramp: no
    quantizing. Text is the one piece also cached in RGB: a channel's words (its
    players' names, its header) are asked for every turn."""
    mask, offset = text_mask(f, text, anchor, stroke, "L", fx, fy)
    if mask is None:
        return None
    if ink is None:
        image = Image.new("RGB", mask.size, on)
        image.paste(fill, (0, 0, *mask.size), mask)
    else:
        image = mask.point(ink.ramp(fill, on))  # the indices, as `indices` keeps them
    sprite = Sprite(image, mask.point(COVERED, "1"), offset)
    TEXTS.put(key, sprite, sprite_bytes(sprite))
    return sprite


@budgets.small(budgets.MEASURES)
def _advance(f: Font, text: str) -> float:
    """How far `text` moves the pen (fractional pixels), in the face it is drawn in."""
    g = face_for(f, text)
    return float(g.getlength(printable(text, g)))


register(_advance)


# Past this share of new bands, a board's scanlines are drawn whole (every op pasted once)
# rather than band by band (each band pastes the ops that reach into it).
WHOLE_SHARE = 1 / 3

# What a cached band costs beyond its key and chunk: two bytes objects (33 bytes each
# beside their contents), the band's tuple (64) and two ints, the entry's tuple and its
# OrderedDict link (~150).
_BAND_OVERHEAD = 310


def band_bytes(key: bytes, band: png.Band) -> int:
    """What a cached band costs in memory."""
    return len(key) + len(band[0]) + _BAND_OVERHEAD

# One fill or piece of an indexed canvas: its box (x0, y0, x1, y1), then a palette index
# (a fill) or a sprite and whether it goes through its mask.
Op = tuple[int, int, int, int, int | Sprite, bool]

# A band key's head (the ink, the background, the width and height of the band, its
# place) and each op's description (its box and what it pastes), as native ints: the
# same bytes the key was once built from int by int.
_HEAD = struct.Struct("5i").pack
_OP = struct.Struct("5i").pack

# Compressed bands (renderers.png) by the exact description of what was drawn in them,
# any game's: at most budgets.BANDS bytes, each band weighed by `band_bytes`.
BANDS: Lru[Hashable, png.Band] = register(Lru(1 << 20, budgets.BANDS, "BANDS"))


class Canvas:
    """A board being composed: RGB drawn as it goes (no ink), or indexed (`ink`): a list
    of fills and pieces, drawn when finished. Colours are given as RGB either way;
    pieces and text name the flat colour they lie on."""

    def __init__(self, size: tuple[int, int], background: Colour, ink: Ink | None = None,
                 image: Image.Image | None = None) -> None:
        self.ink = ink
        self.size = size
        self.ops: list[Op] = []
        self._background = 0
        if ink is not None:
            self._background = ink.index(background)
            self.image = None
        else:
            self.image = image if image is not None else Image.new("RGB", size, background)
        self._draw: ImageDraw.ImageDraw | None = None

    @property
    def draw(self) -> ImageDraw.ImageDraw:
        """An ImageDraw for hard-edged shapes in exact colours (RGB canvases only)."""
        assert self.image is not None, "an indexed canvas takes fills and pieces"
        if self._draw is None:
            self._draw = ImageDraw.Draw(self.image)
        return self._draw

    def fill(self, box: Box, colour: Colour) -> None:
        """A hard-edged rectangle (x1, y1 exclusive) in an exact colour."""
        x0, y0, x1, y1 = box
        if x1 <= x0 or y1 <= y0:
            return
        ink = self.ink
        if ink is None:
            self.image.paste(colour, box)  # type: ignore[union-attr]
        else:  # (the ink's index looked up here: a board makes a hundred fills)
            index = ink._index.get(colour)
            self.ops.append((x0, y0, x1, y1, ink.index(colour) if index is None else index,
                             False))

    def put(self, xy: Point, sprite: Sprite, *, masked: bool | None = None) -> None:
        """Paste a piece with its top-left (before its offset) at `xy`, through its mask
        if it has one (or `masked` says so)."""
        x, y = xy[0] + sprite.offset[0], xy[1] + sprite.offset[1]
        w, h = sprite.image.size
        through = sprite.mask is not None if masked is None else masked and (
            sprite.mask is not None)
        if self.ink is not None:
            self.ops.append((x, y, x + w, y + h, sprite, through))
        elif through:
            self.image.paste(sprite.image, (x, y), sprite.mask)  # type: ignore[union-attr]
        else:
            self.image.paste(sprite.image, (x, y))  # type: ignore[union-attr]

    def text(self, xy: tuple[float, float], text: str, f: Font, fill: Colour, *, on: Colour,
             anchor: str = "la", bold: bool = False, over: bool = False) -> None:
        """`common.draw_text` onto this canvas, over pixels of the flat colour `on`; with
        `over`, over something else: drawn on `on` and pasted through its own coverage
        (so the edges are blended with `on`, the same in RGB and indexed)."""
        if self.ink is None and not over:
            draw_text(self.draw, xy, text, f, fill, anchor=anchor, bold=bold)
            return
        x, y = xy
        fx, fy = math.modf(x)[0], math.modf(y)[0]
        key = (self.ink, f, text, anchor, bold, fx, fy, fill, on, font_signature())
        sprite = TEXTS.get(key)
        if sprite is None:
            face = face_for(f, text)
            if not isinstance(face, ImageFont.FreeTypeFont):
                self._bitmap_text(xy, text, face, fill, on, anchor, bold)
                return
            sprite = _text_piece(key, self.ink, face, printable(text, face), anchor,
                                 text_stroke(face, bold), fx, fy, fill, on)
            if sprite is None:
                return
        self.put((int(x), int(y)), sprite, masked=over)

    def words(self, xy: tuple[float, float], text: str, f: Font, fill: Colour, *,
              on: Colour, bold: bool = False) -> None:
        """A line that changes every turn ("Turn 31 · ..."), left-aligned and centred on
        xy's height, drawn word by word from whole-pixel positions: each word is then a
        piece any later line (of any channel) may reuse, where the whole line would be
        new every turn. Words sit within half a pixel of where the whole line puts them."""
        x, y = xy
        space = _advance(f, " ")
        for word in text.split(" "):
            if word:
                self.text((round(x), y), word, f, fill, on=on, anchor="lm", bold=bold)
                x += _advance(f, word)
            x += space

    def _bitmap_text(self, xy: tuple[float, float], text: str, f: Font, fill: Colour,
                     on: Colour, anchor: str, bold: bool) -> None:
        """Text in a font FreeType does not draw (Pillow built without FreeType): drawn
        on a patch of `on` and put through its outline. Rare, so not cached."""
        x, y = round(xy[0]), round(xy[1])
        size = int(getattr(f, "size", 16))
        pad = 2 * size + 4
        patch = Image.new("RGB", (text_width(f, text) + 2 * pad, 2 * pad), on)
        draw_text(ImageDraw.Draw(patch), (pad, pad), text, f, fill, anchor=anchor, bold=bold)
        sprite = trimmed(patch, on, (pad, pad))
        if self.ink is not None:
            sprite = Sprite(self.ink.quantize(sprite.image), sprite.mask, sprite.offset)
        self.put((x, y), sprite)

    def finish(self) -> Image.Image:
        """The composed image (indexed: drawn now, with its palette attached)."""
        if self.ink is None:
            assert self.image is not None
            return self.image
        img = self._raster(self.size, 0, 0, self.ops)
        return self.ink.finish(img)

    def png(self) -> bytes:
        """The composed board as PNG bytes (indexed: band by band, see renderers.png)."""
        if self.ink is None:
            assert self.image is not None
            return to_png(self.image)
        w, h = self.size
        rows = png.BAND_ROWS
        count = (h + rows - 1) // rows
        # Each op is described once, as packed bytes, and a band's key joins the
        # descriptions of the ops that touch it: a board is ~200 ops in ~100 bands and
        # most bands are found unchanged, so this walk was most of a warm render's
        # cost while it built every band's key int by int (issue 23). Which ops a band
        # holds is worked out only for the bands to draw.
        serial, background = self.ink.serial, self._background
        described: list[list[bytes]] = [
            [_HEAD(serial, background, w, min(rows, h - b * rows), b)] for b in range(count)]
        for x0, y0, x1, y1, what, through in self.ops:
            if x1 <= 0 or x0 >= w or y1 <= 0 or y0 >= h:
                continue
            ident = (what.serial * 2 + through) if isinstance(what, Sprite) else -1 - what
            record = _OP(x0, y0, x1, y1, ident)
            first = y0 // rows if y0 > 0 else 0
            last = (y1 - 1) // rows
            if last >= count:
                last = count - 1
            if first == last:
                described[first].append(record)
            else:
                for b in range(first, last + 1):
                    described[b].append(record)
        band_keys = [b"".join(parts) for parts in described]
        bands = [BANDS.get(key) for key in band_keys]
        missing = [b for b, found in enumerate(bands) if found is None]
        # The scanlines come from an image one column wider, index 0 there: the rows'
        # filter byte (none), so its bytes are the scanlines as they are. Drawn whole
        # when many bands are new (each op once), else band by band.
        line = w + 1
        whole = None
        if len(missing) > WHOLE_SHARE * count:
            whole = self._raster((line, h), 1, 0, self.ops)
        if whole is not None:
            whole.im.paste(0, (0, 0, 1, h))
            scanlines = whole.tobytes()
        for b in missing:
            y0 = b * rows
            height = min(rows, h - y0)
            if whole is not None:
                data = scanlines[y0 * line:(y0 + height) * line]
            else:
                img = self._raster((line, height), 1, -y0, self._touching(y0, y0 + height))
                img.im.paste(0, (0, 0, 1, height))
                data = img.tobytes()
            found = png.band(data)
            BANDS.put(band_keys[b], found, band_bytes(band_keys[b], found))
            bands[b] = found
        heap.board_drawn()
        return png.write(w, h, self.ink.palette.colours, bands)  # type: ignore[arg-type]

    def _touching(self, top: int, bottom: int) -> list[Op]:
        """The ops, in order, that reach into the rows top..bottom (exclusive)."""
        w = self.size[0]
        return [op for op in self.ops
                if op[1] < bottom and op[3] > top and op[2] > 0 and op[0] < w]

    def _raster(self, size: tuple[int, int], dx: int, dy: int, ops: list[Op]) -> Image.Image:
        """The ops drawn into a new "P" image of `size`, shifted by (dx, dy). Pastes go
        to the image's core (which clips them): a board makes a few hundred, and
        Image.paste's checks cost more than the paste itself when every piece is
        already indexed and the image is our own."""
        img = Image.new("P", size, self._background)
        core = img.im
        for x0, y0, x1, y1, what, through in ops:
            box = (x0 + dx, y0 + dy, x1 + dx, y1 + dy)
            if not isinstance(what, Sprite):
                core.paste(what, box)
            elif through:
                core.paste(what.image.im, box, what.mask.im)  # type: ignore[union-attr]
            else:
                core.paste(what.image.im, box)
        return img


