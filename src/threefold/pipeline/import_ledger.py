"""The import jobs a server takes, as every one of its processes sees them.

Statuses are kept in the store, so that any process answers for any job. A process holds
a lease named after itself while it has jobs unfinished; when that lease runs out, its
process is taken for dead and its unfinished jobs are marked failed. The HTTP face runs
the queue (threefold.faces.http.imports); this is its record, reached through
`Memory.import_ledger()`.
"""

from collections.abc import Callable

from threefold.domain import ImportProgress, ImportReport
from threefold.store.base import IMPORT_LEASE_PREFIX, ImportJob, Store, lease_owner


class ImportLedger:
    """One process's view of the import jobs, and its lease on the ones it runs."""

    def __init__(self, store: Store, lease_seconds: float) -> None:
        self._store = store
        self.lease_seconds = lease_seconds
        self.owner = lease_owner()
        self.lease = f"{IMPORT_LEASE_PREFIX}{self.owner}"

    def job(self, tenant: str, job_id: str) -> ImportJob | None:
        return self._store.import_job(tenant, job_id)

    def recent(self, tenant: str, limit: int) -> list[ImportJob]:
        """The tenant's newest imports, newest first."""
        return self._store.recent_imports(tenant, limit)

    def unfinished(self) -> int:
        """Jobs queued or running, in every process."""
        return self._store.count_unfinished_imports()

    def admit(
        self, tenant: str, job_id: str, kind: str, *, keep: int, check: Callable[[], None]
    ) -> None:
        """Record a new job of this process and prune to the newest `keep` jobs, in one
        write transaction that first runs `check` (which refuses the job by raising): two
        processes cannot both take the last free place. The lease is taken in the same
        transaction, so no process may see the job without it."""
        with self._store.transaction():
            check()
            self.hold_lease()
            self._store.insert_import(tenant, job_id, kind, owner=self.owner)
            self._store.prune_imports(keep)

    def set_status(
        self,
        job_id: str,
        status: str,
        *,
        report: ImportReport | None = None,
        error: str | None = None,
    ) -> None:
        self._store.set_import_status(job_id, status, report=report, error=error)

    def set_progress(self, job_id: str, progress: ImportProgress) -> None:
        self._store.set_import_progress(job_id, progress)

    def fail_orphaned(self, error: str) -> int:
        """Mark failed the unfinished jobs whose owner's lease ran out."""
        return self._store.fail_orphaned_imports(error)

    def fail_unfinished(self, error: str) -> int:
        """Mark failed every unfinished job: only for a server that is starting, before
        any of its processes takes uploads."""
        return self._store.fail_unfinished_imports(error)

    def hold_lease(self) -> None:
        if not self._store.extend_lease(self.lease, self.owner, self.lease_seconds):
            self._store.claim_lease(self.lease, self.owner, self.lease_seconds)

    def extend_lease(self) -> None:
        self._store.extend_lease(self.lease, self.owner, self.lease_seconds)

    def release_lease(self) -> None:
        self._store.release_lease(self.lease, self.owner)
