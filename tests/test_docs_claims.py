"""The pages a newcomer reads name commands, settings, games and numbers that the code
defines elsewhere; these checks keep the two in step, so a renamed option, a new
setting or a changed limit breaks a test instead of a reader's first hour.

- every slash command a page writes in backticks (`/game new game:betrayal`,
  `/gm undo [steps]`, `/gm settings language`) exists in the bot's command tree, with
  those options, and a value given to an option with fixed choices is one of them;
- every setting in README.md's table is read by the code (bot/config.py, or
  bot/paths.py for the content folder), and every setting the code reads is in it;
- every `python -m bot` subcommand and option a page names is the command line's;
- `.ci/run` runs exactly the test command README.md gives;
- README.md's table of games names every registered game with its player count, and
  every expansion a game offers;
- the numbers README.md quotes are the constants the code uses.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from discord import app_commands

from bot import config, games, health, paths
from bot.__main__ import main as cli_main
from bot.client import RETRY_SECONDS, HauntBot
from bot.guild_settings import MAX_CHANNELS, MAX_MINUTES
from bot.metrics import OPEN_GAMES_SECONDS
from bot.store.postgres import LOCK_WAIT
from bot.table_record import UNDO_KEPT
from cogs.click_limit import CLICKS_PER_WINDOW
from tests.test_docs_paths import PAGES, ROOT

README = ROOT / "README.md"
GROUPS = ("game", "gm", "stats", "secret", "help", *games.all_games())
# A command in backticks: `/group ...`, for the groups and commands the bot defines.
COMMAND = re.compile(r"`/(" + "|".join(map(re.escape, GROUPS)) + r")\b([^`]*)`")
SETTING = re.compile(r"^\| `((?:HAUNTKEEPER_[A-Z_]+|DISCORD_TOKEN))`"
                     r"(?: · `(HAUNTKEEPER_[A-Z_]+)`)?", re.M)
READ = re.compile(r"\"((?:HAUNTKEEPER_[A-Z_]+|DISCORD_TOKEN))\"")


def _text(page: Path) -> str:
    return page.read_text(encoding="utf-8")


def _flat(text: str) -> str:
    """The page's words with its line breaks and runs of spaces made single spaces."""
    return " ".join(text.split())


async def _leaves() -> dict[str, app_commands.Command[Any, ..., Any]]:
    bot = HauntBot(db_path=":memory:", serve=False)
    await bot.setup_hook()
    try:
        return {command.qualified_name: command for command in bot.tree.walk_commands()
                if isinstance(command, app_commands.Command)}
    finally:
        await bot.close()


def named_commands(text: str) -> list[tuple[list[str], list[tuple[str, str | None]]]]:
    """(command words, [(option, value or None)]) of each command a page writes: `name:`
    and `name:value` are options, `[name]` an optional one; a bare word is a subcommand
    until the command is complete, then an option named without a value."""
    found = []
    for match in COMMAND.finditer(text):
        words = [match.group(1)]
        options: list[tuple[str, str | None]] = []
        for token in match.group(2).split():
            bracketed = re.fullmatch(r"\[([a-z_]+)\]", token)
            given = re.fullmatch(r"([a-z_]+):(\S*)", token)
            if bracketed:
                options.append((bracketed.group(1), None))
            elif given:
                value = given.group(2)
                options.append((given.group(1), value if value and "<" not in value else None))
            elif re.fullmatch(r"[a-z][a-z_-]*", token):
                words.append(token)
        found.append((words, options))
    return found


async def test_every_command_a_page_names_exists_with_its_options() -> None:
    leaves = await _leaves()
    groups = {name.split()[0] for name in leaves}
    wrong: list[str] = []
    checked = 0
    for page in PAGES:
        for words, options in named_commands(_text(page)):
            where = f"{page.relative_to(ROOT)}: /{' '.join(words)}"
            if words[0] not in groups and " ".join(words) not in leaves:
                wrong.append(f"{where}: no such command")
                continue
            command = None
            for n in range(len(words), 0, -1):
                command = leaves.get(" ".join(words[:n]))
                if command is not None:
                    options = [(w, None) for w in words[n:]] + options
                    break
            if command is None:
                if options or len(words) > 1:
                    wrong.append(f"{where}: no such command")
                continue  # a group named alone (`/gm`)
            params = {p.display_name: p for p in command.parameters}
            for name, value in options:
                checked += 1
                param = params.get(name)
                if param is None:
                    wrong.append(f"{where}: no option {name!r}")
                elif value is not None and param.choices and value not in {
                        str(c.value) for c in param.choices}:
                    wrong.append(f"{where}: {name}:{value} is not one of its choices")
    assert not wrong, "\n".join(wrong)
    assert checked > 30  # the reader found the commands' options


