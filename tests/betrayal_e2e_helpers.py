"""A Betrayal table rigged through the store, for end-to-end tests that need one known
card: the first room explored is the Gardens (an event room), its event the Spider,
whose explorer must pick the trait to roll."""

from __future__ import annotations

from bot import games
from bot.client import HauntBot
from bot.games.betrayal.state import BetrayalState
from tests.e2e_helpers import latest_turn, to_move
from tests.fakediscord import FakeDiscord, FakeUser


async def rig_the_spider(bot: HauntBot, channel: int) -> BetrayalState:
    """The Gardens on top of the room stack, the Spider on top of the event deck; saved."""
    table = await bot.store.load(channel)
    assert table is not None and table.state is not None
    state = games.get("betrayal").load(table.state)
    for pile, card in ((state.stack, "gardens"), (state.decks["event"], "spider")):
        pile.remove(card)
        pile.insert(0, card)
    table.state = games.get("betrayal").dump(state)
    await bot.store.save(table, [], expected_version=table.version, actor_id=None, action=None)
    return state


async def explore_into_the_spider(fd: FakeDiscord, channel: int, users: list[FakeUser],
                                  state: BetrayalState) -> FakeUser:
    """The explorer to move explores through their first door: who it was."""
    mover = next(u for u in users if u.id == to_move(latest_turn(fd, channel)))
    dirs = [o.action.args["dir"] for o in games.get("betrayal").options(state, state.turn.seat)
            if o.action.kind == "explore"]
    await (await fd.slash(mover, channel, "betrayal", "explore", direction=dirs[0])).wait()
    return mover
