"""A click on a channel's live message whose move is saved but whose board Discord has
not taken yet (owed), while Discord holds that channel's requests up (a storm of 429s,
retry_after 1 s: discord.py waits each out, five tries), and other channels play:
through the real discord.py against the fake Discord.

The click is the first half of a two-step choice (`view.step`), drawn at the version
before the owed move: stale. Such a click sets off the owed delivery (so the newest
controls show, bot/sessions.py's `refuse_stale`), and that delivery waits on Discord.
What must hold: Discord wants the click answered "within 3 seconds" (developer docs,
"Receiving and Responding": else "This interaction failed"), so the click is answered
in time, saying it is from an earlier turn; the owed move is shown once Discord takes
it; other channels play on at once ("nothing one channel does may fail or slow
another", README).
"""

from __future__ import annotations

import asyncio

from bot.core.actions import Action
from bot.texts import say
from cogs.components import STEP
from tests.channel_trouble_helpers import (
    Game,
    delivered,
    games,
    others_play,
    press_first,
    shown,
)
from tests.conftest import BotFactory
from tests.e2e_helpers import game_components, latest_turn, turn_posts
from tests.fakediscord import FakeDiscord, InteractionHandle


async def press_step(fd: FakeDiscord, game: Game) -> InteractionHandle:
    """The mover presses the first half of a two-step choice on the live message (not
    waited for)."""
    message = latest_turn(fd, game.channel)
    for comp in game_components(message):
        if comp["type"] == 3:
            for option in comp["options"]:
                if Action.decode(option["value"]).kind == STEP:
                    return await fd.select(game.mover(fd), message, comp["custom_id"],
                                           [option["value"]])
        elif comp["type"] == 2 and STEP in comp["custom_id"]:
            return await fd.click(game.mover(fd), message, comp["custom_id"])
    raise AssertionError("the live message offers no two-step choice")


async def test_a_stale_step_in_a_channel_held_by_429s_is_answered_in_time(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    bot, (held, *others) = await games(fd, start_hauntkeeper)
    posts = turn_posts(fd, held.channel)
    fd.hold_next_edit(held.channel).drop()  # the move's board refused: owed
    played = await press_first(fd, held.mover(fd), latest_turn(fd, held.channel))
    assert played.ephemeral_texts()[-1] == say("delivery_owed"), played.ephemeral_texts()
    assert not await delivered(bot, held.channel)
    storms = [fd.faults.rate_limited(method, path, times=10**6, retry_after=1.0)
              for method, path in (("PATCH", rf"/channels/{held.channel}/messages/\d+"),
                                   ("POST", rf"/channels/{held.channel}/messages"))]

    stepping = await press_step(fd, held)  # stale: sets off the owed delivery
    await fd.wait_until(lambda: any(s.hits for s in storms), timeout=5, what="a 429")
    await others_play(fd, bot, others, rounds=1)
    await stepping.wait(10, settle=False)
    assert fd.late_answers == []  # answered within Discord's 3 s
    # Said once the owed delivery is through or given up (its edit of the clicked live
    # message may have been the answer itself).
    await fd.wait_until(lambda: stepping.ephemeral_texts(), timeout=10, what="the refusal")
    assert stepping.ephemeral_texts() == [say("errors.stale")], stepping.ephemeral_texts()

    for storm in storms:
        storm.times = 0
    await asyncio.wait_for(bot.resume_games(ai_turns=False), 15)
    await shown(bot, held.channel)
    await fd.settle()
    assert turn_posts(fd, held.channel) == posts + 1  # the owed move, once
    again = await press_first(fd, held.mover(fd), latest_turn(fd, held.channel))
    await shown(bot, held.channel)
    assert set(again.ephemeral_texts()) <= {say("view.step_done")}
    assert fd.nonce_repeats == 0
