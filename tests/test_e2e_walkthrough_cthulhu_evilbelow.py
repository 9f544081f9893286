"""Cthulhu in the House and IT: Evil Below read as a player reads the channel, through
the real discord.py and the fake Discord: each moment is arranged through the store (who
stands where, which portal waits, what the dice show), played by a click or a command,
and the live message is read at a glance, as a chat shows it."""

from __future__ import annotations

from typing import Any

import pytest

from bot.games import cthulhu as cthulhu_package
from bot.games.cthulhu.content import cthulhu_line
from bot.games.cthulhu.names import character_name, room_name
from bot.games.cthulhu.state import ABYSS, TELEPORT, CthulhuState
from bot.games.evilbelow import content as evil_content
from bot.games.evilbelow.content import BALLOON, HAND, evil_below_line
from tests.conftest import BotFactory
from tests.e2e_helpers import game_components, latest_turn, open_and_start, to_move
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser

CTHULHU = cthulhu_package.GAME
BARRENS, STANDPIPE = 1, 2  # die i belongs to location i (data/evilbelow/dice.yaml)


def _choice_labels(message: FakeMessage) -> list[str]:
    return [str(c["label"]) for c in game_components(message)
            if c["type"] == 2 and ":choose~" in str(c["custom_id"])]


async def _cthulhu_table(fd: FakeDiscord, start: BotFactory, ai_seats: int
                         ) -> tuple[Any, int, FakeUser]:
    """ann and `ai_seats` AI seats at a started game, played on to ann's turn."""
    channel = fd.add_channel("house")
    ann = fd.add_user("ann")
    bot = await start()
    opened = await (await fd.slash(ann, channel, "game", "new", game="cthulhu",
                                   seed=4)).wait()
    assert opened.response is not None
    ai_id = next(c for c in opened.response.custom_ids() if c.endswith(":lobby.ai"))
    for _ in range(ai_seats):
        await (await fd.click(ann, fd.message(opened.response.id), ai_id)).wait()
    await (await fd.slash(ann, channel, "game", "start")).wait()
    assert to_move(latest_turn(fd, channel)) == ann.id
    return bot, channel, ann


async def arrange_room(bot: Any, channel: int, crowd: int, portal: str
                        ) -> tuple[CthulhuState, int, list[int]]:
    """Saved as the table's state: `crowd` characters share one room, which holds one
    face-down portal of the kind given, the other rooms hold the rest of the house's
    three, and every other character waits alone in a room of its own."""
    table = await bot.store.load_latest(channel)
    state = CTHULHU.load(table.state)
    room = 0
    alive = [c for c in range(len(state.characters)) if state.location[c] is not None]
    here = alive[:crowd]
    for c in here:
        state.location[c] = room
    displaced = [c for c in alive if c not in here and state.location[c] == room]
    empty = [r for r in range(len(state.rooms)) if r != room and r not in state.location]
    for c, r in zip(displaced, empty, strict=False):
        state.location[c] = r
    kinds = [k for portals in state.room_portals for k in portals] + state.reserve
    kinds.remove(portal)
    state.room_portals = [[] for _ in state.rooms]
    state.room_portals[room] = [portal]
    others = [r for r in range(len(state.rooms)) if r != room]
    state.room_portals[others[0]].append(kinds.pop())
    state.room_portals[others[1]].append(kinds.pop())
    state.reserve = kinds
    table.state = CTHULHU.dump(state)
    await bot.store.save(table, [], expected_version=table.version, actor_id=None,
                         action=None)
    return state, room, here


async def _fight(fd: FakeDiscord, user: FakeUser, channel: int, room: int,
                 remove: int) -> None:
    done = await (await fd.slash(user, channel, "cthulhu", "fight", room=str(room),
                                 remove=str(remove))).wait()
    assert done.ephemeral_texts() == [cthulhu_line("cog.done")]


async def test_an_abyss_that_swaps_the_victim_is_told_on_the_live_message(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """Seed 002, Portals: "Abyss portal: The character that was just removed goes back to
    the room, and the active player chooses a different character in the room to be
    removed from the house." (docs/rulings.md, Cthulhu 4: with one other, it goes
    without a choice.) The live message said only "the Aviator is thrown out of the
    house" and "The portal sinks back": the abyss lines were dropped, so the channel
    read the wrong character as gone, and the AI seats' moves after it pushed them out
    too."""
    bot, channel, ann = await _cthulhu_table(fd, start_hauntkeeper, ai_seats=2)
    state, room, (thrown, other) = await arrange_room(bot, channel, 2, ABYSS)
    await _fight(fd, ann, channel, room, thrown)
    after = CTHULHU.load((await bot.store.load_latest(channel)).state)
    assert other in after.removed and thrown not in after.removed
    live = latest_turn(fd, channel).text
    assert character_name(state, other) in live, live


async def test_a_teleport_choice_says_what_its_buttons_do(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """Seed 002, Portals: "Teleport portal: You may immediately move a character in the
    room to any other room in the house". The live message showed buttons named only
    "Professor", "Butler" and "No one" under "it's your move": the question they
    answer (who goes through the teleport) was nowhere on it."""
    bot, channel, ann = await _cthulhu_table(fd, start_hauntkeeper, ai_seats=1)
    state, room, here = await arrange_room(bot, channel, 3, TELEPORT)
    await _fight(fd, ann, channel, room, here[0])
    live = latest_turn(fd, channel)
    assert _choice_labels(live)  # the choice is asked on the live message
    question = cthulhu_line("prompts.teleport_who", room=room_name(state, room))
    assert question in live.text, live.text


async def test_pennywise_tie_says_what_its_buttons_do(
        fd: FakeDiscord, start_hauntkeeper: BotFactory, monkeypatch: pytest.MonkeyPatch
        ) -> None:
    """Seed 001, Pennywise Moves: "If there are two or more locations where Pennywise has
    equal strength, the players choose one of those locations to move Pennywise into."
    The live message showed two buttons named after locations and "it's your move":
    nothing said they send Pennywise there."""
    faces = [(BALLOON,) if d in (BARRENS, STANDPIPE) else (HAND,) for d in range(7)]
    monkeypatch.setattr(evil_content, "dice_faces", lambda: tuple(faces))
    channel = fd.add_channel("derry")
    ann, bob = fd.add_user("ann"), fd.add_user("bob")
    await start_hauntkeeper()
    await open_and_start(fd, channel, [ann, bob], "evilbelow", seed=2)
    first = latest_turn(fd, channel)
    roll = next(c for c in game_components(first) if c["type"] == 2
                and c["custom_id"].endswith(":roll"))
    await (await fd.click(ann, first, roll["custom_id"])).wait()
    live = latest_turn(fd, channel)
    names = evil_content.board().names
    assert sorted(_choice_labels(live)) == sorted([names[BARRENS], names[STANDPIPE]])
    assert evil_below_line("prompts.pennywise") in live.text, live.text
