"""Chinese on the boards: a line with Chinese in it is drawn in the shipped Chinese face
(renderers/cjk.py) at the size asked for, as real glyphs, not the boxes DejaVu draws for
characters it lacks; it is measured in the face it is drawn in; and wrapping breaks
Chinese, which has no spaces, between characters, so a long name stays in its box."""

from __future__ import annotations

import random

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFont

from renderers import canvas
from renderers.cjk import cjk_font, font_path, needs_cjk
from renderers.common import (
    BLACK,
    WHITE,
    break_units,
    draw_text,
    ellipsize,
    face_for,
    fit_text,
    fit_wrapped,
    font,
    has_glyph,
    make_palette,
    printable,
    text_bbox,
    text_width,
    wrap_text,
)

HAUNTED = "鬧鬼"
# Characters of the kind the translations use, for lines made up below.
POOL = "鬧鬼開始了木乃伊行走所有英雄必須逃出大宅玩家回合背叛者骰子地下室樓梯閣樓"


def _drawn(text: str, size: int, bold: bool = False) -> Image.Image:
    img = Image.new("L", (40 * size, 3 * size), 0)
    draw_text(ImageDraw.Draw(img), (size, size), text, font(size, bold), 255)
    return img


def _from_face(path: str, text: str, size: int) -> Image.Image:
    """`text` drawn straight from a font file, nothing of ours in between."""
    img = Image.new("L", (40 * size, 3 * size), 0)
    f = ImageFont.truetype(path, size, layout_engine=ImageFont.Layout.BASIC)
    ImageDraw.Draw(img).text((size, size), text, font=f, fill=255)
    return img


@pytest.mark.parametrize("bold", [False, True])
def test_chinese_is_drawn_with_the_chinese_glyphs(bold: bool) -> None:
    size = 20
    drawn = _drawn(HAUNTED, size, bold)
    expected = _from_face(str(font_path(bold)), HAUNTED, size)
    assert ImageChops.difference(drawn, expected).getbbox() is None
    # ...which are not what the Latin font draws for them (its missing-glyph boxes).
    latin = font(size, bold)
    assert latin.getname()[0] != "Noto Sans CJK TC"
    boxes = Image.new("L", drawn.size, 0)
    ImageDraw.Draw(boxes).text((size, size), HAUNTED, font=latin, fill=255)
    assert ImageChops.difference(drawn, boxes).getbbox() is not None


def test_the_two_glyphs_have_ink_of_the_expected_width() -> None:
    """Two full-width characters: ink about two ems wide, in two separate shapes."""
    size = 24
    box = _drawn(HAUNTED, size).getbbox()
    assert box is not None
    assert 1.6 * size <= box[2] - box[0] <= 2 * size
    assert text_width(font(size), HAUNTED) == 2 * size  # each advances one em
    one = _drawn("鬧", size).getbbox()
    assert one is not None and one[2] - one[0] < 1.05 * size


def test_a_line_with_chinese_is_one_face_at_the_same_size() -> None:
    for size in (9, 18, 31):
        for bold in (False, True):
            f = font(size, bold)
            mixed = face_for(f, "Ann 的回合")
            assert mixed is cjk_font(size, bold)
            assert mixed.size == size and mixed.getname()[1] == ("Bold" if bold else "Regular")
            assert face_for(f, "Ann's turn") is f  # English stays in DejaVu
    assert needs_cjk("第 3 回合") and not needs_cjk("Turn 3 — Ann · 4×")


def test_width_is_measured_in_the_face_drawn() -> None:
    """The ink of a drawn line lies within its measured width (what layouts fit)."""
    size = 22
    for text in (HAUNTED, "Ann 的回合：第 3 回", "背叛者（Ox Bellows）", "木乃伊行走…"):
        img = _drawn(text, size)
        box = img.getbbox()
        assert box is not None
        width = text_width(font(size), text)
        assert box[0] >= size - 2 and box[2] <= size + width + 2, (text, box, width)
        x0, y0, x1, y1 = text_bbox(font(size), text)  # the ink lies inside the text's box
        assert x0 - 1 <= box[0] - size and box[2] - size <= x1 + 1, (text, box, x0, x1)
        assert y0 - 1 <= box[1] - size and box[3] - size <= y1 + 1, (text, box, y0, y1)


