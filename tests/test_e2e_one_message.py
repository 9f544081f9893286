"""A click answered with the edit it makes, and a fight told on one message, through the
real bot and discord.py against the fake Discord.

A click on the live message whose result edits that message is answered with the edit
itself (UPDATE_MESSAGE): one request to Discord instead of a defer and a PATCH; a slow
action is deferred and patched as before; a refusal stays private; a failed answer falls
back to the PATCH, shown once. In IT: Evil Below (seed 7, the youngest in seat 4, four
people and three AI seats) a fight revealed card by card stays on its message, and no
message without controls still says whose move it is: a fight arranged with a long Fight
Stack, and the game's own first fight, played as people would. (A crash while the answer
is in flight: tests/test_e2e_crash.py, steps 2 and 3.)
"""

from __future__ import annotations

import asyncio
import random
import re
from typing import Any

import pytest

from bot import headlines
from bot.client import HauntBot
from bot.core import wire
from bot.core.actions import Action
from bot.games.evilbelow import GAME, actions, content
from bot.games.evilbelow.state import EvilBelowState
from bot.live_message import LIMIT, jump_link
from bot.sessions import Post
from bot.store import Table
from bot.texts import say
from cogs import reply
from cogs.components import STEP
from tests.conftest import BotFactory
from tests.e2e_helpers import (
    TEXT_DISPLAY,
    game_components,
    latest_turn,
    play_by_click,
    press_direct,
    said,
    to_move,
    turn_messages,
)
from tests.fakediscord import (
    FakeDiscord,
    FakeMessage,
    FakeUser,
    InteractionHandle,
    flat_components,
)
from tests.test_e2e_faults import Game, started

CALLBACK = r"/interactions/\d+/[^/]+/callback"
UPDATE_MESSAGE, DEFERRED_UPDATE, CHANNEL_MESSAGE = 7, 6, 4
# A game whose first control plays at once (Cthulhu's first moves are two-step
# choices, answered privately by their second half: no live message edit to answer with).
ONE_CLICK = "evilbelow"
EXTRA_TOTEMS = 10  # the fight's cards past one message's worth of lines
# Seed 7's first fight starts on the 9th click and is over by the 15th: a game that has
# not fought a fight of three reveals by this many clicks fails.
NATURAL_CLICKS = 40


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
                                   seed=7, youngest="4")).wait()
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
    assert fought.ephemeral_texts() == [content.evil_below_line("cog.done")]
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


# ------------------------------------------------ the issue's table, played as people would

async def _issue_table(fd: FakeDiscord, start_hauntkeeper: BotFactory,
                       ) -> tuple[int, HauntBot, dict[int, FakeUser]]:
    """Issue 20's table: `/game new game:evilbelow seed:7 youngest:4` (seat 4; the issue
    typed its index, 3, from before the option counted seats from 1), three friends join
    by command, three AI seats from the lobby's button, started; the people by seat."""
    channel = fd.add_channel("derry")
    users = [fd.add_user(n) for n in ("ann", "bob", "cat", "dan")]
    bot = await start_hauntkeeper()
    opened = await (await fd.slash(users[0], channel, "game", "new", game="evilbelow",
                                   seed=7, youngest="4")).wait()
    lobby = opened.messages[-1]
    for user in users[1:]:
        await (await fd.slash(user, channel, "game", "join")).wait()
    for _ in range(3):
        await (await fd.click(users[0], lobby, _lobby_button(lobby, "Add AI seat"))).wait()
    await (await fd.slash(users[0], channel, "game", "start")).wait()
    table = await bot.store.load(channel)
    assert table is not None and [s.ai for s in table.seats] == [False] * 4 + [True] * 3
    by_id = {u.id: u for u in users}
    return channel, bot, {n: by_id[s.user_id] for n, s in enumerate(table.seats)
                          if s.user_id in by_id and not s.ai}


