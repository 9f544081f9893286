"""A first-time Cthulhu table reads an AI seat's fight that flips a teleport, through the
real discord.py and the fake Discord: the live message must say who was thrown out, not
only what the teleport then did. The moment is arranged through the store (who stands
where, which portal waits) and the AI seat's two decisions are fixed, so the test does
not hang on what a seed's AI would choose."""

from __future__ import annotations

from typing import Any

import pytest

from bot.core.actions import Action
from bot.core.choices import CHOOSE
from bot.games import cthulhu as cthulhu_package
from bot.games.cthulhu.content import cthulhu_line
from bot.games.cthulhu.moves import FIGHT, legal_moves
from bot.games.cthulhu.names import character_name, room_name
from bot.games.cthulhu.state import TELEPORT, CthulhuState
from bot.locales import CHINESE, ENGLISH, speaking
from tests.conftest import BotFactory
from tests.e2e_helpers import latest_turn
from tests.fakediscord import FakeDiscord, FakeUser
from tests.test_e2e_walkthrough_cthulhu_evilbelow import arrange_room

CTHULHU = cthulhu_package.GAME
ROOM = 0  # the fight's room
DISCORD_LOCALE = {ENGLISH: "en-US", CHINESE: "zh-TW"}  # each language's Discord client


async def _table_at_anns_turn(fd: FakeDiscord, start: BotFactory, language: str
                              ) -> tuple[Any, int, FakeUser]:
    """ann and one AI seat on a server (and an app) of this language, a started game,
    ann to move (seed 4 draws her first)."""
    locale = DISCORD_LOCALE[language]
    fd.guilds[fd.guild_id].locale = locale
    channel = fd.add_channel("house")
    ann = fd.add_user("ann", locale=locale)
    bot = await start()
    opened = await (await fd.slash(ann, channel, "game", "new", game="cthulhu",
                                   seed=4)).wait()
    assert opened.response is not None
    ai = next(c for c in opened.response.custom_ids() if c.endswith(":lobby.ai"))
    await (await fd.click(ann, fd.message(opened.response.id), ai)).wait()
    await (await fd.slash(ann, channel, "game", "start")).wait()
    return bot, channel, ann


@pytest.mark.parametrize("language", [ENGLISH, CHINESE])
async def test_an_ai_fight_that_flips_a_teleport_names_who_was_thrown_out(
        fd: FakeDiscord, start_hauntkeeper: BotFactory, monkeypatch: pytest.MonkeyPatch,
        language: str) -> None:
    """Seed 002, Fights: you choose a character in the room and it "is removed from the
    house", and a portal in the room flips; Portals: "Teleport portal: You may
    immediately move a character in the room to any other room in the house".
    After ann's move, the AI seat started a fight in a teleport's room and let the
    teleport fizzle: the live message showed ann's move and "Ada lets the teleport
    fizzle out." only. The fight's line, who was thrown out, was cut (a delivery's first
    and newest lines are kept), so a new player could not tell what the teleport came
    from or who had left the house."""
    bot, channel, ann = await _table_at_anns_turn(fd, start_hauntkeeper, language)
    # two characters share ROOM (arrange_room puts them in room 0), with a teleport
    state, room, (victim, _) = await arrange_room(bot, channel, 2, TELEPORT)
    assert room == ROOM

    def fixed_ai(ai_state: CthulhuState, seat: int) -> Action:
        if ai_state.pending is not None:  # who goes through the teleport: no one (last)
            return Action(CHOOSE, {"pick": len(ai_state.pending.labels) - 1})
        return Action(FIGHT, {"room": ROOM, "remove": victim})

    monkeypatch.setattr(CTHULHU, "ai_action", fixed_ai)
    character, target = next((c, r) for c, r in legal_moves(state)
                             if state.location[c] != ROOM and r != ROOM)
    moved = await (await fd.slash(ann, channel, "cthulhu", "move", character=str(character),
                                  room=str(target))).wait()
    assert len(moved.ephemeral_texts()) == 1, moved.texts()
    after = CTHULHU.load((await bot.store.load_latest(channel)).state)
    assert victim in after.removed  # the fight was played
    ai_name = after.players[1]
    with speaking(language):
        fight = cthulhu_line("events.fight", player=ai_name, room=room_name(state, ROOM),
                             character=character_name(state, victim))
        fizzle = cthulhu_line("events.teleport_declined", player=ai_name)
    live = latest_turn(fd, channel).text
    assert fight in live, live
    assert fizzle in live, live
