"""A finished game's replay as players ask for it (issue 24), through the real discord.py
and the fake Discord: `/game replay` and the end's Replay button answer at once with a
public progress line, edited as the replay is drawn, then carrying an animated image
that Discord takes (under a bot's 10 MiB, its type read from its name) and shows inline;
what cannot be replayed is answered privately, and nothing is posted."""

from __future__ import annotations

import io

from PIL import Image

from bot import games
from bot import table as T
from bot.core.actions import Action
from bot.core.seats import Seat
from bot.sessions import Sessions
from bot.store import ACTIVE, OVER, Store, Table
from bot.texts import say
from renderers.animation import SIZE
from tests.conftest import BotFactory
from tests.e2e_helpers import latest_turn, unlinked
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser
from tests.fakediscord.limits import UPLOAD_MAX
from tests.golden_states import play_step
from tests.test_sessions import RecordingOutlet

REPLAY = "hkr:"
DRAWN = 60.0  # seconds a replay may take on a busy machine (it takes a few)


async def _ended(fd: FakeDiscord, channel: int, host: FakeUser, guest: FakeUser) -> None:
    """A Cthulhu game of two, started and ended by its host: finished, with a state."""
    await (await fd.slash(host, channel, "game", "new", game="cthulhu", seed=5)).wait()
    await (await fd.slash(guest, channel, "game", "join")).wait()
    await (await fd.slash(host, channel, "game", "start")).wait()
    await (await fd.slash(host, channel, "game", "end")).wait()


async def _posted(fd: FakeDiscord, message: FakeMessage) -> FakeMessage:
    """The progress line once it carries the replay."""
    await fd.wait_until(lambda: fd.message(message.id).attachments, timeout=DRAWN,
                        what="the replay's image")
    await fd.settle()
    return fd.message(message.id)


def _check_image(message: FakeMessage, game_id: int) -> Image.Image:
    [(name, data)] = message.attachments
    assert name in (f"replay-{game_id}.webp", f"replay-{game_id}.gif")
    assert 0 < len(data) <= UPLOAD_MAX
    image = Image.open(io.BytesIO(data))
    assert image.size == SIZE and getattr(image, "n_frames", 1) > 1  # animated, inline size
    assert message.descriptions[0]  # alt text for a screen reader
    return image


