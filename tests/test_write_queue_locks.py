"""The write queue must never cost SQLite its own locks.

POSIX record locks belong to a process and a file: closing ANY descriptor of the database
drops every lock the process holds on it. A queue that opened the database file itself for
a contended wait, and closed that descriptor after, left its process's connection without
its shared lock: another process closing its last connection then took the exclusive lock,
checkpointed and removed the WAL under a live writer, whose next commits went to an
unlinked file (CI once lost an acknowledged write this way)."""

import fcntl
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from threefold import Memory, load_settings
from threefold.store.sqlite.write_queue import queue_path

_OTHER_PROCESS = """
import sys
from threefold import Memory, load_settings
settings = load_settings(db=sys.argv[1], durability="full", embed={"kind": "none"})
with Memory.open(settings=settings, background_worker=False) as mem:
    mem.add_turn("chat:other", "A turn from another process.", "Noted.")
"""


def _open(db: Path) -> Memory:
    settings = load_settings(db=str(db), durability="full", embed={"kind": "none"})
    return Memory.open(settings=settings, background_worker=False)


def _write_after_a_contended_wait(mem: Memory, db: Path) -> None:
    """One add_turn that has to wait in line: the test holds the queue meanwhile."""
    holder = os.open(queue_path(db), os.O_RDWR | os.O_CREAT)
    fcntl.flock(holder, fcntl.LOCK_EX)
    writer = threading.Thread(
        target=mem.add_turn, args=("chat:mine", "Written after waiting in line.", "Noted.")
    )
    writer.start()
    time.sleep(0.3)  # long enough for the write to find the queue taken and wait
    os.close(holder)
    writer.join(30)
    assert not writer.is_alive()


def test_a_contended_wait_leaves_the_wal_to_the_live_writer(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    mem = _open(db)
    try:
        mem.add_turn("chat:mine", "Written first.", "Noted.")
        _write_after_a_contended_wait(mem, db)
        subprocess.run([sys.executable, "-c", _OTHER_PROCESS, str(db)], check=True, timeout=120)
        assert Path(f"{db}-wal").exists(), "another process removed the WAL of a live writer"
        mem.add_turn("chat:mine", "Written last.", "Noted.")
    finally:
        mem.close()
    with _open(db) as reopened:
        said = [turn.user for turn in reopened.turns("chat:mine")]
    assert said == ["Written first.", "Written after waiting in line.", "Written last."]


def test_an_in_memory_database_leaves_no_file_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with Memory.open(":memory:", embedder=None, background_worker=False) as mem:
        mem.add_turn("chat:1", "I live in Porto.", "Noted.")
        mem.process_pending()
        assert mem.facts("chat:1")
    assert list(tmp_path.iterdir()) == []
