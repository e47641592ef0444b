"""The import queue on its own: one job at a time, a bounded registry, a clean stop, and
the jobs of a process that died reported failed.

A stand-in memory whose imports wait on a gate makes queued and running observable; its
statuses go to a real store, which queues of other processes share.
"""

import io
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from threefold.domain import ImportReport
from threefold.errors import InvalidInput
from threefold.faces.http.errors import ApiError
from threefold.faces.http.imports import (
    UPLOAD_PREFIX,
    Imports,
    fail_unfinished,
    remove_stale_uploads,
)
from threefold.faces.http.schemas import ImportStatus
from threefold.pipeline.import_ledger import ImportLedger
from threefold.store.sqlite.store import SQLiteStore


class GatedMemory:
    """Imports wait for `gate`; a file holding b'boom' fails as a bug would."""

    def __init__(self, store: SQLiteStore) -> None:
        self.store = store
        self.gate = threading.Event()
        self.seen: list[tuple[bytes, str | None]] = []

    def import_jira(self, path: Path, *, progress: Any = None, tenant: str | None = None) -> Any:
        content = Path(path).read_bytes()
        self.seen.append((content, tenant))
        if content == b"boom":
            raise RuntimeError("secret detail")
        assert self.gate.wait(10)
        if progress:
            progress(1, 0)
        return ImportReport(source="jira", read=1, kept=1)

    def import_slack(
        self,
        path: Path,
        *,
        progress: Any = None,
        digest_progress: Any = None,
        tenant: str | None = None,
    ) -> Any:
        raise InvalidInput(f"{path} is not a Slack export")

    def import_ledger(self, lease_seconds: float = 300.0) -> ImportLedger:
        return ImportLedger(self.store, lease_seconds)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteStore]:
    store = SQLiteStore(tmp_path / "imports.db")
    yield store
    store.close()


@pytest.fixture
def memory(store: SQLiteStore) -> GatedMemory:
    return GatedMemory(store)


@pytest.fixture
def uploads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "uploads"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


@pytest.fixture
def imports(memory: GatedMemory, uploads: Path) -> Iterator[Imports]:
    queue = Imports(memory, keep=3, max_waiting=2)  # type: ignore[arg-type]
    yield queue
    memory.gate.set()
    queue.close()


def submit(imports: Imports, content: bytes = b"x", kind: str = "jira", tenant: str = "t") -> str:
    return imports.submit(tenant, kind, io.BytesIO(content), f"{kind}-file").id  # type: ignore[arg-type]


def wait_for(imports: Imports, job_id: str, state: str, tenant: str = "t") -> ImportStatus:
    deadline = time.monotonic() + 10
    while (status := imports.status(tenant, job_id)) is None or status.status != state:
        assert time.monotonic() < deadline, status
        time.sleep(0.01)
    return status


def eventually(check: Callable[[], bool]) -> None:
    deadline = time.monotonic() + 10
    while not check():
        assert time.monotonic() < deadline
        time.sleep(0.01)


def test_jobs_run_one_at_a_time_in_order(imports: Imports, memory: GatedMemory) -> None:
    first, second = submit(imports, b"one"), submit(imports, b"two")
    wait_for(imports, first, "running")
    assert imports.status("t", second).status == "queued"  # type: ignore[union-attr]
    memory.gate.set()
    done = wait_for(imports, second, "done")
    assert done.report is not None and done.report.kept == 1 and done.error is None
    assert memory.seen == [(b"one", "t"), (b"two", "t")]


def test_a_status_belongs_to_its_tenant(imports: Imports, memory: GatedMemory) -> None:
    job = submit(imports, tenant="acme")
    assert imports.status("globex", job) is None
    assert imports.status("acme", job) is not None
    assert imports.status("acme", "no-such-id") is None


def test_too_many_waiting_imports_are_refused(imports: Imports, memory: GatedMemory) -> None:
    submit(imports)
    submit(imports)
    with pytest.raises(ApiError) as refused:
        submit(imports)
    assert (refused.value.status_code, refused.value.code) == (429, "too_many_imports")
    memory.gate.set()


def test_the_registry_keeps_the_newest_finished_jobs(imports: Imports, memory: GatedMemory) -> None:
    memory.gate.set()
    ids = []
    for n in range(5):
        ids.append(submit(imports, str(n).encode()))
        wait_for(imports, ids[-1], "done")
    assert [imports.status("t", i) is not None for i in ids] == [False, False, True, True, True]


