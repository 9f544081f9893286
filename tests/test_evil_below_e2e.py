"""A game of IT: Evil Below through the real discord.py and the fake Discord.

Four people open a lobby by `/game new game:evilbelow`, join and start. The first rolls
by command (the dice are drawn on the board); one friend rides a Bike on
another's turn and places a totem with the button under his name; the fight is
revealed card by card on one message that is edited in place; the bot restarts
mid-fight and the old Reveal button still works; a moderator hands a seat to the AI;
an outsider is refused; and the table plays on by clicking until the game is won or
lost.
"""

from __future__ import annotations

import random
from typing import Any

from bot.games.evilbelow import GAME, content
from bot.games.evilbelow.state import ACTIONS, LOSSES, WIN, EvilBelowState
from bot.store import OVER
from bot.texts import say as say_table
from tests.conftest import BotFactory
from tests.e2e_helpers import PNG_SIGNATURE, game_components, latest_turn, to_move
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser, InteractionHandle

SEED = 5
MAX_CLICKS = 900  # far more than a game of four takes; a game that never ends fails


def _buttons(message: FakeMessage) -> dict[str, str]:
    return {str(c["label"]): str(c["custom_id"]) for c in game_components(message)
            if c["type"] == 2}


def _labels(message: FakeMessage) -> set[str]:
    """The message's game buttons, their counts left off ("Reveal a card (7 left)")."""
    return {label.split(" (")[0] for label in _buttons(message)}


def _button(message: FakeMessage, start: str) -> str:
    found = [cid for label, cid in _buttons(message).items() if label.startswith(start)]
    assert found, f"no button starting {start!r} in {sorted(_buttons(message))}"
    return found[0]


async def _saved(fd: FakeDiscord, bot: Any, channel: int) -> tuple[Any, EvilBelowState]:
    table = await bot.store.load_latest(channel)
    assert table is not None and table.state is not None
    return table, GAME.load(table.state)


async def _arrange(bot: Any, channel: int, state: EvilBelowState, table: Any) -> EvilBelowState:
    """After the first roll: the fight is set up where the first player stands. The
    third player stands there too, Pennywise is there, the second player holds a Bike
    and a totem of that place, and the Fight Stack holds only totems (its attack card
    back on the attack pile), so the fight can be revealed card by card."""
    here = state.heroes[0].location
    state.pennywise = here
    state.heroes[2].location = here
    bob = state.heroes[1]
    bob.location = (here + 1) % 7
    if not bob.bike:
        lying = next(loc for loc, n in enumerate(state.bikes) if n)
        state.bikes[lying] -= 1
        bob.bike = True
    totem = next(c for c in state.totem_deck if content.card_location(c) == here)
    state.totem_deck.remove(totem)
    bob.hand.append(totem)
    attacks = [c for c in state.fight_stack if content.is_attack(c)]
    state.fight_stack = [c for c in state.fight_stack if not content.is_attack(c)]
    state.attack_pile[:0] = attacks
    table.state = GAME.dump(state)
    await bot.store.save(table, [], expected_version=table.version, actor_id=None,
                         action=None)
    return state


async def _click(fd: FakeDiscord, user: FakeUser, message: FakeMessage,
                 custom_id: str) -> InteractionHandle:
    return await (await fd.click(user, message, custom_id)).wait()


