"""The live message as Discord shows it, read back through the fake Discord and clicked
through with the real discord.py: a Components v2 layout (no content), one frame in the
game's colour with the turn's text first, the board in a media gallery naming its upload
with its alt text, then the controls, "My secrets" and "Whole house" among them; a click
is answered with the edit of that same layout; and a live message an earlier release
made (content plus an attachment) becomes a layout in place at its next edit."""

from __future__ import annotations

from typing import Any

from bot.games.betrayal.rules import BetrayalGame
from tests.conftest import BotFactory
from tests.e2e_helpers import (
    PNG_SIGNATURE,
    game_components,
    latest_turn,
    open_and_start,
    to_move,
    use_first,
)
from tests.fakediscord import FakeDiscord, FakeMessage

CONTAINER, TEXT_DISPLAY, MEDIA_GALLERY, ACTION_ROW = 17, 10, 12, 1


def _frame(message: FakeMessage) -> dict[str, Any]:
    assert message.v2 and message.content == "" and not message.embeds
    (frame,) = message.components
    assert frame["type"] == CONTAINER
    return frame


async def test_the_live_message_is_one_frame_read_top_to_bottom(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    channel = fd.add_channel("house")
    users = [fd.add_user(n) for n in ("ann", "ben", "cat")]
    await start_hauntkeeper()
    await open_and_start(fd, channel, users, "betrayal", seed=4)
    live = latest_turn(fd, channel)
    frame = _frame(live)
    assert frame["accent_color"] == BetrayalGame.colour
    kinds = [c["type"] for c in frame["components"]]
    assert kinds[:2] == [TEXT_DISPLAY, MEDIA_GALLERY] and ACTION_ROW in kinds
    turn_text = frame["components"][0]["content"]
    mover = to_move(live)
    assert mover is not None and turn_text.rstrip().endswith("it's your move.")
    ((board, alt),) = live.gallery()
    assert board.startswith(PNG_SIGNATURE) and board == live.attachments[0][1]
    assert alt and alt == live.descriptions[0]  # the alt text, said where it is shown
    ids = live.custom_ids()
    assert f"hkh:1:{channel}" in ids and any("view.secret" in i for i in ids)

    # A click is answered with the edit of this very layout (one request), which keeps
    # the board shown without sending it again when it has not changed.
    player = next(u for u in users if u.id == mover)
    handle = await use_first(fd, player, live)
    after = fd.message(live.id)
    _frame(after)
    assert latest_turn(fd, channel).id == live.id
    assert handle.callback_type == 7 and not fd.violations  # UPDATE_MESSAGE
    assert after.gallery(), "an edit keeps showing a board"


async def test_a_live_message_of_an_earlier_release_becomes_a_layout_in_place(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """Before the layout, the live message was content with the board attached and
    rows of buttons; the bot upgraded under a running game edits it into a layout
    (content reset, as Discord requires to set the flag), not a new message."""
    channel = fd.add_channel("house")
    users = [fd.add_user(n) for n in ("ann", "ben", "cat")]
    await start_hauntkeeper()
    await open_and_start(fd, channel, users, "betrayal", seed=4)
    live = latest_turn(fd, channel)
    mover = next(u for u in users if u.id == to_move(live))
    row = {"type": ACTION_ROW, "components": [
        dict(c, id=n + 2) for n, c in enumerate(game_components(live)[:1])]}
    live.flags, live.content = 0, "An old turn.\nsomeone, it's your move."
    live.components = [dict(row, id=1)]
    ended = await (await fd.slash(mover, channel, "betrayal", "end-turn")).wait()
    assert ended.ephemeral_texts() == ["Done — the map is below."]
    now = fd.message(live.id)
    assert latest_turn(fd, channel).id == live.id  # edited in place, not posted anew
    _frame(now)
    assert now.gallery() and not fd.violations
