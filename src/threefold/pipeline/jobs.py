"""Durable jobs: a queue in the store, one worker per stream at a time.

A worker leases a stream, drains its due jobs in order, and lets the lease go. A job's
writes and its completion commit together, and only while the lease is still ours, so
a crashed or slow worker never applies work twice. Failures retry with backoff.

Leases are short (settings.stream_lease_seconds, 10 s by default) and a heartbeat thread
renews them every third of that while the stream is drained, however long one job takes:
so a worker that dies holds its stream for seconds, not minutes, and a live one keeps it.
"""

import logging
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager

from threefold.errors import StoreError
from threefold.store.base import Job, Store, lease_owner

log = logging.getLogger("threefold.pipeline.jobs")

EXTRACT, SUMMARIZE, COMPACT, ROLLUP, REFRESH, EMBED = (
    "extract",
    "summarize",
    "compact",
    "rollup",
    "refresh",
    "embed",
)
DIGEST, FETCH = "digest", "fetch"
"""A batch of a stream's outside messages; a linked web page."""
SLACK_EVENT = "slack_event"
"""An Events API event the receiver acknowledged, applied after its answer."""
ACTIONS = "actions"
"""The team's rules run again on the tenant's material, after new material arrived."""

Stopping = Callable[[], bool]
"""Asked between jobs: True ends the run at the next job boundary."""


def _never() -> bool:
    return False


Apply = Callable[[], None]
Handler = Callable[[Job], Apply]
"""Does a job's thinking outside any transaction and returns its writes."""


def enqueue_once(store: Store, tenant: str, stream: str, kind: str, priority: int = 0) -> None:
    """Queue a job that works on the stream's current state, unless one is waiting."""
    if not store.has_pending(tenant, stream, kind):
        store.enqueue(tenant, stream, kind, {}, priority)


JOBS_PER_CLAIM = 16
"""Jobs run on a stream before the worker lets it go and claims again, which takes the
stream with the oldest due job: a stream whose queue grows as fast as it is worked (a busy
chat) would otherwise keep the worker from every other stream."""


class LeaseLost(StoreError):
    """Another worker took the stream over; this worker's result is thrown away."""


class JobRunner:
    def __init__(
        self,
        store: Store,
        handlers: Mapping[str, Handler],
        *,
        attempts: int,
        backoff: float,
        backoff_max: float,
        lease_seconds: float,
        intake: Callable[[], int] | None = None,
    ) -> None:
        self.store = store
        self.intake = intake
        """Called before each pass: moves work received elsewhere (an inbox) into the queue."""
        self.handlers = handlers
        self.attempts = attempts
        self.backoff = backoff
        self.backoff_max = backoff_max
        self.lease_seconds = lease_seconds

    def run_pending(
        self, tenant: str | None = None, *, wait: bool = True, stopping: Stopping = _never
    ) -> int:
        """Run due jobs until none is left or `stopping()` says so; returns how many ran.

        With `wait`, streams leased by other workers are waited for, so that on return
        every job that was due has been run by someone.
        """
        owner = lease_owner()
        ran = 0
        while not stopping():
            if self.intake is not None:
                self.intake()
            claimed = self.store.claim_stream(owner, self.lease_seconds, tenant)
            if claimed is not None:
                ran += self._drain(owner, *claimed, stopping)
            elif wait and self._due_elsewhere(tenant):
                time.sleep(0.02)
            else:
                break
        return ran

    def _due_elsewhere(self, tenant: str | None) -> bool:
        now = time.time()
        return any(job.run_after <= now for job in self.store.jobs(tenant=tenant, status="pending"))

    def _drain(self, owner: str, tenant: str, stream: str, stopping: Stopping) -> int:
        ran = 0
        try:
            with self._heartbeat(owner, tenant, stream):
                while (
                    ran < JOBS_PER_CLAIM
                    and not stopping()
                    and (job := self.store.next_job(tenant, stream)) is not None
                ):
                    if not self.store.renew_lease(tenant, stream, owner, self.lease_seconds):
                        break
                    if not self._run(owner, job):
                        break
                    ran += 1
        finally:
            self.store.release_stream(tenant, stream, owner)
        return ran

    @contextmanager
    def _heartbeat(self, owner: str, tenant: str, stream: str) -> Iterator[None]:
        """Renew the stream's lease every third of its length until the block ends."""
        done = threading.Event()

        def beat() -> None:
            while not done.wait(self.lease_seconds / 3):
                try:
                    if not self.store.renew_lease(tenant, stream, owner, self.lease_seconds):
                        return  # taken over: the job's commit will find out and give up
                except Exception:  # a busy store: the next beat may get through
                    log.warning("cannot renew the lease on %s", stream, exc_info=True)

        thread = threading.Thread(target=beat, name=f"threefold-lease-{stream}", daemon=True)
        thread.start()
        try:
            yield
        finally:
            done.set()
            # Bounded: a caller running jobs inside its own transaction holds the store's
            # lock, which a beat may be waiting for. A late beat finds the lease released.
            thread.join(self.lease_seconds)

    def _run(self, owner: str, job: Job) -> bool:
        """Run one job; False when the stream's lease was lost and draining must stop."""
        handler = self.handlers.get(job.kind)
        try:
            if handler is None:
                raise StoreError(f"no handler for job kind {job.kind!r}")
            apply = handler(job)
            with self.store.transaction():
                if not self.store.renew_lease(job.tenant, job.stream, owner, self.lease_seconds):
                    raise LeaseLost(f"lease on {job.stream} lost while running job {job.id}")
                apply()
                self.store.finish_job(job.id)
        except LeaseLost:
            log.warning("job %s (%s) abandoned: lease lost", job.id, job.kind)
            return False
        except Exception as exc:  # any failure of one job must not stop the others
            self._failed(job, exc)
        return True

    def _failed(self, job: Job, exc: Exception) -> None:
        tries = job.attempts + 1
        retry_in = None if tries >= self.attempts else self._delay(tries)
        log.warning(
            "job %s (%s on %s) failed, attempt %d of %d: %s",
            job.id,
            job.kind,
            job.stream,
            tries,
            self.attempts,
            exc,
            exc_info=log.isEnabledFor(logging.DEBUG),
        )
        self.store.fail_job(job.id, f"{type(exc).__name__}: {exc}", retry_in)

    def _delay(self, tries: int) -> float:
        return min(self.backoff * 2 ** (tries - 1), self.backoff_max)