def test_failures_say_why_without_internals(
    imports: Imports, memory: GatedMemory, uploads: Path
) -> None:
    bug = submit(imports, b"boom")
    failed = wait_for(imports, bug, "failed")
    assert failed.error == "the import failed on an internal error" and failed.report is None
    refused = wait_for(imports, submit(imports, kind="slack"), "failed")
    assert refused.error == "slack-file is not a Slack export"
    assert list(uploads.iterdir()) == []


def test_closing_stops_the_running_import_and_fails_the_queued(
    imports: Imports, memory: GatedMemory, uploads: Path
) -> None:
    running, queued = submit(imports, b"one"), submit(imports, b"two")
    wait_for(imports, running, "running")
    closer = threading.Thread(target=imports.close)
    closer.start()
    while not imports._stopping.is_set():
        time.sleep(0.01)
    memory.gate.set()  # the import reaches its next step, where it sees the stop
    closer.join(10)
    assert not closer.is_alive()
    for job in (running, queued):
        status = imports.status("t", job)
        assert status is not None and status.status == "failed"
        assert "server stopped" in (status.error or "")
    assert memory.seen == [(b"one", "t")]
    assert list(uploads.iterdir()) == []
    assert not [t for t in threading.enumerate() if t.name == "threefold-imports"]
    with pytest.raises(ApiError) as refused:
        submit(imports)
    assert (refused.value.status_code, refused.value.code) == (503, "shutting_down")
    imports.close()  # again: nothing to do


def test_the_status_is_shared_by_the_queues_of_one_store(
    imports: Imports, memory: GatedMemory, store: SQLiteStore
) -> None:
    elsewhere = GatedMemory(store)
    elsewhere.gate = memory.gate
    other = Imports(elsewhere, keep=3, max_waiting=2)  # type: ignore[arg-type]
    job = submit(imports, tenant="acme")
    assert other.status("acme", job) == imports.status("acme", job)
    assert other.status("globex", job) is None
    with pytest.raises(ApiError) as refused:  # the waiting count is the store's, not a queue's
        submit(other)
        submit(other)
    assert refused.value.code == "too_many_imports"
    memory.gate.set()
    assert wait_for(other, job, "done", tenant="acme").report is not None
    other.close()


def test_a_restart_fails_what_was_left_unfinished(store: SQLiteStore) -> None:
    store.insert_import("acme", "left-queued", "jira")
    store.insert_import("acme", "left-running", "slack")
    store.set_import_status("left-running", "running")
    store.insert_import("acme", "finished", "jira")
    store.set_import_status("finished", "done", report=ImportReport(source="jira", kept=2))
    assert fail_unfinished(GatedMemory(store)) == 2  # type: ignore[arg-type]
    for job in ("left-queued", "left-running"):
        found = store.import_job("acme", job)
        assert found is not None and found.status == "failed"
        assert "server stopped" in (found.error or "")
    done = store.import_job("acme", "finished")
    assert done is not None and done.status == "done" and done.report is not None
    assert done.report.kept == 2


# -- the jobs of a process that died ----------------------------------------------


def left(store: SQLiteStore, job_id: str, owner: str | None, status: str = "queued") -> None:
    """A job of tenant acme taken by the process `owner`, left in `status`."""
    store.insert_import("acme", job_id, "jira", owner=owner)
    if status != "queued":
        store.set_import_status(job_id, status)


def assert_orphaned(status: ImportStatus | None) -> None:
    assert status is not None and status.status == "failed" and status.report is None
    error = status.error or ""
    assert "server process running this import stopped" in error, error
    assert "upload the file again" in error and "adds no duplicates" in error, error


def test_the_jobs_of_a_dead_process_are_reported_failed(
    imports: Imports, store: SQLiteStore
) -> None:
    assert store.claim_lease("imports:pid1-expired", "pid1-expired", 0)  # ran out at once
    left(store, "never-leased", "pid1-gone")
    left(store, "lease-ran-out", "pid1-expired", "running")
    for job in ("never-leased", "lease-ran-out"):
        assert imports.status("globex", job) is None
        assert_orphaned(imports.status("acme", job))


