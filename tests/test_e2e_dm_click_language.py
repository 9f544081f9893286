"""A click in a DM tells the bot the player's language, as a click in the server does.

README, Languages: "Each player reads their DMs ... in their own Discord app's
language". The language is learned from each interaction's locale (bot/languages.py,
`heard`); a turn played from DMs is all clicks in a DM, so a player who switched their
app's language and plays their turn there must be heard there too.
"""

from __future__ import annotations

import random

from tests.conftest import BotFactory
from tests.e2e_helpers import play_by_click
from tests.fakediscord import FakeDiscord
from tests.test_e2e_betrayal_haunt import at_the_traitors_dm_turn


async def test_a_move_clicked_in_a_dm_keeps_the_players_new_language(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    channel, bot, villain, _, prompt = await at_the_traitors_dm_turn(fd, start_hauntkeeper)
    before = await bot.store.load(channel)
    assert before is not None
    [seat] = before.seats_of(villain.id)
    assert before.seats[seat].language != "zh-TW"

    villain.locale = "zh-TW"  # they switch their Discord app to Chinese
    await play_by_click(fd, villain, prompt, random.Random(1))
    await fd.settle()

    after = await bot.store.load(channel)
    assert after is not None and after.version > before.version, "the click played no move"
    assert after.seats[seat].language == "zh-TW"
