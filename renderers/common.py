"""Pillow helpers shared by every board renderer.

Board images are posted to Discord after each turn, so they must look the same on a
developer laptop and in a slim Docker image (which may have no system fonts at all),
stay small (they are uploaded every turn) and render fast (the bot waits for them).
Everything here is deterministic: the same input draws the same bytes.
"""

from __future__ import annotations

import io
import math
import weakref
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import cast

from PIL import Image, ImageDraw, ImageFont

from bot.core.lru import lru_by_bytes
from bot.texts import TABLE
from bot.texts import sentences as sentences  # the alt texts' join, read from here
from renderers import budgets
from renderers.cjk import cjk_font, is_cjk, needs_cjk

Colour = tuple[int, int, int]
Box = tuple[int, int, int, int]  # x0, y0, x1, y1 (x1, y1 exclusive)
Point = tuple[int, int]
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

WHITE: Colour = (255, 255, 255)
BLACK: Colour = (0, 0, 0)

# DejaVu covers the glyphs our labels use and is on most Linux images; the list is
# ordered so the first hit wins. Names without a directory let FreeType search the
# platform font folders (that is how macOS and Windows installs are found).
FONT_CANDIDATES: dict[bool, tuple[str, ...]] = {
    False: (
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/TTF/DejaVuSans.ttf",
        "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf",
        "/usr/local/share/fonts/DejaVuSans.ttf",
        "DejaVuSans.ttf",
    ),
    True: (
        "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
        "/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf",
        "/usr/share/fonts/TTF/DejaVuSans-Bold.ttf",
        "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans-Bold.ttf",
        "/usr/local/share/fonts/DejaVuSans-Bold.ttf",
        "DejaVuSans-Bold.ttf",
    ),
}

# How much finer than the output the anti-aliased shape masks are drawn.
_SUPERSAMPLE = 4


# --------------------------------------------------------------------------- fonts


# Which fonts `font` made bold: the Chinese face of a bold Latin font is bold too, and
# the fallback font's bold is the same face (faked with a stroke), so its name cannot tell.
_BOLD: weakref.WeakKeyDictionary[Font, bool] = weakref.WeakKeyDictionary()


@budgets.small(budgets.FONTS, budgets.owned(budgets.FONT_BYTES))
def font(size: int, bold: bool = False) -> Font:
    """A font of this pixel size, cached because boards ask for the same few sizes.

    The BASIC layout engine is used on purpose: it needs no libraqm and lays text out
    identically everywhere, so renders stay byte-stable across machines with the same
    fonts. Without DejaVu we fall back to Pillow's bundled scalable font (>= 10.1).
    Text with Chinese in it is drawn in the shipped Chinese face instead (`face_for`).
    """
    size = max(1, int(size))
    found: Font | None = None
    for path in FONT_CANDIDATES[bool(bold)]:
        try:
            found = ImageFont.truetype(path, size, layout_engine=ImageFont.Layout.BASIC)
            break
        except OSError:
            continue
    if found is None:
        found = ImageFont.load_default(size=size)
    _BOLD[found] = bool(bold)
    return found


def is_bold(f: Font) -> bool:
    """Whether `f` is the bold of its size (as `font` made it, or by its style name)."""
    known = _BOLD.get(f)
    if known is not None:
        return known
    return isinstance(f, ImageFont.FreeTypeFont) and "bold" in (f.getname()[1] or "").lower()


# The font caches themselves, for `font_signature` (whatever a test puts in their names).
_FONTS = font
_CJK_FONTS = cjk_font


@budgets.small(budgets.MEASURES)
def face_for(f: Font, text: str) -> Font:
    """The font `text` is measured and drawn in: `f`, or for a line with Chinese in it,
    the Chinese face at `f`'s pixel size and weight (it has Latin glyphs too, so a mixed
    line is one face, measured as it is drawn). Every helper here goes through it."""
    if not needs_cjk(text):
        return f
    found = cjk_font(int(getattr(f, "size", 16)), is_bold(f))
    return f if found is None else found


@budgets.small(budgets.MEASURES)
def is_fallback_font(f: Font) -> bool:
    """True when no system font was found; bold then has to be faked with a stroke."""
    if not isinstance(f, ImageFont.FreeTypeFont):
        return True
    name = (f.getname()[0] or "").lower()
    return "dejavu" not in name and "cjk" not in name


