"""A team thread's members kept without the GUILD_MEMBERS privileged intent.

The bot identifies without privileged intents (README: "No privileged intents are
needed"; bot/client.py: `Intents.default()`). Discord's List Thread Members "is
restricted according to whether the `GUILD_MEMBERS` Privileged Intent is enabled for
your application" (developers/resources/channel, List Thread Members): a bot without it
is refused, as other libraries report (discord-net/Discord.Net issue 2065: "This call
requires GUILD_MEMBERS intent"), with the 403 Missing Access (50001) Discord answers the
other endpoint that intent restricts, List Guild Members (discord-net/Discord.Net issue
1908, poshbotio/PoshBot issue 222). Get Thread Member carries no such warning: it
"Returns a thread member object for the specified user if they are a member of the
thread, returns a 404 response otherwise".

The promise kept here (tests/test_e2e_seat_changes.py: "a team's private thread holds
exactly the humans of its seats"): when a seat passes on, the one who left is taken out
of the team's thread and the new holder put in, without reading the thread's members
from Discord; after a restart too, for a thread opened before the bot kept a record of
whom it added, and leaving alone a moderator who joined the thread of their own accord.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import AsyncIterator

import asyncpg
import discord
import pytest

from bot.core.seats import Seat
from bot.games.betrayal.haunting import sides
from bot.store import Store, ThreadMembers, pg_migrations
from bot.store import migrations as sqlite_migrations
from cogs.outlet import past_holders
from tests.conftest import Backend, BotFactory
from tests.fakediscord import FakeDiscord, running_bot
from tests.test_e2e_betrayal_haunt import haunt_begins
from tests.test_store_contract import CHANNEL, HOST, SNOWFLAKE, new_table

MISSING_ACCESS, UNKNOWN_MEMBER = 50001, 10007


def _list_requests(fd: FakeDiscord, thread: int) -> list[str]:
    """List Thread Members requests (GET /channels/{thread}/thread-members, no user)."""
    return [r for r in fd.requests
            if r.startswith("GET") and r.split("?")[0].endswith(f"/{thread}/thread-members")]


# ------------------------------------------------------------------ the fake, checked


class Quiet(discord.Client):
    """A bot that does nothing of its own; the test calls discord.py's REST for it."""


@pytest.fixture
async def plain_fd() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    await server.start()
    yield server
    await server.stop()


async def test_the_fake_refuses_list_thread_members_to_a_bot_without_the_members_intent(
        plain_fd: FakeDiscord) -> None:
    """developers/resources/channel, List Thread Members: "This endpoint is restricted
    according to whether the GUILD_MEMBERS Privileged Intent is enabled for your
    application". Without it: 403 Missing Access (50001). Get Thread Member, which has
    no such restriction, answers a member (200) and a non-member ("returns a 404
    response otherwise": Unknown Member, 10007). A bot that identified with the intent
    (so its application has it: Discord closes an IDENTIFY asking for a privileged
    intent it lacks with 4014) gets the list."""
    fd = plain_fd
    hall = fd.add_channel("hall")
    owner, guest = fd.add_user("owner"), fd.add_user("guest")
    tid = fd.add_thread(hall, "talk", owner=owner)
    fd.add_thread_member(tid, fd.bot_user)
    async with running_bot(Quiet(intents=discord.Intents.default()), fd) as bot:
        thread = await bot.fetch_channel(tid)
        assert isinstance(thread, discord.Thread)
        with pytest.raises(discord.Forbidden) as refused:
            await thread.fetch_members()
        assert refused.value.status == 403 and refused.value.code == MISSING_ACCESS
        assert (await thread.fetch_member(owner.id)).id == owner.id
        with pytest.raises(discord.NotFound) as absent:
            await thread.fetch_member(guest.id)
        assert absent.value.code == UNKNOWN_MEMBER
    fd.errors.clear()

    members = discord.Intents.default()
    members.members = True
    async with running_bot(Quiet(intents=members, chunk_guilds_at_startup=False), fd) as bot:
        thread = await bot.fetch_channel(tid)
        assert isinstance(thread, discord.Thread)
        listed = {m.id for m in await thread.fetch_members()}
        assert listed == {owner.id, fd.bot_user.id}


# ------------------------------------------------------------------ the bot, end to end


