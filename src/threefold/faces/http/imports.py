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

One process of a server can die while the others live on (killed, out of memory; uvicorn
starts another in its place). So each queue records itself as the owner of the jobs it
takes, and holds a lease in the store while it has jobs unfinished, extended by a thread
of its own. Whenever any process reads a status or counts the waiting jobs, it first marks
failed the unfinished jobs whose owner's lease ran out: their process is gone.

A process killed mid-import cannot remove its upload folder. So each folder holds a lock
file, locked by its process while the folder is in use; the kernel drops the lock when
the process dies, however it dies. `remove_stale_uploads()` (run as an app starts) removes
every upload folder whose lock it can take.
"""

import contextlib
import logging
import os
import queue
import shutil
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import BinaryIO, Literal, Protocol

from threefold.domain import ImportProblem, ImportProgress, ImportReport
from threefold.errors import Busy, InvalidInput, StoreError
from threefold.faces.http.errors import ApiError
from threefold.faces.http.schemas import ImportKind, ImportState, ImportStatus
from threefold.memory import Memory

try:
    import fcntl
except ImportError:  # Windows: folders left by a crash stay until the temp folder is cleaned
    fcntl = None  # type: ignore[assignment]

log = logging.getLogger("threefold.faces.http")

KEEP = 200
MAX_WAITING = 20
_SUFFIX: dict[ImportKind, str] = {"slack": ".zip", "jira": ".csv"}
_AGAIN = (
    "upload the file again (what was stored already is kept, and importing it again adds no "
    "duplicates)"
)
_STOPPED = f"the server stopped before this import finished; {_AGAIN}"
_ORPHANED = f"the server process running this import stopped before it finished; {_AGAIN}"

LEASE_SECONDS = 300.0
"""How long a process's lease on its imports lasts unless extended, which its keeper
thread does every fifth of it. Not from the import's own steps: one step can take far
longer than minutes (the digests after a Slack import report no progress). So it need only
outlast the keeper's delays: a write waiting out the store's 30 s busy timeout, a loaded
machine. Five minutes let several extensions in a row fail before a live process is taken
for dead, and a dead one's imports are reported failed within five minutes."""


def fail_unfinished(memory: Memory) -> int:
    """Mark the imports a stopped server left queued or running as failed.

    Only for a server that is starting, before any of its processes takes uploads: the
    jobs of a live process look just the same.
    """
    return memory.import_ledger().fail_unfinished(_STOPPED)


UPLOAD_PREFIX = "threefold-import-"
_LOCK_NAME = ".in-use"
_NEW_FOLDER_SECONDS = 60.0
"""A folder without its lock file yet may be one another process is just creating."""


def _upload_folder() -> tuple[Path, int | None]:
    """A fresh upload folder, and the descriptor of its lock, held until it is removed."""
    folder = Path(tempfile.mkdtemp(prefix=UPLOAD_PREFIX))
    if fcntl is None:
        return folder, None
    lock = os.open(folder / _LOCK_NAME, os.O_CREAT | os.O_RDWR, 0o600)
    fcntl.flock(lock, fcntl.LOCK_EX)
    return folder, lock


def _remove_upload(folder: Path, lock: int | None) -> None:
    shutil.rmtree(folder, ignore_errors=True)
    if lock is not None:
        os.close(lock)  # after the removal, so no sweeper sees the folder unlocked first


def remove_stale_uploads(parent: str | Path | None = None) -> int:
    """Remove the upload folders that no live process holds (a killed server's); returns
    how many. Safe while other processes import: their folders are locked."""
    removed = 0
    for folder in Path(parent or tempfile.gettempdir()).glob(UPLOAD_PREFIX + "*"):
        if folder.is_dir() and not folder.is_symlink() and _unused(folder):
            shutil.rmtree(folder, ignore_errors=True)
            removed += 1
    return removed


