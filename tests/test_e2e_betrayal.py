"""Betrayal through the real discord.py: explorers picked in the lobby, then several
turns played by clicking and by typing /betrayal commands, with refusals checked."""

from __future__ import annotations

import random

from bot import games
from bot.core.actions import Action
from tests.betrayal_e2e_helpers import explore_into_the_spider, rig_the_spider
from tests.conftest import BotFactory
from tests.e2e_helpers import (
    PNG_SIGNATURE,
    game_components,
    latest_turn,
    open_and_start,
    to_move,
    turn_messages,
    turn_posts,
)
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser


def _pick_value(lobby: FakeMessage, explorer: str) -> tuple[str, str]:
    select = next(c for c in lobby.flat_components() if c["type"] == 3)
    wanted = Action("lobby.pick", {"name": "explorer", "value": explorer}).encode()
    assert wanted in [o["value"] for o in select["options"]]
    return select["custom_id"], wanted


async def _click_turn(fd: FakeDiscord, user: FakeUser, message: FakeMessage,
                      rng: random.Random) -> str:
    """One click on the turn message: a choice first, then explore, move, end turn."""
    comps = game_components(message)
    by_kind: dict[str, list[dict[str, object]]] = {}
    for comp in comps:
        if comp["type"] == 2:
            kind = str(comp["custom_id"]).split(":", 3)[3].split("~")[0]
            by_kind.setdefault(kind, []).append(comp)
        else:
            for option in comp["options"]:  # type: ignore[union-attr]
                kind = str(option["value"]).split("~")[0]
                by_kind.setdefault(kind, []).append({**comp, "value": option["value"]})
    if "view.choices" in by_kind:  # a private choice: shown to the chooser alone
        reveal = str(by_kind["view.choices"][0]["custom_id"])
        handle = await (await fd.click(user, message, reveal)).wait()
        private = handle.messages[-1]
        assert private.ephemeral
        button = next(c for c in private.flat_components() if ":choose~" in c["custom_id"])
        await (await fd.click(user, private, button["custom_id"])).wait()
        return "choose"
    for kind in ("choose", "explore", "move", "end_turn"):
        if kind not in by_kind or (kind == "move" and rng.random() < 0.3 and "end_turn" in by_kind):
            continue
        comp = rng.choice(by_kind[kind])
        if comp["type"] == 2:
            await (await fd.click(user, message, str(comp["custom_id"]))).wait()
        else:
            await (await fd.select(user, message, str(comp["custom_id"]),
                                   [comp["value"]])).wait()
        return kind
    raise AssertionError(f"nothing to click: {[c.get('custom_id') for c in comps]}")


