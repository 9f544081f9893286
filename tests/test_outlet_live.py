"""The game's live message, through the real outlet and discord.py against the fake
Discord: one message edited in place (its lines, board and controls), a new one only at a
new chapter, at the end, or when the old one is gone; a board it shows is not uploaded
again; long texts split, never cut; a ping when the turn passes to another human; and
all of it remembered by the store, so a restarted bot edits the same message."""

from __future__ import annotations

import dataclasses
import io
from typing import Any

import discord
from PIL import Image

from bot.core.actions import Action, Option
from bot.live_message import LIMIT
from bot.sessions import Post, Prompt
from bot.store import ACTIVE, OVER, Table
from bot.texts import say
from tests.conftest import BotFactory
from tests.e2e_helpers import PNG_SIGNATURE
from tests.fakediscord import FakeDiscord, FakeMessage

ANN, BO = 42, 43


def tiny_png(colour: tuple[int, int, int]) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (4, 4), colour).save(out, format="PNG")
    return out.getvalue()


async def _table(fd: FakeDiscord, start: BotFactory) -> tuple[Table, FakeDiscord]:
    channel = fd.add_channel("live")
    bot = await start()
    table = Table(channel_id=channel, guild_id=fd.guild_id, kind="cthulhu", host_id=1,
                  seed=1, status=ACTIVE)
    return await bot.store.create(table, [], None, None), fd


def _post(lines: list[str], version: int, *, user: int | None = ANN, turn: str = "t1",
          chapter: str | None = "c1", image: bytes | None = None) -> Post:
    prompt = Prompt(0, user, "Ann" if user == ANN else "Bo",
                    [Option("Reveal", Action("reveal"))], version)
    return Post(lines=lines, image=image, prompt=prompt, key=f"7.{version}", chapter=chapter,
                turn=turn, alt=f"board {version}" if image is not None else "")


async def _publish(bot: Any, table: Table, post: Post) -> None:
    """The post, and its live message stored as the courier stores it, with the
    delivery's mark (bot/courier.py)."""
    shown = await bot.outlet.publish(table, post)
    if shown is not None and table.id is not None:
        await bot.store.mark_delivered(table.id, 0, shown)


def _bot_messages(fd: FakeDiscord, channel: int) -> list[FakeMessage]:
    return [m for m in fd.channel_messages(channel) if m.author_id == fd.bot_user.id]


def _lives(fd: FakeDiscord, channel: int) -> list[FakeMessage]:
    """The live messages, old and new (not the pings, not the lines sent before one)."""
    return [m for m in _bot_messages(fd, channel) if (m.nonce or "").endswith(".p")]


