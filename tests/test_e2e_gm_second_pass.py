"""The moderators' tools, second pass, through the real discord.py and the fake Discord:
the awkward moments the first pass left (a seat handed on and then an undo across a
rumble's deal, a player on two seats named by a kick or /gm host, /gm seat once the game
is over, /gm undo in a lobby, /gm from a DM), and every tool at any moment of a haunt
and of a Cthulhu table, each checked for what must stay true after it."""

from __future__ import annotations

import random

from bot import replay
from bot import table as T
from bot.client import HauntBot
from bot.games.cthulhu import GAME as CTHULHU
from bot.store import Table
from bot.texts import say
from tests.conftest import BotFactory
from tests.e2e_helpers import latest_turn, open_and_start, to_move
from tests.fakediscord import FakeDiscord, FakeUser
from tests.test_e2e_betrayal_haunt import haunt_begins


async def _loaded(bot: HauntBot, channel: int) -> Table:
    table = await bot.store.load(channel)
    assert table is not None and table.state is not None
    return table


async def _played_until_the_next_rumble(bot: HauntBot, channel: int,
                                        by_id: dict[int, FakeUser]) -> None:
    """Every seat a human's, each plays its AI's choice, until a move deals rumble 2."""
    for _ in range(400):
        table = await _loaded(bot, channel)
        state = CTHULHU.load(table.state or {})
        if state.rumble > 1:
            return
        seat = T.to_act_seat(table)
        assert seat is not None
        holder = by_id[table.seats[seat].user_id or 0]
        await bot.sessions.act(channel, T.Actor(holder.id, holder.name),
                               CTHULHU.ai_action(state, seat), version=table.version)
    raise AssertionError("rumble 1 never ended")


