"""The façade: one Memory over a store, a model and settings."""

import re
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Self

from memstrata import pipeline
from memstrata.context import Material, assemble
from memstrata.errors import InvalidInput
from memstrata.facts import OutdatedStatements, fact_chain
from memstrata.jobs import EXTRACT, REFRESH, SUMMARIZE, BackgroundWorker, JobRunner
from memstrata.models.base import MemoryModel
from memstrata.settings import Settings, load_settings
from memstrata.store.base import NewTurn, Store
from memstrata.tokens import count_tokens
from memstrata.types import (
    DEFAULT_TENANT,
    GLOBAL_STREAM,
    Context,
    DroppedItem,
    Fact,
    FactHistory,
    SourceRef,
    Stream,
    Summary,
    SummaryKind,
    Turn,
    as_utc,
    check_stream,
    check_tenant,
    utcnow,
)

_WORD = re.compile(r"\w{3,}")
_RETRIEVE_LIMIT = 5


class Memory:
    """Long-term memory for one or more tenants' streams.

    Build it with `Memory.open(path)`; the constructor takes ready-made parts.
    """

    def __init__(
        self,
        store: Store,
        model: MemoryModel,
        settings: Settings,
        *,
        tenant: str = DEFAULT_TENANT,
        background_worker: bool | None = None,
    ) -> None:
        self.store = store
        self.model = model
        self.settings = settings
        self.tenant = check_tenant(tenant)
        self.runner = JobRunner(
            store,
            pipeline.handlers(store, model, settings),
            attempts=settings.job_attempts,
            backoff=settings.job_backoff_seconds,
            backoff_max=settings.job_backoff_max_seconds,
            lease_seconds=settings.stream_lease_seconds,
        )
        self._owns_model = False
        use_worker = settings.background_worker if background_worker is None else background_worker
        self._worker = BackgroundWorker(self.runner) if use_worker else None
        if self._worker:
            self._worker.start()
            self._worker.wake()  # work left by an earlier process

    @classmethod
    def open(
        cls,
        path: str | Path | None = None,
        *,
        settings: Settings | None = None,
        model: MemoryModel | None = None,
        tenant: str = DEFAULT_TENANT,
        background_worker: bool | None = None,
    ) -> Self:
        """A memory on the SQLite file `path` (default: settings.db), heuristic model unless
        settings say otherwise."""
        from memstrata.models import build_model
        from memstrata.store import SQLiteStore

        settings = settings or load_settings()
        if path is not None:
            settings = settings.model_copy(update={"db": Path(path)})
        chosen = model or build_model(settings.model)
        memory = cls(
            SQLiteStore(settings.db),
            chosen,
            settings,
            tenant=tenant,
            background_worker=background_worker,
        )
        memory._owns_model = model is None  # what open() built, close() closes
        return memory

    # -- writing --------------------------------------------------------------

    def add_turn(
        self,
        stream: str,
        user: str | bytes = "",
        assistant: str | bytes = "",
        *,
        at: datetime | None = None,
        page_context: str | None = None,
        model_variant: str | None = None,
        source: str = "conversation",
        tenant: str | None = None,
    ) -> Turn:
        """Store a turn verbatim and queue the work that follows it. Returns at once."""
        tenant = self._tenant(tenant)
        check_stream(stream)
        user_text = self._text(user, "user")
        assistant_text = self._text(assistant, "assistant")
        if not (user_text.strip() or assistant_text.strip()):
            raise InvalidInput("a turn needs some user or assistant text; both are empty")
        if at is not None and not isinstance(at, datetime):
            raise InvalidInput(f"at must be a datetime, got {type(at).__name__}")
        page_context = self._text(page_context, "page_context") or None
        model_variant = self._text(model_variant, "model_variant") or None
        source = self._text(source, "source") or "conversation"
        new = NewTurn(
            tenant=tenant,
            stream=stream,
            user=user_text,
            assistant=assistant_text,
            at=as_utc(at) if at else utcnow(),
            page_context=page_context,
            model_variant=model_variant,
            source=source,
            tokens=count_tokens(user_text) + count_tokens(assistant_text),
        )
        with self.store.transaction():
            turn = self.store.insert_turn(new)
            self.store.enqueue(tenant, stream, EXTRACT, {"turn_id": turn.id})
            self._maybe_enqueue_summary(tenant, stream, turn.seq)
        self._wake()
        return turn

    def end_session(self, stream: str, *, tenant: str | None = None) -> None:
        """Summarize whatever the summaries do not cover yet."""
        tenant = self._tenant(tenant)
        check_stream(stream)
        with self.store.transaction():
            state = self.store.stream_state(tenant, stream)
            if state.turn_count > state.summary_enqueued_through:
                self._enqueue_summary(tenant, stream, state.turn_count)
        self._wake()

    def refresh(self, stream: str, *, tenant: str | None = None) -> Summary | None:
        """Rebuild the active summary from roll-ups and session summaries, now."""
        tenant = self._tenant(tenant)
        check_stream(stream)
        self.store.enqueue(tenant, stream, REFRESH, {})
        self.runner.run_pending(tenant)
        return self.store.active_summary(tenant, stream)

    def process_pending(self, *, tenant: str | None = None) -> int:
        """Run every queued job that is due now; returns how many this call ran."""
        return self.runner.run_pending(tenant)

    # -- reading --------------------------------------------------------------

    def context(
        self,
        stream: str,
        query: str = "",
        budget: int | None = None,
        *,
        tenant: str | None = None,
    ) -> Context:
        """Facts, summary, recent turns and relevant older material within `budget` tokens."""
        tenant = self._tenant(tenant)
        check_stream(stream)
        budget = self.settings.prompt_budget if budget is None else budget
        if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
            raise InvalidInput(f"budget must be a positive whole number of tokens, got {budget!r}")
        query = self._text(query, "query")
        material = self._material(tenant, stream, query)
        return assemble(tenant, stream, query, budget, material)

    def facts(
        self, stream: str, *, include_inactive: bool = False, tenant: str | None = None
    ) -> list[Fact]:
        """Layer 1 of `stream`, newest first."""
        check_stream(stream)
        return self.store.facts(self._tenant(tenant), stream, include_inactive=include_inactive)

    def fact(self, fact_id: int, *, tenant: str | None = None) -> Fact:
        return self.store.fact(self._tenant(tenant), fact_id)

    def fact_history(self, fact_id: int, *, tenant: str | None = None) -> FactHistory:
        """The fact, every version of its slot it is linked to, and what happened to each."""
        tenant = self._tenant(tenant)
        chain = fact_chain(self.store, tenant, fact_id)
        changes = self.store.fact_changes(tenant, [f.id for f in chain])
        return FactHistory(
            fact=next(f for f in chain if f.id == fact_id),
            chain=tuple(chain),
            changes=tuple(changes),
        )

    def summaries(
        self, stream: str, kind: SummaryKind | str | None = None, *, tenant: str | None = None
    ) -> list[Summary]:
        check_stream(stream)
        wanted = SummaryKind(kind) if kind is not None else None
        return self.store.summaries(self._tenant(tenant), stream, wanted)

    def turns(
        self, stream: str, limit: int | None = None, *, tenant: str | None = None
    ) -> list[Turn]:
        """The stream's turns, oldest first; with `limit`, only the newest `limit`."""
        check_stream(stream)
        return self.store.turns(self._tenant(tenant), stream, last=limit)

    def streams(self, *, tenant: str | None = None) -> list[Stream]:
        """The tenant's streams, by name, with their turn count and chunk cursor."""
        tenant = self._tenant(tenant)
        states = (self.store.stream_state(tenant, name) for name in self.store.streams(tenant))
        return [
            Stream(
                tenant=tenant, name=s.name, turn_count=s.turn_count,
                last_summarized_turn=s.last_summarized_turn,
            )
            for s in states
        ]  # fmt: skip

    # -- lifecycle ------------------------------------------------------------

    def close(self) -> None:
        if self._worker:
            self._worker.stop()
        self.store.close()
        close_model = getattr(self.model, "close", None)
        if self._owns_model and close_model is not None:
            close_model()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    # -- inside ---------------------------------------------------------------

    def _tenant(self, tenant: str | None) -> str:
        return self.tenant if tenant is None else check_tenant(tenant)

    def _wake(self) -> None:
        if self._worker:
            self._worker.wake()

    def _text(self, value: str | bytes | None, field: str) -> str:
        if value is None:
            return ""
        if isinstance(value, bytes):
            try:
                value = value.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise InvalidInput(
                    f"{field} is not valid UTF-8 (bad byte at {exc.start})"
                ) from None
        if not isinstance(value, str):
            raise InvalidInput(f"{field} must be text, got {type(value).__name__}")
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise InvalidInput(
                f"{field} holds a character that is not valid Unicode text at {exc.start}"
            ) from None
        if len(value) > self.settings.max_turn_chars:
            raise InvalidInput(
                f"{field} is {len(value):,} characters, over max_turn_chars "
                f"({self.settings.max_turn_chars:,}); split it into several turns"
            )
        return value

    def _maybe_enqueue_summary(self, tenant: str, stream: str, seq: int) -> None:
        state = self.store.stream_state(tenant, stream)
        waiting = seq - state.summary_enqueued_through
        if (
            waiting >= self.settings.session_turns
            or state.unsummarized_tokens >= self.settings.chunk_summarize_tokens
        ):
            self._enqueue_summary(tenant, stream, seq)

    def _enqueue_summary(self, tenant: str, stream: str, through: int) -> None:
        self.store.enqueue(tenant, stream, SUMMARIZE, {"through": through})
        self.store.mark_summary_enqueued(tenant, stream, through)

    def _material(self, tenant: str, stream: str, query: str) -> Material:
        state = self.store.stream_state(tenant, stream)
        pin = self.settings.pin_min_confidence
        k, n = self.settings.recent_turns, self.settings.session_turns
        # Turns the summary does not cover yet stay in view, so none falls between layers.
        window = max(k, min(state.turn_count - state.last_summarized_turn, k + 2 * n))
        turns = self.store.turns(tenant, stream, last=window) if window else []
        first_recent = turns[0].seq if turns else state.turn_count + 1
        outdated = OutdatedStatements(self.store, tenant, stream)
        summary, removed = _without_outdated(self.store.active_summary(tenant, stream), outdated)
        return Material(
            stream_facts=self._pinned(tenant, stream, pin),
            global_facts=self._pinned(tenant, GLOBAL_STREAM, pin)
            if stream != GLOBAL_STREAM
            else [],
            summary=summary,
            turns=turns,
            retrieved=self._retrieve(tenant, stream, query, first_recent, outdated),
            removed=removed,
        )

    def _pinned(self, tenant: str, stream: str, pin: float) -> list[Fact]:
        return [f for f in self.store.facts(tenant, stream) if f.confidence >= pin]

    def _retrieve(
        self,
        tenant: str,
        stream: str,
        query: str,
        before_seq: int,
        outdated: OutdatedStatements,
    ) -> list[tuple[str, SourceRef]]:
        """Older turns that share words with the query (plain BM25 for now)."""
        words = list(dict.fromkeys(w.lower() for w in _WORD.findall(query)))[:16]
        if not words:
            return []
        match = " OR ".join(f'"{w}"' for w in words)
        hits = self.store.search_turns(
            tenant, stream, match, before_seq=before_seq, limit=_RETRIEVE_LIMIT
        )
        return [(_turn_line(t, outdated), t.ref()) for t in sorted(hits, key=lambda t: t.seq)]


def _turn_line(turn: Turn, outdated: OutdatedStatements) -> str:
    parts = [
        f"User: {turn.user}" if turn.user else "",
        f"Assistant: {turn.assistant}" if turn.assistant else "",
    ]
    line = " ".join(p for p in parts if p)
    now = outdated.replacements(line) if outdated else []
    return f"{line} (outdated; now: {_joined(now)})" if now else line


def _without_outdated(
    summary: Summary | None, outdated: OutdatedStatements
) -> tuple[Summary | None, list[DroppedItem]]:
    """The summary less its lines that state superseded facts as current."""
    if summary is None or not outdated:
        return summary, []
    kept, removed = [], []
    for line in summary.text.splitlines():
        now = outdated.replacements(line)
        if not now:
            kept.append(line)
            continue
        removed.append(
            DroppedItem(
                section="summary",
                source=summary.ref(),
                tokens=count_tokens(line),
                reason=f"states a superseded fact; now: {_joined(now)}",
            )
        )
    if not removed:
        return summary, []
    text = "\n".join(kept)
    return summary.model_copy(update={"text": text, "tokens": count_tokens(text)}), removed


def _joined(facts: list[Fact]) -> str:
    return " ".join(f.text for f in facts)
