"""`/game log`: every public line, by turn, in pages; Older / Newer through the real
discord.py against the fake Discord, and a page out of range refused in words."""

from __future__ import annotations

import random
import re

from bot.discord_limits import CONTENT_MAX
from bot.store import LoggedEvent
from cogs.game_log import pages, turns
from tests.conftest import BotFactory
from tests.e2e_helpers import latest_turn, play_by_click, to_move
from tests.fakediscord import FakeDiscord, FakeMessage

PAGE_OF = re.compile(r"page (\d+) of (\d+)")


def _entry(seq: int, text: str, kind: str = "info") -> LoggedEvent:
    return LoggedEvent(seq, seq, 0.0, None, "public", text, kind)


def test_lines_are_grouped_under_their_turn_numbers() -> None:
    entries = [_entry(1, "The game begins."), _entry(2, "It's Ann's turn.", "turn"),
               _entry(3, "Ann moves."), _entry(4, "It's Bob's turn.", "turn"),
               _entry(5, "Bob fights.")]
    assert turns(entries) == [(0, ["The game begins."]),
                              (1, ["It's Ann's turn.", "Ann moves."]),
                              (2, ["It's Bob's turn.", "Bob fights."])]
    [page] = pages(entries)
    assert page.splitlines() == ["**Before the first turn**", "The game begins.",
                                 "**Turn 1**", "It's Ann's turn.", "Ann moves.",
                                 "**Turn 2**", "It's Bob's turn.", "Bob fights."]


def test_a_long_log_fills_pages_that_discord_accepts_and_loses_no_line() -> None:
    entries: list[LoggedEvent] = []
    for n in range(1, 300):
        kind = "turn" if n % 7 == 1 else "info"
        entries.append(_entry(n, f"Line {n}: " + "word " * (n % 40), kind))
    entries.append(_entry(300, "x" * 5000))  # one line longer than a message
    book = pages(entries)
    assert len(book) > 5
    assert all(len(p) <= CONTENT_MAX - 60 for p in book)
    text = "\n".join(book)
    for entry in entries[:-1]:
        assert entry.text in text
    assert text.count("x") >= 5000
    # a turn split over two pages is named again at the top of the second
    assert all(p.startswith("**") for p in book)


async def _ai_table(fd: FakeDiscord, start: BotFactory) -> tuple[int, object]:
    channel = fd.add_channel("log")
    host = fd.add_user("host")
    await start()
    lobby = (await (await fd.slash(host, channel, "game", "new", game="cthulhu",
                                   seed=5)).wait()).response
    assert lobby is not None
    ids = {c.rsplit(":", 1)[1]: c for c in lobby.custom_ids()}
    for _ in range(3):
        await (await fd.click(host, lobby, ids["lobby.ai"])).wait()
    await (await fd.slash(host, channel, "game", "start")).wait()
    rng = random.Random(5)
    for _ in range(40):
        message = latest_turn(fd, channel)
        if to_move(message) != host.id:
            break
        await play_by_click(fd, host, message, rng)
    return channel, host


def _page(message: FakeMessage) -> tuple[int, int]:
    found = PAGE_OF.search(message.content)
    assert found is not None, message.content
    return int(found.group(1)), int(found.group(2))


def _button(message: FakeMessage, label: str) -> dict[str, object]:
    return next(c for c in message.flat_components() if c.get("label") == label)


async def test_game_log_pages_through_the_whole_game(fd: FakeDiscord,
                                                     start_hauntkeeper: BotFactory) -> None:
    channel, host = await _ai_table(fd, start_hauntkeeper)
    newest = (await (await fd.slash(host, channel, "game", "log")).wait()).response
    assert newest is not None and newest.ephemeral
    page, count = _page(newest)
    assert page == count > 1 and len(newest.content) <= CONTENT_MAX
    assert "**Turn" in newest.content
    assert _button(newest, "Newer").get("disabled") and not _button(newest, "Older").get("disabled")

    older = await (await fd.click(host, newest, str(_button(newest, "Older")["custom_id"]))).wait()
    shown = fd.message(newest.id)
    assert _page(shown) == (count - 1, count) and not older.followups
    await (await fd.click(host, shown, str(_button(shown, "Newer")["custom_id"]))).wait()
    assert _page(fd.message(newest.id)) == (count, count)

    read = []  # every page by its number: together they hold every public line
    for n in range(1, count + 1):
        handle = await (await fd.slash(host, channel, "game", "log", page=n)).wait()
        assert handle.response is not None and _page(handle.response) == (n, count)
        read.append(handle.response.content)
    assert "Before the first turn" in read[0] and "begins with" in read[0]
    bot = await start_hauntkeeper()
    table = await bot.store.load_latest(channel)
    assert table is not None
    whole = "\n".join(read)
    for entry in await bot.store.log(table.id or 0, limit=100_000):
        assert entry.text in whole

    beyond = await (await fd.slash(host, channel, "game", "log", page=count + 5)).wait()
    assert beyond.ephemeral_texts() == [
        f"The log has {count} pages so far: pick one from 1 to {count}."]
