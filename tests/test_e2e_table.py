"""Table and moderator commands through the real discord.py: one game per channel, rules,
status, map, log, refusals of bad input, and /gm end|kick|skip with permissions checked
in code (not only hinted to Discord)."""

from __future__ import annotations

import logging
import re

import pytest

from bot.store import OVER
from bot.texts import say
from tests.conftest import BotFactory
from tests.e2e_helpers import (
    PNG_SIGNATURE,
    game_components,
    latest_turn,
    press_old,
    to_move,
    turn_posts,
    use_first,
)
from tests.fakediscord import FakeDiscord, FakeUser


async def _started(fd: FakeDiscord, start: BotFactory) -> tuple[int, FakeUser, FakeUser]:
    channel = fd.add_channel("table")
    host, guest = fd.add_user("host"), fd.add_user("guest")
    await start()
    await (await fd.slash(host, channel, "game", "new", game="cthulhu", seed=21)).wait()
    await (await fd.slash(guest, channel, "game", "join")).wait()
    await (await fd.slash(host, channel, "game", "start")).wait()
    return channel, host, guest


async def test_one_game_per_channel_and_the_lobby_buttons(fd: FakeDiscord,
                                                          start_hauntkeeper: BotFactory) -> None:
    channel = fd.add_channel("lobby")
    host, other = fd.add_user("host"), fd.add_user("other")
    bot = await start_hauntkeeper()
    lobby = (await (await fd.slash(host, channel, "game", "new", game="cthulhu")).wait()).response
    assert lobby is not None
    again = await (await fd.slash(other, channel, "game", "new", game="cthulhu")).wait()
    [refusal] = again.ephemeral_texts()
    assert "already in the lobby" in refusal and f"<#{channel}>" in refusal

    ids = {c.rsplit(":", 1)[1]: c for c in lobby.custom_ids()}
    for _ in range(5):  # add AI seats up to the table's six
        await (await fd.click(host, lobby, ids["lobby.ai"])).wait()
    full = await (await fd.click(other, lobby, ids["lobby.join"])).wait()
    assert full.ephemeral_texts() == ["The table is full (6 seats)."]
    roster = fd.message(lobby.id)
    assert roster.embeds and "(AI)" in roster.text and "6/6" in roster.text

    await (await fd.click(host, lobby, ids["lobby.leave"])).wait()  # last human leaves
    table = await bot.store.load_latest(channel)
    assert table is not None and table.status == OVER
    fresh = await (await fd.slash(other, channel, "game", "new", game="cthulhu")).wait()
    assert fresh.response is not None and not fresh.response.ephemeral