def _sensible(state: EvilBelowState, seat: int) -> Action:
    """What the game's AI would play for this seat, but bolder: the AI starts a fight only
    with nine totems in the stack (ai.MIN_TOTEMS), and left to that no person of seed 7
    ever fights: the AI seats fight every fight and win on the 36th click. A person beside
    Pennywise and a friend, the fight offered and the turn otherwise done, fights rather
    than end it."""
    action = GAME.ai_action(state, seat)
    if action.kind != actions.END_TURN:
        return action
    return next((o.action for o in GAME.options(state, seat)
                 if o.action.kind == actions.FIGHT_K), action)


def _controls(message: FakeMessage) -> list[tuple[dict[str, Any], Action]]:
    """The message's game controls and what each plays, read as the bot reads a click:
    a button's action from its custom_id, a select's from each entry's value (one pair
    per entry, the entry's value under "value")."""
    found: list[tuple[dict[str, Any], Action]] = []
    for comp in game_components(message):
        if comp["type"] == 2:
            ref = wire.read_button_id(str(comp["custom_id"]))
            found.append((comp, Action(ref.kind, ref.args)))
        else:
            found += [({**comp, "value": o["value"], "label": o["label"]},
                       Action.decode(o["value"])) for o in comp["options"]]
    return found


async def _press(fd: FakeDiscord, user: FakeUser, message: FakeMessage,
                 comp: dict[str, Any]) -> InteractionHandle:
    if comp["type"] == 2:
        return await (await fd.click(user, message, str(comp["custom_id"]))).wait()
    return await (await fd.select(user, message, str(comp["custom_id"]),
                                  [str(comp["value"])])).wait()


async def _play_as_seen(fd: FakeDiscord, user: FakeUser, message: FakeMessage,
                        state: EvilBelowState, seat: int, action: Action) -> None:
    """Play `action` with what the player sees: its control on the live message, or for
    a two-step choice (where, then which die) the first half there, named as the option
    names it, and the second on the private message that answers it. Nothing refused."""
    here = next((comp for comp, plays in _controls(message) if plays == action), None)
    if here is None:
        first = next(o.first for o in GAME.options(state, seat) if o.action == action)
        head = next(comp for comp, plays in _controls(message)
                    if plays.kind == STEP and comp.get("label") == first)
        asked = await _press(fd, user, message, head)
        [message] = [m for m in asked.messages if m.ephemeral and game_components(m)]
        here = next(comp for comp, plays in _controls(message) if plays == action)
    handle = await _press(fd, user, message, here)
    assert handle.ephemeral_texts() in ([], [say("view.step_done")]), handle.ephemeral_texts()


def _turn_text(version: dict[str, Any]) -> str:
    """A live message version's turn: its first text display (the headings above other
    seats' rows come after the board)."""
    from_layout = [c for c in flat_components(version["components"])
                   if c["type"] == TEXT_DISPLAY]
    return str(from_layout[0].get("content") or "") if from_layout else ""


def _your_move_lines(text: str) -> list[str]:
    before, after = say("live.your_move", who="\x00").split("\x00")
    return [line for line in text.splitlines() if line.startswith(before)
            and line.endswith(after)]


