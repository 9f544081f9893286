"""The Chinese face the boards draw with, shipped in the package (renderers/fonts/).

DejaVu has no CJK glyphs, and a slim image has no system font that does, so a label in
Chinese would be drawn as a row of boxes. The package carries Noto Sans CJK TC cut down
to the glyphs our texts use and the 5,401 Traditional characters of Big5's common level
(players' names are theirs to choose), built by tools/subset_cjk_font.py. A string with any CJK
character in it is drawn whole in this face, at the same pixel size: the face has Latin
glyphs too, so one string is one face and its width is measured as it is drawn.
"""

from __future__ import annotations

import re
from pathlib import Path

from PIL import ImageFont

from renderers import budgets

# Where the shipped faces and their licence lie (package data of `renderers`).
FONT_DIR = Path(__file__).resolve().parent / "fonts"

FONT_FILES: dict[bool, str] = {
    False: "NotoSansCJKtc-Regular-subset.otf",
    True: "NotoSansCJKtc-Bold-subset.otf",
}
LICENCE_FILE = "OFL.txt"

# Ideographs (the unified blocks, extension A, the compatibility ones and the planes
# beyond the BMP), CJK punctuation, kana, bopomofo and the fullwidth forms. General
# punctuation (… — ·) is not here: English labels use it and DejaVu draws it.
CJK_CHARS = re.compile(
    "[\u2e80-\u2fdf\u3000-\u303f\u3040-\u30ff\u3100-\u312f\u3190-\u31ff\u3400-\u4dbf"
    "\u4e00-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef\U00020000-\U0003ffff]")


def is_cjk(ch: str) -> bool:
    """Whether `ch` is a character only the Chinese face draws."""
    return CJK_CHARS.fullmatch(ch) is not None


@budgets.small(budgets.MEASURES)
def needs_cjk(text: str) -> bool:
    """Whether `text` is drawn in the Chinese face (it has a CJK character); cached, as
    the same labels are measured and drawn every turn."""
    return CJK_CHARS.search(text) is not None


def font_path(bold: bool) -> Path:
    return FONT_DIR / FONT_FILES[bool(bold)]


@budgets.small(budgets.CJK_FONTS, budgets.owned(budgets.FONT_BYTES))
def cjk_font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | None:
    """The Chinese face at this pixel size (None if the file is missing: an install
    that lost it still draws, in boxes). BASIC layout, as `common.font`."""
    try:
        return ImageFont.truetype(str(font_path(bold)), max(1, int(size)),
                                  layout_engine=ImageFont.Layout.BASIC)
    except OSError:
        return None
