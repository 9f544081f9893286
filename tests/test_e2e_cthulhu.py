"""A whole Cthulhu in the House game through the real discord.py and a fake Discord.

Three people open a lobby, join, start, and play to the end by clicking buttons and
selects and by typing slash commands with autocomplete; the bot is restarted mid-game
and the old buttons keep working.
"""

from __future__ import annotations

import random
import re
from typing import Any

from bot import games
from cogs.common import DM_REMINDER
from tests.conftest import BotFactory
from tests.e2e_helpers import (
    PNG_SIGNATURE,
    game_components,
    latest_turn,
    play_by_click,
    press_old,
    to_move,
    turn_messages,
    turn_posts,
    unlinked,
    use_first,
)
from tests.fakediscord import FakeDiscord, FakeUser

SECRET_LINE = re.compile(r"your secret characters are (?:the )?(.+?) and (?:the )?(.+?)\.")


async def _lobby(fd: FakeDiscord, start: BotFactory, seed: int = 11
                 ) -> tuple[int, list[FakeUser], FakeUser]:
    channel = fd.add_channel("haunted")
    alice, bob, carol = (fd.add_user(n) for n in ("alice", "bob", "carol"))
    stranger = fd.add_user("dave")
    await start()
    opened = await (await fd.slash(alice, channel, "game", "new", game="cthulhu",
                                   seed=seed)).wait()
    lobby = opened.response
    assert lobby is not None and not lobby.ephemeral
    assert "lobby" in lobby.text.lower()
    join_id = next(c for c in lobby.custom_ids() if c.endswith(":lobby.join"))
    await (await fd.click(bob, lobby, join_id)).wait()
    await (await fd.slash(carol, channel, "game", "join")).wait()
    return channel, [alice, bob, carol], stranger


async def test_a_whole_game_by_clicks_and_commands(fd: FakeDiscord,
                                                   start_hauntkeeper: BotFactory) -> None:
    channel, players, stranger = await _lobby(fd, start_hauntkeeper)
    alice, bob = players[0], players[1]
    by_id = {u.id: u for u in players}
    lobby = next(m for m in fd.channel_messages(channel) if "lobby" in m.text.lower())
    start_id = next(c for c in lobby.custom_ids() if c.endswith(":lobby.start"))

    refused = await (await fd.click(bob, lobby, start_id)).wait()  # only the host starts
    assert any("Only the host" in t for t in refused.ephemeral_texts())
    assert turn_messages(fd, channel) == []

    await (await fd.click(alice, lobby, start_id)).wait()
    started = fd.message(lobby.id)  # the lobby message now says so, without buttons
    assert "in play" in started.text and started.custom_ids() == []
    first = latest_turn(fd, channel)
    assert first.attachments and first.attachments[0][1].startswith(PNG_SIGNATURE)

    rng = random.Random(5)
    restarted = False
    stale_checked = False
    before_restart: dict[str, Any] | None = None
    slash_moves = 0
    for _step in range(600):
        message = latest_turn(fd, channel)
        user_id = to_move(message)
        if user_id is None:
            break
        user = by_id[user_id]
        turn_count = turn_posts(fd, channel)

        if _step == 2:  # a stranger's click is refused and changes nothing
            handle = await use_first(fd, stranger, message)
            assert handle.ephemeral_texts() == ["You're not playing in this game."]
            assert turn_posts(fd, channel) == turn_count
        if _step == 6 and not restarted:  # a new bot object, the same database
            await start_hauntkeeper()
            restarted = True
            before_restart = game_components(message)[0]  # live when the old bot died
        elif before_restart is not None and not stale_checked:
            handle = await press_old(fd, user, message, before_restart)
            assert handle.ephemeral_texts() == [
                "That button is from an earlier turn; use the newest message."]
            assert turn_posts(fd, channel) == turn_count
            stale_checked = True
        older = turn_messages(fd, channel)[:-1]
        if restarted and older:  # the new bot clears the buttons it superseded
            assert game_components(older[-1]) == []

        if _step % 5 == 3 and await _play_by_slash(fd, user, channel):
            slash_moves += 1
        else:
            await play_by_click(fd, user, message, rng)
        assert turn_posts(fd, channel) == turn_count + 1, "the move was not posted"
    else:
        raise AssertionError("the game did not end within 600 moves")

    assert restarted and stale_checked and slash_moves >= 3
    posts = turn_messages(fd, channel)
    final = posts[-1]
    assert "wins" in final.text or "win" in final.text
    for post in posts:  # every turn's message carries the board
        assert post.attachments and post.attachments[0][1].startswith(PNG_SIGNATURE)
    _check_secrets(fd, channel, players)