async def test_the_command_and_the_end_button_post_the_replay_with_progress(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    bot = await start_hauntkeeper()
    channel = fd.add_channel("table")
    host, guest, watcher = fd.add_user("host"), fd.add_user("guest"), fd.add_user("watcher")
    await _ended(fd, channel, host, guest)
    ended = await bot.store.load_latest(channel)
    assert ended is not None and ended.status == OVER and ended.id is not None
    end = latest_turn(fd, channel)
    button = next(c for c in end.custom_ids() if c.startswith(REPLAY))
    assert button == f"hkr:1:{ended.id}"

    asked = await (await fd.slash(watcher, channel, "game", "replay")).wait(settle=False)
    assert asked.response is not None and not asked.response.ephemeral  # public, at once
    first = asked.response.history[0]["content"] if asked.response.history \
        else asked.response.content
    assert first == say("replay.drawing", game=ended.id, percent=0)
    shown = await _posted(fd, asked.response)
    _check_image(shown, ended.id)
    lead = say("replay.posted", game=ended.id, title=games.get("cthulhu").title,
               pictures=2, seconds=2).split(": ")[0]
    assert unlinked(shown.content).startswith(lead)

    clicked = await (await fd.click(guest, end, button)).wait(settle=False)
    assert clicked.response is not None and not clicked.response.ephemeral
    again = await _posted(fd, clicked.response)
    assert _check_image(again, ended.id) is not None
    assert again.attachments[0][1] == shown.attachments[0][1]  # the same game, the same bytes
    assert fd.unhandled == [] and fd.violations == []


async def test_what_cannot_be_replayed_is_refused_privately_and_nothing_is_posted(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    other_guild = fd.add_guild("elsewhere")
    bot = await start_hauntkeeper()
    channel, empty = fd.add_channel("table"), fd.add_channel("quiet")
    host, guest = fd.add_user("host"), fd.add_user("guest")
    far = await bot.store.create(Table(channel_id=channel + 999, guild_id=other_guild,
                                       kind="cthulhu", host_id=1, seed=1,
                                       seats=[Seat("Far", 1)]), [], 1, None)
    far.status, far.state = OVER, {}
    await bot.store.save(far, [], expected_version=far.version, actor_id=None, action=None)

    await (await fd.slash(host, channel, "game", "new", game="cthulhu", seed=5)).wait()
    await (await fd.slash(guest, channel, "game", "join")).wait()
    await (await fd.slash(host, channel, "game", "start")).wait()
    running = await bot.store.load(channel)
    assert running is not None
    posts = len(fd.channel_messages(channel))

    cases = [
        (channel, {"game": "the big one"}, say("replay.bad_id")),
        (channel, {"game": str(far.id)}, say("replay.not_here", game=far.id)),
        (channel, {"game": "123456789"}, say("replay.not_here", game=123456789)),
        (channel, {"game": f"#{running.id}"}, say("replay.not_over")),
        (empty, {}, say("replay.no_game")),
    ]
    for where, options, refusal in cases:
        answered = await (await fd.slash(guest, where, "game", "replay", **options)).wait()
        assert [unlinked(t) for t in answered.ephemeral_texts()] == [refusal], options
    end = latest_turn(fd, channel)
    for forged, refusal in ((f"hkr:1:{far.id}", say("replay.not_here", game=far.id)),
                            ("hkr:1:x", say("errors.unreadable")),
                            (f"hkr:1:{running.id}", say("replay.not_over"))):
        answered = await (await fd.forge(guest, end, forged)).wait()
        assert [unlinked(t) for t in answered.ephemeral_texts()] == [refusal], forged
    assert len(fd.channel_messages(channel)) == posts and fd.channel_messages(empty) == []

    await (await fd.slash(host, channel, "game", "end")).wait()  # finished: replayable here
    fd.set_bot_permissions(channel, deny=["attach_files"])  # ...but no image may be posted
    answered = await (await fd.slash(guest, channel, "game", "replay")).wait()
    assert answered.ephemeral_texts() == [say(
        "permissions.cannot_play", missing=say("permissions.names.attach_files"),
        channel=f"<#{channel}>", bot=fd.bot_user.mention) + " " + say(
        "permissions.why.attach_files")]
    assert not [name for m in fd.channel_messages(channel) for name, _ in m.attachments
                if name.startswith("replay-")]


async def _long_game(store: Store, channel: int, guild: int, host: FakeUser) -> Table:
    """A Betrayal game of four played to its end straight through the sessions layer on
    the bot's store (its posts are not this test's): a replay of 90 pictures."""
    sessions = Sessions(store, RecordingOutlet(), render=False, ai_chain=False)
    actor = T.Actor(host.id, host.name)
    await sessions.open(channel, guild, actor, "betrayal", 1)
    for _ in range(3):
        await sessions.act(channel, actor, Action(T.ADD_AI))
    table = (await sessions.act(channel, actor, Action(T.START))).table
    while table.status == ACTIVE:
        table = await play_step(sessions, table)
    return table


async def test_the_progress_line_is_edited_while_a_long_game_is_drawn(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    bot = await start_hauntkeeper()
    played, asking = fd.add_channel("played"), fd.add_channel("asking")
    host, watcher = fd.add_user("host"), fd.add_user("watcher")
    table = await _long_game(bot.store, played, fd.guild_id, host)
    asked = await (await fd.slash(watcher, asking, "game", "replay",
                                  game=str(table.id))).wait(settle=False)
    assert asked.response is not None
    shown = await _posted(fd, asked.response)
    _check_image(shown, table.id or 0)
    lines = [v.get("content") for v in shown.history]
    percents = [int(line.rsplit(" ", 1)[-1].rstrip("%")) for line in lines
                if line and line.startswith(say("replay.drawing", game=table.id, percent=0)[:-2])]
    assert percents[0] == 0 and any(0 < p < 100 for p in percents), lines
    assert percents == sorted(percents)