def font_signature() -> tuple[object, ...]:
    """Which fonts text is drawn in now (changes when fonts are found or lost), for keys
    of caches that hold drawn text. Renders ask for it per piece (16 times a board), so
    it is kept until a font cache is cleared (the fonts are found
    again then): one lookup, 0.3 us, where asking the four fonts each time was 3.7 us."""
    return _font_signature(_FONTS.generation, _CJK_FONTS.generation)


@budgets.small(budgets.MEASURES, lambda names: budgets.rough_bytes(tuple(names)))
def _font_signature(fonts_made: int, cjk_made: int) -> tuple[object, ...]:
    """The fonts' names, for the font caches' generations (only part of the key). The
    caches are asked directly: a test spying on the fonts a board asks for (by replacing
    `font` or `cjk_font` in a module) does not see this 16 px probe. A `Shared` tuple:
    weighed whole here, where it is kept, and as a pointer in the keys naming it."""
    return budgets.Shared(
        f.getname() if isinstance(f, ImageFont.FreeTypeFont) else type(f).__name__
        for f in (_FONTS(16), _FONTS(16, True), _CJK_FONTS(16), _CJK_FONTS(16, True)))


# Typographic characters our labels use, with ASCII stand-ins for fonts lacking them
# (Pillow's bundled fallback font has no "×", for one).
_SUBSTITUTES = {"×": "x", "…": "...", "–": "-", "—": "-", "·": "-"}


@budgets.small(budgets.MEASURES)
def has_glyph(f: Font, ch: str) -> bool:
    """Whether `f` draws `ch` as itself rather than as its missing-glyph box."""
    if not isinstance(f, ImageFont.FreeTypeFont):
        return ch.isascii()
    return bytes(f.getmask(ch)) != bytes(f.getmask("\uffff")) or f.getbbox(ch) != f.getbbox(
        "\uffff")


# Symbols our lines use that DejaVu draws and Noto Sans CJK lacks, with the Chinese
# face's nearest: a line with Chinese in it is drawn whole in that face.
_CJK_SUBSTITUTES = {"▸": "▶", "✕": "×", "✦": "◆", "☠": "†"}


@budgets.small(budgets.MEASURES)
def is_cjk_face(f: Font) -> bool:
    return isinstance(f, ImageFont.FreeTypeFont) and "cjk" in (f.getname()[0] or "").lower()


def printable(text: str, f: Font) -> str:
    """`text` with typographic characters the font lacks swapped for ones it has."""
    if is_cjk_face(f):
        return "".join(_CJK_SUBSTITUTES[ch] if ch in _CJK_SUBSTITUTES
                       and not has_glyph(f, ch) else ch for ch in text)
    if not is_fallback_font(f):
        return text
    return "".join(_SUBSTITUTES[ch] if ch in _SUBSTITUTES and not has_glyph(f, ch) else ch
                   for ch in text)


@budgets.small(budgets.MEASURES)
def text_width(f: Font, text: str) -> int:
    """How wide `text` is drawn by `draw_text` in `f` (in the face it is drawn in)."""
    f = face_for(f, text)
    return math.ceil(f.getlength(printable(text, f)))


def text_bbox(f: Font, text: str, anchor: str = "la") -> Box:
    """The ink box of `text` drawn at (0, 0) with `anchor`, in the face it is drawn in
    (tests hold labels inside their boxes with it)."""
    f = face_for(f, text)
    x0, y0, x1, y1 = f.getbbox(printable(text, f), anchor=anchor)
    return (math.floor(x0), math.floor(y0), math.ceil(x1), math.ceil(y1))


def ellipsize(text: str, f: Font, max_width: int) -> str:
    """Cut `text` so it fits `max_width`, marking the cut with an ellipsis."""
    if text_width(f, text) <= max_width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # longest prefix that fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if text_width(f, text[:mid].rstrip() + "…") <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "…" if lo else "…"


def fit_text(text: str, max_width: int, size: int, *, min_size: int | None = None,
             bold: bool = False) -> tuple[Font, str]:
    """The biggest font (down to `min_size`) that fits; ellipsized if even that is too wide.

    Shrinking first keeps whole names readable; the ellipsis is the last resort so a
    long name can never spill into a neighbouring tile.
    """
    min_size = max(1, min_size if min_size is not None else round(size * 0.7))
    # Boards ask the same questions every turn, so answers are cached. The first font is
    # part of the key: a new font object (say after font.cache_clear()) means new answers.
    return _fit_text(font(int(size), bold), text, max_width, int(size), int(min_size), bold)


