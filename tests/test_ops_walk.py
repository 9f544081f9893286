"""A new operator's first hour, as README.md and docs/operations.md promise it: every
wrong setting or argument is one line, never a traceback, and says which setting; the
container's health probe stays light.

- `HAUNTKEEPER_DATA` naming a folder that is not there (or holds no content) stopped
  every command, `--help` and the Docker HEALTHCHECK's `health` included, with a
  traceback from deep in a game's import; now `health` and the operator commands never
  load the games, and the commands that do say in one line which setting to fix.
- `health` loaded every game's rules and content (for the demo's --game choices) on
  each probe, though `bot/__main__.py` says it starts without them.
- `demo --out` at a folder that cannot be made was a traceback.
- A PostgreSQL server that refuses the connection said only "could not start:
  [Errno 111] Connect call failed", naming neither PostgreSQL nor HAUNTKEEPER_DB; a
  server not up (yet) is exit 1 (a restart may mend it: the systemd unit's
  RestartPreventExitStatus=2 must not keep the bot down), one that refuses who we are
  (a database or role that does not exist) exit 2.
- A second SIGTERM during the stop cut the close short and the process never exited.
- README's Docker section said a mounted `/app/.env` is read, but the image's own
  HAUNTKEEPER_DB wins over it: the page now says to pass it with `docker run -e`.
- A backup into a folder that is not there said SQLite's "unable to open database file".
- The neibolt demo called itself "Betrayal at House on the Hill (neibolt)".
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
from contextlib import suppress
from pathlib import Path

import pytest

from bot import demo, games
from bot.table_record import OVER, Table
from tests.fakediscord import FakeDiscord
from tests.pg_server import SUPERUSER, PgServer
from tests.test_e2e_crash import ROOT, BotProcess

NOWHERE = "http://127.0.0.1:9/api/v10"
NEIBOLT = ("betrayal", "neibolt")  # README's `game:betrayal expansion:neibolt`
# The second signal's delay: inside the stop's first steps (the metrics endpoint's close
# alone waits up to half a second for its server's poll).
SECOND_SIGNAL_AFTER = 0.15
LOADED_GAMES = ("import sys; from bot.__main__ import main; main(sys.argv[1:]); "
                "print(sorted(m for m in sys.modules if m.startswith('bot.games.')))")


def cli(*args: str, cwd: Path, **settings: str) -> subprocess.CompletedProcess[str]:
    """`python -m bot ARGS` as an operator runs it, with only these settings (Discord at
    an address where nothing listens: nothing here may reach it)."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("DISCORD_", "HAUNTKEEPER_", "PYTHON", "XDG_"))}
    env.update(HOME=str(cwd), PYTHONPATH=str(ROOT), PYTHONDONTWRITEBYTECODE="1",
               HAUNTKEEPER_DISCORD_API=NOWHERE, **settings)
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120, check=False)