async def test_an_undo_reads_a_handed_seat_its_secrets_as_they_stand_again(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """bot/table_moderation.py's `seat`: "The seat keeps its character and secrets; the new holder
    reads them at once"; README: "/gm seat ... who gets the seat's secrets by DM".
    A seat handed on right after a move dealt the next rumble's secrets: its new holder
    reads rumble 2's. /gm undo then takes the deal back: the seat's secrets are rumble
    1's again, which its holder never read (the old holder did). The new holder is sent
    them by DM, as /gm seat would have; the seat whose holder did not change is sent
    nothing again (it read them before)."""
    channel = fd.add_channel("rumble")
    host, guest = fd.add_user("host"), fd.add_user("guest")
    mod, newbie = fd.add_user("mod", manage_channels=True), fd.add_user("newbie")
    bot = await start_hauntkeeper()
    await open_and_start(fd, channel, [host, guest], "cthulhu", seed=21)
    await _played_until_the_next_rumble(bot, channel, {host.id: host, guest.id: guest})
    table = await _loaded(bot, channel)
    seat = table.seats_of(guest.id)[0]
    await (await fd.slash(mod, channel, "gm", "seat", seat=str(seat + 1),
                          member=newbie)).wait()
    await fd.settle()
    assert any("Rumble 2 of" in m.text for m in fd.dms(newbie))
    host_dms = len(fd.dms(host))

    undone = await (await fd.slash(mod, channel, "gm", "undo")).wait()
    assert undone.ephemeral_texts()[-1].startswith("mod undid 1 move")
    await fd.settle()
    back = await _loaded(bot, channel)
    state = CTHULHU.load(back.state or {})
    assert state.rumble == 1 and back.seats_of(newbie.id) == [seat]
    view = CTHULHU.private_view(state, seat)
    assert "Rumble 1 of" in view
    assert any(view in m.text for m in fd.dms(newbie)), [m.text for m in fd.dms(newbie)]
    assert len(fd.dms(host)) == host_dms  # the host's seat changed no hands


async def _two_seats_first_the_second(fd: FakeDiscord, start: BotFactory
                                      ) -> tuple[int, HauntBot, FakeUser, FakeUser]:
    """Betrayal (seed 003: one person may play two explorers): ben is kicked and his
    seat handed to cat, so cat's seat 2 ("cat (2nd)") comes before her own seat 3."""
    channel = fd.add_channel("two")
    ann, ben, cat = (fd.add_user(n) for n in ("ann", "ben", "cat"))
    mod = fd.add_user("mod", manage_channels=True)
    bot = await start()
    await open_and_start(fd, channel, [ann, ben, cat], "betrayal", seed=2)
    await (await fd.slash(mod, channel, "gm", "kick", player=ben)).wait()
    await (await fd.slash(mod, channel, "gm", "seat", seat="2", member=cat)).wait()
    table = await _loaded(bot, channel)
    assert table.seats_of(cat.id) == [1, 2]
    assert [table.seats[i].name for i in (1, 2)] == [say("lobby.second_name", name="cat"),
                                                      "cat"]
    return channel, bot, mod, cat


async def test_a_kick_names_a_player_on_two_seats_by_their_own_name(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """bot/table_core.py's `own_name`: "A player's own name: their seats' shortest (a second
    seat's is their name and its "(2nd)" tag)". A player on two seats is kicked, both
    seats going to the AI: the channel and the moderator read the player's name, not
    their second seat's label."""
    channel, bot, mod, cat = await _two_seats_first_the_second(fd, start_hauntkeeper)
    kicked = await (await fd.slash(mod, channel, "gm", "kick", player=cat)).wait()
    assert kicked.ephemeral_texts()[-1] == say("moderation.kicked", target="cat", name="mod")
    table = await _loaded(bot, channel)
    assert table.seats_of(cat.id) == []


async def test_the_host_given_to_a_player_on_two_seats_is_named_by_their_own_name(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """bot/table_core.py's `own_name` (as above): /gm host hands the host to a player on two
    seats, and says so under the player's own name; asked again, the refusal names
    them so too."""
    channel, bot, mod, cat = await _two_seats_first_the_second(fd, start_hauntkeeper)
    made = await (await fd.slash(mod, channel, "gm", "host", member=cat)).wait()
    assert made.ephemeral_texts()[-1] == say("moderation.host", new="cat", name="mod")
    again = await (await fd.slash(mod, channel, "gm", "host", member=cat)).wait()
    assert again.ephemeral_texts() == [say("errors.host_already", name="cat")]
    assert (await _loaded(bot, channel)).host_id == cat.id


async def test_a_kicked_host_hands_the_host_to_a_player_on_two_seats_by_name(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """README: "a kicked host hands the host on, as in `/game leave`"; `own_name` (as
    above). The host is kicked and the first human seat left is a second seat: the
    table reads its player's own name as the new host."""
    channel, bot, mod, cat = await _two_seats_first_the_second(fd, start_hauntkeeper)
    table = await _loaded(bot, channel)
    ann = fd.users[table.host_id]
    kicked = await (await fd.slash(mod, channel, "gm", "kick", player=ann)).wait()
    assert kicked.ephemeral_texts()
    assert (await _loaded(bot, channel)).host_id == cat.id
    told = [m.text for m in fd.channel_messages(channel) if not m.ephemeral]
    assert any(say("lobby.host_moved", name="cat") in text for text in told), told[-3:]
    assert not any(say("lobby.host_moved", name=say("lobby.second_name", name="cat"))
                   in text for text in told)


async def test_gm_seat_after_the_end_says_the_game_is_over(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """README: /gm undo "reaches moves of the running game only: ... not once the game is
    over". Every /gm tool asked of a finished game answers "This game is over." (as
    /gm kick, skip, pause, host and undo do); /gm seat said there was no game here and
    to start one."""
    channel = fd.add_channel("over")
    host, guest = fd.add_user("host"), fd.add_user("guest")
    mod = fd.add_user("mod", manage_channels=True)
    await start_hauntkeeper()
    await open_and_start(fd, channel, [host, guest], "cthulhu", seed=21)
    await (await fd.slash(mod, channel, "gm", "end")).wait()
    for command, options in (("seat", {"seat": "1", "member": mod}),
                             ("kick", {"player": host}), ("skip", {})):
        answer = await (await fd.slash(mod, channel, "gm", command, **options)).wait()
        assert answer.ephemeral_texts() == [say("errors.game_over")], command


async def test_gm_undo_in_a_lobby_says_the_game_has_not_started(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """README: /gm undo "reaches moves of the running game only: not back into the
    lobby". In a lobby it says what the other tools of a running game say there (the
    game has not started), not that no move was made "since the game began"."""
    channel = fd.add_channel("lobby")
    host = fd.add_user("host")
    mod = fd.add_user("mod", manage_channels=True)
    await start_hauntkeeper()
    await (await fd.slash(host, channel, "game", "new", game="cthulhu")).wait()
    for command in ("undo", "skip"):
        answer = await (await fd.slash(mod, channel, "gm", command)).wait()
        assert answer.ephemeral_texts() == [say("errors.not_started")], command


async def test_gm_from_a_dm_is_refused_as_out_of_place_not_as_not_a_moderator(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """README: "The `/game` and `/gm` commands belong to a server channel (Discord hides
    them in DMs)". A client with an old command list may still send one from a DM:
    a moderator is told the command is not for here, not that they are no moderator,
    and no game changes."""
    channel = fd.add_channel("table")
    host, guest = fd.add_user("host"), fd.add_user("guest")
    mod = fd.add_user("mod", manage_channels=True)
    bot = await start_hauntkeeper()
    await open_and_start(fd, channel, [host, guest], "cthulhu", seed=21)
    before = await _loaded(bot, channel)
    fd.enforce_command_permissions = False  # an old client's command list
    dm = fd.open_dm(mod)
    for command, options in (("pause", {}), ("end", {}), ("kick", {"player": guest}),
                             ("settings", {"remind_minutes": 5}), ("log", {})):
        answer = await (await fd.slash(mod, dm, "gm", command, **options)).wait()
        assert answer.ephemeral_texts() == [say("errors.not_here")], command
    fd.enforce_command_permissions = True
    assert await _loaded(bot, channel) == before
    assert (await bot.store.guild_settings(fd.guild_id)) == {}


# ---------------------------------------------------------------- every tool, any moment

TOOLS = ("skip", "pause", "kick", "seat", "seat", "host", "undo", "undo")
TIMED = {"remind_minutes": 30, "act_minutes": 60, "timer_end": "ai"}


async def _holds_true(fd: FakeDiscord, bot: HauntBot, channel: int,
                      users: dict[int, FakeUser], said: object) -> None:
    """What must hold after any moderator's tool: each team thread holds exactly the
    humans of its team's seats; only a private turn's holder has live buttons in their
    DMs (nobody while paused); the turn timers wait for the holder of the seat to act
    (none while paused or for an AI); the live message asks the holder of a public turn
    to move (nobody while paused: it says a moderator holds the game)."""
    table = await bot.store.load(channel)
    if table is None or table.state is None or table.id is None:
        return
    game, state = T.game_of(table), T.game_state(table)
    for team, seats in game.teams(state).items():
        thread = await bot.store.get_thread(table.id, team)
        if thread is not None:
            humans = {table.seats[s].user_id for s in seats if table.seats[s].is_human}
            assert fd.channels[thread].member_ids - {fd.bot_user.id} == humans, said
    seat = T.to_act_seat(table)
    human = seat is not None and table.seats[seat].is_human
    private = human and seat is not None and game.prompt_private(state, seat) \
        and not table.paused
    holder = table.seats[seat].user_id if human and seat is not None else None
    buttons = {uid for uid, user in users.items() for m in fd.dms(user)
               if any(c.startswith(("hk:", "hks:")) and f":{channel}:" in c
                      for c in m.custom_ids())}
    assert buttons == ({holder} if private else set()), said
    armed = await bot.store.timers_of(table.id)
    if table.paused or not human:
        assert armed == [], said
    else:
        assert armed and {(t.seat, t.user_id, t.version) for t in armed} == {
            (seat, holder, table.version)}, said
    if table.paused:
        assert to_move(latest_turn(fd, channel)) is None, said
    elif human and not private:
        assert to_move(latest_turn(fd, channel)) == holder, said


async def _tools_at_random(fd: FakeDiscord, bot: HauntBot, channel: int,
                           players: list[FakeUser], seed: int, steps: int) -> None:
    """Moves by whoever is to act (their AI's choice), between them /gm tools at random
    (a seat to anyone, even a player of the game or the member already holding it)."""
    rng = random.Random(seed)
    mod = fd.add_user("mod", manage_channels=True)
    await (await fd.slash(mod, channel, "gm", "settings", **TIMED)).wait()
    pool = [*players, fd.add_user("newbie"), fd.add_user("latecomer")]
    users = {user.id: user for user in pool}
    # The timers the settings turned on are armed by the next save: a pause and resume.
    await (await fd.slash(mod, channel, "gm", "pause")).wait()
    await (await fd.slash(mod, channel, "gm", "resume")).wait()
    done: list[object] = []
    for _ in range(steps):
        table = await bot.store.load(channel)
        if table is None:
            break
        seat = T.to_act_seat(table)
        if rng.random() < 0.6 and not table.paused and seat is not None \
                and table.seats[seat].is_human:
            holder = users[table.seats[seat].user_id or 0]
            action = T.game_of(table).ai_action(T.game_state(table), seat)
            await bot.sessions.act(channel, T.Actor(holder.id, holder.name), action,
                                   version=table.version)
            done.append(action.kind)
        else:
            tool = rng.choice(TOOLS)
            options: dict[str, object] = {}
            if tool == "pause" and table.paused:
                tool = "resume"
            humans = [users[s.user_id or 0] for s in table.seats if s.is_human]
            if tool == "kick":
                if len(humans) < 2:
                    continue
                options["player"] = rng.choice(humans)
            elif tool == "seat":
                options.update(seat=str(rng.randrange(len(table.seats)) + 1),
                               member=rng.choice(pool))
            elif tool == "host":
                options["member"] = rng.choice(pool)
            elif tool == "undo":
                options["steps"] = rng.choice((1, 2))
            answer = await (await fd.slash(mod, channel, "gm", tool, **options)).wait()
            assert len(answer.ephemeral_texts()) == 1, (tool, answer.ephemeral_texts())
            done.append((tool, answer.ephemeral_texts()[0][:60]))
        await fd.settle()
        await _holds_true(fd, bot, channel, users, done[-4:])
    if await bot.store.load(channel) is not None:
        await (await fd.slash(mod, channel, "gm", "end")).wait()


async def test_every_tool_at_any_moment_keeps_threads_dms_timers_and_replay_true(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """README: /gm seat's holder "joins its team's thread"; "A turn the game keeps secret
    (a traitor's) gets its buttons by DM"; "a paused game runs none" (timers); "The
    buttons keep working ... a button from an earlier turn says it is stale". Betrayal's
    haunt (team threads, the traitor's turn in DMs) and Cthulhu's table, each with the
    server's turn timers on, take moves and /gm tools in a random order; after each,
    the threads, the DM buttons, the timers and the live message are the seats' holders';
    Cthulhu's game, ended by a moderator, replays exactly (bot/replay.py)."""
    channel, bot, by_seat, _state = await haunt_begins(fd, start_hauntkeeper)
    await _tools_at_random(fd, bot, channel, list(dict.fromkeys(by_seat.values())), 1, 30)

    table_channel = fd.add_channel("rumble")
    players = [fd.add_user(n) for n in ("ann", "ben", "cat")]
    await open_and_start(fd, table_channel, players, "cthulhu", seed=4)
    await _tools_at_random(fd, bot, table_channel, players, 2, 30)
    ended = await bot.store.load_latest(table_channel)
    assert ended is not None and ended.id is not None
    rebuilt = replay.rebuild(ended, await bot.store.moves(ended.id),
                             await bot.store.undo_points(ended.id))
    assert rebuilt.exact, rebuilt.why