async def test_the_issues_first_fight_stays_on_one_message(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """Issue 20's table played from its start with nothing arranged, the people clicking
    what a careful player would (`_sensible`) on the live message and the private second
    steps, until a person fights with three reveals or more: every click of that fight
    (the Fight button, each reveal, the choices the counterattack asks) edits the turn's
    live message in place and posts nothing else, the message keeps the controls of
    whoever is to act and one "your move" line naming them, and no version of it told
    during the fight is longer than a live message may be or tells more than a glance."""
    channel, bot, by_seat = await _issue_table(fd, start_hauntkeeper)
    fight_id, reveals, seen = 0, 0, 0
    told: list[dict[str, Any]] = []  # the fight message's versions while it is fought
    for clicks in range(1, NATURAL_CLICKS + 1):
        table = await bot.store.load(channel)
        assert table is not None, f"the game ended on click {clicks} before a person fought"
        state = GAME.load(table.state or {})
        seat = GAME.to_act(state)
        assert seat in by_seat, seat  # the AI seats play on their own, between clicks
        live = latest_turn(fd, channel)
        assert to_move(live) == by_seat[seat].id
        action = _sensible(state, seat)
        if action.kind == actions.FIGHT_K:  # told on the turn's own message from here on
            fight_id, reveals, seen, told = live.id, 0, len(live.history) + 1, []
        posted = [m.id for m in fd.channel_messages(channel)]
        await _play_as_seen(fd, by_seat[seat], live, state, seat, action)
        if not fight_id:
            continue
        after = await _state(bot, channel)
        shown, now = fd.message(fight_id), latest_turn(fd, channel)
        new = [m for m in fd.channel_messages(channel) if m.id not in posted]
        if after.fight is not None:  # no new live message, nothing told past it,
            assert now.id == fight_id and new == [], (clicks, action, [m.text for m in new])
        else:  # the fight ended the turn: the next person's ping, to their live message
            nxt = GAME.to_act(after)
            ping = None if nxt is None else say(
                "live.your_turn", mention=f"<@{by_seat[nxt].id}>",
                link=jump_link(table.guild_id, channel, now.id))
            assert all(m.text == ping or m.id == now.id for m in new), [m.text for m in new]
        versions = [*shown.history, shown.snapshot()]
        assert len(versions) > seen, (clicks, action)  # and this one edited
        told += versions[seen:]
        seen = len(versions)
        text = _turn_text(versions[-1])
        if action.kind == actions.REVEAL:
            reveals += 1
            card = after.fight.shown[-1] if after.fight is not None else None
            assert card is None or (content.evil_below_line("events.reveal_attack")
                                    if content.is_attack(card)
                                    else content.card_name(card)) in text, text
        if after.fight is None:  # the fight is over, and the turn with it
            if reveals >= 3:
                break
            fight_id = 0  # a short one: play on to the next
            continue
        mover = GAME.to_act(after)
        assert mover in by_seat, mover
        assert len(_your_move_lines(text)) == 1 and to_move(shown) == by_seat[mover].id
        mine = [plays for _, plays in _controls(shown)]
        offered = [o.action for o in GAME.options(after, mover)]
        assert offered and all(a in mine for a in offered), (clicks, offered, mine)
    else:
        raise AssertionError(f"no fight of three reveals in {NATURAL_CLICKS} clicks")
    assert reveals >= 3 and told
    trimmed = say("live.trimmed")
    for version in told:
        text = _turn_text(version)
        assert len(text) <= LIMIT, len(text)
        assert len([line for line in text.splitlines() if line != trimmed]) \
            <= headlines.LINES, text
    assert fd.violations == []


async def test_a_click_asks_the_store_to_read_once_and_write_twice(
        fd: FakeDiscord, start_hauntkeeper: BotFactory,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """One click, three round trips to the store: the load (the game with its live
    message), the save (state, events, outbox), and the delivery's mark with the live
    message the post left. Each was its own round trip before: the live message read,
    and written, apart from the mark."""
    game = await started(fd, start_hauntkeeper, ONE_CLICK)
    store = game.bot.store
    calls: list[str] = []
    for name in ("load", "load_game", "load_latest", "get_live", "set_live", "save",
                 "mark_delivered", "undelivered"):
        inner = getattr(store, name)

        async def counted(*args: Any, _name: str = name, _inner: Any = inner,
                          **kwargs: Any) -> Any:
            calls.append(_name)
            return await _inner(*args, **kwargs)

        monkeypatch.setattr(store, name, counted)
    live = game.live
    handle, _ = await _move(game)
    assert handle.callback_type == UPDATE_MESSAGE and game.live.id == live.id
    assert calls == ["load", "save", "mark_delivered"], calls
    assert not await game.owed()
    calls.clear()
    await game.ends_well()
