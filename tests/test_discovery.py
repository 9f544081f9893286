"""Games, their cogs, renderers and `/game new` options are found by the game's key.

Why: adding a game must be adding its own files (bot/games/<key>/, cogs/<key>.py,
renderers/<key>, data/<key>/), never a line in a shared module. One test reads every
shared module and data file (code, comments and docstrings) for any game's name: its
key, an expansion's, or a name in its titles; the others add a whole game from a
temporary folder (put on the packages' `__path__`) and see it found, its cog loaded,
its board drawn and its setup option offered by `/game new`, through the real bot and
the fake Discord.
"""

from __future__ import annotations

import importlib
import re
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

import bot.games
import cogs
import renderers
from bot import games
from bot.client import extensions
from bot.locales import LANGUAGES, speaking
from bot.paths import ROOT
from cogs.setup_options import option_help
from tests.conftest import BotFactory
from tests.e2e_helpers import PNG_SIGNATURE
from tests.fakediscord import FakeDiscord

# Words of a title that name no game by themselves ("House", "Hill", "Evil"), and the
# marks that part a title into its names ("IT: Evil Below" -> "evil below").
ORDINARY = frozenset({"a", "an", "and", "at", "in", "of", "on", "the", "it", "house",
                      "hill", "evil", "below", "none", "classic", "game",
                      "牠"})  # IT's Chinese name is the Chinese "it" as well
PARTS = re.compile(r"[:：()（）,，、·]|\b(?:a|an|and|at|in|of|on|the|none)\b", re.IGNORECASE)

KEY = "lanterns"
TITLE = "Lanterns in the Dark"
FAKE_GAME = f'''
    """{TITLE}: Cthulhu in the House with a lantern, a game only these tests know."""

    from typing import Any

    from bot.games.cthulhu.rules import CthulhuGame


    class LanternGame(CthulhuGame):
        key = "{KEY}"
        title = "{TITLE}"
        seen: dict[str, Any] = {{}}

        def setup_choices(self) -> dict[str, list[tuple[str, str]]]:
            return {{"lantern": [("red", "Red lantern"), ("blue", "Blue lantern")]}}

        def setup_option_help(self) -> dict[str, str]:
            return {{"lantern": "Which lantern lights the house"}}

        def setup(self, players, seed, options):
            LanternGame.seen = dict(options)
            return super().setup(players, seed, {{k: v for k, v in options.items()
                                                  if k != "lantern"}})


    GAME = LanternGame()
'''
FAKE_COG = f'''
    """`/{KEY} shine`: proof that the game's own cog was loaded."""

    import discord
    from discord import app_commands
    from discord.ext import commands


    class LanternCog(commands.GroupCog, group_name="{KEY}", group_description="Lanterns"):
        @app_commands.command(name="shine", description="Shine the lantern")
        async def shine(self, interaction: discord.Interaction) -> None:
            await interaction.response.send_message("The lantern shines.", ephemeral=True)


    async def setup(bot: commands.Bot) -> None:
        await bot.add_cog(LanternCog())
'''
FAKE_RENDERER = '''
    """A one-pixel board."""

    import io

    from PIL import Image


    def render_board(state, *, width: int = 1) -> bytes:
        out = io.BytesIO()
        Image.new("RGB", (1, 1), "yellow").save(out, "PNG")
        return out.getvalue()
'''
WORK_IN_PROGRESS = '''
    """A game still being built: no GAME yet, so it is not offered."""
'''


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")


@pytest.fixture
def lantern_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The extra game's package, cog and renderer in a temporary folder, on the three
    packages' paths; the registry forgets it (and every module it loaded) afterwards."""
    folder = tmp_path / "extra"
    _write(folder / "games" / KEY / "__init__.py", FAKE_GAME)
    _write(folder / "games" / "unfinished" / "__init__.py", WORK_IN_PROGRESS)
    _write(folder / "cogs" / f"{KEY}.py", FAKE_COG)
    _write(folder / "renderers" / f"{KEY}.py", FAKE_RENDERER)
    importlib.invalidate_caches()
    for package, sub in ((bot.games, "games"), (cogs, "cogs"), (renderers, "renderers")):
        monkeypatch.setattr(package, "__path__", [*package.__path__, str(folder / sub)])
    monkeypatch.setattr(games, "_GAMES", {})
    monkeypatch.setattr(games, "_builtins_loaded", False)
    try:
        yield folder
    finally:
        for name in (f"bot.games.{KEY}", "bot.games.unfinished", f"cogs.{KEY}",
                     f"renderers.{KEY}"):
            sys.modules.pop(name, None)


