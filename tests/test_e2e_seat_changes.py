"""Seats changing hands in a running game, and what each seat may know, through the real
discord.py and the fake Discord. The promise (README, "Secrets"): the rules engine tags
every event with its audience and delivery routes by it; hidden information never shows
in the channel, and a team's private thread holds exactly the humans of its seats."""

from __future__ import annotations

import re
from typing import Any

from bot import table as T
from bot.client import HauntBot
from bot.discord_limits import DISCORD_CONTENT_MAX
from bot.games.betrayal import GAME
from bot.games.betrayal.context import explorer_name
from bot.games.betrayal.haunt_roll import chart, chart_haunt
from bot.games.betrayal.haunting import flow, sides
from bot.games.betrayal.state import BetrayalState
from bot.games.betrayal.traitor import choose_traitor
from bot.locales import CHINESE, ENGLISH
from tests.betrayal_haunt_helpers import started
from tests.conftest import BotFactory
from tests.e2e_helpers import latest_turn, open_and_start
from tests.fakediscord import FakeDiscord, FakeUser
from tests.test_betrayal_engine_traits import run_steps
from tests.test_e2e_betrayal_haunt import dm_prompt, grown_house, haunt_begins

CJK = re.compile(r"[\u4e00-\u9fff]")


def _another_traitor(state: BetrayalState, first: int) -> tuple[int, str, str]:
    """An omen and a room of the chart whose haunt makes another seat than `first` the
    traitor when the explorer to move reveals it."""
    for omen, rooms in sorted(chart().items()):
        for room in sorted(rooms):
            haunt = chart_haunt(state, omen, room)
            if haunt is None:
                continue
            seat = choose_traitor(state, haunt.key, revealer=state.turn.seat)
            if seat is not None and seat != first:
                return seat, omen, room
    raise AssertionError("no haunt of the chart makes another traitor")