def test_the_canvas_draws_chinese_the_same_rgb_and_indexed() -> None:
    size = 20
    rgb = canvas.Canvas((300, 60), WHITE)
    rgb.text((10, 30), "玩家回合 Ann", font(size, True), BLACK, on=WHITE, anchor="lm")
    rgb.words((10, 50), "第 3 回合 · 鬧鬼", font(size), BLACK, on=WHITE)
    picture = rgb.finish()
    ink = canvas.Ink(make_palette([picture], exact=[WHITE, BLACK]))
    indexed = canvas.Canvas((300, 60), WHITE, ink)
    indexed.text((10, 30), "玩家回合 Ann", font(size, True), BLACK, on=WHITE, anchor="lm")
    indexed.words((10, 50), "第 3 回合 · 鬧鬼", font(size), BLACK, on=WHITE)
    assert indexed.finish().convert("RGB").tobytes() == ink.finish(
        picture.quantize(palette=ink.palette.lookup, dither=Image.Dither.NONE)
    ).convert("RGB").tobytes()
    direct = Image.new("RGB", (300, 60), WHITE)
    draw_text(ImageDraw.Draw(direct), (10, 30), "玩家回合 Ann", font(size, True), BLACK,
              anchor="lm")
    assert ImageChops.difference(direct.crop((0, 0, 300, 40)),
                                 picture.crop((0, 0, 300, 40))).getbbox() is None


def test_chinese_wraps_between_characters() -> None:
    f = font(20)
    text = "鬧鬼開始了：木乃伊行走，所有英雄必須逃出大宅。"
    lines = wrap_text(text, f, 150)
    assert len(lines) > 1
    assert "".join(lines) == text  # nothing lost, no space added
    assert all(text_width(f, line) <= 150 for line in lines)
    assert not any(line[0] in "，。：；！？、）」" for line in lines)  # no line starts so
    # English still wraps at its spaces only.
    assert wrap_text("The haunt has begun: the mummy walks", f, 150) == [
        "The haunt has", "begun: the", "mummy walks"]


def test_break_units_keep_latin_whole_and_punctuation_with_its_character() -> None:
    assert list(break_units("第3回合：Ann 來了")) == [
        ("", "第"), ("", "3"), ("", "回"), ("", "合："), ("", "Ann"), (" ", "來"), ("", "了")]
    assert list(break_units("two words")) == [("", "two"), (" ", "words")]


def test_random_chinese_lines_wrap_within_their_width() -> None:
    rng = random.Random(25)
    for _ in range(150):
        text = "".join(rng.choice(POOL + "，。 Ann ") for _ in range(rng.randint(1, 40)))
        width = rng.randint(30, 200)
        size = rng.choice((12, 18, 22))
        lines = wrap_text(text, font(size), width, max_lines=3)
        assert len(lines) <= 3
        assert all(text_width(font(size), line) <= width for line in lines), (text, width)


def test_a_long_chinese_name_fits_its_box() -> None:
    name = "維多利亞女王時代的舞廳與地下墓穴"
    f, lines = fit_wrapped(name, 90, 2, 22, min_size=16, bold=True)
    assert 1 < len(lines) <= 2 and f.size >= 16
    assert all(text_width(f, line) <= 90 for line in lines)
    f, text = fit_text(name, 90, 22, min_size=16)
    assert text_width(f, text) <= 90 and text.endswith("…") and needs_cjk(text)
    assert ellipsize(name, font(20), 70).endswith("…")


def test_symbols_the_chinese_face_lacks_are_drawn_as_its_nearest() -> None:
    """"☠ 某人死了" is drawn whole in the Chinese face, which has no ☠: a look-alike it
    has is drawn rather than a missing-glyph box."""
    f = face_for(font(20), "☠ 鬧鬼 ▸ ✦ ✕")
    shown = printable("☠ 鬧鬼 ▸ ✦ ✕", f)
    assert shown == "† 鬧鬼 ▶ ◆ ×"
    assert all(has_glyph(f, ch) for ch in shown if ch != " ")
    assert printable("☠ dead ▸", font(20)) == "☠ dead ▸"  # DejaVu draws them itself
