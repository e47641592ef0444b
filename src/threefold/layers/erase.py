"""Forgetting one fact, and erasing content for privacy requests.

`forget` is soft: the fact is retracted, stays in its history and leaves every context.
`erase` is hard: the content of matching turns, records, facts and summaries goes, with
its full-text entries and vectors; summaries that quoted it lose those lines; an audit
row records what was asked and how much went, without the content.
"""

import hashlib
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from threefold import entities
from threefold.domain import USER_WORDS, ErasureReport, Fact, FactStatus
from threefold.errors import InvalidInput, NotFound
from threefold.store.base import ErasedIds, Store

_QUOTED_CHARS = 80
"""How much of an erased sentence is looked for in summaries: enough to tell it apart."""
_MIN_QUOTE_CHARS = 15


def forget(store: Store, tenant: str, fact_id: int, reason: str = "") -> Fact:
    """Retract one fact; raises NotFound for an id the tenant does not have."""
    with store.transaction():
        fact = store.fact(tenant, fact_id)
        store.set_fact_status(tenant, fact.id, FactStatus.RETRACTED)
        store.add_fact_change(
            fact.id,
            "FORGET",
            note=reason or "forgotten",
            before=fact.model_dump(mode="json", include={"status"}),
            after={"status": FactStatus.RETRACTED.value},
        )
        return store.fact(tenant, fact_id)


def erase(
    store: Store,
    tenant: str,
    *,
    stream: str | None = None,
    entity: str | None = None,
    fact_id: int | None = None,
) -> ErasureReport:
    """Erase a whole stream, everything by or about one person, or one fact."""
    if sum(x is not None for x in (stream, entity, fact_id)) != 1:
        raise InvalidInput("erase takes exactly one of stream, entity or fact_id")
    with store.transaction():
        if stream is not None:
            report = _erase_stream(store, tenant, stream)
        elif entity is not None:
            report = _erase_person(store, tenant, entity)
        else:
            assert fact_id is not None
            report = _erase_fact(store, tenant, fact_id)
    store.announce_erased(tenant, report.streams)
    return report


def erase_record(
    store: Store, tenant: str, source: str, channel: str, external_id: str
) -> ErasureReport | None:
    """Erase one stored record (a Slack message its author deleted or edited) and the
    active facts read from it; None if no such record is stored."""
    with store.transaction():
        record_id = store.record_id(tenant, source, channel, external_id)
        if record_id is None:
            return None
        record = store.record(tenant, record_id)
        facts = store.facts_from(tenant, record.stream, record.ref())
        ids = ErasedIds(records=[record_id], facts=[f.id for f in facts], streams=[record.stream])
        target = {"record": f"{source}:{channel}:{external_id}"}
        report = _apply(store, tenant, ids, target, quoted=[f.text for f in facts])
    store.announce_erased(tenant, report.streams)
    return report


def _erase_stream(store: Store, tenant: str, stream: str) -> ErasureReport:
    if not store.stream_state(tenant, stream).exists:
        raise NotFound(f"no stream {stream}")
    ids = store.erasable_ids(tenant, streams=[stream])
    store.drop_pending_jobs(tenant, stream)
    return _apply(store, tenant, ids, {"stream": stream}, quoted=None)


def _erase_person(store: Store, tenant: str, name: str) -> ErasureReport:
    key = entities.resolve(store, tenant, name)
    if not key:
        raise InvalidInput("name the person to erase")
    if key in USER_WORDS:
        # "user" is each stream's own speaker, not one person: erasing it tenant-wide
        # would erase every user's facts at once.
        raise InvalidInput(
            f"{name!r} is the speaker of each stream, not one person: erase that user's "
            "stream (erase(stream=...)), or name them"
        )
    # Only aliases that mean this person alone: "lena" may also be another Lena.
    names = sorted(
        {
            key,
            *(
                a
                for a in store.entity_aliases(tenant, key)
                if store.entities_named(tenant, a) == [key]
            ),
        }
    )
    # Whoever wrote it: what others said of them, and, in a stream whose user gave this
    # name as their own, everything that user said (their turns need no speaker=).
    ids = store.erasable_ids(tenant, speakers=names, subjects=[key], users_named=names)
    if not (ids.streams or store.entities_named(tenant, key)):
        raise NotFound(f"nothing by or about {name!r}")
    target = {"entity": hashlib.sha256(key.encode()).hexdigest()[:16]}
    report = _apply(store, tenant, ids, target, quoted=names)
    store.delete_entity(tenant, key)
    return report


