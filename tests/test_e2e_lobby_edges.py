"""Opening and starting games at their edges, as players meet them through the real
discord.py and the fake Discord: `/game new`'s options typed rather than picked,
`/game join pick:` typed, `/game status` and `/game rules` in a lobby, a lobby asked
for in a channel that already has a game, and one person hosting lobbies in two
channels."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bot import games
from bot.locales import CHINESE, speaking
from bot.paths import DATA
from bot.store import ACTIVE, LOBBY, OVER
from bot.texts import say
from tests.conftest import BotFactory
from tests.e2e_helpers import unlinked
from tests.fakediscord import FakeDiscord, FakeMessage
from tests.helpers.pseudo_mirror import MARK, marked


@pytest.fixture
def chinese(tmp_path: Path) -> Iterator[None]:
    with marked(tmp_path, DATA / "texts.yaml", DATA / "cthulhu" / "texts.yaml"):
        yield


def _fields(message: FakeMessage) -> dict[str, str]:
    return {f["name"]: f["value"] for e in message.embeds for f in e.get("fields", [])}


async def test_a_lobbys_status_reads_in_the_askers_language(
        fd: FakeDiscord, start_hauntkeeper: BotFactory, chinese: None) -> None:
    """README, Languages: "Each player reads ... their private answers (refusals,
    /secret, /game status) ... in their own Discord app's language"; the lobby itself is
    public, in the server's (English here)."""
    channel = fd.add_channel("haunted")
    ann, bo = fd.add_user("ann", locale="en-US"), fd.add_user("bo", locale="zh-TW")
    await start_hauntkeeper()
    opened = await (await fd.slash(ann, channel, "game", "new", game="cthulhu")).wait()
    assert opened.response is not None and MARK not in opened.response.text
    for user, chinese_reader in ((bo, True), (ann, False)):
        status = await (await fd.slash(user, channel, "game", "status")).wait()
        shown = status.response
        assert shown is not None and shown.ephemeral
        assert (MARK in shown.text) is chinese_reader, shown.text
        with speaking(CHINESE if chinese_reader else "en"):
            assert say("lobby.title", game=games.get("cthulhu").title) in shown.text


