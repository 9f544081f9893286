"""A private turn's DM prompt is known to a restarted bot, through the real discord.py
and the fake Discord: the pause still takes its buttons away, and so does the move that
ends the turn from elsewhere.

README (moderation): "/gm pause: no moves until resumed"; tests/test_e2e_pause_controls.py:
"a turn played from DMs keeps its DM prompt, which loses its buttons". Only the process
that sent the DM prompt knew it (in memory): after a restart the pause left its buttons
on, each click on them refused.
"""

from __future__ import annotations

from tests.conftest import BotFactory
from tests.e2e_helpers import game_components, latest_turn
from tests.fakediscord import FakeDiscord
from tests.test_e2e_betrayal_haunt import at_the_traitors_dm_turn, dm_prompt


async def test_a_pause_after_a_restart_takes_the_dm_prompts_buttons_away(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    channel, _, villain, mod, prompt = await at_the_traitors_dm_turn(fd, start_hauntkeeper)
    assert game_components(prompt)
    dms = len(fd.dms(villain))

    await start_hauntkeeper()  # a restart: a new bot object, the same database
    await (await fd.slash(mod, channel, "gm", "pause")).wait()
    await fd.settle()
    held = fd.message(prompt.id)
    assert game_components(held) == [], "the paused turn's DM prompt kept its buttons"
    assert "paused" in held.text.lower()
    assert len(fd.dms(villain)) == dms  # an edit: no notification

    await (await fd.slash(mod, channel, "gm", "resume")).wait()
    await fd.settle()
    fresh = dm_prompt(fd, villain)
    assert fresh.id != prompt.id and game_components(fresh)
    assert game_components(fd.message(prompt.id)) == []


async def test_a_turn_ended_elsewhere_after_a_restart_clears_the_dm_prompt(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """A moderator's /gm skip plays the private turn for its player after the restart:
    the DM prompt of the turn it ended loses its buttons, as it did before one."""
    channel, bot, _, mod, prompt = await at_the_traitors_dm_turn(fd, start_hauntkeeper)
    before = await bot.store.load(channel)
    assert before is not None

    bot = await start_hauntkeeper()
    await (await fd.slash(mod, channel, "gm", "skip")).wait()
    await fd.settle()
    after = await bot.store.load(channel)
    assert after is not None and after.version > before.version
    assert latest_turn(fd, channel) is not None
    assert game_components(fd.message(prompt.id)) == [], \
        "the DM prompt of a turn played already kept its buttons"