def test_the_command_reader_reads_the_pages_forms() -> None:
    text = ("`/game new game:<game> [seed] [layout]` · `/gm settings language` · "
            "`/betrayal move direction:` · `/game new game:betrayal expansion:neibolt` · `/gm`")
    assert named_commands(text) == [
        (["game", "new"], [("game", None), ("seed", None), ("layout", None)]),
        (["gm", "settings", "language"], []),
        (["betrayal", "move"], [("direction", None)]),
        (["game", "new"], [("game", "betrayal"), ("expansion", "neibolt")]),
        (["gm"], []),
    ]


def test_every_setting_readme_lists_is_read_and_every_one_read_is_listed() -> None:
    listed = {name for pair in SETTING.findall(_text(README)) for name in pair if name}
    read = set(READ.findall(Path(config.__file__).read_text(encoding="utf-8")))
    read |= set(READ.findall(Path(paths.__file__).read_text(encoding="utf-8")))
    assert "HAUNTKEEPER_DB" in listed and "HAUNTKEEPER_DATA" in read
    assert listed == read


def test_ci_runs_exactly_the_readme_test_command() -> None:
    steps = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()
             if line.strip() and not line.lstrip().startswith("#")]
    said = re.search(r"the test command is:\s*```\s*\n(.+?)\n```", _text(README), re.S)
    assert said is not None, "README.md no longer says the test command"
    assert steps[-1] == said.group(1).strip() == "python -m pytest"
    assert "bash .ci/run" in _text(README)


def test_the_games_table_names_every_game_its_players_and_expansions() -> None:
    rows = [line for line in _text(README).splitlines()
            if line.startswith("| ") and " players" in line]
    for key, game in games.all_games().items():
        [row] = [r for r in rows if r.startswith(f"| {game.title} (")]
        assert f"{game.min_players}-{game.max_players} players" in row, key
        for value, _ in game.setup_choices().get("expansion", []):
            assert game.title_of(value) in _text(README), (key, value)
            if game.title_of(value) != game.title:
                assert f"game:{key} expansion:{value}" in _text(README), (key, value)


@pytest.mark.parametrize("phrase", [
    f"kept for the last {UNDO_KEPT} moves",
    f"at most {MAX_MINUTES}, a week",
    f"at most {MAX_CHANNELS})",
    f"more than {CLICKS_PER_WINDOW[0]} clicks in {CLICKS_PER_WINDOW[1]:g} seconds",
    f"the bot retries every {RETRY_SECONDS:g} seconds",
    f"writes every {health.INTERVAL:g} s while connected",
    f"less than {health.FRESH:g} s old",
    f"counted every {OPEN_GAMES_SECONDS:g} s",
    f"waiting up to {LOCK_WAIT:g} s",
    f"| `{config.GRACE_DAYS:g}` |",
    f"| `{config.DEFAULT_DB}` |",
    f"| `{config.METRICS_ADDR}` |",
])
def test_readme_quotes_the_numbers_the_code_uses(phrase: str) -> None:
    assert phrase in _flat(_text(README))


CLI = re.compile(r"-m bot((?: (?!#)[^\s`&]+)*)")


def test_every_command_line_option_a_page_names_is_the_command_lines(
        capsys: pytest.CaptureFixture[str]) -> None:
    """`python -m bot sync --guild ID`: the subcommand exists and takes that option."""
    helps: dict[str, str] = {}
    wrong: list[str] = []
    for page in PAGES:
        for match in CLI.finditer(_text(page)):
            words = match.group(1).split()
            sub = words[0] if words and not words[0].startswith("-") else ""
            if sub not in helps:
                with pytest.raises(SystemExit):
                    cli_main([sub, "--help"] if sub else ["--help"])
                helps[sub] = capsys.readouterr().out
                if sub and f"usage: hauntkeeper {sub}" not in helps[sub]:
                    wrong.append(f"{page.relative_to(ROOT)}: no subcommand {sub!r}")
            for word in words:
                option = word.split("=")[0]
                if option.startswith("--") and not re.search(
                        rf"(?<![\w-]){re.escape(option)}(?![\w-])", helps[sub]):
                    wrong.append(f"{page.relative_to(ROOT)}: {sub or 'run'} has no {option}")
    assert "sync" in helps and "demo" in helps
    assert not wrong, "\n".join(wrong)
