"""The shared machinery boards are composed with: pieces in a fixed palette, text through
coverage ramps, and the PNG written band by band with unchanged bands reused.

These hold for any board; the renderers' own tests check the same on real boards.
"""

from __future__ import annotations

import io
import random
import zlib
from concurrent.futures import ThreadPoolExecutor

from PIL import Image, ImageDraw

from bot.core.lru import Lru
from renderers import canvas, common, png
from renderers.canvas import Canvas, Ink, Sprite

BG = (14, 13, 18)
PANEL = (27, 25, 33)
TEXT = (238, 231, 214)
GOLD = (250, 204, 84)


def sample() -> Image.Image:
    img = Image.new("RGB", (240, 120), BG)
    common.rounded_box(img, (10, 10, 200, 100), 12, PANEL, outline=GOLD, width=2)
    common.draw_text(ImageDraw.Draw(img), (20, 40), "Sample text", common.font(20, True),
                     TEXT, anchor="lm", bold=True)
    return img


def ink() -> Ink:
    return Ink(common.make_palette([sample()], exact=[BG, PANEL, TEXT, GOLD]))


@canvas.pieces(8)
def dot(r: int) -> Sprite:
    img = Image.new("RGB", (2 * r + 1, 2 * r + 1), PANEL)
    common.disc(img, (r, r), r, GOLD)
    return Sprite(img, canvas.footprint(img, PANEL))


def compose(target: Ink | None, label: str = "Turn 31 · Ox Bellows (Ann)") -> Canvas:
    board = Canvas((240, 130), BG, target)
    board.fill((10, 10, 200, 100), PANEL)
    board.text((20, 40), "Upper floor", common.font(20, True), TEXT, on=PANEL, anchor="lm",
               bold=True)
    board.words((20, 115), label, common.font(14, True), GOLD, on=BG, bold=True)
    board.put((150, 40), dot(target, 4))
    return board


def decode(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def test_adler32_combine_matches_zlib() -> None:
    rng = random.Random(1)
    for _ in range(200):
        a = rng.randbytes(rng.randrange(0, 400))
        b = rng.randbytes(rng.randrange(0, 70_000))
        assert png.adler32_combine(zlib.adler32(a), zlib.adler32(b), len(b)) == zlib.adler32(
            a + b)


def test_indexed_canvas_is_the_rgb_one_quantized() -> None:
    """Pieces and text on the flat colour they name: quantizing the RGB board gives the
    indexed board, pixel for pixel, and flat fills keep their exact colour."""
    target = ink()
    rgb = compose(None).finish()
    indexed = compose(target).finish()
    assert indexed.mode == "P"
    assert target.quantize(rgb).tobytes() == indexed.tobytes()
    back = indexed.convert("RGB")
    assert back.getpixel((0, 0)) == BG and back.getpixel((15, 95)) == PANEL


def test_text_ramp_is_what_pillow_draws_quantized() -> None:
    target = ink()
    f = common.font(21, True)
    for xy in ((30, 30), (30.5, 29.25)):
        board = Canvas((200, 60), PANEL, target)
        board.text(xy, "Great Hall ×2", f, TEXT, on=PANEL, anchor="lm", bold=True)
        rgb = Image.new("RGB", (200, 60), PANEL)
        common.draw_text(ImageDraw.Draw(rgb), xy, "Great Hall ×2", f, TEXT, anchor="lm",
                         bold=True)
        assert board.finish().tobytes() == target.quantize(rgb).tobytes()


def test_words_sit_within_a_pixel_of_the_whole_line() -> None:
    f = common.font(30, True)
    line = "Turn 31 · Ox Bellows (Ann) to play"
    whole = Image.new("RGB", (700, 60), BG)
    common.draw_text(ImageDraw.Draw(whole), (10, 30), line, f, TEXT, anchor="lm", bold=True)
    board = Canvas((700, 60), BG)
    board.words((10, 30), line, f, TEXT, on=BG, bold=True)
    box_whole = Image.eval(whole.convert("L"), lambda v: 255 if v > 40 else 0).getbbox()
    box_words = Image.eval(board.finish().convert("L"), lambda v: 255 if v > 40 else 0
                           ).getbbox()
    assert box_whole and box_words
    assert all(abs(p - q) <= 1 for p, q in zip(box_whole, box_words, strict=True))


def test_banded_png_decodes_to_the_indexed_image() -> None:
    target = ink()
    data = compose(target).png()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    img = decode(data)
    assert img.mode == "P"
    assert img.tobytes() == compose(target).finish().tobytes()
    assert img.getpalette() == compose(target).finish().getpalette()


def test_unchanged_bands_are_reused_and_changed_ones_redrawn() -> None:
    canvas.clear_caches()
    target = ink()
    first = compose(target).png()
    misses = canvas.BANDS.cache_info().misses
    assert compose(target).png() == first  # every band reused: the same bytes
    assert canvas.BANDS.cache_info().misses == misses
    other = compose(target, label="Turn 32 · Zoe Ingstrom (Boris)").png()
    # Only the band under the line that changed is drawn again.
    assert canvas.BANDS.cache_info().misses == misses + 1
    assert decode(other).tobytes() == compose(target, "Turn 32 · Zoe Ingstrom (Boris)"
                                              ).finish().tobytes()


def test_a_band_is_redrawn_exactly_when_an_op_reaching_into_it_changed() -> None:
    """The band walk describes each op once and gives it to every band it reaches: a
    tall fill across bands, a piece in one band, an op off the canvas (issue 23)."""
    canvas.clear_caches()
    target = ink()
    rows = png.BAND_ROWS

    def board(tall: tuple[int, int, int], dot_y: int, off: bool) -> Canvas:
        drawn = compose(target)
        drawn.fill((0, 5, 8, 3 * rows + 5), tall)  # bands 0..3
        drawn.put((200, dot_y), dot(target, 3))
        if off:
            drawn.fill((0, 200, 50, 220), GOLD)  # below the board: draws nothing
        return drawn

    first = board(GOLD, rows + 10, False).png()
    misses = canvas.BANDS.cache_info().misses
    assert board(GOLD, rows + 10, True).png() == first  # the op off the board: no band
    assert canvas.BANDS.cache_info().misses == misses
    moved = board(GOLD, rows + 11, False)
    assert decode(moved.png()).tobytes() == moved.finish().tobytes()
    assert canvas.BANDS.cache_info().misses == misses + 1  # the dot's band alone
    recoloured = board(TEXT, rows + 10, False)
    assert decode(recoloured.png()).tobytes() == recoloured.finish().tobytes()
    assert canvas.BANDS.cache_info().misses == misses + 1 + 4  # the fill's four bands


def test_caches_are_bounded_by_entries_and_bytes() -> None:
    cache: Lru[object, str] = Lru(3, 100)
    for i in range(10):
        cache.put(i, "x", 10)
    assert cache.cache_info().currsize == 3 and cache.cache_info().currbytes == 30
    assert cache.get(0) is None and cache.get(9) == "x"
    cache.put("big", "y", 95)  # pushes every older entry out to stay under 100 bytes
    assert cache.cache_info().currsize == 1 and cache.get(9) is None


def test_pieces_are_cached_per_ink_and_bounded() -> None:
    drawn: list[int] = []

    @canvas.pieces(4)
    def square(n: int) -> Sprite:
        drawn.append(n)
        return Sprite(Image.new("RGB", (n, n), GOLD))

    target = ink()
    assert square(target, 3) is square(target, 3)
    assert drawn == [3]
    assert square(None, 3).image.mode == "RGB" and drawn == [3, 3]  # RGB is drawn afresh
    for n in range(10):
        square(target, n + 5)
    assert square.cache_info().currsize == 4
    canvas.clear_caches()
    assert square.cache_info().currsize == 0


def test_boards_rendered_in_threads_are_the_ones_rendered_in_turn() -> None:
    """The bot renders in worker threads: caches shared between them give every board
    the bytes it gets alone."""
    target = ink()
    labels = [f"Turn {n} · Player {n % 5}" for n in range(24)]
    alone = [compose(target, label).png() for label in labels]
    canvas.clear_caches()
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(lambda label: compose(target, label).png(), labels * 3))
    assert together == alone * 3


