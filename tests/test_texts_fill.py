"""`fill` says a template with counts through a compiled plain template (bot/texts.py):
it must say exactly what the counting formatter says, for any template, or refuse it
the same way; and a book's flat lookup must answer as its nodes do, per language.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bot import locales, texts
from bot.texts import COUNTING, compiled, fill

NAMES = ("n", "count", "who", "x")
VALUES = {"n": 1, "count": 3, "who": "Ann", "x": -1}

literal = st.text(alphabet="ab |{}:!.", max_size=6).map(
    lambda s: s.replace("{", "{{").replace("}", "}}"))
spec = st.sampled_from(["", ">4", "d", "die|dice", "point|points", "|s", "a|b|c", "03"])
field = st.builds(
    lambda name, conv, sp: "{" + name + conv + (":" + sp if sp else "") + "}",
    st.sampled_from((*NAMES, "who.upper", "missing")), st.sampled_from(["", "!r", "!s"]),
    spec)
template = st.lists(st.one_of(literal, field), max_size=6).map("".join)


def said(say: Callable[[str], str], text: str) -> tuple[str, str]:
    """What a formatter makes of `text`: ("ok", the line) or ("error", its type)."""
    try:
        return "ok", say(text)
    except Exception as error:  # the same refusal is what is compared
        return "error", type(error).__name__


@settings(max_examples=400, deadline=None)
@given(template)
@example("{n!r:d}{missing:die|dice}")  # two faults: the first one named (CI's example)
def test_fill_says_what_the_counting_formatter_says(text: str) -> None:
    expected = said(lambda t: COUNTING.format(t, **VALUES), text)
    assert said(lambda t: fill(t, **VALUES), text) == expected
    assert said(lambda t: fill(t, **VALUES), text) == expected  # compiled, then reused


def test_a_count_agrees_with_its_noun() -> None:
    assert fill("{n:die|dice} and {m:die|dice}", n=1, m=2) == "1 die and 2 dice"
    assert fill("{n:die|dice} left", n=-1) == "-1 die left"
    assert fill("{{literal|bar}} {n}", n=4) == "{literal|bar} 4"


def test_a_field_more_than_a_name_is_left_to_the_counting_formatter() -> None:
    assert compiled("{a.b:x|y}") is None
    assert compiled("{a!r:x|y}") is None
    assert compiled("{n:die|dice}") == ("{_counted_0}", (("_counted_0", "n", "die", "dice"),))


@pytest.mark.parametrize("language", locales.LANGUAGES)
def test_a_flat_lookup_answers_as_the_nodes_do(language: str) -> None:
    book = texts.TABLE
    with locales.speaking(language):
        for key in ("errors.game_over", "errors.no_game", "lists.sep"):
            assert book.text(key) == book.node(key)
            assert book.text(key) == book.node(key)  # kept, then read again
        with pytest.raises(KeyError):
            book.text("lists")  # a node, not a line
        with pytest.raises(KeyError):
            book.text("errors.no_such_line")


def test_each_language_keeps_its_own_lines() -> None:
    with locales.speaking(locales.ENGLISH):
        english = texts.TABLE.text("errors.no_game")
    other = next(lang for lang in locales.LANGUAGES if lang != locales.ENGLISH)
    with locales.speaking(other):
        chinese = texts.TABLE.text("errors.no_game")
    assert english != chinese
    with locales.speaking(locales.ENGLISH):
        assert texts.TABLE.text("errors.no_game") == english
