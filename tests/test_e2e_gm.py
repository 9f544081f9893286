"""The moderators' tools through the real discord.py: /gm pause, resume, seat, host,
undo, log and settings, each tried by a moderator and by a plain member; the server's
moderator role; where game commands may be used."""

from __future__ import annotations

import re

import pytest

from bot import games
from bot.store import Table
from bot.texts import say
from tests.betrayal_e2e_helpers import explore_into_the_spider, rig_the_spider
from tests.conftest import BotFactory
from tests.e2e_helpers import game_components, latest_turn, open_and_start, to_move, use_first
from tests.fakediscord import FakeDiscord, FakeUser

MOD_ONLY = "Only moderators (Manage Channels, or the server's moderator role) can do that."
PAUSED = "The game is paused by a moderator."


async def _started(fd: FakeDiscord, start: BotFactory,
                   name: str = "table") -> tuple[int, FakeUser, FakeUser, FakeUser]:
    channel = fd.add_channel(name)
    host, guest = fd.add_user("host"), fd.add_user("guest")
    mod = fd.add_user("mod", manage_channels=True)
    await start()
    await open_and_start(fd, channel, [host, guest], "cthulhu", seed=21)
    return channel, host, guest, mod


async def _table(start: BotFactory, channel: int) -> Table:
    bot = await start()
    table = await bot.store.load(channel)
    assert table is not None
    return table


def _last_text(handle_texts: list[str]) -> str:
    assert handle_texts, "no ephemeral answer"
    return handle_texts[-1]


async def test_only_moderators_use_the_new_tools(fd: FakeDiscord,
                                                 start_hauntkeeper: BotFactory) -> None:
    """With /gm opened to everyone (as a server may in Integrations), the code still
    refuses a plain member, in one line, and the game is untouched."""
    channel, host, guest, _mod = await _started(fd, start_hauntkeeper)
    bot = await start_hauntkeeper()
    before = await bot.store.load(channel)
    fd.enforce_command_permissions = False
    for path, options in ((("pause",), {}), (("resume",), {}), (("undo",), {}),
                          (("host",), {"member": guest}), (("log",), {}),
                          (("settings",), {}), (("seat",), {"seat": "2", "member": host})):
        handle = await (await fd.slash(guest, channel, "gm", *path, **options)).wait()
        assert handle.ephemeral_texts() == [MOD_ONLY], (path, handle.ephemeral_texts())
    assert await bot.store.load(channel) == before
    fd.enforce_command_permissions = True