@budgets.small(budgets.MEASURES)
def _fit_text(first: Font, text: str, max_width: int, size: int, min_size: int,
              bold: bool) -> tuple[Font, str]:
    for s in range(size, min_size - 1, -1):
        f = first if s == size else font(s, bold)
        if text_width(f, text) <= max_width:
            return f, text
    f = font(min_size, bold)
    return f, ellipsize(text, f, max_width)


# Chinese punctuation that must not begin a line: it stays with the character before.
_CLOSING = frozenset("，。：；！？、）」』》〉…—～%")


def break_units(text: str) -> Iterator[tuple[str, str]]:
    """The pieces a line may break between, each with the glue that joins it to the one
    before ("" at the start): words split at spaces, and Chinese, which writes no spaces,
    between any two characters (closing punctuation kept with the character before it).
    Latin runs inside a Chinese line stay whole."""
    for i, word in enumerate(text.split()):
        glue = " " if i else ""
        if not needs_cjk(word):
            yield glue, word
            continue
        run = ""
        for ch in word:
            if run and (is_cjk(ch) or is_cjk(run[-1])) and ch not in _CLOSING:
                yield glue, run
                glue, run = "", ""
            run += ch
        if run:
            yield glue, run


def _joined(a: str, b: str) -> str:
    """Two lines' text as one: a space between words, none between Chinese characters."""
    if not a or not b:
        return a or b
    return a + ("" if is_cjk(a[-1]) or is_cjk(b[0]) else " ") + b


def wrap_text(text: str, f: Font, max_width: int, max_lines: int | None = None) -> list[str]:
    """Greedy wrap into lines no wider than `max_width` (newlines are kept), breaking
    between words, and between characters in Chinese (`break_units`).

    A word too wide for a line of its own is ellipsized; past `max_lines` the last line
    takes the rest of the text and is ellipsized, so nothing ever spills.
    """
    lines: list[str] = []
    for paragraph in text.split("\n"):
        current = ""
        for glue, unit in break_units(paragraph):
            candidate = f"{current}{glue}{unit}" if current else unit
            if current and text_width(f, candidate) > max_width:
                lines.append(current)
                current = unit
            else:
                current = candidate
        lines.append(current)
    while lines and not lines[-1]:
        lines.pop()
    if max_lines is not None and len(lines) > max_lines:
        if max_lines <= 0:
            return []
        rest = ""
        for line in lines[max_lines - 1:]:
            rest = _joined(rest, line)
        lines = [*lines[:max_lines - 1], rest]  # ellipsized below if too wide
    return [ellipsize(line, f, max_width) for line in lines]


def fit_wrapped(text: str, max_width: int, max_lines: int, size: int, *,
                min_size: int | None = None, bold: bool = False) -> tuple[Font, tuple[str, ...]]:
    """The biggest font (down to `min_size`) at which `text` wraps into at most
    `max_lines` lines without cutting a word; at `min_size` it is wrapped and ellipsized.
    The multi-line sibling of `fit_text`, for names in small boxes."""
    min_size = max(1, min_size if min_size is not None else round(size * 0.7))
    return _fit_wrapped(font(int(size), bold), text, int(max_width), int(max_lines), int(size),
                        int(min_size), bold)


@budgets.small(budgets.MEASURES)
def _fit_wrapped(first: Font, text: str, max_width: int, max_lines: int, size: int,
                 min_size: int, bold: bool) -> tuple[Font, tuple[str, ...]]:
    for s in range(size, min_size - 1, -1):
        f = first if s == size else font(s, bold)
        words_fit = all(text_width(f, unit) <= max_width for _, unit in break_units(text))
        if words_fit:
            lines = wrap_text(text, f, max_width)
            if len(lines) <= max_lines:
                return f, tuple(lines)
    f = font(min_size, bold)
    return f, tuple(wrap_text(text, f, max_width, max_lines))


