"""Two-step choices through the real discord.py and the fake Discord.

IT: Evil Below's move is "where" (a button per place) then "which die" (shown to the
mover alone, the spare die first); a place only one die can reach moves at once.
Cthulhu's move, when it has more entries than one menu holds, is "which character"
then "where", so no menu is split. Betrayal's damage is split in one pick. Anyone else
pressing the first step is refused, and a first step from an old turn is stale.
"""

from __future__ import annotations

from typing import Any

from bot.core.actions import Action
from bot.games import betrayal, cthulhu, evilbelow
from bot.games.betrayal import effects
from bot.games.betrayal.context import Ctx
from bot.games.evilbelow.state import ACTIONS
from bot.texts import say
from cogs.components import STEP
from tests.conftest import BotFactory
from tests.e2e_helpers import game_components, latest_turn, press_old, to_move, use_first
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser


async def _saved(bot: Any, channel: int, game: Any) -> tuple[Any, Any]:
    table = await bot.store.load(channel)
    assert table is not None and table.state is not None
    return table, game.load(table.state)


def _steps(message: FakeMessage) -> list[dict[str, Any]]:
    """The first-step buttons of a message (their action is the view's step)."""
    return [c for c in game_components(message) if c["type"] == 2 and STEP in c["custom_id"]]


def _step_entries(message: FakeMessage) -> list[tuple[str, dict[str, Any]]]:
    """(value, select) for every first-step entry of the message's selects."""
    return [(o["value"], c) for c in game_components(message) if c["type"] == 3
            for o in c["options"] if o["value"].startswith(STEP)]


def _picks(message: FakeMessage) -> list[tuple[str, tuple[str, str | None]]]:
    """(label, (custom_id, value or None)) of every button and select entry."""
    found: list[tuple[str, tuple[str, str | None]]] = []
    for c in game_components(message):
        if c["type"] == 2:
            found.append((str(c["label"]), (c["custom_id"], None)))
        elif c["type"] == 3:
            found += [(o["label"], (c["custom_id"], o["value"])) for o in c["options"]]
    return found


async def _pick(fd: FakeDiscord, user: FakeUser, message: FakeMessage,
                where: tuple[str, str | None]) -> None:
    custom_id, value = where
    if value is None:
        await (await fd.click(user, message, custom_id)).wait()
    else:
        await (await fd.select(user, message, custom_id, [value])).wait()


async def _start(fd: FakeDiscord, start: BotFactory, game: str, seed: int,
                 count: int = 2) -> tuple[Any, int, list[FakeUser]]:
    channel = fd.add_channel(f"{game}-table")
    users = [fd.add_user(name) for name in ("ann", "bob", "cat", "dan")[:count]]
    bot = await start()
    await (await fd.slash(users[0], channel, "game", "new", game=game, seed=seed)).wait()
    for user in users[1:]:
        await (await fd.slash(user, channel, "game", "join")).wait()
    await (await fd.slash(users[0], channel, "game", "start")).wait()
    return bot, channel, users


async def test_evil_below_moves_where_then_which_die(fd: FakeDiscord,
                                                     start_hauntkeeper: BotFactory) -> None:
    bot, channel, (ann, bob) = await _start(fd, start_hauntkeeper, "evilbelow", 3)
    by_id = {ann.id: ann, bob.id: bob}
    for _ in range(12):  # roll, then any sighting's choices, until Ann may act
        _, state = await _saved(bot, channel, evilbelow.GAME)
        if state.phase == ACTIONS and state.pending is None:
            break
        post = latest_turn(fd, channel)
        await use_first(fd, by_id[to_move(post) or ann.id], post)
    assert state.phase == ACTIONS and state.turn == 0
    post = latest_turn(fd, channel)
    labels = [str(c.get("label")) for c in game_components(post)]
    assert not any("die (" in label and label.startswith("Move") for label in labels
                   if sum(1 for o in evilbelow.GAME.options(state, 0)
                          if o.first and o.label == label) > 1)  # no 21 near-twins
    steps = _steps(post)
    assert steps, f"no place to go in {labels}"
    here = state.heroes[0].location
    moves = [o for o in evilbelow.GAME.options(state, 0) if o.action.kind == "move"]
    places = {o.first for o in moves}
    assert len(steps) == len([p for p in places if sum(o.first == p for o in moves) > 1])

    refused = await (await fd.click(bob, post, steps[0]["custom_id"])).wait()
    assert refused.ephemeral_texts() == [say("errors.not_your_choice")]
    assert (await _saved(bot, channel, evilbelow.GAME))[1] == state

    shown = await (await fd.click(ann, post, steps[0]["custom_id"])).wait()
    [dice_message] = [m for m in shown.messages if m.ephemeral]
    place = str(steps[0]["label"])
    assert dice_message.content == say("view.second_step", first=place)
    under = [o for o in moves if o.first == place]
    picks = _picks(dice_message)
    assert [label for label, _ in picks] == [o.then for o in under]  # every die, spare first
    assert (await _saved(bot, channel, evilbelow.GAME))[1] == state  # nothing played yet

    custom_id, _ = picks[-1][1]
    picked = await (await fd.click(ann, dice_message, custom_id)).wait()
    # The private second step is answered by its own edit: its buttons served, it says
    # where the move is shown (the live message is patched: a click answers only the
    # message it was made on).
    assert picked.callback_type == 7
    done = fd.message(dice_message.id)
    assert done.text == say("view.step_done") and done.custom_ids() == []
    _, after = await _saved(bot, channel, evilbelow.GAME)
    chosen = under[-1].action
    assert after.heroes[0].location == chosen.args["to"] != here
    assert after.dice_used[int(chosen.args["die"])] and sum(after.dice_used) == 1

    stale = await press_old(fd, ann, post, steps[0])  # the live message moved on
    assert stale.ephemeral_texts() == [say("errors.stale")]