def chunks_of(data: bytes) -> list[tuple[bytes, bytes, int]]:
    """A PNG's chunks: (kind, data, the crc32 written after them)."""
    found, at = [], 8
    while at < len(data):
        size = int.from_bytes(data[at:at + 4], "big")
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + size]
        found.append((kind, body, int.from_bytes(data[at + 8 + size:at + 12 + size], "big")))
        at += 12 + size
    return found


def scanlines_of(img: Image.Image) -> bytes:
    """An 8-bit "P" image's rows, each behind its filter byte (none), as a PNG holds them."""
    w, h = img.size
    raw = img.tobytes()
    return b"".join(b"\x00" + raw[y * w:(y + 1) * w] for y in range(h))


def test_banded_png_is_one_checked_zlib_stream() -> None:
    """zlib itself reads the bands' IDATs joined as one stream and checks its adler32
    (combined from the bands'), and every chunk's crc32 is zlib's: the bands' deflate
    (zlib-ng, renderers/png.py) writes blocks any decoder continues from one to the next."""
    canvas.clear_caches()
    target = ink()
    board = compose(target)
    chunks = chunks_of(board.png())
    assert [kind for kind, _, _ in chunks][:3] == [b"IHDR", b"PLTE", b"IDAT"]
    assert all(zlib.crc32(kind + body) == crc for kind, body, crc in chunks)
    stream = b"".join(body for kind, body, _ in chunks if kind == b"IDAT")
    assert zlib.decompress(stream) == scanlines_of(board.finish())
    assert sum(kind == b"IDAT" for kind, _, _ in chunks) == 2 + -(-130 // png.BAND_ROWS)


def test_bands_compress_about_as_small_as_zlib() -> None:
    """The faster deflate is not bought with bigger uploads: a board-like picture (panels
    of text on a dark ground) in bands comes within 10 % of zlib's level 3 on the same
    bands, and at least halves the raw scanlines."""
    picture = Image.new("RGB", (1100, 700), BG)
    for i in range(20):
        picture.paste(sample(), (20 + (i % 4) * 260, 10 + (i // 4) * 136))
    scan = scanlines_of(ink().quantize(picture))
    line = 1100 + 1
    ours = theirs = 0
    for y0 in range(0, 700, png.BAND_ROWS):
        band = scan[y0 * line:(y0 + png.BAND_ROWS) * line]
        ours += len(png.band(band)[0]) - 12  # the chunk's length, kind and crc aside
        deflate = zlib.compressobj(3, zlib.DEFLATED, -15)
        theirs += len(deflate.compress(band) + deflate.flush(zlib.Z_SYNC_FLUSH))
    assert ours <= 1.1 * theirs
    assert ours < len(scan) / 2