def _unused(folder: Path) -> bool:
    if fcntl is None:
        return False
    try:
        lock = os.open(folder / _LOCK_NAME, os.O_RDWR | os.O_NOFOLLOW)
    except FileNotFoundError:
        with contextlib.suppress(OSError):
            return time.time() - folder.stat().st_mtime > _NEW_FOLDER_SECONDS
        return False
    except OSError:
        return False
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False  # locked: its process is alive
    finally:
        os.close(lock)
    return True


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
    lock: int | None = None
    """The descriptor whose lock marks the folder as in use."""

    @property
    def path(self) -> Path:
        return self.folder / f"upload{_SUFFIX[self.kind]}"

    def remove_upload(self) -> None:
        """Remove the folder and let its lock go; safe to call again."""
        lock, self.lock = self.lock, None
        _remove_upload(self.folder, lock)

    def scrub(self, text: str) -> str:
        """`text` without the temp path, which means nothing to the caller."""
        return text.replace(str(self.path), self.name).replace(str(self.folder), self.name)


class Imports:
    """The import queue of one app; the statuses are in the memory's store."""

    def __init__(
        self,
        memory: Memory,
        *,
        keep: int = KEEP,
        max_waiting: int = MAX_WAITING,
        lease_seconds: float = LEASE_SECONDS,
    ) -> None:
        self._memory = memory
        self._ledger = memory.import_ledger(lease_seconds)
        self._keep = keep
        self._max_waiting = max_waiting
        self._lease_seconds = lease_seconds
        self.owner = self._ledger.owner
        self._lease = self._ledger.lease
        self._lock = threading.Lock()
        self._queue: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._stopping = threading.Event()
        self._closed = threading.Event()
        self._thread: threading.Thread | None = None
        self._keeper: threading.Thread | None = None
        self._holding = False
        """Whether this queue has jobs unfinished, and so holds its lease."""

    def submit(
        self, tenant: str, kind: ImportKind, upload: BinaryIO, filename: str | None
    ) -> ImportStatus:
        """Save `upload` and queue its import; returns the queued job's status."""
        self._check_room()  # before copying too: a refused upload should cost no disk
        folder, lock = _upload_folder()
        job = _Job(uuid.uuid4().hex, tenant, kind, folder, _display_name(filename, kind), lock)
        try:
            with job.path.open("wb") as saved:
                shutil.copyfileobj(upload, saved)
            self._admit(job)
        except BaseException:
            _remove_upload(folder, lock)
            raise
        return ImportStatus(id=job.id, kind=kind, status="queued")

    def status(self, tenant: str, job_id: str) -> ImportStatus | None:
        """The job's status, or None if there is no such job for `tenant`."""
        self._fail_orphans()
        found = self._ledger.job(tenant, job_id)
        return None if found is None else _status(found)

    def recent(self, tenant: str, limit: int) -> list[ImportStatus]:
        """The statuses of the tenant's newest `limit` imports, newest first."""
        self._fail_orphans()
        return [_status(job) for job in self._ledger.recent(tenant, limit)]

    def close(self) -> None:
        """Stop taking uploads, end the running import at its next step, fail the queued
        ones and wait for the worker. Safe to call more than once."""
        with self._lock:
            # Under the lock, so no upload can be queued behind the stop marker.
            self._stopping.set()
            thread, self._thread = self._thread, None
            keeper, self._keeper = self._keeper, None
            if thread is not None:
                self._queue.put(None)
        if thread is not None:
            thread.join()
        self._closed.set()  # only now: the lease must last as long as the worker writes
        if keeper is not None:
            keeper.join()
            self._release_lease()

    # -- inside ---------------------------------------------------------------

    def _check_room(self) -> None:
        """Refuse an upload while stopping or while too many wait, in any process."""
        if self._stopping.is_set():
            raise ApiError(503, "shutting_down", "the server is shutting down; try again later")
        self._fail_orphans()  # a dead process's jobs would hold their places forever
        waiting = self._ledger.unfinished()
        if waiting >= self._max_waiting:
            raise ApiError(
                429,
                "too_many_imports",
                f"{waiting} imports are queued or running; try again when some have finished",
            )

    def _admit(self, job: _Job) -> None:
        """Record and queue `job`, making room and starting the worker as needed."""
        with self._lock:
            # One write transaction: two processes cannot both take the last free place.
            ledger, check = self._ledger, self._check_room
            ledger.admit(job.tenant, job.id, job.kind, keep=self._keep, check=check)
            self._holding = True
            self._queue.put(job)
            if self._thread is None:
                self._start_threads()

    def _start_threads(self) -> None:
        # Started on the first upload, so an app that never imports has no extra threads;
        # daemons, so that an app run without its lifespan cannot keep Python alive.
        self._thread = threading.Thread(target=self._work, name="threefold-imports", daemon=True)
        self._keeper = threading.Thread(
            target=self._keep_lease, name="threefold-imports-lease", daemon=True
        )
        self._thread.start()
        self._keeper.start()

    def _work(self) -> None:
        while (job := self._queue.get()) is not None:
            try:
                self._run(job)
            finally:
                job.remove_upload()  # if the import did not get to it
                self._release_lease_if_idle()

    # -- the lease that tells other processes this one is alive ---------------

    def _fail_orphans(self) -> None:
        self._ledger.fail_orphaned(_ORPHANED)

    def _keep_lease(self) -> None:
        while not self._closed.wait(self._lease_seconds / 5):
            if not self._holding:
                continue  # an idle queue has no lease, and each try would lock the store
            try:
                self._ledger.extend_lease()
            except Exception:  # a busy store: the next try may find it free
                log.exception("cannot extend the imports lease %s", self._lease)

    def _release_lease_if_idle(self) -> None:
        with self._lock:
            # Under the lock, so that no upload is admitted between the look and the release.
            if self._queue.empty():
                self._holding = False
                self._release_lease()

    def _release_lease(self) -> None:
        try:
            self._ledger.release_lease()
        except Exception:  # it runs out by itself; with no job left, nothing is lost
            log.exception("cannot release the imports lease %s", self._lease)

    def _run(self, job: _Job) -> None:
        if self._stopping.is_set():
            job.remove_upload()
            self._set(job, "failed", error=_STOPPED)
            return
        self._set(job, "running")
        try:
            report = self._import(job)
        except (InvalidInput, Busy) as exc:
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
        # The upload goes before the status says the import ended, so no one who saw
        # it end can still find the folder.
        try:
            reading = _ProgressWriter(self, job, "reading")
            if job.kind == "slack":
                digesting = _ProgressWriter(self, job, "digesting")
                return self._memory.import_slack(
                    job.path, progress=reading, digest_progress=digesting, tenant=job.tenant
                )
            return self._memory.import_jira(job.path, progress=reading, tenant=job.tenant)
        finally:
            job.remove_upload()

    def _progress(self, job: _Job, progress: ImportProgress | None) -> None:
        # Called between chunks, after each commit: a safe point to give up at.
        if self._stopping.is_set():
            raise _Stopped
        if progress is None:
            return
        try:
            self._ledger.set_progress(job.id, progress)
        except StoreError as exc:  # progress is only shown; the import goes on
            log.warning("cannot record the progress of %s import %s: %s", job.kind, job.id, exc)

    def _set(
        self,
        job: _Job,
        status: ImportState,
        *,
        report: ImportReport | None = None,
        error: str | None = None,
    ) -> None:
        try:
            self._ledger.set_status(job.id, status, report=report, error=error)
        except StoreError as exc:  # the worker must go on to the next job
            log.error("cannot record the status of %s import %s: %s", job.kind, job.id, exc)


