"""Fair seeds (issue 19): only a moderator may choose `/game new seed:` (whoever knows
the seed can work out every seat's secrets with the demo), and a seeded lobby says so
to the whole table. A chosen seed is kept as given, so the demo still reproduces it."""

from __future__ import annotations

import pytest

from bot import table as table_rules
from bot.texts import say
from tests.conftest import BotFactory
from tests.fakediscord import FakeDiscord, FakeMessage


def _fields(message: FakeMessage) -> dict[str, str]:
    return {f["name"]: f["value"] for e in message.embeds for f in e.get("fields", [])}


async def test_only_a_moderator_chooses_the_seed_and_the_lobby_says_so(
        fd: FakeDiscord, start_hauntkeeper: BotFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(fd, "slash")  # no lent role: the rule as players meet it
    player, mod = fd.add_user("player"), fd.add_user("mod", manage_channels=True)
    here, there = fd.add_channel("here"), fd.add_channel("there")
    bot = await start_hauntkeeper()

    refused = await (await fd.slash(player, here, "game", "new", game="cthulhu",
                                    seed=7)).wait()
    assert refused.ephemeral_texts() == [say("errors.seed_mods_only")]
    assert await bot.store.load(here) is None and fd.channel_messages(here) == []

    unseeded = await (await fd.slash(player, here, "game", "new", game="cthulhu")).wait()
    assert unseeded.response is not None
    assert say("lobby.seeded_title") not in _fields(unseeded.response)
    dealt = await bot.store.load(here)
    # A seed no one chose cannot be found by trying every one against the public opening
    # (32 bits could: every secret pair came with it). Below 2**32 by chance: 1 in 2**31.
    assert dealt is not None and 2**32 <= dealt.seed < 2**63

    seeded = await (await fd.slash(mod, there, "game", "new", game="cthulhu", seed=7)).wait()
    lobby = seeded.response
    assert lobby is not None and not lobby.ephemeral  # the whole table reads it
    assert _fields(lobby)[say("lobby.seeded_title")] == say("lobby.seeded")
    table = await bot.store.load(there)
    assert table is not None and table.seed == 7  # as chosen: the demo reproduces it


def test_a_fresh_seed_has_63_bits() -> None:
    drawn = [table_rules.fresh_seed() for _ in range(200)]
    assert all(0 <= seed < 2**table_rules.SEED_BITS for seed in drawn)
    assert table_rules.SEED_BITS == 63 and max(seed.bit_length() for seed in drawn) == 63
    assert len(set(drawn)) == len(drawn)
