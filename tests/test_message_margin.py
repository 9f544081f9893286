"""Our messages stop 100 characters under Discord's 2,000 (bot/discord_limits.py): the
live message, the lines sent before it, a long log, each split or trimmed at 1,900, so
a player's long name or a line added later cannot make Discord refuse a post."""

from __future__ import annotations

from bot.core.actions import Action, Option
from bot.discord_limits import CONTENT_MAX, DISCORD_CONTENT_MAX
from bot.live_message import LIMIT, chunks, fit, split_line
from bot.sessions import Post, Prompt
from bot.store import ACTIVE, LoggedEvent, Table
from cogs.moderation_views import log_text
from tests.conftest import BotFactory
from tests.fakediscord import FakeDiscord
from tests.fakediscord.limits import CONTENT_MAX as FAKE_CONTENT_MAX

OURS = 1900  # the margin, stated here so a change of it is a change of this test


def test_our_limit_keeps_a_margin_under_the_one_the_fake_enforces() -> None:
    assert DISCORD_CONTENT_MAX == FAKE_CONTENT_MAX == 2000
    assert CONTENT_MAX == LIMIT == OURS


def test_splitting_and_fitting_stay_within_the_margin() -> None:
    text = "\n".join(f"line {n:03d} " + "y" * 97 for n in range(80))
    giant = " ".join(f"word{n}" for n in range(900))
    parts = chunks(text + "\n" + giant)
    assert len(parts) > 4 and all(len(p) <= OURS for p in parts)
    assert max(len(p) for p in parts) > OURS - 120  # filled close to it, not far under
    assert all(len(p) <= OURS for p in split_line("z" * 5000))
    rest, shown = fit([f"{n}:" + "q" * 300 for n in range(20)], "\n**<@1>**, your move.")
    assert len("\n".join(shown)) + len("\n**<@1>**, your move.") <= OURS and rest


def test_a_long_log_is_trimmed_to_the_margin() -> None:
    entries = [LoggedEvent(seq=n, version=n, ts=1.7e9 + n, actor_id=42, audience="public",
                           text="a long event " * 40) for n in range(40)]
    text = log_text(entries)
    assert OURS - 400 < len(text) <= OURS


async def test_every_message_a_long_turn_sends_keeps_the_margin(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    channel = fd.add_channel("live")
    bot = await start_hauntkeeper()
    table = await bot.store.create(Table(channel_id=channel, guild_id=fd.guild_id,
                                         kind="cthulhu", host_id=1, seed=1, status=ACTIVE),
                                   [], None, None)
    lines = [f"line {n:03d} " + "y" * 90 for n in range(70)]
    prompt = Prompt(0, 42, "Ann", [Option("Reveal", Action("reveal"))], 1)
    await bot.outlet.publish(table, Post(lines=lines, image=None, prompt=prompt, key="7.1",
                                         chapter="c1", turn="t1"))
    sent = [m.text for m in fd.channel_messages(channel) if m.author_id == fd.bot_user.id]
    assert len(sent) >= 4 and all(len(c) <= OURS for c in sent)
    assert max(len(c) for c in sent) > OURS - 120
    got = [line for content in sent for line in content.split("\n")]
    assert [line for line in got if line.startswith("line ")] == lines  # nothing lost