def _game_words() -> list[str]:
    """Every registered game's key and every game package's name (an expansion such as
    Neibolt is one), and the names in their titles, in each language: each edition's
    title and the label `/game new` offers it by ("... (Pennywise)"), parted at
    punctuation and small words, without the ordinary words a title also holds."""
    words = {name for name in _packages()}
    for language in LANGUAGES:
        with speaking(language):
            for game in games.walk_games():
                words.add(game.key)
                editions = game.edition_keys()
                titles = [game.title_of(edition) for edition in editions]
                titles += [label for choices in game.setup_choices().values()
                           for value, label in choices if value in editions]
                for title in titles:
                    words |= {" ".join(part.lower().split()) for part in PARTS.split(title)}
    return sorted(w for w in words if w.strip() and w not in ORDINARY)


def _packages() -> list[str]:
    return sorted(p.name for p in (ROOT / "bot" / "games").iterdir()
                  if (p / "__init__.py").exists())


def _own(path: Path, folder: Path, keys: set[str]) -> bool:
    """A game's own file in `folder`: in a package named by its key, or a module so named
    (cogs/<key>.py, renderers/<key>.py)."""
    parts = path.relative_to(folder).parts
    return parts[0] in keys or (len(parts) == 1 and path.stem in keys)


def _shared_files() -> list[Path]:
    """Every module and data file the games share: all of bot/ but the game packages,
    cogs/ but a game's own cog, renderers/ but a game's own, and data/*.yaml (a game's
    words are in data/<key>/)."""
    keys = set(_packages()) | set(games.all_games())
    games_folder = ROOT / "bot" / "games"
    found = [p for p in (ROOT / "bot").rglob("*.py")
             if not (p.is_relative_to(games_folder) and _own(p, games_folder, keys))]
    found += [p for folder in (ROOT / "cogs", ROOT / "renderers") for p in folder.rglob("*.py")
              if not _own(p, folder, keys)]
    return sorted(found + list((ROOT / "data").glob("*.yaml")))


def _named(text: str, words: list[str]) -> list[str]:
    """The game names in `text`: a name of several words matches them however they are
    joined ("evil below", "evil_below", "EvilBelow")."""
    pattern = re.compile("|".join(r"[\s_-]*".join(map(re.escape, w.split()))
                                  for w in sorted(words, key=len, reverse=True)),
                         re.IGNORECASE)
    return sorted({m.group(0).lower() for m in pattern.finditer(text)})


def test_the_shared_modules_name_no_game() -> None:
    """A shared module that names a game (in code, a comment or a docstring) is a line a
    newcomer's game would need too: what a game needs of it is a `Game` hook instead."""
    words = _game_words()
    assert {"betrayal", "cthulhu", "evilbelow", "evil below", "neibolt",
            "pennywise"} <= set(words)
    shared = _shared_files()
    assert {ROOT / "bot" / "table.py", ROOT / "bot" / "games" / "base.py",
            ROOT / "cogs" / "lobby_embed.py", ROOT / "renderers" / "canvas.py",
            ROOT / "data" / "texts.yaml", ROOT / "bot" / "core" / "rng.py"} <= set(shared)
    assert not {ROOT / "cogs" / "betrayal.py", ROOT / "renderers" / "betrayal" / "board.py",
                ROOT / "bot" / "games" / "neibolt" / "edition.py"} & set(shared)
    named = {str(path.relative_to(ROOT)): _named(path.read_text(encoding="utf-8"), words)
             for path in shared}
    assert {path: found for path, found in named.items() if found} == {}


def test_a_name_is_found_however_it_is_written() -> None:
    words = _game_words()
    assert _named("see bot/games/evil_below and IT: Evil Below", words) == [
        "evil below", "evil_below"]
    assert _named("Betrayal at the Neibolt House", words) == ["betrayal", "neibolt house"]
    assert _named("the haunted house on the hill", words) == []


def test_the_games_are_the_packages_with_a_game_in_key_order() -> None:
    found = [g.key for g in games.walk_games()]
    assert found == sorted(found)
    assert {"betrayal", "cthulhu"} <= set(found)
    assert "neibolt" not in found  # an edition of Betrayal, with no GAME of its own
    assert set(found) <= set(games.all_games())


