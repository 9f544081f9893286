"""The lobby and the end as players meet them, through the real discord.py and the fake
Discord (issue 20): the lobby says what the game is and has a How to play button; its
footer is right once the game runs; the end's Play again opens a lobby with the same
seats invited; rules topics read as titles and only the table's edition's; every line
naming a command makes it clickable; /help opens with Getting started and this
channel's game."""

from __future__ import annotations

import pytest

from bot import games
from bot.store import LOBBY, OVER
from bot.texts import say
from tests.conftest import BotFactory
from tests.e2e_helpers import latest_turn, unlinked
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser

HOW = "view.how_to_play"
AGAIN = "table.again"


def _id(message: FakeMessage, kind: str) -> str:
    return next(c for c in message.custom_ids() if kind in c)


def _footer(message: FakeMessage) -> str:
    return str(message.embeds[0].get("footer", {}).get("text", ""))


def _mention(fd: FakeDiscord, name: str) -> str:
    command = fd.command(name.split()[0])
    assert command is not None
    return f"</{name}:{command['id']}>"


async def _lobby(fd: FakeDiscord, channel: int, host: FakeUser, game: str,
                 **options: object) -> FakeMessage:
    opened = await (await fd.slash(host, channel, "game", "new", game=game, **options)).wait()
    assert opened.response is not None and not opened.response.ephemeral
    return opened.response


def test_every_game_has_its_few_words_and_every_topic_a_title() -> None:
    for key, game in games.all_games().items():
        for edition in game.edition_keys():  # in the game's own texts, not the shared ones
            words = game.about(edition)
            assert words is not None and words.text.strip() and words.length, (key, edition)
        titles = game.rules_titles()
        assert set(titles) == set(game.rules_topics()), key
        assert all(t and "_" not in t and t[0].isupper() for t in titles.values()), titles
    neibolt = games.get("betrayal").rules_topics({"expansion": "neibolt"})
    classic = games.get("betrayal").rules_topics({"expansion": "classic"})
    assert "encounters" in neibolt and "encounters" not in classic and "overview" in classic


