"""The maintenance loop: retention, archiving, roll-ups, retries and index merges, each
bounded.

`maintain()` runs every stage once and reports counts; `MaintenanceLoop` runs it at start
and then on an interval, for the long-running faces (serve, proxy). However many processes
run a loop over one store, a lease in the store lets one of them run it at a time; a second
lease, held only while a run lasts, keeps `threefold maintain` from running beside a loop.
"""

from __future__ import annotations  # Memory is imported for types only: it builds on this

import hashlib
import logging
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from typing import TYPE_CHECKING

from threefold import tracing
from threefold.domain import Fact, FactStatus, SourceRef, utcnow
from threefold.layers.facts import word_overlap
from threefold.pipeline.jobs import ROLLUP, enqueue_once
from threefold.store.base import NewFact, lease_owner
from threefold.tokens import count_tokens

if TYPE_CHECKING:
    from threefold.memory import Memory

log = logging.getLogger("threefold.pipeline.maintenance")

_SIMILAR = 0.8
_DATED = ("deadline", "date")


@dataclass(frozen=True)
class StageReport:
    stage: str
    count: int
    ms: float


def maintain(memory: Memory) -> list[StageReport]:
    """Run each stage once; a failing stage is logged and the others still run."""
    reports = []
    for name, stage in STAGES:
        started = time.perf_counter()
        try:
            count = stage(memory)
        except Exception:  # one broken stage must not stop the loop
            log.exception("maintenance stage %s failed", name)
            count = -1
        report = StageReport(name, count, round((time.perf_counter() - started) * 1000, 1))
        log.info("maintenance %s: %d in %.1f ms", name, report.count, report.ms)
        tracing.event("maintenance", stage=name, count=report.count, ms=report.ms)
        reports.append(report)
    return reports


def retry_failed(memory: Memory) -> int:
    return memory.store.retry_failed()


def roll_ups(memory: Memory) -> int:
    """Queue a roll-up pass for every stream, then run the queue."""
    streams = memory.store.streams_with_items()[: memory.settings.max_rows_per_run]
    with memory.store.transaction():
        for tenant, stream in streams:
            enqueue_once(memory.store, tenant, stream, ROLLUP)
    memory.process_pending()
    return len(streams)


def compress_stale(memory: Memory) -> int:
    """Clusters of old, unpinned, near-identical facts become one fact standing for them."""
    settings = memory.settings
    stale = memory.store.stale_facts(
        before=utcnow() - timedelta(days=settings.retention_days),
        below_confidence=settings.pin_min_confidence,
        limit=settings.max_rows_per_run,
    )
    groups: dict[tuple[str, str, str, str], list[Fact]] = defaultdict(list)
    for fact in stale:
        groups[(fact.tenant, fact.stream, fact.category, fact.subject)].append(fact)
    folded = 0
    for members in groups.values():
        for cluster in _clusters(members):
            if len(cluster) > 1:
                with memory.store.transaction():
                    _fold(memory, cluster)
                folded += len(cluster)
    return folded


def archive_expired(memory: Memory) -> int:
    """Deadlines and dates long past leave the prompt; they stay searchable as history."""
    settings = memory.settings
    cutoff = (utcnow() - timedelta(days=settings.archive_after_days)).date()
    moved = 0
    for fact in memory.store.active_facts_of(_DATED, settings.max_rows_per_run):
        day = _iso_day(fact.value)
        if day is None or day >= cutoff:
            continue
        with memory.store.transaction():
            memory.store.set_fact_status(fact.tenant, fact.id, FactStatus.ARCHIVED)
            memory.store.add_fact_change(fact.id, "ARCHIVE", note=f"{fact.value} has passed")
        moved += 1
    return moved


def clean_archive(memory: Memory) -> int:
    """Delete archived summaries past their age, only when a retention rule says so."""
    days = memory.settings.archive_cleanup_days
    if days is None:
        return 0
    return memory.store.delete_archived_summaries(
        before=utcnow() - timedelta(days=days), limit=memory.settings.max_rows_per_run
    )