async def test_four_explorers_play_turns_by_clicks_and_commands(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    channel = fd.add_channel("house")
    ann, ben, cat, dan = (fd.add_user(n) for n in ("ann", "ben", "cat", "dan"))
    by_id = {u.id: u for u in (ann, ben, cat, dan)}
    bot = await start_hauntkeeper()
    lobby = (await (await fd.slash(ann, channel, "game", "new", game="betrayal",
                                   seed=8)).wait()).response
    assert lobby is not None

    custom_id, zoe = _pick_value(lobby, "zoe_ingstrom")
    await (await fd.select(ben, lobby, custom_id, [zoe])).wait()  # picking also seats Ben
    _, missy = _pick_value(lobby, "missy_dubourde")  # the other side of Zoe's card
    clash = await (await fd.select(cat, fd.message(lobby.id), custom_id, [missy])).wait()
    assert "other side" in clash.ephemeral_texts()[0]
    _, peter = _pick_value(lobby, "peter_akimoto")
    await (await fd.select(cat, fd.message(lobby.id), custom_id, [peter])).wait()
    offered = await fd.autocomplete(dan, channel, "game", "join", focused="pick", pick="ox")
    assert [c["value"] for c in offered] == ["ox_bellows"]
    joined = await (await fd.slash(dan, channel, "game", "join", pick="ox_bellows")).wait()
    assert joined.ephemeral_texts()
    roster = fd.message(lobby.id).text  # the lobby, redrawn after Dan's pick
    assert "Zoe Ingstrom" in roster and "Peter Akimoto" in roster and "Ox Bellows" in roster
    start_id = next(c for c in lobby.custom_ids() if c.endswith(":lobby.start"))
    await (await fd.click(ann, fd.message(lobby.id), start_id)).wait()

    table = await bot.store.load(channel)
    assert table is not None and table.state is not None
    state = games.get("betrayal").load(table.state)
    keys = [e.key for e in state.explorers]
    assert keys[1:] == ["zoe_ingstrom", "peter_akimoto", "ox_bellows"]

    first = latest_turn(fd, channel)
    assert first.attachments[0][1].startswith(PNG_SIGNATURE)
    mover = by_id[to_move(first) or 0]
    idle = next(u for u in by_id.values() if u is not mover)
    wrong_turn = await (await fd.slash(idle, channel, "betrayal", "end-turn")).wait()
    assert wrong_turn.ephemeral_texts() == ["It's not your turn."]
    game = games.get("betrayal")
    legal = {o.action.args.get("dir") for o in game.options(state, state.turn.seat)
             if o.action.kind == "explore"}
    blocked = next(d for d in "NESW" if d not in legal)  # the start hall has walls
    no_door = await (await fd.slash(mover, channel, "betrayal", "explore",
                                    direction=blocked)).wait()
    assert no_door.ephemeral_texts()[0].startswith("You can't explore"), no_door.ephemeral_texts()
    sheet = await (await fd.slash(mover, channel, "betrayal", "sheet")).wait()
    assert sheet.messages[-1].attachments[0][1].startswith(PNG_SIGNATURE)
    assert turn_posts(fd, channel) == 1  # the refusals changed nothing

    rng = random.Random(4)
    kinds: list[str] = []
    typed = 0
    for step in range(200):
        message = latest_turn(fd, channel)
        user_id = to_move(message)
        if user_id is None:
            break  # the haunt began
        posts = turn_posts(fd, channel)
        user = by_id[user_id]
        if step % 7 == 3 and any(":end_turn" in c for c in message.custom_ids()):
            await (await fd.slash(user, channel, "betrayal", "end-turn")).wait()
            typed += 1
            kinds.append("end_turn")
        else:
            kinds.append(await _click_turn(fd, user, message, rng))
        assert turn_posts(fd, channel) == posts + 1, "the action was not posted"
        if kinds.count("end_turn") >= 12:
            break
    assert kinds.count("end_turn") >= 8 or to_move(latest_turn(fd, channel)) is None
    assert "choose" in kinds and "explore" in kinds and typed >= 2
    for post in turn_messages(fd, channel):
        assert post.attachments and post.attachments[0][1].startswith(PNG_SIGNATURE)


async def test_an_event_card_asks_its_explorer_and_the_answer_is_a_click(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """The house is rigged so the first room explored is the Gardens (an event room) and
    the event is the Spider, whose explorer must pick the trait to roll."""
    channel = fd.add_channel("garden")
    users = [fd.add_user(n) for n in ("ann", "ben", "cat")]
    bot = await start_hauntkeeper()
    await open_and_start(fd, channel, users, "betrayal", seed=2)

    state = await rig_the_spider(bot, channel)

    mover = await explore_into_the_spider(fd, channel, users, state)
    asked = latest_turn(fd, channel)
    assert "Spider" in asked.text
    choices = [c for c in asked.flat_components() if ":choose~" in (c.get("custom_id") or "")]
    assert {c["label"] for c in choices} >= {"Speed", "Sanity"}, choices
    other = next(u for u in users if u is not mover)
    refused = await (await fd.click(other, asked, choices[0]["custom_id"])).wait()
    [refusal] = refused.ephemeral_texts()  # the choice is the mover's alone
    assert refusal.endswith("is making a choice right now: Which trait do you roll?")
    speed = next(c for c in choices if c["label"] == "Speed")
    await (await fd.click(mover, asked, speed["custom_id"])).wait()
    after = latest_turn(fd, channel)
    assert after.id == asked.id and "Speed" in after.text  # edited in place
    saved = await bot.store.load(channel)
    assert saved is not None and saved.state is not None
    assert "spider" in games.get("betrayal").load(saved.state).discards["event"]


async def test_one_person_can_play_two_explorers(fd: FakeDiscord,
                                                 start_hauntkeeper: BotFactory) -> None:
    channel = fd.add_channel("few")
    ann, ben = fd.add_user("ann"), fd.add_user("ben")
    bot = await start_hauntkeeper()
    lobby = (await (await fd.slash(ann, channel, "game", "new", game="betrayal",
                                   seed=4)).wait()).response
    assert lobby is not None
    await (await fd.slash(ben, channel, "game", "join")).wait()
    second = next(c for c in lobby.custom_ids() if c.endswith(":lobby.second"))
    await (await fd.click(ann, lobby, second)).wait()
    roster = fd.message(lobby.id).text
    assert f"<@{ann.id}> (host)" in roster and f"3. <@{ann.id}> (2nd explorer)" in roster
    again = await (await fd.click(ann, fd.message(lobby.id), second)).wait()
    assert again.ephemeral_texts() == ["In Betrayal at House on the Hill one person can hold "
                                       "at most 2 seats."]
    await (await fd.slash(ann, channel, "game", "start")).wait()
    table = await bot.store.load(channel)
    assert table is not None and table.seats_of(ann.id) == [0, 2]
    secret = await (await fd.slash(ann, channel, "secret")).wait()
    state = games.get("betrayal").load(table.state or {})
    labels = dict(games.get("betrayal").seat_choices()["explorer"])
    mine = [labels[state.explorers[i].key].split(" (")[0] for i in (0, 2)]
    assert all(name in secret.ephemeral_texts()[0] for name in mine)  # both sheets