async def test_the_lobby_says_what_the_game_is_and_how_to_play(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    bot = await start_hauntkeeper()
    channel, other = fd.add_channel("lobby"), fd.add_channel("neibolt")
    host, guest, passer = fd.add_user("host"), fd.add_user("guest"), fd.add_user("passer")
    lobby = await _lobby(fd, channel, host, "cthulhu")
    about = games.get("cthulhu").about()
    assert about is not None and about.text.strip() in lobby.text
    assert say("lobby.about_line", min=2, max=6, length=about.length) in lobby.text
    assert "needs 2 to start" in _footer(lobby) and f"<@{host.id}>" in lobby.text

    before = await bot.store.load(channel)
    shown = await (await fd.click(passer, lobby, _id(lobby, HOW))).wait()  # anyone may read
    [text] = shown.ephemeral_texts()
    overview = games.get("cthulhu").rules_topics()["overview"]
    assert text.startswith("**How to play**\n") and overview in text
    assert _mention(fd, "game rules") in text  # the way on, clickable
    after = await bot.store.load(channel)
    assert before is not None and after is not None and after.version == before.version
    assert len(text) <= 1900

    neibolt = await _lobby(fd, other, host, "betrayal", expansion="neibolt")
    edition, classic = games.get("betrayal").about("neibolt"), games.get("betrayal").about()
    assert edition is not None and classic is not None
    assert edition.text.strip() in neibolt.text and classic.text != edition.text  # its own
    shown = await (await fd.click(guest, neibolt, _id(neibolt, HOW))).wait()
    [text] = shown.ephemeral_texts()
    topics = games.get("betrayal").rules_topics({"expansion": "neibolt"})
    assert topics["overview"] in text and topics["neibolt"] in unlinked(text)  # the edition's
    assert _mention(fd, "game new") in text  # a command the rules name is clickable too
    assert "**The Neibolt House**" in text


async def test_the_lobby_footer_after_start(fd: FakeDiscord,
                                            start_hauntkeeper: BotFactory) -> None:
    await start_hauntkeeper()
    channel = fd.add_channel("table")
    host, guest = fd.add_user("host"), fd.add_user("guest")
    lobby = await _lobby(fd, channel, host, "cthulhu")
    await (await fd.click(guest, lobby, _id(lobby, "lobby.join"))).wait()
    assert "2/6 seated" in _footer(fd.message(lobby.id))
    await (await fd.slash(host, channel, "game", "start")).wait()
    started = fd.message(lobby.id)
    assert "needs" not in _footer(started) and _footer(started) == say(
        "lobby.footer_active", count=2)
    assert not started.custom_ids()  # its buttons gone: the game's message has them
    status = await (await fd.slash(guest, channel, "game", "status")).wait()
    assert status.response is not None and "needs" not in _footer(status.response)


async def test_play_again_opens_a_lobby_with_the_same_seats_invited(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    bot = await start_hauntkeeper()
    channel = fd.add_channel("table")
    host, guest, third = fd.add_user("host"), fd.add_user("guest"), fd.add_user("third")
    await _lobby(fd, channel, host, "cthulhu", seed=21, layout="crooked")
    for user in (guest, third):
        await (await fd.slash(user, channel, "game", "join")).wait()
    await (await fd.slash(host, channel, "game", "start")).wait()
    await (await fd.slash(host, channel, "game", "end")).wait()
    ended = await bot.store.load_latest(channel)
    assert ended is not None and ended.status == OVER
    end = latest_turn(fd, channel)
    assert _mention(fd, "game new") in end.text  # the end line's command, clickable
    assert say("live.over") == unlinked(end.text.rsplit("\n", 1)[-1])

    clicked = await (await fd.click(guest, end, _id(end, AGAIN))).wait()
    lobby = clicked.response
    assert lobby is not None and not lobby.ephemeral and lobby.embeds
    assert f"<@{host.id}>" in lobby.text and f"<@{third.id}>" in lobby.text
    assert sorted(lobby.pinged) == sorted([host.id, third.id])  # the clicker is the host
    table = await bot.store.load(channel)
    assert table is not None and table.status == LOBBY and table.host_id == guest.id
    assert table.id != ended.id and table.kind == "cthulhu"
    assert table.options.get("layout") == "crooked"  # the same setup, a new deal
    assert "seeded" not in table.options and table.seed != ended.seed  # ...a fresh deal
    assert 2**32 <= table.seed < 2**63  # as unguessable as /game new's (1 in 2**31 below)
    assert await bot.store.lobby_message(table.id or 0) == lobby.id

    for user in (host, third):  # one click each
        joined = await (await fd.click(user, lobby, _id(lobby, "lobby.join"))).wait()
        assert joined.ephemeral_texts() == [] or "joined" in joined.ephemeral_texts()[0]
    table = await bot.store.load(channel)
    assert table is not None and [s.user_id for s in table.seats] == [guest.id, host.id,
                                                                      third.id]
    assert f"<@{third.id}>" in fd.message(lobby.id).text

    late = await (await fd.click(host, end, _id(end, AGAIN))).wait()  # the old end again
    [refusal] = late.ephemeral_texts()
    assert unlinked(refusal) == say("errors.again_taken")
    assert _mention(fd, "game status") in refusal
    still = await bot.store.load(channel)
    assert still is not None and still.version == table.version and still.id == table.id


async def test_rules_topics_show_titles_and_only_the_tables_edition(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    await start_hauntkeeper()
    classic, neibolt, quiet = (fd.add_channel(n) for n in ("classic", "neibolt", "quiet"))
    host = fd.add_user("host")
    await _lobby(fd, classic, host, "betrayal")
    await _lobby(fd, neibolt, host, "betrayal", expansion="neibolt")

    offered = await fd.autocomplete(host, classic, "game", "rules", focused="topic", topic="")
    names = {c["name"] for c in offered}
    values = {c["value"] for c in offered}
    assert "When a floor has no room left" in names and "How to play" in names
    assert not any("_" in n or "*" in n for n in names)  # titles, never keys
    assert "closing_a_floor" in values and not values & {"encounters", "neibolt"}
    floor = await fd.autocomplete(host, classic, "game", "rules", focused="topic",
                                  topic="floor")
    assert [c["value"] for c in floor] == ["closing_a_floor"]

    offered = await fd.autocomplete(host, neibolt, "game", "rules", focused="topic",
                                    topic="pennywise")
    assert {"encounters"} <= {c["value"] for c in offered}
    assert "Pennywise Encounters" in {c["name"] for c in offered}

    read = await (await fd.slash(host, classic, "game", "rules",
                                 topic="closing_a_floor")).wait()
    [text] = read.ephemeral_texts()
    assert text.startswith("**When a floor has no room left**\n")
    typed = await (await fd.slash(host, classic, "game", "rules", topic="how to play")).wait()
    assert typed.ephemeral_texts()[0].startswith("**How to play**\n")
    refused = await (await fd.slash(host, classic, "game", "rules", topic="encounters")).wait()
    [no] = refused.ephemeral_texts()
    assert no.startswith("No rules topic called") and "closing_a_floor" not in no
    # Betrayal's topics run long: the refusal stays short and leaves them to the picker
    # (tests/test_e2e_bad_input_sweep.py), which offers only this edition's (above).
    assert no == say("errors.no_rules_topic_pick", topic="encounters")

    anywhere = await fd.autocomplete(host, quiet, "game", "rules", focused="topic",
                                     topic="win-losses")
    assert [c["name"] for c in anywhere] == ["IT: Evil Below: Winning and losing"]


@pytest.mark.parametrize("command", [("game", "status"), ("game", "join")])
async def test_an_error_names_its_commands_as_mentions(
        fd: FakeDiscord, start_hauntkeeper: BotFactory, command: tuple[str, str]) -> None:
    await start_hauntkeeper()
    user = fd.add_user("lost")
    channel = fd.add_channel("empty")
    shown = await (await fd.slash(user, channel, *command)).wait()
    [text] = shown.ephemeral_texts()
    assert text == say("errors.no_game").replace("/game new", _mention(fd, "game new"))

    await _lobby(fd, channel, user, "cthulhu")
    again = await (await fd.slash(fd.add_user("other"), channel, "game", "new",
                                  game="cthulhu")).wait()
    [busy] = again.ephemeral_texts()
    assert _mention(fd, "game status") in busy and _mention(fd, "game end") in busy
    assert "`/" not in busy and " /game" not in busy


async def test_help_opens_with_getting_started_and_this_channels_game(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    await start_hauntkeeper()
    user = fd.add_user("reader")
    derry, quiet = fd.add_channel("derry"), fd.add_channel("quiet")
    await _lobby(fd, derry, user, "evilbelow")

    def headings(message: FakeMessage) -> list[str]:
        return [f["name"] for e in message.embeds for f in e.get("fields", [])
                if f["name"] != "\u200b"]

    [here] = (await (await fd.slash(user, derry, "help")).wait()).messages
    order = headings(here)
    ours = say("help.this_game", game="IT: Evil Below")
    assert order[:3] == [say("help.getting_started"), ours, say("help.table")]
    first = here.embeds[0]["fields"][0]["value"]
    assert _mention(fd, "game new") in first and _mention(fd, "game join") in first
    game_field = here.embeds[0]["fields"][1]["value"]
    assert _mention(fd, "evilbelow roll") in game_field
    assert "IT: Evil Below" not in order[3:]  # listed once, first
    assert order[-1] == say("help.language_title")  # how a server switches language, last
    assert "/gm settings language" in here.embeds[-1]["fields"][-1]["value"]

    [elsewhere] = (await (await fd.slash(user, quiet, "help")).wait()).messages
    order = headings(elsewhere)
    assert order[:2] == [say("help.getting_started"), say("help.table")]
    assert order[2:] == sorted(order[2:]) and "IT: Evil Below" in order


async def test_play_again_is_refused_where_games_are_no_longer_played(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """A server that moved its games elsewhere: a game that ended here keeps its result,
    but its Play again opens nothing here, as /game new would not."""
    bot = await start_hauntkeeper()
    old, games_here = fd.add_channel("old"), fd.add_channel("games")
    host, guest = fd.add_user("host"), fd.add_user("guest")
    mod = fd.add_user("mod", manage_channels=True)
    await _lobby(fd, old, host, "cthulhu")
    await (await fd.slash(guest, old, "game", "join")).wait()
    await (await fd.slash(host, old, "game", "start")).wait()
    moved = await (await fd.slash(mod, old, "gm", "settings", game_channel=games_here)).wait()
    assert "Game channels" in moved.ephemeral_texts()[0]
    await (await fd.slash(host, old, "game", "end")).wait()
    end = latest_turn(fd, old)
    refused = await (await fd.click(guest, end, _id(end, AGAIN))).wait()
    assert refused.ephemeral_texts() == [f"Games are played in <#{games_here}> on this server."]
    latest = await bot.store.load_latest(old)
    assert latest is not None and latest.status == OVER and await bot.store.load(old) is None
