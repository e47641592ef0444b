"""Stream leases: short, kept alive by a heartbeat while a job runs, let go on every clean
exit, and taken over soon after their worker is killed. Real SQLite files, a real process
killed with SIGKILL; only the job handlers are stand-ins."""

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from threefold.pipeline.jobs import JobRunner
from threefold.store.base import Job
from threefold.store.sqlite.store import SQLiteStore

TAKEOVER_SECONDS = 15.0


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteStore]:
    store = SQLiteStore(tmp_path / "jobs.db")
    yield store
    store.close()


def runner(store: SQLiteStore, handler, lease_seconds: float = 1.0) -> JobRunner:
    return JobRunner(
        store,
        {"work": handler},
        attempts=3,
        backoff=0.0,
        backoff_max=0.0,
        lease_seconds=lease_seconds,
    )


def leases(store: SQLiteStore) -> list[str]:
    return [row["owner"] for row in store._rows("SELECT owner FROM stream_leases")]


@pytest.mark.slow
def test_a_job_longer_than_its_lease_keeps_its_stream(store: SQLiteStore) -> None:
    # Hostile timing: a job runs 2.5 leases long while a second worker keeps trying to claim.
    started, committed = threading.Event(), []

    def slow(job: Job):
        started.set()
        time.sleep(2.5)
        return lambda: committed.append(job.id)

    store.enqueue("t", "chat:1", "work", {})
    worker = threading.Thread(target=runner(store, slow).run_pending, kwargs={"wait": False})
    worker.start()
    assert started.wait(5)
    rival = SQLiteStore(store.path)
    try:
        claims = []
        while worker.is_alive():
            claims.append(rival.claim_stream("rival", 1.0))
            time.sleep(0.2)
    finally:
        rival.close()
    worker.join()
    assert claims and all(claim is None for claim in claims)
    assert len(committed) == 1 and leases(store) == []


def test_close_stops_the_worker_between_jobs_and_leaves_no_lease(open_memory) -> None:
    # Hostile load: close() while 2,000 jobs are queued and the worker is draining them.
    mem = open_memory(worker=True)
    store = mem.store
    for _ in range(2000):
        store.enqueue("default", "chat:1", "refresh", {})
    mem._wake()
    deadline = time.monotonic() + 10
    while len(store.jobs(status="done")) < 5 and time.monotonic() < deadline:
        time.sleep(0.01)
    mem.close()  # no ProgrammingError from a worker still using the store
    reopened = SQLiteStore(store.path)
    try:
        assert leases(reopened) == []
        assert reopened.jobs(status="pending"), "queued jobs stay queued for the next worker"
    finally:
        reopened.close()


HOLDER = """
import sys, threading
from threefold.pipeline.jobs import JobRunner
from threefold.store.sqlite.store import SQLiteStore

def hang(job):
    print("running", flush=True)
    threading.Event().wait()

store = SQLiteStore(sys.argv[1])
JobRunner(store, {"work": hang}, attempts=3, backoff=0, backoff_max=0,
          lease_seconds=float(sys.argv[2])).run_pending(wait=False)
"""


@pytest.mark.slow
@pytest.mark.reliability
def test_a_killed_workers_stream_is_taken_over(store: SQLiteStore) -> None:
    # Hostile event: SIGKILL of a worker process in the middle of a job, holding its lease.
    job_id = store.enqueue("t", "chat:1", "work", {})
    with subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(store.path), "2"], stdout=subprocess.PIPE, text=True
    ) as child:
        try:
            assert child.stdout is not None and child.stdout.readline().strip() == "running"
            held_by = leases(store)
        finally:
            os.kill(child.pid, signal.SIGKILL)
    killed = time.monotonic()
    assert held_by and f":pid{child.pid}-" in held_by[0]
    done: list[int] = []
    taker = runner(store, lambda job: lambda: done.append(job.id), lease_seconds=2.0)
    while not done and time.monotonic() - killed < TAKEOVER_SECONDS:
        taker.run_pending(wait=False)
        time.sleep(0.1)
    assert done == [job_id]
    assert [job.status for job in store.jobs()] == ["done"] and leases(store) == []


def test_only_a_dead_process_on_this_host_is_taken_for_gone() -> None:
    import socket
    import subprocess
    import sys

    from threefold.store.base import holder_is_gone, lease_owner

    with subprocess.Popen([sys.executable, "-c", "pass"]) as child:
        child.wait()
    here = socket.gethostname()
    assert holder_is_gone(f"{here}:pid{child.pid}-0123abcd")
    assert not holder_is_gone(lease_owner())  # this very process
    assert not holder_is_gone(f"another-host:pid{child.pid}-0123abcd")
    assert not holder_is_gone(f"pid{child.pid}-0123abcd")  # the older form names no host
    assert not holder_is_gone("garbage")
