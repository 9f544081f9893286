"""Secrets on the bot's own surfaces: the log it writes at INFO, through the real
discord.py and the fake Discord.

The product's standard: "the rules engine tags every event with its audience; delivery
routes by it. Hidden information never shows in the channel, the map, /game log or
/game status". A private choice's labels name hidden cards (docs/architecture.md: "An
option whose label would reveal a hidden card is `private`: ... the choices go to the
chooser alone"); a refusal that lists them is the chooser's to read, and it reaches the
log line every interaction writes (cogs/common.py's `handling`) too, where whoever
reads the host's logs would learn a deck's cards. The log says an action was refused;
it keeps the words that name what only the chooser may see.
"""

from __future__ import annotations

import logging

import pytest

from bot.games.betrayal.context import card_name
from bot.locales import CHINESE, speaking
from tests.conftest import BotFactory
from tests.fakediscord import FakeDiscord
from tests.test_e2e_seat_changes import crystal_ball_waiting


@pytest.mark.parametrize("locale", ["en-US", "zh-TW"])
async def test_a_refused_private_choice_keeps_its_cards_out_of_the_log(
        fd: FakeDiscord, start_hauntkeeper: BotFactory, caplog: pytest.LogCaptureFixture,
        locale: str) -> None:
    """A Crystal Ball's look (seed 003: search the deck, set the card you choose on
    top) waits on its chooser as a private choice. The chooser types `/betrayal choose`
    with words that match none of its cards: the refusal lists the cards to them alone,
    and the log line of the interaction names none of them, in either language."""
    channel = fd.add_channel("crystal-log")
    users = [fd.add_user(n, locale=locale) for n in ("ann", "ben", "cat")]
    _, state, _, chooser = await crystal_ball_waiting(fd, start_hauntkeeper, channel, users)
    keys = list(state.pending.payload.get("cards") or state.script[-1].steps[0]
                ["_crystal_ball_card"]["cards"])
    names = {card_name(k) for k in keys}
    with speaking(CHINESE):
        names |= {card_name(k) for k in keys}

    with caplog.at_level(logging.INFO):
        refused = await (await fd.slash(chooser, channel, "betrayal", "choose",
                                        option="zzz-no-such-card")).wait()
    told = " ".join(refused.ephemeral_texts())
    assert any(name in told for name in names), told  # the chooser reads them
    logged = [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO]
    assert any("betrayal choose" in line and "refused" in line for line in logged), logged
    leaked = [line for line in logged if any(name in line for name in names)]
    assert not leaked, leaked