SWITCH_SECONDS = 0.0005
"""The GIL switch interval of a process running a BackgroundWorker. A job (reading a turn)
is pure Python and keeps the GIL for the whole interval, 5 ms by default; a write of the
same process gives the GIL up at each SQLite call inside its transaction and waits that
long to get it back each time, holding the database's write lock meanwhile, so that every
writer of the file waits too. benchmarks/writer_fairness.py --workers against --switch-ms 5,
11 paired runs on a shared 2-core machine at load 5-20: p99 lower in 8 pairs (at load ~5:
838 -> 247, 596 -> 189, 292 -> 220 ms), but the load moved it more than this did."""


class BackgroundWorker:
    """Runs the queue in a daemon thread; `wake()` after writing a job."""

    def __init__(self, runner: JobRunner, poll_seconds: float = 1.0) -> None:
        self._runner = runner
        self._poll = poll_seconds
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="threefold-worker", daemon=True)
        self._store_failure: str | None = None
        self._holds = 0
        self._holds_lock = threading.Lock()

    @contextmanager
    def held(self) -> Iterator[None]:
        """No job starts in this thread until the block ends (the one running finishes).
        An import in the same process holds it: the worker's digests and vectors would
        share its interpreter lock and cores, and searchable text comes first."""
        with self._holds_lock:
            self._holds += 1
        try:
            yield
        finally:
            with self._holds_lock:
                self._holds -= 1
            self._wake.set()

    def _held_or_stopped(self) -> bool:
        return self._holds > 0 or self._stop.is_set()

    def start(self) -> None:
        if sys.getswitchinterval() > SWITCH_SECONDS:  # lowered only: a host may want less
            sys.setswitchinterval(SWITCH_SECONDS)
        self._thread.start()

    def wake(self) -> None:
        self._wake.set()

    def stop(self, timeout: float | None = None) -> bool:
        """Stop after the job that is running, if any; True once the thread has ended.
        Queued jobs stay queued, for the next worker to run."""
        self._stop.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(timeout)
        return not self._thread.is_alive()

    def _loop(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(self._poll)
            self._wake.clear()
            if self._stop.is_set():
                return
            if self._holds:
                continue  # woken again when the hold ends
            try:
                self._runner.run_pending(wait=False, stopping=self._held_or_stopped)
                self._store_failure = None
            except StoreError as exc:
                self._store_failed(exc)
            except Exception:  # keep the worker alive; the job row has the error
                log.exception("background worker pass failed")

    def _store_failed(self, exc: StoreError) -> None:
        """A full or read-only store fails every pass the same way: say so once, not with a
        traceback each second, until a pass gets through again."""
        if str(exc) != self._store_failure:
            log.warning("the job worker cannot run jobs: %s", exc)
        self._store_failure = str(exc)