def draw_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, f: Font,
              fill: Colour, *, anchor: str = "la", bold: bool = False) -> None:
    """Draw text (in the face it is measured in: `face_for`); fakes bold with a thin
    stroke when only the fallback font exists."""
    f = face_for(f, text)
    text = printable(text, f)
    stroke = text_stroke(f, bold)
    if isinstance(f, ImageFont.FreeTypeFont):
        # What ImageDraw.text does for one line, with the rasterized glyphs cached: the
        # same labels are drawn every turn and FreeType rendering is the costly part.
        x, y = xy
        mask, (dx, dy) = text_mask(f, text, anchor, stroke, draw.fontmode,
                                   math.modf(x)[0], math.modf(y)[0])
        if mask is not None:
            draw.bitmap((int(x) + dx, int(y) + dy), mask, fill=fill)
        return
    # Bitmap fonts only support top-left anchoring: position by the measured box.
    x0, y0, x1, y1 = draw.textbbox((0, 0), text, font=f)
    x, y = xy
    if anchor[0] == "m":
        x -= (x1 - x0) / 2
    elif anchor[0] == "r":
        x -= x1 - x0
    if anchor[1] == "m":
        y -= (y1 - y0) / 2
    elif anchor[1] in "bd":
        y -= y1 - y0
    draw.text((x - x0, y - y0), text, font=f, fill=fill)


def text_stroke(f: Font, bold: bool) -> int:
    """The stroke bold text is faked with when only the fallback font exists (none
    otherwise). A 1 px stroke smears small text, so only sizes >= 14 px get it."""
    if bold and is_fallback_font(f):
        return round(getattr(f, "size", 12) / 28)
    return 0


def _mask_bytes(found: tuple[Image.Image | None, tuple[int, int]]) -> int:
    return budgets.image_bytes(found[0]) + _ENTRY_BYTES


def _parts_bytes(parts: tuple[tuple[Box, Image.Image | None], ...]) -> int:
    return sum(budgets.image_bytes(mask) + _ENTRY_BYTES for _, mask in parts)


# A cached result's tuple, key and entry, beside its images.
_ENTRY_BYTES = 200


@lru_by_bytes(budgets.TEXT_MASKS, _mask_bytes)
def text_mask(f: ImageFont.FreeTypeFont, text: str, anchor: str, stroke: int, mode: str,
               fx: float, fy: float) -> tuple[Image.Image | None, tuple[int, int]]:
    """The coverage mask and offset ImageDraw.text would draw for one line of text
    (starting at fractional position fx, fy); filling through it is what it does too."""
    core, offset = f.getmask2(text, mode, None, None, None, stroke, anchor, 0, (fx, fy),
                              stroke_filled=True)
    if core.size[0] <= 0 or core.size[1] <= 0:
        return None, offset
    return Image.frombytes(core.mode, core.size, bytes(core)), offset


def centered_text(draw: ImageDraw.ImageDraw, centre: tuple[float, float], text: str,
                  f: Font, fill: Colour, *, bold: bool = False) -> None:
    draw_text(draw, centre, text, f, fill, anchor="mm", bold=bold)


# ------------------------------------------------------------------------- colours


def parse_colour(value: str | Sequence[int], default: Colour = (128, 128, 128)) -> Colour:
    """Read "#rrggbb", "#rgb" or an RGB triple; a bad value must not crash a render."""
    if not isinstance(value, str):
        try:
            r, g, b = (max(0, min(255, int(v))) for v in list(value)[:3])
            return (r, g, b)
        except (TypeError, ValueError):
            return default
    text = value.strip().lstrip("#")
    if len(text) == 3:
        text = "".join(ch * 2 for ch in text)
    if len(text) != 6:
        return default
    try:
        return (int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16))
    except ValueError:
        return default


def luminance(colour: Colour) -> float:
    """WCAG relative luminance, the measure contrast ratios are defined on."""

    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = colour
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast_ratio(a: Colour, b: Colour) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def contrast_text(background: Colour, dark: Colour = BLACK, light: Colour = WHITE) -> Colour:
    """Whichever of `dark` / `light` reads better on `background`."""
    return dark if contrast_ratio(background, dark) >= contrast_ratio(background, light) else light


