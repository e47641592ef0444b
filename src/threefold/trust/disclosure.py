"""What a caller of some trust may be shown: the faces' one rule for facts and their links.

Reads already filter by visibility. What slips through are answers about something else:
a write that lands on an existing fact (a repeat, the same value) answers with that fact,
and a readable fact names the ids of the facts it supersedes. Both go through here.
"""

from collections.abc import Callable, Iterable

from threefold.domain import READABLE, Fact, FactChange, Trust, Turn, Visibility
from threefold.errors import NotFound

VisibilityOf = Callable[[int], Visibility | None]
"""A fact id's visibility in the caller's tenant; None if there is no such fact."""

WRITE_ACCEPTED = "recorded; the fact that now holds this statement is not readable at this trust"
"""The whole answer to a write that landed on a fact the writer may not read."""


def readable(trust: Trust, visibility: Visibility | None) -> bool:
    return visibility is not None and visibility in READABLE[trust]


def visibility_lookup(fact_by_id: Callable[[int], Fact]) -> VisibilityOf:
    """A VisibilityOf over a `fact(id)` function that raises NotFound."""

    def visibility_of(fact_id: int) -> Visibility | None:
        try:
            return fact_by_id(fact_id).visibility
        except NotFound:
            return None

    return visibility_of


def shown_fact(
    fact: Fact, trust: Trust, visibility_of: VisibilityOf, *, key_id: int | None = None
) -> Fact | None:
    """`fact` as a caller of `trust` may see it, or None if it may not see it at all.

    Links to facts it may not read are blanked, and so is the key another caller wrote
    with (a full caller sees every key id).
    """
    if not readable(trust, fact.visibility):
        return None
    hidden: dict[str, object] = {}
    for link in ("supersedes", "superseded_by"):
        linked = getattr(fact, link)
        if linked is not None and not readable(trust, visibility_of(linked)):
            hidden[link] = None
    if trust is not Trust.FULL and fact.writer_key not in (None, key_id):
        hidden["writer_key"] = None
    return fact.model_copy(update=hidden) if hidden else fact


def shown_turn(turn: Turn, trust: Trust, *, key_id: int | None = None) -> Turn | None:
    """`turn` as a caller of `trust` may see it: without another caller's key id."""
    if not readable(trust, turn.visibility):
        return None
    if trust is not Trust.FULL and turn.writer_key not in (None, key_id):
        return turn.model_copy(update={"writer_key": None})
    return turn


def shown_facts(
    facts: Iterable[Fact], trust: Trust, visibility_of: VisibilityOf, *, key_id: int | None = None
) -> list[Fact]:
    shown = (shown_fact(f, trust, visibility_of, key_id=key_id) for f in facts)
    return [f for f in shown if f is not None]


def shown_changes(
    changes: Iterable[FactChange], trust: Trust, visibility_of: VisibilityOf
) -> list[FactChange]:
    """The changes of facts the caller may see, without links to those it may not."""
    kept = []
    for change in changes:
        if not readable(trust, visibility_of(change.fact_id)):
            continue
        related = change.related_fact_id
        if related is not None and not readable(trust, visibility_of(related)):
            change = change.model_copy(update={"related_fact_id": None})
        kept.append(change)
    return kept
