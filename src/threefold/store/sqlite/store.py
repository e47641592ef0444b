"""The embedded store: one SQLite file in WAL mode, FTS5 for text.

One connection per Store, guarded by a lock, so one Memory may be shared by threads.
Other processes on the same file coordinate through SQLite's own locking and the
stream leases kept in the `stream_leases` table.
"""

import json
import logging
import sqlite3
import threading
import time
from array import array
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterator, Sequence, Sized
from contextlib import contextmanager
from datetime import datetime, timedelta
from functools import lru_cache, wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from threefold.dates import shifted
from threefold.domain import (
    Fact,
    FactChange,
    ImportReport,
    Record,
    SourceRef,
    Summary,
    SummaryKind,
    TimelineEntry,
    Turn,
    Visibility,
    utcnow,
)
from threefold.errors import SettingsError, StoreError, StoreReadOnly, StoreUnavailable
from threefold.store.base import (
    EMBED_MIN_CHARS,
    IMPORT_LEASE_PREFIX,
    NO_OBSERVED_RULE,
    ApiKey,
    Candidates,
    Item,
    ItemFilter,
    Job,
    NewRecord,
    NewTurn,
    ObservedPins,
    PinPolicy,
    Probe,
    StreamState,
    StreamView,
    TurnWindow,
    candidates_one_by_one,
    check_probes,
    names_indexed,
    next_window,
    view_one_by_one,
)
from threefold.store.rows import (
    api_key_of,
    fact_of,
    item_of,
    job_of,
    json_or_none_back,
    maybe_moment,
    moment,
    record_of,
    summary_of,
    turn_of,
)
from threefold.store.sqlite.connection import open_database
from threefold.store.sqlite.entities import EntityTables
from threefold.store.sqlite.erasure import ErasureTables
from threefold.store.sqlite.migrations import MIGRATIONS
from threefold.store.sqlite.routing import RoutingTables
from threefold.store.sqlite.team import TeamTables
from threefold.store.sqlite.term_scores import CountsAtVersion, IndexVersion, TermScores
from threefold.store.sqlite.write_queue import WriteQueue
from threefold.store.statements import (
    SUPERSEDED,
    SharedStatements,
    name_clauses,
    superseded_pairs,
)

if TYPE_CHECKING:
    from threefold.store.vectors import VectorIndex


def _ts(when: datetime | None) -> str | None:
    """Fixed-width UTC text, so that string order is time order. (isoformat: strftime took
    6% of an import, five times per message.)"""
    if when is None:
        return None
    return when.replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"


_Read = TypeVar("_Read", bound=Callable[..., Any])
_READ_CACHE_ENTRIES = 512
_NAMED_KEPT = 96
"""named_candidates' answers kept: each kind of item for 32 people (at most 15 MB, as
each holds at most base.NAMED_MOST ids)."""
_ITEM_CACHE_ENTRIES = 8192
_PASSING_KEPT = 32_768
"""The most ids whose passing() answers are kept, over every filter (a stream's search,
its context, each person a question names): a few MB."""
_ITEM_MODEL_ENTRIES = 2048
"""Items kept as models (see _item_of_row): about 5 MB. A stream of unique questions
finds 41% of a context's items here (51% with 8,192, all that 200 contexts used)."""
_TURN_MODEL_ENTRIES = 1024
"""Recent turns kept as models (see _turn_of_row): a context reads a few dozen."""
_FACT_MODEL_ENTRIES = 4096
"""Superseded facts and their successors kept as models (see superseded_facts): a stream
with a long history holds hundreds, read again after every write."""
_FINISHED_IMPORT = ("done", "failed")
_SCORED = 1000
"""The most full-text matches one search scores (BM25): a few milliseconds."""
_MERGE_SLICE_PAGES = 200
"""Full-text index pages merged per transaction (see merge_text_index)."""
_TERM_COUNT_ENTRIES = 100_000
_RARE_SCAN = 32
"""Matches of a word rare_words reads first, in the whole file, and checks against the
filter in one read; a word the file says more often, too few of them passing, is then
counted in the database."""
_RARE_READ = 1024
"""The most matches of a word rare_words reads in the whole file: a word too few of whose
first _RARE_READ matches pass the filter is common. Other tenants and streams decide
nothing below it; a small tenant in a busy file pays about 1 ms a word for it
(benchmarks/rare_words.py)."""
_OWN_TEXT = {"turn": "{user_text assistant_text}", "record": "text"}
"""The columns of each kind's full-text index holding its own words: what rare_words
counts."""
_NAMES_INDEXED = {"turn": "{user_text assistant_text}", "fact": "text", "summary": "text"}
"""The columns of each kind's full-text index holding every name ItemFilter.about reads: a
turn's own text with its speakers. A record's author is not indexed."""


def _unchanged_reads(method: _Read) -> _Read:
    """Answer a read from memory while no connection has changed the database.

    Contexts read the same facts, summary and turns request after request; any write,
    here or in another process, starts the memory afresh.
    """

    @wraps(method)
    def read(self: "SQLiteStore", *args: Any, **kwargs: Any) -> Any:
        key = (method.__name__, args, tuple(kwargs.items()))
        with self._lock:
            self._check_read_version()
            if key not in self._read_cache:
                if len(self._read_cache) >= _READ_CACHE_ENTRIES:
                    self._read_cache.clear()
                self._read_cache[key] = method(self, *args, **kwargs)
            found = self._read_cache[key]
        return list(found) if isinstance(found, list) else found

    return read  # type: ignore[return-value]


DURABILITY = {"full": "FULL", "normal": "NORMAL", "off": "OFF"}
"""settings.durability -> SQLite's synchronous. In WAL mode FULL syncs the log at every
commit (a commit survives a power cut); NORMAL only at checkpoints (it survives a crash of
the process, not of the machine); OFF leaves syncing to the operating system."""


log = logging.getLogger("threefold.store")
_RECORD_SELECT = (
    "SELECT r.*, (SELECT group_concat(stream, char(31)) FROM record_streams"
    " WHERE record_id = r.id) AS also_in FROM records r"
)


