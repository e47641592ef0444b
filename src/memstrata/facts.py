"""Layer 1: recording facts with soft supersession by (subject, slot).

The rules, in order:
- the same value again is a mention of the fact already held;
- a holder with higher confidence outranks the newcomer, which is kept but not shown;
- a holder whose event is later than the newcomer's wins too (late imports of old news);
- otherwise the newcomer supersedes every holder of the slot.
Nothing is deleted: the losers change status and keep links to the winner.
"""

import re

from memstrata.models.base import ExtractedFact, SlotRef
from memstrata.store.base import NewFact, Store
from memstrata.tokens import count_tokens
from memstrata.types import Fact, FactStatus, SourceRef


def normalize(value: str) -> str:
    return " ".join(value.lower().split()).strip(" .!,;:'\"")


def record_fact(
    store: Store, tenant: str, stream: str, item: ExtractedFact, source: SourceRef
) -> Fact:
    """Store `item` and apply supersession; call inside a transaction."""
    holders = store.facts_in_slot(tenant, stream, item.subject, item.slot)
    for holder in holders:
        if normalize(holder.value) == normalize(item.value):
            store.mention(tenant, holder.id, item.confidence)
            store.add_fact_change(holder.id, "NONE", note="mentioned again")
            return store.fact(tenant, holder.id)
    winner = _stronger_holder(holders, item, source)
    if winner is not None:
        return _insert_losing(store, tenant, stream, item, source, winner)
    fact = _insert(
        store, tenant, stream, item, source, supersedes=holders[0].id if holders else None
    )
    store.add_fact_change(fact.id, "ADD", related=fact.supersedes, note=_origin(item))
    for holder in holders:
        store.set_fact_status(tenant, holder.id, FactStatus.SUPERSEDED, superseded_by=fact.id)
        store.add_fact_change(holder.id, "SUPERSEDE", related=fact.id)
    for denied in item.retracts:
        _retract(store, tenant, stream, denied, fact)
    return store.fact(tenant, fact.id)


def _stronger_holder(holders: list[Fact], item: ExtractedFact, source: SourceRef) -> Fact | None:
    for holder in holders:
        if holder.confidence > item.confidence:
            return holder
        if holder.source.at and source.at and holder.source.at > source.at:
            return holder
    return None


def _insert_losing(
    store: Store, tenant: str, stream: str, item: ExtractedFact, source: SourceRef, winner: Fact
) -> Fact:
    if winner.confidence > item.confidence:
        status, note = FactStatus.OUTRANKED, f"confidence {item.confidence} < {winner.confidence}"
    else:
        status, note = FactStatus.SUPERSEDED, "an event-later fact already holds the slot"
    fact = _insert(store, tenant, stream, item, source, status=status)
    if status is FactStatus.SUPERSEDED:
        store.set_fact_status(tenant, fact.id, status, superseded_by=winner.id)
    store.add_fact_change(fact.id, "NONE", related=winner.id, note=note)
    return store.fact(tenant, fact.id)


def _retract(store: Store, tenant: str, stream: str, denied: SlotRef, by: Fact) -> None:
    for old in store.facts_in_slot(tenant, stream, denied.subject, denied.slot):
        if normalize(old.value) != normalize(denied.value) or old.confidence > by.confidence:
            continue
        store.set_fact_status(tenant, old.id, FactStatus.RETRACTED, superseded_by=by.id)
        store.add_fact_change(old.id, "SUPERSEDE", related=by.id, note="retracted")


def _insert(
    store: Store,
    tenant: str,
    stream: str,
    item: ExtractedFact,
    source: SourceRef,
    *,
    supersedes: int | None = None,
    status: FactStatus = FactStatus.ACTIVE,
) -> Fact:
    return store.insert_fact(
        NewFact(
            tenant=tenant,
            stream=stream,
            text=item.text,
            category=item.category,
            subject=item.subject,
            slot=item.slot,
            value=item.value,
            confidence=item.confidence,
            status=status,
            supersedes=supersedes,
            source=source,
            tokens=count_tokens(item.text),
        )
    )


def _origin(item: ExtractedFact) -> str:
    return "correction" if item.is_correction else ""


def fact_chain(store: Store, tenant: str, fact_id: int) -> list[Fact]:
    """Every version of the fact's slot that `fact_id` is linked to, oldest first."""
    start = store.fact(tenant, fact_id)
    chain = [start]
    seen = {start.id}
    back = start
    while back.supersedes is not None and back.supersedes not in seen:
        back = store.fact(tenant, back.supersedes)
        chain.insert(0, back)
        seen.add(back.id)
    ahead = start
    while ahead.superseded_by is not None and ahead.superseded_by not in seen:
        ahead = store.fact(tenant, ahead.superseded_by)
        chain.append(ahead)
        seen.add(ahead.id)
    return chain


_WORD = re.compile(r"[^\W_]+")
_MIN_PREFIX = 4


class OutdatedStatements:
    """Recognizes text that states a superseded fact as if it were still true.

    A line is outdated when it names the old fact's subject and value but not the value
    that replaced it ("Sarah is the Lead Architect" after "No, Raj is"). The correction
    itself names both, so it stays.
    """

    def __init__(self, store: Store, tenant: str, stream: str) -> None:
        every = store.facts(tenant, stream, include_inactive=True)
        by_id = {f.id: f for f in every}
        self._rules: list[tuple[list[str], list[str], Fact]] = []
        for old in every:
            successor = by_id.get(old.superseded_by or -1)
            if old.active or successor is None or not successor.active:
                continue
            claim = _words(f"{old.subject} {old.value}")
            current = [w for w in _words(successor.value) if w not in claim]
            if claim:
                self._rules.append((claim, current, successor))

    def __bool__(self) -> bool:
        return bool(self._rules)

    def replacements(self, text: str) -> list[Fact]:
        """The facts now in force in place of those `text` states; empty if none."""
        words = _words(text)
        found = {}
        for claim, current, successor in self._rules:
            if _covers(words, claim) and not (current and _covers(words, current)):
                found[successor.id] = successor
        return list(found.values())


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def _covers(words: list[str], needed: list[str]) -> bool:
    """Every needed word appears, long ones also as a prefix ('architect' in 'architecture')."""
    present = set(words)
    return all(
        need in present or (len(need) >= _MIN_PREFIX and any(w.startswith(need) for w in present))
        for need in needed
    )