def mix(a: Colour, b: Colour, t: float) -> Colour:
    """Blend a -> b by t (0..1); used to derive dimmed and highlighted shades."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t),
            round(a[2] + (b[2] - a[2]) * t))


# WCAG's least contrast for text under 18 px: a board's labels are 9-11 px as the chat
# shows them, so a saturated mark colour (a red, a magenta) is too dark for its words.
READ_CONTRAST = 4.5


def legible_ink(colour: Colour, grounds: Iterable[Colour],
                ratio: float = READ_CONTRAST) -> Colour:
    """`colour` lightened towards white, the least that keeps `ratio` of contrast on
    every one of `grounds`: the same hue for words as for the marks it names. Meant for
    module constants (it is not cached)."""
    grounds = tuple(grounds)
    for step in range(21):
        ink = mix(colour, WHITE, step / 20)
        if all(contrast_ratio(ink, g) >= ratio for g in grounds):
            return ink
    return WHITE


# -------------------------------------------------------------------------- shapes
# Pillow's ellipse and rounded_rectangle are not anti-aliased and look jagged on
# tokens a few dozen pixels wide. We draw a mask 4x larger, shrink it (which averages
# the edges) and paste a flat colour through it. Interiors stay exactly the fill colour,
# which keeps the PNG small and lets tests sample colours.


def _rounded_mask(w: int, h: int, radius: int) -> Image.Image:
    """Not cached: only `_rounded_parts` asks, and it keeps what it cuts from the mask
    (a cache here hit 0 % of the time and held its whole 1 MB: bench_channels)."""
    k = _SUPERSAMPLE
    big = Image.new("L", (w * k, h * k), 0)
    ImageDraw.Draw(big).rounded_rectangle((0, 0, w * k - 1, h * k - 1),
                                          radius=radius * k, fill=255)
    return big.resize((w, h), Image.Resampling.BOX)


@lru_by_bytes(budgets.SHAPE_MASKS, budgets.weigh_image)
def _ellipse_mask(w: int, h: int) -> Image.Image:
    k = _SUPERSAMPLE
    big = Image.new("L", (w * k, h * k), 0)
    ImageDraw.Draw(big).ellipse((0, 0, w * k - 1, h * k - 1), fill=255)
    return big.resize((w, h), Image.Resampling.BOX)


@lru_by_bytes(budgets.SHAPE_MASKS, budgets.weigh_image)
def _polygon_mask(w: int, h: int, points: tuple[tuple[float, float], ...]) -> Image.Image:
    k = _SUPERSAMPLE
    big = Image.new("L", (w * k, h * k), 0)
    ImageDraw.Draw(big).polygon([(x * k, y * k) for x, y in points], fill=255)
    return big.resize((w, h), Image.Resampling.BOX)


def _paste(img: Image.Image, x: int, y: int, mask: Image.Image, fill: Colour) -> None:
    img.paste(fill, (x, y, x + mask.width, y + mask.height), mask)


@lru_by_bytes(budgets.SHAPE_MASKS, _parts_bytes)
def _rounded_parts(w: int, h: int, radius: int) -> tuple[tuple[Box, Image.Image | None], ...]:
    """The rounded mask cut into solid bands and four corner patches, so a big box costs
    three plain fills and four small masked pastes instead of one large masked paste.
    Bands carry no mask (every pixel is fully covered); the result is pixel-identical."""
    mask = _rounded_mask(w, h, radius)
    for c in (radius, radius + 1, radius + 2):
        if c <= 0 or 2 * c > min(w, h):
            continue
        corners: list[Box] = [(0, 0, c, c), (w - c, 0, w, c), (0, h - c, c, h),
                              (w - c, h - c, w, h)]
        probe = mask.copy()
        for box in corners:
            probe.paste(255, box)
        if probe.getextrema() != (255, 255):
            continue  # something outside the corners is not fully covered
        parts: list[tuple[Box, Image.Image | None]] = [((c, 0, w - c, h), None),
                                                        ((0, c, c, h - c), None),
                                                        ((w - c, c, w, h - c), None)]
        for box in corners:
            patch = mask.crop(box)
            parts.append((box, None if patch.getextrema() == (255, 255) else patch))
        return tuple((box, m) for box, m in parts if box[0] < box[2] and box[1] < box[3])
    return (((0, 0, w, h), mask),)


def _paste_rounded(img: Image.Image, x: int, y: int, w: int, h: int, radius: int,
                   fill: Colour) -> None:
    for (bx0, by0, bx1, by1), mask in _rounded_parts(w, h, radius):
        img.paste(fill, (x + bx0, y + by0, x + bx1, y + by1), mask)


def rounded_box(img: Image.Image, box: Box, radius: int, fill: Colour,
                outline: Colour | None = None, width: int = 0) -> None:
    """An anti-aliased rounded rectangle; the outline is drawn inside the box."""
    x0, y0, x1, y1 = (round(v) for v in box)
    w, h = x1 - x0, y1 - y0
    if w <= 0 or h <= 0:
        return
    radius = max(0, min(radius, w // 2, h // 2))
    if outline is not None and width > 0:
        _paste_rounded(img, x0, y0, w, h, radius, outline)
        x0, y0, w, h = x0 + width, y0 + width, w - 2 * width, h - 2 * width
        radius = max(0, radius - width)
        if w <= 0 or h <= 0:
            return
    _paste_rounded(img, x0, y0, w, h, radius, fill)


def disc(img: Image.Image, centre: tuple[float, float], radius: float, fill: Colour,
         outline: Colour | None = None, width: int = 0) -> None:
    """An anti-aliased filled circle, optionally ringed (ring drawn inside `radius`)."""
    cx, cy = centre
    r = max(1, round(radius))
    x0, y0 = round(cx) - r, round(cy) - r
    if outline is not None and width > 0:
        _paste(img, x0, y0, _ellipse_mask(2 * r, 2 * r), outline)
        r -= width
        x0, y0 = x0 + width, y0 + width
        if r <= 0:
            return
    _paste(img, x0, y0, _ellipse_mask(2 * r, 2 * r), fill)


def disc_footprint(mask: Image.Image, centre: tuple[float, float], radius: float) -> None:
    """Mark (255) on an "L" mask every pixel `disc` with these arguments would touch."""
    cx, cy = centre
    r = max(1, round(radius))
    x0, y0 = round(cx) - r, round(cy) - r
    shape = _ellipse_mask(2 * r, 2 * r).point(lambda v: 255 if v else 0)
    mask.paste(255, (x0, y0, x0 + 2 * r, y0 + 2 * r), shape)


def polygon(img: Image.Image, points: Sequence[tuple[float, float]], fill: Colour) -> None:
    """An anti-aliased filled polygon (markers such as triangles and stars)."""
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    x0, y0 = math.floor(min(xs)), math.floor(min(ys))
    x1, y1 = math.ceil(max(xs)) + 1, math.ceil(max(ys)) + 1
    # Round the relative coordinates so the mask cache hits for repeated shapes.
    rel = tuple((round(x - x0, 2), round(y - y0, 2)) for x, y in points)
    _paste(img, x0, y0, _polygon_mask(x1 - x0, y1 - y0, rel), fill)


def regular_polygon_points(centre: tuple[float, float], radius: float, sides: int,
                           rotation: float = -90.0) -> list[tuple[float, float]]:
    cx, cy = centre
    return [(cx + radius * math.cos(math.radians(rotation + i * 360 / sides)),
             cy + radius * math.sin(math.radians(rotation + i * 360 / sides)))
            for i in range(sides)]


def star_points(centre: tuple[float, float], radius: float, points: int = 5,
                inner: float = 0.45) -> list[tuple[float, float]]:
    cx, cy = centre
    out = []
    for i in range(points * 2):
        r = radius if i % 2 == 0 else radius * inner
        a = math.radians(-90 + i * 180 / points)
        out.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return out


# ------------------------------------------------------------------------- output


@dataclass(frozen=True)
class Palette:
    """A fitted PNG palette: `colours` are written to the file; `lookup` holds the same
    entries as Pillow's nearest-colour search should see them (see `make_palette`)."""

    lookup: Image.Image  # a "P" image to pass to Image.quantize(palette=...)
    colours: tuple[int, ...]  # flat r, g, b list, one triple per index


