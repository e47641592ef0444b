"""Import jobs behind POST /v1/imports.

An upload is saved to a temp folder of its own and queued. One worker thread per app runs
the imports one at a time, in the order they came: an import reads the whole file and then
digests it, and several at once would only fight over the store. Each temp folder is
removed when its import ends, however it ends.

Statuses live in this process only, on app.state: they do not survive a restart. The
registry keeps at most `keep` jobs (the oldest finished ones go first) and refuses new
uploads while `max_waiting` are queued or running.
"""

import logging
import queue
import shutil
import tempfile
import threading
import uuid
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import BinaryIO

from memstrata.errors import InvalidInput, StoreError
from memstrata.http.errors import ApiError
from memstrata.http.schemas import ImportKind, ImportState, ImportStatus
from memstrata.memory import Memory
from memstrata.types import ImportProblem, ImportReport

log = logging.getLogger("memstrata.http")

KEEP = 200
MAX_WAITING = 20
_SUFFIX: dict[ImportKind, str] = {"slack": ".zip", "jira": ".csv"}
_STOPPED = (
    "the server stopped before this import finished; upload the file again "
    "(what was stored already is kept, and importing it again adds no duplicates)"
)


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
    status: ImportState = "queued"
    report: ImportReport | None = None
    error: str | None = None

    @property
    def path(self) -> Path:
        return self.folder / f"upload{_SUFFIX[self.kind]}"

    @property
    def finished(self) -> bool:
        return self.status in ("done", "failed")

    def view(self) -> ImportStatus:
        return ImportStatus(
            id=self.id, kind=self.kind, status=self.status, report=self.report, error=self.error
        )

    def scrub(self, text: str) -> str:
        """`text` without the temp path, which means nothing to the caller."""
        return text.replace(str(self.path), self.name).replace(str(self.folder), self.name)


class Imports:
    """The import queue and status registry of one app."""

    def __init__(self, memory: Memory, *, keep: int = KEEP, max_waiting: int = MAX_WAITING) -> None:
        self._memory = memory
        self._keep = keep
        self._max_waiting = max_waiting
        self._jobs: OrderedDict[str, _Job] = OrderedDict()
        self._lock = threading.Lock()
        self._queue: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    def submit(
        self, tenant: str, kind: ImportKind, upload: BinaryIO, filename: str | None
    ) -> ImportStatus:
        """Save `upload` and queue its import; returns the queued job's status."""
        with self._lock:
            self._check_room()  # before copying too: a refused upload should cost no disk
        folder = Path(tempfile.mkdtemp(prefix="memstrata-import-"))
        job = _Job(uuid.uuid4().hex, tenant, kind, folder, _display_name(filename, kind))
        try:
            with job.path.open("wb") as saved:
                shutil.copyfileobj(upload, saved)
            with self._lock:
                self._check_room()
                self._admit(job)
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        return job.view()

    def status(self, tenant: str, job_id: str) -> ImportStatus | None:
        """The job's status, or None if there is no such job for `tenant`."""
        with self._lock:
            job = self._jobs.get(job_id)
            return job.view() if job is not None and job.tenant == tenant else None

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
        """Refuse an upload while stopping or while too many wait; call under the lock."""
        if self._stopping.is_set():
            raise ApiError(503, "shutting_down", "the server is shutting down; try again later")
        waiting = sum(1 for job in self._jobs.values() if not job.finished)
        if waiting >= self._max_waiting:
            raise ApiError(
                429, "too_many_imports",
                f"{waiting} imports are queued or running; try again when some have finished",
            )  # fmt: skip

    def _admit(self, job: _Job) -> None:
        """Register and queue `job`, making room and starting the worker as needed."""
        finished = [j.id for j in self._jobs.values() if j.finished]
        for job_id in finished[: max(0, len(self._jobs) + 1 - self._keep)]:
            del self._jobs[job_id]
        self._jobs[job.id] = job
        self._queue.put(job)
        if self._thread is None:
            # Started on the first upload, so an app that never imports has no extra thread;
            # a daemon, so that an app run without its lifespan cannot keep Python alive.
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
        with self._lock:
            if self._stopping.is_set():
                job.status, job.error = "failed", _STOPPED
                return
            job.status = "running"
        try:
            report = self._import(job)
        except InvalidInput as exc:
            self._finish(job, error=job.scrub(str(exc)))
        except _Stopped:
            self._finish(job, error=_STOPPED)
        except StoreError as exc:
            log.error("store error in %s import %s: %s", job.kind, job.id, exc)
            self._finish(job, error="the memory store failed during the import; try again")
        except Exception as exc:  # the worker must outlive any one import
            log.error("error in %s import %s", job.kind, job.id, exc_info=exc)
            self._finish(job, error="the import failed on an internal error")
        else:
            self._finish(job, report=_scrubbed(job, report))

    def _import(self, job: _Job) -> ImportReport:
        if job.kind == "slack":
            return self._memory.import_slack(job.path, progress=self._progress, tenant=job.tenant)
        return self._memory.import_jira(job.path, progress=self._progress, tenant=job.tenant)

    def _progress(self, done: int, total: int) -> None:
        # Called between chunks, after each commit: a safe point to give up at.
        if self._stopping.is_set():
            raise _Stopped

    def _finish(
        self, job: _Job, *, report: ImportReport | None = None, error: str | None = None
    ) -> None:
        with self._lock:
            job.status = "failed" if error is not None else "done"
            job.report, job.error = report, error


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
