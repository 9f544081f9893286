"""A scene told on one message (Game.scene), through the real outlet and discord.py
against the fake Discord: posts of one scene edit one message, the post that ends it
is its last edit, and a scene that cannot go on in place starts a new message."""

from __future__ import annotations

import io

from PIL import Image

from bot.core.actions import Action, Option
from bot.sessions import Post, Prompt
from bot.store import ACTIVE, Table
from cogs.outlet import LIMIT
from tests.conftest import BotFactory
from tests.e2e_helpers import PNG_SIGNATURE
from tests.fakediscord import FakeDiscord, FakeMessage


def tiny_png(colour: tuple[int, int, int]) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (4, 4), colour).save(out, format="PNG")
    return out.getvalue()


def _table(channel: int, guild: int) -> Table:
    return Table(channel_id=channel, guild_id=guild, kind="cthulhu", host_id=1, seed=1,
                 status=ACTIVE, id=7)


def _post(line: str, scene: str | None, version: int = 1, image: bytes | None = None) -> Post:
    prompt = Prompt(0, 42, "Ann", [Option("Reveal", Action("reveal"))], version)
    return Post(lines=[line], image=image, prompt=prompt, scene=scene, key=f"7.{version}")


def _posts(fd: FakeDiscord, channel: int) -> list[FakeMessage]:
    return [m for m in fd.channel_messages(channel) if m.author_id == fd.bot_user.id]


async def test_one_scene_is_one_message_edited_until_it_ends(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    channel = fd.add_channel("scenes")
    bot = await start_hauntkeeper()
    table = _table(channel, fd.guild_id)
    first, second = tiny_png((10, 20, 30)), tiny_png((200, 10, 10))
    await bot.outlet.publish(table, _post("Before the fight.", None, 1))
    await bot.outlet.publish(table, _post("The fight begins.", "fight.1", 2, first))
    await bot.outlet.publish(table, _post("Revealed: a boat.", "fight.1", 3, second))
    before, fight = _posts(fd, channel)
    assert before.components == []  # a newer post holds the controls
    assert fight.content.startswith("The fight begins.\nRevealed: a boat.")
    assert [name for name, _ in fight.attachments] == ["board.png"]
    assert fight.attachments[0][1] == second and second.startswith(PNG_SIGNATURE)
    assert ":3:reveal" in " ".join(fight.custom_ids())  # the controls of the newest step
    # The post that ends the scene is its last edit; the next one is a message anew.
    await bot.outlet.publish(table, _post("The fight is over.", None, 4))
    await bot.outlet.publish(table, _post("Next turn.", None, 5))
    assert len(_posts(fd, channel)) == 3
    fight = fd.message(fight.id)
    assert "Revealed: a boat.\nThe fight is over." in fight.content
    assert fight.components == [] and len(fight.history) == 3


async def test_a_scene_goes_on_in_a_new_message_when_it_cannot_in_place(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    channel = fd.add_channel("scenes")
    bot = await start_hauntkeeper()
    table = _table(channel, fd.guild_id)
    await bot.outlet.publish(table, _post("Fight one.", "fight.1", 1))
    await bot.outlet.publish(table, _post("Fight two.", "fight.2", 2))  # another scene
    assert len(_posts(fd, channel)) == 2
    # Too long to keep whole on one message: a new one carries the scene on.
    await bot.outlet.publish(table, _post("x" * (LIMIT - 100), "fight.2", 3))
    assert len(_posts(fd, channel)) == 3
    # The scene's message was deleted: the next step is posted anew, not lost.
    fd.message(_posts(fd, channel)[-1].id).deleted = True
    await bot.outlet.publish(table, _post("Revealed: a rock.", "fight.2", 4))
    assert _posts(fd, channel)[-1].content.startswith("Revealed: a rock.")
    # After a restart the outlet remembers no scene: the next step is a new message.
    bot = await start_hauntkeeper()
    count = len(_posts(fd, channel))
    await bot.outlet.publish(table, _post("Revealed: a hat.", "fight.2", 5))
    assert len(_posts(fd, channel)) == count + 1