def one_line(result: subprocess.CompletedProcess[str], code: int = 2) -> str:
    """The one line the command said (on stderr), having exited with `code`."""
    assert result.returncode == code, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr + result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def _closed_port() -> int:
    """A port on this machine where nothing listens (bound, then let go)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize("command", [["health"], ["backup", "copy.sqlite3"],
                                     ["forget-guild", "5"]])
def test_the_operator_commands_load_no_game(tmp_path: Path, command: list[str]) -> None:
    """docs/operations.md: the Docker image's HEALTHCHECK runs `python -m bot health`
    every 30 s; bot/__main__.py: `health` starts "without paying for the rest" (the
    games' rules and content, a third of a second)."""
    result = subprocess.run([sys.executable, "-c", LOADED_GAMES, *command], cwd=tmp_path,
                            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
                            capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


@pytest.mark.parametrize("folder", ["missing", "empty"])
def test_a_content_folder_that_cannot_be_read_isone_line(tmp_path: Path,
                                                          folder: str) -> None:
    """README.md: HAUNTKEEPER_DATA is "another content folder instead of the packaged
    data/"; a setting that is wrong stops the start in one line (exit 2)."""
    (tmp_path / "empty").mkdir()
    content = str(tmp_path / folder)
    line = one_line(cli("demo", "--out", "out", cwd=tmp_path, HAUNTKEEPER_DATA=content))
    assert "HAUNTKEEPER_DATA" in line and content in line
    line = one_line(cli(cwd=tmp_path, DISCORD_TOKEN="x", HAUNTKEEPER_DATA=content))
    assert "HAUNTKEEPER_DATA" in line
    # the container's probe and --help do not read the content at all
    health = cli("health", cwd=tmp_path, HAUNTKEEPER_DATA=content)
    assert "no heartbeat" in one_line(health, code=1)
    shown = cli("--help", cwd=tmp_path, HAUNTKEEPER_DATA=content)
    assert shown.returncode == 0 and "demo" in shown.stdout, shown.stderr


def test_a_demo_folder_that_cannot_be_made_isone_line(tmp_path: Path) -> None:
    """README.md's demo writes its transcript and boards to --out: a file in its way is
    the user's argument to fix, said in one line (exit 2), not a traceback."""
    (tmp_path / "taken").write_text("a file, not a folder\n")
    line = one_line(cli("demo", "--out", "taken", cwd=tmp_path))
    assert "taken" in line


def test_a_postgresql_server_that_is_not_up_is_named_and_exit_1(tmp_path: Path) -> None:
    """docs/operations.md's exit codes: 1 a failure while running, 2 a setting that is
    wrong; its systemd unit restarts on 1 and never on 2. A database server not up yet
    (at boot, say) mends by itself: exit 1, and the line says it is the database."""
    url = f"postgresql://hauntkeeper:hunter2@127.0.0.1:{_closed_port()}/hauntkeeper"
    line = one_line(cli(cwd=tmp_path, DISCORD_TOKEN="x", HAUNTKEEPER_DB=url), code=1)
    assert "HAUNTKEEPER_DB" in line and "PostgreSQL" in line and "hunter2" not in line
    line = one_line(cli("forget-guild", "5", cwd=tmp_path, HAUNTKEEPER_DB=url), code=1)
    assert "PostgreSQL" in line and "hunter2" not in line


def test_a_postgresql_database_that_does_not_exist_is_a_setting(tmp_path: Path,
                                                                pg_server: PgServer) -> None:
    """A database name or role the server refuses will not mend on a restart: exit 2,
    one line naming the setting."""
    url = f"postgresql://{SUPERUSER}@/no_such_db?host={pg_server.socket_dir}"
    line = one_line(cli(cwd=tmp_path, DISCORD_TOKEN="x", HAUNTKEEPER_DB=url), code=2)
    assert "HAUNTKEEPER_DB" in line and "no_such_db" in line


async def test_a_second_sigterm_during_the_stop_still_ends_the_process(
        fd: FakeDiscord, tmp_path: Path) -> None:
    """docs/operations.md: on SIGTERM the bot "closes the Discord connection and the
    store, removes its heartbeat and exits 0 ... a stop never hangs until SIGKILL". A
    second SIGTERM while it closed (a supervisor's, `timeout`'s: it signals the process
    and its group) cancelled the close halfway: the store's reader thread was left
    running and the process never exited."""
    beat = tmp_path / "hauntkeeper.sqlite3-heartbeat"
    bot = BotProcess(fd, tmp_path, env={"HAUNTKEEPER_METRICS_PORT": str(_closed_port())})
    await bot.start()
    assert bot.proc is not None
    try:
        await fd.wait_until(beat.exists, timeout=20, what="the first heartbeat")
        bot.proc.send_signal(signal.SIGTERM)
        await asyncio.sleep(SECOND_SIGNAL_AFTER)  # within the stop: the metrics' close
        with suppress(ProcessLookupError):  # a stop quicker than that is gone already
            bot.proc.send_signal(signal.SIGTERM)
        try:
            code: int | None = await asyncio.wait_for(bot.proc.wait(), 20)
        except TimeoutError:
            code = None  # hung after its stop
    finally:
        if bot.proc.returncode is None:  # do not leave it running
            await bot.kill()
    log = bot.logs[-1].read_text()
    assert code == 0, f"exit {code}: {log}"
    assert "Traceback" not in log
    assert not Path(f"{bot.db}-wal").exists()  # every connection closed


def test_the_docker_section_says_which_settings_the_image_fixes() -> None:
    """README.md: "a `.env` mounted at `/app/.env` is read", and the environment wins
    over `.env`: a setting the Dockerfile's ENV gives (HAUNTKEEPER_DB) cannot be changed
    from that `.env`. An operator moving the container to PostgreSQL put the URL there
    and the bot went on with the SQLite file; the page must say to use `docker run -e`."""
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    fixed = set(re.findall(r"\b(HAUNTKEEPER_[A-Z_]+)=", dockerfile))
    assert fixed  # the image's database on its volume
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    docker = " ".join(readme.split("### With Docker", 1)[1].split("\n## ", 1)[0].split())
    for setting in fixed:
        assert f"-e {setting}=" in docker, setting


def test_a_backup_into_a_folder_that_is_not_there_says_so(tmp_path: Path) -> None:
    """docs/operations.md's example backs up to /backups/...: where that folder is
    missing the line said only SQLite's "unable to open database file"."""
    db = tmp_path / "hauntkeeper.sqlite3"
    sqlite3.connect(db).close()
    line = one_line(cli("backup", str(tmp_path / "backups" / "hk.sqlite3"), cwd=tmp_path,
                          HAUNTKEEPER_DB=str(db)), code=1)
    assert f"no folder {tmp_path / 'backups'}" in line


async def test_the_demo_names_the_box_it_played(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """README.md's games table: `expansion:neibolt` plays "Betrayal at the Neibolt
    House", as the lobby names it; the demo's first line said "Betrayal at House on the
    Hill (neibolt)"."""
    game = games.get(NEIBOLT[0])
    monkeypatch.setattr(demo, "run_demo", _no_game)
    assert await demo.main(NEIBOLT[0], 4, 2, tmp_path, expansion=NEIBOLT[1]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    expected = game.title_of(game.edition_of({demo.EXPANSION: NEIBOLT[1]}))
    assert first.startswith(f"{expected}: 4 AI players")
    assert expected != game.title  # the edition has a name of its own


async def _no_game(kind: str, players: int, seed: int, out: Path,
                   expansion: str | None = None) -> tuple[Table, demo.FileOutlet]:
    """The demo's headline alone: no game played (a whole one is the demo's own test)."""
    return Table(channel_id=1, guild_id=1, kind=kind, host_id=1, seed=seed, status=OVER,
                 version=7), demo.FileOutlet(out)
