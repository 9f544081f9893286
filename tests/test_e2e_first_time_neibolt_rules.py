"""What a first-time Neibolt table reads when it asks how the haunt starts: `/game rules`
in the channel of a Neibolt lobby, through the real discord.py and the fake Discord, in
English and in zh-TW. The topics are the classic game's and then the edition's; the
classic "The haunt" told the six-dice omen roll and the haunt chart, neither of which a
Neibolt game plays."""

from __future__ import annotations

import pytest

from bot.games.betrayal import GAME as BETRAYAL
from bot.locales import CHINESE, ENGLISH, speaking
from tests.conftest import BotFactory
from tests.fakediscord import FakeDiscord

DISCORD_LOCALE = {ENGLISH: "en-US", CHINESE: "zh-TW"}
NEIBOLT = {"expansion": "neibolt"}


async def _haunt_topic(fd: FakeDiscord, start: BotFactory, language: str,
                       setup: dict[str, str]) -> str:
    """The `/game rules topic:haunt` answer a seated player reads in a lobby."""
    locale = DISCORD_LOCALE[language]
    fd.guilds[fd.guild_id].locale = locale
    channel = fd.add_channel("neibolt")
    ann, bob = fd.add_user("ann", locale=locale), fd.add_user("bob", locale=locale)
    await start()
    await (await fd.slash(ann, channel, "game", "new", game="betrayal", **setup)).wait()
    offered = await fd.autocomplete(bob, channel, "game", "rules", focused="topic")
    assert "haunt" in [c["value"] for c in offered]
    read = await (await fd.slash(bob, channel, "game", "rules", topic="haunt")).wait()
    texts = read.ephemeral_texts()
    assert len(texts) == 1, read.texts()
    return texts[0]


@pytest.mark.parametrize("language", [ENGLISH, CHINESE])
async def test_the_haunt_topic_of_a_neibolt_table_tells_the_encounter_roll(
        fd: FakeDiscord, start_hauntkeeper: BotFactory, language: str) -> None:
    """Seed 000: "When making a haunt roll, count only the number of faceup Pennywise
    Encounter cards instead of Omens to determine how many dice to roll", "A haunt roll
    of 5+ triggers the haunt!", and "When the haunt is triggered, refer to the COME HOME
    TO EVIL scenario card to determine which haunt has been activated." On a Neibolt
    table "The haunt" said to roll 6 dice for an omen, the haunt beginning under the
    omens drawn, and to read the haunt chart."""
    text = await _haunt_topic(fd, start_hauntkeeper, language, NEIBOLT)
    with speaking(language):
        classic = BETRAYAL.rules_topics({})["haunt"]
        neibolt = BETRAYAL.rules_topics(NEIBOLT)
        assert text.endswith(neibolt["haunt"]), text
        assert classic not in text
        for other in ("encounters", "scenarios"):  # where it sends the reader on
            assert BETRAYAL.rules_titles(NEIBOLT)[other] in text, text


@pytest.mark.parametrize("language", [ENGLISH, CHINESE])
async def test_the_classic_haunt_topic_is_unchanged(
        fd: FakeDiscord, start_hauntkeeper: BotFactory, language: str) -> None:
    """Seed 003's haunt roll stays the classic table's "The haunt"."""
    text = await _haunt_topic(fd, start_hauntkeeper, language, {})
    with speaking(language):
        assert text.endswith(BETRAYAL.rules_topics({})["haunt"]), text