async def _play_by_slash(fd: FakeDiscord, user: FakeUser, channel: int) -> bool:
    """A fight or move typed as a slash command, its values taken from autocomplete."""
    rooms = await fd.autocomplete(user, channel, "cthulhu", "fight", focused="room", room="")
    if rooms:
        room = rooms[0]["value"]
        victims = await fd.autocomplete(user, channel, "cthulhu", "fight", focused="remove",
                                        room=room, remove="")
        assert victims, "a fight room must offer someone to remove"
        handle = await (await fd.slash(user, channel, "cthulhu", "fight", room=room,
                                       remove=victims[0]["value"])).wait()
    else:
        movers = await fd.autocomplete(user, channel, "cthulhu", "move",
                                       focused="character", character="")
        if not movers:
            return False  # a pending choice: only its buttons apply
        who = movers[-1]["value"]
        targets = await fd.autocomplete(user, channel, "cthulhu", "move", focused="room",
                                        character=who, room="")
        handle = await (await fd.slash(user, channel, "cthulhu", "move", character=who,
                                       room=targets[0]["value"])).wait()
    assert handle.ephemeral_texts() and "Done" in handle.ephemeral_texts()[-1]
    return True


def _check_secrets(fd: FakeDiscord, channel: int, players: list[FakeUser]) -> None:
    """Each DM names that player's two characters; the channel never does before scoring."""
    channel_texts = [m.text for m in fd.channel_messages(channel)]
    scored_at = [i for i, t in enumerate(channel_texts) if "Secrets revealed" in t]
    assert len(scored_at) == 3
    for user in players:
        deals = [SECRET_LINE.search(m.text) for m in fd.dms(user)]
        deals = [d for d in deals if d]
        assert len(deals) == 3, f"{user.name} should get one deal per rumble"
        for rumble, deal in enumerate(deals):
            first, second = deal.group(1), deal.group(2)
            reveal = channel_texts[scored_at[rumble]]
            assert re.search(rf"{user.name} had the {first} and the {second}", reveal) or \
                re.search(rf"{user.name} had the {second} and the {first}", reveal)
            begin = scored_at[rumble - 1] + 1 if rumble else 0
            for text in channel_texts[begin:scored_at[rumble]]:
                assert f"{user.name} had" not in text
                assert deal.group(0) not in text


async def test_closed_dms_point_to_secret_and_nothing_leaks(fd: FakeDiscord,
                                                             start_hauntkeeper: BotFactory
                                                             ) -> None:
    channel = fd.add_channel("quiet")
    host = fd.add_user("host")
    shy = fd.add_user("shy", dms_open=False)
    bot = await start_hauntkeeper()
    lobby = (await (await fd.slash(host, channel, "game", "new", game="cthulhu",
                                   seed=3)).wait()).response
    assert lobby is not None
    await (await fd.slash(shy, channel, "game", "join")).wait()
    ai_id = next(c for c in lobby.custom_ids() if c.endswith(":lobby.ai"))
    await (await fd.click(host, lobby, ai_id)).wait()
    await (await fd.slash(host, channel, "game", "start")).wait()

    notice = [m for m in fd.channel_messages(channel) if "couldn't send" in m.text]
    assert notice and f"<@{shy.id}>" in notice[0].text and "/secret" in notice[0].text
    assert fd.dms(shy) == []
    table = await bot.store.load(channel)
    assert table is not None and table.state is not None
    state = games.get("cthulhu").load(table.state)
    seat = table.seat_of(shy.id)
    assert seat is not None
    mine = [state.characters[c].name for c in state.secrets[seat]]

    status = await (await fd.slash(shy, channel, "game", "status")).wait()
    assert DM_REMINDER in map(unlinked, status.ephemeral_texts())  # told privately, once
    again = await (await fd.slash(shy, channel, "game", "status")).wait()
    assert DM_REMINDER not in map(unlinked, again.ephemeral_texts())
    secret = await (await fd.slash(shy, channel, "secret")).wait()
    text = secret.ephemeral_texts()[0]
    assert all(name in text for name in mine)
    for message in fd.channel_messages(channel):  # nothing private went public instead
        assert "your secret characters" not in message.text.lower()
        assert not (mine[0] in message.text and mine[1] in message.text and
                    "shy" in message.text)
    outsider = fd.add_user("outsider")
    refused = await (await fd.slash(outsider, channel, "secret")).wait()
    assert refused.ephemeral_texts() == ["You're not playing in this game."]
