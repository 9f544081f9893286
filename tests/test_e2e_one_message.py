"""A click answered with the edit it makes, and a fight told on one message, through the
real bot and discord.py against the fake Discord.

A click on the live message whose result edits that message is answered with the edit
itself (UPDATE_MESSAGE): one request to Discord instead of a defer and a PATCH; a slow
action is deferred and patched as before; a refusal stays private; a failed answer falls
back to the PATCH, shown once. In IT: Evil Below (seed 7, the youngest in seat 4, four
people and three AI seats) a fight revealed card by card stays on its message, and no
message without controls still says whose move it is. (A crash while the answer is in
flight: tests/test_e2e_crash.py, steps 2 and 3.)
"""

from __future__ import annotations

import asyncio
import random
import re

import pytest

from bot import headlines
from bot.client import HauntBot
from bot.games.evil_below import GAME, content
from bot.games.evil_below.state import EvilBelowState
from bot.live_message import LIMIT
from bot.sessions import Post
from bot.store import Table
from bot.texts import say
from cogs import reply
from tests.conftest import BotFactory
from tests.e2e_helpers import (
    game_components,
    latest_turn,
    play_by_click,
    press_direct,
    said,
    to_move,
    turn_messages,
)
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser, InteractionHandle
from tests.test_e2e_faults import Game, started

CALLBACK = r"/interactions/\d+/[^/]+/callback"
UPDATE_MESSAGE, DEFERRED_UPDATE, CHANNEL_MESSAGE = 7, 6, 4
# A game whose first control plays at once (Cthulhu's first moves are two-step
# choices, answered privately by their second half: no live message edit to answer with).
ONE_CLICK = "evilbelow"
EXTRA_TOTEMS = 10  # the fight's cards past one message's worth of lines


def _requests(fd: FakeDiscord, since: int) -> list[str]:
    return [re.sub(r"\d{6,}", "N", r) for r in fd.requests[since:]]


async def _move(game: Game) -> tuple[InteractionHandle, list[str]]:
    """The player to move plays their first direct control: the click and what the bot asked
    of Discord for it (after it settled)."""
    live = game.live
    since = len(game.fd.requests)
    user = game.users[to_move(live) or 0]
    handle = await press_direct(game.fd, user, live)
    await handle.wait()
    return handle, _requests(game.fd, since)


