"""Trust governs writes as well as reads.

A writer below `full` trust (an assistant's inner circle, a familiar bot) may add to the
memory, but is believed less: its confidence and visibility are capped, its turns never
count as the user's corrections, and it cannot displace what a more trusted writer said.
Every fact and turn keeps its writer's trust and key id, so the cap is visible later.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta

from threefold.domain import READABLE, Fact, Trust, Visibility, as_utc, utcnow
from threefold.errors import InvalidInput
from threefold.models.base import ExtractedFact
from threefold.settings import WriteSettings

RANK = {Trust.FULL: 0, Trust.INNER: 1, Trust.FAMILIAR: 2, Trust.PUBLIC: 3}
"""Most trusted first."""


@dataclass(frozen=True)
class Author:
    """Who is writing: their trust and, through HTTP, the id of their API key."""

    trust: Trust = Trust.FULL
    key_id: int | None = None

    @property
    def full(self) -> bool:
        return self.trust is Trust.FULL


OWNER = Author()
"""The memory's owner: the Python API and every face running at full trust."""


def author(trust: object, key_id: object) -> Author:
    """An Author from caller-given values; a public writer is refused."""
    try:
        if not isinstance(trust, str):  # a Trust is a str too
            raise ValueError(trust)
        level = Trust(trust)
    except ValueError:
        known = ", ".join(t.value for t in Trust)
        raise InvalidInput(f"unknown trust level {trust!r}; use one of {known}") from None
    if level is Trust.PUBLIC:
        raise InvalidInput("a public writer may read but not write")
    if key_id is not None and (isinstance(key_id, bool) or not isinstance(key_id, int)):
        raise InvalidInput(f"key_id must be a whole number or None, got {key_id!r}")
    return Author(level, key_id)


def max_confidence(settings: WriteSettings, trust: Trust) -> float:
    ceilings = {
        Trust.FULL: 1.0,
        Trust.INNER: settings.inner_max_confidence,
        Trust.FAMILIAR: settings.familiar_max_confidence,
    }
    return ceilings.get(trust, 0.0)


def capped_visibility(writer: Author, requested: Visibility) -> Visibility:
    """`requested`, or the most private level the writer may read back if that is more
    private: a writer cannot hide what it writes from those who trust it more."""
    allowed = READABLE[writer.trust]
    return requested if requested in allowed else allowed[0]


def capped_fact(item: ExtractedFact, writer: Author, settings: WriteSettings) -> ExtractedFact:
    """`item` as a writer of this trust may state it.

    Below full trust, confidence is capped, and a "No, X is Y" is an ordinary statement:
    it neither counts as the user's correction nor retracts anything.
    """
    if writer.full:
        return item
    return item.model_copy(
        update={
            "confidence": min(item.confidence, max_confidence(settings, writer.trust)),
            "is_correction": False,
            "retracts": (),
        }
    )


def holder_wins(holder: Fact, writer: Author) -> bool | None:
    """Whether a slot's holder stands against a newcomer from `writer`, by trust alone:
    True when the holder's writer was more trusted, False when less, None when equal (then
    confidence and event time decide)."""
    holder_rank, writer_rank = RANK[holder.writer_trust], RANK[writer.trust]
    if holder_rank == writer_rank:
        return None
    return holder_rank < writer_rank


def may_change(fact: Fact, writer: Author) -> bool:
    """Whether `writer` may supersede, retract or rewrite `fact`."""
    return RANK[writer.trust] <= RANK[fact.writer_trust]


def check_event_time(at: datetime | None, writer: Author, settings: WriteSettings) -> None:
    """Refuse, from a writer below full trust, an event time further ahead than the allowed
    skew: a fact dated 2099 would outrank every later statement of its slot at its trust.

    The owner's own times are taken as given: demos, imports and replays of a planned
    timeline date their turns ahead on purpose.
    """
    if at is None or writer.full:
        return
    limit = utcnow() + timedelta(seconds=settings.max_future_seconds)
    if as_utc(at) > limit:
        raise InvalidInput(
            f"at {as_utc(at).isoformat()} is in the future, beyond the allowed "
            f"{settings.max_future_seconds:g} seconds (writes.max_future_seconds)"
        )