async def test_one_message_is_edited_and_the_board_sent_only_when_it_changed(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    table, _ = await _table(fd, start_hauntkeeper)
    bot = await start_hauntkeeper()
    first, second = tiny_png((10, 20, 30)), tiny_png((200, 10, 10))
    await _publish(bot, table, _post(["Ann moves."], 1, image=first))
    (live,) = _lives(fd, table.channel_id)
    board_ids = list(live.attachment_ids)
    await _publish(bot, table, _post(["Ann looks around."], 2, image=first))
    live = fd.message(live.id)
    assert live.attachment_ids == board_ids  # the same board: not uploaded again
    assert live.text.startswith("Ann moves.\nAnn looks around.")  # one turn's lines
    assert ":2:reveal" in " ".join(live.custom_ids())  # the newest controls
    assert live.gallery() == [(first, "board 2")]  # the kept upload, its words anew
    await _publish(bot, table, _post(["Ann opens a door."], 3, image=second))
    live = fd.message(live.id)
    assert [name for name, _ in live.attachments] == ["board.png"]
    assert live.attachments[0][1] == second and second.startswith(PNG_SIGNATURE)
    assert live.gallery() == [(second, "board 3")]
    board_ids = list(live.attachment_ids)
    await _publish(bot, table, _post(["The turn passes."], 4, turn="t2", image=second))
    live = fd.message(live.id)
    assert live.attachment_ids == board_ids
    assert live.gallery() == [(second, "board 4")]  # the same board: not sent, still shown
    assert live.text.startswith("The turn passes.\n")  # a new turn's lines only
    assert "Ann moves." not in live.text
    assert [m.id for m in _lives(fd, table.channel_id)] == [live.id]
    assert len(live.history) == 3


async def test_a_new_chapter_and_the_end_are_new_messages(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    table, _ = await _table(fd, start_hauntkeeper)
    bot = await start_hauntkeeper()
    await _publish(bot, table, _post(["Round one."], 1))
    await _publish(bot, table, _post(["Round two begins."], 2, chapter="c2"))
    old, new = _lives(fd, table.channel_id)
    # What led to the new chapter ends the old message, its record; the new one starts
    # with the board, whose turn it is and the controls.
    assert old.custom_ids() == [] and old.text == "Round one.\nRound two begins."
    assert new.text == "**<@42>**, it's your move." and new.custom_ids()
    over = dataclasses.replace(table, status=OVER)
    end = Post(lines=["Ann wins."], key="7.3", chapter="c2", turn=None)
    await _publish(bot, over, end)
    messages = _bot_messages(fd, table.channel_id)
    assert messages[-1].text.startswith("Ann wins.") and "game is over" in \
        messages[-1].text
    assert fd.message(new.id).custom_ids() == []
    assert not any("your turn:" in m.text for m in messages)  # the ping went too


async def test_a_restart_keeps_editing_and_a_deleted_message_is_posted_anew(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    table, _ = await _table(fd, start_hauntkeeper)
    bot = await start_hauntkeeper()
    shown = await bot.outlet.publish(table, _post(["One."], 1))
    (live,) = _lives(fd, table.channel_id)
    # The courier stores the live message the post left with the delivery's mark
    # (bot/courier.py); published alone, nothing is stored until then.
    assert shown is not None and shown.message_id == live.id and table.id is not None
    assert await bot.store.get_live(table.id) is None
    await bot.store.mark_delivered(table.id, 0, shown)
    bot = await start_hauntkeeper()  # a new process: only the store remembers
    await _publish(bot, table, _post(["Two."], 2))
    assert [m.id for m in _lives(fd, table.channel_id)] == [live.id]
    assert fd.message(live.id).text.startswith("One.\nTwo.")
    fd.message(live.id).deleted = True  # someone deleted it
    await _publish(bot, table, _post(["Three."], 3))
    (again,) = _lives(fd, table.channel_id)
    assert again.id != live.id and again.text.startswith("One.\nTwo.\nThree.")


async def test_a_delivery_sent_again_shows_once(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    table, _ = await _table(fd, start_hauntkeeper)
    bot = await start_hauntkeeper()
    await _publish(bot, table, _post(["One."], 1))
    await _publish(bot, table, _post(["Two."], 2))
    count = len(_bot_messages(fd, table.channel_id))
    await _publish(bot, table, _post(["Two."], 2))  # after a crash, the same key
    (live,) = _lives(fd, table.channel_id)
    assert live.text.startswith("One.\nTwo.\n") and live.text.count("Two.") == 1
    assert len(_bot_messages(fd, table.channel_id)) == count
    long = [f"long line {n:02d} " + "v" * 90 for n in range(40)]  # past one message
    await _publish(bot, table, _post(long, 3, turn="t2"))
    texts = [m.text for m in _bot_messages(fd, table.channel_id)]
    await _publish(bot, table, _post(long, 3, turn="t2"))  # sent again
    assert [m.text for m in _bot_messages(fd, table.channel_id)] == texts


async def test_long_text_is_split_at_lines_and_nothing_is_lost(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    table, _ = await _table(fd, start_hauntkeeper)
    bot = await start_hauntkeeper()
    lines = [f"line {n:03d} " + "y" * 80 for n in range(60)]  # about 5,500 characters
    giant = " ".join(f"word{n}" for n in range(600))  # one line longer than a message
    await _publish(bot, table, _post([*lines, giant, "The end."], 1))
    messages = _bot_messages(fd, table.channel_id)
    texts = [m.text for m in messages if "your turn:" not in m.text]
    assert len(texts) >= 4 and all(len(t) <= LIMIT for t in texts)
    got = [line for text in texts for line in text.split("\n")]
    assert got[:60] == lines  # whole lines, in order
    assert " ".join(got[60:-2]).split() == giant.split()  # split between words only
    assert got[-2:] == ["The end.", "**<@42>**, it's your move."]
    assert messages[-2].custom_ids()  # the live message comes last, before the ping
    # A turn that outgrows its message stays on it (a fight told card by card): the
    # oldest lines, shown already, give way to one line saying where they are.
    (live,) = _lives(fd, table.channel_id)
    await _publish(bot, table, _post(["x" * 1500], 2))
    await _publish(bot, table, _post(["z" * 1500], 3))
    assert [m.id for m in _lives(fd, table.channel_id)] == [live.id]
    trimmed = say("live.trimmed")
    assert fd.message(live.id).text == \
        f"{trimmed}\n{'z' * 1500}\n**<@42>**, it's your move."
    assert fd.message(live.id).custom_ids()
    # Lines of one delivery that cannot fit even alone go on anew, nothing cut; the
    # old message keeps its lines but not its "your move", since its controls went.
    await _publish(bot, table, _post(["q" * 1200, "r" * 1200], 4))
    lives = _lives(fd, table.channel_id)
    assert len(lives) == 2 and lives[0].custom_ids() == []
    assert lives[0].text == f"{trimmed}\n{'z' * 1500}"
    told = [m.text for m in _bot_messages(fd, table.channel_id)]
    assert "q" * 1200 in told and "r" * 1200 in told and lives[-1].custom_ids()
    # A new turn too long for one message: the old live message, whose lines would give
    # way anyway, carries its first lines; the new one keeps room to go on in place.
    count = len(_bot_messages(fd, table.channel_id))
    turn = [f"turn two, line {n:02d} " + "w" * 60 for n in range(40)]  # ~3,200 characters
    await _publish(bot, table, _post(turn, 5, turn="t2", image=tiny_png((1, 2, 3))))
    old, new = lives[-1], _lives(fd, table.channel_id)[-1]
    old = fd.message(old.id)
    assert old.text.startswith("turn two, line 00 ") and old.attachments == []
    assert old.custom_ids() == [] and new.id != old.id and new.gallery()
    shown = [m.text for m in _bot_messages(fd, table.channel_id)[count - 2:]
             if "your turn:" not in m.text]
    got = [line for text in shown for line in text.split("\n")]
    assert [line for line in got if line.startswith("turn two")] == turn
    assert len(new.text) <= LIMIT // 2 + 100


async def test_a_ping_when_the_turn_passes_to_another_human(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    table, _ = await _table(fd, start_hauntkeeper)
    bot = await start_hauntkeeper()

    def pings() -> list[FakeMessage]:
        return [m for m in _bot_messages(fd, table.channel_id) if "your turn:" in m.text]

    await _publish(bot, table, _post(["Ann starts."], 1))
    (first,) = pings()
    (live,) = _lives(fd, table.channel_id)
    assert first.text == say("live.your_turn", mention=f"<@{ANN}>",
                                link=f"https://discord.com/channels/{fd.guild_id}/"
                                     f"{table.channel_id}/{live.id}")
    await _publish(bot, table, _post(["Ann again."], 2))
    assert pings() == [first]  # the same player: no new ping
    await _publish(bot, table, _post(["Bo's turn."], 3, user=BO, turn="t2"))
    (second,) = pings()
    assert f"<@{BO}>" in second.text and fd.message(first.id).deleted
    assert [m.id for m in _lives(fd, table.channel_id)] == [live.id]


async def test_readers_see_the_edited_message_in_its_place(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """The fake Discord keeps an edited message where it was and serves its new content,
    attachments and components to whoever reads the channel (discord.py's fetch and
    history), as Discord does."""
    table, _ = await _table(fd, start_hauntkeeper)
    bot = await start_hauntkeeper()
    await _publish(bot, table, _post(["One."], 1, image=tiny_png((1, 1, 1))))
    (live,) = _lives(fd, table.channel_id)
    user = fd.add_user("chatty")
    await fd.post_message(user, table.channel_id, "nice move")  # a player talks after it
    await _publish(bot, table, _post(["Two."], 2, image=tiny_png((9, 9, 9))))
    channel = bot.get_channel(table.channel_id) or await bot.fetch_channel(table.channel_id)
    assert isinstance(channel, discord.TextChannel)
    fetched = await channel.fetch_message(live.id)
    assert fetched.flags.components_v2 and fetched.content == ""
    (frame,) = fetched.components
    assert isinstance(frame, discord.Container)
    texts = [c for c in frame.children if isinstance(c, discord.TextDisplay)]
    assert texts[0].content.startswith("One.\nTwo.") and fetched.edited_at is not None
    assert [a.filename for a in fetched.attachments] == ["board.png"]
    assert await fetched.attachments[0].read() == tiny_png((9, 9, 9))
    (gallery,) = [c for c in frame.children if isinstance(c, discord.MediaGalleryComponent)]
    assert gallery.items[0].media.attachment_id == fetched.attachments[0].id
    assert any(":2:reveal" in (c.custom_id or "") for row in frame.children
               if isinstance(row, discord.ActionRow) for c in row.children)
    order = [m.id async for m in channel.history(limit=10, oldest_first=True)]
    assert order.index(live.id) < order.index(fd.channel_messages(table.channel_id)[-1].id)


async def test_a_reminder_links_to_where_the_turns_controls_are(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """The live message holds the turn's buttons, so a timer's reminder links to it; on
    a turn played from DMs the buttons are in the player's DM prompt, so it links there."""
    table, _ = await _table(fd, start_hauntkeeper)
    bot = await start_hauntkeeper()
    ann = fd.add_user("ann")
    options = [Option("Reveal", Action("reveal"))]
    await _publish(bot, table, Post(lines=["Ann's turn."], key="7.1", chapter="c1",
                                         turn="t1", prompt=Prompt(0, ann.id, "Ann", options, 1)))
    (live,) = _lives(fd, table.channel_id)
    await bot.outlet.remind(table, ann.id, "Ann, hurry.")
    here = _bot_messages(fd, table.channel_id)[-1]
    assert here.text == "Ann, hurry.\n" + say(
        "timers.jump", link=f"https://discord.com/channels/{fd.guild_id}/{table.channel_id}/"
                            f"{live.id}")

    secret = Prompt(0, ann.id, "Ann", options, 2, private=True)
    await _publish(bot, table, Post(lines=["Ann plays in secret."], key="7.2",
                                         chapter="c1", turn="t2", prompt=secret))
    (dm,) = [m for m in fd.dms(ann) if m.custom_ids()]
    await bot.outlet.remind(table, ann.id, "Ann, hurry.")
    there = _bot_messages(fd, table.channel_id)[-1]
    assert there.text.endswith(f"https://discord.com/channels/@me/{dm.channel_id}/{dm.id}")
    await bot.outlet.remind(table, BO, "Bo, hurry.")  # not the DM prompt's player
    assert _bot_messages(fd, table.channel_id)[-1].text.endswith(f"/{live.id}")


async def test_lines_shown_already_are_not_shown_again_under_another_key(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """The live message remembers the last event whose line it showed (`through`), in
    the store: a later delivery that carries those events again (owed, under a newer
    key, which Discord's nonce check cannot match) shows only what is new, in place or
    in a new chapter's message, and after a restart too."""
    table, _ = await _table(fd, start_hauntkeeper)
    bot = await start_hauntkeeper()
    one = dataclasses.replace(_post(["Ann moves.", "Ann rolls a 3."], 1), seqs=[4, 5])
    await _publish(bot, table, one)
    bot = await start_hauntkeeper()  # a new process: only the store remembers
    again = dataclasses.replace(_post(["Ann moves.", "Ann rolls a 3.", "Ann ends."], 2),
                                seqs=[4, 5, 6])
    await _publish(bot, table, again)
    (live,) = _lives(fd, table.channel_id)
    shown = live.text.splitlines()
    assert shown[:3] == ["Ann moves.", "Ann rolls a 3.", "Ann ends."]
    assert all(shown.count(line) == 1 for line in shown)
    chapter = dataclasses.replace(_post(["Ann ends.", "A new rumble."], 3, chapter="c2"),
                                  seqs=[6, 7])
    await _publish(bot, table, chapter)
    texts = [line for m in _bot_messages(fd, table.channel_id)
             for line in m.text.splitlines()]
    assert texts.count("Ann ends.") == 1 and texts.count("A new rumble.") == 1
