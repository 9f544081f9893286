"""Lists and sentence ends in lines players read come from each language's words
(data/texts.yaml's `lists`), not code's ", " and ".": Cthulhu's scores and story, Evil
Below's roll, Betrayal's alt text. English reads as before."""

from __future__ import annotations

import pytest

from bot.games.base import PlayerInfo
from bot.games.betrayal import GAME as BETRAYAL
from bot.games.betrayal.shown import map_view
from bot.games.cthulhu import GAME as CTHULHU
from bot.games.cthulhu.content import cthulhu_line
from bot.games.evilbelow import GAME as EVIL_BELOW
from bot.locales import CHINESE, ENGLISH, speaking
from bot.texts import TABLE
from renderers.betrayal.alt_text import WORDS, describe_view
from renderers.common import sentence

SEATS = [PlayerInfo(n) for n in ("Ann", "Bo", "Cy")]


@pytest.mark.parametrize("language", [ENGLISH, CHINESE])
def test_a_sentence_ends_with_the_languages_stop_once(language: str) -> None:
    with speaking(language):
        stop = TABLE.text("lists.stop")
        assert sentence("Ann to play") == f"Ann to play{stop}"
        assert sentence("輪到 Ann。") == "輪到 Ann。"
        assert sentence("Ann wins!") == "Ann wins!"
    assert stop == ("." if language == ENGLISH else "。")


@pytest.mark.parametrize("language", [ENGLISH, CHINESE])
def test_cthulhu_scores_are_listed_in_the_languages_words(language: str) -> None:
    with speaking(ENGLISH):
        state, _ = CTHULHU.setup(SEATS, 2, {"layout": "manor"})
    with speaking(language):
        sep = TABLE.text("lists.sep")
        scores = sep.join(cthulhu_line("status.score_item", player=p.name, points=0)
                          for p in SEATS)
        status = CTHULHU.status_text(state)
    assert cthulhu_line("status.scores", scores=scores) in status or scores in status
    if language == ENGLISH:
        assert "Ann" in scores and ", Bo" in scores
    else:
        assert ", " not in status


@pytest.mark.parametrize("language", [ENGLISH, CHINESE])
def test_evil_below_dice_are_listed_in_the_languages_words(language: str) -> None:
    with speaking(ENGLISH):
        state, _ = EVIL_BELOW.setup(SEATS, 4, {})
        seat = EVIL_BELOW.to_act(state)
        assert seat is not None
        roll = next(o.action for o in EVIL_BELOW.options(state, seat) if o.action.kind == "roll")
    with speaking(language):
        sep = TABLE.text("lists.sep")
        _, events = EVIL_BELOW.apply(state, seat, roll)
    rolled = next(e.text for e in events if e.kind == "roll")
    assert rolled.count(sep) == 6  # seven dice
    if language == CHINESE:
        assert ", " not in rolled


@pytest.mark.parametrize("language", [ENGLISH, CHINESE])
def test_betrayal_alt_text_tags_and_ends_in_the_languages_words(language: str) -> None:
    with speaking(ENGLISH):
        state, _ = BETRAYAL.setup(SEATS, 5, {})
    with speaking(language):
        text = describe_view(map_view(state))
        to_play = WORDS.text("alt.to_play")
        tagged = WORDS.say("alt.tagged", line="", tag=to_play)
    assert tagged in text
    if language == CHINESE:
        assert f", {to_play}" not in text and "，" in tagged
    else:
        assert f", {to_play}" in text