async def test_pause_holds_moves_and_resume_lets_them_go_on(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    channel, host, guest, mod = await _started(fd, start_hauntkeeper)
    turn = latest_turn(fd, channel)
    mover = host if to_move(turn) == host.id else guest

    paused = await (await fd.slash(mod, channel, "gm", "pause")).wait()
    assert "mod paused the game" in _last_text(paused.ephemeral_texts())
    assert "mod paused the game" in latest_turn(fd, channel).text  # the live message says so
    table = await _table(start_hauntkeeper, channel)
    assert table.paused
    again = await (await fd.slash(mod, channel, "gm", "pause")).wait()
    assert again.ephemeral_texts() == ["The game is already paused."]

    turn = latest_turn(fd, channel)
    assert game_components(turn) == []  # no move to be refused (tests/test_e2e_pause_controls.py)
    typed = await (await fd.slash(mover, channel, "cthulhu", "move", character="0",
                                  room="1")).wait()
    assert typed.ephemeral_texts() == [PAUSED]
    status = await (await fd.slash(guest, channel, "game", "status")).wait()
    assert status.response is not None and status.response.ephemeral  # reading still works
    assert (await _table(start_hauntkeeper, channel)).state == table.state

    resumed = await (await fd.slash(mod, channel, "gm", "resume")).wait()
    assert "mod resumed the game" in _last_text(resumed.ephemeral_texts())
    turn = latest_turn(fd, channel)
    played = await use_first(fd, mover, turn)
    assert PAUSED not in played.ephemeral_texts()
    after = await _table(start_hauntkeeper, channel)
    assert not after.paused and after.state != table.state


async def test_resume_restarts_the_ai_chain(fd: FakeDiscord,
                                            start_hauntkeeper: BotFactory) -> None:
    """A seat kicked while the game is paused waits for the resume; then the AI plays."""
    channel, host, guest, mod = await _started(fd, start_hauntkeeper)
    await (await fd.slash(mod, channel, "gm", "pause")).wait()
    waiting = to_move(latest_turn(fd, channel))
    target = guest if waiting == guest.id else host
    other = host if target is guest else guest
    await (await fd.slash(mod, channel, "gm", "kick", player=target)).wait()
    table = await _table(start_hauntkeeper, channel)
    assert table.paused and table.seats[table.seats_of(other.id)[0]].is_human
    game = games.get("cthulhu")
    kicked_seat = next(i for i, s in enumerate(table.seats) if s.user_id == target.id)
    assert game.to_act(game.load(table.state)) == kicked_seat  # the AI's turn, held
    await (await fd.slash(mod, channel, "gm", "resume")).wait()
    after = await _table(start_hauntkeeper, channel)
    assert game.to_act(game.load(after.state)) != kicked_seat  # the AI moved at once
    assert to_move(latest_turn(fd, channel)) == other.id


async def test_seat_hands_a_kicked_seat_to_a_new_member_who_plays_it(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    channel, host, guest, mod = await _started(fd, start_hauntkeeper)
    newbie = fd.add_user("newbie")
    await (await fd.slash(mod, channel, "gm", "kick", player=guest)).wait()
    offered = await fd.autocomplete(mod, channel, "gm", "seat", focused="seat", seat="")
    assert [c["name"] for c in offered] == ["1. host", "2. guest (AI)"]
    assert [c["value"] for c in offered] == ["1", "2"]

    bot_user = fd.users[fd.bot_user.id]
    robot = await (await fd.slash(mod, channel, "gm", "seat", seat="2", member=bot_user)).wait()
    assert robot.ephemeral_texts() == ["The bot can't take a seat."]
    # An absent player's seat may pass too (the moderator judges who is absent).
    taken = await (await fd.slash(mod, channel, "gm", "seat", seat="1", member=newbie)).wait()
    assert "Seat 1 passes from host to newbie" in _last_text(taken.ephemeral_texts())
    table = await _table(start_hauntkeeper, channel)
    assert table.seats_of(newbie.id) == [0]
    # Hand it back, then give newbie the AI's seat: one seat per person in this game.
    await (await fd.slash(mod, channel, "gm", "seat", seat="1", member=host)).wait()
    handed = await (await fd.slash(mod, channel, "gm", "seat", seat="guest",
                                   member=newbie)).wait()
    assert "Seat 2 passes from the AI to newbie" in _last_text(handed.ephemeral_texts())
    table = await _table(start_hauntkeeper, channel)
    assert table.seats_of(newbie.id) == [1] and table.seats[1].is_human
    assert table.seats[1].name == "newbie"
    secret = [m.text for m in fd.dms(newbie)]
    assert any("Rumble 1 of" in text and "your score" in text for text in secret), secret
    two = await (await fd.slash(mod, channel, "gm", "seat", seat="1", member=newbie)).wait()
    assert two.ephemeral_texts() == ["In Cthulhu in the House one person can hold at most 1 "
                                     "seat."]

    # A seat that is not one, or a number Python reads but no seat has, is refused.
    before = await _table(start_hauntkeeper, channel)
    for typed in ("\u00b2", "0", "3", "9" * 100, "nobody"):
        bad = await (await fd.slash(mod, channel, "gm", "seat", seat=typed,
                                    member=newbie)).wait()
        assert bad.ephemeral_texts() == [say("errors.no_such_seat", seat=typed[:20],
                                             count=2)]
    assert (await _table(start_hauntkeeper, channel)).version == before.version
    with pytest.raises(ValueError):  # Discord's client refuses it: the option's length
        await fd.slash(mod, channel, "gm", "seat", seat="1" * 101, member=newbie)

    # newbie now plays the seat: when the turn comes to it, newbie's click moves.
    for _ in range(4):
        turn = latest_turn(fd, channel)
        mover = newbie if to_move(turn) == newbie.id else host
        before = (await _table(start_hauntkeeper, channel)).version
        played = await use_first(fd, mover, turn)
        assert (await _table(start_hauntkeeper, channel)).version > before, \
            played.ephemeral_texts()
        if mover is newbie:
            break
    else:
        raise AssertionError("the turn never came to newbie")


async def test_host_moves_to_another_seated_member(fd: FakeDiscord,
                                                   start_hauntkeeper: BotFactory) -> None:
    channel, _host, guest, mod = await _started(fd, start_hauntkeeper)
    stranger = fd.add_user("stranger")
    nope = await (await fd.slash(mod, channel, "gm", "host", member=stranger)).wait()
    assert nope.ephemeral_texts() == [f"<@{stranger.id}> isn't holding a seat in this game, "
                                      "so they can't be the host."]
    done = await (await fd.slash(mod, channel, "gm", "host", member=guest)).wait()
    assert "guest is the host now (mod's decision)" in _last_text(done.ephemeral_texts())
    assert (await _table(start_hauntkeeper, channel)).host_id == guest.id
    same = await (await fd.slash(mod, channel, "gm", "host", member=guest)).wait()
    assert same.ephemeral_texts() == ["guest is the host already."]
    ended = await (await fd.slash(guest, channel, "game", "end")).wait()  # the host may end
    assert "guest ended the game" in _last_text(ended.ephemeral_texts())


async def test_undo_takes_back_a_card_draw(fd: FakeDiscord,
                                           start_hauntkeeper: BotFactory) -> None:
    """Betrayal, rigged so the first room explored draws the Spider event: undo puts the
    card back on the deck and the state as it was, as a newer version; the channel is
    told who undid what; the Spider's buttons are stale."""
    channel = fd.add_channel("undo")
    users = [fd.add_user(n) for n in ("ann", "ben", "cat")]
    mod = fd.add_user("mod", manage_channels=True)
    bot = await start_hauntkeeper()
    await open_and_start(fd, channel, users, "betrayal", seed=2)
    nothing = await (await fd.slash(mod, channel, "gm", "undo")).wait()
    assert nothing.ephemeral_texts()[-1].startswith("There is nothing to undo")

    state = await rig_the_spider(bot, channel)
    before = await bot.store.load(channel)
    assert before is not None

    mover = await explore_into_the_spider(fd, channel, users, state)
    asked = latest_turn(fd, channel)
    assert "Spider" in asked.text
    choices = [c for c in asked.flat_components() if ":choose~" in (c.get("custom_id") or "")]
    assert choices
    drawn = await bot.store.load(channel)
    assert drawn is not None and drawn.state is not None
    assert games.get("betrayal").load(drawn.state).decks["event"][:1] != ["spider"]

    too_many = await (await fd.slash(mod, channel, "gm", "undo", steps=3)).wait()
    assert too_many.ephemeral_texts() == ["Moves that can be undone here: 1."]
    undone = await (await fd.slash(mod, channel, "gm", "undo")).wait()
    assert _last_text(undone.ephemeral_texts()).startswith("mod undid 1 move: ")
    after = await bot.store.load(channel)
    assert after is not None and after.state is not None
    assert after.state == before.state  # the deck as before: the Spider on top again
    assert games.get("betrayal").load(after.state).decks["event"][0] == "spider"
    assert after.version > drawn.version > before.version
    told = [m.text for m in fd.channel_messages(channel) if "undid 1 move" in m.text
            and not m.ephemeral]
    assert told and "mod undid" in told[-1]
    # The live message shows the restored turn: controls of the new version, not the undone.
    restored = {c["custom_id"] for c in game_components(fd.message(asked.id))}
    assert restored and not restored & {c["custom_id"] for c in choices}
    stale = await (await fd.forge(mover, asked, choices[0]["custom_id"])).wait()
    assert stale.ephemeral_texts() == ["That button is from an earlier turn; use the newest "
                                       "message."]
    assert (await bot.store.load(channel)) == after
    again = await (await fd.slash(mod, channel, "gm", "undo")).wait()
    assert again.ephemeral_texts()[-1].startswith("There is nothing to undo")
    # The seeded draw is in the state: played again, the same card comes up.
    assert await explore_into_the_spider(fd, channel, users, state) == mover
    assert "Spider" in latest_turn(fd, channel).text


async def test_the_log_lists_what_moderators_did(fd: FakeDiscord,
                                                 start_hauntkeeper: BotFactory) -> None:
    channel, _host, guest, mod = await _started(fd, start_hauntkeeper)
    empty = await (await fd.slash(mod, channel, "gm", "log")).wait()
    assert empty.ephemeral_texts() == ["No moderator has acted in this game yet."]
    await (await fd.slash(mod, channel, "gm", "pause")).wait()
    await (await fd.slash(mod, channel, "gm", "host", member=guest)).wait()
    await (await fd.slash(mod, channel, "gm", "resume")).wait()
    shown = await (await fd.slash(mod, channel, "gm", "log")).wait()
    [text] = shown.ephemeral_texts()
    lines = text.splitlines()
    assert lines[0].startswith("**Moderator actions")
    assert [re.sub(r"<t:\d+:R> ", "", line) for line in lines[1:]] == [
        f"<@{mod.id}>: mod paused the game. Moves wait until a moderator resumes it.",
        f"<@{mod.id}>: guest is the host now (mod's decision).",
        f"<@{mod.id}>: mod resumed the game.",
    ]


async def test_the_mod_role_makes_a_member_a_moderator_and_survives_a_restart(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    channel, _host, guest, mod = await _started(fd, start_hauntkeeper)
    keeper = fd.add_user("keeper")
    role = fd.add_role("Game Master")
    fd.give_role(keeper, role)
    fd.enforce_command_permissions = False  # Integrations: /gm opened to the role

    before = await (await fd.slash(keeper, channel, "gm", "pause")).wait()
    assert before.ephemeral_texts() == [MOD_ONLY]
    shown = await (await fd.slash(mod, channel, "gm", "settings")).wait()
    assert "Moderator role: none" in shown.ephemeral_texts()[0]
    set_role = await (await fd.slash(mod, channel, "gm", "settings", mod_role=role,
                                     remind_minutes=30, act_minutes=60,
                                     timer_end="ai")).wait()
    [saved] = set_role.ephemeral_texts()
    assert saved.startswith("Settings saved.") and f"<@&{role}>" in saved
    assert "after 60 min, then: the AI plays the turn" in saved

    await start_hauntkeeper()  # a restart: the settings come from the store
    paused = await (await fd.slash(keeper, channel, "gm", "pause")).wait()
    assert "keeper paused the game" in _last_text(paused.ephemeral_texts())
    own = await (await fd.slash(keeper, channel, "gm", "settings", mod_role=role)).wait()
    assert own.ephemeral_texts()[0].startswith("Only members with Manage Channels")
    timer = await (await fd.slash(keeper, channel, "gm", "settings", remind_minutes=0)).wait()
    assert "Turn reminder: off" in timer.ephemeral_texts()[0]
    plain = await (await fd.slash(guest, channel, "gm", "resume")).wait()
    assert plain.ephemeral_texts() == [MOD_ONLY]

    cleared = await (await fd.slash(mod, channel, "gm", "settings", mod_role=role)).wait()
    assert "Moderator role: none" in cleared.ephemeral_texts()[0]
    after = await (await fd.slash(keeper, channel, "gm", "resume")).wait()
    assert after.ephemeral_texts() == [MOD_ONLY]
    fd.enforce_command_permissions = True


async def test_the_role_moderates_buttons_too(fd: FakeDiscord,
                                              start_hauntkeeper: BotFactory) -> None:
    """A click carries the member's roles as well: /game end by a role holder who is
    not the host works (host or moderator)."""
    channel, _host, guest, mod = await _started(fd, start_hauntkeeper)
    role = fd.add_role("Referee")
    fd.give_role(guest, role)
    refused = await (await fd.slash(guest, channel, "game", "end")).wait()
    assert refused.ephemeral_texts() == ["Only the host or a moderator can end the game."]
    await (await fd.slash(mod, channel, "gm", "settings", mod_role=role)).wait()
    ended = await (await fd.slash(guest, channel, "game", "end")).wait()
    assert "guest ended the game" in _last_text(ended.ephemeral_texts())


async def test_game_channels_refuse_game_commands_elsewhere(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    games_here, elsewhere = fd.add_channel("games"), fd.add_channel("chat")
    player = fd.add_user("player")
    mod = fd.add_user("mod", manage_channels=True)
    bot = await start_hauntkeeper()
    added = await (await fd.slash(mod, elsewhere, "gm", "settings",
                                  game_channel=games_here)).wait()
    assert f"Game channels: <#{games_here}>" in added.ephemeral_texts()[0]
    refused = await (await fd.slash(player, elsewhere, "game", "new", game="cthulhu")).wait()
    assert refused.ephemeral_texts() == [f"Games are played in <#{games_here}> on this server."]
    assert await bot.store.load(elsewhere) is None
    rules = await (await fd.slash(player, elsewhere, "game", "status")).wait()
    assert rules.ephemeral_texts() == [f"Games are played in <#{games_here}> on this server."]
    opened = await (await fd.slash(player, games_here, "game", "new", game="cthulhu")).wait()
    assert opened.response is not None and not opened.response.ephemeral
    thread = fd.add_thread(games_here, "side table", owner=player)
    inside = await (await fd.slash(player, thread, "game", "new", game="cthulhu")).wait()
    assert inside.response is not None and not inside.response.ephemeral, \
        inside.ephemeral_texts()
    shown = await (await fd.slash(mod, elsewhere, "gm", "settings")).wait()  # /gm anywhere
    assert "Game channels" in shown.ephemeral_texts()[0]
    # A game that began elsewhere before the setting plays on: its commands still work
    # in its channel, but no second game opens there.
    old_table = fd.add_channel("old table")
    await (await fd.slash(mod, elsewhere, "gm", "settings", game_channel=games_here)).wait()
    await (await fd.slash(player, old_table, "game", "new", game="cthulhu")).wait()
    await (await fd.slash(mod, elsewhere, "gm", "settings", game_channel=games_here)).wait()
    status = await (await fd.slash(player, old_table, "game", "status")).wait()
    assert status.ephemeral_texts() and "Games are played in" not in status.ephemeral_texts()[0]
    await (await fd.slash(player, old_table, "game", "leave")).wait()
    again = await (await fd.slash(player, old_table, "game", "new", game="cthulhu")).wait()
    assert again.ephemeral_texts() == [f"Games are played in <#{games_here}> on this server."]
    removed = await (await fd.slash(mod, elsewhere, "gm", "settings",
                                    game_channel=games_here)).wait()
    assert "Game channels: any channel" in removed.ephemeral_texts()[0]
    fine = await (await fd.slash(player, elsewhere, "game", "new", game="cthulhu")).wait()
    assert fine.response is not None and not fine.response.ephemeral


async def test_settings_options_are_bounded_for_discord(fd: FakeDiscord,
                                                        start_hauntkeeper: BotFactory) -> None:
    """Discord itself refuses minutes out of range: the command says the bounds."""
    bot = await start_hauntkeeper()
    group = bot.tree.get_command("gm")
    assert group is not None
    command = group.to_dict(bot.tree)
    settings = next(o for o in command["options"] if o["name"] == "settings")
    bounds = {o["name"]: (o.get("min_value"), o.get("max_value")) for o in settings["options"]
              if o["name"].endswith("minutes")}
    assert bounds == {"remind_minutes": (0, 7 * 24 * 60), "act_minutes": (0, 7 * 24 * 60)}
    undo = next(o for o in command["options"] if o["name"] == "undo")
    assert [(o["min_value"], o["max_value"]) for o in undo["options"]] == [(1, 20)]


async def test_settings_refuse_everyone_as_the_moderator_role(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """@everyone as the moderator role would make every member a moderator: refused in
    one line, the settings untouched."""
    channel, _host, _guest, mod = await _started(fd, start_hauntkeeper)
    everyone = await (await fd.slash(mod, channel, "gm", "settings",
                                     mod_role=fd.guild_id)).wait()
    assert everyone.ephemeral_texts() == [say("errors.bad_option")]
    shown = await (await fd.slash(mod, channel, "gm", "settings")).wait()
    assert say("settings.mod_role_none") in shown.ephemeral_texts()[0]


async def test_undo_of_several_moves_while_paused(fd: FakeDiscord,
                                                  start_hauntkeeper: BotFactory) -> None:
    """Two moves taken back at once, during a pause: the state is the start's again, the
    pause stays, and the next move (after the resume) is the same player's as then."""
    channel, host, guest, mod = await _started(fd, start_hauntkeeper)
    start = await _table(start_hauntkeeper, channel)
    first = to_move(latest_turn(fd, channel))
    for _ in range(2):
        turn = latest_turn(fd, channel)
        await use_first(fd, host if to_move(turn) == host.id else guest, turn)
    moved = await _table(start_hauntkeeper, channel)
    assert moved.state != start.state
    await (await fd.slash(mod, channel, "gm", "pause")).wait()
    undone = await (await fd.slash(mod, channel, "gm", "undo", steps=2)).wait()
    assert _last_text(undone.ephemeral_texts()).startswith("mod undid 2 moves: ")
    after = await _table(start_hauntkeeper, channel)
    assert after.state == start.state and after.paused and after.version > moved.version
    await (await fd.slash(mod, channel, "gm", "resume")).wait()
    assert to_move(latest_turn(fd, channel)) == first
    shown = await (await fd.slash(mod, channel, "gm", "log")).wait()
    assert "mod undid 2 moves" in shown.ephemeral_texts()[0]