MERGE_PAGES = 2000
"""Full-text index pages merged per run, per index: a few seconds' work at most."""


def expire_raw(memory: Memory) -> int:
    """Delete raw turns and messages past settings.raw_retention_days that the summaries
    already cover; their facts and summaries stay, and an audit row counts what went."""
    settings, store = memory.settings, memory.store
    days = settings.raw_retention_days
    if days is None:
        return 0
    found = store.expired_ids(
        utcnow() - timedelta(days=days),
        keep_turns=settings.recent_turns,
        sources=settings.raw_retention_sources,
        limit=settings.max_rows_per_run,
    )
    for tenant, ids in found.items():
        removed = {"turns": len(ids.turns), "records": len(ids.records)}
        with store.transaction():
            store.erase_items(tenant, ids)
            store.note_erasure(tenant, {"retention_days": days}, removed, ids.streams)
        store.announce_erased(tenant, ids.streams)
    return sum(len(ids.turns) + len(ids.records) for ids in found.values())


def forget_deliveries(memory: Memory) -> int:
    """Event ids taken from Slack, once no retry of theirs can come any more: in the
    deliveries after a week, in the inbox an hour after they were handed on (a retry
    later than that is still refused by the deliveries)."""
    now = time.time()
    handed = memory.forget_handed(now - INBOX_SECONDS)
    return memory.store.prune_deliveries(now - DELIVERY_SECONDS) + handed


DELIVERY_SECONDS = 7 * 86400.0
"""How long an event id is remembered: Slack retries for an hour at most."""
INBOX_SECONDS = 3600.0


def merge_text_index(memory: Memory) -> int:
    """Merge the pieces that writes left in the full-text index; returns pages written."""
    return memory.store.merge_text_index(MERGE_PAGES)


TEAM_LEASE = "team-rebuild"
"""Held for settings.team.rebuild_hours after each rebuild: while it holds, none is due."""


def team_rebuild(memory: Memory) -> int:
    """Rebuild profiles and actions of every tenant, once per team.rebuild_hours (nightly
    by default); returns the profiles built, or 0 when no rebuild was due."""
    hours, owner = memory.settings.team.rebuild_hours, lease_owner()
    if not memory.store.claim_lease(TEAM_LEASE, owner, hours * 3600):
        return 0
    tenants = sorted({tenant for tenant, _ in memory.store.streams_with_items()})
    try:
        return sum(memory.rebuild_team(tenant=tenant).profiles for tenant in tenants)
    except BaseException:
        memory.store.release_lease(TEAM_LEASE, owner)  # due again at the next run
        raise


STAGES: tuple[tuple[str, Callable[[Memory], int]], ...] = (
    ("retention", compress_stale),
    ("raw_retention", expire_raw),
    ("archive", archive_expired),
    ("archive_cleanup", clean_archive),
    ("rollups", roll_ups),
    ("retries", retry_failed),
    ("team", team_rebuild),
    ("deliveries", forget_deliveries),
    ("text_index", merge_text_index),  # last: the stages before it write to the index
)


def _clusters(facts: list[Fact]) -> list[list[Fact]]:
    clusters: list[list[Fact]] = []
    for fact in facts:
        home = next((c for c in clusters if word_overlap(c[0].text, fact.text) >= _SIMILAR), None)
        if home is None:
            clusters.append([fact])
        else:
            home.append(fact)
    return clusters


