"""The shared store: PostgreSQL through a psycopg connection pool, for many processes on
many hosts.

Full text lives in tsvector columns with GIN indexes, vectors in pgvector columns with an
HNSW index per dimension. Workers take streams with `FOR UPDATE SKIP LOCKED` and expiring
per-stream leases, and are woken across processes by LISTEN/NOTIFY. Migrations run once,
under an advisory lock, by whichever process opens the database first.

A transaction pins one pooled connection to its thread; outside one, each statement takes
a connection from the pool and commits on its own.
"""

import contextvars
import json
import logging
import math
import re
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from datetime import datetime, timedelta
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import psycopg
from pgvector.psycopg import register_vector
from psycopg_pool import ConnectionPool

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
from threefold.errors import StoreError, StoreUnavailable
from threefold.store.base import (
    EMBED_MIN_CHARS,
    IMPORT_LEASE_PREFIX,
    NAMED_MOST,
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
    TenantNames,
    TurnWindow,
    check_probes,
    names_indexed,
)
from threefold.store.postgres.connection import (
    INSTALL_PGVECTOR,
    TextArray,
    keep_nul_characters,
    nul_free,
    shown,
    typed_error,
)
from threefold.store.postgres.entities import EntityTables
from threefold.store.postgres.erasure import ErasureTables
from threefold.store.postgres.migrations import (
    GRAPH_MEMORY,
    MIGRATIONS,
    TURN_CONFIG,
    TURN_WORDS,
    WORDS,
    create_graph,
    graph_index,
)
from threefold.store.postgres.routing import JIRA_PROJECTS, RoutingTables, jira_projects_of
from threefold.store.postgres.team import PROFILE_NAMES, TeamTables
from threefold.store.postgres.tenancy import acting_for, align, for_tenant_calls, forget
from threefold.store.postgres.text_lengths import (
    EXACT_BELOW,
    LENGTHS_ROW,
    TextLengths,
    lengths_sql,
)
from threefold.store.postgres.vectors import DatabaseVectors
from threefold.store.rows import (
    api_key_of,
    fact_of,
    item_of,
    job_of,
    json_or_none_back,
    record_of,
    summary_of,
    turn_of,
)
from threefold.store.statements import (
    SUPERSEDED,
    SharedStatements,
    aliases_in_order,
    aliases_statement,
    name_clauses,
    superseded_pairs,
)
from threefold.store.vectors import echo_depth, one_per_echo_of_blobs

log = logging.getLogger(__name__)

Row = dict[str, Any]
Params = Sequence[Any] | Mapping[str, Any]
"""A statement's parameters: positional (%s) or named (%(name)s)."""

_MIGRATION_LOCK = 0x6D656D73  # "mems": one advisory lock key for schema changes
_JOBS_CHANNEL = "threefold_jobs"
_FINISHED_IMPORT = ["done", "failed"]
_SCORED = 1000
"""The most full-text matches one search ranks, as in the SQLite store."""
_GRAPH_BREADTH = 40
"""HNSW's ef_search: the candidates a vector search's first pass keeps, a little over the
30 a context's lists take (at a million items, the turns' walk for 30 at 40 took 3.1 ms
where one for 50 at 60 took 4.4)."""
_EXACT_BELOW = 10_000
"""Vectors of a kind in the streams searched below which a search scores them all rather
than walk the graph, unless they are most of the graph (see _GRAPH_FROM): 10,000 took
8 ms against 1.5 ms through the graph, and found all of the true 50 nearest where the
graph found 56% (hashing vectors, benchmarks/postgres.py)."""
_GRAPH_FROM = 2_000
"""Vectors of a kind from which a search walks the graph, where the streams searched hold
at least half of them (or no stream is named): below, scoring them all takes under 2 ms.
From 2,000 to _EXACT_BELOW a scan of the busy stream cost a context more than the
graph's walk (benchmarks/postgres.py at 10,000 items)."""
_COUNT_REMEMBERED_FROM = 200
_TERM_COUNT_SECONDS = 60.0
_TERM_COUNT_ENTRIES = 100_000
_RECORDS_PER_INSERT = 500
_CLAIM_TRIES = 3


_RECORD_SELECT = (
    "SELECT r.*, (SELECT string_agg(stream, chr(31)) FROM record_streams"
    " WHERE record_id = r.id) AS also_in FROM records r"
)