async def test_an_undone_haunt_begun_again_with_another_traitor_keeps_the_threads_true(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """docs/architecture.md, "Audiences and secrets": "Delivery routes by audience only";
    bot/table_seats.py's `split_teams`: "No one may hold seats on two teams (they would read
    both secret books)". A moderator's /gm undo takes the haunt back; played on
    differently, another explorer turns traitor. The heroes' thread must then hold the
    heroes of the new haunt only: the new traitor, a hero the first time, must not stay
    in it and read the heroes' book there."""
    channel, bot, by_seat, state = await haunt_begins(fd, start_hauntkeeper)
    first = sides.traitor(state)
    assert first is not None
    [thread] = fd.threads(channel)
    mod = fd.add_user("mod", manage_channels=True)
    undone = await (await fd.slash(mod, channel, "gm", "undo")).wait()
    assert undone.ephemeral_texts()[-1].startswith("mod undid 1 move")
    table = await bot.store.load(channel)
    assert table is not None and table.state is not None
    before = GAME.load(table.state)
    assert before.haunt is None
    # Played on differently: the omen that sets off the haunt is another, found in
    # another room, and its haunt's traitor is a hero of the first haunt.
    second, omen, room = _another_traitor(before, first)
    before.turn.omen, before.turn.omen_room = omen, room
    table.state = GAME.dump(before)
    await bot.store.save(table, [], expected_version=table.version, actor_id=None, action=None)
    mover = by_seat[before.turn.seat]
    ended = await (await fd.slash(mover, channel, "betrayal", "end-turn")).wait()
    assert ended.ephemeral_texts() == ["Done — the map is below."]
    saved = await bot.store.load(channel)
    assert saved is not None and saved.state is not None
    again = GAME.load(saved.state)
    assert sides.traitor(again) == second

    heroes = {by_seat[s].id for s in sides.heroes(again)}
    assert [t.id for t in fd.threads(channel)] == [thread.id]  # the game keeps its thread
    assert sum("Secrets of Survival" in m.text for m in fd.channel_messages(thread.id)) == 2
    assert fd.channels[thread.id].member_ids - {fd.bot_user.id} == heroes
    assert not fd.can_read(by_seat[second], thread.id) and fd.can_read(by_seat[first],
                                                                       thread.id)
    assert any(flow.book_text(again, "traitor") in m.text for m in fd.dms(by_seat[second]))


async def test_a_seat_handed_on_speaks_to_its_new_holder_in_their_language(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """bot/delivery.py: "a whisper in its player's own (`Seat.language`)"; bot/languages.py:
    "The language a seat's player reads their DMs in (English until known)". A Chinese
    player's seat handed by /gm seat to a member the bot has not heard from yet: the
    seat's secrets reach the new holder in English, not in the old holder's Chinese."""
    channel = fd.add_channel("table")
    host, guest = fd.add_user("host"), fd.add_user("guest", locale="zh-TW")
    mod, newbie = fd.add_user("mod", manage_channels=True), fd.add_user("newbie")
    bot = await start_hauntkeeper()
    await open_and_start(fd, channel, [host, guest], "cthulhu", seed=21)
    table = await bot.store.load(channel)
    assert table is not None
    seat = table.seats_of(guest.id)[0]
    assert table.seats[seat].language == CHINESE  # heard from the guest's clicks
    handed = await (await fd.slash(mod, channel, "gm", "seat", seat=str(seat + 1),
                                   member=newbie)).wait()
    assert "newbie" in handed.ephemeral_texts()[-1]
    secret = [m.text for m in fd.dms(newbie)]
    assert secret and not any(CJK.search(text) for text in secret), secret
    assert any("Rumble 1 of" in text for text in secret), secret
    table = await bot.store.load(channel)
    assert table is not None and table.seats[seat].language in (None, ENGLISH)


async def test_the_traitors_seat_handed_on_brings_its_book_and_turns_to_the_new_holder(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """bot/table_moderation.py's `seat`: "The seat keeps its character and secrets; the new holder
    reads them at once". The traitor's seat, handed by /gm seat: the new holder reads the
    Traitor's Tome by DM and through My secrets (/secret), is kept out of the heroes'
    thread, and gets the traitor's private turns in DMs; the old holder gets nothing new
    of the seat, and /secret tells them they hold none. Neither /game log nor /game status
    shows the tome."""
    channel, bot, by_seat, state = await haunt_begins(fd, start_hauntkeeper)
    traitor = sides.traitor(state)
    assert traitor is not None
    old = by_seat[traitor]
    tome = flow.book_text(state, "traitor")
    assert any(tome in m.text for m in fd.dms(old))
    [thread] = fd.threads(channel)
    mod, newbie = fd.add_user("mod", manage_channels=True), fd.add_user("newbie")
    old_dms = len(fd.dms(old))

    handed = await (await fd.slash(mod, channel, "gm", "seat", seat=str(traitor + 1),
                                   member=newbie)).wait()
    assert "newbie" in handed.ephemeral_texts()[-1]
    assert any(tome in m.text for m in fd.dms(newbie))
    mine = await (await fd.slash(newbie, channel, "secret")).wait()
    assert mine.response is not None and mine.response.ephemeral
    assert "Traitor's Tome" in mine.response.text
    theirs = await (await fd.slash(old, channel, "secret")).wait()
    assert "Traitor's Tome" not in "\n".join(theirs.ephemeral_texts())
    assert not fd.can_read(newbie, thread.id)

    # Played on until the traitor's seat is to act: its turn reaches newbie's DMs only.
    await play_until_turn_of(fd, bot, channel, by_seat, traitor)
    assert dm_prompt(fd, newbie).custom_ids()
    assert len(fd.dms(old)) == old_dms, [m.text for m in fd.dms(old)[old_dms:]]
    for path in (("log",), ("status",)):
        read = await (await fd.slash(by_seat[sides.heroes(state)[0]], channel, "game",
                                     *path)).wait()
        assert read.ephemeral_texts() and not any(
            "Traitor's Tome" in t for t in read.ephemeral_texts()), path


async def test_a_private_choice_waiting_passes_with_its_seat(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """docs/architecture.md: "An option whose label would reveal a hidden card is
    `private`: the public message shows one "choose privately" button instead, and the
    choices go to the chooser alone." A Crystal Ball's look (seed 003: search the deck,
    put the card you choose on top) waits for its seat when a moderator hands the seat
    to a newcomer: the newcomer reads and makes the choice and hears the card on top;
    the old holder can neither read the choices nor hear the card; the channel, /game
    log, /game status and the board's alt text never name it."""
    channel = fd.add_channel("crystal")
    users = [fd.add_user(n) for n in ("ann", "ben", "cat")]
    mod, newbie = fd.add_user("mod", manage_channels=True), fd.add_user("newbie")
    bot, state, seat, old = await crystal_ball_waiting(fd, start_hauntkeeper, channel, users)
    cards = list(state.pending.labels)
    old_dms = len(fd.dms(old))

    await (await fd.slash(mod, channel, "gm", "seat", seat=str(seat + 1), member=newbie)).wait()
    live = latest_turn(fd, channel)
    assert not any(card in live.text for card in cards)
    reveal = next(c for c in live.custom_ids() if "view.choices" in c)
    refused = await (await fd.click(old, live, reveal)).wait()
    assert not any(card in t for t in refused.ephemeral_texts() for card in cards)
    assert all(not m.flat_components() for m in refused.messages if m.ephemeral)
    shown = (await (await fd.click(newbie, live, reveal)).wait()).messages[-1]
    assert shown.ephemeral
    [menu] = [c for c in shown.flat_components() if c["type"] == 3]
    assert [o["label"] for o in menu["options"]] == cards
    top = cards[-1]
    await (await fd.select(newbie, shown, str(menu["custom_id"]),
                           [menu["options"][-1]["value"]])).wait()
    saved = await bot.store.load(channel)
    assert saved is not None and saved.state is not None
    after = GAME.load(saved.state)
    assert after.pending is None or after.pending.kind != "crystal_ball_card"
    top_key = after.decks["item"][0]
    assert any(top in m.text for m in fd.dms(newbie))
    assert len(fd.dms(old)) == old_dms, [m.text for m in fd.dms(old)[old_dms:]]

    public = [m.text for m in fd.channel_messages(channel) if not m.ephemeral]
    assert not any(top in text for text in public)
    for path in (("log",), ("status",)):
        read = await (await fd.slash(users[(seat + 1) % 3], channel, "game", *path)).wait()
        assert read.ephemeral_texts() and not any(top in t for t in read.ephemeral_texts())
    alt = await bot.sessions.board_alt(saved)
    assert top not in alt and top_key not in alt


async def traitors_turn(fd: FakeDiscord, start: BotFactory
                        ) -> tuple[int, HauntBot, dict[int, FakeUser], int]:
    """A haunt begun, then played on by each seat's AI choice (as its holder) until the
    traitor's private turn waits: the channel, the bot, who holds each seat, the traitor."""
    channel, bot, by_seat, state = await haunt_begins(fd, start)
    traitor = sides.traitor(state)
    assert traitor is not None
    await play_until_turn_of(fd, bot, channel, by_seat, traitor)
    return channel, bot, by_seat, traitor


async def play_until_turn_of(fd: FakeDiscord, bot: HauntBot, channel: int,
                             by_seat: dict[int, FakeUser], wanted: int) -> None:
    """Each other seat plays its AI's choice (as its holder) until `wanted` is to act."""
    seat: int | None = None
    for _ in range(200):
        table = await bot.store.load(channel)
        assert table is not None and table.state is not None
        now = GAME.load(table.state)
        seat = GAME.to_act(now)
        if seat == wanted or seat is None:
            break
        await bot.sessions.act(channel, T.Actor(by_seat[seat].id, by_seat[seat].name),
                               GAME.ai_action(now, seat), version=table.version)
    await fd.settle()
    assert seat == wanted


async def test_a_traitor_who_leaves_mid_turn_leaves_the_seat_to_the_ai(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """bot/table_seats.py's `hand_to_ai`: "The seat stays (secrets and score stay with it); the
    AI plays it from now on." The traitor leaves while the traitor's seat is to act: the
    AI plays the seat at once and the game goes on to the heroes' turns; the buttons left
    in the old holder's DMs play nothing, and nothing more of the seat reaches them."""
    channel, bot, by_seat, traitor = await traitors_turn(fd, start_hauntkeeper)
    old = by_seat[traitor]
    prompt = dm_prompt(fd, old)
    button = next(c for c in prompt.custom_ids() if c.startswith(("hk:", "hks:")))
    seen = len(fd.dms(old))

    left = await (await fd.slash(old, channel, "game", "leave")).wait()
    assert left.ephemeral_texts()
    table = await bot.store.load(channel)
    assert table is not None and table.state is not None and table.seats[traitor].ai
    after = GAME.load(table.state)
    assert GAME.to_act(after) != traitor or after.over  # the AI played the seat's turn
    assert table.version > 0
    before = table.version
    assert not fd.message(prompt.id).custom_ids()  # the DM's buttons are taken away
    pressed = await (await fd.forge(old, prompt, button)).wait()  # kept by a client
    assert pressed.ephemeral_texts()  # refused, in words
    again = await bot.store.load(channel)
    assert again is not None and again.version == before
    assert len(fd.dms(old)) == seen, [m.text for m in fd.dms(old)[seen:]]


async def test_my_secrets_shows_the_whole_of_a_long_secret(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """The Traitor's Tome of All Living Things Must Abide: "You know every weakness of
    every form It can take (they are told to you alone, and /secret shows them)". The
    tome and the weaknesses run past one Discord message: /secret and My secrets answer
    with all of it, in as many private messages as it takes, not the first 2,000
    characters (a seat handed on mid-haunt reads its secrets there)."""
    channel = fd.add_channel("abide")
    users = [fd.add_user(n) for n in ("ann", "ben", "cat", "dan")]
    bot = await start_hauntkeeper()
    await open_and_start(fd, channel, users, "betrayal", seed=5)
    table = await bot.store.load(channel)
    assert table is not None and table.state is not None
    state, _ = started("all_living_things_must_abide", 4, 1)
    state.players = [s.name for s in table.seats]
    state.ai = [False] * 4
    table.state = GAME.dump(state)
    await bot.store.save(table, [], expected_version=table.version, actor_id=None, action=None)
    traitor = sides.traitor(state)
    assert traitor is not None
    holder = next(u for u in users if u.id == table.seats[traitor].user_id)
    whole = GAME.private_view(state, traitor)
    assert len(whole) > DISCORD_CONTENT_MAX
    last = whole.splitlines()[-1]

    typed = await (await fd.slash(holder, channel, "secret")).wait()
    assert typed.ephemeral_texts() and all(len(t) <= DISCORD_CONTENT_MAX
                                           for t in typed.ephemeral_texts())
    assert last in "\n".join(typed.ephemeral_texts())
    live = latest_turn(fd, channel)
    mine = next(c for c in live.custom_ids() if "view.secret" in c)
    clicked = await (await fd.click(holder, live, mine)).wait()
    assert last in "\n".join(clicked.ephemeral_texts()), clicked.ephemeral_texts()


async def test_the_traitors_seat_handed_on_in_the_middle_of_its_private_turn(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """bot/games/betrayal/rules.py: "The traitor plays from the DM once the haunt has
    begun". The seat passes while its private turn waits: the turn's buttons reach the
    new holder's DMs, the old holder's DM buttons are taken away, and a click the old
    holder's client kept plays nothing."""
    channel, bot, by_seat, traitor = await traitors_turn(fd, start_hauntkeeper)
    old = by_seat[traitor]
    prompt = dm_prompt(fd, old)
    button = next(c for c in prompt.custom_ids() if c.startswith(("hk:", "hks:")))
    mod, newbie = fd.add_user("mod", manage_channels=True), fd.add_user("newbie")
    await (await fd.slash(mod, channel, "gm", "seat", seat=str(traitor + 1),
                          member=newbie)).wait()
    await fd.settle()
    assert dm_prompt(fd, newbie).custom_ids()
    assert not fd.message(prompt.id).custom_ids()
    table = await bot.store.load(channel)
    assert table is not None
    before = table.version
    pressed = await (await fd.forge(old, prompt, button)).wait()
    assert pressed.ephemeral_texts()
    after = await bot.store.load(channel)
    assert after is not None and after.version == before


async def test_one_person_on_two_seats_never_reads_the_other_sides_book(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """RULES.md: seed 003 plays two explorers per person when few play; bot/table_seats.py's
    `split_teams`: "No one may hold seats on two teams (they would read both secret books)".
    A member holds two explorers (the second handed by /gm seat); My secrets shows both,
    each under its explorer. The haunt makes one of them the traitor: the other passes to a
    hero's player, and the traitor's player reads neither the heroes' thread nor their book,
    only the Traitor's Tome, and My secrets shows the traitor's seat alone."""
    channel = fd.add_channel("haunted")
    users = [fd.add_user(n) for n in ("ann", "ben", "cat", "dan")]
    mod = fd.add_user("mod", manage_channels=True)
    bot = await start_hauntkeeper()
    await open_and_start(fd, channel, users, "betrayal", seed=5)
    table = await bot.store.load(channel)
    assert table is not None and table.state is not None
    table.state = GAME.dump(grown_house(GAME.load(table.state)))
    await bot.store.save(table, [], expected_version=table.version, actor_id=None, action=None)
    state = GAME.load(table.state)
    by_seat = {i: next(u for u in users if u.id == s.user_id) for i, s in enumerate(table.seats)}
    ox = next(i for i, e in enumerate(state.explorers) if e.key == "ox_bellows")  # the traitor
    mover = state.turn.seat
    second = next(i for i in range(4) if i not in (ox, mover))
    two = by_seat[ox]
    await (await fd.slash(mod, channel, "gm", "kick", player=by_seat[second])).wait()
    await (await fd.slash(mod, channel, "gm", "seat", seat=str(second + 1), member=two)).wait()
    table = await bot.store.load(channel)
    assert table is not None and table.seats_of(two.id) == sorted([ox, second])
    both = await (await fd.slash(two, channel, "secret")).wait()
    text = "\n".join(both.ephemeral_texts())
    names = [explorer_name(state, s) for s in (ox, second)]
    assert all(name in text for name in names), text

    ended = await (await fd.slash(by_seat[mover], channel, "betrayal", "end-turn")).wait()
    assert ended.ephemeral_texts() == ["Done — the map is below."]
    saved = await bot.store.load(channel)
    assert saved is not None and saved.state is not None
    haunted = GAME.load(saved.state)
    assert sides.traitor(haunted) == ox
    assert saved.seats_of(two.id) == [ox]
    taker = saved.seats[second].user_id
    assert taker not in (None, two.id) and not saved.seats[second].ai
    [thread] = fd.threads(channel)
    assert not fd.can_read(two, thread.id) and fd.can_read(fd.users[taker or 0], thread.id)
    assert any(flow.book_text(haunted, "traitor") in m.text for m in fd.dms(two))
    assert not any("Secrets of Survival" in m.text for m in fd.dms(two))
    mine = "\n".join((await (await fd.slash(two, channel, "secret")).wait()).ephemeral_texts())
    assert names[0] in mine and names[1] not in mine and "Secrets of Survival" not in mine


async def crystal_ball_waiting(fd: FakeDiscord, start_hauntkeeper: BotFactory, channel: int,
                               users: list[FakeUser]) -> tuple[Any, BetrayalState, int, FakeUser]:
    """A started Betrayal game (seed 2) whose seat to act waits on a Crystal Ball's
    private look into the item deck, saved as the table's state: the bot, the state,
    the seat and its player."""
    bot = await start_hauntkeeper()
    await open_and_start(fd, channel, users, "betrayal", seed=2)
    table = await bot.store.load(channel)
    assert table is not None and table.state is not None
    state = GAME.load(table.state)
    seat = state.turn.seat
    chooser = next(u for u in users if u.id == table.seats[seat].user_id)
    state, _ = run_steps(state, [{"_crystal_ball": {"deck": "item"}}], seat=seat)
    assert state.pending is not None and state.pending.private and state.pending.seat == seat
    table.state = GAME.dump(state)
    await bot.store.save(table, [], expected_version=table.version, actor_id=None, action=None)
    return bot, state, seat, chooser
