"""AI seats taken back out of a lobby, as players meet it through the real discord.py and
the fake Discord: the lobby's "Add AI seat" has its way back, a menu of the lobby's AI
seats that the host (or a moderator) picks one from before the game starts. Like the
lobby's other controls it acts only on the lobby's current message, and every refusal
(not the host, a menu drawn before the lobby changed, a seat that is a player's, a game
already started) is one short line to the clicker alone, the lobby untouched."""

from __future__ import annotations

from typing import Any

import pytest

from bot import games
from bot import table as table_rules
from bot.core.actions import Action
from bot.store import ACTIVE, LOBBY, OVER
from bot.texts import say
from tests.conftest import BotFactory
from tests.e2e_helpers import latest_turn, press_direct, to_move, unlinked
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser

REMOVE = "lobby.remove_ai"


def _id(message: FakeMessage, kind: str) -> str:
    return next(c for c in message.custom_ids() if kind in c)


def _remove_menu(message: FakeMessage) -> dict[str, Any] | None:
    """The lobby's select whose entries take an AI seat out (None: the lobby has none)."""
    for row in message.components:
        for comp in row.get("components", []):
            if comp.get("type") == 3 and any(
                    Action.decode(o["value"]).kind == REMOVE for o in comp["options"]):
                return comp
    return None


async def _lobby_with_ais(fd: FakeDiscord, channel: int, host: FakeUser,
                          ais: int) -> FakeMessage:
    opened = await (await fd.slash(host, channel, "game", "new", game="betrayal")).wait()
    assert opened.response is not None
    for _ in range(ais):
        await (await fd.click(host, opened.response, _id(opened.response, "lobby.ai"))).wait()
    return fd.message(opened.response.id)


