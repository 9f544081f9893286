"""The Neibolt House through the real discord.py and the fake Discord: a lobby opened
with `/game new game:betrayal expansion:neibolt`, a house explored with encounters
face up on the board, the encounter haunt roll typed as `/betrayal end-turn` waking
Let's Kill This Clown (THE EATER OF WORLDS, seed 000's pair), and the scenario played by
clicks in the channel to its end, Pennywise taking his own turns (no seat plays him)."""

from __future__ import annotations

from unittest import mock

from bot import games
from bot.games.betrayal import GAME
from bot.games.betrayal.state import BetrayalState
from bot.games.neibolt import encounters
from tests.betrayal_haunt_helpers import grow
from tests.conftest import BotFactory
from tests.e2e_helpers import latest_turn, to_move
from tests.fakediscord import FakeDiscord
from tests.test_e2e_betrayal_haunt import play_action

TILES = 14
TRIGGER = "the_eater_of_worlds"  # seed 000: starts Scenario 5, Let's Kill This Clown


def _house(state: BetrayalState) -> BetrayalState:
    """AI play with the encounter trigger held back until the house has TILES rooms;
    then this turn has met THE EATER OF WORLDS, with four encounters face up."""
    state = grow(state, TILES, 3000, turn_start=False)
    deck, up = state.decks[encounters.DECK], state.discards[encounters.DECK]
    for card in [TRIGGER, *(k for k in list(deck) if k != TRIGGER)][: max(0, 4 - len(up))]:
        if card in deck:
            deck.remove(card)
            up.append(card)
    if TRIGGER not in up:
        up.append(TRIGGER)
        deck.remove(TRIGGER)
    state.turn.flags[encounters.DRAWN] = [TRIGGER]
    return state


async def test_a_neibolt_game_is_played_into_scenario_five_and_to_its_end(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    channel = fd.add_channel("neibolt")
    users = [fd.add_user(n) for n in ("ann", "ben", "cat", "dan")]
    bot = await start_hauntkeeper()
    opened = await (await fd.slash(users[0], channel, "game", "new", game="betrayal",
                                   seed=7, expansion="neibolt")).wait()
    lobby = opened.messages[-1]
    fields = {f["name"]: f["value"] for e in lobby.embeds for f in e.get("fields", [])}
    assert fields.get("Expansion") == "Betrayal at the Neibolt House (Pennywise)"
    for user in users[1:]:
        await (await fd.slash(user, channel, "game", "join")).wait()
    await (await fd.slash(users[0], channel, "game", "start")).wait()

    table = await bot.store.load(channel)
    assert table is not None and table.state is not None
    state = _house(games.get("betrayal").load(table.state))
    assert state.edition == "neibolt"
    table.state = games.get("betrayal").dump(state)
    await bot.store.save(table, [], expected_version=table.version, actor_id=None, action=None)
    by_seat = {i: next(u for u in users if u.id == s.user_id)
               for i, s in enumerate(table.seats)}

    status = await (await fd.slash(users[1], channel, "game", "status")).wait()
    [shown] = [m for m in status.messages if m.ephemeral]
    now = "\n".join(f["value"] for e in shown.embeds for f in e.get("fields", [])
                    if f["name"] in ("Now", "\u200b"))
    assert "Pennywise Encounters face up (4)" in now and "THE EATER OF WORLDS" in now

    mover = by_seat[state.turn.seat]
    with mock.patch.object(encounters, "HAUNT_AT", 0):  # the roll cannot fail
        ended = await (await fd.slash(mover, channel, "betrayal", "end-turn")).wait()
    assert ended.ephemeral_texts() == ["Done — the map is below."]
    saved = await bot.store.load(channel)
    assert saved is not None and saved.state is not None
    state = GAME.load(saved.state)
    assert state.haunt is not None and state.haunt.key == "lets_kill_this_clown"
    assert state.haunt.traitor is None
    public = [m.text for m in fd.channel_messages(channel)]
    assert any("**THE EATER OF WORLDS** begins scenario 5" in t for t in public)

    clicks = 0
    for _ in range(1500):
        saved = await bot.store.load(channel)
        if saved is None:
            break  # the game is over
        state = GAME.load(saved.state or {})
        seat = GAME.to_act(state)
        assert seat is not None
        post = latest_turn(fd, channel)
        assert to_move(post) == by_seat[seat].id  # always a hero: the house plays itself
        await play_action(fd, by_seat[seat], post, GAME.ai_action(state, seat))
        clicks += 1
    final = await bot.store.load_latest(channel)
    assert final is not None and final.status == "over"
    state = GAME.load(final.state or {})
    assert state.haunt is not None and state.haunt.winner in ("heroes", "traitor")
    assert clicks > 10
    public = [m.text for m in fd.channel_messages(channel)]
    assert any("Pennywise" in t for t in public[-40:])
    wins = [line for t in public for line in t.split("\n") if line.startswith("🏆")]
    assert wins and not any("traitor" in line.lower() for line in wins)  # no traitor won