def _fold(memory: Memory, cluster: list[Fact]) -> None:
    store, first = memory.store, cluster[0]
    newest = max(cluster, key=lambda f: f.recorded_at)
    text = f"{newest.text} (said {len(cluster)} times)"
    key = hashlib.sha1(" ".join(str(f.id) for f in cluster).encode()).hexdigest()[:12]
    folded = store.insert_fact(
        NewFact(
            tenant=first.tenant,
            stream=first.stream,
            text=text,
            category=first.category,
            subject=first.subject,
            slot=f"compressed:{key}",
            value=newest.value,
            confidence=max(f.confidence for f in cluster),
            visibility=newest.visibility,
            source=SourceRef(kind="maintenance", id=key, at=newest.source.at),
            tokens=count_tokens(text),
        )
    )
    store.add_fact_change(folded.id, "ADD", note=f"stands for {len(cluster)} facts")
    for fact in cluster:
        store.set_fact_status(fact.tenant, fact.id, FactStatus.COMPRESSED, superseded_by=folded.id)
        store.add_fact_change(fact.id, "COMPRESS", related=folded.id)


def _iso_day(value: str) -> date | None:
    try:
        return date.fromisoformat(value[:10])
    except ValueError:
        return None


LEASE = "maintenance"
"""Whose turn it is: a loop holds it while it runs and for its interval after."""
RUN_LEASE = "maintenance-run"
"""Held only while maintain() runs, by a loop or by `threefold maintain`."""
_POLL_SECONDS = 60.0
"""How often a loop that does not hold the lease looks whether it has come free."""
_RUN_LEASE_SECONDS = 900.0
"""Held while a run lasts, so that no other process starts one meanwhile; a process that
dies mid-run blocks the others for this long at most."""


def maintain_alone(memory: Memory, owner: str) -> list[StageReport] | None:
    """maintain(), unless another process is running it on the same store: then None."""
    if not memory.store.claim_lease(RUN_LEASE, owner, _RUN_LEASE_SECONDS):
        return None
    try:
        return maintain(memory)
    finally:
        memory.store.release_lease(RUN_LEASE, owner)


class MaintenanceLoop:
    """Runs maintain() at start and then every `interval` seconds, in a daemon thread.

    The loops of all processes on one store share the work through the store's lease
    `maintenance`: a run takes it, and keeps it for `interval` after finishing, so that
    whichever loop finds it free next runs next. A loop that stops cleanly lets it go, so
    a restarted server maintains at start again.
    """

    def __init__(self, memory: Memory, interval: float) -> None:
        self._memory = memory
        self._interval = interval
        self._owner = lease_owner()
        self.runs = 0
        """How many times this loop has run maintain()."""
        self.tried = threading.Event()
        """Set once this loop has tried for the lease (and run, if it got it)."""
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="threefold-maintenance", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self, timeout: float = 30.0) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout)
        if not self._thread.is_alive():  # else a run goes on and still needs the lease
            self._release()

    def _run(self) -> None:
        while not self._stop.is_set():
            if self._claim():
                self._run_once()
                self._hold(self._interval)
            self.tried.set()
            self._stop.wait(min(self._interval, _POLL_SECONDS))

    def _run_once(self) -> None:
        try:
            # None when `threefold maintain` runs right now: it does this turn's work.
            if maintain_alone(self._memory, self._owner) is not None:
                self.runs += 1
        except Exception:  # a busy or broken store: the next turn tries again
            log.exception("cannot run maintenance")

    def _claim(self) -> bool:
        try:
            held = self._memory.store.claim_lease(
                LEASE, self._owner, max(self._interval, _RUN_LEASE_SECONDS)
            )
        except Exception:  # a busy or broken store: try again at the next tick
            log.exception("cannot take the maintenance lease")
            return False
        if not self.tried.is_set():  # which process maintains, once, not every tick
            tracing.event("maintenance_lease", owner=self._owner, held=held)
        return held

    def _hold(self, seconds: float) -> None:
        try:
            self._memory.store.extend_lease(LEASE, self._owner, seconds)
        except Exception:
            log.exception("cannot keep the maintenance lease")

    def _release(self) -> None:
        try:
            self._memory.store.release_lease(LEASE, self._owner)
        except Exception:
            log.exception("cannot let the maintenance lease go")
