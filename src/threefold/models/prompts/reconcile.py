"""reconcile: what to do with a new fact given similar existing ones."""

from collections.abc import Sequence

from pydantic import BaseModel

from threefold.models.base import (
    ExtractedFact,
    KnownFact,
    ReconcileAction,
    ReconcileDecision,
)
from threefold.models.prompts import InvalidAnswer, messages

TASK = "reconcile"


class Response(BaseModel):
    action: ReconcileAction
    target_id: int | None = None
    reason: str = ""


SYSTEM = """\
You keep an assistant's long-term memory consistent. Given a new fact and similar facts
already in memory, decide what to do. Answer with one JSON object:
{"action": "ADD" | "UPDATE" | "SUPERSEDE" | "NONE", "target_id": <id or null>,
"reason": "..."}.

- ADD: the new fact is about something no existing fact covers. target_id is null.
- UPDATE: it is about the same thing as an existing fact and agrees with it, but adds detail
  or better wording. target_id is that fact.
- SUPERSEDE: it replaces an existing fact: the same thing with a new value (a moved
  deadline, a new role holder, a correction). target_id is the replaced fact.
- NONE: an existing fact already says the same. target_id is that fact.
Facts are about the same thing when they share subject and slot, or plainly name the same
thing with slightly different keys. target_id must be one of the ids listed. reason: a few
words.
"""


def _fact_line(fact: ExtractedFact | KnownFact) -> str:
    return (
        f"{fact.text} [subject={fact.subject!r} slot={fact.slot!r} value={fact.value!r} "
        f"confidence={fact.confidence:.2f}]"
    )


def build_messages(new: ExtractedFact, similar: Sequence[KnownFact]) -> list[dict]:
    parts = [f"New fact: {_fact_line(new)}"]
    if new.is_correction:
        parts.append("(The new fact is an explicit correction by the user.)")
    parts.append("Existing facts:")
    parts.extend(f"- id {fact.id}: {_fact_line(fact)}" for fact in similar)
    return messages(SYSTEM, "\n".join(parts))


def to_result(response: Response, similar: Sequence[KnownFact]) -> ReconcileDecision:
    """The decision; a target that was not offered, or a missing one, is refused."""
    ids = {fact.id for fact in similar}
    action, target = response.action, response.target_id
    if action is ReconcileAction.ADD:
        target = None
    elif target is None and action is not ReconcileAction.NONE:
        raise InvalidAnswer(f"{action.value} without a target_id")
    if target is not None and target not in ids:
        raise InvalidAnswer(f"target_id {target} is not one of the offered ids {sorted(ids)}")
    return ReconcileDecision(action=action, target_id=target, reason=response.reason.strip())
