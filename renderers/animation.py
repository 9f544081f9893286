"""A replay's animated image: the boards a game's renderer drew, turn by turn, in one
animated WebP (or GIF, where that is smaller) that Discord shows inline.

Why these numbers: Discord shows an inline image at about 550 x 350, so every board
(drawn at twice that for the live message) is halved to exactly that; a replay lasts
about 30 s however long the game was (each picture's time is the total shared out,
within bounds, and the end card is held longer); a bot may upload 10 MiB, so a file
over that is encoded again smaller (fewer colours, then every other picture). The same
pictures always give the same bytes: nothing here reads a clock or a random number.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from renderers.common import draw_text, fit_text, font, wrap_text

SIZE = (550, 350)  # what Discord shows inline
TOTAL_MS = 30_000  # the whole replay, about
SHORTEST_MS, LONGEST_MS = 120, 1_500  # one picture's time
END_MS = 5_000  # the end card
UPLOAD_MAX = 10 * 1024 * 1024  # Discord's upload limit for a bot, by default
GIF_COLOURS = 128
BACKGROUND = (24, 22, 30)
INK = (236, 232, 222)
ACCENT = (214, 170, 84)


@dataclass(frozen=True)
class Animation:
    data: bytes
    format: str  # "webp" or "gif": the file's extension
    durations: list[int]  # each picture's time (ms)
    hashes: list[str]  # each picture's pixels, hashed: the same game gives the same list

    @property
    def seconds(self) -> float:
        return sum(self.durations) / 1000


def frame(png: bytes) -> Image.Image:
    """A board as one picture of the replay: RGB at SIZE (a board of another size is
    fitted inside it, centred)."""
    with Image.open(io.BytesIO(png)) as board:
        picture = board.convert("RGB")
    if picture.size == (SIZE[0] * 2, SIZE[1] * 2):
        return picture.reduce(2)  # exact, and faster than a resample
    picture.thumbnail(SIZE, Image.Resampling.LANCZOS)
    if picture.size == SIZE:
        return picture
    canvas = Image.new("RGB", SIZE, BACKGROUND)
    canvas.paste(picture, ((SIZE[0] - picture.width) // 2, (SIZE[1] - picture.height) // 2))
    return canvas


def card(title: str, lines: Sequence[str]) -> Image.Image:
    """A picture of words (the end: who won, what was secret), legible at SIZE."""
    picture = Image.new("RGB", SIZE, BACKGROUND)
    draw = ImageDraw.Draw(picture)
    margin, width = 24, SIZE[0] - 48
    heading, shown = fit_text(title, width, 26, min_size=16, bold=True)
    draw_text(draw, (margin, margin), shown, heading, ACCENT, bold=True)
    y = margin + 44
    body = font(15)
    for line in lines:
        for part in wrap_text(line, body, width, max_lines=3):
            if y > SIZE[1] - margin - 18:
                return picture
            draw_text(draw, (margin, y), part, body, INK)
            y += 21
        y += 4
    return picture


def durations(count: int) -> list[int]:
    """Each picture's time: TOTAL_MS shared out within bounds, in steps of 10 ms (GIF's
    unit), the last held END_MS (the end card)."""
    if count <= 0:
        return []
    if count == 1:
        return [END_MS]
    each = max(SHORTEST_MS, min(LONGEST_MS, (TOTAL_MS - END_MS) // (count - 1)))
    return [each // 10 * 10] * (count - 1) + [END_MS]


def fingerprint(picture: Image.Image) -> str:
    return hashlib.sha256(picture.tobytes()).hexdigest()[:16]


def animate(pictures: Sequence[Image.Image], limit: int = UPLOAD_MAX) -> Animation:
    """The pictures as one animated image under `limit` bytes: WebP, or GIF where that
    is smaller; over the limit, fewer colours, then every other picture (the first and
    the last kept). ValueError when nothing fits."""
    pictures = list(pictures)
    if not pictures:
        raise ValueError("no picture to animate")
    while True:
        times = durations(len(pictures))
        webp = _webp(pictures, times)
        best = min((webp, "webp"), (_gif(pictures, times), "gif"), key=lambda f: len(f[0]))
        if len(best[0]) <= limit:
            return Animation(best[0], best[1], times, [fingerprint(p) for p in pictures])
        if len(pictures) <= 2:
            raise ValueError(f"a replay of {len(pictures)} pictures is over {limit} bytes")
        pictures = [*pictures[:-1:2], pictures[-1]]


def _webp(pictures: list[Image.Image], times: list[int]) -> bytes:
    """Every picture a key frame (kmax 1): a lossy picture drawn over the one before
    leaves that one's ghost wherever the two are nearly alike (the end card over a dark
    board), and the file is still far under the limit."""
    out = io.BytesIO()
    pictures[0].save(out, "WEBP", save_all=True, append_images=pictures[1:], duration=times,
                     loop=0, quality=80, method=2, kmin=0, kmax=1)
    return out.getvalue()


def _gif(pictures: list[Image.Image], times: list[int]) -> bytes:
    """One palette for every picture, made from a few of them spread over the game and
    the last (the end card): the boards share their colours, and one palette keeps the
    bytes the same every time."""
    samples = [*pictures[:-1:max(1, len(pictures) // 7)][:7], pictures[-1]]
    strip = Image.new("RGB", (SIZE[0], SIZE[1] * len(samples)))
    for n, picture in enumerate(samples):
        strip.paste(picture, (0, SIZE[1] * n))
    palette = strip.quantize(GIF_COLOURS, method=Image.Quantize.MEDIANCUT)
    frames = [p.quantize(palette=palette, dither=Image.Dither.NONE) for p in pictures]
    out = io.BytesIO()
    frames[0].save(out, "GIF", save_all=True, append_images=frames[1:], duration=times,
                   loop=0, optimize=False, disposal=1)
    return out.getvalue()
