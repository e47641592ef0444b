"""Search hits that state a superseded value, marked with what is in force now.

A context marks such items as it shows them (threefold.context.material); a search hands
its hits to a caller who reads them as they are, so each hit carries the mark itself
(SearchHit.now). Each hit is judged against its own stream's supersessions, as a context
is: the facts a stream holds are about the people of that conversation. A fact hit the
reader doubted (Fact.doubted_by) names the doubting message while the context would still
show the fact as possibly outdated (SearchHit.doubted_by).
"""

from collections.abc import Sequence

from threefold.domain import Fact, FactRef, SearchHit, SourceRef, Visibility
from threefold.layers.facts import OutdatedStatements
from threefold.store.base import Store


def marked(
    store: Store, tenant: str, hits: list[SearchHit], readable: Sequence[Visibility]
) -> list[SearchHit]:
    """`hits`, each (and each of its derived facts) with `now` filled when it states a
    value a newer fact replaced, and each fact hit with `doubted_by` filled while the reader
    doubts it. Only facts `readable` may be named: the mark must not tell a public caller a
    private fact. One store read per stream among the hits, and one for the fact hits."""
    streams = {hit.stream for found in hits for hit in (found, *found.derived)}
    rules = {stream: _rules(store, tenant, stream, readable) for stream in sorted(streams)}
    doubts = _doubts(store, tenant, hits)
    if not any(rules.values()) and not doubts:
        return hits
    return [_marked(hit, rules, doubts) for hit in hits]


def _doubts(store: Store, tenant: str, hits: list[SearchHit]) -> dict[int, SourceRef]:
    """The message that doubts each fact hit the reader still doubts, by fact id."""
    ids = {hit.id for found in hits for hit in (found, *found.derived) if hit.kind == "fact"}
    facts = store.facts_by_id(tenant, sorted(ids))
    return {fact.id: by for fact in facts if (by := fact.doubt) is not None}


def _rules(
    store: Store, tenant: str, stream: str, readable: Sequence[Visibility]
) -> OutdatedStatements:
    pairs = store.superseded_facts(tenant, stream)
    return OutdatedStatements((old, new) for old, new in pairs if new.visibility in readable)


def _marked(
    hit: SearchHit, rules: dict[str, OutdatedStatements], doubts: dict[int, SourceRef]
) -> SearchHit:
    derived = [_marked(fact, rules, doubts) for fact in hit.derived]
    now = _in_force(hit, rules[hit.stream])
    doubted = doubts.get(hit.id) if hit.kind == "fact" else None
    unchanged = all(d is before for d, before in zip(derived, hit.derived, strict=True))
    if not now and doubted is None and unchanged:
        return hit
    return hit.model_copy(update={"now": now, "doubted_by": doubted, "derived": derived})


def _in_force(hit: SearchHit, outdated: OutdatedStatements) -> list[FactRef]:
    if not outdated:
        return []
    # A summary retells many things, one a line: one outdated line is enough to mark it.
    found = (
        outdated.line_replacements(hit.text)
        if hit.kind == "summary"
        else outdated.replacements(hit.text)
    )
    return [_ref(fact) for fact in found if not (hit.kind == "fact" and fact.id == hit.id)]


def _ref(fact: Fact) -> FactRef:
    return FactRef(id=fact.id, text=fact.text)
