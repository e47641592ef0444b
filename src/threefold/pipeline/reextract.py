"""Reading a stream's raw material again for facts: its turns and its messages.

A refresh does this, so that what a better model or newer rules find in old material
reaches layer 1. A fact read before from the same turn or message, whatever became of it
since (superseded, retracted, moved), is not stored again: history stays as it was, and
only what is new is recorded, through the same reconciliation as a first reading.
"""

from collections.abc import Iterable

from threefold.context.staleness import says_change
from threefold.domain import Fact, SourceRef, Turn, Visibility
from threefold.layers.dated_plans import with_dates
from threefold.layers.facts import record_fact
from threefold.layers.one_turn import as_read
from threefold.layers.shape import is_misshapen
from threefold.layers.summaries import turn_input
from threefold.models.base import (
    ExtractedFact,
    MemoryModel,
    Standing,
    TurnBatchReader,
    TurnInput,
    offline_model,
)
from threefold.settings import Settings
from threefold.sources.digest import message_facts, thread_starts
from threefold.store.base import Store
from threefold.trust.writes import OWNER, Author, capped_fact

_BATCH = 200


def reextract(
    store: Store, model: MemoryModel, settings: Settings, tenant: str, stream: str
) -> int:
    """Facts new to the stream found again in its turns and messages; returns how many."""
    known = {_known(fact) for fact in store.facts(tenant, stream, include_inactive=True)}
    added = _from_turns(store, model, settings, tenant, stream, known)
    return added + _from_records(store, model, settings, tenant, stream, known)


_Key = tuple[str, str, str, str]


def _known(fact: Fact) -> _Key:
    return _key(fact.source, fact.slot, fact.value)


def _key(source: SourceRef, slot: str, value: str) -> _Key:
    return (source.kind, source.id, slot.casefold(), " ".join(value.casefold().split()))


def _from_turns(
    store: Store,
    model: MemoryModel,
    settings: Settings,
    tenant: str,
    stream: str,
    known: set[_Key],
) -> int:
    added, last = 0, store.stream_state(tenant, stream).turn_count
    before: Turn | None = None
    for after in range(0, last, _BATCH):
        told: list[tuple[Turn, TurnInput]] = []
        for turn in store.turns(tenant, stream, after_seq=after, through_seq=after + _BATCH):
            # the turn it answers, unless that one was erased (a gap in the seqs)
            answered = before if before and before.seq == turn.seq - 1 else None
            before = turn
            told.append((turn, turn_input(turn, answered=answered)))
        for run in _runs(told, settings.model.batch_turns):
            for (turn, said), read in zip(run, _read(model, [t for _, t in run]), strict=True):
                writer = Author(turn.writer_trust, turn.writer_key)
                # a reading only sure enough to update a held slot adds nothing here
                every = as_read(read, every_value=said.repair or says_change(turn.user))
                found = [
                    capped_fact(item, writer, settings.writes)
                    for item in _dated(model, every, turn)
                    if item.standing is Standing.FACT and not is_misshapen(item)
                ]
                with store.transaction():
                    added += _record_new(
                        store, tenant, stream, found, turn.ref(), known, turn.visibility, writer
                    )
    return added


def _dated(model: MemoryModel, read: list[ExtractedFact], turn: Turn) -> list[ExtractedFact]:
    """`read` with each plan keeping its sentence's date, as extraction keeps it where the
    facts are read offline (pipeline.handlers)."""
    return with_dates(read, turn.user, turn.at) if offline_model(model) is model else read


def _runs(told: list[tuple[Turn, TurnInput]], size: int) -> Iterable[list[tuple[Turn, TurnInput]]]:
    """Consecutive turns of one writer and visibility, at most `size` at a time: what
    one batched read may hold (see Pipeline._waiting_after)."""
    run: list[tuple[Turn, TurnInput]] = []
    for turn, said in told:
        if run:
            last = run[-1][0]
            same = (last.writer_trust, last.writer_key, last.visibility, last.seq + 1) == (
                turn.writer_trust,
                turn.writer_key,
                turn.visibility,
                turn.seq,
            )
            if not same or len(run) >= size:
                yield run
                run = []
        run.append((turn, said))
    if run:
        yield run


def _read(model: MemoryModel, turns: list[TurnInput]) -> list[list[ExtractedFact]]:
    if len(turns) > 1 and isinstance(model, TurnBatchReader):
        return model.extract_turns(turns)
    return [model.extract_facts(turn) for turn in turns]


def _from_records(
    store: Store,
    model: MemoryModel,
    settings: Settings,
    tenant: str,
    stream: str,
    known: set[_Key],
) -> int:
    added, records = 0, store.records(tenant, stream)
    own = [r for r in records if r.stream == stream and r.source == "slack"]
    for start in range(0, len(own), _BATCH):
        batch = own[start : start + _BATCH]
        with store.transaction():
            starts = thread_starts(store, tenant, batch)
            for record, fact in message_facts(model, settings, batch, starts):
                added += _record_new(
                    store, tenant, stream, [fact], record.ref(), known, record.visibility
                )
    return added


def _record_new(
    store: Store,
    tenant: str,
    stream: str,
    found: Iterable[ExtractedFact],
    source: SourceRef,
    known: set[_Key],
    visibility: Visibility,
    writer: Author | None = None,
) -> int:
    added = 0
    for item in found:
        key = _key(source, item.slot, item.value)
        if key in known:
            continue
        known.add(key)
        record_fact(
            store, tenant, stream, item, source, visibility=visibility, writer=writer or OWNER
        )
        added += 1
    return added