# A cog's command group, as cogs/<key>.py declares it (`GroupCog, group_name="<key>"`).
GROUP_NAME = re.compile(r"""GroupCog\b[^)]*?\bgroup_name\s*=\s*["']([^"']+)["']""", re.S)


@pytest.mark.parametrize("key", sorted(games.all_games()))
def test_a_games_key_names_its_package_data_renderer_and_cog(key: str) -> None:
    """README: a game lives at bot/games/<key>/; its words in data/<key>/, its board in
    renderers/<key>.py or renderers/<key>/, its commands (if it has any) in
    cogs/<key>.py, the only name bot/client.py's `extensions` loads. Every registered
    game is held to it, not a list of the games there were. (Evil Below's engine was in
    evil_below/ under the key evilbelow.)"""
    game = games.get(key)
    assert type(game).__module__.split(".")[:3] == ["bot", "games", key]
    for part in (f"bot/games/{key}/__init__.py", f"data/{key}"):
        assert (ROOT / part).exists(), part
    assert renderers.renderer_of(key).__name__ == f"renderers.{key}"
    misnamed = sorted(path.name for path in (ROOT / "cogs").glob("*.py")
                      if key in GROUP_NAME.findall(path.read_text(encoding="utf-8"))
                      and path.stem != key)
    assert misnamed == [], f"/{key}'s commands must be in cogs/{key}.py to be loaded"


def test_the_cogs_named_by_a_game_are_found_by_its_key() -> None:
    """The pattern above reads the game cogs' groups as they are written."""
    found = {path.stem: GROUP_NAME.findall(path.read_text(encoding="utf-8"))
             for path in (ROOT / "cogs").glob("*.py")}
    for key in ("betrayal", "cthulhu", "evilbelow"):
        assert key in found[key], key


def test_each_game_setup_option_is_described_by_its_game() -> None:
    described = option_help(games.all_games())
    for game in games.walk_games():
        words = game.setup_option_help()
        assert set(words) == set(game.setup_choices()), game.key
        assert all(0 < len(described[name]) <= 100 for name in words), game.key


def test_an_extra_game_is_found_with_its_cog_and_renderer(lantern_game: Path) -> None:
    found = games.all_games()
    assert found[KEY].title == TITLE
    assert "unfinished" not in found
    assert {"betrayal", "cthulhu"} <= set(found)
    assert f"cogs.{KEY}" in extensions()
    assert extensions()[:3] == ["cogs.lobby", "cogs.secret", "cogs.moderation"]
    assert renderers.render_public(KEY, None).startswith(PNG_SIGNATURE)
    assert option_help(found)["lantern"] == "Which lantern lights the house"


async def test_an_extra_game_is_offered_and_opened_by_game_new(
        lantern_game: Path, fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    channel = fd.add_channel("lanterns")
    ann = fd.add_user("ann")
    bot = await start_hauntkeeper()

    game_command = fd.command("game")
    assert game_command is not None
    [new] = [o for o in game_command["options"] if o["name"] == "new"]
    options = {o["name"]: o for o in new["options"]}
    assert {"game", "seed", "lantern", "layout", "expansion", "fresh"} <= set(options)
    assert options["lantern"]["description"] == "Which lantern lights the house"
    assert options["lantern"]["autocomplete"] and not options["lantern"]["required"]
    assert {"name": TITLE, "value": KEY} in options["game"]["choices"]

    offered = await fd.autocomplete(ann, channel, "game", "new", focused="lantern",
                                    game=KEY, lantern="bl")
    assert offered == [{"name": "Blue lantern", "value": "blue"}]
    refused = await (await fd.slash(ann, channel, "game", "new", game="cthulhu",
                                    lantern="red")).wait()
    assert refused.ephemeral_texts() == ["Cthulhu in the House has no `lantern` option."]

    await (await fd.slash(ann, channel, "game", "new", game=KEY, seed=3,
                          lantern="Red lantern")).wait()
    table = await bot.store.load_latest(channel)
    assert table is not None and table.kind == KEY
    assert table.options["lantern"] == "red"

    shone = await (await fd.slash(ann, channel, KEY, "shine")).wait()
    assert shone.ephemeral_texts() == ["The lantern shines."]