async def test_rules_status_map_and_log(fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    channel, host, _guest = await _started(fd, start_hauntkeeper)
    topics = await fd.autocomplete(host, channel, "game", "rules", focused="topic", topic="sco")
    assert [t["value"] for t in topics] == ["scoring"]
    rules = await (await fd.slash(host, channel, "game", "rules", topic="scoring")).wait()
    assert "10" in rules.ephemeral_texts()[0]
    bad = await (await fd.slash(host, channel, "game", "rules", topic="x" * 90)).wait()
    assert bad.ephemeral_texts()[0].startswith("No rules topic called")

    status = await (await fd.slash(host, channel, "game", "status")).wait()
    assert status.response is not None and status.response.ephemeral
    assert "Rumble 1" in status.response.text
    shown = await (await fd.slash(host, channel, "game", "map")).wait()
    image = shown.messages[-1]
    assert image.ephemeral and image.attachments[0][1].startswith(PNG_SIGNATURE)
    log = await (await fd.slash(host, channel, "game", "log")).wait()
    assert "begins with host and guest" in log.ephemeral_texts()[0]


async def test_bad_input_is_refused_and_the_game_is_untouched(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    channel, host, guest = await _started(fd, start_hauntkeeper)
    bot = await start_hauntkeeper()
    before = await bot.store.load(channel)
    assert before is not None
    waiting = to_move(latest_turn(fd, channel))
    idle = guest if waiting == host.id else host
    mover = host if waiting == host.id else guest

    cases = [
        (mover, dict(character="zzz", room="qqq"), "I don't know a character called 'zzz'."),
        (mover, dict(character="99", room="0"), "I don't know a character called '99'."),
        (idle, dict(character="0", room="1"), "not your turn"),
    ]
    for user, options, expected in cases:
        handle = await (await fd.slash(user, channel, "cthulhu", "move", **options)).wait()
        assert any(expected in t for t in handle.ephemeral_texts()), handle.ephemeral_texts()
    after = await bot.store.load(channel)
    assert after == before


async def test_moderators_end_kick_and_skip(fd: FakeDiscord,
                                            start_hauntkeeper: BotFactory) -> None:
    channel, host, guest = await _started(fd, start_hauntkeeper)
    mod = fd.add_user("mod", manage_channels=True)
    bot = await start_hauntkeeper()

    fd.enforce_command_permissions = False  # as if a server opened /gm to everyone
    sneaky = await (await fd.slash(guest, channel, "gm", "skip")).wait()
    assert sneaky.ephemeral_texts() == [say("errors.mod_only")]
    fd.enforce_command_permissions = True

    posts = turn_posts(fd, channel)
    skipped = await (await fd.slash(mod, channel, "gm", "skip")).wait()
    assert "skipped" in skipped.ephemeral_texts()[-1]
    assert turn_posts(fd, channel) == posts + 1

    kicked = await (await fd.slash(mod, channel, "gm", "kick", player=guest)).wait()
    assert "played by the AI" in kicked.ephemeral_texts()[-1]
    table = await bot.store.load(channel)
    assert table is not None and table.seat_of(guest.id) is None  # no human seat left
    assert [s.ai for s in table.seats if s.user_id == guest.id] == [True]  # the AI holds it
    # The kicked guest's old buttons no longer act for them.
    message = latest_turn(fd, channel)
    assert to_move(message) == host.id  # the AI played the guest's turns
    refused = await use_first(fd, guest, message)
    assert refused.ephemeral_texts() == ["You're not playing in this game."]
    live_control = game_components(message)[0]

    ended = await (await fd.slash(mod, channel, "gm", "end")).wait()
    assert "mod ended the game" in ended.ephemeral_texts()[-1]
    assert "ended the game" in fd.channel_messages(channel)[-1].text
    late = await (await fd.slash(host, channel, "cthulhu", "move", character="0",
                                 room="1")).wait()
    assert late.ephemeral_texts() == ["There's no Cthulhu in the House game running here."]
    assert game_components(fd.message(message.id)) == []  # the end cleared the last buttons
    stale = await press_old(fd, host, message, live_control)  # a client not redrawn yet
    assert stale.ephemeral_texts() == ["This game is over."]


async def test_the_house_layout_is_chosen_at_new(fd: FakeDiscord,
                                                 start_hauntkeeper: BotFactory) -> None:
    channel = fd.add_channel("houses")
    host = fd.add_user("host")
    bot = await start_hauntkeeper()
    offered = await fd.autocomplete(host, channel, "game", "new", focused="layout",
                                    game="cthulhu", layout="")
    assert {c["value"] for c in offered} == {"manor", "crooked", "cloister", "warren", "random"}
    garbage = await (await fd.slash(host, channel, "game", "new", game="cthulhu",
                                    layout="castle")).wait()
    assert garbage.ephemeral_texts()[0].startswith("Unknown layout 'castle'")
    assert await bot.store.load(channel) is None  # nothing was opened
    await (await fd.slash(host, channel, "game", "new", game="cthulhu",
                          layout="warren")).wait()
    table = await bot.store.load(channel)
    assert table is not None and table.options["layout"] == "warren"
    assert re.fullmatch(r"\d\d-\d\d", table.options["today"])  # for birthday order


async def test_the_host_turns_fresh_haunts_off_at_new(fd: FakeDiscord,
                                                      start_hauntkeeper: BotFactory) -> None:
    """Seed 003's Selecting the Haunt is on unless the host turns it off in the lobby."""
    channel = fd.add_channel("fresh")
    host = fd.add_user("host")
    bot = await start_hauntkeeper()
    offered = await fd.autocomplete(host, channel, "game", "new", focused="fresh",
                                    game="betrayal", fresh="")
    assert [c["value"] for c in offered] == ["on", "off"]
    refused = await (await fd.slash(host, channel, "game", "new", game="cthulhu",
                                    fresh="off")).wait()
    assert "no `fresh` option" in refused.ephemeral_texts()[0]
    await (await fd.slash(host, channel, "game", "new", game="betrayal", fresh="off")).wait()
    table = await bot.store.load(channel)
    assert table is not None and table.options["fresh"] == "off"


async def test_every_interaction_logs_one_line(fd: FakeDiscord, start_hauntkeeper: BotFactory,
                                               caplog: pytest.LogCaptureFixture) -> None:
    channel = fd.add_channel("logged")
    host = fd.add_user("host")
    await start_hauntkeeper()
    with caplog.at_level(logging.INFO, logger="hauntkeeper.interactions"):
        await (await fd.slash(host, channel, "game", "new", game="cthulhu")).wait()
        await (await fd.slash(host, channel, "game", "start")).wait()  # refused: too few
    lines = [r.getMessage() for r in caplog.records if r.name == "hauntkeeper.interactions"]
    assert len(lines) == 2
    pattern = (rf"guild=\d+ channel={channel} user={host.id} command=(.+?) "
               r"outcome=(.+) ms=\d+\.\d")
    first, second = (re.fullmatch(pattern, line) for line in lines)
    assert first and first.groups() == ("game new", "ok")
    assert second and second.group(1) == "game start"
    assert second.group(2).startswith("refused: Cthulhu in the House needs at least")
