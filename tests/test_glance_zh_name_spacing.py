"""A Chinese name joins Chinese words with no space (zh-TW writes no space between its
words): "艾達讓傳送就這麼失效。", not "艾達 讓傳送就這麼失效。".

The zh-TW templates keep a space on each side of a player's name ("{player} 讓傳送…"):
a Discord name in Latin letters reads better set off from the Chinese around it
("ann 讓傳送…"). But an AI seat of a Chinese table has a Chinese name (data/texts.
zh-TW.yaml, `ai_names`), and so may a player: between two Chinese characters the space
is a gap in the sentence. The filled line drops it; a Latin name keeps its spaces.
"""

from __future__ import annotations

import re

import pytest

from bot import games
from bot.games.base import PlayerInfo
from bot.games.cthulhu.content import cthulhu_line
from bot.locales import CHINESE, ENGLISH, speaking
from bot.texts import fill, say
from tests.test_zh_tw_reads_chinese import chinese, play_reading, spoken

AI_NAMES = ["艾達", "鮑里斯", "克拉拉", "德米崔"]
# A space between one of those names and a Chinese character (or Chinese punctuation).
CJK = "\u3000-\u303f\u3400-\u9fff\uff00-\uffef"
NAMED = "|".join(AI_NAMES)
GAP = re.compile(f"(?:{NAMED})[*_]* [*_]*[{CJK}]|[{CJK}][*_]* [*_]*(?:{NAMED})")


def test_a_chinese_name_joins_the_chinese_after_it() -> None:
    with speaking(CHINESE):
        assert cthulhu_line("events.teleport_declined", player="艾達") == "艾達讓傳送就這麼失效。"
        assert say("lobby.joined", name="艾達") == "艾達加入了牌桌。"
        assert fill("**{who}** 遇到了{card}。", who="艾達", card="小丑") == "**艾達**遇到了小丑。"
        assert fill("由 {a} 和 {b} 先開始", a="甲", b="乙") == "由甲和乙先開始"


def test_a_latin_name_keeps_its_spaces() -> None:
    with speaking(CHINESE):
        assert cthulhu_line("events.teleport_declined", player="ann") == "ann 讓傳送就這麼失效。"
        assert say("lobby.joined", name="ann") == "ann 加入了牌桌。"
        assert fill("**{who}** 遇到了{card}。", who="ann", card="小丑") == "**ann** 遇到了小丑。"
    with speaking(ENGLISH):
        assert "Ann " in cthulhu_line("events.teleport_declined", player="Ann")


@pytest.mark.parametrize(("kind", "options"), [
    ("cthulhu", {}), ("evilbelow", {}), ("betrayal", {}), ("betrayal", {"expansion": "neibolt"})])
def test_no_gap_in_an_ai_game_read_in_chinese(kind: str, options: dict[str, str]) -> None:
    """Four AI seats with the Chinese table's AI names, played a few hundred steps: no
    line, button, status or secret sets their names off from the Chinese around them."""
    game = games.get(kind)
    players = [PlayerInfo(name, ai=True) for name in AI_NAMES]
    state, first = spoken(game, lambda: game.setup(players, 2, dict(options)))
    _, read = play_reading(game, state, 300)
    gaps = sorted({line for text in [*chinese(first), *read] for line in text.split("\n")
                   if GAP.search(line)})
    assert gaps == []