async def test_the_host_takes_an_ai_seat_back_out_from_the_lobby_menu(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """The lobby's Add AI seat has its way back: a menu listing the AI seats (none
    without one), and the host's pick takes that seat out, the lobby redrawn in place."""
    bot = await start_hauntkeeper()
    channel = fd.add_channel("hill")
    ann = fd.add_user("ann")
    lobby = await _lobby_with_ais(fd, channel, ann, 0)
    assert _remove_menu(lobby) is None
    for _ in range(2):
        await (await fd.click(ann, lobby, _id(lobby, "lobby.ai"))).wait()
    lobby = fd.message(lobby.id)
    table = await bot.store.load(channel)
    assert table is not None and [s.ai for s in table.seats] == [False, True, True]
    gone, kept = table.seats[1].name, table.seats[2].name
    menu = _remove_menu(lobby)
    assert menu is not None
    assert [o["label"] for o in menu["options"]] == [f"2. {gone}", f"3. {kept}"]
    picked = await (await fd.select(ann, lobby, menu["custom_id"],
                                    [menu["options"][0]["value"]])).wait()
    assert not picked.ephemeral_texts()
    after = await bot.store.load(channel)
    assert after is not None and after.status == LOBBY
    assert [(s.name, s.ai) for s in after.seats] == [(table.seats[0].name, False), (kept, True)]
    shown = fd.message(lobby.id)
    assert gone not in shown.text and kept in shown.text
    menu = _remove_menu(shown)
    assert menu is not None and [o["label"] for o in menu["options"]] == [f"2. {kept}"]


async def test_only_the_host_or_a_moderator_takes_an_ai_seat_out(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """Adding an AI seat is any seated player's; taking one out is the host's, who
    starts the game, or a moderator's (Manage Channels), seated or not."""
    bot = await start_hauntkeeper()
    channel = fd.add_channel("hill")
    ann, bo = fd.add_user("ann"), fd.add_user("bo")
    mod = fd.add_user("mod", manage_channels=True)
    lobby = await _lobby_with_ais(fd, channel, ann, 2)
    await (await fd.slash(bo, channel, "game", "join")).wait()
    lobby = fd.message(lobby.id)
    before = await bot.store.load(channel)
    assert before is not None
    menu = _remove_menu(lobby)
    assert menu is not None
    refused = await (await fd.select(bo, lobby, menu["custom_id"],
                                     [menu["options"][0]["value"]])).wait()
    assert refused.ephemeral_texts() == [say("errors.remove_ai_host", host="ann")]
    after = await bot.store.load(channel)
    assert after is not None and after.version == before.version
    taken = await (await fd.select(mod, lobby, menu["custom_id"],
                                   [menu["options"][1]["value"]])).wait()
    assert not taken.ephemeral_texts()
    after = await bot.store.load(channel)
    assert after is not None and [s.ai for s in after.seats] == [False, True, False]


async def test_a_menu_drawn_before_the_lobby_changed_is_refused(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """The menu names a seat by its number in the lobby it was drawn from: once someone
    left, that number may be another seat, so a menu read before the redraw takes
    nothing out; nor does one on a lobby's old message once another lobby opened (the
    lobby's buttons act on its current message only)."""
    bot = await start_hauntkeeper()
    channel = fd.add_channel("hill")
    ann, bo = fd.add_user("ann"), fd.add_user("bo")
    lobby = await _lobby_with_ais(fd, channel, bo, 0)
    await (await fd.slash(ann, channel, "game", "join")).wait()
    await (await fd.click(ann, lobby, _id(lobby, "lobby.ai"))).wait()
    drawn = _remove_menu(fd.message(lobby.id))
    assert drawn is not None
    await (await fd.slash(bo, channel, "game", "leave")).wait()  # ann hosts; seats shift
    before = await bot.store.load(channel)
    assert before is not None and before.host_id == ann.id and len(before.seats) == 2
    late = await (await fd.forge(ann, lobby, drawn["custom_id"],
                                 values=[drawn["options"][0]["value"]])).wait()
    assert late.ephemeral_texts() == [say("errors.remove_ai_stale")]
    after = await bot.store.load(channel)
    assert after is not None and after.version == before.version
    await (await fd.slash(ann, channel, "game", "end")).wait()
    fresh = await _lobby_with_ais(fd, channel, ann, 1)
    assert fresh.id != lobby.id
    menu = _remove_menu(fresh)
    assert menu is not None
    old = await (await fd.forge(ann, lobby, menu["custom_id"],
                                values=[menu["options"][0]["value"]])).wait()
    assert [unlinked(t) for t in old.ephemeral_texts()] == [say("errors.old_lobby")]
    new = await bot.store.load(channel)
    assert new is not None and new.status == LOBBY and len(new.seats) == 2


async def test_a_players_seat_is_not_taken_out_as_an_ai_seat(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """A value no menu offers (a modified client naming a player's seat) is refused in
    a line, as /gm kick is the way to take a player out."""
    bot = await start_hauntkeeper()
    channel = fd.add_channel("hill")
    ann, bo = fd.add_user("ann"), fd.add_user("bo")
    lobby = await _lobby_with_ais(fd, channel, ann, 1)
    await (await fd.slash(bo, channel, "game", "join")).wait()
    lobby = fd.message(lobby.id)
    menu = _remove_menu(lobby)
    assert menu is not None
    forged = Action(REMOVE, {"seat": 2, "seats": 3}).encode()
    refused = await (await fd.forge(ann, lobby, menu["custom_id"], values=[forged])).wait()
    assert refused.ephemeral_texts() == [say("errors.not_ai_seat", seat=3, name="bo")]
    after = await bot.store.load(channel)
    assert after is not None and [s.user_id for s in after.seats] == [ann.id, None, bo.id]


async def test_once_the_game_starts_no_ai_seat_leaves(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """Before the game starts only: the lobby loses its controls at the start, and a
    menu kept from before is refused (a running game's seats keep their explorers)."""
    bot = await start_hauntkeeper()
    channel = fd.add_channel("hill")
    ann = fd.add_user("ann")
    lobby = await _lobby_with_ais(fd, channel, ann, 2)
    menu = _remove_menu(lobby)
    assert menu is not None
    await (await fd.slash(ann, channel, "game", "start")).wait()
    assert _remove_menu(fd.message(lobby.id)) is None
    late = await (await fd.forge(ann, lobby, menu["custom_id"],
                                 values=[menu["options"][0]["value"]])).wait()
    assert late.ephemeral_texts() == [say("errors.not_lobby")]
    table = await bot.store.load(channel)
    assert table is not None and table.status == ACTIVE and len(table.seats) == 3


def test_the_table_rule_alone() -> None:
    """The rule without Discord: the host's pick takes the seat out and says so."""
    host = table_rules.Actor(1, "Ann")
    table, _ = table_rules.new_table("betrayal", 5, 6, host, seed=1)
    table, _ = table_rules.apply(table, host, Action(table_rules.ADD_AI))
    name = table.seats[1].name
    table, events = table_rules.apply(table, host, Action(table_rules.REMOVE_AI,
                                                          {"seat": 1, "seats": 2}))
    assert len(table.seats) == 1
    assert [e.text for e in events] == [say("lobby.ai_removed", name=name, by="Ann")]


# -- a second seat's tag once its player holds one seat again ------------------------------

async def test_a_player_left_with_one_seat_reads_their_own_name_again(
        fd: FakeDiscord, start_hauntkeeper: BotFactory,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """RULES.md / README: one person may play two explorers; "if one turns traitor, the
    other passes to a hero's player, or to the AI". The lobby's "(2nd explorer)" and a
    seat's "Hana (2nd)" tell apart two seats of one player; once the split leaves Hana
    one seat (her second, the traitor's), it is hers alone and reads "Hana" wherever
    players read it: the line that says so, the game's lines after it, the story that
    /game history opens and /stats' table of players. It read "Hana (2nd)" in all of
    them, a tag for a second seat she no longer had."""
    bot = await start_hauntkeeper()
    channel = fd.add_channel("hill")
    hana, bo = fd.add_user("hana"), fd.add_user("bo")
    lobby = await _lobby_with_ais(fd, channel, hana, 0)
    await (await fd.click(hana, lobby, _id(lobby, "lobby.second"))).wait()
    await (await fd.click(bo, lobby, _id(lobby, "lobby.join"))).wait()
    await (await fd.click(bo, lobby, _id(lobby, "lobby.second"))).wait()
    roster = fd.message(lobby.id).text
    assert f"2. <@{hana.id}>{say('lobby.second_tag')}" in roster
    game = games.get("betrayal")
    # The haunt's sides, set up directly: Hana's second explorer is the traitor.
    monkeypatch.setattr(type(game), "teams", lambda self, state: {
        "heroes": [0, 2, 3], "traitor": [1]})
    await (await fd.slash(hana, channel, "game", "start")).wait()
    live = latest_turn(fd, channel)
    mover = hana if to_move(live) == hana.id else bo
    await (await press_direct(fd, mover, live)).wait()
    table = await bot.store.load(channel)
    assert table is not None and table.seats[0].ai  # Bo holds two: no hero may take it
    assert table.seats_of(hana.id) == [1]
    assert table.seats[1].name == "hana"
    assert table_rules.game_state(table).players[1] == "hana"
    logged = [e.text for e in await bot.store.log(table.id or 0, limit=10**6)]
    assert say("table.seat_to_ai", old="hana", seat=1) in logged
    await (await fd.slash(hana, channel, "game", "end")).wait()
    ended = await bot.store.load_latest(channel)
    assert ended is not None and ended.status == OVER
    result = await bot.store.result(ended.id or 0)
    assert result is not None
    assert [s.name for s in result.seats if s.user_id == hana.id] == ["hana"]
    opened = await (await fd.slash(hana, channel, "game", "history",
                                   game=str(ended.id))).wait()
    assert "hana (2nd)" not in opened.ephemeral_texts()[0]
    handle = await (await fd.slash(bo, channel, "stats", "server")).wait(20)
    (card,) = [m for m in handle.messages if m.attachments]
    alt = card.descriptions[0] or ""
    assert say("stats.bar", label="hana", won=0, played=1) in alt, alt


def test_a_seat_handed_away_leaves_its_player_their_own_name() -> None:
    """/gm seat hands one of Hana's two seats to Cy: the seat she keeps is hers alone,
    and reads "Hana", not "Hana (2nd)" (as the split does, above); Cy's reads "Cy"."""
    hana, cy = table_rules.Actor(1, "Hana"), table_rules.Actor(3, "Cy")
    mod = table_rules.Actor(9, "Mod", moderator=True)
    table, _ = table_rules.new_table("betrayal", 5, 6, hana, seed=2)
    table, _ = table_rules.apply(table, hana, Action(table_rules.SECOND))
    table, _ = table_rules.apply(table, hana, Action(table_rules.ADD_AI))
    table, _ = table_rules.apply(table, hana, Action(table_rules.START))
    assert [s.name for s in table.seats[:2]] == ["Hana", say("lobby.second_name", name="Hana")]
    table, _ = table_rules.apply(table, mod, Action(table_rules.SEAT,
                                                    {"seat": 0, "user": 3, "name": "Cy"}))
    assert table.seats_of(hana.user_id or 0) == [1] and table.seats_of(cy.user_id or 0) == [0]
    assert [s.name for s in table.seats[:2]] == ["Cy", "Hana"]
    assert table_rules.game_state(table).players[:2] == ["Cy", "Hana"]
