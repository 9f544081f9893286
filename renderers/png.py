"""Writing a palette PNG a band of rows at a time, reusing bands that did not change.

From one action to the next most of a board is the same (the house, the panels; a
token moves, the header changes), and compressing the pixels is most of a render's
cost. So the PNG's pixel data is written as one zlib stream cut into bands of
BAND_ROWS rows, each compressed on its own (deflate, flushed to a byte boundary) and
stored in its own IDAT chunk; a band is cached under an exact description of what was
drawn in it (`renderers.canvas` builds it from the pieces and fills it composed there),
so a band drawn the same way again, in this game or any other, is copied instead of
drawn and compressed. Its checksum (adler32) is kept with it and the stream's is
combined from the bands' (`adler32_combine`).

The file is an ordinary PNG (any decoder reads split IDATs). Each band starts without
a dictionary, which would cost a few per cent over one stream; the bands' deflate
(below) wins most of it back: on 20 boards each, 0-5 % bigger than Pillow's whole
encode at the renderers' settings (the three games' boards: 38.4 KB against 38.3, 41.0
against 39.0, 52.6 against 51.6).

The bands are deflated by zlib-ng (`zlib-ng`, wheels for Linux, macOS and Windows),
not zlib: on 60 boards of every game, all bands of a board took 1.11 ms at zlib-ng's
level 2 against 1.64 ms at zlib's level 3 (the boards' level before), and came 4 %
smaller (38.8 KB against 40.3 KB). A turn with many bands new (a new floor in focus,
moves across the whole house) spent a third of its render compressing (issue 23).
The checksums (adler32 of the scanlines, crc32 of the chunks) are zlib-ng's too: the
same values, 13x zlib's speed.

ISA-L (`isal`) deflates the same bands in 0.48 ms for 1 % more bytes, but was not
taken: its hand-written vector code returns without clearing the vector registers'
upper halves (no vzeroupper), and every SSE routine the process ran after it, zlib's
and Pillow's among them, was slower on the AMD EPYC we measured on (2026-12-07): Pillow's
PNG encode by 25-90 % (most often 45-85 %), CPython's zlib by about 45 %, until some
compiled AVX code cleared them. zlib-ng's compiled code leaves them clean.

The cache (`renderers.canvas.BANDS`) holds compressed bands and their descriptions,
bounded by bytes (`renderers.budgets.BANDS`): boards now have 60..120 bands, so a count
sized for the 25..47 of old thrashed with 200 channels.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence

from zlib_ng import zlib_ng

from renderers import budgets

BAND_ROWS = 32  # 16 rows: +10 % bytes; 64: fewer bands reused when a token moves
# zlib-ng's level 1 is twice as fast again but 40 % bigger on these boards; 3 is 20 %
# slower than 2 for 5 % fewer bytes.
BAND_LEVEL = 2
_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_ADLER_BASE = 65521


# A band: its IDAT chunk, and the adler32 and length of the scanlines it holds. A plain
# tuple of bytes and ints on purpose: the cyclic collector stops tracking such a tuple,
# and the cache holds tens of thousands of bands, which every full collection (a pause
# of every thread, the event loop's too) would otherwise walk (issue 23).
Band = tuple[bytes, int, int]


def band(scanlines: bytes) -> Band:
    """Compress one band's scanlines (filter byte included) into an IDAT chunk that
    continues any stream: its own deflate blocks, none final, ending byte-aligned."""
    deflate = zlib_ng.compressobj(BAND_LEVEL, zlib_ng.DEFLATED, -15)
    data = deflate.compress(scanlines) + deflate.flush(zlib_ng.Z_SYNC_FLUSH)
    return (chunk(b"IDAT", data), zlib_ng.adler32(scanlines), len(scanlines))


def chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(
        ">I", zlib_ng.crc32(data, zlib_ng.crc32(kind)))


def adler32_combine(first: int, second: int, second_len: int) -> int:
    """The adler32 of two byte strings joined, from theirs (zlib's adler32_combine)."""
    rem = second_len % _ADLER_BASE
    sum1 = first & 0xFFFF
    sum2 = (rem * sum1) % _ADLER_BASE
    sum1 = (sum1 + (second & 0xFFFF) + _ADLER_BASE - 1) % _ADLER_BASE
    sum2 = (sum2 + (first >> 16) + (second >> 16) + _ADLER_BASE - rem) % _ADLER_BASE
    return sum1 | (sum2 << 16)


@budgets.small(budgets.INKS)
def palette_chunk(colours: tuple[int, ...]) -> bytes:
    """The PLTE chunk of a palette (flat r, g, b list), cached: boards share palettes."""
    return chunk(b"PLTE", bytes(colours))


# The zlib stream's two header bytes (deflate, 32 KB window, "fast" level: the check
# bits make the pair a multiple of 31), and its final block: empty, fixed Huffman.
_ZLIB_HEADER = chunk(b"IDAT", b"\x78\x5e")
_FINAL_BLOCK = b"\x03\x00"
_IEND = chunk(b"IEND", b"")


def write(width: int, height: int, colours: tuple[int, ...], bands: Sequence[Band]) -> bytes:
    """A palette PNG (8 bits an index, no filters, as Pillow writes "P" images) from
    the bands of its scanlines, top to bottom."""
    adler = 1
    for _, band_adler, size in bands:
        adler = adler32_combine(adler, band_adler, size)
    header = chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0))
    tail = chunk(b"IDAT", _FINAL_BLOCK + struct.pack(">I", adler))
    return b"".join((_SIGNATURE, header, palette_chunk(colours), _ZLIB_HEADER,
                     *(b[0] for b in bands), tail, _IEND))
