"""A throwaway PostgreSQL server for the tests: initdb into a temporary folder, listening
on a Unix socket there only (no network), fsync off, stopped and deleted at the end.

PostgreSQL refuses to run as root, so under root (a CI container) the server runs as an
unprivileged user (`nobody`); otherwise as whoever runs the tests. Where no PostgreSQL
binaries are found, `find_bindir` says None and the caller skips (or, in CI, fails).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg

SEARCH = ("/usr/lib/postgresql/*/bin", "/usr/local/pgsql/bin", "/usr/local/bin",
          "/usr/pgsql-*/bin")
UNPRIVILEGED = "nobody"
SUPERUSER = "hk"
DATABASE = "hauntkeeper_test"
KEPT_TABLES = ("schema_version",)  # a reset empties every table but this one
SETTINGS = ("listen_addresses=''", "fsync=off", "synchronous_commit=off",
            "full_page_writes=off", "shared_buffers=16MB", "max_connections=60")


class NoServer(Exception):
    """Why no PostgreSQL server can be started here (the skip's reason)."""


def find_bindir() -> Path | None:
    """The folder with initdb and pg_ctl: PATH first, then where packages put them
    (the newest version first)."""
    on_path = shutil.which("initdb")
    if on_path and shutil.which("pg_ctl"):
        return Path(on_path).resolve().parent
    for pattern in SEARCH:
        for folder in sorted(glob.glob(pattern), reverse=True):
            if (Path(folder) / "initdb").exists() and (Path(folder) / "pg_ctl").exists():
                return Path(folder)
    return None


def _runner() -> dict[str, Any]:
    """subprocess arguments that run PostgreSQL's tools as an unprivileged user."""
    if os.geteuid() != 0:
        return {}
    try:
        user = pwd.getpwnam(UNPRIVILEGED)
    except KeyError as exc:
        raise NoServer(f"running as root and there is no {UNPRIVILEGED!r} user to run "
                       "PostgreSQL as") from exc
    return {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}


@dataclass
class PgServer:
    bindir: Path
    root: Path

    @property
    def socket_dir(self) -> Path:
        return self.root

    @property
    def url(self) -> str:
        return f"postgresql://{SUPERUSER}@/{DATABASE}?host={self.socket_dir}"

    def _run(self, *args: str) -> None:
        done = subprocess.run(args, cwd=self.root, capture_output=True, text=True,
                              check=False, **_runner())
        if done.returncode != 0:
            log = self.root / "server.log"
            tail = log.read_text()[-2000:] if log.exists() else ""
            raise NoServer(f"{' '.join(args[:2])} failed: {done.stderr.strip()} {tail}")

    @classmethod
    def start(cls) -> PgServer:
        bindir = find_bindir()
        if bindir is None:
            raise NoServer("no PostgreSQL binaries (initdb, pg_ctl) on PATH or in "
                           + ", ".join(SEARCH))
        runner = _runner()
        root = Path(tempfile.mkdtemp(prefix="hk-pg-"))  # short: a socket path is <108
        if runner:
            os.chown(root, runner["user"], runner["group"])
        server = cls(bindir, root)
        try:
            server._run(str(bindir / "initdb"), "-D", str(root / "data"), "-U", SUPERUSER,
                        "--auth=trust", "--encoding=UTF8", "--no-sync", "--no-instructions")
            server.resume()
            server._run(str(bindir / "createdb"), "-h", str(root), "-U", SUPERUSER, DATABASE)
        except BaseException:
            server.stop()
            raise
        return server

    def pause(self) -> None:
        """Stop the server as an operator's restart does (fast: sessions are cut), its
        data kept for `resume`."""
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.root / "data"), "-m", "fast",
                  "-w", "stop")

    def resume(self) -> None:
        """Start the server (again) on its data, waiting until it takes connections."""
        options = " ".join(f"-c {setting}" for setting in SETTINGS)
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.root / "data"), "-l",
                  str(self.root / "server.log"), "-w", "-o",
                  f"{options} -c unix_socket_directories='{self.root}'", "start")

    def stop(self) -> None:
        if (self.root / "data" / "postmaster.pid").exists():
            subprocess.run([str(self.bindir / "pg_ctl"), "-D", str(self.root / "data"),
                            "-m", "immediate", "-w", "stop"], cwd=self.root,
                           capture_output=True, check=False, **_runner())
        shutil.rmtree(self.root, ignore_errors=True)

    async def reset(self) -> None:
        """Empty every table (ids start again at 1), keeping the schema: a test starts
        from a fresh store in milliseconds instead of a new database."""
        conn = await asyncpg.connect(self.url)
        try:
            names = [r[0] for r in await conn.fetch(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
                if r[0] not in KEPT_TABLES]
            if names:
                await conn.execute(f"TRUNCATE {', '.join(names)} RESTART IDENTITY CASCADE")
        finally:
            await conn.close()
