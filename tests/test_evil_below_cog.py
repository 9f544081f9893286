"""`/evilbelow` through the real discord.py and the fake Discord: autocomplete offers
only legal values, typed names are matched, and bad input (garbage, huge numbers, the
wrong time, an old button) gets a short private answer and leaves the game untouched."""

from __future__ import annotations

from typing import Any

import pytest

from bot.games.evilbelow import GAME, content
from bot.games.evilbelow.actions import spare_die
from bot.games.evilbelow.content import BALLOON, HAND, HEART
from bot.games.evilbelow.state import ACTIONS, EvilBelowState
from bot.texts import say as say_table
from tests.conftest import BotFactory
from tests.e2e_helpers import latest_turn
from tests.evil_below_helpers import arrange
from tests.fakediscord import FakeDiscord, FakeUser

NAMES = content.board().names


async def _game(fd: FakeDiscord, start: BotFactory) -> tuple[Any, int, FakeUser, FakeUser]:
    channel = fd.add_channel("derry")
    ann, bob = fd.add_user("ann"), fd.add_user("bob")
    bot = await start()
    await (await fd.slash(ann, channel, "game", "new", game="evilbelow", seed=3)).wait()
    await (await fd.slash(bob, channel, "game", "join")).wait()
    await (await fd.slash(ann, channel, "game", "start")).wait()
    return bot, channel, ann, bob


async def _state(bot: Any, channel: int) -> tuple[Any, EvilBelowState]:
    table = await bot.store.load(channel)
    assert table is not None and table.state is not None
    return table, GAME.load(table.state)


async def _set(bot: Any, table: Any, state: EvilBelowState) -> None:
    table.state = GAME.dump(state)
    await bot.store.save(table, [], expected_version=table.version, actor_id=None,
                         action=None)


async def _acting(bot: Any, channel: int, faces: list[str]) -> EvilBelowState:
    """Ann's actions step with these dice, nothing used yet."""
    table, state = await _state(bot, channel)
    state.dice, state.dice_used, state.phase = list(faces), [False] * 7, ACTIONS
    await _set(bot, table, state)
    return state


async def _says(fd: FakeDiscord, user: FakeUser, channel: int, *path: str,
                **options: Any) -> list[str]:
    return (await (await fd.slash(user, channel, "evilbelow", *path, **options)).wait()
            ).ephemeral_texts()


