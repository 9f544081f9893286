"""Out-of-turn buttons through the real discord.py and the fake Discord.

The game is tests/helpers/bell_game.py, registered for these tests only: every seat but
the one to act may ring its bell once; an AI rings as soon as someone has stepped.
`/game new` only offers the games known when the lobby cog loaded, so the lobby is
opened through the sessions layer; joining, starting and every move go through Discord.
"""

from __future__ import annotations

import pytest

from bot import table as T
from bot.core import wire
from bot.core.actions import Action
from bot.texts import say
from tests.conftest import BotFactory
from tests.e2e_helpers import flat_controls, latest_turn, to_move
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser, InteractionHandle
from tests.helpers import bell_game
from tests.helpers.bell_game import GAME, KEY, RING_LABEL, STEP_LABEL, BellState


@pytest.fixture(autouse=True)
def _bells(monkeypatch: pytest.MonkeyPatch) -> None:
    bell_game.register(monkeypatch)


def _buttons(message: FakeMessage) -> dict[str, str]:
    return {str(c["label"]): str(c["custom_id"]) for c in flat_controls(message)
            if c["type"] == 2 and str(c.get("custom_id") or "").startswith("hk:")}


async def _click(fd: FakeDiscord, user: FakeUser, message: FakeMessage,
                 label: str) -> InteractionHandle:
    return await (await fd.click(user, message, _buttons(message)[label])).wait()


async def test_out_of_turn_buttons_are_for_their_seat_at_their_version(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    channel = fd.add_channel("bells")
    ann, bob, eve = fd.add_user("ann"), fd.add_user("bob"), fd.add_user("eve")
    bot = await start_hauntkeeper()
    await bot.sessions.open(channel, fd.guild_id, T.Actor(ann.id, "ann"), KEY, 1)
    await (await fd.slash(bob, channel, "game", "join")).wait()
    await bot.sessions.act(channel, T.Actor(ann.id, "ann"), Action(T.ADD_AI))
    await (await fd.slash(ann, channel, "game", "start")).wait()

    async def saved() -> tuple[int, BellState]:
        table = await bot.store.load_latest(channel)
        assert table is not None and table.state is not None
        return table.version, GAME.load(table.state)

    # The turn post: Ann's turn, and Bob's own out-of-turn button, named for him, at
    # the current version. The AI's bell has no button: nobody clicks for the AI.
    first = latest_turn(fd, channel)
    version, state = await saved()
    assert to_move(first) == ann.id
    assert f"<@{bob.id}> may act now too" in first.text
    buttons = _buttons(first)
    bob_ring = f"bob: {RING_LABEL}"
    assert set(buttons) - {"My secrets"} == {STEP_LABEL, bob_ring}
    ref = wire.read_button_id(buttons[bob_ring])
    assert (ref.version, ref.kind, ref.args) == (version, "ring", {T.FOR_SEAT: 1})

    # Anyone but Bob pressing it gets a short private refusal, and nothing changes.
    for other in (ann, eve):
        refused = await _click(fd, other, first, bob_ring)
        expected = (say("errors.not_your_button", name="bob") if other is ann
                    else say("errors.not_seated"))
        assert refused.ephemeral_texts() == [expected]
        assert await saved() == (version, state)
    assert latest_turn(fd, channel).id == first.id

    # Ann steps; the AI rings out of turn in the chain (its offer), and Bob is to act.
    await _click(fd, ann, first, STEP_LABEL)
    second = latest_turn(fd, channel)
    version2, state = await saved()
    assert state.moves == 1 and state.rings == [2]
    assert bell_game.rang_line(state.names[2]) in second.text
    assert to_move(second) == bob.id
    assert set(_buttons(second)) - {"My secrets"} == {STEP_LABEL, f"ann: {RING_LABEL}"}

    # Bob's old button, sent again from the first post: stale, refused, nothing changes.
    stale = await (await fd.forge(bob, first, buttons[bob_ring])).wait()
    assert stale.ephemeral_texts() == [say("errors.stale")]
    assert await saved() == (version2, state)

    # Ann rings on Bob's turn with her own button: it works for her.
    await _click(fd, ann, second, f"ann: {RING_LABEL}")
    third = latest_turn(fd, channel)
    version3, state = await saved()
    assert version3 == version2 + 1 and state.rings == [2, 0] and state.moves == 1
    assert bell_game.rang_line("ann") in third.text
    assert to_move(third) == bob.id
    assert set(_buttons(third)) - {"My secrets"} == {STEP_LABEL}
