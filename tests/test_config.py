""".env files: parsed by python-dotenv (comments, BOM, quotes, `export`), read from the
project folder and the working folder (the working folder's wins), the environment
winning over both."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from bot import config, paths
from bot.config import ConfigError, dotenv_places, load_settings, read_dotenv


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


def test_a_postgresql_database_keeps_its_heartbeat_in_a_writable_state_folder(
        tmp_path: Path) -> None:
    """Not the working folder: the image's /app is root's, and every container would be
    unhealthy. $XDG_STATE_HOME when set, else the temporary folder; named by the
    database, so two bots on two databases keep two beats."""
    url = "postgresql://hk@db.example/hauntkeeper"
    settings = load_settings({"DISCORD_TOKEN": "t", "HAUNTKEEPER_DB": url}, ())
    assert settings.db_path == url
    beat = Path(settings.health_file or "")
    assert beat.parent == Path(tempfile.gettempdir()) and beat.name.endswith("-heartbeat")
    state = load_settings({"DISCORD_TOKEN": "t", "HAUNTKEEPER_DB": url,
                           "XDG_STATE_HOME": str(tmp_path)}, ())
    assert Path(state.health_file or "").parent == tmp_path
    other = load_settings({"DISCORD_TOKEN": "t", "HAUNTKEEPER_DB": url + "2"}, ())
    assert other.health_file != settings.health_file


@pytest.mark.parametrize("value, says", [
    ("sqlite:///hk.db", "not a sqlite:// URL"),
    ("mysql://u:hunter2@host/db", "not a mysql:// URL"),
    ("postgresql://u:hunter2@host:54x2/db", "port must be a number"),
    ("postgres://u:hunter2@host:99999/db", "port must be a number"),
    ("postgresql://u:hunter2@[::1/db", "malformed"),
])
def test_a_database_setting_of_another_kind_is_refused_without_its_password(
        value: str, says: str) -> None:
    with pytest.raises(ConfigError) as refused:
        load_settings({"DISCORD_TOKEN": "t", "HAUNTKEEPER_DB": value}, ())
    line = str(refused.value)
    assert says in line and "HAUNTKEEPER_DB" in line and "\n" not in line
    assert "hunter2" not in line and "hk.db" not in line


@pytest.mark.parametrize("value", [
    "hk.sqlite3", "/data/hauntkeeper.sqlite3", ":memory:", "C:\\games\\hk.sqlite3",
    "postgresql://u:p@host:5432/db", "postgres://u@h1:5432,h2:5433/db",
    "postgresql://u@/db?host=/run/postgresql", "postgresql://u:p@[::1]:5432/db",
])
def test_paths_and_postgresql_urls_are_taken(value: str) -> None:
    assert load_settings({"DISCORD_TOKEN": "t", "HAUNTKEEPER_DB": value}, ()).db_path == value


@pytest.mark.parametrize("days, ok", [("", True), ("0", True), ("2.5", True),
                                      ("-1", False), ("soon", False), ("1e9", False)])
def test_the_grace_before_a_left_server_is_forgotten(days: str, ok: bool) -> None:
    env = {"DISCORD_TOKEN": "t", "HAUNTKEEPER_FORGET_AFTER_DAYS": days}
    if ok:
        expected = float(days) if days else config.GRACE_DAYS
        assert load_settings(env, ()).forget_after_days == expected
    else:
        with pytest.raises(ConfigError, match="HAUNTKEEPER_FORGET_AFTER_DAYS"):
            load_settings(env, ())
