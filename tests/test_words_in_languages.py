"""Words the code used to build in English (list punctuation, "and", ordinals, titles
held by caches) come from data/ in the language spoken, English unchanged."""

from __future__ import annotations

import re

import pytest

from bot import games, yaml_files
from bot.games.base import PlayerInfo
from bot.games.betrayal import content
from bot.games.cthulhu import layouts
from bot.games.cthulhu.content import cthulhu_line
from bot.games.cthulhu.rules import ordinal
from bot.locales import CHINESE, ENGLISH, speaking
from bot.texts import TABLE, and_list, listed, say
from renderers.betrayal.palette import token_code, token_label
from renderers.cjk import needs_cjk


@pytest.mark.parametrize("language", [ENGLISH, CHINESE])
def test_lists_are_joined_in_each_languages_words(language: str) -> None:
    with speaking(language):
        sep = TABLE.text("lists.sep")
        assert listed(["A", "B", "C"]) == f"A{sep}B{sep}C"
        assert and_list(["A"]) == "A"
        assert and_list(["A", "B"]) == say("lists.and", rest="A", last="B")
        assert and_list(["A", "B", "C"]) == say("lists.and", rest=f"A{sep}B", last="C")


def test_english_lists_read_as_before() -> None:
    with speaking(ENGLISH):
        assert and_list(["Ann", "Bo", "Cy"]) == "Ann, Bo and Cy"


def test_chinese_lists_have_no_english_joiner() -> None:
    with speaking(CHINESE):
        joined = and_list(["甲", "乙", "丙"])
    assert " and " not in joined and ", " not in joined


@pytest.mark.parametrize(("n", "suffix"), [(1, "st"), (2, "nd"), (3, "rd"), (4, "th"),
                                           (11, "th"), (12, "th"), (13, "th"), (21, "st"),
                                           (22, "nd"), (23, "rd"), (111, "th")])
def test_ordinals_follow_the_english_rule_and_each_languages_template(n: int,
                                                                      suffix: str) -> None:
    with speaking(ENGLISH):
        assert ordinal(n) == f"{n}{suffix}"
    with speaking(CHINESE):
        assert ordinal(n) == cthulhu_line(f"ordinals.{suffix}", n=n)
        assert suffix not in ordinal(n)


def test_cthulhu_layout_titles_follow_the_language_spoken_in_any_order() -> None:
    titles = {}
    for language in (CHINESE, ENGLISH, CHINESE, ENGLISH):
        with speaking(language):
            title = layouts.layout_title("manor")
        assert titles.setdefault(language, title) == title
    assert titles[ENGLISH] != titles[CHINESE]


@pytest.mark.parametrize("kind", sorted(games.all_games()))
def test_each_game_title_is_a_word_of_its_data_in_each_language(kind: str) -> None:
    game = games.get(kind)
    with speaking(ENGLISH):
        english = game.title
    with speaking(CHINESE):
        chinese = game.title
    assert english and chinese and english != chinese
    assert needs_cjk(chinese)


# An English word (three letters or more) not in a command's name ("/secret").
ENGLISH_WORD = re.compile(r"(?<![/\w])[A-Za-z][A-Za-z'-]{2,}")


@pytest.mark.parametrize(("seed", "options"), [
    *((seed, {}) for seed in range(1, 7)),
    *((seed, {"expansion": "neibolt"}) for seed in range(1, 5))])
def test_a_chinese_betrayal_game_says_no_english_word(seed: int,
                                                      options: dict[str, str]) -> None:
    """The code names traits, kinds of damage and tokens by their keys; the lines and
    buttons say them from data/ (content.trait_name, damage_name, token_name): a Chinese
    game's rolls, trait changes, damage, tokens and choices carry no English word."""
    game = games.get("betrayal")
    with speaking(CHINESE):
        state, _ = game.setup([PlayerInfo(f"甲{i}", ai=True) for i in range(4)], seed,
                              options)
        said: list[str] = []
        for _ in range(900):
            seat = game.to_act(state)
            if game.is_over(state) or seat is None:
                break
            said += [o.label for o in game.options(state, seat)]
            state, events = game.apply(state, seat, game.ai_action(state, seat))
            said += [e.text for e in events]
        names = [content.trait_name(t) for t in content.TRAITS]
    assert any(name in line for line in said for name in names)  # traits were named
    english = sorted({m.group() for line in said for m in ENGLISH_WORD.finditer(line)})
    assert english == [], english
    with speaking(ENGLISH):
        assert [content.trait_name(t) for t in content.TRAITS] == [
            "Speed", "Might", "Sanity", "Knowledge"]
        assert content.damage_name("mental") == "mental"
        assert content.token_name("secret_passage") == "secret passage"


def test_every_token_the_engine_names_has_board_words_in_chinese() -> None:
    """A token a line names (`token_names`) is drawn on the board too, labelled in the
    legend and coded on its tile: in Chinese neither may fall back to its English key
    (the Collapsed Room's "Below collapsed" once did)."""
    kinds = set(yaml_files.read_english(content.DATA / "betrayal" / "texts.yaml")["token_names"])
    assert "below_collapsed" in kinds
    with speaking(CHINESE):
        for kind in sorted(kinds):
            label, code = token_label(kind), token_code(kind)
            assert needs_cjk(label) and needs_cjk(code), (kind, label, code)
            assert not re.search("[A-Za-z]", label + code), (kind, label, code)
