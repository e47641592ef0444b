"""A SQLite database on read-only storage (issue 40, F5) opens read-only: reads work on
every face, writes are refused as StoreReadOnly, and `serve` answers reads. A store that
fails to open holds nothing open.

Read-only storage is a real read-only bind mount of a folder, as a container's read-only
volume is. Mounting needs root (or CAP_SYS_ADMIN); without it these tests are skipped.
"""

import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from tests.http.test_serve import CLI, _env, _running
from threefold import Memory, load_settings
from threefold.errors import StoreError, StoreReadOnly
from threefold.store import SQLiteStore

STREAM = "project:alpha"


def _mount_read_only(source: Path, target: Path) -> None:
    target.mkdir()
    done = subprocess.run(["mount", "--bind", str(source), str(target)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot bind-mount here: {done.stderr.decode().strip()}")
    subprocess.run(["mount", "-o", "remount,ro,bind", str(target)], check=True)


@pytest.fixture
def read_only(tmp_path: Path) -> Iterator[Callable[[Path], Path]]:
    """Shows a folder through a read-only mount; returns the path of its copy there."""
    mounted: list[Path] = []

    def show(folder: Path) -> Path:
        target = tmp_path / f"read-only-{len(mounted)}"
        _mount_read_only(folder, target)
        mounted.append(target)
        return target

    yield show
    for target in mounted:
        # Lazily: a failed test may still hold a file there, and no mount may outlive it.
        subprocess.run(["umount", "--lazy", str(target)], check=True)


def _memory(db: Path) -> Memory:
    return Memory.open(db, settings=load_settings(), background_worker=False)


def _seeded(folder: Path) -> str:
    """A database closed cleanly (no WAL files beside it), with one fact and a key."""
    folder.mkdir()
    with _memory(folder / "memory.db") as mem:
        mem.write_fact(STREAM, "Raj is the Lead Architect.")
        return mem.create_key(mem.tenant, "full")[1]


def _open_files(path: Path) -> list[str]:
    held = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith(str(path)):
            held.append(target)
    return held


def test_a_cleanly_closed_database_opens_read_only(tmp_path: Path, read_only) -> None:
    _seeded(tmp_path / "data")
    db = read_only(tmp_path / "data") / "memory.db"
    beside = sorted(p.name for p in db.parent.iterdir())
    assert beside == ["memory.db", "memory.db-queue"]  # the writers' queue file stays
    with _memory(db) as mem:
        assert mem.store.read_only
        assert [f.text for f in mem.facts(STREAM)] == ["Raj is the Lead Architect."]
        assert "Raj is the Lead Architect." in mem.context(STREAM, "Who leads?", 2000).text
        assert mem.search("Lead Architect", stream=STREAM)
        with pytest.raises(StoreReadOnly):
            mem.write_fact(STREAM, "Mallory is the Lead Architect.")
        with pytest.raises(StoreReadOnly):
            mem.add_turn(STREAM, "Hello.")
        assert [f.text for f in mem.facts(STREAM)] == ["Raj is the Lead Architect."]
    assert sorted(p.name for p in db.parent.iterdir()) == beside  # no WAL or shm made


def test_a_database_with_its_wal_files_opens_read_only_with_what_they_hold(
    tmp_path: Path, read_only
) -> None:
    # A copy taken while a writer had it open: the last fact is only in the WAL file.
    live, copy = tmp_path / "live", tmp_path / "copy"
    live.mkdir()
    copy.mkdir()
    with _memory(live / "memory.db") as mem:
        mem.write_fact(STREAM, "Raj is the Lead Architect.")
        mem.store._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # type: ignore[attr-defined]
        mem.write_fact(STREAM, "The launch is on Friday.", subject="launch", slot="date")
        for name in ("memory.db", "memory.db-wal", "memory.db-shm"):
            shutil.copy(live / name, copy / name)
    db = read_only(copy) / "memory.db"
    with _memory(db) as mem:
        assert mem.store.read_only
        texts = {f.text for f in mem.facts(STREAM)}
        with pytest.raises(StoreReadOnly):
            mem.write_fact(STREAM, "Mallory is the Lead Architect.")
    assert texts == {"Raj is the Lead Architect.", "The launch is on Friday."}


def test_serve_answers_reads_from_read_only_storage(tmp_path: Path, read_only) -> None:
    secret = _seeded(tmp_path / "data")
    db = read_only(tmp_path / "data") / "memory.db"
    with _running(["-c", CLI, "serve", "--port", "{port}"], _env(db)) as server:
        headers = {"Authorization": f"Bearer {secret}"}
        with httpx.Client(base_url=server.url, headers=headers, timeout=10.0) as client:
            facts = client.get("/v1/facts", params={"stream": STREAM})
            context = client.post("/v1/context", json={"stream": STREAM, "query": "Who leads?"})
            write = client.post("/v1/facts", json={"stream": STREAM, "text": "Eve leads."})
    assert facts.status_code == 200 and len(facts.json()["facts"]) == 1
    assert context.status_code == 200 and "Raj is the Lead Architect." in context.text
    assert write.status_code == 503 and write.json()["error"]["code"] == "store_read_only"
    assert "Traceback" not in server.log, server.log


def test_a_store_that_fails_to_open_holds_nothing_open(tmp_path: Path) -> None:
    # Hostile input: a database written by a newer threefold, which this one refuses.
    db = tmp_path / "newer.db"
    _memory(db).close()
    with _opened(db) as store:
        store._db.execute("INSERT INTO schema_migrations VALUES ('9999_future', 'now')")
    with pytest.raises(StoreError, match="newer threefold") as failed:
        _memory(db)
    assert failed.value is not None  # the error, and its traceback, are still alive
    assert _open_files(tmp_path) == []


@contextmanager
def _opened(db: Path) -> Iterator[SQLiteStore]:
    store = SQLiteStore(db)
    try:
        yield store
    finally:
        store.close()
