""".env files: parsed by python-dotenv (comments, BOM, quotes, `export`), read from the
project folder and the working folder (the working folder's wins), the environment
winning over both."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot import config, paths
from bot.config import dotenv_places, load_settings, read_dotenv


def test_dotenv_syntax_comments_bom_quotes_and_export(tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_bytes(
        "\ufeffDISCORD_TOKEN=abc.def-ghi  # the bot's token\n"
        "# a whole-line comment\n"
        "\n"
        "export HAUNTKEEPER_DEV_GUILD=42\n"
        "HAUNTKEEPER_DB=\"/var/lib/hk/games #1.sqlite3\"\n"
        "HAUNTKEEPER_LOG_LEVEL='debug'\n"
        "QUOTED_DOLLAR='${HOME}'\n"
        "BARE_KEY\n".encode())
    values = read_dotenv(dotenv)
    assert values == {"DISCORD_TOKEN": "abc.def-ghi", "HAUNTKEEPER_DEV_GUILD": "42",
                      "HAUNTKEEPER_DB": "/var/lib/hk/games #1.sqlite3",
                      "HAUNTKEEPER_LOG_LEVEL": "debug", "QUOTED_DOLLAR": "${HOME}"}
    settings = load_settings({}, dotenv)
    assert (settings.token, settings.dev_guild, settings.log_level) == ("abc.def-ghi", 42,
                                                                        "DEBUG")
    assert settings.health_file == "/var/lib/hk/games #1.sqlite3-heartbeat"


def test_the_working_folder_wins_over_the_project_and_the_environment_over_both(
        tmp_path: Path) -> None:
    project, work = tmp_path / "project", tmp_path / "work"
    for folder, token, guild in ((project, "project", "1"), (work, "work", None)):
        folder.mkdir()
        lines = [f"DISCORD_TOKEN={token}"] + ([f"HAUNTKEEPER_DEV_GUILD={guild}"] if guild
                                              else [])
        (folder / ".env").write_text("\n".join(lines) + "\n")
    places = [project / ".env", work / ".env"]
    settings = load_settings({}, places)
    assert (settings.token, settings.dev_guild) == ("work", 1)  # a key only one file sets
    assert load_settings({"DISCORD_TOKEN": "env"}, places).token == "env"
    assert load_settings({"DISCORD_TOKEN": "x"}, ()).dev_guild is None  # () reads none


def test_the_places_are_the_checkout_then_the_working_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert paths.checkout() == paths.ROOT  # the tests run from a checkout
    assert dotenv_places(tmp_path) == [paths.ROOT / ".env", tmp_path / ".env"]
    assert dotenv_places(paths.ROOT) == [paths.ROOT / ".env"]  # one file, read once
    monkeypatch.setattr(config, "checkout", lambda: None)  # as from an installed wheel
    assert dotenv_places(tmp_path) == [tmp_path / ".env"]


def test_a_bot_started_elsewhere_reads_the_working_folders_env(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(config, "checkout", lambda: None)
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_text("DISCORD_TOKEN=from-here\nHAUNTKEEPER_DB=:memory:\n")
    settings = load_settings({})
    assert settings.token == "from-here" and settings.health_file is None


def test_a_postgresql_database_keeps_its_heartbeat_in_the_working_folder() -> None:
    settings = load_settings({"DISCORD_TOKEN": "t",
                              "HAUNTKEEPER_DB": "postgresql://hk@db.example/hauntkeeper"})
    assert settings.db_path == "postgresql://hk@db.example/hauntkeeper"
    assert settings.health_file == config.SERVER_HEARTBEAT