class SQLiteStore(SharedStatements, EntityTables, ErasureTables, TeamTables, RoutingTables):
    _record_select = _RECORD_SELECT

    def __init__(
        self, path: Path | str, *, busy_timeout_ms: int = 30_000, durability: str = "full"
    ) -> None:
        self.path = Path(path)
        if durability not in DURABILITY:
            raise StoreError(f"durability must be one of {sorted(DURABILITY)}, not {durability!r}")
        if self.path.is_dir():
            # SQLite says only "unable to open", which reads as busy: a wrong path is no
            # reason to try again.
            raise SettingsError(
                f"db: {self.path} is a folder, not a database file; give a file's path, "
                f"such as {self.path / 'memory.db'}"
            )
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreUnavailable(f"cannot open {self.path}: {exc}") from exc
        self._db, self.read_only = open_database(self.path, timeout=busy_timeout_ms / 1000)
        """Read-only storage opens read-only: reads work, writes raise StoreReadOnly."""
        if self.read_only:
            log.warning("%s is on read-only storage: opened for reading only", self.path)
        # An in-memory database has one connection and nothing beside it to lock.
        on_disk = not self.read_only and str(self.path) != ":memory:"
        self._writers = WriteQueue(self.path, busy_timeout_ms / 1000, writable=on_disk)
        """Writers take turns through it, so that none waits on SQLite's polling for long."""
        self._lock = threading.RLock()
        self._depth = 0
        self._streams: set[tuple[str, str]] = set()
        """Streams this connection made sure exist; forgotten on rollback."""
        self._read_cache: dict[tuple[Any, ...], Any] = {}
        self._item_cache: dict[tuple[str, str, int], Item] = {}
        """Search's items by (kind, tenant, id); emptied with the read cache."""
        self._ranking_cache: dict[tuple[str, str, int], tuple[int, float | None, int]] = {}
        """Search's ranking rows by (kind, tenant, id); emptied with the read cache."""
        self._passing_cache: dict[tuple[Any, ...], dict[int, tuple[Any, int] | None]] = {}
        """passing()'s answers by (kind, filter's SQL and parameters): each id's (time,
        mentions) where it passed, None where not; emptied with the read cache."""
        self._named_ids: OrderedDict[tuple[str, str, int], tuple[array[int], int]] = OrderedDict()
        """named_candidates' answers by (index, match, most), the latest used last, each
        with the newest turn when it was read: kept while the database is unchanged, and
        the turns' through additions (see _forget_reads)."""
        self._said_counts: dict[tuple[str, str, int], dict[str, tuple[int, Any]]] = {}
        """rare_words' counts by (kind, filter, most), then word: each with the version of
        the records' index, or the newest turn, it was counted at (see _kept_said)."""
        self._said_kept = 0
        """The counts _said_counts holds, over all its keys."""
        self._turn_terms_common: set[str] = set()
        """Terms that more than _SCORED turns matched (see _matches): more turns never
        match fewer, so this holds through additions."""
        self._passing_kept = 0
        """The ids _passing_cache holds, over all its filters."""
        self._turns_mark_at: tuple[int, int] | None = None
        """_turns_mark() when the read caches were last checked."""
        self._read_version: tuple[int, int] = (-1, -1)
        self._read_generation = 0
        """Moves whenever the read caches are emptied: while it stays, nothing has changed."""
        self._checked_for: int | None = None
        """The thread running a search, whose reads trust the version checked as it began."""
        self._term_counts = CountsAtVersion(_TERM_COUNT_ENTRIES)
        """Full-text matches per (index, term)."""
        self._term_scores = TermScores()
        self._erase_listeners: list[Callable[[str, Sequence[str]], None]] = []
        self._vector_index: VectorIndex | None = None
        self._searching = threading.local()
        """`rows`: what the filter checks of a candidates() call on this thread read of
        each item that passed, (time, mentions) by (kind, tenant, id), for its ranking."""
        self._db.row_factory = sqlite3.Row
        try:
            for pragma in (
                "foreign_keys=ON",
                f"synchronous={DURABILITY[durability]}",
                f"busy_timeout={busy_timeout_ms}",
            ):
                self._db.execute(f"PRAGMA {pragma}")
            self._migrate()
        except BaseException:
            self._db.close()  # a store that failed to open holds nothing open
            self._writers.close()
            raise

    # -- plumbing -------------------------------------------------------------

    def close(self) -> None:
        with self._lock:
            self._db.close()
            self._writers.close()

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """A write transaction; nested calls join the outer one."""
        with self._lock:
            if self._depth:
                self._depth += 1
                try:
                    yield
                finally:
                    self._depth -= 1
                return
            self._writers.acquire()
            try:
                self._db.execute("BEGIN IMMEDIATE")
                self._depth = 1
                try:
                    yield
                except BaseException:
                    # SQLite may have rolled back already (a full disk, an I/O error), and a
                    # second ROLLBACK would hide the error that matters behind its own.
                    if self._db.in_transaction:
                        self._db.execute("ROLLBACK")
                    self._streams.clear()
                    self._forget_reads()  # they may hold rows that were just rolled back
                    raise
                else:
                    self._db.execute("COMMIT")
                finally:
                    self._depth = 0
            finally:
                self._writers.release()

    def _check_read_version(self) -> None:
        # data_version moves when another connection commits; total_changes when this one
        # writes, committed or not.
        if self._checked_for == threading.get_ident():
            return
        version = (self._db.execute("PRAGMA data_version").fetchone()[0], self._db.total_changes)
        if version != self._read_version:
            then, now = self._turns_mark_at, self._turns_mark()
            added = then is not None and then[0] == now[0] and then[1] <= now[1]
            self._forget_reads(keep_turns=added)
            self._read_version, self._turns_mark_at = version, now

    def _turns_mark(self) -> tuple[int, int]:
        """The newest erasure and the newest turn: a turn's row never changes, and only an
        erasure deletes one, so while the first stays and the second does not fall back
        (a file restored from an older copy), what was read of the turns still holds."""
        row = self._db.execute(
            "SELECT (SELECT coalesce(max(id), 0) FROM erasures),"
            " (SELECT coalesce(max(id), 0) FROM turns)"
        ).fetchone()
        return int(row[0]), int(row[1])

    def _forget_reads(self, *, keep_turns: bool = False) -> None:
        """Forget what was read. `keep_turns`: keep what was read of turns (their items,
        ranking rows, filter answers, people's lists in the index and the words found
        common), as only turns were added since: on a busy stream, where a turn comes
        before every question, search read them all again (at 100,000 turns a third of a
        search)."""
        self._read_cache.clear()
        self._read_generation += 1
        if not keep_turns:
            self._item_cache.clear()
            self._ranking_cache.clear()
            self._passing_cache.clear()
            self._passing_kept = 0
            self._named_ids.clear()
            self._said_counts.clear()
            self._said_kept = 0
            self._turn_terms_common.clear()
            return
        for cache in (self._item_cache, self._ranking_cache, self._passing_cache):
            for key in [k for k in cache if k[0] != "turn"]:  # keyed by kind first
                del cache[key]
        turns_index = _KINDS["turn"].fts
        for key in [k for k in self._named_ids if k[0] != turns_index]:  # by index first
            del self._named_ids[key]
        self._passing_kept = sum(len(v) for v in self._passing_cache.values())

    def read_generation(self) -> int:
        """A number that stays the same while the database is unchanged (as this connection
        sees it, its own uncommitted writes included): what is derived from a read may be
        kept while it stays."""
        with self._lock:
            self._check_read_version()
            return self._read_generation

    @contextmanager
    def _version_checked_once(self) -> Iterator[None]:
        """This thread's reads within check the database's version once, as they begin: a
        search makes a dozen cached reads, each of which would check it again. A write that
        comes meanwhile (another thread's, another process's) is seen by them as if it came
        after the search. The lock is not held throughout, so that a thread that holds the
        vector index's lock and waits for this one's never waits on a search that waits for
        it; another thread's search meanwhile checks at every read, as before."""
        me = threading.get_ident()
        if self._checked_for == me:
            yield
            return
        with self._lock:
            self._check_read_version()
            self._checked_for = me
        try:
            yield
        finally:
            if self._checked_for == me:
                self._checked_for = None

    def _time(self, moment: datetime) -> str:
        return _ts(moment) or ""

    facts = _unchanged_reads(SharedStatements.facts)
    api_key = _unchanged_reads(SharedStatements.api_key)

    def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        with self._lock:
            return self._db.execute(sql, params).fetchall()

    def _row(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        with self._lock:
            return self._db.execute(sql, params).fetchone()

    def _one(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row:
        """The row of a query that always has one: an aggregate, or a row this
        transaction has just written."""
        row = self._row(sql, params)
        if row is None:
            raise StoreError(f"the store answered no row to: {' '.join(sql.split())[:80]}")
        return row

    def _exec(self, sql: str, params: Sequence[Any] = ()) -> int:
        with self._lock:
            return self._db.execute(sql, params).lastrowid or 0

    def _insert(self, table: str, values: dict[str, Any]) -> int:
        values = self._past_retired(table, values)
        return self._exec(_insert_sql(table, values), list(values.values()))

    def _insert_row(self, table: str, values: dict[str, Any]) -> sqlite3.Row:
        """Insert a row and read it back, defaults included, in one statement. A datetime
        is written as SQLite's fixed-width text."""
        values = {k: _ts(v) if isinstance(v, datetime) else v for k, v in values.items()}
        values = self._past_retired(table, values)
        row = self._row(_insert_sql(table, values) + " RETURNING *", list(values.values()))
        assert row is not None  # a plain INSERT returns its row or raises
        return row

    def _first_free_id(self, table: str) -> int | None:
        """The id past every one `table` ever gave out, if SQLite would give a lower one
        (the newest rows were erased); None when its own choice is new. Call in the
        write transaction that inserts."""
        if table not in _IDS_NEVER_REUSED:
            return None
        row = self._row(
            f"SELECT high FROM retired_ids WHERE tbl = ?"
            f" AND high >= COALESCE((SELECT MAX(id) FROM {table}), 0)",
            (table,),
        )
        return None if row is None else row["high"] + 1

    def _past_retired(self, table: str, values: dict[str, Any]) -> dict[str, Any]:
        first = self._first_free_id(table)
        return values if first is None else {"id": first, **values}

    def _migrate(self) -> None:
        if self.read_only:
            self._check_migrated()
            return
        with self._lock:
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations"
                " (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
            )
            applied = {r["name"] for r in self._rows("SELECT name FROM schema_migrations")}
            known = [name for name, _ in MIGRATIONS]
            unknown = applied - set(known)
            if unknown:
                raise StoreError(
                    f"{self.path} was written by a newer threefold (migrations {sorted(unknown)})"
                )
            for name, sql in MIGRATIONS:
                if name not in applied:
                    self._apply(name, sql)

    def _check_migrated(self) -> None:
        """A read-only database is read as it is: its schema must be this version's."""
        tables = self._rows("SELECT 1 FROM sqlite_master WHERE name = 'schema_migrations'")
        applied = (
            {r["name"] for r in self._rows("SELECT name FROM schema_migrations")}
            if tables
            else set()
        )
        missing = [name for name, _ in MIGRATIONS if name not in applied]
        if missing:
            raise StoreReadOnly(
                f"{self.path} is on read-only storage and needs migrations {missing[0]} to "
                f"{missing[-1]}; open it once where it can be written"
            )
        if unknown := applied - {name for name, _ in MIGRATIONS}:
            raise StoreError(
                f"{self.path} was written by a newer threefold (migrations {sorted(unknown)})"
            )

    def _apply(self, name: str, sql: str) -> None:
        # executescript commits on its own, so the migration and its record go in one script.
        record = f"INSERT INTO schema_migrations VALUES ('{name}', '{_ts(utcnow())}');"
        script = f"BEGIN IMMEDIATE;\n{sql}\n{record}\nCOMMIT;"
        self._writers.acquire()
        try:
            self._db.executescript(script)
        except StoreError as exc:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise type(exc)(f"migration {name} failed: {exc}") from exc
        finally:
            self._writers.release()

    # -- streams --------------------------------------------------------------

    def ensure_stream(self, tenant: str, stream: str) -> None:
        # An import asks this once per message; the stream row never goes away.
        if (tenant, stream) in self._streams:
            return
        self._exec(
            "INSERT OR IGNORE INTO streams (tenant, name, created_at) VALUES (?, ?, ?)",
            (tenant, stream, _ts(utcnow())),
        )
        self._streams.add((tenant, stream))

    @_unchanged_reads
    def stream_state(self, tenant: str, stream: str) -> StreamState:
        row = self._row("SELECT * FROM streams WHERE tenant = ? AND name = ?", (tenant, stream))
        if row is None:
            return StreamState(tenant=tenant, name=stream, exists=False)
        return StreamState(
            tenant=tenant,
            name=stream,
            exists=True,
            turn_count=row["turn_count"],
            last_summarized_turn=row["last_summarized_turn"],
            summary_enqueued_through=row["summary_enqueued_through"],
            unsummarized_tokens=row["unsummarized_tokens"],
            erasures=row["erasures"],
        )

    def streams(self, tenant: str) -> list[str]:
        rows = self._rows("SELECT name FROM streams WHERE tenant = ? ORDER BY name", (tenant,))
        return [r["name"] for r in rows]

    # -- turns ----------------------------------------------------------------

    def insert_turn(self, turn: NewTurn) -> Turn:
        with self.transaction():
            seq = self._take_seqs(turn.tenant, turn.stream, 1, turn.tokens)
            recorded = utcnow()
            turn_id = self._insert("turns", _turn_values(turn, seq, recorded))
        return Turn(id=turn_id, seq=seq, recorded_at=recorded, **turn.model_dump())

    def insert_turns(self, turns: Sequence[NewTurn]) -> list[int]:
        """Store many turns in one transaction, in order, and return their ids: a bulk
        load (a history import, a benchmark's million turns) without a statement and a
        Turn object per turn. Each turn takes the next seq of its stream, as with
        insert_turn; no job is queued, as with insert_turn."""
        ids: list[int] = []
        with self.transaction():
            counts: Counter[tuple[str, str]] = Counter()
            tokens: Counter[tuple[str, str]] = Counter()
            for turn in turns:
                counts[(turn.tenant, turn.stream)] += 1
                tokens[(turn.tenant, turn.stream)] += turn.tokens
            next_seq = {
                key: self._take_seqs(*key, count, tokens[key]) - count + 1
                for key, count in counts.items()
            }
            recorded = utcnow()
            for start in range(0, len(turns), _TURNS_PER_INSERT):
                rows = []
                for turn in turns[start : start + _TURNS_PER_INSERT]:
                    seq = next_seq[(turn.tenant, turn.stream)]
                    next_seq[(turn.tenant, turn.stream)] = seq + 1
                    rows.append(_turn_values(turn, seq, recorded))
                first = self._first_free_id("turns")
                if first is not None:  # past the ids of erased turns, in VALUES order
                    rows = [{"id": first + n, **row} for n, row in enumerate(rows)]
                marks = ", ".join([f"({_marks(rows[0])})"] * len(rows))
                returned = self._rows(
                    f"INSERT INTO turns ({', '.join(rows[0])}) VALUES {marks} RETURNING id",
                    [value for row in rows for value in row.values()],
                )
                # RETURNING's order is not promised; new rowids ascend in VALUES order.
                ids += sorted(r["id"] for r in returned)
        return ids

    def _take_seqs(self, tenant: str, stream: str, count: int, tokens: int) -> int:
        """Count `count` new turns of the stream and return the last seq they take."""
        self.ensure_stream(tenant, stream)
        self._exec(
            "UPDATE streams SET turn_count = turn_count + ?,"
            " unsummarized_tokens = unsummarized_tokens + ? WHERE tenant = ? AND name = ?",
            (count, tokens, tenant, stream),
        )
        return self._one(
            "SELECT turn_count FROM streams WHERE tenant = ? AND name = ?", (tenant, stream)
        )["turn_count"]

    @_unchanged_reads
    def turns(
        self,
        tenant: str,
        stream: str,
        *,
        after_seq: int = 0,
        through_seq: int | None = None,
        last: int | None = None,
    ) -> list[Turn]:
        """Turns in seq order: those in (after_seq, through_seq], or only the `last` n."""
        sql = "SELECT * FROM turns WHERE tenant = ? AND stream = ? AND seq > ?"
        params: list[Any] = [tenant, stream, after_seq]
        if through_seq is not None:
            sql += " AND seq <= ?"
            params.append(through_seq)
        if last is not None:
            rows = self._rows(sql + " ORDER BY seq DESC LIMIT ?", [*params, last])
            rows.reverse()
        else:
            rows = self._rows(sql + " ORDER BY seq", params)
        return [_turn_of_row(r) for r in rows]

    # -- facts ----------------------------------------------------------------

    def active_fact_texts(
        self,
        tenant: str,
        stream: str,
        *,
        visibilities: Sequence[Visibility],
        min_confidence: float,
        skip_categories: Sequence[str],
        skip_sources: Sequence[str],
    ) -> list[str]:
        """Newest first, like `facts`, read as text alone: compaction reads all of a stream's."""
        rows = self._pinned_rows(
            "text", tenant, stream, visibilities, min_confidence, skip_categories, skip_sources
        )
        return [r["text"] for r in rows]

    @_unchanged_reads
    def pinned_facts(
        self,
        tenant: str,
        stream: str,
        *,
        visibilities: Sequence[Visibility],
        min_confidence: float,
        skip_categories: Sequence[str],
        skip_sources: Sequence[str],
        observed: ObservedPins = NO_OBSERVED_RULE,
    ) -> list[Fact]:
        """The active facts a pin policy keeps, newest first: the store filters, as a
        stream may hold tens of thousands of facts and pin only a few."""
        rows = self._pinned_rows(
            "*", tenant, stream, visibilities, min_confidence, skip_categories, skip_sources,
            observed,
        )  # fmt: skip
        return [fact_of(r) for r in rows]

    def _pinned_rows(
        self,
        columns: str,
        tenant: str,
        stream: str,
        visibilities: Sequence[Visibility],
        min_confidence: float,
        skip_categories: Sequence[str],
        skip_sources: Sequence[str],
        observed: ObservedPins = NO_OBSERVED_RULE,
    ) -> list[sqlite3.Row]:
        seen = [v.value for v in visibilities]
        outside, outside_params = _observed_sql(observed)
        return self._rows(
            f"SELECT {columns} FROM facts WHERE tenant = ? AND stream = ? AND status = 'active'"
            f" AND visibility IN ({_marks(seen)}) AND confidence >= ?"
            f" AND category NOT IN ({_marks(skip_categories)})"
            f" AND source_kind NOT IN ({_marks(skip_sources)}){outside} ORDER BY id DESC",
            (
                tenant, stream, *seen, min_confidence, *skip_categories, *skip_sources,
                *outside_params,
            ),
        )  # fmt: skip

    @_unchanged_reads
    def superseded_facts(self, tenant: str, stream: str) -> list[tuple[Fact, Fact]]:
        """(old, successor) for each inactive fact of the stream whose chain of successors,
        in the same stream, ends at an active fact (see superseded_pairs)."""
        rows = self._rows(SUPERSEDED, (tenant, stream) * 3)
        return superseded_pairs(_fact_of_values(tuple(r.keys()), tuple(r)) for r in rows)

    def fact_changes(self, tenant: str, fact_ids: Sequence[int]) -> list[FactChange]:
        marks = _marks(fact_ids)
        rows = self._rows(
            f"SELECT h.* FROM fact_history h JOIN facts f ON f.id = h.fact_id"
            f" WHERE f.tenant = ? AND h.fact_id IN ({marks}) ORDER BY h.id",
            (tenant, *fact_ids),
        )
        return [
            FactChange(
                fact_id=r["fact_id"],
                action=r["action"],
                related_fact_id=r["related_fact_id"],
                at=moment(r["at"]),
                note=r["note"],
                before=json_or_none_back(r["before"]),
                after=json_or_none_back(r["after"]),
            )
            for r in rows
        ]

    def update_fact(self, tenant: str, fact_id: int, *, text: str, value: str, tokens: int) -> None:
        self._exec(
            "UPDATE facts SET text = ?, value = ?, tokens = ? WHERE tenant = ? AND id = ?",
            (text, value, tokens, tenant, fact_id),
        )

    # -- vectors --------------------------------------------------------------

    def vector_models(self) -> list[tuple[str, int]]:
        """The (model, dimension) pairs that stored vectors were made with."""
        rows = self._rows("SELECT DISTINCT model, dim FROM vectors")
        return [(r["model"], r["dim"]) for r in rows]

    def unembedded(self, tenant: str, stream: str, limit: int) -> list[tuple[str, int, str]]:
        """Up to `limit` items of the stream without a vector: (kind, id, text).

        Of summaries, only session and roll-up ones: the active summary and its archived
        versions retell those, and full text still finds them. Turns and messages shorter
        than EMBED_MIN_CHARS ("ok", "+1", "thanks!") get none: their vector would be near
        every question alike, and full text finds them. Of facts, only active ones: recall
        never searches a superseded or retracted fact, so its vector would go unused.
        """
        sql, params = _unembedded_sql(tenant, stream)
        rows = self._rows(f"{sql} LIMIT ?", [*params, limit])
        return [(r["kind"], r["id"], r["text"]) for r in rows]

    def count_unembedded_in(self, tenant: str, stream: str) -> int:
        sql, params = _unembedded_sql(tenant, stream)
        row = self._row(f"SELECT count(*) AS n FROM ({sql})", params)
        return row["n"] if row else 0

    def count_unembedded(self) -> int:
        row = self._one(
            "SELECT (SELECT COUNT(*) FROM turns"
            "    WHERE length(user_text) + length(assistant_text) >= ?)"
            " + (SELECT COUNT(*) FROM facts WHERE status = 'active')"
            " + (SELECT COUNT(*) FROM summaries"
            "    WHERE kind IN ('session', 'weekly', 'monthly', 'slack'))"
            " + (SELECT COUNT(*) FROM records WHERE length(text) >= ?)"
            " - (SELECT COUNT(*) FROM vectors WHERE kind != 'fact'"
            "    OR item_id IN (SELECT id FROM facts WHERE status = 'active')) AS n",
            (EMBED_MIN_CHARS, EMBED_MIN_CHARS),
        )
        return max(0, row["n"])

    def put_vectors(
        self, tenant: str, stream: str, model: str, items: Sequence[tuple[str, int, bytes, int]]
    ) -> None:
        """Store (kind, item id, float32 bytes, dim) rows, replacing any earlier vector."""
        with self._lock:
            self._db.executemany(
                "INSERT OR REPLACE INTO vectors (kind, item_id, tenant, stream, model, dim, vector)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(kind, item, tenant, stream, model, dim, blob) for kind, item, blob, dim in items],
            )

    def drop_vectors(self) -> int:
        """Forget every vector (they are derived data, made again by reembed)."""
        with self.transaction():
            return self._db.execute("DELETE FROM vectors").rowcount

    def vectors(
        self,
        kind: str,
        tenant: str,
        streams: Sequence[str] | None,
        after_id: int = 0,
        limit: int | None = None,
    ) -> list[tuple[int, int, str, bytes]]:
        """(vector row id, item id, stream, blob) of one kind, oldest row first."""
        sql = "SELECT id, item_id, stream, vector FROM vectors WHERE tenant = ? AND kind = ?"
        params: list[Any] = [tenant, kind]
        if streams is not None:
            sql += f" AND stream IN ({_marks(streams)})"
            params += list(streams)
        sql += " AND id > ? ORDER BY id LIMIT ?"
        rows = self._rows(sql, [*params, after_id, -1 if limit is None else limit])
        return [(r["id"], r["item_id"], r["stream"], r["vector"]) for r in rows]

    def item_vectors(
        self, kind: str, tenant: str, item_ids: Sequence[int]
    ) -> list[tuple[int, bytes]]:
        rows = self._rows(
            # CROSS JOIN: each id is looked up by (kind, item_id); the planner would rather
            # read every vector of the tenant's kind.
            "SELECT v.item_id, v.vector FROM json_each(?) AS wanted CROSS JOIN vectors v"
            " ON v.kind = ? AND v.item_id = wanted.value WHERE v.tenant = ?",
            [json.dumps(list(item_ids)), kind, tenant],
        )
        return [(r["item_id"], r["vector"]) for r in rows]

    # -- records --------------------------------------------------------------

    def _link_records(self, stored: list[tuple[NewRecord, int]]) -> None:
        """Cross-references and timeline events of newly stored records."""
        for record, _ in stored:
            for stream in record.also_in:
                self.ensure_stream(record.tenant, stream)
        with self._lock:
            self._db.executemany(
                "INSERT OR IGNORE INTO record_streams VALUES (?, ?, ?)",
                [(i, r.tenant, stream) for r, i in stored for stream in r.also_in],
            )
        for tenant in {r.tenant for r, _ in stored}:
            self.add_entity_events(
                tenant,
                [
                    (entity, "record", i, r.at)
                    for r, i in stored
                    if r.tenant == tenant
                    for entity in r.entities
                ],
            )

    def _insert_new_records(self, records: Sequence[NewRecord]) -> list[int | None]:
        """Ids of the inserted rows, in order; None for a key stored before (or earlier in
        `records`). Many rows per statement: with one INSERT per row, SQLite spent about as
        long on the statements as on the writes."""
        recorded = _ts(utcnow())
        new: dict[tuple[str, str, str, str], int] = {}
        for start in range(0, len(records), _RECORDS_PER_INSERT):
            rows = [_record_row(r, recorded) for r in records[start : start + _RECORDS_PER_INSERT]]
            sql = _RECORD_INSERT + ", ".join([f"({_marks(_RECORD_COLUMNS)})"] * len(rows))
            first = self._first_free_id("records")
            if first is not None:  # past the ids of erased records
                columns = ", ".join(("id", *_RECORD_COLUMNS))
                rows = [(first + n, *row) for n, row in enumerate(rows)]
                sql = f"INSERT INTO records ({columns}) VALUES " + ", ".join(
                    [f"({_marks(rows[0])})"] * len(rows)
                )
            returned = self._rows(
                sql + " ON CONFLICT DO NOTHING RETURNING id, tenant, source, channel, external_id",
                [value for row in rows for value in row],
            )
            new.update(
                {
                    (r["tenant"], r["source"], r["channel"], r["external_id"]): r["id"]
                    for r in returned
                }
            )
        # pop: of two records with one key, the first was inserted and the second was not.
        return [new.pop((r.tenant, r.source, r.channel, r.external_id), None) for r in records]

    def records(
        self, tenant: str, stream: str, *, source: str | None = None, last: int | None = None
    ) -> list[Record]:
        # The stream's own newest and its cross-referenced newest, each read in index
        # order and limited before they are merged: never a sort of the whole stream.
        limit = -1 if last is None else last
        newest = self._rows(
            "SELECT id, at FROM (SELECT id, at FROM records WHERE tenant = ? AND stream = ?"
            " AND (? IS NULL OR source = ?) ORDER BY at DESC, id DESC LIMIT ?)"
            " UNION SELECT id, at FROM (SELECT r.id, r.at FROM record_streams s"
            " JOIN records r ON r.id = s.record_id WHERE s.tenant = ? AND s.stream = ?"
            " AND (? IS NULL OR r.source = ?) ORDER BY r.at DESC, r.id DESC LIMIT ?)"
            " ORDER BY at DESC, id DESC LIMIT ?",
            (tenant, stream, source, source, limit, tenant, stream, source, source, limit, limit),
        )
        ids = [r["id"] for r in newest]
        rows = {
            r["id"]: r for r in self._rows(f"{_RECORD_SELECT} WHERE r.id IN ({_marks(ids)})", ids)
        }
        return [record_of(rows[i]) for i in reversed(ids)]

    def unprocessed_records(self, tenant: str, stream: str, limit: int) -> list[Record]:
        rows = self._rows(
            f"{_RECORD_SELECT} WHERE r.tenant = ? AND r.stream = ? AND r.processed = 0"
            " ORDER BY r.at, r.id LIMIT ?",
            (tenant, stream, limit),
        )
        return [record_of(r) for r in rows]

    def count_unprocessed(self, tenant: str, stream: str) -> int:
        row = self._one(
            "SELECT COUNT(*) AS n FROM records WHERE tenant = ? AND stream = ? AND processed = 0",
            (tenant, stream),
        )
        return row["n"]

    def mark_processed(self, tenant: str, record_ids: Sequence[int]) -> None:
        with self._lock:
            self._db.executemany(
                "UPDATE records SET processed = 1 WHERE tenant = ? AND id = ?",
                [(tenant, record_id) for record_id in record_ids],
            )

    def add_entity_events(
        self, tenant: str, events: Sequence[tuple[str, str, int, datetime]]
    ) -> None:
        # Events come in groups sharing one time (a record's entities): format it once.
        stamps = {at: _ts(at) for at in {at for _, _, _, at in events}}
        with self._lock:
            self._db.executemany(
                "INSERT OR IGNORE INTO entity_events VALUES (?, ?, ?, ?, ?)",
                [(tenant, entity, kind, item, stamps[at]) for entity, kind, item, at in events],
            )

    def timeline(
        self,
        tenant: str,
        entity: str,
        *,
        subject: str | None,
        limit: int,
        visibilities: Sequence[Visibility],
    ) -> list[TimelineEntry]:
        seen = [v.value for v in visibilities] or [""]
        marks = _marks(seen)
        rows = self._rows(
            "SELECT * FROM ("
            " SELECT 'record' AS kind, r.id, r.stream, r.author || ': ' || r.text AS text,"
            "  r.at, NULL AS category, r.source || '.' || r.kind AS source_kind,"
            "  CAST(r.id AS TEXT) AS source_id"
            " FROM entity_events e JOIN records r ON e.item_kind = 'record' AND r.id = e.item_id"
            f" WHERE e.tenant = ? AND e.entity = ? AND r.visibility IN ({marks})"
            " UNION SELECT 'fact', f.id, f.stream, f.text, f.source_at, f.category,"
            "  f.source_kind, f.source_id FROM facts f"
            " WHERE f.tenant = ? AND f.status = 'active' AND f.source_at IS NOT NULL"
            f"  AND f.visibility IN ({marks}) AND (f.subject = ? OR f.id IN"
            "  (SELECT item_id FROM entity_events WHERE tenant = ? AND entity = ?"
            "   AND item_kind = 'fact'))"
            ") ORDER BY at DESC, kind, id DESC LIMIT ?",
            (tenant, entity, *seen, tenant, *seen, subject, tenant, entity, limit),
        )
        return [
            TimelineEntry(
                at=moment(r["at"]),
                kind=r["kind"],
                id=r["id"],
                stream=r["stream"],
                text=r["text"],
                category=r["category"],
                source=SourceRef(
                    kind=r["source_kind"], id=r["source_id"], at=maybe_moment(r["at"])
                ),
            )
            for r in reversed(rows)
        ]

    # -- summaries ------------------------------------------------------------

    @_unchanged_reads
    def summaries(
        self,
        tenant: str,
        stream: str,
        kind: SummaryKind | None = None,
        *,
        ending_after: datetime | None = None,
    ) -> list[Summary]:
        """Oldest period first; with `ending_after`, only periods that end later."""
        sql = "SELECT * FROM summaries WHERE tenant = ? AND stream = ?"
        params: list[Any] = [tenant, stream]
        if kind is not None:
            sql += " AND kind = ?"
            params.append(kind.value)
        if ending_after is not None:
            sql += " AND period_end > ?"
            params.append(_ts(ending_after))
        return [summary_of(r) for r in self._rows(sql + " ORDER BY period_end, id", params)]

    @_unchanged_reads
    def active_summary(self, tenant: str, stream: str) -> Summary | None:
        row = self._row(
            "SELECT * FROM summaries WHERE tenant = ? AND stream = ? AND kind = 'active'"
            " ORDER BY id DESC LIMIT 1",
            (tenant, stream),
        )
        return None if row is None else summary_of(row)

    # -- jobs -----------------------------------------------------------------

    def enqueue(
        self, tenant: str, stream: str, kind: str, payload: dict[str, Any], priority: int = 0
    ) -> int:
        now = time.time()
        return self._exec(
            "INSERT INTO jobs (tenant, stream, kind, payload, priority, run_after, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (tenant, stream, kind, json.dumps(payload), priority, now, now),
        )

    def has_pending(self, tenant: str, stream: str, kind: str) -> bool:
        row = self._row(
            "SELECT 1 FROM jobs WHERE tenant = ? AND stream = ? AND kind = ?"
            " AND status = 'pending'",
            (tenant, stream, kind),
        )
        return row is not None

    def schedule(self, tenant: str, stream: str, kind: str, run_after: float) -> None:
        with self.transaction():
            moved = self._db.execute(
                "UPDATE jobs SET run_after = ? WHERE tenant = ? AND stream = ? AND kind = ?"
                " AND status = 'pending'",
                (run_after, tenant, stream, kind),
            ).rowcount
            if not moved:
                self._exec(
                    "INSERT INTO jobs (tenant, stream, kind, payload, run_after, created_at)"
                    " VALUES (?, ?, ?, '{}', ?, ?)",
                    (tenant, stream, kind, run_after, time.time()),
                )

    def claim_stream(
        self, owner: str, lease_seconds: float, tenant: str | None = None
    ) -> tuple[str, str] | None:
        """Lease the stream with the oldest due job that no live worker holds."""
        now = time.time()
        with self.transaction():
            row = self._row(
                "SELECT j.tenant, j.stream FROM jobs j LEFT JOIN stream_leases l"
                " ON l.tenant = j.tenant AND l.stream = j.stream"
                " WHERE j.status = 'pending' AND j.run_after <= ?"
                " AND (l.owner IS NULL OR l.expires_at < ? OR l.owner = ?)"
                " AND (? IS NULL OR j.tenant = ?)"
                " ORDER BY j.id LIMIT 1",
                (now, now, owner, tenant, tenant),
            )
            if row is None:
                return None
            self._exec(
                "INSERT OR REPLACE INTO stream_leases VALUES (?, ?, ?, ?)",
                (row["tenant"], row["stream"], owner, now + lease_seconds),
            )
        return row["tenant"], row["stream"]

    def renew_lease(self, tenant: str, stream: str, owner: str, lease_seconds: float) -> bool:
        with self._lock:
            cursor = self._db.execute(
                "UPDATE stream_leases SET expires_at = ? WHERE tenant = ? AND stream = ?"
                " AND owner = ?",
                (time.time() + lease_seconds, tenant, stream, owner),
            )
            return cursor.rowcount == 1

    def finish_job(self, job_id: int) -> None:
        self._exec(
            "UPDATE jobs SET status = 'done', finished_at = ? WHERE id = ?", (time.time(), job_id)
        )

    def fail_job(self, job_id: int, error: str, retry_in: float | None) -> None:
        """Record a failure; retry after `retry_in` seconds, or give up when it is None."""
        now = time.time()
        if retry_in is None:
            self._exec(
                "UPDATE jobs SET status = 'failed', attempts = attempts + 1, last_error = ?,"
                " finished_at = ? WHERE id = ?",
                (error, now, job_id),
            )
        else:
            self._exec(
                "UPDATE jobs SET attempts = attempts + 1, last_error = ?, run_after = ?"
                " WHERE id = ?",
                (error, now + retry_in, job_id),
            )

    def jobs(self, tenant: str | None = None, status: str | None = None) -> list[Job]:
        rows = self._rows(
            "SELECT * FROM jobs WHERE (? IS NULL OR tenant = ?) AND (? IS NULL OR status = ?)"
            " ORDER BY id",
            (tenant, tenant, status, status),
        )
        return [job_of(r) for r in rows]

    def retry_failed(self, tenant: str | None = None) -> int:
        with self._lock:
            cursor = self._db.execute(
                "UPDATE jobs SET status = 'pending', attempts = 0, run_after = ?"
                " WHERE status = 'failed' AND (? IS NULL OR tenant = ?)",
                (time.time(), tenant, tenant),
            )
            return cursor.rowcount

    # -- maintenance ----------------------------------------------------------

    def count_facts(self, tenant: str, source_prefix: str) -> int:
        row = self._one(
            "SELECT COUNT(*) AS n FROM facts WHERE tenant = ? AND substr(source_kind, 1, ?) = ?",
            (tenant, len(source_prefix), source_prefix),
        )
        return row["n"]

    def stale_facts(self, *, before: datetime, below_confidence: float, limit: int) -> list[Fact]:
        """Active facts recorded before `before` with confidence below the pin level."""
        rows = self._rows(
            "SELECT * FROM facts WHERE status = 'active' AND confidence < ? AND recorded_at < ?"
            " ORDER BY tenant, stream, id LIMIT ?",
            (below_confidence, _ts(before), limit),
        )
        return [fact_of(r) for r in rows]

    def active_facts_of(self, categories: Sequence[str], limit: int) -> list[Fact]:
        marks = _marks(categories)
        rows = self._rows(
            f"SELECT * FROM facts WHERE status = 'active' AND category IN ({marks})"
            " ORDER BY id LIMIT ?",
            (*categories, limit),
        )
        return [fact_of(r) for r in rows]

    def delete_archived_summaries(self, *, before: datetime, limit: int) -> int:
        with self.transaction():
            ids = [
                r["id"]
                for r in self._rows(
                    "SELECT id FROM summaries WHERE kind = 'archived' AND created_at < ? LIMIT ?",
                    (_ts(before), limit),
                )
            ]
            marks = _marks(ids)
            if ids:
                self._exec(
                    f"DELETE FROM vectors WHERE kind = 'summary' AND item_id IN ({marks})", ids
                )
                self._exec(f"DELETE FROM summaries WHERE id IN ({marks})", ids)
        return len(ids)

    # -- api keys -------------------------------------------------------------

    def api_keys(self, tenant: str | None = None) -> list[ApiKey]:
        rows = self._rows(
            "SELECT * FROM api_keys WHERE (? IS NULL OR tenant = ?) ORDER BY id", (tenant, tenant)
        )
        return [api_key_of(r) for r in rows]

    def revoke_api_key(self, key_id: int) -> bool:
        with self._lock:
            cursor = self._db.execute(
                "UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
                (_ts(utcnow()), key_id),
            )
            return cursor.rowcount == 1

    # -- imports of the HTTP API ----------------------------------------------

    def set_import_status(
        self,
        import_id: str,
        status: str,
        *,
        report: ImportReport | None = None,
        error: str | None = None,
    ) -> None:
        finished = _ts(utcnow()) if status in _FINISHED_IMPORT else None
        self._exec(
            "UPDATE imports SET status = ?, report = ?, error = ?, finished_at = ? WHERE id = ?",
            (
                status,
                None if report is None else report.model_dump_json(),
                error,
                finished,
                import_id,
            ),
        )

    def count_unfinished_imports(self) -> int:
        marks = _marks(_FINISHED_IMPORT)
        row = self._one(
            f"SELECT COUNT(*) AS n FROM imports WHERE status NOT IN ({marks})", _FINISHED_IMPORT
        )
        return row["n"]

    def prune_imports(self, keep: int) -> int:
        marks = _marks(_FINISHED_IMPORT)
        with self._lock:
            return self._db.execute(
                "DELETE FROM imports WHERE seq IN (SELECT seq FROM imports"
                f" WHERE status IN ({marks}) ORDER BY seq"
                " LIMIT max(0, (SELECT COUNT(*) FROM imports) - ?))",
                (*_FINISHED_IMPORT, keep),
            ).rowcount

    def fail_unfinished_imports(self, error: str) -> int:
        return self._fail_imports(error)

    def fail_orphaned_imports(self, error: str) -> int:
        owner_gone = (
            " AND owner IS NOT NULL AND NOT EXISTS (SELECT 1 FROM leases"
            " WHERE leases.name = ? || imports.owner AND leases.expires_at > ?)"
        )
        return self._fail_imports(error, owner_gone, (IMPORT_LEASE_PREFIX, time.time()))

    def _fail_imports(self, error: str, condition: str = "", params: Sequence[Any] = ()) -> int:
        """Mark failed the unfinished imports that also meet `condition`."""
        where = f"status NOT IN ({_marks(_FINISHED_IMPORT)}){condition}"
        params = (*_FINISHED_IMPORT, *params)
        with self._lock:
            # Looked for first: an UPDATE takes the write lock even when it matches no row,
            # and status polls would wait behind every chunk of a running import.
            if self._db.execute(f"SELECT 1 FROM imports WHERE {where}", params).fetchone() is None:
                return 0
            return self._db.execute(
                f"UPDATE imports SET status = 'failed', error = ?, finished_at = ? WHERE {where}",
                (error, _ts(utcnow()), *params),
            ).rowcount

    # -- named leases ---------------------------------------------------------

    def claim_lease(self, name: str, owner: str, seconds: float) -> bool:
        now = time.time()
        with self._lock:
            return (
                self._db.execute(
                    "INSERT INTO leases (name, owner, expires_at) VALUES (?, ?, ?)"
                    " ON CONFLICT (name) DO UPDATE SET owner = excluded.owner,"
                    " expires_at = excluded.expires_at WHERE leases.expires_at <= ?",
                    (name, owner, now + seconds, now),
                ).rowcount
                == 1
            )

    def extend_lease(self, name: str, owner: str, seconds: float) -> bool:
        with self._lock:
            return (
                self._db.execute(
                    "UPDATE leases SET expires_at = ? WHERE name = ? AND owner = ?",
                    (time.time() + seconds, name, owner),
                ).rowcount
                == 1
            )

    def take_lease(self, name: str, holder: str, owner: str, seconds: float) -> bool:
        with self._lock:
            return (
                self._db.execute(
                    "UPDATE leases SET owner = ?, expires_at = ? WHERE name = ? AND owner = ?",
                    (owner, time.time() + seconds, name, holder),
                ).rowcount
                == 1
            )

    # -- search ---------------------------------------------------------------

    def vector_index(self) -> "VectorIndex":
        """One index per store: it holds the partitions it loaded, and candidates() uses
        the same one as every other caller."""
        if self._vector_index is None:
            from threefold.store.vectors import VectorIndex

            self._vector_index = VectorIndex(
                self, self.index_directory, changes=self.read_generation
            )
        return self._vector_index

    def stream_view(
        self,
        tenant: str,
        stream: str,
        *,
        window: TurnWindow,
        pins: PinPolicy,
        pinned_streams: Sequence[str],
        name_words: Sequence[str] = (),
    ) -> StreamView:
        return self._stream_view(
            tenant, stream, window, pins, tuple(pinned_streams), tuple(name_words)
        )

    @_unchanged_reads  # one check of the data version, not one per read within
    def _stream_view(
        self,
        tenant: str,
        stream: str,
        window: TurnWindow,
        pins: PinPolicy,
        pinned_streams: tuple[str, ...],
        name_words: tuple[str, ...],
    ) -> StreamView:
        return view_one_by_one(self, tenant, stream, window, pins, pinned_streams, name_words)

    def candidates(
        self,
        tenant: str,
        kinds: Sequence[str],
        terms: Sequence[str],
        vector: Any,
        probes: Sequence[Probe],
        limit: int,
    ) -> Candidates:
        check_probes(tenant, probes)
        with self._version_checked_once():
            # A kind none of whose items pass a probe's filter can match nothing: its
            # searches, and the reads that catch its vectors up, are left out (a stream with
            # no records, or whose facts are all pinned, and so excluded).
            passing = [self._kinds_passing(probe.where) for probe in probes]
            kinds = [kind for kind in kinds if any(kind in found for found in passing)]
            self._searching.rows = {}
            try:
                return candidates_one_by_one(
                    self, self.vector_index, tenant, kinds, terms, vector, probes, limit
                )
            finally:
                self._searching.rows = None

    @_unchanged_reads
    def _kinds_passing(self, where: ItemFilter) -> frozenset[str]:
        """The kinds of which at least one item passes `where`, in one statement."""
        tests, params = [], []
        for kind, spec in _KINDS.items():
            sql, values = _filter_sql(kind, where)
            tests.append(f"EXISTS (SELECT 1 FROM {spec.table} x WHERE {sql})")
            params += values
        row = self._one("SELECT " + ", ".join(tests), params)
        return frozenset(kind for kind, found in zip(_KINDS, row, strict=True) if found)

    @property
    def index_directory(self) -> Path | None:
        """Where indexes derived from this file are kept: beside it."""
        return self.path.with_name(self.path.name + ".vectors")

    @property
    def in_transaction(self) -> bool:
        return self._db.in_transaction

    def on_new_jobs(self, listener: Callable[[], None]) -> None:
        """SQLite cannot signal other processes; their workers poll the queue."""

    def fts_ids(
        self, kind: str, terms: Sequence[str], where: ItemFilter, limit: int
    ) -> list[tuple[int, float]]:
        """Ids of the items matching any of `terms`, best BM25 first, with their score.

        FTS5 scores every match before it sorts, so only the rarest terms are asked for,
        as many as keep the matches under _SCORED. Should even the rarest match more, the
        newest _SCORED of its matches are scored. Within that bound each term's scores are
        kept while the index is unchanged (see TermScores), and the filter is applied to
        the best first.
        """
        spec = _KINDS[kind]
        with self._lock:
            # An open transaction's pending rows are in the index, but not yet in the
            # records that tell whether the index changed.
            outside = not self._db.in_transaction
            unchanged = outside and self._term_scores.follow(self._db, spec.fts)
            kept_scores = unchanged and self._term_scores.worth_keeping(spec.fts)
            version = self._term_scores.version(spec.fts) if outside else None
            kept, matches = self._terms_within(spec.fts, terms, kept_scores, version)
            if not kept:
                return []
            phrases = [_quoted(t) for t in kept]
            if kept_scores and matches <= _SCORED:
                ids, ranks = self._term_scores.ranked(self._db, spec.fts, spec.rank, phrases)
                return self._best_passing(kind, where, ids, ranks, limit)
        match = " OR ".join(phrases)
        if matches <= _SCORED:
            found = self._best_of_all(kind, where, match, limit)
            if found is not None:
                return found
        sql, params = _filter_sql(kind, where)
        select = (
            f"SELECT x.id, {spec.rank} AS rank FROM {spec.fts}"
            f" JOIN {spec.table} x ON x.id = {spec.fts}.rowid WHERE {spec.fts} MATCH ? AND {sql}"
        )
        if matches > _SCORED:
            select += f" ORDER BY {spec.fts}.rowid DESC LIMIT {_SCORED}"
        rows = self._rows(
            f"SELECT id, rank FROM ({select}) ORDER BY rank, id LIMIT ?", [match, *params, limit]
        )
        return [(r["id"], -r["rank"]) for r in rows]

    def _best_of_all(
        self, kind: str, where: ItemFilter, match: str, limit: int
    ) -> list[tuple[int, float]] | None:
        """The best `limit` matches of `match` that pass `where`, ranked by the index alone
        and then checked against the filter, or None when too few of the first matches
        pass (a narrow filter is better joined to the match). Joining every match to its
        item before ranking cost as much again as the ranking: 1.8 ms for 846 turns."""
        spec = _KINDS[kind]
        window = limit + limit // 4
        rows = self._rows(
            f"SELECT rowid, {spec.rank} AS score FROM {spec.fts} WHERE {spec.fts} MATCH ?"
            " ORDER BY score, rowid LIMIT ?",
            (match, window),
        )
        passed = self.passing(kind, where, [row[0] for row in rows])
        found = [(row[0], -row[1]) for row in rows if row[0] in passed]
        if len(found) < limit and len(rows) == window:
            return None
        return found[:limit]

    def _best_passing(
        self, kind: str, where: ItemFilter, ids: Any, ranks: Any, limit: int
    ) -> list[tuple[int, float]]:
        """The first `limit` of `ids` (ranked best first) that pass `where`, with their
        score: checked a window at a time, widening while few pass."""
        found: list[tuple[int, float]] = []
        start, window = 0, limit + limit // 4
        while start < len(ids) and len(found) < limit:
            candidates = ids[start : start + window].tolist()
            passed = self.passing(kind, where, candidates)
            scores = ranks[start : start + window].tolist()
            found += [(i, -rank) for i, rank in zip(candidates, scores, strict=True) if i in passed]
            start += window
            window = next_window(window, limit - len(found), len(found), start)
        return found[:limit]

    def merge_text_index(self, pages: int) -> int:
        """FTS5 writes a segment per transaction and merges them only now and then, so a
        busy index holds twenty or so, and every term is looked up in each. Merged here a
        slice at a time: each slice holds the write lock for a fraction of a second."""
        written = 0
        for spec in _KINDS.values():
            left = pages
            while left > 0 and self._segments(spec.fts) > 1:
                slice_pages = min(left, _MERGE_SLICE_PAGES)
                with self.transaction():
                    before = self._db.total_changes
                    # A negative count merges segments of every level into one, in steps.
                    self._db.execute(
                        f"INSERT INTO {spec.fts}({spec.fts}, rank) VALUES ('merge', ?)",
                        (-slice_pages,),
                    )
                    written += self._db.total_changes - before
                left -= slice_pages
        return written

    def _segments(self, fts: str) -> int:
        """The segments of a full-text index: each has its rows in the index's _idx table."""
        return int(self._one(f"SELECT count(DISTINCT segid) AS n FROM {fts}_idx")["n"])

    def _terms_within(
        self, fts: str, terms: Sequence[str], kept_scores: bool, version: IndexVersion | None
    ) -> tuple[list[str], int]:
        """The rarest of `terms` whose matches add up to at most _SCORED (at least the
        rarest one), and how many items they match. Of those, a term that matches nothing
        is not asked for: it adds nothing to any score, and FTS5 would look it up in every
        segment (a question's number, or a name the index never saw).

        When every term matches more than _SCORED, the newest matches of the rarest are
        read, and counts cut at _SCORED + 1 would tie: their full counts choose it (at
        100,000 turns 'kenji', in 14,130 turns, was read for "Who is Kenji's landlord?"
        rather than 'landlord', in 1,395, as it sorts first)."""
        counts = self._matches(fts, terms, kept_scores, version)
        if len(terms) > 1 and min(counts) > _SCORED:
            counts = self._all_matches(fts, terms, version)
        kept: list[tuple[int, str]] = []
        total = 0
        for count, term in sorted(zip(counts, terms, strict=True)):
            if kept and total + count > _SCORED:
                break
            kept.append((count, term))
            total += count
        return [term for count, term in kept if count], total

    def _matches(
        self, fts: str, terms: Sequence[str], kept_scores: bool, version: IndexVersion | None
    ) -> list[int]:
        """How many items each term matches, counted up to _SCORED + 1, in one query.
        Counts are remembered while the index is at `version` (None: unknown, inside a
        transaction), since questions share most of their words; not for longer, since
        the terms a count keeps change the ranking, and a count from an older index would
        make the same question rank otherwise, by how long ago it was asked.
        A term whose scores are kept (see TermScores) is counted exactly by them, and one
        that matched more than _SCORED turns is remembered so while turns are only added
        (see _forget_reads): a busy stream counted the question's every common word again
        after each turn."""
        known: dict[str, int] = {}
        common = self._common_terms(fts, version)
        for term in terms:
            exact = self._term_scores.count(fts, _quoted(term)) if kept_scores else None
            if exact is not None:
                known[term] = min(exact, _SCORED + 1)
                continue
            if term in common:
                known[term] = _SCORED + 1
                continue
            remembered = self._term_counts.get((fts, term), version)
            if remembered is not None:
                known[term] = remembered
        unknown = [t for t in terms if t not in known]
        if unknown:
            count = f"(SELECT count(*) FROM (SELECT rowid FROM {fts} WHERE {fts} MATCH ? LIMIT ?))"
            row = self._row(
                "SELECT " + ", ".join([count] * len(unknown)),
                [value for t in unknown for value in (_quoted(t), _SCORED + 1)],
            )
            for term, matched in zip(unknown, row or (), strict=True):
                known[term] = matched
                self._term_counts.put((fts, term), matched, version)
                if matched > _SCORED and common is self._turn_terms_common:
                    if len(common) >= _TERM_COUNT_ENTRIES:
                        common.clear()
                    common.add(term)
        return [known[t] for t in terms]

    def _common_terms(self, fts: str, version: IndexVersion | None) -> set[str]:
        """The terms found in more than _SCORED turns, where `fts` is the turns' index and
        its version is known (outside a transaction); else none."""
        if fts != _KINDS["turn"].fts or version is None:
            return set()
        self._check_read_version()  # first: a deletion since forgets them
        return self._turn_terms_common

    def _all_matches(
        self, fts: str, terms: Sequence[str], version: IndexVersion | None
    ) -> list[int]:
        """How many items each term matches, uncut, in one query: some 60 ns a match
        (2 ms for a word in 33,000 turns). Remembered as _matches remembers its counts."""
        known = {t: self._term_counts.get((fts, t, "all"), version) for t in terms}
        unknown = [t for t, count in known.items() if count is None]
        if unknown:
            count = f"(SELECT count(*) FROM {fts} WHERE {fts} MATCH ?)"
            row = self._row(
                "SELECT " + ", ".join([count] * len(unknown)), [_quoted(t) for t in unknown]
            )
            for term, matched in zip(unknown, row or (), strict=True):
                known[term] = matched
                self._term_counts.put((fts, term, "all"), matched, version)
        return [int(known[t] or 0) for t in terms]

    def rare_words(self, where: ItemFilter, words: Sequence[str], most: int) -> set[str]:
        """Those of `words` that at least one and at most `most` turns and records passing
        `where` say in their own text (a turn's index holds the turn before it too), as
        the full-text index finds them, stemmed. Counted within `where` only, as
        PostgreSQL counts: what other tenants and streams say moves nothing."""
        asked = [w for w in dict.fromkeys(words) if w.strip()]
        said = dict.fromkeys(asked, 0)
        scope = where.model_dump_json()
        for kind, columns in _OWN_TEXT.items():
            # A word the turns say more than `most` times is common whatever the records
            # say: most words of a busy stream's candidates are, and need not be counted
            # again in the records.
            left = [word for word in asked if said[word] <= most]
            if not left:
                break
            for word, times in self._said_in(kind, columns, scope, where, left, most).items():
                said[word] += times
        return {word for word, times in said.items() if 0 < times <= most}

    def _said_in(
        self,
        kind: str,
        columns: str,
        scope: str,
        where: ItemFilter,
        words: Sequence[str],
        most: int,
    ) -> dict[str, int]:
        """How many items of `kind` passing `where` (written as `scope`) hold each word in
        `columns`, counted up to `most` + 1. Kept (see _kept_said): questions come back
        to the same candidates, and the candidates to the same words."""
        with self._lock:
            # Inside a transaction the index holds rows its version records do not.
            outside = not self._db.in_transaction
            said = self._kept_said(kind, columns, scope, words, most) if outside else {}
            unread = [w for w in words if w not in said]
            if unread:
                counted, read = self._first_said_in(kind, columns, where, unread)
                # past the first matches only where too few of them pass: most words of
                # a busy stream are decided by the first
                deeper = [w for w in unread if read[w] > _RARE_SCAN and counted[w] <= most]
                counted.update(self._often_said_in(kind, columns, where, deeper, most))
                fresh = {word: min(counted[word], most + 1) for word in unread}
                said.update(fresh)
                if outside:
                    self._keep_said(kind, scope, most, fresh)
            return said

    def _kept_said(
        self, kind: str, columns: str, scope: str, words: Sequence[str], most: int
    ) -> dict[str, int]:
        """The counts of _said_in kept for `words` that still hold. A record's count holds
        while their index is at the version it was counted at. A turn's holds through
        additions that do not say the word: turns are only added (an erasure forgets
        every count, see _forget_reads), so a word's matches, and which of them pass,
        change only with a new turn that holds it; and a count past `most` holds through
        any (a busy stream counted the rare words of every question's candidates again
        after each turn: at 100,000 turns a twelfth of a context)."""
        if kind != "turn":
            fts = _KINDS[kind].fts
            self._term_scores.follow(self._db, fts)
            mark = self._term_scores.version(fts)
            kept = self._said_counts.get((kind, scope, most), {})
            return {w: found[0] for w in words if (found := kept.get(w)) and found[1] == mark}
        self._check_read_version()  # first: a deletion since forgets what is kept
        kept = self._said_counts.get((kind, scope, most), {})
        newest = self._newest_turn()
        said, stale = {}, {}
        for word in words:
            count, upto = kept.get(word, (None, newest))
            if count is not None and (count > most or upto == newest):
                said[word] = count
            elif count is not None:
                stale[word] = upto
        held = self._turns_holding(columns, stale) if stale else set()
        for word in stale.keys() - held:
            said[word] = kept[word][0]
            kept[word] = (said[word], newest)
        return said

    def _keep_said(self, kind: str, scope: str, most: int, counted: dict[str, int]) -> None:
        mark = (
            self._newest_turn() if kind == "turn" else self._term_scores.version(_KINDS[kind].fts)
        )
        if self._said_kept + len(counted) > _TERM_COUNT_ENTRIES:
            self._said_counts.clear()
            self._said_kept = 0
        kept = self._said_counts.setdefault((kind, scope, most), {})
        self._said_kept += len(counted.keys() - kept.keys())  # a count again replaces its own
        kept.update((word, (count, mark)) for word, count in counted.items())

    def _newest_turn(self) -> int:
        """The newest turn when the read caches were last checked."""
        return self._turns_mark_at[1] if self._turns_mark_at else 0

    def _turns_holding(self, columns: str, after: dict[str, int]) -> set[str]:
        """Those of the words of `after` that a turn newer than the word's turn holds in
        `columns`, in one statement."""
        words = list(after)
        holding = _holding("turn", columns, "json_extract(m.value, '$[0]')")
        rows = self._db.execute(
            f"SELECT m.key FROM json_each(?) m WHERE EXISTS (SELECT 1 FROM {holding}"
            " AND rowid > json_extract(m.value, '$[1]'))",
            [json.dumps([[_quoted(w), upto] for w, upto in after.items()])],
        ).fetchall()
        return {words[row[0]] for row in rows}

    def _first_said_in(
        self, kind: str, columns: str, where: ItemFilter, words: Sequence[str]
    ) -> tuple[dict[str, int], dict[str, int]]:
        """For each of `words`, how many of its first _RARE_SCAN + 1 matches in the file
        pass `where`, and how many matches were read: exact for a word the file says at
        most _RARE_SCAN times. Checked in the database, as joins: a question's first
        candidates bring hundreds of words never counted, and reading each one's matches
        back to check them here took a third longer."""
        sql, params = _filter_sql(kind, where)
        rows = self._db.execute(
            "SELECT (SELECT json_array(count(*), count(x.id)) FROM (SELECT rowid AS id FROM"
            f" {_holding(kind, columns, 'm.value')} LIMIT ?) f LEFT JOIN {_KINDS[kind].table} x"
            f" NOT INDEXED ON x.id = f.id AND {sql}) FROM json_each(?) m ORDER BY m.key",
            [_RARE_SCAN + 1, *params, json.dumps([_quoted(w) for w in words])],
        ).fetchall()
        found = [json.loads(row[0]) for row in rows]
        counted = {word: passed for word, (_, passed) in zip(words, found, strict=True)}
        return counted, {word: read for word, (read, _) in zip(words, found, strict=True)}

    def _often_said_in(
        self, kind: str, columns: str, where: ItemFilter, words: Sequence[str], most: int
    ) -> dict[str, int]:
        """The count within `where`, up to `most` + 1, of each of `words` the file says
        often, among its first _RARE_READ matches; `most` + 1 (common) past them. How many
        matches the file holds is read only for a word the filter holds few of."""
        if not words:
            return {}
        sql, params = _filter_sql(kind, where)
        rows = self._db.execute(
            "SELECT passed, CASE WHEN passed > ? THEN 0 ELSE"
            f" (SELECT count(*) FROM (SELECT 1 FROM {_holding(kind, columns, 'w.word')}"
            " LIMIT ?)) END FROM (SELECT m.key AS k, m.value AS word, (SELECT count(*) FROM"
            f" (SELECT 1 FROM (SELECT rowid AS id FROM {_holding(kind, columns, 'm.value')}"
            f" LIMIT ?) f JOIN {_KINDS[kind].table} x NOT INDEXED ON x.id = f.id WHERE {sql}"
            " LIMIT ?)) AS passed FROM json_each(?) m) w ORDER BY k",
            [
                most,
                _RARE_READ + 1,
                _RARE_READ,
                *params,
                most + 1,
                json.dumps([_quoted(w) for w in words]),
            ],
        ).fetchall()
        return {
            word: passed if passed > most or read <= _RARE_READ else most + 1
            for word, (passed, read) in zip(words, rows, strict=True)
        }

    def passing(self, kind: str, where: ItemFilter, ids: Sequence[int]) -> set[int]:
        """Those of `ids` that pass `where`. Kept while no connection changes the database:
        a vector search checks its neighbours against the filter, and question after
        question over one stream (the same filter) brings back mostly the same neighbours
        (at 100,000 turns a search checked some 1,300 ids, in a third of its reads)."""
        if not ids:
            return set()
        sql, params = _filter_sql(kind, where)
        with self._lock:
            self._check_read_version()
            key = (kind, sql, *params)
            known = self._passing_cache.setdefault(key, {})
            unread = [i for i in dict.fromkeys(ids) if i not in known]
            if unread:
                if self._passing_kept + len(unread) > _PASSING_KEPT:
                    # All go, and this call's ids are all read again: none may be taken
                    # for failing because its answer went.
                    self._passing_cache.clear()
                    self._passing_kept = 0
                    known = self._passing_cache[key] = {}
                    unread = list(dict.fromkeys(ids))
                self._passing_kept += len(unread)
                known.update(dict.fromkeys(unread))
                known.update(self._passing_rows(kind, sql, params, unread))
            found = {i: row for i in ids if (row := known.get(i)) is not None}
        seen = getattr(self._searching, "rows", None)
        if seen is not None:  # kept for ranking_rows: the candidates are among these
            seen.update(((kind, where.tenant, i), row) for i, row in found.items())
        return set(found)

    def _passing_rows(
        self, kind: str, sql: str, params: list[Any], ids: list[int]
    ) -> dict[int, tuple[Any, int]]:
        """(time, mentions) of each of `ids` that passes the filter `sql`."""
        spec = _KINDS[kind]
        rows = self._rows(
            # NOT INDEXED: the planner would rather scan the tenant's index than look ids up.
            f"SELECT x.id, {spec.time} AS at, {spec.mentions} AS mentions"
            f" FROM {spec.table} x NOT INDEXED WHERE x.id IN (SELECT value FROM json_each(?))"
            f" AND {sql}",
            [json.dumps(ids), *params],
        )
        return {r[0]: (r[1], r[2]) for r in rows}

    def linked_record_streams(self, tenant: str, streams: Sequence[str]) -> list[str]:
        rows = self._rows(
            "SELECT DISTINCT r.stream FROM record_streams l JOIN records r ON r.id = l.record_id"
            f" WHERE l.tenant = ? AND l.stream IN ({_marks(streams)})",
            [tenant, *streams],
        )
        return [r["stream"] for r in rows]

    def ranking_rows(
        self, kind: str, tenant: str, ids: Sequence[int]
    ) -> list[tuple[int, float | None, int]]:
        """Kept, as items() keeps items, while no connection changes the database: search
        after search ranks mostly the same candidates. The search's filter check has read
        most of them already."""
        seen = getattr(self._searching, "rows", None) or {}
        with self._lock:
            self._check_read_version()
            cache = self._ranking_cache
            if len(cache) >= _ITEM_CACHE_ENTRIES:
                cache.clear()
            for i in ids:
                key = (kind, tenant, i)
                if key not in cache and (row := seen.get(key)) is not None:
                    cache[key] = (i, _timestamp(row[0]), row[1])
            missing = [i for i in ids if (kind, tenant, i) not in cache]
            if missing:
                for row in self._read_ranking_rows(kind, tenant, missing):
                    cache[(kind, tenant, row[0])] = row
            return [found for i in ids if (found := cache.get((kind, tenant, i))) is not None]

    def _read_ranking_rows(
        self, kind: str, tenant: str, ids: Sequence[int]
    ) -> list[tuple[int, float | None, int]]:
        spec = _KINDS[kind]
        rows = self._rows(
            f"SELECT x.id, {spec.time} AS at, {spec.mentions} AS mentions"
            f" FROM {spec.table} x NOT INDEXED"
            " WHERE x.tenant = ? AND x.id IN (SELECT value FROM json_each(?))",
            [tenant, json.dumps(list(ids))],
        )
        return [(r["id"], _timestamp(r["at"]), r["mentions"]) for r in rows]

    @_unchanged_reads
    def item_ids(self, kind: str, where: ItemFilter) -> list[int]:
        spec = _KINDS[kind]
        sql, params = _filter_sql(kind, where)
        return [r["id"] for r in self._rows(f"SELECT x.id FROM {spec.table} x WHERE {sql}", params)]

    def named_candidates(self, kind: str, where: ItemFilter, most: int) -> list[int] | None:
        columns = _NAMES_INDEXED.get(kind)
        if columns is None or not names_indexed(where.about):
            return None
        match = " AND ".join(f"{columns} : {_quoted(name)}" for name in where.about)
        key = (_KINDS[kind].fts, match, most)
        with self._lock:
            # Kept while the database is unchanged: a person's items come back question
            # after question. As 8-byte integers, a few of them: one person of 30 at
            # 100,000 turns is 7,400 ids.
            self._check_read_version()
            newest = self._turns_mark_at[1] if self._turns_mark_at else 0
            found, upto = self._named_ids.get(key, (None, 0))
            if found is None:
                found = self._matching_ids(*key)
            elif upto < newest:  # turns were added since: only theirs are read
                found = (self._matching_ids(*key, after=upto) + found)[:most]
            self._named_ids[key] = (found, newest)
            while len(self._named_ids) > _NAMED_KEPT:
                self._named_ids.popitem(last=False)
            self._named_ids.move_to_end(key)
            return list(found)

    def _matching_ids(self, fts: str, match: str, most: int, after: int = 0) -> "array[int]":
        """The newest `most` rows of `fts` that `match`, newest first; only those after
        row `after`, if given."""
        # The index alone: reading each item's row to check the filter too took six times
        # as long (7,400 turns of one person at 100,000 turns: 5 ms, and 32 with the rows).
        rows = self._db.execute(
            f"SELECT rowid FROM {fts} WHERE {fts} MATCH ? AND rowid > ?"
            " ORDER BY rowid DESC LIMIT ?",
            (match, after, most),
        )
        return array("q", (row[0] for row in rows))

    def recent_items(self, where: ItemFilter, *, days: float, limit: int) -> list[Item]:
        """Items within `days` of the newest one that passes the filter, newest first."""
        found: list[Item] = []
        for kind, spec in _KINDS.items():
            sql, params = _filter_sql(kind, where)
            rows = self._rows(
                f"SELECT {spec.columns} FROM {spec.table} x WHERE {sql}"
                f" ORDER BY {spec.time} DESC LIMIT ?",
                [*params, limit],
            )
            found += [_item_of_row(kind, r) for r in rows]
        dated = sorted(((i.at, i) for i in found if i.at), key=lambda pair: pair[0], reverse=True)
        if not dated:
            return []
        since = shifted(dated[0][0], timedelta(days=-days))
        return [item for at, item in dated if at >= since][:limit]

    def items(self, kind: str, tenant: str, ids: Sequence[int]) -> list[Item]:
        """Those of `ids` that exist, in no set order. Kept while no connection changes the
        database, as _unchanged_reads keeps answers: search after search loads mostly
        the same items."""
        with self._lock:
            self._check_read_version()
            cache = self._item_cache
            if len(cache) >= _ITEM_CACHE_ENTRIES:
                cache.clear()
            missing = [i for i in ids if (kind, tenant, i) not in cache]
            if missing:
                for item in self._read_items(kind, tenant, missing):
                    cache[(kind, tenant, item.id)] = item
            return [found for i in ids if (found := cache.get((kind, tenant, i))) is not None]

    def _read_items(self, kind: str, tenant: str, ids: Sequence[int]) -> list[Item]:
        spec = _KINDS[kind]
        rows = self._rows(
            f"SELECT {spec.columns} FROM {spec.table} x NOT INDEXED WHERE x.tenant = ? AND x.id IN"
            f" ({_marks(ids)})",
            [tenant, *ids],
        )
        return [_item_of_row(kind, r) for r in rows]


class _KindSpec(NamedTuple):
    table: str
    fts: str
    columns: str
    """Selected as id, stream, text, at, visibility, source_kind, source_id, mentions."""
    time: str
    text: str
    rank: str
    """BM25 over the index's columns, lower is better."""
    mentions: str = "1"


# A turn's own words weigh 1; the turn before it, indexed alongside for context, a quarter
# (measured on LoCoMo: 0.25 and 0.4 alike, both far better than no context or equal weight).
_TURN_RANK = "bm25(turns_fts, 1.0, 1.0, 0.25)"

_KINDS = {
    "turn": _KindSpec(
        "turns",
        "turns_fts",
        "x.id, x.stream, x.user_text || char(10) || x.assistant_text AS text, x.at,"
        " x.visibility, 'turn' AS source_kind, CAST(x.id AS TEXT) AS source_id, 1 AS mentions,"
        " x.speaker, x.assistant_speaker",
        "x.at",
        "x.user_text || char(10) || x.assistant_text",
        _TURN_RANK,
    ),
    "fact": _KindSpec(
        "facts",
        "facts_fts",
        "x.id, x.stream, x.text, x.source_at AS at, x.visibility, x.source_kind, x.source_id,"
        " x.mention_count AS mentions, x.category, x.supersedes",
        "x.source_at",
        "x.text",
        "bm25(facts_fts)",
        "x.mention_count",
    ),
    "summary": _KindSpec(
        "summaries",
        "summaries_fts",
        "x.id, x.stream, x.text, x.period_end AS at, x.visibility,"
        " 'summary.' || x.kind AS source_kind, CAST(x.id AS TEXT) AS source_id, 1 AS mentions",
        "x.period_end",
        "x.text",
        "bm25(summaries_fts)",
    ),
    "record": _KindSpec(
        "records",
        "records_fts",
        "x.id, x.stream, x.author || ': ' || x.text AS text, x.at, x.visibility,"
        " x.source || '.' || x.kind AS source_kind, CAST(x.id AS TEXT) AS source_id,"
        " 1 AS mentions",
        "x.at",
        "x.text",
        "bm25(records_fts)",
    ),
}


_RECORD_COLUMNS = (
    "tenant",
    "stream",
    "source",
    "channel",
    "external_id",
    "thread",
    "author",
    "text",
    "kind",
    "at",
    "route_method",
    "route_confidence",
    "visibility",
    "tokens",
    "processed",
    "data",
    "recorded_at",
)
_RECORD_INSERT = f"INSERT INTO records ({', '.join(_RECORD_COLUMNS)}) VALUES "
_IDS_NEVER_REUSED = frozenset({"turns", "facts", "summaries", "records"})
"""Tables whose ids callers hold (forget, DELETE, citations): see migration 0022."""
_RECORDS_PER_INSERT = 50
"""50 rows of 17 values stay under the 999 variables older SQLite builds allow."""
_TURNS_PER_INSERT = 50
"""50 rows of 16 values, under the same limit."""


def _unembedded_sql(tenant: str, stream: str) -> tuple[str, list[Any]]:
    """The stream's items that want a vector and have none, as (kind, id, text)."""
    sql = (
        "SELECT 'turn' AS kind, t.id, coalesce(t.speaker || ': ', '') || t.user_text"
        " || char(10) || t.assistant_text AS text"
        " FROM turns t LEFT JOIN vectors v ON v.kind = 'turn' AND v.item_id = t.id"
        " WHERE t.tenant = ? AND t.stream = ? AND v.id IS NULL"
        " AND length(t.user_text) + length(t.assistant_text) >= ?"
        " UNION ALL SELECT 'fact', f.id, f.text FROM facts f"
        " LEFT JOIN vectors v ON v.kind = 'fact' AND v.item_id = f.id"
        " WHERE f.tenant = ? AND f.stream = ? AND v.id IS NULL AND f.status = 'active'"
        " UNION ALL SELECT 'summary', s.id, s.text FROM summaries s"
        " LEFT JOIN vectors v ON v.kind = 'summary' AND v.item_id = s.id"
        " WHERE s.tenant = ? AND s.stream = ? AND v.id IS NULL"
        " AND s.kind IN ('session', 'weekly', 'monthly', 'slack')"
        " UNION ALL SELECT 'record', r.id, r.text FROM records r"
        " LEFT JOIN vectors v ON v.kind = 'record' AND v.item_id = r.id"
        " WHERE r.tenant = ? AND r.stream = ? AND v.id IS NULL AND length(r.text) >= ?"
    )
    shortest = EMBED_MIN_CHARS
    return sql, [tenant, stream, shortest, tenant, stream, tenant, stream, tenant, stream, shortest]


def _turn_values(turn: NewTurn, seq: int, recorded: datetime) -> dict[str, Any]:
    return {**turn.columns(seq, recorded), "at": _ts(turn.at), "recorded_at": _ts(recorded)}


def _record_row(record: NewRecord, recorded: str | None) -> tuple[Any, ...]:
    return (
        record.tenant,
        record.stream,
        record.source,
        record.channel,
        record.external_id,
        record.thread,
        record.author,
        record.text,
        record.kind,
        _ts(record.at),
        record.route_method,
        record.route_confidence,
        record.visibility.value,
        record.tokens,
        int(record.processed),
        json.dumps(record.data, default=str),
        recorded,
    )


_SAID_BY = {
    "turn": "coalesce(x.speaker, '') || char(10) || coalesce(x.assistant_speaker, '')",
    "record": "x.author",
}
"""The column naming who said an item, for kinds that have one (see ItemFilter.about)."""


_LIKE_ESCAPED = r"""replace(replace(replace(?, '\', '\\'), '%', '\%'), '_', '\_')"""
"""The parameter as a LIKE pattern's plain text: its wildcards and escapes escaped. The
expression is constant in a statement, so SQLite works it out once, not once a row."""


def _contains(column: str) -> str:
    """This dialect's test that `column`'s lowercase text holds one lowercase parameter.
    LIKE folds case as lower() does (ASCII letters only) without copying the text: a
    named person's filter reads 4 KB summaries by the thousand at 100,000 turns, and
    instr(lower(text), ?) took 2.8 times as long over them (1.7 times over turns)."""
    return f"{column} LIKE '%' || {_LIKE_ESCAPED} || '%' ESCAPE '\\'"


_EVERY_VISIBILITY = frozenset(Visibility)
"""A filter that lets every visibility through needs no test of it: the column holds one
of them (NOT NULL, written from the enum)."""


def _holding(kind: str, columns: str, word: str) -> str:
    """The rows of `kind`'s full-text index whose `columns` hold the quoted word the SQL
    expression `word` gives, as a FROM clause."""
    fts = _KINDS[kind].fts
    return f"{fts} WHERE {fts} MATCH '{columns} : ' || {word}"


def _filter_sql(kind: str, where: ItemFilter) -> tuple[str, list[Any]]:
    spec = _KINDS[kind]
    clauses = ["x.tenant = ?"]
    params: list[Any] = [where.tenant]

    def within(column: str, values: Sequence[Any]) -> None:
        clauses.append(f"{column} IN ({_marks(values)})" if values else "0")
        params.extend(values)

    if where.streams is not None and kind == "record":
        marks = _marks(where.streams) or "NULL"
        clauses.append(
            f"(x.stream IN ({marks}) OR x.id IN (SELECT record_id FROM record_streams"
            f" WHERE tenant = x.tenant AND stream IN ({marks})))"
        )
        params.extend([*where.streams, *where.streams])
    elif where.streams is not None:
        within("x.stream", where.streams)
    if set(where.visibilities) != _EVERY_VISIBILITY:
        # Asked of every item otherwise: the column was added last, after the text, and a
        # long summary's is on its overflow pages (a context's full-text search of
        # summaries read 1,000 of them for it: 24 ms at 100,000 turns, 5 without).
        within("x.visibility", [v.value for v in where.visibilities])
    if where.since is not None:
        clauses.append(f"{spec.time} >= ?")
        params.append(_ts(where.since))
    if where.until is not None:
        clauses.append(f"{spec.time} <= ?")
        params.append(_ts(where.until))
    if where.categories is not None and kind != "fact":
        clauses.append("0")  # a category is a fact's: other kinds have none to match
    if kind == "fact":
        if where.active_facts_only:
            clauses.append("x.status = 'active'")
        if where.categories is not None:
            within("x.category", where.categories)
        if where.exclude_facts:
            clauses.append(f"x.id NOT IN ({_marks(where.exclude_facts)})")
            params.extend(sorted(where.exclude_facts))
    if kind == "summary":
        within("x.kind", [k.value for k in where.summary_kinds])
    if kind == "turn" and where.turns_before_seq is not None:
        clauses.append("x.seq < ?")
        params.append(where.turns_before_seq)
    # Names last: SQLite tests the clauses in order, and a name is looked for in the whole
    # text, which for a long summary means its overflow pages (a context's search of the
    # summaries naming someone read every archived one, which it leaves out, for it).
    named, names = name_clauses(where.people, where.about, spec.text, _SAID_BY.get(kind), _contains)
    clauses += named
    params += names
    return " AND ".join(clauses), params


def _observed_sql(observed: ObservedPins) -> tuple[str, list[Any]]:
    """The clause that keeps, of the facts read from outside messages, only those the rule
    lets pin."""
    if not observed.sources:
        return "", []
    outside = " OR ".join("substr(source_kind, 1, ?) = ?" for _ in observed.sources)
    params: list[Any] = [v for prefix in observed.sources for v in (len(prefix), prefix)]
    kinds = _marks(observed.categories) if observed.categories else "NULL"
    clause = f" AND (NOT ({outside}) OR (category IN ({kinds}) AND confidence >= ?))"
    return clause, [*params, *observed.categories, observed.min_confidence]


def _quoted(term: str) -> str:
    """A term as an FTS5 string: quotes, operators and parentheses in it are plain text."""
    return '"' + term.replace('"', '""') + '"'


def _timestamp(text: str | None) -> float | None:
    return None if text is None else datetime.fromisoformat(text).timestamp()


def _insert_sql(table: str, values: dict[str, Any]) -> str:
    return f"INSERT INTO {table} ({', '.join(values)}) VALUES ({_marks(values)})"


def _marks(values: Sized) -> str:
    return ",".join("?" * len(values))


# Every write empties the read caches, yet a context after a write reads mostly the items
# and recent turns the one before read, unchanged. Models are kept by the values of their
# rows: a row read again with the same values gives the same (frozen) model, without
# validating it again; a changed row has other values, so it is built anew. Long texts
# are not kept: a few pasted documents would hold megabytes.
_KEPT_CHARS = 20_000


def _item_of_row(kind: str, row: sqlite3.Row) -> Item:
    if len(row["text"]) > _KEPT_CHARS:
        return item_of(kind, row)
    return _item_of_values(kind, tuple(row.keys()), tuple(row))


@lru_cache(maxsize=_ITEM_MODEL_ENTRIES)
def _item_of_values(kind: str, names: tuple[str, ...], values: tuple[Any, ...]) -> Item:
    return item_of(kind, dict(zip(names, values, strict=True)))


def _turn_of_row(row: sqlite3.Row) -> Turn:
    if len(row["user_text"]) + len(row["assistant_text"]) > _KEPT_CHARS:
        return turn_of(row)
    return _turn_of_values(tuple(row.keys()), tuple(row))


@lru_cache(maxsize=_TURN_MODEL_ENTRIES)
def _turn_of_values(names: tuple[str, ...], values: tuple[Any, ...]) -> Turn:
    return turn_of(dict(zip(names, values, strict=True)))


@lru_cache(maxsize=_FACT_MODEL_ENTRIES)
def _fact_of_values(names: tuple[str, ...], values: tuple[Any, ...]) -> Fact:
    return fact_of(dict(zip(names, values, strict=True)))
