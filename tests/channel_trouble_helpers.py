"""Several channels playing at once while one of them is in trouble with Discord: the
games, the moves made side by side, and the checks that the untroubled channels' moves
were answered and delivered as if nothing were wrong (tests/test_e2e_channel_trouble_*.py).

The promise held to (README): "Many channels play at once: nothing one channel does may
fail or slow another", and "it says why when it cannot play".
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from bot.client import HauntBot
from bot.texts import say
from tests.conftest import BotFactory
from tests.e2e_helpers import game_components, latest_turn, open_and_start, to_move
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser, InteractionHandle
from tests.fakediscord.faults import Fault

# A move in a channel Discord serves normally, answered and shown, well under the 2 s a
# troubled channel is made to wait in these tests (a loaded CI machine included).
PROMPT = 1.5


@dataclass
class Game:
    """One channel's running two-player game."""

    channel: int
    users: dict[int, FakeUser]

    def mover(self, fd: FakeDiscord) -> FakeUser:
        """The player the live message asks to move."""
        return self.users[to_move(latest_turn(fd, self.channel)) or 0]


async def games(fd: FakeDiscord, start: BotFactory, count: int = 3, *,
                game: str = "cthulhu") -> tuple[HauntBot, list[Game]]:
    """`count` channels, each with a started two-player game of its own players."""
    bot = await start()
    out: list[Game] = []
    for n in range(count):
        channel = fd.add_channel(f"table-{n}")
        players = [fd.add_user(f"p{n}a"), fd.add_user(f"p{n}b")]
        await open_and_start(fd, channel, players, game, seed=40 + n)
        out.append(Game(channel, {u.id: u for u in players}))
    await fd.settle()
    return bot, out


async def delivered(bot: HauntBot, channel: int) -> bool:
    """Whether everything the channel's game saved was shown (nothing owed)."""
    table = await bot.store.load(channel)
    return table is not None and table.delivered_seq == table.last_seq


async def move_shown(fd: FakeDiscord, bot: HauntBot,
                     game: Game) -> tuple[InteractionHandle, float]:
    """The player to move presses the first control; the handle and the seconds until
    the click was answered and the move shown (its delivery marked)."""
    loop = asyncio.get_running_loop()
    started = loop.time()
    handle = await press_first(fd, game.mover(fd), latest_turn(fd, game.channel))
    await shown(bot, game.channel)
    return handle, loop.time() - started


async def shown(bot: HauntBot, channel: int, timeout: float = 10.0) -> None:
    """Wait until the channel's game owes nothing."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await delivered(bot, channel):
        if loop.time() > deadline:
            raise AssertionError(f"channel {channel}'s move was never shown")
        await asyncio.sleep(0.01)


async def press_first(fd: FakeDiscord, user: FakeUser,
                      message: FakeMessage) -> InteractionHandle:
    """`use_first` without waiting for the whole bot to go quiet (a troubled channel may
    keep it busy): the first control, and a two-step choice's first second step, each
    waited for until answered."""
    comp = game_components(message)[0]
    if comp["type"] == 2:
        handle = await (await fd.click(user, message, comp["custom_id"])).wait(settle=False)
    else:
        value = comp["options"][0]["value"]
        handle = await (await fd.select(user, message, comp["custom_id"],
                                        [value])).wait(settle=False)
    steps = [m for m in handle.messages if m.ephemeral and game_components(m)]
    if not steps:
        return handle
    return await press_first(fd, user, steps[-1])


def quiet(handle: InteractionHandle) -> bool:
    """The click was answered with nothing private to say but, for a two-step choice's
    second half, that it was played."""
    return set(handle.ephemeral_texts()) <= {say("view.step_done")}


async def others_play(fd: FakeDiscord, bot: HauntBot, others: list[Game],
                      rounds: int = 2) -> None:
    """Each untroubled channel plays `rounds` moves, all channels side by side: every
    click answered without a private complaint, and shown within PROMPT seconds."""
    for _ in range(rounds):
        results = await asyncio.gather(*(move_shown(fd, bot, g) for g in others))
        for game, (handle, seconds) in zip(others, results, strict=True):
            assert quiet(handle), (game.channel, handle.ephemeral_texts())
            assert seconds < PROMPT, f"channel {game.channel} took {seconds:.2f}s"


def burst(fd: FakeDiscord, channel: int, status: int, seconds: float) -> list[Fault]:
    """Every message route of the channel answered `status` (a 5xx) until `seconds`
    pass, as a burst of Discord's errors on one channel's backend."""
    faults = [fd.faults.add(method, path, status, times=10**6)
              for method, path in (("PATCH", rf"/channels/{channel}/messages/\d+"),
                                   ("POST", rf"/channels/{channel}/messages"),
                                   ("DELETE", rf"/channels/{channel}/messages/\d+"))]

    def end() -> None:
        for fault in faults:
            fault.times = 0

    asyncio.get_running_loop().call_later(seconds, end)
    return faults