async def test_move_offers_the_neighbours_and_the_dice_and_reads_typed_names(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    bot, channel, ann, bob = await _game(fd, start_hauntkeeper)
    state = await _acting(bot, channel, [HAND, HEART, BALLOON, HAND, HAND, HEART, HAND])
    state.dice_used[2] = True  # the balloon was a sighting
    table, _ = await _state(bot, channel)
    await _set(bot, table, state)
    here = state.heroes[0].location
    neighbours = content.board().neighbours(here)
    offered = await fd.autocomplete(ann, channel, "evilbelow", "move", focused="to")
    assert sorted(int(c["value"]) for c in offered) == neighbours
    assert await fd.autocomplete(bob, channel, "evilbelow", "move", focused="to") == []
    dice = await fd.autocomplete(ann, channel, "evilbelow", "move", focused="die",
                                 to=str(neighbours[0]))
    assert sorted(int(c["value"]) for c in dice) == [0, 1, 3, 4, 5, 6]  # not the balloon

    version = (await _state(bot, channel))[0].version
    for typed, reason in (("99999999999999999999", "I don't know a location"),
                          ("²", "I don't know a location"), ("", "I don't know a location")):
        [answer] = await _says(fd, ann, channel, "move", to=typed)
        assert answer.startswith(reason) and len(answer) < 400
    far = next(i for i in range(7) if i != here and i not in neighbours)
    [answer] = await _says(fd, ann, channel, "move", to=str(far))
    assert answer.startswith("You can walk only to a neighbouring location")
    [answer] = await _says(fd, ann, channel, "move", to=str(neighbours[0]), die="2")
    assert "can't take you there" in answer
    [answer] = await _says(fd, bob, channel, "move", to=str(neighbours[0]))
    assert answer == content.evil_below_line("errors.not_your_turn", player="ann")
    assert (await _state(bot, channel))[0].version == version  # nothing changed

    typed = NAMES[neighbours[0]].lower().removeprefix("the ")[:6]
    assert await _says(fd, ann, channel, "move", to=typed) == [content.evil_below_line("cog.done")]
    table, state = await _state(bot, channel)
    assert state.heroes[0].location == neighbours[0] and sum(state.dice_used) == 2


async def test_the_dice_actions_and_an_old_button_are_refused_in_the_engines_words(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    bot, channel, ann, bob = await _game(fd, start_hauntkeeper)
    old = latest_turn(fd, channel)
    state = await _acting(bot, channel, [HEART] * 7)  # no pick-up die anywhere
    [answer] = await _says(fd, ann, channel, "pickup", what="draw")
    assert answer == content.evil_below_line("errors.illegal_pickup")
    [answer] = await _says(fd, ann, channel, "fight")
    assert answer == content.evil_below_line("errors.illegal_fight")
    [answer] = await _says(fd, ann, channel, "stop")
    assert answer == content.evil_below_line("errors.phase_actions")
    [answer] = await _says(fd, bob, channel, "ride", to="0")
    assert answer == content.evil_below_line("errors.illegal_ride")
    [answer] = await _says(fd, ann, channel, "place", card="x" * 90)
    assert answer == content.evil_below_line("errors.illegal_place")
    # The first post's Roll button is from before the save: stale, and refused.
    roll = next(c for c in old.custom_ids() if c.endswith(":roll"))
    refused = await (await fd.click(ann, old, roll)).wait()
    assert refused.ephemeral_texts() == [say_table("errors.stale")]
    assert (await _state(bot, channel))[1] == state
    # Everyone at the top: a Bravery +1 would change nothing, so it is not a move.
    assert await _says(fd, ann, channel, "courage", what="bravery") == [
        content.evil_below_line("errors.illegal_courage")]
    table, state = await _state(bot, channel)
    state.heroes[0].bravery = 4
    await _set(bot, table, state)
    assert await _says(fd, ann, channel, "courage", what="bravery") == [
        content.evil_below_line("cog.done")]
    assert await _says(fd, ann, channel, "end-turn") == [content.evil_below_line("cog.done")]
    assert (await _state(bot, channel))[1].turn == 1


async def test_place_offers_the_cards_of_this_place_and_matches_typed_names(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    bot, channel, ann, _ = await _game(fd, start_hauntkeeper)
    state = await _acting(bot, channel, [HEART] * 7)
    here = state.heroes[0].location
    mine = [c for c in state.totem_deck if content.card_location(c) == here][:2]
    other = next(c for c in state.totem_deck if content.card_location(c) != here)
    for c in (*mine, other):
        state.totem_deck.remove(c)
    state.heroes[0].hand = [*mine, other]
    table, _ = await _state(bot, channel)
    await _set(bot, table, state)
    offered = await fd.autocomplete(ann, channel, "evilbelow", "place", focused="card")
    assert sorted(int(c["value"]) for c in offered) == sorted(mine)
    [answer] = await _says(fd, ann, channel, "place", card=str(other))
    assert answer == content.evil_below_line("cog.unknown_card", typed=str(other))
    name = content.card_name(mine[1])
    assert await _says(fd, ann, channel, "place", card=name.upper()) == [
        content.evil_below_line("cog.done")]
    assert (await _state(bot, channel))[1].fight_stack[-1] == mine[1]


@pytest.mark.parametrize("standing, to, dice, spent", [
    ([0, 1], 4, [0, 1, 4], 0),  # Bill leaves Neibolt alone: its die is the one nobody needs
    ([1, 3], 0, [0, 3, 5], 5),  # nobody stands at 5, nor will: Bill arrives at 0
    ([0, 0], 4, [0, 4], 0),  # Bev stays at 0 and Bill needs 4: every die is someone's
])
def test_a_move_without_a_die_spends_one_nobody_could_use(
        standing: list[int], to: int, dice: list[int], spent: int) -> None:
    state = arrange(["bill", "bev"], dict(enumerate(standing)))
    assert spare_die(state, dice, 0, to) == spent
