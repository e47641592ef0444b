"""Kill tests: a writer process is killed with SIGKILL in the middle of its writes (its job
worker running beside it), and every write it acknowledged is still there, in a database
that passes SQLite's integrity and FTS checks. benchmarks/campaign.py runs 100 kills."""

import os
import random
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from threefold.store.sqlite.store import SQLiteStore

# slow: see pyproject.toml; reliability: the CI profile of issue 40 (`make reliability`)
pytestmark = [pytest.mark.slow, pytest.mark.reliability]

KILLS = 4
"""With the server's 2, the compaction's, a worker's, an import's and a queued upload's: 10
kills in the reliability profile (`make reliability`)."""

WRITER = """
import sys
from threefold import Memory, load_settings


settings = load_settings(embed={"kind": "none"}, session_turns=5)
mem = Memory.open(sys.argv[1], settings=settings, background_worker=True)
n = int(sys.argv[2])
while True:
    mem.add_turn("chat:kill", f"write {n}: the release moved to Friday", "Noted.")
    print(n, flush=True)  # acknowledged: add_turn returned
    n += 1
"""


def kill_writer_after(db: Path, first: int, acks: int) -> list[int]:
    """Start a writer at write `first`, SIGKILL it once it has acknowledged `acks` writes;
    returns the writes it acknowledged."""
    with subprocess.Popen(
        [sys.executable, "-c", WRITER, str(db), str(first)], stdout=subprocess.PIPE, text=True
    ) as child:
        assert child.stdout is not None
        acknowledged = [int(child.stdout.readline()) for _ in range(acks)]
        os.kill(child.pid, signal.SIGKILL)
    return acknowledged


def stored_writes(db: Path) -> set[int]:
    store = SQLiteStore(db)
    try:
        return {
            int(t.user.split(":")[0].removeprefix("write "))
            for t in store.turns("default", "chat:kill")
        }
    finally:
        store.close()


def checks(db: Path) -> tuple[str, str]:
    with sqlite3.connect(db) as raw:
        integrity = raw.execute("PRAGMA integrity_check").fetchone()[0]
        tables = [
            r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE sql LIKE '%fts5%'")
        ]
        for table in tables:  # raises if an FTS index disagrees with its content
            raw.execute(f"INSERT INTO {table}({table}) VALUES ('integrity-check')")
    return integrity, f"{len(tables)} FTS indexes checked"


def test_sigkilled_writer_loses_no_acknowledged_write(tmp_path: Path) -> None:
    # Hostile event: SIGKILL at a random point of a stream of writes, twice on one file.
    db = tmp_path / "memory.db"
    acknowledged: list[int] = []
    for _ in range(KILLS):
        first = max(acknowledged, default=-1) + 1
        acknowledged += kill_writer_after(db, first, random.randint(5, 40))
    assert set(acknowledged) <= stored_writes(db)
    integrity, fts = checks(db)
    assert integrity == "ok" and fts.split()[0] != "0"
