"""Secrets and slash command autocomplete, through the real discord.py and the fake
Discord: a suggestion list is a surface too, one only its asker sees, so it may offer a
private choice's cards to their chooser and to no one else.

docs/architecture.md: "An option whose label would reveal a hidden card is `private`:
the public message shows one "choose privately" button instead, and the choices go to
the chooser alone."
"""

from __future__ import annotations

from bot.games.betrayal.context import card_name
from tests.conftest import BotFactory
from tests.fakediscord import FakeDiscord
from tests.test_e2e_seat_changes import crystal_ball_waiting

# `/betrayal` commands whose autocomplete lists the caller's options, and the option
# each completes.
COMPLETED = (("choose", "option"), ("act", "action"), ("use", "item"), ("move", "room"))


async def test_a_private_choices_cards_are_suggested_to_its_chooser_alone(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """A Crystal Ball's look (seed 003: search the deck, set the card you choose on
    top) waits on its chooser: `/betrayal choose` suggests its cards to them; every
    other seat's suggestions, and a member's who holds no seat, name none of them, in
    the channel and from a DM."""
    channel = fd.add_channel("crystal-complete")
    users = [fd.add_user(n) for n in ("ann", "ben", "cat")]
    outsider = fd.add_user("dan")
    _, state, _, chooser = await crystal_ball_waiting(fd, start_hauntkeeper, channel, users)
    cards = {card_name(k) for k in state.script[-1].steps[0]["_crystal_ball_card"]["cards"]}

    mine = await fd.autocomplete(chooser, channel, "betrayal", "choose", focused="option")
    assert mine and {str(c["name"]) for c in mine} <= cards
    for user in [u for u in users if u is not chooser] + [outsider]:
        for where in (channel, fd.open_dm(user)):
            for command, option in COMPLETED:
                offered = await fd.autocomplete(user, where, "betrayal", command,
                                                focused=option)
                named = " ".join(f"{c['name']} {c['value']}" for c in offered)
                assert not any(card in named for card in cards), (user.name, command, named)