def test_the_jobs_of_a_live_process_are_left_alone(imports: Imports, store: SQLiteStore) -> None:
    assert store.claim_lease("imports:pid2-alive", "pid2-alive", 600)
    left(store, "alive-queued", "pid2-alive")
    left(store, "alive-running", "pid2-alive", "running")
    left(store, "taken-before-owners", None)  # the sweep at a server's start is for these
    for job, state in [
        ("alive-queued", "queued"),
        ("alive-running", "running"),
        ("taken-before-owners", "queued"),
    ]:
        status = imports.status("acme", job)
        assert status is not None and status.status == state and status.error is None
    with pytest.raises(ApiError) as refused:  # and they still hold their places
        submit(imports)
    assert refused.value.code == "too_many_imports"


def test_the_jobs_of_a_dead_process_make_room(
    imports: Imports, memory: GatedMemory, store: SQLiteStore
) -> None:
    left(store, "dead-queued", "pid1-gone")
    left(store, "dead-running", "pid1-gone", "running")
    job = submit(imports)  # no status was read first: the count itself leaves them out
    memory.gate.set()
    assert wait_for(imports, job, "done").report is not None
    assert_orphaned(imports.status("acme", "dead-running"))


def test_a_queue_holds_its_lease_while_it_has_jobs(
    imports: Imports, memory: GatedMemory, store: SQLiteStore
) -> None:
    lease = f"imports:{imports.owner}"
    job = submit(imports)
    wait_for(imports, job, "running")
    assert not store.claim_lease(lease, "someone-else", 60)
    elsewhere = Imports(GatedMemory(store))  # type: ignore[arg-type]
    assert elsewhere.status("t", job) == imports.status("t", job)  # running, not failed
    memory.gate.set()
    wait_for(imports, job, "done")
    eventually(lambda: store.claim_lease(lease, "someone-else", 60))  # let go once idle


CRASHING = '''
import io, sys, threading
from threefold.faces.http.imports import Imports
from threefold.pipeline.import_ledger import ImportLedger
from threefold.store.sqlite.store import SQLiteStore

said = threading.Lock()

def say(text):
    with said:  # print() from two threads can interleave a line with another
        print(text, flush=True)

class Stuck:
    """A memory whose imports never end, as a long one has not when its process dies."""
    def __init__(self, store):
        self.store = store
    def import_ledger(self, lease_seconds):
        return ImportLedger(self.store, lease_seconds)
    def import_jira(self, path, *, progress=None, tenant=None):
        say("running")
        threading.Event().wait()

imports = Imports(Stuck(SQLiteStore(sys.argv[1])), lease_seconds=float(sys.argv[2]))
for name in ("first.csv", "second.csv"):
    say(imports.submit("acme", "jira", io.BytesIO(b"x"), name).id)
threading.Event().wait()
'''


@pytest.mark.slow
@pytest.mark.reliability
def test_the_jobs_of_a_killed_process_are_reported_failed(
    imports: Imports, memory: GatedMemory, store: SQLiteStore, tmp_path: Path
) -> None:
    """A process takes two uploads and dies by SIGKILL, one job running and one queued:
    nothing of it is left to say so, and its short lease runs out instead."""
    env = {**os.environ, "TMPDIR": str(tmp_path)}  # its uploads stay behind: no clean-up
    with subprocess.Popen(
        [sys.executable, "-c", CRASHING, str(store.path), "1"],
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    ) as child:
        try:
            assert child.stdout is not None
            said = [child.stdout.readline().strip() for _ in range(3)]
        finally:
            child.kill()
    assert "running" in said, said
    running, queued = [line for line in said if line != "running"]
    assert imports.status("globex", running) is None
    for job in (running, queued):
        assert_orphaned(wait_for(imports, job, "failed", tenant="acme"))
    memory.gate.set()
    assert wait_for(imports, submit(imports), "done").report is not None
    assert_uploads_swept(tmp_path)


def assert_uploads_swept(parent: Path) -> None:
    """The killed process's two upload folders are found and removed; a live one is kept."""
    left = sorted(parent.glob(UPLOAD_PREFIX + "*"))
    assert len(left) == 2 and all((f / "upload.csv").exists() for f in left)
    store = SQLiteStore(parent / "live.db")
    memory = GatedMemory(store)
    live = Imports(memory)  # type: ignore[arg-type]
    tempfile.tempdir = str(parent)  # restored by the uploads fixture's monkeypatch
    try:
        job = submit(live)
        assert remove_stale_uploads(parent) == 2
        assert len(list(parent.glob(UPLOAD_PREFIX + "*"))) == 1  # the live upload, locked
        memory.gate.set()
        wait_for(live, job, "done")
    finally:
        live.close()
        store.close()
    assert list(parent.glob(UPLOAD_PREFIX + "*")) == []
