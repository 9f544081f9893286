"""The live message's "Whole house" button and `/game map`, through the real discord.py:
the channel shows the fixed chat board, the button and the command answer privately with
the whole house at full size, and a forged button id is refused with the game untouched."""

from __future__ import annotations

import io

from PIL import Image

from renderers.betrayal import BOARD_H, BOARD_W
from tests.conftest import BotFactory
from tests.e2e_helpers import PNG_SIGNATURE, latest_turn, open_and_start
from tests.fakediscord import FakeDiscord


def _size(png: bytes) -> tuple[int, int]:
    assert png.startswith(PNG_SIGNATURE)
    return Image.open(io.BytesIO(png)).size


async def test_whole_house_answers_privately_at_full_size(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    channel = fd.add_channel("house")
    users = [fd.add_user(n) for n in ("ann", "ben", "cat")]
    onlooker = fd.add_user("dee")
    bot = await start_hauntkeeper()
    await open_and_start(fd, channel, users, "betrayal", seed=3)
    live = latest_turn(fd, channel)
    assert _size(live.attachments[0][1]) == (BOARD_W, BOARD_H)
    whole = [c for c in live.custom_ids() if c.startswith("hkh:1:")]
    assert whole == [f"hkh:1:{channel}"]
    before = await bot.store.load(channel)
    assert before is not None

    handle = await (await fd.click(onlooker, live, whole[0])).wait()
    private = handle.messages[-1]
    assert private.ephemeral and private.attachments
    width, height = _size(private.attachments[0][1])
    assert width == 1200 and (width, height) != (BOARD_W, BOARD_H)
    assert private.descriptions[0], "the whole house carries alt text too"

    mapped = await (await fd.slash(users[1], channel, "game", "map")).wait()
    shown = mapped.messages[-1]
    assert shown.ephemeral and _size(shown.attachments[0][1])[0] == 1200

    for forged in ("hkh:2:1", "hkh:1:x", f"hkh:1:{channel}:9"):
        refused = await (await fd.forge(users[0], live, forged)).wait()
        assert refused.ephemeral_texts(), forged
        assert not any(m.attachments for m in refused.messages), forged
    after = await bot.store.load(channel)
    assert after is not None and after.version == before.version
    assert latest_turn(fd, channel).id == live.id
