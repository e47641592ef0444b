"""extract_facts: the durable facts stated in one turn."""

from pydantic import BaseModel

from memstrata.models.base import ExtractedFact, SlotRef, TurnInput
from memstrata.models.prompts import InvalidAnswer, fmt_time, messages, norm_key, tagged
from memstrata.types import FactCategory, stream_subject

TASK = "extract_facts"


class Response(BaseModel):
    facts: list[ExtractedFact]


_CATEGORIES = ", ".join(category.value for category in FactCategory)

SYSTEM = f"""\
You extract durable facts from one conversation turn for an assistant's long-term memory.
Answer with one JSON object: {{"facts": [...]}}. Return an empty list when the turn states
nothing worth remembering (greetings, questions, chit-chat, generic advice).

Each fact has:
- text: one self-contained sentence with names and absolute dates, no pronouns.
- category: one of {_CATEGORIES}.
- subject, slot: the supersession key, lowercase. A later fact with the same subject and
  slot replaces the earlier one, so the key names one thing that can change, never its
  value: ("alpha launch", "deadline"), ("user", "preferred editor"), ("db migration",
  "assignee"). Use the same key for the same thing every time.
- Roles are keyed by the title: subject = the normalized title ("pm", "tech lead"),
  slot = "holder", value = the person.
- value: the current value alone ("raj", "2024-06-14", "postgres").
- confidence: 1.0 for an explicit correction by the user ("No, the PM is Raj",
  "actually it's Friday"); 0.95 for the user's plain statement; at most 0.7 when inferred
  or hedged ("I think", "probably", "maybe"); at most 0.6 for what only the assistant said.
- is_correction: true only when the user corrects something said earlier.
- retracts: statements the turn denies, as {{"subject", "slot", "value"}}. "Raj is not the
  PM" gives retracts [{{"subject": "pm", "slot": "holder", "value": "raj"}}]; with no
  replacement named, the fact itself uses the denied key and the value "not raj".

Dates: resolve relative dates ("tomorrow", "next Friday", "in two weeks", "end of month")
against the turn's event time, given with the turn, and write them as YYYY-MM-DD (add
HH:MM when a time is stated) in both text and value. A date without a year is the next
such date on or after the event time.
The turn belongs to a stream; when it says "the project" or "this team", the subject is
the stream's subject. Page context is what the user was looking at: use it only to resolve
references, do not extract facts from it alone.
"""


def build_messages(turn: TurnInput) -> list[dict]:
    parts = [f"Event time: {fmt_time(turn.at)}", f"Stream: {turn.stream}"]
    subject = stream_subject(turn.stream)
    if subject:
        parts.append(f"Stream subject: {subject}")
    if turn.page_context:
        parts.append(tagged("page_context", turn.page_context))
    parts.append(tagged("user", turn.user or "(empty)"))
    if turn.assistant:
        parts.append(tagged("assistant", turn.assistant))
    return messages(SYSTEM, "\n".join(parts))


def to_result(response: Response) -> list[ExtractedFact]:
    """The facts with normalized keys, exact duplicates dropped."""
    facts: list[ExtractedFact] = []
    seen: set[tuple[str, str, str]] = set()
    for fact in response.facts:
        subject, slot = norm_key(fact.subject), norm_key(fact.slot)
        if not (subject and slot and fact.value.strip() and fact.text.strip()):
            raise InvalidAnswer(f"blank text, subject, slot or value in {fact.text!r}")
        retracts = tuple(
            SlotRef(subject=norm_key(ref.subject), slot=norm_key(ref.slot), value=ref.value)
            for ref in fact.retracts
        )
        fact = fact.model_copy(
            update={
                "text": fact.text.strip(),
                "subject": subject,
                "slot": slot,
                "value": fact.value.strip(),
                "retracts": retracts,
            }
        )
        key = (subject, slot, fact.value.lower())
        if key in seen:
            continue
        seen.add(key)
        facts.append(fact)
    return facts