async def test_a_click_on_the_live_message_is_answered_with_its_edit(
        fd: FakeDiscord, start_hauntkeeper: BotFactory,
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = await started(fd, start_hauntkeeper, ONE_CLICK)
    live = game.live
    before = live.text
    handle, asked = await _move(game)
    assert handle.callback_type == UPDATE_MESSAGE and handle.ephemeral_texts() == []
    assert game.live.id == live.id and fd.message(live.id).text != before
    edits = [r for r in asked if r == "PATCH /channels/N/messages/N"]
    assert edits == [] and sum("/callback" in r for r in asked) == 1
    assert not await game.owed()
    # The same move, slower than Discord waits: deferred, then patched, as before.
    monkeypatch.setattr(reply, "PATIENCE", 0.0)
    before = fd.message(live.id).text
    handle, slow = await _move(game)
    assert handle.callback_type == DEFERRED_UPDATE and game.live.id == live.id
    assert fd.message(live.id).text != before
    assert [r for r in slow if r == "PATCH /channels/N/messages/N"] == \
        ["PATCH /channels/N/messages/N"]
    assert len(slow) == len(asked) + 1  # one round trip more per click
    await game.ends_well()


async def test_a_slow_action_is_deferred_while_it_runs_and_then_patched(
        fd: FakeDiscord, start_hauntkeeper: BotFactory,
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = await started(fd, start_hauntkeeper, ONE_CLICK)
    monkeypatch.setattr(reply, "PATIENCE", 0.05)
    publish = game.bot.outlet.publish
    deferred_first: list[bool] = []

    async def slow(table: Table, post: Post) -> None:  # a heavy render, a slow store
        await asyncio.sleep(0.3)
        deferred_first.append(any(h.callback_type == DEFERRED_UPDATE
                                  for h in fd.interactions.values()))
        await publish(table, post)

    monkeypatch.setattr(game.bot.outlet, "publish", slow)
    live = game.live
    before = live.text
    handle, asked = await _move(game)
    assert deferred_first == [True]  # answered in time, while the action still ran
    assert handle.callback_type == DEFERRED_UPDATE
    assert asked.count("PATCH /channels/N/messages/N") == 1
    assert game.live.id == live.id and fd.message(live.id).text != before
    monkeypatch.setattr(game.bot.outlet, "publish", publish)
    await game.ends_well()


async def test_a_refused_click_is_private_and_changes_nothing(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    game = await started(fd, start_hauntkeeper, ONE_CLICK)
    live = game.live
    seen = (live.text, len(live.history))
    stranger = fd.add_user("eve")
    comp = game_components(live)[0]
    if comp["type"] == 2:
        handle = await fd.click(stranger, live, comp["custom_id"])
    else:
        handle = await fd.select(stranger, live, comp["custom_id"],
                                 [comp["options"][0]["value"]])
    await handle.wait()
    assert handle.callback_type == CHANNEL_MESSAGE
    assert handle.ephemeral_texts() == [say("errors.not_seated")]
    assert (fd.message(live.id).text, len(fd.message(live.id).history)) == seen
    await game.ends_well()


async def test_an_answer_discord_refuses_falls_back_to_the_patch_once(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    game = await started(fd, start_hauntkeeper, ONE_CLICK)
    live = game.live
    before = live.text
    fault = fd.faults.add("POST", CALLBACK, 404, code=10062, message="Unknown interaction")
    handle, asked = await _move(game)
    assert fault.hits == 1 and handle.callback_type == DEFERRED_UPDATE
    assert "PATCH /channels/N/messages/N" in asked
    assert game.live.id == live.id and fd.message(live.id).text != before
    await game.ends_well()


def _lobby_button(message: FakeMessage, label: str) -> str:
    return next(str(c["custom_id"]) for c in message.flat_components()
                if c.get("label") == label)


def _reveal(message: FakeMessage) -> str | None:
    return next((str(c["custom_id"]) for c in game_components(message)
                 if c["type"] == 2 and str(c.get("label", "")).startswith("Reveal")), None)


def _no_stale_your_move(fd: FakeDiscord, channel: int) -> None:
    """A message that lost its controls lost its "your move" line too."""
    for message in turn_messages(fd, channel):
        if not game_components(message):
            assert to_move(message) is None, message.text[-200:]


async def _state(bot: HauntBot, channel: int) -> EvilBelowState:
    table = await bot.store.load_latest(channel)  # the fight may end the game
    assert table is not None and table.state is not None
    return GAME.load(table.state)


async def _arranged_fight(fd: FakeDiscord, bot: HauntBot, channel: int) -> None:
    """After the first roll: Pennywise and a friend stand where the player to move is;
    the Fight Stack holds only totems, more than a game's start gives it (its attack
    cards back on their pile), so the fight is revealed card by card, its lines piling
    up on the roll's past what one message holds."""
    table = await bot.store.load(channel)
    assert table is not None and table.state is not None
    state = GAME.load(table.state)
    here = state.heroes[state.turn].location
    state.pennywise = here
    state.heroes[(state.turn + 1) % len(state.heroes)].location = here  # a Loser with you
    attacks = [c for c in state.fight_stack if content.is_attack(c)]
    state.fight_stack = [c for c in state.fight_stack if not content.is_attack(c)]
    state.attack_pile[:0] = attacks
    state.fight_stack += state.totem_deck[:EXTRA_TOTEMS]  # a long fight: more to reveal
    del state.totem_deck[:EXTRA_TOTEMS]
    table.state = GAME.dump(state)
    await bot.store.save(table, [], expected_version=table.version, actor_id=None,
                         action=None)


async def test_a_fight_stays_on_one_message(fd: FakeDiscord,
                                            start_hauntkeeper: BotFactory) -> None:
    channel = fd.add_channel("derry")
    users = [fd.add_user(n) for n in ("ann", "bob", "cat", "dan")]
    bot = await start_hauntkeeper()
    opened = await (await fd.slash(users[0], channel, "game", "new", game="evilbelow",
                                   seed=7, youngest="3")).wait()
    lobby = opened.messages[-1]
    for user in users[1:]:
        await (await fd.slash(user, channel, "game", "join")).wait()
    for _ in range(3):
        await (await fd.click(users[0], lobby, _lobby_button(lobby, "Add AI seat"))).wait()
    await (await fd.slash(users[0], channel, "game", "start")).wait()
    by_id: dict[int, FakeUser] = {u.id: u for u in users}
    mover = by_id[to_move(latest_turn(fd, channel)) or 0]
    await (await fd.slash(mover, channel, "evilbelow", "roll")).wait()
    rng = random.Random(7)
    while (await _state(bot, channel)).pending is not None:
        await play_by_click(fd, mover, latest_turn(fd, channel), rng)  # damage, a tie
    await _arranged_fight(fd, bot, channel)
    fought = await (await fd.slash(mover, channel, "evilbelow", "fight")).wait()
    assert fought.ephemeral_texts() == [content.say("cog.done")]
    fight = latest_turn(fd, channel)
    reveals = 0
    while (reveal := _reveal(latest_turn(fd, channel))) is not None:
        handle = await (await fd.click(mover, latest_turn(fd, channel), reveal)).wait()
        assert handle.callback_type == UPDATE_MESSAGE
        _no_stale_your_move(fd, channel)
        if await bot.store.load(channel) is None or (await _state(bot, channel)).fight is None:
            break  # the fight is over, and with it the turn (or the game)
        assert latest_turn(fd, channel).id == fight.id, reveals  # on the same message
        reveals += 1
    assert reveals >= 3 and len(fd.message(fight.id).text) <= LIMIT
    # Told at a glance (bot/headlines.py), the fight never outgrows its message; the
    # trimming of a turn that would is the outlet's (tests/test_outlet_live.py).
    shown = fd.message(fight.id)
    assert all(len(said(v).splitlines()) <= headlines.LINES
               for v in [*shown.history, shown.snapshot()])
