"""The Chinese face shipped with the renderers (renderers/fonts/, built by
tools/subset_cjk_font.py) holds every character the Chinese texts use, stays small, and
travels with its licence. A translation that brings a new character fails here until the
face is cut again, and the failure says how."""

from __future__ import annotations

from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from renderers.cjk import FONT_DIR, FONT_FILES, LICENCE_FILE, font_path, is_cjk
from tests.zh_labels import POOL

ROOT = Path(__file__).resolve().parent.parent
# Each weight stays under this: ~5,660 characters take ~1.6 MB; the bound leaves room
# for a few hundred more before anyone has to think about the wheel's size again.
MAX_FACE_BYTES = 2_000_000
RECUT = ("apt-get install fonts-noto-cjk && .venv/bin/pip install -e '.[build]' && "
         ".venv/bin/python tools/subset_cjk_font.py")
# What any Chinese line may use beside the characters of the texts themselves.
FIXED = "0123456789，。：；！？「」『』（）、…—"


def _cmap(bold: bool) -> set[int]:
    return set(TTFont(font_path(bold), lazy=True).getBestCmap())


def _translated() -> dict[str, set[str]]:
    return {str(p.relative_to(ROOT)): {ch for ch in p.read_text(encoding="utf-8")
                                       if is_cjk(ch)}
            for p in sorted((ROOT / "data").rglob("*.zh-TW.yaml"))}


@pytest.mark.parametrize("bold", [False, True])
def test_every_character_of_the_translations_is_in_the_shipped_face(bold: bool) -> None:
    have = _cmap(bold)
    missing = {path: "".join(sorted(ch for ch in chars if ord(ch) not in have))
               for path, chars in _translated().items()}
    missing = {path: chars for path, chars in missing.items() if chars}
    assert not missing, f"cut the Chinese face again ({RECUT}); missing: {missing}"


@pytest.mark.parametrize("bold", [False, True])
def test_the_face_has_digits_punctuation_and_latin(bold: bool) -> None:
    """A mixed line ("第 3 回合：Ann") is drawn whole in this face."""
    have = _cmap(bold)
    wanted = FIXED + "".join(chr(c) for c in range(0x20, 0x7F)) + "鬧鬼玩家回合×·–•→"
    assert not [ch for ch in wanted if ord(ch) not in have]


def _big5_common() -> set[str]:
    """Big5's level of characters in common use (0xA440..0xC67E, 5,401 of them)."""
    found = set()
    for code in range(0xA440, 0xC67F):
        try:
            found.add(code.to_bytes(2, "big").decode("big5"))
        except UnicodeDecodeError:
            continue
    return found


@pytest.mark.parametrize("bold", [False, True])
def test_every_character_in_common_use_is_in_the_face(bold: bool) -> None:
    """Players type their own names: an ordinary name (沃, 琳, 淇) drawn as boxes on the
    board reads as a broken bot, so the face keeps all of Big5's common level."""
    common = _big5_common()
    assert len(common) == 5401
    have = _cmap(bold)
    missing = "".join(sorted(ch for ch in common if ord(ch) not in have))
    assert not missing, f"cut the Chinese face again ({RECUT}); missing: {missing}"


def test_the_check_sees_a_character_the_face_lacks() -> None:
    """The test above can fail: a rare character is not in the cut face."""
    assert ord("龘") not in _cmap(False) and is_cjk("龘")


@pytest.mark.parametrize("bold", [False, True])
def test_the_face_stays_small(bold: bool) -> None:
    size = font_path(bold).stat().st_size
    assert 100_000 < size < MAX_FACE_BYTES, size


def test_the_licence_lies_beside_the_faces() -> None:
    text = (FONT_DIR / LICENCE_FILE).read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in text and "Adobe" in text
    assert {p.name for p in FONT_DIR.iterdir()} >= {*FONT_FILES.values(), LICENCE_FILE}


def test_the_faces_are_noto_sans_cjk_tc() -> None:
    for bold in (False, True):
        names = TTFont(font_path(bold), lazy=True)["name"]
        assert names.getDebugName(1) == "Noto Sans CJK TC"
        assert names.getDebugName(2) == ("Bold" if bold else "Regular")


def test_the_tests_made_up_chinese_is_in_the_face() -> None:
    """The boards' tests in Chinese (tests/zh_labels.py) draw real glyphs, no boxes."""
    assert not [ch for ch in POOL if ord(ch) not in _cmap(False) & _cmap(True)]
