"""A click's late follow-up, its interaction token expired, in one channel while other
channels play: through the real discord.py against the fake Discord.

What Discord does (developer docs, "Receiving and Responding"): "Interaction tokens are
valid for 15 minutes"; past them the token's webhook answers 401 Invalid Webhook Token
(50027; tests/fakediscord/routes_interactions.py). A follow-up that late can only be
dropped: the bot must not fail for it (no error logged, the move saved and shown as the
channel allows), and no other channel may notice.
"""

from __future__ import annotations

import asyncio

from tests.channel_trouble_helpers import games, others_play, shown
from tests.conftest import BotFactory
from tests.e2e_helpers import game_components, latest_turn, turn_posts
from tests.fakediscord import FakeDiscord

TOKEN_SECONDS = 15 * 60
SLOW = 2.5  # past the bot's 2 s of patience: the click is deferred


def _age(fd: FakeDiscord, channel: int) -> None:
    """The channel's interactions grow older than their tokens' 15 minutes (Discord's
    clock for them alone: the other channels' clicks stay fresh)."""
    for handle in fd.interactions.values():
        if handle.channel_id == channel:
            handle.sent_at -= TOKEN_SECONDS + 1


async def test_a_follow_up_past_the_token_s_15_minutes_fails_nothing_else(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """The troubled channel's live message cannot be edited (403 Missing Permissions),
    Discord's refusal comes late, and by then the click, deferred in time, is 15
    minutes old: the bot's private word to the mover is refused (50027). Nothing
    fails for it (no error logged): the move stays owed and is shown at the next
    retry; the other channels play throughout, side by side."""
    bot, (troubled, *others) = await games(fd, start_hauntkeeper)
    posts = turn_posts(fd, troubled.channel)
    mover = troubled.mover(fd)
    live = latest_turn(fd, troubled.channel)
    first = game_components(live)[0]
    half = await (await fd.select(mover, live, first["custom_id"],
                                  [first["options"][0]["value"]])).wait()
    # a two-step choice: its second half, on a private message, PATCHes the live one
    private = [m for m in half.messages if m.ephemeral and game_components(m)][-1]
    fault = fd.faults.add("PATCH", rf"/channels/{troubled.channel}/messages/\d+", 403,
                          code=50013, message="Missing Permissions")
    fd.faults.slow(troubled.channel, SLOW)  # its refusal comes late: the click deferred
    second = game_components(private)[0]
    handle = await (fd.click(mover, private, second["custom_id"]) if second["type"] == 2
                    else fd.select(mover, private, second["custom_id"],
                                   [second["options"][0]["value"]]))

    async def late() -> None:
        await handle.wait(5, settle=False)  # deferred within Discord's 3 s
        _age(fd, troubled.channel)  # the rest comes after the token's 15 minutes

    await asyncio.gather(late(), others_play(fd, bot, others, rounds=2))
    fd.faults.slow(troubled.channel, 0)
    await fd.settle()
    assert fault.hits == 1
    expired = {e[2].get("code") for e in fd.errors} & {50027}
    assert expired, fd.errors  # the late answers met Discord's refusals
    table = await bot.store.load(troubled.channel)
    assert table is not None and table.delivered_seq < table.last_seq  # owed, not lost

    assert await bot.resume_games(ai_turns=False) == 1
    await shown(bot, troubled.channel)
    await fd.settle()
    assert turn_posts(fd, troubled.channel) == posts + 1
    await others_play(fd, bot, [troubled, *others], rounds=1)
