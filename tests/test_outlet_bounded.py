"""The outlet's memories of channels, members and threads stay bounded however many
channels it serves (issue 19), and what it still remembers works as before: the newest
failed DM is still told once, the newest thread members are not added twice."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import discord
import pytest

from bot.store import ACTIVE, Table
from cogs import outlet as outlet_module
from cogs.outlet import DiscordOutlet

KEPT = 50  # the outlet's bound in these tests (the bot's is outlet.KEPT)
CHANNELS = 400  # far more channels than that


@dataclass
class Refused:
    """What discord.py reads off a refused request's response."""

    status: int = 403
    reason: str = "Forbidden"


class ClosedDms:
    """A client whose every DM is refused, as for members who closed their DMs."""

    async def create_dm(self, user: Any) -> Any:
        raise discord.Forbidden(Refused(), "Cannot send messages to this user")


@dataclass
class Thread:
    id: int
    sent: list[str] = field(default_factory=list)
    added: list[int] = field(default_factory=list)

    async def send(self, text: str, **_: object) -> None:
        self.sent.append(text)

    async def add_user(self, user: Any) -> None:
        self.added.append(user.id)


class Record:
    """A store that keeps only whom the outlet put in a team thread."""

    def __init__(self) -> None:
        self.added: list[tuple[int, int, int]] = []

    async def add_thread_member(self, game_id: int, thread_id: int, user_id: int) -> None:
        self.added.append((game_id, thread_id, user_id))


def table(channel: int) -> Table:
    return Table(channel_id=channel, guild_id=1, kind="cthulhu", host_id=channel * 10,
                 seed=1, status=ACTIVE, id=channel)


@pytest.fixture
def outlet(monkeypatch: pytest.MonkeyPatch) -> DiscordOutlet:
    monkeypatch.setattr(outlet_module, "KEPT", KEPT)
    return DiscordOutlet(ClosedDms(), store=Record())  # type: ignore[arg-type]


def held(outlet: DiscordOutlet) -> dict[str, int]:
    return {name: len(getattr(outlet, name)) for name in (
        "_unsaved_live", "_undelivered", "_thread_members", "_no_thread")}


async def test_failed_dms_of_many_channels_are_remembered_up_to_the_bound(
        outlet: DiscordOutlet) -> None:
    for channel in range(1, CHANNELS + 1):
        assert not await outlet.whisper(table(channel), channel * 10 + 1, "your card")
    assert held(outlet)["_undelivered"] == KEPT
    newest = CHANNELS * 10 + 1
    assert outlet.take_undelivered(CHANNELS, newest)  # the newest is told, once
    assert not outlet.take_undelivered(CHANNELS, newest)
    assert not outlet.take_undelivered(1, 11)  # the oldest was let go


async def test_thread_members_of_many_channels_stay_bounded(
        outlet: DiscordOutlet) -> None:
    for channel in range(1, CHANNELS + 1):
        thread = Thread(channel * 1000)
        members = [channel * 10 + 1, channel * 10 + 2]
        assert await outlet._post_in_thread(table(channel), thread,
                                             members, "team line", "") == []
        assert thread.added == members
        outlet._no_thread.add((channel, "traitor"))
    sizes = held(outlet)
    assert sizes["_thread_members"] == sizes["_no_thread"] == KEPT
    newest = Thread(CHANNELS * 1000)
    await outlet._post_in_thread(table(CHANNELS), newest,
                                 [CHANNELS * 10 + 1, CHANNELS * 10 + 2], "again", "")
    assert newest.added == []  # still known: no request to add them again


async def test_games_whose_play_by_play_thread_was_refused_stay_bounded(
        outlet: DiscordOutlet) -> None:
    threads = outlet.play_by_play
    for channel in range(1, CHANNELS + 1):
        threads._refused(table(channel), discord.Forbidden(Refused(), "Missing Permissions"))
    assert len(threads.skipped) == KEPT
    assert CHANNELS in threads.skipped and 1 not in threads.skipped  # the oldest let go