def make_palette(samples: Sequence[Image.Image], colours: int = 256,
                 exact: Sequence[Colour] = (), subsample: int = 2) -> Palette:
    """A palette for `to_png(palette=...)`, fitted to sample images.

    The samples are stacked, every `subsample`-th pixel each way kept (true colours, no
    averaging; as good a fit for 4x less work) and quantized with the fast octree; the
    `exact` colours (a board's flat fills) then take over the nearest entries. Fitting
    is the slow part of palettizing (~9 ms a 1200 px board), so fit once and reuse it.

    Pillow maps a pixel to the entry nearest its colour rounded down to a multiple of 4
    per channel (its lookup cache has 64 levels a channel), which would send a flat
    fill to whichever entry is nearest that rounded colour. So the search is shown
    shifted entries while the file gets the true ones: an exact colour is shown rounded
    down the same way (distance 0, and exact colours come first, so they win ties) and
    the rest 2 lower, centring them on the colours that round to them. Flat fills then
    come out exactly; edges err less than without the shift.
    """
    step = max(1, subsample)
    shrunk = [im.convert("RGB").resize((max(1, im.width // step), max(1, im.height // step)),
                                       Image.Resampling.NEAREST) for im in samples]
    stack = Image.new("RGB", (max(im.width for im in shrunk), sum(im.height for im in shrunk)),
                      BLACK)
    y = 0
    for im in shrunk:
        stack.paste(im, (0, y))
        y += im.height
    fitted = stack.quantize(colors=colours, method=Image.Quantize.FASTOCTREE,
                            dither=Image.Dither.NONE)
    flat = fitted.getpalette() or []
    # cast: a "P" image's colours are palette indices; Pillow types them for any mode.
    used = sorted(cast(int, index) for _, index in fitted.getcolors(256) or [])
    entries: list[Colour] = [(flat[3 * i], flat[3 * i + 1], flat[3 * i + 2]) for i in used]
    pinned: list[Colour] = []
    for colour in dict.fromkeys((c[0], c[1], c[2]) for c in exact):
        if len(pinned) >= colours:
            break
        if colour in entries:
            entries.remove(colour)
        elif entries and len(pinned) + len(entries) >= colours:
            entries.remove(min(entries, key=lambda e: sum(
                (a - b) ** 2 for a, b in zip(e, colour, strict=True))))
        pinned.append(colour)
    lookup = Image.new("P", (1, 1))
    lookup.putpalette([v & ~3 for entry in pinned for v in entry]
                      + [max(0, v - 2) for entry in entries for v in entry])
    return Palette(lookup, tuple(v for entry in pinned + entries for v in entry))


# How boards are written (see `to_png`); the render bench times a bare save with these.
PNG_COMPRESS_LEVEL = 3
PNG_OPTIONS: Mapping[str, int | bool] = MappingProxyType(
    {"compress_level": PNG_COMPRESS_LEVEL, "optimize": False})


def to_png(img: Image.Image, *, colours: int | None = 256, palette: Palette | None = None,
           compress_level: int = PNG_COMPRESS_LEVEL, optimize: bool = False) -> bytes:
    """Encode as PNG, small and fast enough to upload after every turn.

    Boards are flat colours plus anti-aliased edges, so a 256-colour palette (no
    dithering, which would add noise that compresses badly) looks the same and is ~2.5x
    smaller than RGB. Pass a `palette` from `make_palette` to skip fitting one: mapping
    to it costs ~1.3 ms on a 1200 px board where fitting the fast octree costs ~9 ms.
    Without one the palette is fitted to `img` itself. Pass `colours=None` (and no
    palette) for exact RGB.

    zlib level 3 is the knee for these images (1200 px board, palettized): level 1
    ~2.4 ms / 47 KB, level 3 ~2.5 ms / 41 KB, level 6 ~5.5 ms / 33 KB. `optimize`
    buys a few per cent for several times the encode time, hence off by default.
    """
    if img.mode != "P" and (palette is not None or colours is not None):
        rgb = img if img.mode == "RGB" else img.convert("RGB")
        if palette is not None:
            img = rgb.quantize(palette=palette.lookup, dither=Image.Dither.NONE)
            img.putpalette(palette.colours)
        else:
            assert colours is not None  # the test above: no palette, so colours
            img = rgb.quantize(colors=colours, method=Image.Quantize.FASTOCTREE,
                               dither=Image.Dither.NONE)
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=compress_level, optimize=optimize)
    return buf.getvalue()


def sentence(text: str) -> str:
    """`text` ended as a sentence, once ("You win!" stays as it is): alt texts join a
    game's headline lines into sentences."""
    text = text.strip()
    if not text or text.endswith((".", "!", "?", "…", "。", "！", "？")):
        return text
    return text + TABLE.text("lists.stop")
