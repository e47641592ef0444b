"""Storage failures are typed errors: a real full database (SQLite's max_page_count) and a
real read-only file, through the Python API, HTTP and the CLI."""

import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from tests.http.conftest import _ServerThread
from threefold import Memory, load_settings
from threefold.errors import StoreError, StoreFull, StoreReadOnly
from threefold.faces.cli import STORE_EXIT, app
from threefold.faces.http import create_app
from threefold.trust.keys import create_key

BIG = "a long pasted log line " * 10_000


def fill_up(mem: Memory) -> None:
    """Cap the file at the pages it has now: the next write that needs a page fails."""
    pages = mem.store._db.execute("PRAGMA page_count").fetchone()[0]
    mem.store._db.execute(f"PRAGMA max_page_count = {pages}")


@contextmanager
def read_only(path: Path) -> Iterator[None]:
    """The file made unwritable for real: chmod, and for root (whom chmod does not stop)
    the immutable attribute."""
    path.chmod(0o444)
    immutable = os.geteuid() == 0
    if immutable:
        if shutil.which("chattr") is None:
            pytest.skip("root ignores file modes and chattr is missing")
        made = subprocess.run(["chattr", "+i", str(path)], capture_output=True)
        if made.returncode:
            pytest.skip(f"cannot make the file immutable: {made.stderr.decode().strip()}")
    try:
        yield
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(path)], check=True)
        path.chmod(0o644)


def test_a_full_database_raises_store_full_and_keeps_what_was_acknowledged(open_memory) -> None:
    # Hostile condition: the database may not grow, and a 230 KB turn arrives.
    mem = open_memory()
    mem.add_turn("chat:1", "kept before the disk filled")
    fill_up(mem)
    with pytest.raises(StoreFull, match="full"):
        mem.add_turn("chat:1", BIG)
    assert [t.user for t in mem.turns("chat:1")] == ["kept before the disk filled"]
    mem.store._db.execute("PRAGMA max_page_count = 1073741823")  # space freed
    mem.add_turn("chat:1", "written once there is room")  # no transaction left stuck
    assert len(mem.turns("chat:1")) == 2


def test_a_read_only_file_reads_and_refuses_writes(tmp_path: Path) -> None:
    # Hostile condition: the database file cannot be written (a read-only mount, say).
    path = tmp_path / "memory.db"
    settings = load_settings(db=path)
    with Memory.open(settings=settings, background_worker=False) as mem:
        mem.add_turn("chat:1", "written while it could be")
    with read_only(path), Memory.open(settings=settings, background_worker=False) as mem:
        assert [t.user for t in mem.turns("chat:1")] == ["written while it could be"]
        with pytest.raises(StoreReadOnly, match="cannot be written"):
            mem.add_turn("chat:1", "refused")
    assert issubclass(StoreReadOnly, StoreError)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[httpx.Client, Memory]]:
    settings = load_settings(db=tmp_path / "memory.db")
    mem = Memory.open(settings=settings, background_worker=False)
    _, secret = create_key(mem.store, "default", "full", label="t")
    with _ServerThread(create_app(mem, settings)) as url:
        headers = {"Authorization": f"Bearer {secret}"}
        with httpx.Client(base_url=url, headers=headers, timeout=30) as client:
            yield client, mem


def test_http_answers_503_store_full_without_the_path(served) -> None:
    # Hostile condition: the database may not grow while a client posts a 230 KB turn.
    client, mem = served
    fill_up(mem)
    answer = client.post("/v1/turns", json={"stream": "chat:1", "user": BIG})
    assert answer.status_code == 503
    error = answer.json()["error"]
    assert error["code"] == "store_full" and "nothing was written" in error["message"]
    assert str(mem.store.path) not in answer.text
    assert client.get("/v1/turns", params={"stream": "chat:1"}).status_code == 200


def test_cli_says_read_only_and_exits_3(tmp_path: Path) -> None:
    # Hostile condition: `add-turn` on a database file that cannot be written.
    db = tmp_path / "cli.db"
    runner = CliRunner()
    assert runner.invoke(app, ["--db", str(db), "add-turn", "chat:1", "--user", "a"]).exit_code == 0
    with read_only(db):
        result = runner.invoke(app, ["--db", str(db), "add-turn", "chat:1", "--user", "b"])
    assert result.exit_code == STORE_EXIT
    assert "store error (store_read_only)" in result.output and "cannot be written" in result.output