async def test_a_hero_who_leaves_is_taken_out_of_the_thread_and_the_new_holder_put_in(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """tests/test_e2e_seat_changes.py: "a team's private thread holds exactly the humans
    of its seats". After the haunt a hero types /game leave (their seat goes to the AI):
    they must lose the heroes' thread (its history and what the heroes post later), though
    the bot may not list the thread's members. A moderator hands the seat to a newcomer
    with /gm seat: the newcomer is put in."""
    channel, _bot, by_seat, state = await haunt_begins(fd, start_hauntkeeper)
    [thread] = fd.threads(channel)
    heroes = sides.heroes(state)
    leaver_seat = heroes[0]
    leaver = by_seat[leaver_seat]
    assert fd.can_read(leaver, thread.id)

    left = await (await fd.slash(leaver, channel, "game", "leave")).wait()
    assert left.ephemeral_texts()
    assert not fd.can_read(leaver, thread.id), "the hero who left still reads the thread"

    mod, newbie = fd.add_user("mod", manage_channels=True), fd.add_user("newbie")
    seated = await (await fd.slash(mod, channel, "gm", "seat", seat=str(leaver_seat + 1),
                                   member=newbie)).wait()
    assert seated.ephemeral_texts()
    assert fd.can_read(newbie, thread.id), "the new holder is not in the thread"
    assert fd.channels[thread.id].member_ids - {fd.bot_user.id} == {
        newbie.id if s == leaver_seat else by_seat[s].id for s in heroes}
    assert _list_requests(fd, thread.id) == []
    assert not [e for e in fd.errors if e[1] == 403], fd.errors


async def test_a_thread_from_before_the_record_is_put_right_after_a_restart(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """The same promise for a heroes' thread opened by an earlier release, which kept no
    record of whom it put in, seen by a restarted bot: a kicked hero is taken out, the
    other heroes stay, and a moderator who joined the thread of their own accord stays
    (the bot never put them in). Then, with the record whole: a hero who left the thread
    themselves is put back when a seat passes on (asked with Get Thread Member), and the
    newcomer handed the kicked seat is put in."""
    channel, bot, by_seat, state = await haunt_begins(fd, start_hauntkeeper)
    [thread] = fd.threads(channel)
    heroes = sides.heroes(state)
    traitor = sides.traitor(state)
    assert traitor is not None
    mod = fd.add_user("mod", manage_channels=True)
    fd.add_thread_member(thread.id, mod)  # a moderator looks in, of their own accord
    await bot.store.execute("DELETE FROM thread_members")  # as an earlier release left it
    await bot.store.execute("UPDATE team_threads SET members_kept = 0")
    table = await bot.store.load(channel)
    assert table is not None and table.id is not None
    assert not (await bot.store.thread_members(table.id, thread.id)).whole

    bot = await start_hauntkeeper()  # a restart: nothing of the thread in memory
    kicked_seat, stayer_seat = heroes[0], heroes[1]
    kicked, stayer = by_seat[kicked_seat], by_seat[stayer_seat]
    done = await (await fd.slash(mod, channel, "gm", "kick", player=kicked)).wait()
    assert "played by the AI" in done.ephemeral_texts()[-1]
    members = fd.channels[thread.id].member_ids
    assert not fd.can_read(kicked, thread.id), "the kicked hero still reads the thread"
    assert fd.can_read(mod, thread.id), "the moderator who joined was taken out"
    assert members == {fd.bot_user.id, mod.id} | {by_seat[s].id for s in heroes
                                                 if s != kicked_seat}
    assert not fd.can_read(by_seat[traitor], thread.id)
    assert (await bot.store.thread_members(table.id, thread.id)) == ThreadMembers(
        frozenset(by_seat[s].id for s in heroes if s != kicked_seat), True)

    fd.channels[thread.id].member_ids.discard(stayer.id)  # left the thread themselves
    newbie = fd.add_user("newbie")
    seated = await (await fd.slash(mod, channel, "gm", "seat", seat=str(kicked_seat + 1),
                                   member=newbie)).wait()
    assert seated.ephemeral_texts()
    assert fd.can_read(newbie, thread.id) and fd.can_read(stayer, thread.id)
    assert not fd.can_read(kicked, thread.id) and fd.can_read(mod, thread.id)
    assert _list_requests(fd, thread.id) == []
    assert not [e for e in fd.errors if e[1] == 403], fd.errors


def test_the_past_holders_are_the_seats_and_whoever_took_or_was_given_one() -> None:
    """Who may be in a thread opened before the record: whoever ever held a seat the
    table knows of. A moderator who only used moderators' tools is not one (their
    joining a thread is theirs to undo)."""
    ann, ben, cat, dan, mod = (SNOWFLAKE + n for n in range(1, 6))
    table = new_table(seats=[Seat("Ann", ann), Seat("Ben", ben, ai=True), Seat("AI", None,
                                                                            ai=True)])
    actions = [(1, ann, {"kind": "lobby.open", "args": {"game": "betrayal"}}),
               (2, cat, {"kind": "lobby.join", "args": {}}),
               (3, mod, {"kind": "gm.seat", "args": {"seat": 2, "user": str(dan)}}),
               (4, mod, {"kind": "gm.kick", "args": {"user": cat}}),
               (5, mod, {"kind": "gm.pause", "args": {}}),
               (6, None, {"kind": "move", "args": {"to": "hall"}}),
               (7, ann, None)]
    assert past_holders(table, actions) == {ann, ben, cat, dan}


# ------------------------------------------------------------------ the store's record


async def test_the_record_of_thread_members_is_kept_per_thread_and_survives_reopening(
        any_store: Store, backend: Backend) -> None:
    """The record another process (PostgreSQL) or a restarted bot reads: whom the bot
    put in each team thread, replaced whole when a seat passes on. A thread the bot
    opens starts with a whole (empty) record; a thread the store does not know has
    none."""
    game = await any_store.create(new_table(), [], HOST, None)
    other = await any_store.create(new_table(channel=CHANNEL + 1), [], HOST, None)
    assert game.id is not None and other.id is not None
    heroes, theirs = SNOWFLAKE + 1001, SNOWFLAKE + 2001
    ann, ben, cat = SNOWFLAKE + 1, SNOWFLAKE + 2, SNOWFLAKE + 3
    assert await any_store.thread_members(game.id, heroes) == ThreadMembers(frozenset(), False)
    await any_store.set_thread(game.id, "heroes", heroes)
    await any_store.set_thread(other.id, "heroes", theirs)
    assert await any_store.thread_members(game.id, heroes) == ThreadMembers(frozenset(), True)
    await any_store.add_thread_member(game.id, heroes, ann)
    await any_store.add_thread_member(game.id, heroes, ben)
    await any_store.add_thread_member(game.id, heroes, ann)  # a second time: kept as one
    await any_store.add_thread_member(other.id, theirs, cat)
    assert await any_store.thread_members(game.id, heroes) == ThreadMembers(
        frozenset({ann, ben}), True)
    await any_store.set_thread_members(game.id, heroes, [ben, cat, cat])
    again = await backend.open()
    try:
        assert await again.thread_members(game.id, heroes) == ThreadMembers(
            frozenset({ben, cat}), True)
        assert await again.thread_members(other.id, theirs) == ThreadMembers(
            frozenset({cat}), True)
        await again.set_thread_members(game.id, heroes, [])
        assert await again.thread_members(game.id, heroes) == ThreadMembers(frozenset(), True)
    finally:
        await again.close()


def _record_step(migrations: list[str]) -> int:
    """How many migration steps come before the one that made the record."""
    return next(i for i, sql in enumerate(migrations) if "CREATE TABLE thread_members" in sql)


def _undo_from_the_record(migrations: list[str]) -> list[str]:
    """SQL taking the schema back to before the record's step: that step's own undo,
    then the tables and columns every later step made (they run again when the store
    opens), newest first."""
    undo = ["DROP TABLE thread_members", "ALTER TABLE team_threads DROP COLUMN members_kept"]
    for sql in reversed(migrations[_record_step(migrations) + 1:]):
        undo += [f"DROP TABLE {t}" for t in re.findall(r"CREATE TABLE (\w+)", sql)]
        undo += [f"ALTER TABLE {t} DROP COLUMN {c}"
                 for t, c in re.findall(r"ALTER TABLE (\w+) ADD COLUMN (\w+)", sql)]
    return undo


async def _as_before_the_record(backend: Backend) -> None:
    """The store's data as the release before the record's migration step left it."""
    if backend.server is None:
        undo = _undo_from_the_record(sqlite_migrations.MIGRATIONS)
        with sqlite3.connect(backend.target) as db:
            for sql in undo:
                db.execute(sql)
            db.execute(f"PRAGMA user_version = {_record_step(sqlite_migrations.MIGRATIONS)}")
        db.close()
        return
    conn = await asyncpg.connect(backend.target)
    try:
        for sql in _undo_from_the_record(pg_migrations.MIGRATIONS):
            await conn.execute(sql)
        await conn.execute("UPDATE schema_version SET version = $1",
                           _record_step(pg_migrations.MIGRATIONS))
    finally:
        await conn.close()


async def test_a_team_thread_from_before_the_record_is_not_taken_for_whole(
        any_store: Store, backend: Backend) -> None:
    """A thread an earlier release opened and put players in: after the migration its
    record is not whole (the bot then takes out every past holder the team does not
    want), until the bot has put it right once; what it puts in meanwhile is recorded."""
    game = await any_store.create(new_table(), [], HOST, None)
    assert game.id is not None
    heroes, ann = SNOWFLAKE + 1001, SNOWFLAKE + 1
    await any_store.set_thread(game.id, "heroes", heroes)
    await any_store.close()
    steps = {"sqlite": len(sqlite_migrations.MIGRATIONS),
             "postgres": len(pg_migrations.MIGRATIONS)}[backend.name]
    await _as_before_the_record(backend)
    migrated = await backend.open()
    try:
        assert await migrated.schema_version() == steps
        assert await migrated.get_thread(game.id, "heroes") == heroes
        assert await migrated.thread_members(game.id, heroes) == ThreadMembers(
            frozenset(), False)
        await migrated.add_thread_member(game.id, heroes, ann)
        assert await migrated.thread_members(game.id, heroes) == ThreadMembers(
            frozenset({ann}), False)
        await migrated.set_thread_members(game.id, heroes, [ann])
        assert (await migrated.thread_members(game.id, heroes)).whole
    finally:
        await migrated.close()
