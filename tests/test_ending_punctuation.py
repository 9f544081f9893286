"""A haunt's ending reads as one sentence: the winner, then the haunt's reason.

Many reasons carry their own colon ("the canoe and every living hero are in the Tower:
they float away."), so a winner's line that also led in with a colon read "The heroes
won: the canoe ... Tower: they float away." (found reading /game history's stories)."""

from __future__ import annotations

import pytest

from bot.games.betrayal.content import betrayal_line
from bot.games.betrayal.haunting.words import haunt_line
from bot.locales import speaking
from tests.test_betrayal_haunt_better_with_friends import PLUGIN

KEYS = ("winner_heroes", "winner_traitor", "winner_house")


@pytest.mark.parametrize("language", ["en", "zh-TW"])
@pytest.mark.parametrize("key", KEYS)
def test_a_winner_line_with_a_reason_of_its_own_colon_has_one_colon(
        language: str, key: str) -> None:
    with speaking(language):
        reason = PLUGIN.text("reason_escape", room="Tower")
        told = [betrayal_line(f"story.{key}", explorer="Ox", player="ann", reason=reason),
                haunt_line(f"events.{key}", reason=reason)]
    own = reason.count(":") + reason.count("：")
    for line in told:
        assert line.count(":") + line.count("：") == own, line
