"""The inbox: events a sender was told were received, kept until the job queue has them.

A receiver (Slack's Events API) must answer within its sender's deadline, and the answer
must not be given before the event is safe on disk. In the memory's own database file
that write waits for SQLite's one writer, which is, more often than not, a worker in the
middle of a digest: under load the answer then waits a second or more. So a SQLite
memory takes events into a small database file of its own beside the main one
(`memory.db.inbox` beside `memory.db`), which only receivers write and the workers read;
a worker hands what is waiting to the job queue (`Memory.drain_inbox`), and the main
database's delivery table stays the judge of what was already taken. An event handed
over stays listed, marked, for the time its sender may still retry it, so that a retry
is answered as a duplicate without a look at the main database.
"""

import json
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from threefold.store.sqlite.connection import TypedConnection, open_database

__all__ = ["Inbox", "Received", "inbox_path"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS inbox (
    source      TEXT NOT NULL,
    event_id    TEXT NOT NULL,
    tenant      TEXT NOT NULL,
    payload     TEXT NOT NULL,
    received_at REAL NOT NULL,
    handed_at   REAL,
    PRIMARY KEY (source, event_id)
);
CREATE INDEX IF NOT EXISTS inbox_waiting ON inbox (received_at) WHERE handed_at IS NULL;
"""
_SYNCHRONOUS = {"full": "FULL", "normal": "NORMAL", "off": "OFF"}


def inbox_path(database: Path) -> Path:
    """The inbox file of the memory database at `database`."""
    return database.with_name(database.name + ".inbox")


@dataclass(frozen=True, slots=True)
class Received:
    """One event waiting for the job queue."""

    source: str
    event_id: str
    tenant: str
    payload: dict[str, Any]
    received_at: float


class Inbox:
    """A SQLite file of received events; safe to share between threads and processes."""

    def __init__(self, path: Path, *, durability: str = "full", timeout: float = 30.0) -> None:
        self.path = path
        self._db, read_only = open_database(path, timeout=timeout)
        self._lock = threading.Lock()
        try:
            if read_only:
                raise OSError(f"{path} is on read-only storage")
            self._db.execute(f"PRAGMA synchronous={_SYNCHRONOUS[durability]}")
            self._db.executescript(_SCHEMA)
        except BaseException:
            self._db.close()
            raise

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _writing(self) -> Iterator[TypedConnection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def put(
        self, source: str, event_id: str, tenant: str, payload: dict[str, Any], at: float
    ) -> bool:
        """Keep an event, on disk before this returns; False if it was kept before (a
        retry), in which case nothing changes."""
        return self.put_many(source, tenant, [(event_id, payload)], at)[0]

    def put_many(
        self, source: str, tenant: str, events: Sequence[tuple[str, dict[str, Any]]], at: float
    ) -> list[bool]:
        """Keep (event id, payload) pairs in one transaction, one sync for all: on disk
        before this returns. False for each kept before (a retry), or earlier in `events`."""
        rows = [
            (source, event_id, tenant, json.dumps(p, separators=(",", ":")), at)
            for event_id, p in events
        ]
        with self._writing() as db:
            return [
                db.execute(
                    "INSERT INTO inbox (source, event_id, tenant, payload, received_at)"
                    " VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    row,
                ).rowcount
                == 1
                for row in rows
            ]

    def waiting(self, limit: int) -> list[Received]:
        """The oldest events not yet handed to the job queue, in the order received."""
        with self._lock:
            rows = self._db.execute(
                "SELECT source, event_id, tenant, payload, received_at FROM inbox"
                " WHERE handed_at IS NULL ORDER BY received_at, rowid LIMIT ?",
                (limit,),
            ).fetchall()
        return [Received(r[0], r[1], r[2], json.loads(r[3]), float(r[4])) for r in rows]

    def handed(self, events: Sequence[Received], at: float) -> None:
        """Mark events as in the job queue now; their payloads are no longer kept."""
        with self._writing() as db:
            db.executemany(
                "UPDATE inbox SET handed_at = ?, payload = '' WHERE source = ? AND event_id = ?",
                [(at, e.source, e.event_id) for e in events],
            )

    def forget(self, handed_before: float) -> int:
        """Drop the events handed over before `handed_before`: no retry of theirs can come."""
        with self._writing() as db:
            gone = db.execute("DELETE FROM inbox WHERE handed_at < ?", (handed_before,))
            return gone.rowcount

    def count_waiting(self) -> int:
        with self._lock:
            row = self._db.execute("SELECT count(*) FROM inbox WHERE handed_at IS NULL").fetchone()
        return int(row[0])