async def test_a_typed_explorer_name_takes_the_seat_with_that_explorer(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """README: "`/game join pick:` take a seat with a pick, e.g. your Betrayal
    explorer". Typed rather than picked from the list, the explorer's name (or a part
    only one explorer has) is that explorer, as `/game new` reads its typed options; a
    part several share is refused, and nobody is seated by it."""
    bot = await start_hauntkeeper()
    channel = fd.add_channel("hill")
    ann, bo, cy = fd.add_user("ann"), fd.add_user("bo"), fd.add_user("cy")
    await (await fd.slash(ann, channel, "game", "new", game="betrayal")).wait()
    await (await fd.slash(bo, channel, "game", "join", pick="Ox Bellows")).wait()
    await (await fd.slash(cy, channel, "game", "join", pick="zoe")).wait()
    table = await bot.store.load(channel)
    assert table is not None
    assert [s.picks.get("explorer") for s in table.seats] == [None, "ox_bellows",
                                                               "zoe_ingstrom"]
    vague = await (await fd.slash(ann, channel, "game", "join", pick="blue")).wait()
    assert vague.ephemeral_texts() and "blue" in vague.ephemeral_texts()[-1]
    after = await bot.store.load(channel)
    assert after is not None and after.version == table.version


@pytest.mark.parametrize(("typed", "seat"), [("1", 1), ("4", 4), ("7", 7),
                                             ("seat 2", 2)])
async def test_a_typed_youngest_seat_is_that_seat(
        fd: FakeDiscord, start_hauntkeeper: BotFactory, typed: str, seat: int) -> None:
    """Seed 001, Setup step 9: "Give the youngest player the dice to start the game";
    RULES.md: "the host names the youngest player in the lobby". The lobby numbers its
    seats from 1 and so does the option ("Seat 1 is the youngest"): `youngest:1` typed
    is seat 1, as `youngest:7` is seat 7, and that seat's player rolls first."""
    bot = await start_hauntkeeper()
    channel = fd.add_channel("derry")
    ann = fd.add_user("ann")
    opened = await (await fd.slash(ann, channel, "game", "new", game="evilbelow",
                                   youngest=typed)).wait()
    assert opened.response is not None
    label = games.get("evilbelow").option_label("youngest").capitalize()
    assert _fields(opened.response).get(label) == f"Seat {seat} is the youngest"
    add_ai = next(c for c in opened.response.custom_ids() if "lobby.ai" in c)
    for _ in range(6):
        await (await fd.click(ann, opened.response, add_ai)).wait()
    await (await fd.slash(ann, channel, "game", "start")).wait()
    # Six AI seats may lose the game in their opening turns, before ann's first: the
    # starter is kept either way.
    table = await bot.store.load(channel) or await bot.store.load_last_over(channel)
    assert table is not None and table.status in (ACTIVE, OVER) and table.state is not None
    assert games.get("evilbelow").load(table.state).starter == seat - 1


async def test_a_second_lobby_in_a_channel_is_refused_and_says_which_game(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """One game per channel (README: "Games live ... one per channel"): `/game new`
    where a lobby or a game is open is refused, naming the game, its channel and its
    host, and changes nothing."""
    bot = await start_hauntkeeper()
    channel = fd.add_channel("one")
    ann, bo = fd.add_user("ann"), fd.add_user("bo")
    await (await fd.slash(ann, channel, "game", "new", game="betrayal")).wait()
    before = await bot.store.load(channel)
    words = {"game": games.get("betrayal").title, "channel": f"<#{channel}>",
             "host": f"<@{ann.id}>"}
    again = await (await fd.slash(bo, channel, "game", "new", game="cthulhu")).wait()
    assert unlinked(again.ephemeral_texts()[-1]) == say("errors.game_exists_lobby", **words)
    for user in (bo, fd.add_user("cy")):
        await (await fd.slash(user, channel, "game", "join")).wait()
    await (await fd.slash(ann, channel, "game", "start")).wait()
    again = await (await fd.slash(bo, channel, "game", "new", game="cthulhu")).wait()
    assert unlinked(again.ephemeral_texts()[-1]) == say("errors.game_exists_play", **words)
    after = await bot.store.load(channel)
    assert before is not None and after is not None and after.id == before.id
    assert after.kind == "betrayal"


async def test_one_person_hosts_lobbies_in_two_channels_apart(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """Each channel has its own table: the same host may open one in each, and what is
    done in one (a join, a start, /game status, /game rules) is that channel's alone."""
    bot = await start_hauntkeeper()
    first, second = fd.add_channel("first"), fd.add_channel("second")
    ann, bo = fd.add_user("ann"), fd.add_user("bo")
    await (await fd.slash(ann, first, "game", "new", game="cthulhu")).wait()
    await (await fd.slash(ann, second, "game", "new", game="betrayal",
                          expansion="neibolt")).wait()
    await (await fd.slash(bo, first, "game", "join")).wait()
    await (await fd.slash(ann, first, "game", "start")).wait()
    one, two = await bot.store.load(first), await bot.store.load(second)
    assert one is not None and two is not None
    assert one.status == ACTIVE and [s.user_id for s in one.seats] == [ann.id, bo.id]
    assert two.status == LOBBY and [s.user_id for s in two.seats] == [ann.id]
    assert two.host_id == ann.id and two.options.get("expansion") == "neibolt"
    status = await (await fd.slash(bo, second, "game", "status")).wait()
    assert status.response is not None and "1/6 seated" in status.response.text
    rules = await (await fd.slash(bo, second, "game", "rules", topic="encounters")).wait()
    topics = games.get("betrayal").rules_topics({"expansion": "neibolt"})
    assert rules.ephemeral_texts()[0].startswith("**")
    assert topics["encounters"][:40] in unlinked(rules.ephemeral_texts()[0])


async def test_a_finished_games_lobby_message_says_it_ended(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """The lobby message stays in the channel's history above the game: once the game
    is over it must not go on saying "in play" (its title reads "ended", no buttons)."""
    bot = await start_hauntkeeper()
    channel = fd.add_channel("lobby-after")
    ann, bo = fd.add_user("ann"), fd.add_user("bo")
    opened = await (await fd.slash(ann, channel, "game", "new", game="cthulhu",
                                   seed=5)).wait()
    assert opened.response is not None
    await (await fd.slash(bo, channel, "game", "join")).wait()
    await (await fd.slash(ann, channel, "game", "start")).wait()
    table = await bot.store.load(channel)
    assert table is not None and table.status == ACTIVE
    game = games.get("cthulhu").title
    lobby = fd.message(opened.response.id)
    assert lobby.embeds[0]["title"] == say("lobby.title_active", game=game)
    await (await fd.slash(ann, channel, "game", "end")).wait()
    await fd.settle()
    lobby = fd.message(opened.response.id)
    assert lobby.embeds[0]["title"] == say("lobby.title_ended", game=game)
    assert lobby.custom_ids() == []


async def test_game_new_from_a_dm_opens_no_lobby(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """README: the `/game` commands belong to a server channel (Discord hides `/game new`
    in DMs). A client with an old command list may still send it from a DM: it is told
    the command is not for here, and no lobby opens in the DM."""
    bot = await start_hauntkeeper()
    ann = fd.add_user("ann")
    fd.enforce_command_permissions = False  # an old client's command list
    dm = fd.open_dm(ann)
    answer = await (await fd.slash(ann, dm, "game", "new", game="cthulhu")).wait()
    fd.enforce_command_permissions = True
    assert answer.ephemeral_texts() == [say("errors.not_here")]
    assert await bot.store.load(dm) is None