async def test_four_friends_play_evil_below_by_commands_and_clicks(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    channel = fd.add_channel("derry")
    ann, bob, cat, dan = (fd.add_user(n) for n in ("ann", "bob", "cat", "dan"))
    eve = fd.add_user("eve")
    mod = fd.add_user("mod", manage_channels=True)
    bot = await start_hauntkeeper()
    opened = await (await fd.slash(ann, channel, "game", "new", game="evilbelow",
                                   seed=SEED, youngest="1")).wait()
    lobby = opened.messages[-1]
    fields = {f["name"]: f["value"] for e in lobby.embeds for f in e.get("fields", [])}
    assert fields.get("Youngest") == "Seat 1 is the youngest"
    for user in (bob, cat, dan):
        await (await fd.slash(user, channel, "game", "join")).wait()
    await (await fd.slash(ann, channel, "game", "start")).wait()
    users = {u.id: u for u in (ann, bob, cat, dan)}

    first = latest_turn(fd, channel)
    assert to_move(first) == ann.id
    assert "Roll the dice" in _labels(first)

    # An outsider is refused, by button and by command, and nothing changes.
    before = await _saved(fd, bot, channel)
    refused = await _click(fd, eve, first, _button(first, "Roll the dice"))
    assert refused.ephemeral_texts() == [say_table("errors.not_seated")]
    typed = await (await fd.slash(eve, channel, "evilbelow", "roll")).wait()
    assert typed.ephemeral_texts() == [content.evil_below_line("errors.not_playing")]
    assert (await _saved(fd, bot, channel))[0].version == before[0].version
    # The wrong player's command gets the engine's reason.
    early = await (await fd.slash(bob, channel, "evilbelow", "roll")).wait()
    assert early.ephemeral_texts() == [content.evil_below_line("errors.not_your_turn",
                                                               player="ann")]

    # Ann rolls by command: the dice are drawn on the board, one image per post (a
    # second one Discord would lay beside it, cropped).
    rolled = await (await fd.slash(ann, channel, "evilbelow", "roll")).wait()
    assert rolled.ephemeral_texts() == [content.evil_below_line("cog.done")]
    post = latest_turn(fd, channel)
    assert [name for name, _ in post.attachments] == ["board.png"]
    assert all(data.startswith(PNG_SIGNATURE) for _, data in post.attachments)
    table, state = await _saved(fd, bot, channel)
    while state.pending is not None:  # a tie for Pennywise, or damage to place
        picks = await fd.autocomplete(ann, channel, "evilbelow", "choose", focused="option")
        assert picks, "a choice waits but autocomplete offers nothing"
        await (await fd.slash(ann, channel, "evilbelow", "choose",
                              option=picks[0]["value"])).wait()
        table, state = await _saved(fd, bot, channel)
    assert state.phase == ACTIONS and state.turn == 0
    # /game status, /game map and /game log answer privately, with public facts only.
    status = await (await fd.slash(cat, channel, "game", "status")).wait()
    assert status.response is not None and status.response.ephemeral
    assert "Fight Stack 7 (attack cards: 1)" in status.response.text
    shown = (await (await fd.slash(cat, channel, "game", "map")).wait()).messages[-1]
    assert shown.ephemeral and shown.attachments[0][1].startswith(PNG_SIGNATURE)
    assert shown.descriptions[0] and "ann" in shown.descriptions[0]  # its alt text
    log = await (await fd.slash(cat, channel, "game", "log")).wait()
    assert "rolls:" in log.ephemeral_texts()[0]
    state = await _arrange(bot, channel, state, table)
    here = state.heroes[0].location
    where = content.board().names[here]

    # Bob rides his Bike on Ann's turn, by command with autocomplete of legal places.
    offered = await fd.autocomplete(bob, channel, "evilbelow", "ride", focused="to")
    assert {c["name"] for c in offered} == {n for i, n in enumerate(content.board().names)
                                           if i != state.heroes[1].location}
    ride = await (await fd.slash(bob, channel, "evilbelow", "ride", to=str(here))).wait()
    assert ride.ephemeral_texts() == [content.evil_below_line("cog.done")]
    post = latest_turn(fd, channel)
    assert f"to {where}" in post.text and to_move(post) == ann.id
    assert f"<@{bob.id}> may act now too" in post.text
    place = _button(post, "bob: Place")
    wrong = await _click(fd, ann, post, place)  # Bob's button is Bob's alone
    assert wrong.ephemeral_texts() == [say_table("errors.not_your_button", name="bob")]
    size = len((await _saved(fd, bot, channel))[1].fight_stack)
    await _click(fd, bob, post, place)
    assert len((await _saved(fd, bot, channel))[1].fight_stack) == size + 1

    # The fight, on the turn's live message edited card by card.
    post = latest_turn(fd, channel)
    await _click(fd, ann, post, _button(post, "Fight Pennywise"))
    fight = latest_turn(fd, channel)
    assert fight.id == post.id and "Reveal a card" in _labels(fight)
    assert "Stop and collect" not in _labels(fight)  # at least one card first
    board_before = fight.attachments[0][1]
    await _click(fd, ann, fight, _button(fight, "Reveal a card"))
    edited = latest_turn(fd, channel)
    assert edited.id == fight.id  # no new message: the same one, edited
    assert edited.text.count("Revealed:") == 1
    assert {"Reveal a card", "Stop and collect"} <= _labels(edited)
    assert [name for name, _ in edited.attachments] == ["board.png"]
    assert edited.attachments[0][1] != board_before  # the board moved on: one card out

    # A restart mid-fight: the bot goes on editing the same message.
    bot = await start_hauntkeeper()
    await _click(fd, ann, edited, _button(fd.message(fight.id), "Reveal a card"))
    _, state = await _saved(fd, bot, channel)
    assert state.fight is not None and len(state.fight.revealed) == 2
    post = latest_turn(fd, channel)
    # the message tells the newest card (the count says two are out; the log has both)
    assert post.id == fight.id and post.text.count("Revealed:") == 1
    assert "Totems out: 2" in post.text
    await _click(fd, ann, post, _button(post, "Stop and collect"))
    _, state = await _saved(fd, bot, channel)
    assert state.fight is None and state.turn == 1  # a fight ends the turn

    # A moderator hands Dan's seat to the AI; it plays his turns from now on.
    kicked = await (await fd.slash(mod, channel, "gm", "kick", player=dan)).wait()
    assert "played by the AI" in kicked.ephemeral_texts()[-1]
    table, _ = await _saved(fd, bot, channel)
    assert table.seats[3].ai

    # The table plays on, by clicking, to a win or a loss.
    rng = random.Random(SEED)
    for _ in range(MAX_CLICKS):
        table, state = await _saved(fd, bot, channel)
        if table.status == OVER:
            break
        post = latest_turn(fd, channel)
        mover = users[to_move(post) or 0]
        await _press(fd, mover, post, rng)
    table, state = await _saved(fd, bot, channel)
    assert table.status == OVER and state.over
    assert state.result in (WIN, *LOSSES)
    assert table.seats[3].ai and table.seats[3].user_id == dan.id


async def _press(fd: FakeDiscord, user: FakeUser, message: FakeMessage,
                 rng: random.Random) -> None:
    """One of the mover's own controls (never another seat's row): a choice or a roll
    first, mostly a die's action, now and then the fight or the end of the turn."""
    others = [f"{n}: " for n in ("ann", "bob", "cat", "dan")]
    comps = [c for c in game_components(message)
             if not str(c.get("label") or c.get("placeholder", "")).startswith(tuple(others))]
    buttons = [c for c in comps if c["type"] == 2]
    selects = [c for c in comps if c["type"] == 3]
    first = [c for c in buttons if ":choose~" in c["custom_id"]
             or str(c["label"]).startswith(("Roll", "Reveal", "Stop", "Fight"))]
    if first and (not selects or rng.random() < 0.8):
        pick = rng.choice(first)
        if str(pick["label"]).startswith("Reveal") and rng.random() < 0.4:
            pick = next((c for c in first if str(c["label"]).startswith("Stop")), pick)
        await (await fd.click(user, message, pick["custom_id"])).wait()
        return
    if selects and rng.random() < 0.85:
        select = rng.choice(selects)
        value = rng.choice(select["options"])["value"]
        await (await fd.select(user, message, select["custom_id"], [value])).wait()
        return
    await (await fd.click(user, message, rng.choice(buttons)["custom_id"])).wait()
