"""Import jobs behind POST /v1/imports.

An upload is saved to a temp folder of its own and queued in the process that received
it. One worker thread per app runs that process's imports one at a time, in the order
they came: an import reads the whole file and then digests it, and several at once would
only fight over the store. Each temp folder is removed when its import ends, however it
ends.

Statuses live in the store, so that every process of a server answers for every job; a
server that starts marks the jobs a stopped one left unfinished as failed. The store
keeps at most `keep` jobs (the oldest finished ones go first), and new uploads are
refused while `max_waiting` are queued or running, counted over all the processes.
"""

import logging
import queue
import shutil
import tempfile
import threading
import uuid
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import BinaryIO

from memstrata.errors import InvalidInput, StoreError
from memstrata.http.errors import ApiError
from memstrata.http.schemas import ImportKind, ImportState, ImportStatus
from memstrata.memory import Memory
from memstrata.store.base import Store
from memstrata.types import ImportProblem, ImportReport

log = logging.getLogger("memstrata.http")

KEEP = 200
MAX_WAITING = 20
_SUFFIX: dict[ImportKind, str] = {"slack": ".zip", "jira": ".csv"}
_STOPPED = (
    "the server stopped before this import finished; upload the file again "
    "(what was stored already is kept, and importing it again adds no duplicates)"
)


def fail_unfinished(store: Store) -> int:
    """Mark the imports a stopped server left queued or running as failed.

    Only for a server that is starting, before any of its processes takes uploads: the
    jobs of a live process look just the same.
    """
    return store.fail_unfinished_imports(_STOPPED)


class _Stopped(Exception):
    """Raised from the progress callback: the app is shutting down mid-import."""


@dataclass
class _Job:
    id: str
    tenant: str
    kind: ImportKind
    folder: Path
    name: str
    """The upload's own file name, shown in messages instead of the temp path."""

    @property
    def path(self) -> Path:
        return self.folder / f"upload{_SUFFIX[self.kind]}"

    def scrub(self, text: str) -> str:
        """`text` without the temp path, which means nothing to the caller."""
        return text.replace(str(self.path), self.name).replace(str(self.folder), self.name)


class Imports:
    """The import queue of one app; the statuses are in the memory's store."""

    def __init__(self, memory: Memory, *, keep: int = KEEP, max_waiting: int = MAX_WAITING) -> None:
        self._memory = memory
        self._store = memory.store
        self._keep = keep
        self._max_waiting = max_waiting
        self._lock = threading.Lock()
        self._queue: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    def submit(
        self, tenant: str, kind: ImportKind, upload: BinaryIO, filename: str | None
    ) -> ImportStatus:
        """Save `upload` and queue its import; returns the queued job's status."""
        self._check_room()  # before copying too: a refused upload should cost no disk
        folder = Path(tempfile.mkdtemp(prefix="memstrata-import-"))
        job = _Job(uuid.uuid4().hex, tenant, kind, folder, _display_name(filename, kind))
        try:
            with job.path.open("wb") as saved:
                shutil.copyfileobj(upload, saved)
            self._admit(job)
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        return ImportStatus(id=job.id, kind=kind, status="queued")

    def status(self, tenant: str, job_id: str) -> ImportStatus | None:
        """The job's status, or None if there is no such job for `tenant`."""
        found = self._store.import_job(tenant, job_id)
        if found is None:
            return None
        return ImportStatus(
            id=found.id, kind=found.kind, status=found.status,  # type: ignore[arg-type]
            report=found.report, error=found.error,
        )  # fmt: skip

    def close(self) -> None:
        """Stop taking uploads, end the running import at its next step, fail the queued
        ones and wait for the worker. Safe to call more than once."""
        with self._lock:
            # Under the lock, so no upload can be queued behind the stop marker.
            self._stopping.set()
            thread, self._thread = self._thread, None
            if thread is not None:
                self._queue.put(None)
        if thread is not None:
            thread.join()

    # -- inside ---------------------------------------------------------------

    def _check_room(self) -> None:
        """Refuse an upload while stopping or while too many wait, in any process."""
        if self._stopping.is_set():
            raise ApiError(503, "shutting_down", "the server is shutting down; try again later")
        waiting = self._store.count_unfinished_imports()
        if waiting >= self._max_waiting:
            raise ApiError(
                429, "too_many_imports",
                f"{waiting} imports are queued or running; try again when some have finished",
            )  # fmt: skip

    def _admit(self, job: _Job) -> None:
        """Record and queue `job`, making room and starting the worker as needed."""
        with self._lock:
            # One write transaction: two processes cannot both take the last free place.
            with self._store.transaction():
                self._check_room()
                self._store.insert_import(job.tenant, job.id, job.kind)
                self._store.prune_imports(self._keep)
            self._queue.put(job)
            if self._thread is None:
                # Started on the first upload, so an app that never imports has no extra
                # thread; a daemon, so that an app run without its lifespan cannot keep
                # Python alive.
                self._thread = threading.Thread(
                    target=self._work, name="memstrata-imports", daemon=True
                )
                self._thread.start()

    def _work(self) -> None:
        while (job := self._queue.get()) is not None:
            try:
                self._run(job)
            finally:
                shutil.rmtree(job.folder, ignore_errors=True)

    def _run(self, job: _Job) -> None:
        if self._stopping.is_set():
            self._set(job, "failed", error=_STOPPED)
            return
        self._set(job, "running")
        try:
            report = self._import(job)
        except InvalidInput as exc:
            self._set(job, "failed", error=job.scrub(str(exc)))
        except _Stopped:
            self._set(job, "failed", error=_STOPPED)
        except StoreError as exc:
            log.error("store error in %s import %s: %s", job.kind, job.id, exc)
            self._set(job, "failed", error="the memory store failed during the import; try again")
        except Exception as exc:  # the worker must outlive any one import
            log.error("error in %s import %s", job.kind, job.id, exc_info=exc)
            self._set(job, "failed", error="the import failed on an internal error")
        else:
            self._set(job, "done", report=_scrubbed(job, report))

    def _import(self, job: _Job) -> ImportReport:
        if job.kind == "slack":
            return self._memory.import_slack(job.path, progress=self._progress, tenant=job.tenant)
        return self._memory.import_jira(job.path, progress=self._progress, tenant=job.tenant)

    def _progress(self, done: int, total: int) -> None:
        # Called between chunks, after each commit: a safe point to give up at.
        if self._stopping.is_set():
            raise _Stopped

    def _set(
        self, job: _Job, status: ImportState, *, report: ImportReport | None = None,
        error: str | None = None,
    ) -> None:  # fmt: skip
        try:
            self._store.set_import_status(job.id, status, report=report, error=error)
        except StoreError as exc:  # the worker must go on to the next job
            log.error("cannot record the status of %s import %s: %s", job.kind, job.id, exc)


def _scrubbed(job: _Job, report: ImportReport) -> ImportReport:
    problems = tuple(
        ImportProblem(path=job.scrub(p.path), error=job.scrub(p.error)) for p in report.problems
    )
    return report.model_copy(update={"problems": problems})


def _display_name(filename: str | None, kind: ImportKind) -> str:
    """The base name of the client's file, printable and short; clients send any string."""
    base = PurePosixPath((filename or "").replace("\\", "/")).name
    shown = "".join(c for c in base if c.isprintable())[:120].strip()
    return shown or f"the uploaded file ({_SUFFIX[kind]})"
