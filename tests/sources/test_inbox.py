"""The inbox of a SQLite memory: a Slack event is on disk when its sender is answered,
waits for no worker's write, and reaches the job queue once, from any process's worker,
even when a worker stops between handing it on and marking it handed."""

import json
import sqlite3
import time
from pathlib import Path

from threefold import Memory, load_settings
from threefold.pipeline.workers import Workers
from threefold.store.sqlite.inbox import inbox_path

TENANT = "acme"


def settings(db: Path):
    return load_settings(
        db=db,
        embed={"kind": "none"},
        projects=[{"stream": "project:apollo", "key": "APOLLO", "channels": ["apollo-eng"]}],
        sources={"batch_idle_minutes": 0},
    )


def envelope(event_id: str, ts: str, text: str) -> dict:
    event = {"type": "message", "channel": "C1", "user": "U1", "ts": ts, "text": text}
    return {"type": "event_callback", "event_id": event_id, "event": event}


def texts(memory: Memory) -> list[str]:
    return [
        r.text for s in memory.streams(tenant=TENANT) for r in memory.records(s.name, tenant=TENANT)
    ]


def slack_jobs(memory: Memory) -> int:
    return sum(1 for job in memory.store.jobs(tenant=TENANT) if job.kind == "slack_event")


def test_an_event_waits_in_the_inbox_until_a_worker_hands_it_on(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    with Memory.open(settings=settings(db), tenant=TENANT, background_worker=False) as memory:
        assert not inbox_path(db).exists()  # made by the first event, not by every memory
        answer = memory.take_slack_event(envelope("Ev1", "1790000000.000100", "APOLLO-1 is done"))
        assert answer == "queued"
        # On disk, in the inbox; the main database has no job for it yet.
        with sqlite3.connect(inbox_path(db)) as inbox:
            assert inbox.execute("SELECT event_id FROM inbox").fetchall() == [("Ev1",)]
        assert slack_jobs(memory) == 0
        memory.process_pending()
        assert texts(memory) == ["APOLLO-1 is done"]


def test_a_retry_is_a_duplicate_before_and_after_it_is_handed_on(tmp_path: Path) -> None:
    with Memory.open(
        settings=settings(tmp_path / "m.db"), tenant=TENANT, background_worker=False
    ) as memory:
        event = envelope("Ev2", "1790000001.000100", "APOLLO-2 is merged")
        assert memory.take_slack_event(event) == "queued"
        assert memory.take_slack_event(event) == "duplicate"
        memory.process_pending()
        assert memory.take_slack_event(event) == "duplicate"
        memory.process_pending()
        assert texts(memory) == ["APOLLO-2 is merged"]
        assert sum(1 for job in memory.store.jobs(tenant=TENANT) if job.kind == "slack_event") == 1


def test_a_worker_stopped_before_marking_hands_on_nothing_twice(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    with Memory.open(settings=settings(db), tenant=TENANT, background_worker=False) as memory:
        sent = envelope("Ev3", "1790000002.000100", "APOLLO-3 ships Friday")
        memory.take_slack_event(sent)
        assert memory.drain_inbox() == 1
        # As if the worker had died after its commit and before marking the event handed.
        payload = json.dumps({"event": sent["event"]})
        with sqlite3.connect(inbox_path(db)) as inbox:
            inbox.execute("UPDATE inbox SET handed_at = NULL, payload = ?", (payload,))
        assert memory.drain_inbox() == 1
        assert slack_jobs(memory) == 1
        memory.process_pending()
        assert texts(memory) == ["APOLLO-3 ships Friday"]


def test_a_worker_in_another_process_drains_it(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    receiving = settings(db)
    with Memory.open(settings=receiving, tenant=TENANT, background_worker=False) as memory:
        for n in range(3):
            event = envelope(f"Ev{n + 10}", f"179000001{n}.000100", f"APOLLO-{n} note {n}")
            assert memory.take_slack_event(event) == "queued"
        with Workers(receiving, count=1) as workers:
            pass  # a worker finishes what is due before it stops
        assert workers.ran >= 3
        assert sorted(texts(memory)) == ["APOLLO-0 note 0", "APOLLO-1 note 1", "APOLLO-2 note 2"]


def test_forgetting_keeps_what_is_still_waiting(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    with Memory.open(settings=settings(db), tenant=TENANT, background_worker=False) as memory:
        memory.take_slack_event(envelope("Ev20", "1790000020.000100", "handed"))
        memory.drain_inbox()
        memory.take_slack_event(envelope("Ev21", "1790000021.000100", "waiting"))
        assert memory.forget_handed(time.time() - 60) == 0  # a retry may still come
        assert memory.forget_handed(time.time() + 1) == 1
        with sqlite3.connect(inbox_path(db)) as inbox:
            assert inbox.execute("SELECT event_id FROM inbox").fetchall() == [("Ev21",)]
        # Forgotten in the inbox, still known to the deliveries: a late retry is no new event.
        memory.take_slack_event(envelope("Ev20", "1790000020.000100", "handed"))
        memory.process_pending()
        assert sorted(texts(memory)) == ["handed", "waiting"]