@for_tenant_calls
class PostgresStore(SharedStatements, EntityTables, ErasureTables, TeamTables, RoutingTables):
    _greatest = "greatest"
    _record_select = _RECORD_SELECT

    def __init__(self, url: str, *, pool_size: int = 8, timeout: float = 10.0) -> None:
        self.url = url
        self.shown_url = shown(url)
        self.read_only = False  # a read-only server answers each write with StoreReadOnly
        self._timeout = timeout
        self._local = threading.local()
        self._streams: set[tuple[str, str]] = set()
        self._streams_lock = threading.Lock()
        self._term_counts: dict[tuple[str, str, str], tuple[int, float]] = {}
        self._said_often: dict[tuple[tuple[str, int], str], float] = {}
        """(filter and bound, word) -> when rare_words found the word common."""
        self._common_words: tuple[dict[str, TextArray], float] = ({}, -math.inf)
        self._text_lengths = TextLengths()
        self._crowded_streams: dict[tuple[str, str, tuple[str, ...]], float] = {}
        self._erase_listeners: list[Callable[[str, Sequence[str]], None]] = []
        self._job_listeners: list[Callable[[], None]] = []
        self._listener: threading.Thread | None = None
        self._closed = threading.Event()
        self._vector_dims: set[int] = set()
        self._helpers = ThreadPoolExecutor(pool_size, thread_name_prefix="threefold-search")
        """Threads that send a search's second statement on a second connection."""
        self.statements = 0
        """Statements sent to the server (BEGIN and COMMIT included), for benchmarks."""
        self.round_trips = 0
        """Waits for the server: a statement, or statements sent together in a pipeline."""
        self._migrate()
        self._pool = ConnectionPool(
            url,
            min_size=1,
            max_size=pool_size,
            kwargs={"autocommit": True, "connect_timeout": max(1, int(timeout))},
            configure=self._configure,
            check=_check_if_idle,
            timeout=timeout,
            open=False,
            name="threefold",
        )
        with self._guard():
            self._pool.open(wait=True, timeout=timeout)

    # -- plumbing -------------------------------------------------------------

    def close(self) -> None:
        self._closed.set()
        self._helpers.shutdown(wait=True)
        self._pool.close()

    @contextmanager
    def _guard(self) -> Iterator[None]:
        try:
            yield
        except psycopg.Error as exc:
            raise typed_error(exc, self.url) from exc

    @contextmanager
    def _connection(self) -> Iterator[psycopg.Connection[Row]]:
        """The thread's transaction connection, or a pooled one for one statement."""
        pinned = getattr(self._local, "conn", None)
        if pinned is not None:
            with self._guard():
                _aligned(pinned)
                yield pinned
            return
        with self._guard(), self._pool.connection() as conn:
            _aligned(conn)
            yield conn
            conn._threefold_used = time.monotonic()  # type: ignore[attr-defined]

    @contextmanager
    def _pipeline(self) -> Iterator[psycopg.Connection[Row]]:
        """A connection whose statements are sent together, without waiting for each
        result: their results are all there once the block ends. One round trip, where a
        statement at a time would wait for the server (and be scheduled) once each."""
        with self._connection() as conn, conn.pipeline():
            self.round_trips += 1
            conn._threefold_piped = True  # type: ignore[attr-defined]
            try:
                yield conn
            finally:
                conn._threefold_piped = False  # type: ignore[attr-defined]

    def _rows_alongside(self, sql: str, params: list[Any]) -> list[Row]:
        """_numbered_rows on another pooled connection, while the caller waits for a
        statement of its own: the two waits overlap, so this one is not counted as a round
        trip."""
        with self._connection() as conn:
            conn._threefold_piped = True  # type: ignore[attr-defined]
            try:
                return _search_rows(conn, sql, params)
            finally:
                conn._threefold_piped = False  # type: ignore[attr-defined]

    def _numbered_rows(self, sql: str, params: list[Any]) -> list[Row]:
        """_rows of a long statement of positional parameters, which is sent numbered, as
        _numbered writes it."""
        with self._connection() as conn:
            return _search_rows(conn, sql, params)

    def _rows_at_once(self, statements: Sequence[tuple[str, list[Any]]]) -> list[Row]:
        """The rows of each statement, run on connections of their own at the same time:
        the wait is the slowest statement's, not their sum, where the server has cores to
        spare. In a transaction, one after another on its connection."""
        if self.in_transaction or len(statements) == 1:
            return [row for sql, params in statements for row in self._numbered_rows(sql, params)]
        # The acting tenant is the caller's: each helper runs in a copy of its context.
        helped: list[Future[list[Row]]] = [
            self._helpers.submit(contextvars.copy_context().run, self._rows_alongside, sql, params)
            for sql, params in statements[1:]
        ]
        try:
            rows = self._numbered_rows(*statements[0])
        finally:
            others = [future.result() for future in helped]  # none is left running
        return rows + [row for found in others for row in found]

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """A write transaction on one connection; nested calls join the outer one."""
        if getattr(self._local, "conn", None) is not None:
            yield
            return
        self.round_trips += 2  # BEGIN and COMMIT
        self.statements += 2
        try:
            with self._guard(), self._pool.connection() as conn:
                try:
                    with conn.transaction():
                        self._local.conn = conn
                        try:
                            yield
                        finally:
                            self._local.conn = None
                except BaseException:
                    forget(conn)  # the rollback undid any change of its tenant
                    raise
        except BaseException:
            with self._streams_lock:
                self._streams.clear()  # a rolled-back transaction may have made some
            raise

    acting_for = staticmethod(acting_for)
    """`with store.acting_for(tenant):` statements see only that tenant's rows, whatever
    they filter on; the store's own methods act for the tenant they name."""

    @property
    def in_transaction(self) -> bool:
        return getattr(self._local, "conn", None) is not None

    def _rows(self, sql: str, params: Params = ()) -> list[Row]:
        with self._connection() as conn:
            return conn.execute(sql, params).fetchall()

    def _row(self, sql: str, params: Params = ()) -> Row | None:
        with self._connection() as conn:
            return conn.execute(sql, params).fetchone()

    def _exec(self, sql: str, params: Params = ()) -> int:
        """Run a statement; how many rows it changed."""
        with self._connection() as conn:
            return conn.execute(sql, params).rowcount

    def _many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if not rows:
            return
        with self._connection() as conn, conn.cursor() as cursor:
            cursor.executemany(sql, rows)

    def _insert(self, table: str, values: dict[str, Any], returning: str = "id") -> Row:
        row = self._row(
            f"INSERT INTO {table} ({', '.join(values)})"
            f" VALUES ({', '.join(['%s'] * len(values))}) RETURNING {returning}",
            list(values.values()),
        )
        assert row is not None  # a plain INSERT returns its row or raises
        return row

    def _insert_row(self, table: str, values: dict[str, Any]) -> Row:
        """Insert a row and read it back, defaults included, in one statement."""
        return self._insert(table, values, returning="*")

    def _configure(self, conn: psycopg.Connection[Any]) -> None:
        conn._threefold_store = self  # type: ignore[attr-defined]
        # Set once per connection, so a vector search needs no transaction of its own: the
        # iterative scan keeps a filtered search from coming back short, and a first pass
        # a little wider than recall's least depth of lists spares it a second one (with
        # 40 for lists of 50, a search read a fifth more of the graph at 100k items, and
        # found fewer true neighbours). Prepared statements keep one generic plan: planning the
        # full-text statement afresh on each call took as long as running it (every
        # statement filters on indexed columns, so the values do not change the best plan).
        # No statement of a store is big enough to gain from parallel workers: starting one
        # took longer than reading a stream's 10,000 summaries without it. Nor from JIT
        # compilation: the search's plan costs more than jit_above_cost (its exact-scan
        # branch is costed even where it never runs), so a server built with LLVM would
        # compile it on every call, for tens of milliseconds, to save a fraction of one.
        with _uncounted(conn):
            conn.execute(
                "SET TIME ZONE 'UTC'; SET hnsw.iterative_scan = relaxed_order;"
                f" SET hnsw.ef_search = {_GRAPH_BREADTH};"
                " SET plan_cache_mode = force_generic_plan;"
                " SET max_parallel_workers_per_gather = 0; SET jit = off"
            )
        register_vector(conn)
        keep_nul_characters(conn)

    def _migrate(self) -> None:
        try:
            conn = psycopg.connect(
                self.url, autocommit=True, connect_timeout=max(1, int(self._timeout))
            )
        except psycopg.Error as exc:
            raise typed_error(exc, self.url) from None
        with conn, self._guard(), conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations"
                " (name TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL)"
            )
            applied = {r[0] for r in conn.execute("SELECT name FROM schema_migrations")}
            known = [name for name, _ in MIGRATIONS]
            unknown = applied - set(known)
            if unknown:
                raise StoreError(
                    f"{self.shown_url} was written by a newer threefold"
                    f" (migrations {sorted(unknown)}); upgrade threefold to use it"
                )
            pending = [(name, sql) for name, sql in MIGRATIONS if name not in applied]
            if pending and not _has_pgvector(conn):
                raise StoreError(f"{INSTALL_PGVECTOR} ({self.shown_url})")
            if pending and (version := _old_pgvector(conn)):
                raise StoreError(
                    f"{self.shown_url} has pgvector {version}; threefold needs"
                    f" {'.'.join(map(str, _PGVECTOR_SINCE))} or newer (half-precision"
                    " vectors): upgrade the server's pgvector package, then run"
                    " ALTER EXTENSION vector UPDATE in the database"
                )
            for name, sql in pending:
                conn.execute(sql)
                conn.execute("INSERT INTO schema_migrations VALUES (%s, %s)", (name, utcnow()))

    def _q(self, sql: str) -> str:
        return _psycopg_marks(sql)

    def _time(self, moment: datetime) -> datetime:
        return moment

    # -- streams --------------------------------------------------------------

    def ensure_stream(self, tenant: str, stream: str) -> None:
        if (tenant, stream) in self._streams:
            return
        self._exec(
            "INSERT INTO streams (tenant, name, created_at) VALUES (%s, %s, %s)"
            " ON CONFLICT DO NOTHING",
            (tenant, stream, utcnow()),
        )
        if not self.in_transaction:
            with self._streams_lock:
                self._streams.add((tenant, stream))

    def stream_state(self, tenant: str, stream: str) -> StreamState:
        return _stream_state(tenant, stream, self._row(_STREAM_STATE, (tenant, stream)))

    def streams(self, tenant: str) -> list[str]:
        rows = self._rows(_STREAM_NAMES, (tenant,))
        return [r["name"] for r in rows]

    # -- turns ----------------------------------------------------------------

    def insert_turn(self, turn: NewTurn) -> Turn:
        recorded = utcnow()
        with self.transaction():
            self.ensure_stream(turn.tenant, turn.stream)
            # The UPDATE locks the stream's row: two writers get consecutive seqs.
            seq = self._row(
                "UPDATE streams SET turn_count = turn_count + 1,"
                " unsummarized_tokens = unsummarized_tokens + %s"
                " WHERE tenant = %s AND name = %s RETURNING turn_count",
                (turn.tokens, turn.tenant, turn.stream),
            )["turn_count"]  # type: ignore[index]
            values = turn.columns(seq, recorded)
            turn_id = self._row(
                f"INSERT INTO turns ({', '.join(values)}, search)"
                f" SELECT {', '.join(['%s'] * len(values))}, {_TURN_SEARCH}"
                " FROM (SELECT %s::text AS own_user, %s::text AS own_assistant) own"
                " LEFT JOIN turns p ON p.tenant = %s AND p.stream = %s AND p.seq = %s"
                " RETURNING id",
                [
                    *values.values(),
                    _speaking(turn.speaker, turn.user),
                    _speaking(turn.assistant_speaker, turn.assistant),
                    turn.tenant,
                    turn.stream,
                    seq - 1,
                ],
            )["id"]  # type: ignore[index]
        return Turn(id=turn_id, seq=seq, recorded_at=recorded, **turn.model_dump())

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
        sql = "SELECT * FROM turns WHERE tenant = %s AND stream = %s AND seq > %s"
        params: list[Any] = [tenant, stream, after_seq]
        if through_seq is not None:
            sql += " AND seq <= %s"
            params.append(through_seq)
        if last is not None:
            rows = self._rows(sql + " ORDER BY seq DESC LIMIT %s", [*params, last])
            rows.reverse()
        else:
            rows = self._rows(sql + " ORDER BY seq", params)
        return [turn_of(r) for r in rows]

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
        rows = self._pinned_rows(
            "text", tenant, stream, visibilities, min_confidence, skip_categories, skip_sources
        )
        return [r["text"] for r in rows]

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
    ) -> list[Row]:
        policy = PinPolicy(
            visibilities=tuple(visibilities),
            min_confidence=min_confidence,
            skip_categories=tuple(skip_categories),
            skip_sources=tuple(skip_sources),
            observed=observed,
        )
        return self._rows(_pinned_sql(columns), _pinned_params(tenant, [stream], policy))

    def superseded_facts(self, tenant: str, stream: str) -> list[tuple[Fact, Fact]]:
        """Pairs of (superseded fact, its active successor), newest old one first: one
        statement reads both sides of every pair."""
        return superseded_pairs(map(fact_of, self._rows(_SUPERSEDED, (tenant, stream) * 3)))

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
        """Nine statements (ten with `name_words`) sent at once in a pipeline: one wait
        for the server."""
        with self._pipeline() as conn:
            aliases = None
            if name_words:
                sql, params = aliases_statement(tenant, name_words)
                aliases = conn.execute(self._q(sql), params)
            reads = [
                conn.execute(_STREAM_STATE, (tenant, stream)),
                conn.execute(
                    _WINDOW_TURNS, (tenant, stream, window.least, window.most, tenant, stream)
                ),
                conn.execute(_ACTIVE_SUMMARY, (tenant, stream)),
                conn.execute(_NEWEST_STRUCTURED, (tenant, stream)),
                conn.execute(_SUPERSEDED, (tenant, stream) * 3),
                conn.execute(_pinned_sql("*"), _pinned_params(tenant, pinned_streams, pins)),
                conn.execute(_STREAM_NAMES, (tenant,)),
                conn.execute(PROFILE_NAMES, (tenant,)),
                conn.execute(JIRA_PROJECTS, (tenant,)),
            ]
        state, turns, active, structured, superseded, pinned, streams, profiles, projects = (
            r.fetchall() for r in reads
        )
        by_stream: dict[str, list[Fact]] = {name: [] for name in pinned_streams}
        for row in pinned:
            by_stream[row["stream"]].append(fact_of(row))
        return StreamView(
            state=_stream_state(tenant, stream, state[0] if state else None),
            turns=[turn_of(r) for r in reversed(turns)],
            active_summary=summary_of(active[0]) if active else None,
            structured=summary_of(structured[0]) if structured else None,
            superseded=superseded_pairs(map(fact_of, superseded)),
            pinned=by_stream,
            names=TenantNames(
                [r["name"] for r in streams],
                [(r["entity"], r["kind"], r["name"]) for r in profiles],
                jira_projects_of(projects),
            ),
            aliases=[] if aliases is None else aliases_in_order(name_words, aliases.fetchall()),
        )

    def fact_changes(self, tenant: str, fact_ids: Sequence[int]) -> list[FactChange]:
        rows = self._rows(
            "SELECT h.* FROM fact_history h JOIN facts f ON f.id = h.fact_id"
            " WHERE f.tenant = %s AND h.fact_id = ANY(%s) ORDER BY h.id",
            (tenant, list(fact_ids)),
        )
        return [
            FactChange(
                fact_id=r["fact_id"],
                action=r["action"],
                related_fact_id=r["related_fact_id"],
                at=r["at"],
                note=r["note"],
                before=json_or_none_back(r["before"]),
                after=json_or_none_back(r["after"]),
            )
            for r in rows
        ]

    def update_fact(self, tenant: str, fact_id: int, *, text: str, value: str, tokens: int) -> None:
        self._exec(
            "UPDATE facts SET text = %s, value = %s, tokens = %s WHERE tenant = %s AND id = %s",
            (text, value, tokens, tenant, fact_id),
        )
        self._text_lengths.forget()  # its words were counted before

    # -- vectors --------------------------------------------------------------

    def vector_models(self) -> list[tuple[str, int]]:
        rows = self._rows("SELECT DISTINCT model, dim FROM vectors")
        return [(r["model"], r["dim"]) for r in rows]

    def unembedded(self, tenant: str, stream: str, limit: int) -> list[tuple[str, int, str]]:
        """Up to `limit` items of the stream without a vector: (kind, id, text). Of
        summaries, only session and roll-up ones; turns and messages shorter than
        EMBED_MIN_CHARS get none, nor do inactive facts: as in the SQLite store."""
        rows = self._rows(
            _UNEMBEDDED + " LIMIT %(n)s",
            {"t": tenant, "s": stream, "n": limit, "min": EMBED_MIN_CHARS},
        )
        return [(r["kind"], r["id"], r["text"]) for r in rows]

    def count_unembedded_in(self, tenant: str, stream: str) -> int:
        row = self._row(
            f"SELECT count(*) AS n FROM ({_UNEMBEDDED}) waiting",
            {"t": tenant, "s": stream, "min": EMBED_MIN_CHARS},
        )
        return int(row["n"]) if row else 0

    def count_unembedded(self) -> int:
        row = self._row(
            "SELECT (SELECT COUNT(*) FROM turns"
            "    WHERE length(user_text) + length(assistant_text) >= %(min)s)"
            " + (SELECT COUNT(*) FROM facts WHERE status = 'active')"
            " + (SELECT COUNT(*) FROM summaries"
            "    WHERE kind IN ('session', 'weekly', 'monthly', 'slack'))"
            " + (SELECT COUNT(*) FROM records WHERE length(text) >= %(min)s)"
            " - (SELECT COUNT(*) FROM vectors WHERE kind != 'fact'"
            "    OR item_id IN (SELECT id FROM facts WHERE status = 'active')) AS n",
            {"min": EMBED_MIN_CHARS},
        )
        return max(0, int(row["n"])) if row else 0

    def item_vectors(
        self, kind: str, tenant: str, item_ids: Sequence[int]
    ) -> list[tuple[int, bytes]]:
        rows = self._rows(
            "SELECT item_id, embedding FROM vectors"
            " WHERE kind = %s AND item_id = ANY(%s) AND tenant = %s",
            (kind, list(item_ids), tenant),
        )
        return [(r["item_id"], _vector_bytes(r["embedding"])) for r in rows]

    def put_vectors(
        self, tenant: str, stream: str, model: str, items: Sequence[tuple[str, int, bytes, int]]
    ) -> None:
        """Store (kind, item id, float32 bytes, dim) rows, replacing any earlier vector."""
        for dim in {dim for _, _, _, dim in items} - self._vector_dims:
            self._index_dimension(dim)
        self._many(
            "INSERT INTO vectors (kind, item_id, tenant, stream, model, dim, embedding)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (kind, item_id) DO UPDATE"
            " SET tenant = excluded.tenant, stream = excluded.stream, model = excluded.model,"
            " dim = excluded.dim, embedding = excluded.embedding",
            [
                (kind, item, tenant, stream, model, dim, np.frombuffer(blob, dtype=np.float32))
                for kind, item, blob, dim in items
            ],
        )

    def index_vectors(self) -> None:
        """Make the HNSW index of every dimension the vectors table holds (after a bulk
        copy, which bypasses put_vectors)."""
        for row in self._rows("SELECT DISTINCT dim FROM vectors"):
            self._index_dimension(int(row["dim"]))

    def _index_dimension(self, dim: int) -> None:
        """HNSW indexes (cosine, over half-precision copies of the vectors) of one
        dimension, one per kind: pgvector indexes only vectors of a fixed size, and a
        search of one kind in a graph of all would walk past the others' vectors (records,
        a sixth of them, took 65 ms at 100k items in a shared graph). An older database's
        float32 graphs are dropped."""
        with self.transaction():
            self._exec("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK + 1,))
            self._exec(GRAPH_MEMORY)
            for kind in _KINDS:
                self._exec(create_graph(dim, kind))
                self._exec(f"DROP INDEX IF EXISTS vectors_hnsw_{dim}_{kind}")
            self._exec(f"DROP INDEX IF EXISTS vectors_hnsw_{dim}")
        self._vector_dims.add(dim)

    def drop_vectors(self) -> int:
        with self.transaction():
            return self._exec("DELETE FROM vectors")

    def vectors(
        self,
        kind: str,
        tenant: str,
        streams: Sequence[str] | None,
        after_id: int = 0,
        limit: int | None = None,
    ) -> list[tuple[int, int, str, bytes]]:
        """(vector row id, item id, stream, blob) of one kind, oldest row first."""
        sql = "SELECT id, item_id, stream, embedding FROM vectors WHERE tenant = %s AND kind = %s"
        params: list[Any] = [tenant, kind]
        if streams is not None:
            sql += " AND stream = ANY(%s)"
            params.append(list(streams))
        sql += " AND id > %s ORDER BY id LIMIT %s"
        rows = self._rows(sql, [*params, after_id, limit])
        return [(r["id"], r["item_id"], r["stream"], _vector_bytes(r["embedding"])) for r in rows]

    def nearest(
        self,
        kind: str,
        where: ItemFilter,
        query: bytes,
        dim: int,
        limit: int,
        exact: bool = False,
    ) -> list[tuple[int, float]]:
        """The `limit` items of `kind` passing `where` nearest to `query` by cosine, with
        their similarity, best first: pgvector's HNSW index of the dimension, filtered in
        the same statement (an iterative scan keeps a filtered search from coming back
        short). With `exact`, a scan instead of the index."""
        sql, params = _filter_sql(kind, where)
        vector = np.frombuffer(query, dtype=np.float32)
        assert vector.shape[0] == dim
        crowded = self._crowded(kind, where)
        nearest, nearest_params = _nearest_sql(
            kind, where, sql, params, vector, limit, exact=exact, crowded=crowded
        )
        rows = self._rows(
            f"SELECT item_id, 1 - distance AS similarity, streamed FROM ({nearest}) nearest"
            " ORDER BY distance, item_id",
            nearest_params,
        )
        self._remember_crowded(kind, where, [r["streamed"] for r in rows[:1]])
        return [(r["item_id"], float(r["similarity"])) for r in rows]

    def _crowded(self, kind: str, where: ItemFilter) -> bool:
        """Whether the streams `where` names were lately seen holding _EXACT_BELOW or more
        vectors of `kind` (a search then need not count them again)."""
        seen = self._crowded_streams.get(_streams_key(kind, where))
        return seen is not None and time.monotonic() - seen < _TERM_COUNT_SECONDS

    def _remember_crowded(self, kind: str, where: ItemFilter, counts: Sequence[int | None]) -> None:
        if any(count is not None and count >= _EXACT_BELOW for count in counts):
            if len(self._crowded_streams) >= _TERM_COUNT_ENTRIES:
                self._crowded_streams.clear()
            self._crowded_streams[_streams_key(kind, where)] = time.monotonic()

    def merge_text_index(self, pages: int) -> int:
        """Nothing to merge: PostgreSQL keeps its text indexes whole (autovacuum empties a
        GIN index's pending list)."""
        return 0

    def vector_index(self) -> DatabaseVectors:
        return DatabaseVectors(self)

    # -- records --------------------------------------------------------------

    def _link_records(self, stored: list[tuple[NewRecord, int]]) -> None:
        for record, _ in stored:
            for stream in record.also_in:
                self.ensure_stream(record.tenant, stream)
        self._many(
            "INSERT INTO record_streams VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
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
        recorded = utcnow()
        new: dict[tuple[str, str, str, str], int] = {}
        row_marks = f"({', '.join(['%s'] * len(_RECORD_COLUMNS))})"
        for start in range(0, len(records), _RECORDS_PER_INSERT):
            rows = [_record_row(r, recorded) for r in records[start : start + _RECORDS_PER_INSERT]]
            returned = self._rows(
                f"INSERT INTO records ({', '.join(_RECORD_COLUMNS)}) VALUES "
                + ", ".join([row_marks] * len(rows))
                + " ON CONFLICT DO NOTHING RETURNING id, tenant, source, channel, external_id",
                [value for row in rows for value in row],
            )
            new.update(
                {
                    (r["tenant"], r["source"], r["channel"], r["external_id"]): r["id"]
                    for r in returned
                }
            )
        return [new.pop((r.tenant, r.source, r.channel, r.external_id), None) for r in records]

    def records(
        self, tenant: str, stream: str, *, source: str | None = None, last: int | None = None
    ) -> list[Record]:
        newest = self._rows(
            "SELECT id, at FROM (SELECT id, at FROM records WHERE tenant = %(t)s"
            " AND stream = %(s)s AND (%(src)s::text IS NULL OR source = %(src)s)"
            " ORDER BY at DESC, id DESC LIMIT %(n)s) own"
            " UNION SELECT id, at FROM (SELECT r.id, r.at FROM record_streams l"
            " JOIN records r ON r.id = l.record_id WHERE l.tenant = %(t)s AND l.stream = %(s)s"
            " AND (%(src)s::text IS NULL OR r.source = %(src)s)"
            " ORDER BY r.at DESC, r.id DESC LIMIT %(n)s) linked"
            " ORDER BY at DESC, id DESC LIMIT %(n)s",
            {"t": tenant, "s": stream, "src": source, "n": last},
        )
        ids = [r["id"] for r in newest]
        rows = {r["id"]: r for r in self._rows(f"{_RECORD_SELECT} WHERE r.id = ANY(%s)", (ids,))}
        return [record_of(rows[i]) for i in reversed(ids)]

    def unprocessed_records(self, tenant: str, stream: str, limit: int) -> list[Record]:
        rows = self._rows(
            f"{_RECORD_SELECT} WHERE r.tenant = %s AND r.stream = %s AND NOT r.processed"
            " ORDER BY r.at, r.id LIMIT %s",
            (tenant, stream, limit),
        )
        return [record_of(r) for r in rows]

    def count_unprocessed(self, tenant: str, stream: str) -> int:
        row = self._row(
            "SELECT COUNT(*) AS n FROM records WHERE tenant = %s AND stream = %s AND NOT processed",
            (tenant, stream),
        )
        return int(row["n"]) if row else 0

    def mark_processed(self, tenant: str, record_ids: Sequence[int]) -> None:
        self._exec(
            "UPDATE records SET processed = true WHERE tenant = %s AND id = ANY(%s)",
            (tenant, list(record_ids)),
        )

    def add_entity_events(
        self, tenant: str, events: Sequence[tuple[str, str, int, datetime]]
    ) -> None:
        self._many(
            "INSERT INTO entity_events VALUES (%s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
            [(tenant, entity, kind, item, at) for entity, kind, item, at in events],
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
        rows = self._rows(
            "SELECT * FROM ("
            " SELECT 'record' AS kind, r.id, r.stream, r.author || ': ' || r.text AS text,"
            "  r.at, NULL::text AS category, r.source || '.' || r.kind AS source_kind,"
            "  r.id::text AS source_id"
            " FROM entity_events e JOIN records r ON e.item_kind = 'record' AND r.id = e.item_id"
            " WHERE e.tenant = %(t)s AND e.entity = %(e)s AND r.visibility = ANY(%(v)s)"
            " UNION SELECT 'fact', f.id, f.stream, f.text, f.source_at, f.category,"
            "  f.source_kind, f.source_id FROM facts f"
            " WHERE f.tenant = %(t)s AND f.status = 'active' AND f.source_at IS NOT NULL"
            "  AND f.visibility = ANY(%(v)s) AND (f.subject = %(subject)s OR f.id IN"
            "  (SELECT item_id FROM entity_events WHERE tenant = %(t)s AND entity = %(e)s"
            "   AND item_kind = 'fact'))"
            ") events ORDER BY at DESC, kind, id DESC LIMIT %(n)s",
            {
                "t": tenant,
                "e": entity,
                "v": [v.value for v in visibilities],
                "subject": subject,
                "n": limit,
            },
        )
        return [
            TimelineEntry(
                at=r["at"],
                kind=r["kind"],
                id=r["id"],
                stream=r["stream"],
                text=r["text"],
                category=r["category"],
                source=SourceRef(kind=r["source_kind"], id=r["source_id"], at=r["at"]),
            )
            for r in reversed(rows)
        ]

    # -- summaries ------------------------------------------------------------

    def summaries(
        self,
        tenant: str,
        stream: str,
        kind: SummaryKind | None = None,
        *,
        ending_after: datetime | None = None,
    ) -> list[Summary]:
        sql = "SELECT * FROM summaries WHERE tenant = %s AND stream = %s"
        params: list[Any] = [tenant, stream]
        if kind is not None:
            sql += " AND kind = %s"
            params.append(kind.value)
        if ending_after is not None:
            sql += " AND period_end > %s"
            params.append(ending_after)
        # SQLite sorts NULLs first; so does this.
        rows = self._rows(sql + " ORDER BY period_end NULLS FIRST, id", params)
        return [summary_of(r) for r in rows]

    def active_summary(self, tenant: str, stream: str) -> Summary | None:
        row = self._row(_ACTIVE_SUMMARY, (tenant, stream))
        return None if row is None else summary_of(row)

    # -- jobs -----------------------------------------------------------------

    def enqueue(
        self, tenant: str, stream: str, kind: str, payload: dict[str, Any], priority: int = 0
    ) -> int:
        now = time.time()
        with self.transaction():
            job = self._insert(
                "jobs",
                {
                    "tenant": tenant,
                    "stream": stream,
                    "kind": kind,
                    "payload": json.dumps(payload),
                    "priority": priority,
                    "run_after": now,
                    "created_at": now,
                },
            )
            self._notify_jobs()
        return int(job["id"])

    def _notify_jobs(self) -> None:
        """Wake the workers that listen, in every process, once the transaction commits."""
        self._exec("SELECT pg_notify(%s, '')", (_JOBS_CHANNEL,))

    def has_pending(self, tenant: str, stream: str, kind: str) -> bool:
        row = self._row(
            "SELECT 1 FROM jobs WHERE tenant = %s AND stream = %s AND kind = %s"
            " AND status = 'pending' LIMIT 1",
            (tenant, stream, kind),
        )
        return row is not None

    def schedule(self, tenant: str, stream: str, kind: str, run_after: float) -> None:
        with self.transaction():
            # The stream's row lock keeps two processes from both creating the job.
            self.ensure_stream(tenant, stream)
            self._exec(
                "SELECT 1 FROM streams WHERE tenant = %s AND name = %s FOR UPDATE",
                (tenant, stream),
            )
            moved = self._exec(
                "UPDATE jobs SET run_after = %s WHERE tenant = %s AND stream = %s AND kind = %s"
                " AND status = 'pending'",
                (run_after, tenant, stream, kind),
            )
            if not moved:
                self._exec(
                    "INSERT INTO jobs (tenant, stream, kind, payload, run_after, created_at)"
                    " VALUES (%s, %s, %s, '{}', %s, %s)",
                    (tenant, stream, kind, run_after, time.time()),
                )
            self._notify_jobs()

    def claim_stream(
        self, owner: str, lease_seconds: float, tenant: str | None = None
    ) -> tuple[str, str] | None:
        """Lease the stream with the oldest due job that no live worker holds. Due jobs
        other workers are looking at are skipped, not waited for; of two workers after one
        stream, the lease's upsert lets one win, and the other looks again."""
        for _ in range(_CLAIM_TRIES):
            now = time.time()
            with self.transaction():
                row = self._row(
                    "SELECT j.tenant, j.stream FROM jobs j LEFT JOIN stream_leases l"
                    " ON l.tenant = j.tenant AND l.stream = j.stream"
                    " WHERE j.status = 'pending' AND j.run_after <= %(now)s"
                    " AND (l.owner IS NULL OR l.expires_at < %(now)s OR l.owner = %(owner)s)"
                    " AND (%(tenant)s::text IS NULL OR j.tenant = %(tenant)s)"
                    " ORDER BY j.id LIMIT 1 FOR UPDATE OF j SKIP LOCKED",
                    {"now": now, "owner": owner, "tenant": tenant},
                )
                if row is None:
                    return None
                won = self._exec(
                    "INSERT INTO stream_leases VALUES (%(t)s, %(s)s, %(owner)s, %(until)s)"
                    " ON CONFLICT (tenant, stream) DO UPDATE SET owner = excluded.owner,"
                    " expires_at = excluded.expires_at"
                    " WHERE stream_leases.expires_at < %(now)s OR stream_leases.owner = %(owner)s",
                    {
                        "t": row["tenant"],
                        "s": row["stream"],
                        "owner": owner,
                        "until": now + lease_seconds,
                        "now": now,
                    },
                )
            if won:
                return row["tenant"], row["stream"]
        return None

    def renew_lease(self, tenant: str, stream: str, owner: str, lease_seconds: float) -> bool:
        return (
            self._exec(
                "UPDATE stream_leases SET expires_at = %s WHERE tenant = %s AND stream = %s"
                " AND owner = %s",
                (time.time() + lease_seconds, tenant, stream, owner),
            )
            == 1
        )

    def finish_job(self, job_id: int) -> None:
        self._exec(
            "UPDATE jobs SET status = 'done', finished_at = %s WHERE id = %s",
            (time.time(), job_id),
        )

    def fail_job(self, job_id: int, error: str, retry_in: float | None) -> None:
        now = time.time()
        if retry_in is None:
            self._exec(
                "UPDATE jobs SET status = 'failed', attempts = attempts + 1, last_error = %s,"
                " finished_at = %s WHERE id = %s",
                (error, now, job_id),
            )
        else:
            self._exec(
                "UPDATE jobs SET attempts = attempts + 1, last_error = %s, run_after = %s"
                " WHERE id = %s",
                (error, now + retry_in, job_id),
            )

    def jobs(self, tenant: str | None = None, status: str | None = None) -> list[Job]:
        rows = self._rows(
            "SELECT * FROM jobs WHERE (%(t)s::text IS NULL OR tenant = %(t)s)"
            " AND (%(s)s::text IS NULL OR status = %(s)s) ORDER BY id",
            {"t": tenant, "s": status},
        )
        return [job_of(r) for r in rows]

    def retry_failed(self, tenant: str | None = None) -> int:
        with self.transaction():
            count = self._exec(
                "UPDATE jobs SET status = 'pending', attempts = 0, run_after = %(now)s"
                " WHERE status = 'failed' AND (%(t)s::text IS NULL OR tenant = %(t)s)",
                {"now": time.time(), "t": tenant},
            )
            if count:
                self._notify_jobs()
        return count

    def on_new_jobs(self, listener: Callable[[], None]) -> None:
        """Call `listener` when any process queues a job (LISTEN on the jobs channel)."""
        self._job_listeners.append(listener)
        if self._listener is None:
            self._listener = threading.Thread(
                target=self._listen, name="threefold-listen", daemon=True
            )
            self._listener.start()

    def _listen(self) -> None:
        """Keep a connection listening; reconnect after the server comes back."""
        while not self._closed.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True, connect_timeout=5) as conn:
                    conn.execute(f"LISTEN {_JOBS_CHANNEL}")
                    while not self._closed.is_set():
                        for _ in conn.notifies(timeout=1.0, stop_after=1):
                            for listener in list(self._job_listeners):
                                listener()
            except psycopg.Error as exc:
                log.debug("job listener lost its connection: %s", exc)
                self._closed.wait(1.0)

    # -- maintenance ----------------------------------------------------------

    def count_facts(self, tenant: str, source_prefix: str) -> int:
        row = self._row(
            "SELECT COUNT(*) AS n FROM facts WHERE tenant = %s AND starts_with(source_kind, %s)",
            (tenant, source_prefix),
        )
        return int(row["n"]) if row else 0

    def stale_facts(self, *, before: datetime, below_confidence: float, limit: int) -> list[Fact]:
        rows = self._rows(
            "SELECT * FROM facts WHERE status = 'active' AND confidence < %s AND recorded_at < %s"
            " ORDER BY tenant, stream, id LIMIT %s",
            (below_confidence, before, limit),
        )
        return [fact_of(r) for r in rows]

    def active_facts_of(self, categories: Sequence[str], limit: int) -> list[Fact]:
        rows = self._rows(
            "SELECT * FROM facts WHERE status = 'active' AND category = ANY(%s)"
            " ORDER BY id LIMIT %s",
            (list(categories), limit),
        )
        return [fact_of(r) for r in rows]

    def delete_archived_summaries(self, *, before: datetime, limit: int) -> int:
        with self.transaction():
            ids = [
                r["id"]
                for r in self._rows(
                    "SELECT id FROM summaries WHERE kind = 'archived' AND created_at < %s LIMIT %s",
                    (before, limit),
                )
            ]
            if ids:
                self._exec(
                    "DELETE FROM vectors WHERE kind = 'summary' AND item_id = ANY(%s)", (ids,)
                )
                self._exec("DELETE FROM summaries WHERE id = ANY(%s)", (ids,))
        return len(ids)

    # -- api keys -------------------------------------------------------------

    def api_keys(self, tenant: str | None = None) -> list[ApiKey]:
        rows = self._rows(
            "SELECT * FROM api_keys WHERE (%(t)s::text IS NULL OR tenant = %(t)s) ORDER BY id",
            {"t": tenant},
        )
        return [api_key_of(r) for r in rows]

    def revoke_api_key(self, key_id: int) -> bool:
        return (
            self._exec(
                "UPDATE api_keys SET revoked_at = %s WHERE id = %s AND revoked_at IS NULL",
                (utcnow(), key_id),
            )
            == 1
        )

    # -- imports of the HTTP API ----------------------------------------------

    def set_import_status(
        self,
        import_id: str,
        status: str,
        *,
        report: ImportReport | None = None,
        error: str | None = None,
    ) -> None:
        finished = utcnow() if status in _FINISHED_IMPORT else None
        self._exec(
            "UPDATE imports SET status = %s, report = %s, error = %s, finished_at = %s"
            " WHERE id = %s",
            (
                status,
                None if report is None else report.model_dump_json(),
                error,
                finished,
                import_id,
            ),
        )

    def count_unfinished_imports(self) -> int:
        row = self._row(
            "SELECT COUNT(*) AS n FROM imports WHERE NOT (status = ANY(%s))", (_FINISHED_IMPORT,)
        )
        return int(row["n"]) if row else 0

    def prune_imports(self, keep: int) -> int:
        return self._exec(
            "DELETE FROM imports WHERE seq IN (SELECT seq FROM imports"
            " WHERE status = ANY(%s) ORDER BY seq"
            " LIMIT greatest(0, (SELECT COUNT(*) FROM imports) - %s))",
            (_FINISHED_IMPORT, keep),
        )

    def fail_unfinished_imports(self, error: str) -> int:
        return self._exec(
            "UPDATE imports SET status = 'failed', error = %s, finished_at = %s"
            " WHERE NOT (status = ANY(%s))",
            (error, utcnow(), _FINISHED_IMPORT),
        )

    def fail_orphaned_imports(self, error: str) -> int:
        return self._exec(
            "UPDATE imports SET status = 'failed', error = %s, finished_at = %s"
            " WHERE NOT (status = ANY(%s)) AND owner IS NOT NULL AND NOT EXISTS"
            " (SELECT 1 FROM leases WHERE leases.name = %s || imports.owner"
            " AND leases.expires_at > %s)",
            (error, utcnow(), _FINISHED_IMPORT, IMPORT_LEASE_PREFIX, time.time()),
        )

    # -- named leases ---------------------------------------------------------

    def claim_lease(self, name: str, owner: str, seconds: float) -> bool:
        now = time.time()
        return (
            self._exec(
                "INSERT INTO leases (name, owner, expires_at) VALUES (%s, %s, %s)"
                " ON CONFLICT (name) DO UPDATE SET owner = excluded.owner,"
                " expires_at = excluded.expires_at WHERE leases.expires_at <= %s",
                (name, owner, now + seconds, now),
            )
            == 1
        )

    def extend_lease(self, name: str, owner: str, seconds: float) -> bool:
        return (
            self._exec(
                "UPDATE leases SET expires_at = %s WHERE name = %s AND owner = %s",
                (time.time() + seconds, name, owner),
            )
            == 1
        )

    def take_lease(self, name: str, holder: str, owner: str, seconds: float) -> bool:
        return (
            self._exec(
                "UPDATE leases SET owner = %s, expires_at = %s WHERE name = %s AND owner = %s",
                (owner, time.time() + seconds, name, holder),
            )
            == 1
        )

    # -- search ---------------------------------------------------------------

    @property
    def index_directory(self) -> Path | None:
        """None: vector indexes derived from a shared database are kept in memory."""
        return None

    def fts_ids(
        self, kind: str, terms: Sequence[str], where: ItemFilter, limit: int
    ) -> list[tuple[int, float]]:
        """Ids of the items matching any of `terms`, best ts_rank first, with their score.
        As in the SQLite store, only the rarest terms are asked for, as many as keep the
        matches under _SCORED; should even the rarest match more, the newest are ranked.
        Counting the terms, choosing them and ranking is one statement: one round trip."""
        asked = list(dict.fromkeys(_tsquery_term(t) for t in terms))
        if not asked:
            return []
        table = _KINDS[kind].table
        lengths = self._text_lengths.params(where.tenant, table)
        known = self._known_counts(where.tenant, kind, asked)
        common = self._common_words_of(kind)
        sql, params = _filter_sql(kind, where)
        rows = self._rows(
            _ranked_matches(_KINDS[kind], sql, len(asked)),
            [*lengths, common, asked, known, *params, *params, limit],
        )
        table_rows = 0
        for row in rows:
            if row["list"] == "lengths":
                table_rows = row["n"]
                self._text_lengths.found(where.tenant, table, row["n"], row["id"], row["rank"])
        counts = [(r["term"], r["n"]) for r in rows if r["list"] == "text" and r["term"]]
        self._remember_counts(where.tenant, kind, counts, table_rows)
        hits = [
            (r["id"], float(r["rank"])) for r in rows if r["list"] == "text" and r["term"] is None
        ]
        return sorted(hits, key=_best_first)

    def candidates(
        self,
        tenant: str,
        kinds: Sequence[str],
        terms: Sequence[str],
        vector: Any,
        probes: Sequence[Probe],
        limit: int,
    ) -> Candidates:
        """Each probe's full-text search and vector search of each kind (as fts_ids and
        nearest make them), then the rows of every item they found: two statements, sent
        at once on two connections, each with half the kinds' vector searches and the
        other half's full-text searches (a vector search costs about twice a full-text
        one: at a million items, each statement took about 10 ms of the server's time)."""
        asked = list(dict.fromkeys(_tsquery_term(t) for t in terms))
        halves: tuple[list[tuple[str, list[Any]]], ...] = ([], [])
        check_probes(tenant, probes)
        walked_first = self._walked_first(tenant, kinds)
        for position, probe in enumerate(probes):
            for kind in kinds:
                vector_pieces, text_pieces = halves if kind in walked_first else halves[::-1]
                sql, params = _filter_sql(kind, probe.where)
                if asked:
                    known = self._known_counts(tenant, kind, asked)
                    common = self._common_words_of(kind)
                    text_pieces.append(
                        (
                            f"SELECT {position} AS probe, '{kind}' AS kind, list,"
                            " term::text, n::bigint, id::bigint, rank::float8 AS score"
                            f" FROM ({_ranked_matches(_KINDS[kind], sql, len(asked))}) found",
                            [*self._text_lengths.params(tenant, _KINDS[kind].table)]
                            + [common, asked, known, *params, *params, limit],
                        )
                    )
                probe_vector = vector if probe.vector is None else probe.vector
                if probe_vector is not None:
                    query = np.asarray(probe_vector, dtype=np.float32)
                    nearest, nearest_params = _nearest_sql(
                        kind,
                        probe.where,
                        sql,
                        params,
                        query,
                        echo_depth(probe.vector_depth or limit, probe.echoes_once),
                        crowded=self._crowded(kind, probe.where),
                    )
                    # Where the streams' vectors were counted, the rows under the floor
                    # come back too, without their ids, to carry that count: with none
                    # over it (a question unlike anything stored) the count would be
                    # lost, and made again by every search (a millisecond a kind).
                    vector_pieces.append(
                        (
                            f"SELECT {position} AS probe, '{kind}' AS kind, 'vector' AS list,"
                            " NULL::text AS term, streamed AS n, CASE WHEN 1 - distance >= %s"
                            " THEN item_id::bigint END AS id, distance::float8 AS score"
                            f" FROM ({nearest}) nearest"
                            " WHERE 1 - distance >= %s OR streamed IS NOT NULL",
                            [probe.min_similarity, *nearest_params, probe.min_similarity],
                        )
                    )
        statements = [_with_items(half, tenant, kinds) for half in halves if half]
        if not statements:
            return Candidates({}, {}, {}, lambda kind, ids: [])
        found = self._candidates(self._rows_at_once(statements), tenant, probes)
        return self._echoes_once(found, tenant, probes, limit)

    def _echoes_once(
        self, found: Candidates, tenant: str, probes: Sequence[Probe], limit: int
    ) -> Candidates:
        """`found` with the echoes of one line listed once in the vector lists of the
        probes that ask it (Probe.echoes_once), as the embedded store lists them: their
        vectors are read in one more round trip."""
        named = {
            key: hits
            for key, hits in found.nearest.items()
            if probes[key[0]].echoes_once and len(hits) > 1
        }
        if not named:
            return found
        wanted: dict[str, set[int]] = {}
        for (_, kind), hits in named.items():
            wanted.setdefault(kind, set()).update(i for i, _ in hits)
        read = self._item_vectors_at_once(tenant, wanted)
        for (position, kind), hits in named.items():
            blobs = {i: read[(kind, i)] for i, _ in hits if (kind, i) in read}
            depth = probes[position].vector_depth or limit
            found.nearest[(position, kind)] = one_per_echo_of_blobs(hits, blobs, depth)
        return found

    def _item_vectors_at_once(
        self, tenant: str, wanted: dict[str, set[int]]
    ) -> dict[tuple[str, int], bytes]:
        """The stored vectors of `wanted` (kind -> item ids), of every kind in one read."""
        rows = self._rows(
            "SELECT kind, item_id, embedding FROM vectors WHERE tenant = %s AND ("
            + " OR ".join("(kind = %s AND item_id = ANY(%s))" for _ in wanted)
            + ")",
            (tenant, *[v for kind, ids in wanted.items() for v in (kind, sorted(ids))]),
        )
        return {(r["kind"], r["item_id"]): _vector_bytes(r["embedding"]) for r in rows}

    def _walked_first(self, tenant: str, kinds: Sequence[str]) -> set[str]:
        """The kinds whose vector searches go in the first statement: by the rows their
        tables were last seen holding, the 1st, 4th, 5th, 8th... largest (of four kinds,
        the largest and the smallest), so that the walks of the two statements cost alike
        (a walk costs more the larger its graph: at a million items, the turns' took
        3.7 ms, the summaries' 1.2). Split by the kinds' order instead, one statement took
        10 ms and the other 13."""
        by_size = sorted(
            kinds, key=lambda kind: -self._text_lengths.rows(tenant, _KINDS[kind].table)
        )
        return {kind for place, kind in enumerate(by_size) if place % 4 in (0, 3)}

    def _candidates(self, rows: list[Row], tenant: str, probes: Sequence[Probe]) -> Candidates:
        text: dict[tuple[int, str], list[tuple[int, float]]] = {}
        nearest: dict[tuple[int, str], list[tuple[int, float]]] = {}
        items: dict[tuple[str, int], Row] = {}
        counted: dict[str, list[tuple[str, int]]] = {}
        table_rows: dict[str, int] = {}
        for row in rows:
            kind, listed = row["kind"], row["list"]
            if listed == "item":
                items[(kind, row["id"])] = row
            elif listed == "lengths":
                table_rows[kind] = row["n"]
                table = _KINDS[kind].table
                self._text_lengths.found(tenant, table, row["n"], row["id"], row["score"])
            elif listed == "vector":
                self._remember_crowded(kind, probes[row["probe"]].where, [row["n"]])
                if row["id"] is not None:  # else under the probe's floor, sent for its count
                    nearest.setdefault((row["probe"], kind), []).append((row["id"], row["score"]))
            elif row["term"] is not None:
                counted.setdefault(kind, []).append((row["term"], row["n"]))
            else:
                text.setdefault((row["probe"], kind), []).append((row["id"], row["score"]))
        for kind, counts in counted.items():
            self._remember_counts(tenant, kind, counts, table_rows.get(kind, 0))
        for key, hits in text.items():
            text[key] = sorted(hits, key=_best_first)
        for key, hits in nearest.items():
            nearest[key] = [(i, 1 - d) for i, d in sorted(hits, key=lambda h: (h[1], h[0]))]
        ranking = {
            key: (None if r["at"] is None else r["at"].timestamp(), r["mentions"])
            for key, r in items.items()
        }
        return Candidates(
            text,
            nearest,
            ranking,
            lambda kind, ids: [item_of(kind, items[(kind, i)]) for i in ids if (kind, i) in items],
        )

    def _known_counts(self, tenant: str, kind: str, terms: Sequence[str]) -> list[int | None]:
        """Each term's remembered match count, or None where it must be counted. A common
        term's count is remembered for a while: counting it reads many rows, and it only
        decides which terms are worth ranking."""
        now = time.monotonic()
        counts: list[int | None] = []
        for term in terms:
            known = self._term_counts.get((tenant, kind, term))
            fresh = known is not None and now - known[1] < _TERM_COUNT_SECONDS
            counts.append(known[0] if fresh and known is not None else None)
        return counts

    def _common_words_of(self, kind: str) -> TextArray:
        """The words (as the kind's index holds them) that its table's statistics count
        far more often than _SCORED: a search takes such a word to match more than that
        without counting. Read from pg_stats for every kind at once, and kept a minute: the
        statistics change only when the table is analyzed, and reading them in every search
        (a thousand words a table, turned from pg_stats' untyped array into text) took
        half a millisecond of the server's time per kind."""
        words, read_at = self._common_words
        if time.monotonic() - read_at >= _TERM_COUNT_SECONDS:
            rows = self._rows(_COMMON_WORDS, ([spec.table for spec in _KINDS.values()],))
            words = {row["tablename"]: TextArray.of(row["words"] or []) for row in rows}
            self._common_words = (words, time.monotonic())
        return words.get(_KINDS[kind].table, TextArray.of([]))

    def _remember_counts(
        self, tenant: str, kind: str, counted: Sequence[tuple[str, int]], table_rows: int
    ) -> None:
        """Remember the common terms' counts of a large table. A small table's are counted
        by every search: counting them is cheap there, and a count remembered from before
        the last writes would choose other terms, so rank the same question otherwise."""
        if table_rows < EXACT_BELOW:
            return
        if len(self._term_counts) >= _TERM_COUNT_ENTRIES:
            self._term_counts.clear()
        now = time.monotonic()
        for term, count in counted:
            if count > _COUNT_REMEMBERED_FROM:
                self._term_counts[(tenant, kind, term)] = (count, now)

    def rare_words(self, where: ItemFilter, words: Sequence[str], most: int) -> set[str]:
        """Those of `words` that at least one and at most `most` turns and records passing
        `where` hold in their own text (a turn's search vector holds the turn before it,
        labelled D), as the full-text index matches words, stemmed: counted up to `most`
        + 1 in one statement. A word found common stays so for a while (writes only add
        to a count), and is not counted again."""
        scope = (where.model_dump_json(), most)
        now = time.monotonic()
        asked = [
            w
            for w in dict.fromkeys(words)
            if w.strip()
            and now - self._said_often.get((scope, w), -math.inf) >= _TERM_COUNT_SECONDS
        ]
        if not asked:
            return set()
        counts, params = [], []
        for kind in _OWN_TEXT_KINDS:
            spec = _KINDS[kind]
            sql, values = _filter_sql(kind, where)
            query = f"phraseto_tsquery('{spec.config}', {spec.words}(w.word))"
            match = f"x.search @@ {query}"
            if kind == "turn":  # the turn's own words are labelled A, the one before D
                match += f" AND ts_filter(x.search, '{{a}}') @@ {query}"
            counts.append(
                f"(SELECT count(*) FROM (SELECT 1 FROM {spec.table} x"
                f" WHERE {match} AND {sql} LIMIT %s) said)"
            )
            params += [*values, most + 1]
        rows = self._rows(
            f"SELECT w.word, {' + '.join(counts)} AS n FROM unnest(%s::text[]) AS w(word)",
            [*params, asked],
        )
        if len(self._said_often) >= _TERM_COUNT_ENTRIES:
            self._said_often.clear()
        self._said_often.update({(scope, r["word"]): now for r in rows if r["n"] > most})
        return {r["word"] for r in rows if 0 < r["n"] <= most}

    def passing(self, kind: str, where: ItemFilter, ids: Sequence[int]) -> set[int]:
        if not ids:
            return set()
        spec = _KINDS[kind]
        sql, params = _filter_sql(kind, where)
        rows = self._rows(
            f"SELECT x.id FROM {spec.table} x WHERE x.id = ANY(%s) AND {sql}",
            [list(ids), *params],
        )
        return {r["id"] for r in rows}

    def linked_record_streams(self, tenant: str, streams: Sequence[str]) -> list[str]:
        rows = self._rows(
            "SELECT DISTINCT r.stream FROM record_streams l JOIN records r ON r.id = l.record_id"
            " WHERE l.tenant = %s AND l.stream = ANY(%s)",
            (tenant, list(streams)),
        )
        return [r["stream"] for r in rows]

    def ranking_rows(
        self, kind: str, tenant: str, ids: Sequence[int]
    ) -> list[tuple[int, float | None, int]]:
        spec = _KINDS[kind]
        rows = self._rows(
            f"SELECT x.id, {spec.time} AS at, {spec.mentions} AS mentions FROM {spec.table} x"
            " WHERE x.tenant = %s AND x.id = ANY(%s)",
            (tenant, list(ids)),
        )
        return [
            (r["id"], None if r["at"] is None else r["at"].timestamp(), r["mentions"]) for r in rows
        ]

    def item_ids(self, kind: str, where: ItemFilter) -> list[int]:
        spec = _KINDS[kind]
        sql, params = _filter_sql(kind, where)
        return [r["id"] for r in self._rows(f"SELECT x.id FROM {spec.table} x WHERE {sql}", params)]

    def named_candidates(self, kind: str, where: ItemFilter, most: int) -> list[int] | None:
        """Checked against the whole of `where` here: the database reads each row anyway."""
        if kind not in _NAMED_KINDS or not names_indexed(where.about):
            return None
        sql, params = _filter_sql(kind, where)
        named, named_params = _named_items_sql(kind, where, sql, params, most)
        return [r["id"] for r in self._rows(named, named_params)]

    def recent_items(self, where: ItemFilter, *, days: float, limit: int) -> list[Item]:
        found: list[Item] = []
        for kind, spec in _KINDS.items():
            sql, params = _filter_sql(kind, where)
            rows = self._rows(
                f"SELECT {spec.columns}, {spec.fact_columns} FROM {spec.table} x WHERE {sql}"
                f" ORDER BY {spec.time} DESC NULLS LAST LIMIT %s",
                [*params, limit],
            )
            found += [item_of(kind, r) for r in rows]
        dated = sorted((i for i in found if i.at), key=lambda i: i.at, reverse=True)  # type: ignore[arg-type, return-value]
        if not dated:
            return []
        since = shifted(dated[0].at, timedelta(days=-days))  # type: ignore[type-var]
        return [i for i in dated if i.at >= since][:limit]  # type: ignore[operator]

    def items(self, kind: str, tenant: str, ids: Sequence[int]) -> list[Item]:
        if not ids:
            return []
        spec = _KINDS[kind]
        rows = self._rows(
            f"SELECT {spec.columns}, {spec.fact_columns} FROM {spec.table} x"
            " WHERE x.tenant = %s AND x.id = ANY(%s)",
            (tenant, list(ids)),
        )
        return [item_of(kind, r) for r in rows]


_CHECK_IDLE_SECONDS = 2.0
_NUMBERED_STATEMENTS = 256


def _check_if_idle(conn: psycopg.Connection[Any]) -> None:
    """Make sure a connection that sat idle still works before it is handed out (the
    server may have restarted meanwhile); one used a moment ago is trusted, as a round
    trip per statement doubled the time of a context."""
    used = getattr(conn, "_threefold_used", 0.0)
    if time.monotonic() - used > _CHECK_IDLE_SECONDS:
        with _uncounted(conn):
            ConnectionPool.check_connection(conn)


def _aligned(conn: psycopg.Connection[Any]) -> None:
    """Set the connection's tenant to the acting one, if another served it last. Like the
    pool's own statements, this is the connection's setup, not a wait of what it serves:
    on a loaded host the pool handed a search's second half a connection not yet set, and
    its one setting counted as a wait of the context."""
    with _uncounted(conn):
        align(conn)


@contextmanager
def _uncounted(conn: psycopg.Connection[Any]) -> Iterator[None]:
    """The pool's own statements (a new connection's settings, an idle one's check) are
    none of the store's: on a loaded host they came in the middle of a context, as the
    pool handed out a connection that had waited, and counted as its waits."""
    conn.cursor_factory = psycopg.Cursor
    try:
        yield
    finally:
        conn.cursor_factory = _CountingCursor


class _CountingCursor(psycopg.Cursor[Row]):
    """A cursor that counts the statements it sends, and the waits for their results, in
    its store's statements and round_trips; their strings' NULs go as the stand-in."""

    def execute(self, query: Any, params: Any = None, **kwargs: Any) -> "_CountingCursor":
        self._count()
        return super().execute(query, nul_free(params), **kwargs)

    def executemany(self, query: Any, params_seq: Any, **kwargs: Any) -> None:
        self._count()
        super().executemany(query, [nul_free(params) for params in params_seq], **kwargs)

    def _count(self) -> None:
        store = self.connection._threefold_store  # type: ignore[attr-defined]
        store.statements += 1
        if not getattr(self.connection, "_threefold_piped", False):
            store.round_trips += 1


class _CountingRawCursor(psycopg.RawCursor[Row], _CountingCursor):
    """A counting cursor for statements whose parameters are numbered ($1, $2, ...)."""


def _search_rows(conn: psycopg.Connection[Row], sql: str, params: list[Any]) -> list[Row]:
    """The rows of a search statement, prepared on its first run on the connection: not
    prepared, it was planned afresh (4 to 5 ms of the server's time) each of the five
    times psycopg runs a statement before it prepares it, on each connection, for each
    length of question."""
    return _CountingRawCursor(conn).execute(_numbered(sql), params, prepare=True).fetchall()


@lru_cache(maxsize=_NUMBERED_STATEMENTS)
def _numbered(sql: str) -> str:
    """`sql`, whose parameters are all positional (%s), with them numbered ($1, $2, ...)
    as PostgreSQL writes them. psycopg finds the %s of each statement it is given, but
    remembers only short statements': a search's halves, 12,000 characters each, took
    0.4 ms of the client's CPU each time; numbered, psycopg sends them as they are."""
    parts = sql.split("%s")
    if any("%" in part for part in parts):
        raise ValueError("only %s placeholders can be numbered")
    return "".join(f"{part}${n}" for n, part in enumerate(parts[:-1], start=1)) + parts[-1]


_STREAM_STATE = "SELECT * FROM streams WHERE tenant = %s AND name = %s"
_STREAM_NAMES = "SELECT name FROM streams WHERE tenant = %s ORDER BY name"
_WINDOW_TURNS = (
    "SELECT * FROM turns WHERE tenant = %s AND stream = %s ORDER BY seq DESC"
    # TurnWindow.size, from the stream's row: max(least, min(unsummarized turns, most)).
    " LIMIT greatest(%s, coalesce((SELECT least(turn_count - last_summarized_turn, %s)"
    " FROM streams WHERE tenant = %s AND name = %s), 0))"
)
_ACTIVE_SUMMARY = (
    "SELECT * FROM summaries WHERE tenant = %s AND stream = %s AND kind = 'active'"
    " ORDER BY id DESC LIMIT 1"
)
_NEWEST_STRUCTURED = (
    # The last of summaries(kind=structured), whose order is period_end NULLS FIRST, id.
    "SELECT * FROM summaries WHERE tenant = %s AND stream = %s AND kind = 'structured'"
    " ORDER BY period_end DESC NULLS LAST, id DESC LIMIT 1"
)
_SUPERSEDED = SUPERSEDED.replace("?", "%s")


def _pinned_sql(columns: str) -> str:
    return (
        f"SELECT {columns} FROM facts WHERE tenant = %s AND stream = ANY(%s)"
        " AND status = 'active' AND visibility = ANY(%s) AND confidence >= %s"
        " AND NOT (category = ANY(%s)) AND NOT (source_kind = ANY(%s))"
        # Of outside messages' facts, only those the rule lets pin (see ObservedPins).
        " AND (NOT EXISTS (SELECT 1 FROM unnest(%s::text[]) AS p(prefix)"
        " WHERE left(source_kind, length(p.prefix)) = p.prefix)"
        " OR (category = ANY(%s) AND confidence >= %s)) ORDER BY id DESC"
    )


def _pinned_params(tenant: str, streams: Sequence[str], policy: PinPolicy) -> list[Any]:
    return [
        tenant,
        list(streams),
        [v.value for v in policy.visibilities],
        policy.min_confidence,
        list(policy.skip_categories),
        list(policy.skip_sources),
        list(policy.observed.sources),
        list(policy.observed.categories),
        policy.observed.min_confidence,
    ]


def _stream_state(tenant: str, stream: str, row: Row | None) -> StreamState:
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


def _has_pgvector(conn: psycopg.Connection[Any]) -> bool:
    row = conn.execute("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'").fetchone()
    return row is not None


_PGVECTOR_SINCE = (0, 7)
"""The first pgvector with half-precision vectors (halfvec), which the graphs hold."""


def _old_pgvector(conn: psycopg.Connection[Any]) -> str | None:
    """The pgvector version the database has (or would get), where it is too old."""
    row = conn.execute(
        "SELECT coalesce((SELECT extversion FROM pg_extension WHERE extname = 'vector'),"
        " (SELECT default_version FROM pg_available_extensions WHERE name = 'vector'))"
    ).fetchone()
    version = str(row[0]) if row and row[0] else ""
    numbers = re.match(r"(\d+)\.(\d+)", version)
    if numbers is None or tuple(map(int, numbers.groups())) >= _PGVECTOR_SINCE:
        return None
    return version


def _speaking(speaker: str | None, text: str) -> str:
    return f"{speaker}: {text}" if speaker else text


# A turn's own words weigh 1 (A); the turn before it, indexed alongside for context, a
# quarter (D), as the SQLite store weighs them. ts_rank_cd takes weights as {D, C, B, A}.
_TURN_SEARCH = (
    f"setweight(to_tsvector('{TURN_CONFIG}', {TURN_WORDS}(own.own_user || E'\\n'"
    " || own.own_assistant)), 'A')"
    f" || setweight(to_tsvector('{TURN_CONFIG}', {TURN_WORDS}(coalesce(coalesce(p.speaker || ': ',"
    " '') || p.user_text || E'\\n' || p.assistant_text, ''))), 'D')"
)


_OWN_TEXT_KINDS = ("turn", "record")
"""The kinds whose items say words in the stream, as rare_words counts them."""

_ONE_COLUMN = "{1, 1, 1, 1}"
"""The weights of a kind indexed as one column: its words weigh 1, as in FTS5."""


class _KindSpec(NamedTuple):
    table: str
    config: str
    """The text search configuration: English stems for turns, plain words elsewhere."""
    columns: str
    """Selected as id, stream, text, at, visibility, source_kind, source_id, mentions."""
    time: str
    text: str
    weights: str
    """ts_rank_cd's weights of the labels {D, C, B, A}: FTS5's weights of the columns."""
    words: str
    """The function that reads the kind's words as FTS5 does, for texts and terms alike."""
    mentions: str = "1"
    fact_columns: str = "NULL::text AS category, NULL::bigint AS supersedes"
    """Selected after the columns (and a turn's speakers): what only facts have."""


_KINDS = {
    "turn": _KindSpec(
        "turns",
        TURN_CONFIG,
        "x.id, x.stream, x.user_text || E'\\n' || x.assistant_text AS text, x.at,"
        " x.visibility, 'turn' AS source_kind, x.id::text AS source_id, 1 AS mentions,"
        " x.speaker, x.assistant_speaker",
        "x.at",
        "x.user_text || E'\\n' || x.assistant_text",
        "{0.25, 0.25, 0.25, 1.0}",
        TURN_WORDS,
    ),
    "fact": _KindSpec(
        "facts",
        "simple",
        "x.id, x.stream, x.text, x.source_at AS at, x.visibility, x.source_kind, x.source_id,"
        " x.mention_count AS mentions",
        "x.source_at",
        "x.text",
        _ONE_COLUMN,
        WORDS,
        "x.mention_count",
        "x.category, x.supersedes",
    ),
    "summary": _KindSpec(
        "summaries",
        "simple",
        "x.id, x.stream, x.text, x.period_end AS at, x.visibility,"
        " 'summary.' || x.kind AS source_kind, x.id::text AS source_id, 1 AS mentions",
        "x.period_end",
        "x.text",
        _ONE_COLUMN,
        WORDS,
    ),
    "record": _KindSpec(
        "records",
        "simple",
        "x.id, x.stream, x.author || ': ' || x.text AS text, x.at, x.visibility,"
        " x.source || '.' || x.kind AS source_kind, x.id::text AS source_id, 1 AS mentions",
        "x.at",
        "x.text",
        _ONE_COLUMN,
        WORDS,
    ),
}

_COMMON_WORDS = (
    "SELECT s.tablename, array_agg(u.word) FILTER (WHERE u.freq * greatest("
    f"pg_stat_get_live_tuples(c.oid), c.reltuples) > {2 * (_SCORED + 1)}) AS words"
    " FROM pg_stats s JOIN pg_class c ON c.oid = to_regclass(quote_ident(s.tablename)),"
    " unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) AS u(word, freq)"
    " WHERE s.schemaname = current_schema() AND s.tablename = ANY(%s)"
    " AND s.attname = 'search' AND u.word IS NOT NULL GROUP BY s.tablename"
)
"""Each table's words that its statistics count in more than 2 * (_SCORED + 1) rows (the
table's rows estimated as _ranked_matches estimates them); the frequencies' array ends
with three more numbers than there are words, which unnest pairs with none."""

_UNEMBEDDED = (
    "SELECT 'turn' AS kind, t.id, coalesce(t.speaker || ': ', '') || t.user_text"
    " || E'\\n' || t.assistant_text AS text"
    " FROM turns t LEFT JOIN vectors v ON v.kind = 'turn' AND v.item_id = t.id"
    " WHERE t.tenant = %(t)s AND t.stream = %(s)s AND v.id IS NULL"
    " AND length(t.user_text) + length(t.assistant_text) >= %(min)s"
    " UNION ALL SELECT 'fact', f.id, f.text FROM facts f"
    " LEFT JOIN vectors v ON v.kind = 'fact' AND v.item_id = f.id"
    " WHERE f.tenant = %(t)s AND f.stream = %(s)s AND v.id IS NULL AND f.status = 'active'"
    " UNION ALL SELECT 'summary', s.id, s.text FROM summaries s"
    " LEFT JOIN vectors v ON v.kind = 'summary' AND v.item_id = s.id"
    " WHERE s.tenant = %(t)s AND s.stream = %(s)s AND v.id IS NULL"
    " AND s.kind IN ('session', 'weekly', 'monthly', 'slack')"
    " UNION ALL SELECT 'record', r.id, r.text FROM records r"
    " LEFT JOIN vectors v ON v.kind = 'record' AND v.item_id = r.id"
    " WHERE r.tenant = %(t)s AND r.stream = %(s)s AND v.id IS NULL"
    " AND length(r.text) >= %(min)s"
)
"""The stream's items that wait for a vector (see SQLiteStore.unembedded)."""


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


def _record_row(record: NewRecord, recorded: datetime) -> tuple[Any, ...]:
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
        record.at,
        record.route_method,
        record.route_confidence,
        record.visibility.value,
        record.tokens,
        record.processed,
        json.dumps(record.data, default=str),
        recorded,
    )


def _best_first(hit: tuple[int, float]) -> tuple[float, int]:
    """Full-text hits by score, ties by id: as SQLite's store orders them."""
    return -hit[1], hit[0]


def _ranked_matches(spec: _KindSpec, where_sql: str, terms: int) -> str:
    """Full-text search of up to `terms` terms in one statement. Its parameters: the
    table's figures as last found (TextLengths.params), the kind's common words, the
    terms, their known match counts (None: count here, up to _SCORED + 1), the filter's
    parameters twice, the limit. Its rows: the hits and the terms counted here (list
    'text'), and the figures found now (list 'lengths', a LENGTHS_ROW).

    The terms are taken rarest first (ties by code point, as Python sorts them) while their
    matches stay within _SCORED; the first is always taken. When even it matches more, the
    newest _SCORED matches are ranked. Rows with a term carry the counts made here, to be
    remembered; the others are the hits, best first and ties by id, as SQLite orders them.

    An item's rank is SQLite's FTS5 bm25(), reckoned as FTS5 does, in the same order of
    floating-point steps, so that the two stores rank alike: over the kept terms in their
    order, IDF (from the term's matches and the table's rows) times the term's weighted
    count f saturated by the row's length D (its words, kept in a column since 0009)
    against the average: f * (k1 + 1) / (f + k1 * (1 - b + b * D / avgdl)), with k1 = 1.2
    and b = 0.75. f is ts_rank_cd of the term alone, which over a term's covers (each
    occurrence of it) adds up the weights of their labels."""
    phrase = f"phraseto_tsquery('{spec.config}', {spec.words}(term))"
    # Places for the terms up to the next power of two: questions of nearby lengths share
    # the statement, and its prepared plan. A place past the terms adds 0.0.
    places = range(1, (1 << (terms - 1).bit_length()) + 1)
    # A term the row lacks adds FTS5's 0.0, and ts_rank_cd is the costly part: a row of an
    # OR query holds one or two of its terms. Each f is reckoned once, in a CTE of its
    # own: in an expression, PostgreSQL would reckon it again for each use.
    frequencies = ", ".join(
        f"CASE WHEN x.search @@ k.tq[{n}] THEN ts_rank_cd('{spec.weights}', x.search,"
        f" k.tq[{n}])::float8 ELSE 0::float8 END AS f{n}"
        for n in places
    )
    # The terms' scores added in their order, one after another, as FTS5 adds them: with
    # no sort per row, as an ordered sum() made. Places past the kept terms add 0.0.
    rank = " + ".join(
        f"coalesce(k.idf[{n}] * ((x.f{n} * (1.2::float8 + 1.0::float8)) / (x.f{n}"
        " + 1.2::float8 * (1::float8 - 0.75::float8 + 0.75::float8 * x.length"
        " / l.average))), 0::float8)"
        for n in places
    )
    found = f"SELECT x.id, x.search, x.words AS length FROM {spec.table} x, q WHERE x.search @@ q.q"
    # A word the statistics count among the column's most common, far more often than
    # _SCORED (the first parameter: PostgresStore._common_words_of), is taken to match
    # more than _SCORED rows without counting them: counting reads the word's whole
    # posting list (25,000 rows, 12 ms, at a million items). A memory too small to hold
    # such a word is counted exactly, as before.
    common = (
        "(SELECT w.lexemes[1] = ANY(%s::text[]) FROM"
        " (SELECT tsvector_to_array(to_tsvector("
        f"'{spec.config}', {spec.words}(term))) AS lexemes) w"
        " WHERE cardinality(w.lexemes) = 1)"
    )
    return f"""
        WITH {lengths_sql(spec.table)}, asked AS MATERIALIZED (
            SELECT term, known IS NULL AS counted, coalesce(known,
                CASE WHEN {common} THEN {_SCORED + 1} ELSE (SELECT count(*) FROM (SELECT 1
                FROM {spec.table} WHERE search @@ {phrase} LIMIT {_SCORED + 1}) m) END
            ) AS n
            FROM unnest(%s::text[], %s::int[]) AS a(term, known)
        ), placed AS (
            SELECT term, counted, n, row_number() OVER w AS place, sum(n) OVER w AS total
            FROM asked WINDOW w AS (ORDER BY n, term COLLATE "C")
        ), kept AS MATERIALIZED (
            SELECT place, total, tq, CASE WHEN idf > 0 THEN idf ELSE 1e-6::float8 END AS idf
            FROM (SELECT place, total, {phrase} AS tq, ln(((greatest(l.rows, n) - n)::float8
                + 0.5::float8) / (n::float8 + 0.5::float8)) AS idf
                FROM placed, lengths l WHERE place = 1 OR total <= {_SCORED}) p
        ), q AS (
            SELECT (string_agg('(' || tq::text || ')', ' | ' ORDER BY place)
                FILTER (WHERE numnode(tq) > 0))::tsquery AS q, max(total) AS matches
            FROM kept
        ), terms AS MATERIALIZED (
            SELECT array_agg(tq ORDER BY place) AS tq, array_agg(idf ORDER BY place) AS idf
            FROM kept WHERE numnode(tq) > 0
        ), found AS (
            {found} AND q.matches <= {_SCORED} AND {where_sql}
            UNION ALL ({found} AND q.matches > {_SCORED} AND {where_sql}
                ORDER BY x.id DESC LIMIT {_SCORED})
        ), tallied AS MATERIALIZED (
            SELECT x.id, x.length, {frequencies} FROM found x, terms k
        ), ranked AS (
            SELECT x.id, {rank} AS rank FROM tallied x, terms k, lengths l
        )
        SELECT 'text' AS list, NULL AS term, NULL::bigint AS n, id, rank FROM
            (SELECT id, rank FROM ranked ORDER BY rank DESC, id LIMIT %s) best
        UNION ALL SELECT 'text', term, n, NULL, NULL FROM placed WHERE counted
        UNION ALL SELECT 'lengths', NULL, n, id, rank FROM ({LENGTHS_ROW} FROM lengths) l
    """


def _nearest_sql(
    kind: str,
    where: ItemFilter,
    where_sql: str,
    where_params: list[Any],
    vector: np.ndarray,
    limit: int,
    *,
    exact: bool = False,
    crowded: bool = False,
) -> tuple[str, list[Any]]:
    """The `limit` items of `kind` passing the filter whose vectors are nearest to
    `vector` (item_id, cosine distance and `streamed`, in no set order), and its
    parameters.

    Every vector is scored, and the true nearest found, where that costs a few
    milliseconds: with `exact`; where the streams `where` names hold fewer than
    _EXACT_BELOW vectors of the kind (counted here, up to that many, unless `crowded` says
    they were lately seen holding more; the count is each row's `streamed`, None where not
    counted), unless they hold _GRAPH_FROM or more and at least half of the graph's; or
    where the database holds fewer than _GRAPH_FROM vectors of the kind (as its HNSW
    index last counted them). Otherwise pgvector's HNSW index of the dimension walks them
    nearest first, which over near-random vectors often misses the true nearest, and for a
    stream that holds few of the kind's vectors walks far: a context on a stream of 200
    items beside one of a million read some 150,000 buffers per kind while its iterative
    scan looked for vectors that pass the filter."""
    dim = int(vector.shape[0])
    table = _KINDS[kind].table
    tenant = where_params[0]  # _filter_sql's first clause names the tenant
    # The kind and dimension are written out, to match their partial index.
    vectors = f"vectors v WHERE v.kind = '{kind}' AND v.dim = {dim} AND v.tenant = %s"
    distance = f"(v.embedding::vector({dim})) <=> %s::vector({dim}) AS distance"
    # The filter is a subquery that OFFSET 0 keeps from being made a join: as a join, the
    # planner misjudged how many rows pass and scored every fact's vector through a scan
    # (27 ms at 100k items, against 2 ms through the graph).
    passes = f"EXISTS (SELECT FROM {table} x WHERE x.id = {{}}.item_id AND {where_sql} OFFSET 0)"

    def scan(source: str = "", source_params: Sequence[Any] = ()) -> tuple[str, list[Any]]:
        """Every vector of `source` (rows of item_id and distance; by default, all of the
        tenant's kind) sorted whole, then filtered lazily: only the nearest few are looked
        up."""
        if not source:
            source, source_params = f"SELECT v.item_id, {distance} FROM {vectors}", [vector, tenant]
        return (
            f"SELECT item_id, distance FROM (SELECT * FROM ({source} OFFSET 0) every"
            f" ORDER BY distance, item_id) ordered WHERE {passes.format('ordered')} LIMIT %s"
        ), [*source_params, *where_params, limit]

    if exact:
        everything, params = scan()
        return f"SELECT *, NULL::bigint AS streamed FROM ({everything}) exact", params
    if kind in _NAMED_KINDS and names_indexed(where.about):
        # A person's items, found by their full-text index and scored exactly (see
        # VectorIndex._named): the graph's walk by the question reaches few of them.
        named, named_params = _named_items_sql(kind, where, where_sql, where_params, NAMED_MOST)
        source = f"SELECT v.item_id, {distance} FROM {vectors} AND v.item_id IN ({named})"
        rows, params = scan(source, [vector, tenant, *named_params])
        return f"SELECT *, NULL::bigint AS streamed FROM ({rows}) named", params
    in_graph = (
        f"coalesce((SELECT reltuples FROM pg_class WHERE oid"
        f" = to_regclass('{graph_index(dim, kind)}')), 0)"
    )
    small = f"{in_graph} < {_GRAPH_FROM}"
    # The graph walks half-precision vectors, nearest first by their distance; the
    # candidates it finds carry their float32 distance, by which the caller ranks them.
    graph = (
        f"SELECT v.item_id, {distance} FROM {vectors} AND {passes.format('v')}"
        f" AND NOT {small} AND NOT {{few}}"
        f" ORDER BY (v.embedding::halfvec({dim})) <=> %s::halfvec({dim}) LIMIT %s"
    )
    graph_params = [vector, tenant, *where_params, vector, limit]
    everything, everything_params = scan()
    branches = f"({graph}) UNION ALL (SELECT * FROM ({everything}) exact WHERE {small}"
    if where.streams is None:
        sql = f"{branches.format(few='false')})"
        return f"SELECT *, NULL::bigint AS streamed FROM ({sql}) found", [
            *graph_params,
            *everything_params,
        ]
    counted, count_params, source, source_params = _streams_vectors(
        kind, dim, tenant, list(where.streams), vector
    )
    streams_only, streams_params = scan(source, source_params)
    # Streams that hold most of the graph's vectors pass most of what its walk meets, so
    # the walk costs what an unfiltered one does: a scan of them all would cost more.
    few = (
        f"coalesce((SELECT n < {_EXACT_BELOW} AND NOT (n >= {_GRAPH_FROM}"
        f" AND n * 2 >= {in_graph}) FROM streamed), false)"
    )
    sql = (
        "WITH streamed AS MATERIALIZED (SELECT CASE WHEN %s THEN NULL ELSE"
        f" (SELECT count(*) FROM ({counted}) counted) END AS n)"
        f" SELECT *, (SELECT n FROM streamed) AS streamed FROM ("
        f"{branches.format(few=few)} AND NOT {few})"
        f" UNION ALL (SELECT * FROM ({streams_only}) exact_within WHERE {few})) found"
    )
    return sql, [
        crowded,
        *count_params,
        *graph_params,
        *everything_params,
        *streams_params,
    ]


_NAMED_KINDS = ("turn", "fact", "summary")
"""The kinds whose full-text index holds every name ItemFilter.about reads: a turn's
speakers are in its own words. A record's author is not indexed."""


def _named_items_sql(
    kind: str, where: ItemFilter, where_sql: str, where_params: list[Any], most: int
) -> tuple[str, list[Any]]:
    """The ids of the newest `most` items of `kind` passing the filter that name each of
    `where.about` as words, through the full-text index, and its parameters."""
    spec = _KINDS[kind]
    words = " AND ".join(
        f"x.search @@ phraseto_tsquery('{spec.config}', {spec.words}(%s))" for _ in where.about
    )
    return (
        f"SELECT x.id FROM {spec.table} x WHERE {words} AND {where_sql}"
        " ORDER BY x.id DESC LIMIT %s",
        [*where.about, *where_params, most],
    )


def _streams_vectors(
    kind: str, dim: int, tenant: str, streams: list[str], vector: np.ndarray
) -> tuple[str, list[Any], str, list[Any]]:
    """The vectors of `kind` in `streams` (records filed there by a link too): a statement
    whose rows count them, up to _EXACT_BELOW, and one of their item_id and distance to
    `vector`, each with its parameters. Each part is read through an index: an OR of the
    streams and the links made the planner read every vector."""
    vectors = f"vectors v WHERE v.kind = '{kind}' AND v.dim = {dim} AND v.tenant = %s"
    distance = f"(v.embedding::vector({dim})) <=> %s::vector({dim}) AS distance"
    linked = (
        f"SELECT {{}} FROM record_streams l JOIN vectors v ON v.kind = '{kind}'"
        f" AND v.item_id = l.record_id AND v.dim = {dim} AND v.tenant = l.tenant"
        " WHERE l.tenant = %s AND l.stream = ANY(%s)"
    )
    # Counted from the index alone: the dimension is in no index on the streams.
    counted = (
        f"SELECT 1 FROM (SELECT 1 FROM vectors v WHERE v.kind = '{kind}' AND v.tenant = %s"
        f" AND v.stream = ANY(%s) LIMIT {_EXACT_BELOW}) home"
    )
    # In the order of the index on streams, and no more than counted: a generic plan takes
    # the streams for most of the table (the busy one is) and chose to read all of it.
    source = (
        f"SELECT v.item_id, {distance} FROM {vectors} AND v.stream = ANY(%s)"
        f" ORDER BY v.stream, v.id LIMIT {_EXACT_BELOW}"
    )
    count_params: list[Any] = [tenant, streams]
    source_params: list[Any] = [vector, tenant, streams]
    if kind == "record":
        counted += f" UNION ALL SELECT 1 FROM ({linked.format('1')} LIMIT {_EXACT_BELOW}) filed"
        source = f"({source}) UNION ({linked.format(f'v.item_id, {distance}')})"
        count_params += [tenant, streams]
        source_params += [vector, tenant, streams]
    return counted, count_params, source, source_params


def _streams_key(kind: str, where: ItemFilter) -> tuple[str, str, tuple[str, ...]]:
    return (where.tenant, kind, tuple(sorted(where.streams or ())))


def _with_items(
    pieces: Sequence[tuple[str, list[Any]]], tenant: str, kinds: Sequence[str]
) -> tuple[str, list[Any]]:
    """The searches of `pieces` (rows of probe, kind, list, term, n, id, score) run as one
    statement, followed by a row of each item they found (list 'item'), read by id, with
    the columns _item reads. A 'lengths' row's id is a table's highest, not an item."""
    found = " UNION ALL ".join(f"({sql})" for sql, _ in pieces)
    params = [value for _, piece_params in pieces for value in piece_params]
    selects = [
        "SELECT probe, kind, list, term, n, score, id, NULL::text AS stream, NULL::text AS text,"
        " NULL::timestamptz AS at, NULL::text AS visibility, NULL::text AS source_kind,"
        " NULL::text AS source_id, NULL::bigint AS mentions, NULL::text AS speaker,"
        " NULL::text AS assistant_speaker, NULL::text AS category, NULL::bigint AS supersedes"
        " FROM found"
    ]
    for kind in dict.fromkeys(kinds):
        spec = _KINDS[kind]
        speakers = "" if kind == "turn" else ", NULL, NULL"
        selects.append(
            f"SELECT NULL, '{kind}', 'item', NULL, NULL, NULL, {spec.columns}{speakers},"
            f" {spec.fact_columns}"
            f" FROM {spec.table} x WHERE x.tenant = %s AND x.id = ANY(ARRAY("
            f"SELECT id FROM found WHERE kind = '{kind}' AND list <> 'lengths'"
            " AND id IS NOT NULL))"
        )
        params.append(tenant)
    sql = f"WITH found AS MATERIALIZED ({found}) " + " UNION ALL ".join(selects)
    return sql, params


_SAID_BY = {
    "turn": "coalesce(x.speaker, '') || E'\\n' || coalesce(x.assistant_speaker, '')",
    "record": "x.author",
}
"""The column naming who said an item, for kinds that have one (see ItemFilter.about)."""


def _contains(column: str) -> str:
    """This dialect's test that `column`'s lowercase text holds one parameter."""
    return f"strpos(lower({column}), %s) > 0"


def _filter_sql(kind: str, where: ItemFilter) -> tuple[str, list[Any]]:
    spec = _KINDS[kind]
    clauses = ["x.tenant = %s"]
    params: list[Any] = [where.tenant]

    def within(column: str, values: Sequence[Any]) -> None:
        clauses.append(f"{column} = ANY(%s)" if values else "false")
        if values:
            params.append(list(values))

    if where.streams is not None and kind == "record":
        clauses.append(
            "(x.stream = ANY(%s) OR x.id IN (SELECT record_id FROM record_streams"
            " WHERE tenant = x.tenant AND stream = ANY(%s)))"
        )
        params.extend([list(where.streams), list(where.streams)])
    elif where.streams is not None:
        within("x.stream", where.streams)
    within("x.visibility", [v.value for v in where.visibilities])
    if where.since is not None:
        clauses.append(f"{spec.time} >= %s")
        params.append(where.since)
    if where.until is not None:
        clauses.append(f"{spec.time} <= %s")
        params.append(where.until)
    named, names = name_clauses(where.people, where.about, spec.text, _SAID_BY.get(kind), _contains)
    clauses += named
    params += names
    if where.categories is not None and kind != "fact":
        clauses.append("false")  # a category is a fact's: other kinds have none to match
    if kind == "fact":
        if where.active_facts_only:
            clauses.append("x.status = 'active'")
        if where.categories is not None:
            within("x.category", where.categories)
        if where.exclude_facts:
            clauses.append("NOT (x.id = ANY(%s))")
            params.append(sorted(where.exclude_facts))
    if kind == "summary":
        within("x.kind", [k.value for k in where.summary_kinds])
    if kind == "turn" and where.turns_before_seq is not None:
        clauses.append("x.seq < %s")
        params.append(where.turns_before_seq)
    return " AND ".join(clauses), params


_ISSUE_KEY_TERM = re.compile(r"[a-z][a-z0-9]*\s\d+")


def _tsquery_term(term: str) -> str:
    """A term as PostgreSQL's parser reads it: the issue key "el 5" is written "el-5",
    since the parser reads "EL-5" as "el" and the signed number "-5"."""
    return term.replace(" ", "-") if _ISSUE_KEY_TERM.fullmatch(term) else term


__all__ = ["PostgresStore", "StoreUnavailable"]


def _vector_bytes(vector: Any) -> bytes:
    """A pgvector value as the float32 bytes the vector index reads."""
    return np.asarray(vector.to_numpy(), dtype=np.float32).tobytes()


@lru_cache(maxsize=256)
def _psycopg_marks(sql: str) -> str:
    """A shared statement (statements.py, `?` marks) as psycopg takes it."""
    return sql.replace("?", "%s")
