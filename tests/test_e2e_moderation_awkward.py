"""The moderators' tools at the awkward moments of a game, through the real discord.py
and the fake Discord: a game ended while the traitor's turn waits in their DMs; a seat
taken from a paused turn played from DMs (by a kick, /gm seat, or an undo back before
the haunt); a DM prompt done with, read in its player's language; a fight half revealed
and undone. What must hold after each: the DM prompts say what is true now (no buttons
but those of a private turn's holder, no promise of buttons to someone who no longer
holds the seat, no "the game goes on" once it is over), the moderator's answer is
private and one line, and the channel is told what was done in one public line that
names the move taken back by its news."""

from __future__ import annotations

import pytest

from bot import table as T
from bot.client import HauntBot
from bot.games.betrayal import GAME
from bot.games.evilbelow import content
from bot.locales import CHINESE, speaking
from bot.texts import say
from tests.conftest import BotFactory
from tests.e2e_helpers import game_components, latest_turn, open_and_start, unlinked
from tests.evil_below_helpers import fight_ready
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser
from tests.test_e2e_betrayal_haunt import at_the_traitors_dm_turn, dm_prompt, play_action

GOES_ON = say("dm.prompt_used", channel="\0").split("\0")[0]
PAUSED_DM = say("dm.prompt_paused", channel="\0").split("\0")[1]


def _public_lines(fd: FakeDiscord, channel: int, text: str) -> int:
    """How many times the channel's messages carry this line (its live message's
    versions counted once: an edit that keeps a line says it once)."""
    return sum(unlinked(line) == text for m in fd.channel_messages(channel)
               for line in m.text.splitlines())


def _own_buttons(fd: FakeDiscord, user: FakeUser, channel: int) -> list[FakeMessage]:
    """The user's DMs that still carry a move of this game."""
    return [m for m in fd.dms(user)
            if any(c.startswith(("hk:", "hks:")) and f":{channel}:" in c
                   and "view.secret" not in c for c in m.custom_ids())]


# ---------------------------------------------------------------- the end, during a DM turn