async def test_cthulhu_moves_who_then_where_when_one_menu_is_not_enough(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    bot, channel, users = await _start(fd, start_hauntkeeper, "cthulhu", 1, count=3)
    _, state = await _saved(bot, channel, cthulhu.GAME)
    seat = cthulhu.GAME.to_act(state)
    options = cthulhu.GAME.options(state, seat)
    moves = [o for o in options if o.action.kind == "move"]
    post = latest_turn(fd, channel)
    mover = next(u for u in users if u.id == to_move(post))
    selects = [c for c in game_components(post) if c["type"] == 3]
    assert len(moves) > 25  # the first turn of this seed: more than one menu holds
    assert not any("(1/" in str(c.get("placeholder")) for c in selects)  # no split menu
    [(value, select)] = _step_entries(post)[:1]  # the first character, in the who menu
    who = options[Action.decode(value).int_arg("n")]
    shown = await (await fd.select(mover, post, select["custom_id"], [value])).wait()
    [rooms] = [m for m in shown.messages if m.ephemeral]
    assert rooms.content == say("view.second_step", first=who.first)
    picks = _picks(rooms)
    assert [label for label, _ in picks] == [o.then for o in moves if o.first == who.first]
    await _pick(fd, mover, rooms, picks[-1][1])
    _, after = await _saved(bot, channel, cthulhu.GAME)
    moved = [o for o in moves if o.first == who.first][-1].action.args
    assert after.location[int(moved["character"])] == moved["room"]  # two picks, one move
    assert cthulhu.GAME.to_act(after) != seat or after.pending is not None


async def test_betrayal_damage_is_one_pick(fd: FakeDiscord,
                                           start_hauntkeeper: BotFactory) -> None:
    """Three physical damage waits on the live message as one choice of four splits;
    one click takes all three points."""
    bot, channel, users = await _start(fd, start_hauntkeeper, "betrayal", 3, count=3)
    mod = fd.add_user("mod", manage_channels=True)
    table, state = await _saved(bot, channel, betrayal.GAME)
    seat = betrayal.GAME.to_act(state)
    ctx = Ctx(state)
    ctx.push([{"damage": {"kind": "physical", "amount": 3}}], seat, "", "engine")
    effects.run(ctx)
    assert state.pending is not None and state.pending.kind == "damage_split"
    table.state = betrayal.GAME.dump(state)
    await bot.store.save(table, [], expected_version=table.version, actor_id=None, action=None)
    await (await fd.slash(mod, channel, "gm", "pause")).wait()
    await (await fd.slash(mod, channel, "gm", "resume")).wait()
    post = latest_turn(fd, channel)
    mover = next(u for u in users if u.id == to_move(post))
    choices = [c for c in game_components(post) if c["type"] == 2 and ":choose~" in c["custom_id"]]
    assert [c["label"] for c in choices] == state.pending.labels and len(choices) == 4
    before = dict(state.explorers[seat].traits)
    await (await fd.click(mover, post, choices[1]["custom_id"])).wait()  # 2 Might, 1 Speed
    _, after = await _saved(bot, channel, betrayal.GAME)
    assert after.pending is None or after.pending.kind != "damage_split"
    lost = {t: before[t] - after.explorers[seat].traits[t] for t in ("might", "speed")}
    assert sum(lost.values()) == 3 and lost["might"] == 2
