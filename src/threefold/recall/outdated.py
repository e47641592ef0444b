"""Search hits that state a superseded value, marked with what is in force now.

A context marks such items as it shows them (threefold.context.material); a search hands
its hits to a caller who reads them as they are, so each hit carries the mark itself
(SearchHit.now). Each hit is judged against its own stream's supersessions, as a context
is: the facts a stream holds are about the people of that conversation.
"""

from collections.abc import Sequence

from threefold.domain import Fact, FactRef, SearchHit, Visibility
from threefold.layers.facts import OutdatedStatements
from threefold.store.base import Store


def marked(
    store: Store, tenant: str, hits: list[SearchHit], readable: Sequence[Visibility]
) -> list[SearchHit]:
    """`hits`, each (and each of its derived facts) with `now` filled when it states a
    value a newer fact replaced. Only facts `readable` may be named: the mark must not
    tell a public caller a private fact. One store read per stream among the hits."""
    streams = {hit.stream for found in hits for hit in (found, *found.derived)}
    rules = {stream: _rules(store, tenant, stream, readable) for stream in sorted(streams)}
    if not any(rules.values()):
        return hits
    return [_marked(hit, rules) for hit in hits]


def _rules(
    store: Store, tenant: str, stream: str, readable: Sequence[Visibility]
) -> OutdatedStatements:
    pairs = store.superseded_facts(tenant, stream)
    return OutdatedStatements((old, new) for old, new in pairs if new.visibility in readable)


def _marked(hit: SearchHit, rules: dict[str, OutdatedStatements]) -> SearchHit:
    derived = [_marked(fact, rules) for fact in hit.derived]
    now = _in_force(hit, rules[hit.stream])
    if not now and all(d is before for d, before in zip(derived, hit.derived, strict=True)):
        return hit
    return hit.model_copy(update={"now": now, "derived": derived})


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