async def test_a_game_ended_during_the_traitors_dm_turn_says_so_in_the_dm(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """README: "/gm end: end the game"; a turn played from DMs "loses its buttons there"
    when it no longer waits. The traitor's DM prompt, waiting when a moderator ends the
    game, loses its buttons and must not tell its reader "the game goes on": it is over.
    The moderator reads one private line; the channel one public line."""
    channel, bot, villain, mod, prompt = await at_the_traitors_dm_turn(fd, start_hauntkeeper)
    dms = len(fd.dms(villain))
    ended = await (await fd.slash(mod, channel, "gm", "end")).wait()
    await fd.settle()
    assert ended.ephemeral_texts() == [say("moderation.ended", name="mod")]
    assert not [m for m in ended.messages if not m.ephemeral]
    assert _public_lines(fd, channel, say("moderation.ended", name="mod")) >= 1
    old = fd.message(prompt.id)
    assert game_components(old) == []
    assert GOES_ON not in old.text, old.text
    assert unlinked(old.text) == unlinked(say("dm.prompt_over", channel=f"<#{channel}>"))
    assert len(fd.dms(villain)) == dms  # an edit: no new DM
    assert await bot.store.load(channel) is None  # the game is over


# ---------------------------------------------------------------- a paused DM turn's seat

@pytest.mark.parametrize("tool", ["kick", "seat", "undo"])
async def test_a_paused_dm_turn_taken_from_its_player_stops_promising_them_its_buttons(
        fd: FakeDiscord, start_hauntkeeper: BotFactory, tool: str) -> None:
    """README: while paused "a turn played from DMs loses its buttons there; the resume
    brings them back"; /gm kick: "the AI plays their seat"; /gm seat: the new holder
    plays it; /gm undo takes back the move that began the haunt (the turn is no longer
    played from DMs). Held by a pause, the traitor's DM prompt says its buttons come back
    there on resume: once the seat (or the private turn) is no longer theirs, it must
    not, and the resume sends them nothing; a new holder gets the turn's buttons."""
    channel, bot, villain, mod, prompt = await at_the_traitors_dm_turn(fd, start_hauntkeeper)
    await (await fd.slash(mod, channel, "gm", "pause")).wait()
    await fd.settle()
    assert PAUSED_DM in fd.message(prompt.id).text
    newbie = fd.add_user("newbie")
    if tool == "kick":
        answer = await (await fd.slash(mod, channel, "gm", "kick", player=villain)).wait()
    elif tool == "seat":
        table = await bot.store.load(channel)
        assert table is not None
        seat = table.seat_of(villain.id)
        assert seat is not None
        answer = await (await fd.slash(mod, channel, "gm", "seat", seat=str(seat + 1),
                                       member=newbie)).wait()
    else:
        answer = await (await fd.slash(mod, channel, "gm", "undo")).wait()
    await fd.settle()
    assert len(answer.ephemeral_texts()) == 1
    assert not [m for m in answer.messages if not m.ephemeral]
    dms = len(fd.dms(villain))
    held = fd.message(prompt.id)
    assert game_components(held) == []
    assert PAUSED_DM not in held.text, (tool, held.text)

    await (await fd.slash(mod, channel, "gm", "resume")).wait()
    await fd.settle()
    assert len(fd.dms(villain)) == dms  # nothing more of the seat reaches them
    assert _own_buttons(fd, villain, channel) == []
    if tool == "seat":
        assert game_components(dm_prompt(fd, newbie))
    table = await bot.store.load(channel)
    assert table is not None and not table.paused
    if tool == "undo":  # back before the haunt: the turn is the channel's again
        assert game_components(latest_turn(fd, channel))


async def test_a_dm_prompt_done_with_reads_in_its_players_language(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """README, Languages: "Each player reads their DMs ... in their own Discord app's
    language". The traitor, who reads Chinese, plays from their DMs and a moderator
    then ends the game: each DM prompt done with says so in Chinese, as a paused one
    does (cogs/outlet_dms.py's `hold_dm`), not in the server's English."""
    channel, bot, villain, mod, prompt = await at_the_traitors_dm_turn(fd, start_hauntkeeper)
    table = await bot.store.load(channel)
    assert table is not None
    seat = table.seat_of(villain.id)
    assert seat is not None
    table.seats[seat].language = CHINESE  # as heard from their app in the channel
    villain.locale = "zh-TW"  # and their clicks in the DMs say so again (cogs/rights.py)
    await bot.store.save(table, [], expected_version=table.version, actor_id=None, action=None)
    await (await fd.slash(mod, channel, "gm", "pause")).wait()
    await (await fd.slash(mod, channel, "gm", "resume")).wait()
    await fd.settle()
    fresh = dm_prompt(fd, villain)  # the resume's prompt: the turn's buttons again
    state = GAME.load(table.state or {})
    await play_action(fd, villain, fresh, GAME.ai_action(state, seat))
    await fd.settle()
    with speaking(CHINESE):
        used = say("dm.prompt_used", channel=f"<#{channel}>")
        over = say("dm.prompt_over", channel=f"<#{channel}>")
    for done in (prompt, fresh):  # held, then resumed; played
        assert unlinked(fd.message(done.id).text) == unlinked(used)
    mine = [m for m in fd.dms(villain) if game_components(m)]
    assert len(mine) == 1  # the traitor's turn goes on: its next step's prompt
    await (await fd.slash(mod, channel, "gm", "end")).wait()
    await fd.settle()
    assert unlinked(fd.message(mine[0].id).text) == unlinked(over)


# ---------------------------------------------------------------- Evil Below, mid fight

async def _fight_at_hand(fd: FakeDiscord, start: BotFactory
                         ) -> tuple[int, HauntBot, FakeUser, FakeUser, list[FakeUser]]:
    """Two friends with Pennywise in Town Square, in the actions step, a Fight Stack of
    six totems (no attack card); the live message shows it: the channel, the bot, the
    player to move, a moderator, the players."""
    channel = fd.add_channel("derry")
    users = [fd.add_user(n) for n in ("ann", "bo")]
    mod = fd.add_user("mod", manage_channels=True)
    bot = await start()
    await open_and_start(fd, channel, users, "evilbelow", seed=5)
    table = await bot.store.load(channel)
    assert table is not None
    dealt = T.game_state(table)
    state = fight_ready([h.character for h in dealt.heroes],
                        [c for c in range(49) if not content.is_attack(c)][:6])
    state.players = dealt.players
    T.set_state(table, T.game_of(table), state)
    await bot.store.save(table, [], expected_version=table.version, actor_id=None, action=None)
    await (await fd.slash(mod, channel, "gm", "pause")).wait()  # shown: a delivery
    await (await fd.slash(mod, channel, "gm", "resume")).wait()
    await fd.settle()
    mover = next(u for u in users if u.id == table.seats[state.turn].user_id)
    return channel, bot, mover, mod, users


async def test_an_undone_reveal_is_named_by_the_card_it_revealed(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """README: "/gm undo: ... the channel is told who undid what"; bot/games/evilbelow/
    fight.py: the Fight Stack's shuffle is "the log's: the card revealed is the news".
    The first reveal of a fight also shuffles the stack: undone, the channel (and the
    moderator) must read which card was taken back, not the shuffle, a line the live
    message never showed."""
    channel, bot, mover, mod, _users = await _fight_at_hand(fd, start_hauntkeeper)
    for command in ("fight", "reveal"):
        await (await fd.slash(mover, channel, "evilbelow", command)).wait()
    await fd.settle()
    table = await bot.store.load(channel)
    assert table is not None
    fight = T.game_state(table).fight
    assert fight is not None and len(fight.shown) == 1
    card = content.card_name(fight.shown[0])
    undone = await (await fd.slash(mod, channel, "gm", "undo")).wait()
    await fd.settle()
    [answer] = undone.ephemeral_texts()
    assert answer.startswith("mod undid 1 move: Revealed: " + card), answer
    assert _public_lines(fd, channel, answer) == 1
    table = await bot.store.load(channel)
    assert table is not None
    fight = T.game_state(table).fight
    assert fight is not None and fight.shown == []
    live = latest_turn(fd, channel)
    assert [c["label"] for c in game_components(live)][:1] == ["Reveal a card (6 left)"]