def _erase_fact(store: Store, tenant: str, fact_id: int) -> ErasureReport:
    fact = store.fact(tenant, fact_id)
    ids = store.erasable_ids(tenant, fact_ids=[fact_id])
    return _apply(store, tenant, ids, {"fact": fact_id}, quoted=[fact.text, fact.value])


def _apply(
    store: Store,
    tenant: str,
    ids: ErasedIds,
    target: Mapping[str, object],
    quoted: list[str] | None,
) -> ErasureReport:
    """Erase `ids` and drop the summary lines that quote `quoted` or the erased turns and
    records; `quoted` is None when every summary of the touched streams goes whole."""
    redacted = 0
    if quoted is not None:
        pattern = _quote_pattern([*quoted, *_sentences(_texts(store, tenant, ids))])
        if pattern is not None:
            redacted = sum(
                _redact_summaries(store, tenant, stream, ids, pattern) for stream in ids.streams
            )
    store.erase_items(tenant, ids)
    store.forget_team(tenant, ids.streams, ids.records, ids.facts)
    report = ErasureReport(
        turns=len(ids.turns),
        facts=len(ids.facts),
        records=len(ids.records),
        summaries=len(ids.summaries),
        summaries_redacted=redacted,
        streams=tuple(ids.streams),
    )
    removed = report.model_dump(exclude={"streams"})
    store.note_erasure(tenant, dict(target), removed, ids.streams)
    return report


def _texts(store: Store, tenant: str, ids: ErasedIds) -> Iterable[str]:
    for turn_id in ids.turns:
        turn = store.turn(tenant, turn_id)
        yield from (turn.user, turn.assistant)
    for record_id in ids.records:
        yield store.record(tenant, record_id).text


def _sentences(texts: Iterable[str]) -> list[str]:
    found = []
    for text in texts:
        for sentence in re.split(r"(?<=[.!?])\s+|\n+", text):
            sentence = " ".join(sentence.split())
            if len(sentence) >= _MIN_QUOTE_CHARS:
                found.append(sentence[:_QUOTED_CHARS])
    return found


def _redact_summaries(
    store: Store, tenant: str, stream: str, ids: ErasedIds, pattern: re.Pattern[str]
) -> int:
    """Drop the lines of the stream's summaries that quote erased content; a summary left
    with nothing is erased itself. Returns how many summaries changed."""
    changed = 0
    for summary in store.summaries(tenant, stream):
        if summary.id in ids.summaries:
            continue
        lines = summary.text.splitlines()
        kept = [line for line in lines if not _quotes(pattern, line)]
        record = _redacted(summary.record, pattern)
        if len(kept) == len(lines) and record == summary.record:
            continue
        changed += 1
        if any(line.strip() and not line.startswith("#") for line in kept):
            store.redact_summary(tenant, summary.id, "\n".join(kept), record)
        else:
            ids.summaries.append(summary.id)
    return changed


def _quotes(pattern: re.Pattern[str], text: str) -> bool:
    return bool(pattern.search(" ".join(text.split())))


def _redacted(value: Any, pattern: re.Pattern[str]) -> Any:
    """A summary's structured record without the entries that quote erased content."""
    if isinstance(value, str):
        return "" if _quotes(pattern, value) else value
    if isinstance(value, list):
        return [
            _redacted(v, pattern) for v in value if not (isinstance(v, str) and _quotes(pattern, v))
        ]
    if isinstance(value, dict):
        return {k: _redacted(v, pattern) for k, v in value.items()}
    return value


def _quote_pattern(quoted: Sequence[str]) -> re.Pattern[str] | None:
    phrases = sorted({q.strip(" .") for q in quoted if len(q.strip(" .")) >= 3}, key=len)
    if not phrases:
        return None
    alternatives = "|".join(re.escape(p) for p in reversed(phrases))
    return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE)