class _LedgerJob(Protocol):
    """A job as the import ledger keeps it (the face does not import the store's types)."""

    id: str
    kind: str
    status: str
    report: ImportReport | None
    error: str | None
    progress: ImportProgress | None


def _status(found: _LedgerJob) -> ImportStatus:
    progress = found.progress if found.status in ("queued", "running") else None
    # Validated: the ledger keeps kind and status as plain text.
    return ImportStatus.model_validate(
        {
            "id": found.id,
            "kind": found.kind,
            "status": found.status,
            "report": found.report,
            "error": found.error,
            "progress": progress,
            "percent": 100 if found.status == "done" else progress and progress.percent,
        }
    )


PROGRESS_SECONDS = 0.5
"""Progress is written at most this often: each write takes the store's write lock."""


class _ProgressWriter:
    """The progress callback of one step of one import: it checks for a stop at every
    call and records the counts in the ledger, at most every PROGRESS_SECONDS and
    always at the step's end."""

    def __init__(self, queue: Imports, job: _Job, step: Literal["reading", "digesting"]) -> None:
        self._queue, self._job, self._step = queue, job, step
        self._written = -PROGRESS_SECONDS

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        finished = bool(total) and done >= total
        if not finished and now - self._written < PROGRESS_SECONDS:
            self._queue._progress(self._job, None)
            return
        self._written = now
        progress = ImportProgress(step=self._step, done=done, total=total or None)
        self._queue._progress(self._job, progress)


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
