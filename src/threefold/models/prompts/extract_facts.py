"""extract_facts: the durable facts stated in one turn."""

from pydantic import BaseModel

from threefold.domain import FactCategory, project_subject
from threefold.models.base import ExtractedFact, SlotRef, TurnInput
from threefold.models.heuristic.personal import FACETS
from threefold.models.prompts import InvalidAnswer, fmt_time, messages, norm_key, tagged

TASK = "extract_facts"


class Response(BaseModel):
    facts: list[ExtractedFact]


_CATEGORIES = ", ".join(category.value for category in FactCategory)
_FIRST_PERSON = frozenset({"i", "me", "myself", "speaker", "the speaker", "the user", "user"})


def _personal_slots() -> str:
    """The personal categories and their slots, from the heuristic model's own table, so
    both models key a fact the same way and either one's update supersedes the other's."""
    by_category: dict[str, list[str]] = {}
    for facet in FACETS.values():
        slot = facet.slot.replace("{key}", "<thing>").replace("{kind}", "<kind>")
        slots = by_category.setdefault(facet.category.value, [])
        if slot not in slots:
            slots.append(slot)
    return "\n".join(
        f"  - {category}: {', '.join(slots)}" for category, slots in by_category.items()
    )


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
The turn belongs to a stream. Only a project stream has a subject (given as "Stream
subject"); when the turn says "the project" or "this team", that is the subject. Never use
a chat, user or session stream's id as a subject or a value. Page context is what the user
was looking at: use it only to resolve references, do not extract facts from it alone.

People and their lives. First person ("I", "me", "my", "we" for a household) on the user
side is the turn's speaker: subject = the speaker's name in lowercase, or "user" when no
speaker is given; the text names them ("Caroline lives in Berlin.", "The user lives in
Berlin."). On the assistant side, first person is the assistant speaker when one is given,
else the assistant, about whom you record nothing personal. A fact about someone else
("my friend is vegetarian") is about that person, never the speaker: key a named person by
their lowercase name, a unique relation as "<speaker>'s <relation>" ("user's spouse"), and
skip unnamed people of whom there are many (friends, colleagues). Personal slots:
{_personal_slots()}
  <thing> is the value's singular key ("allergy:peanut"); <kind> names the relation, thing
  or topic: relations "spouse", "partner", "mother", "father", "manager" (one at a time),
  else "<relation>:<name>" ("sister:anna", "dog:rex") with the person's name as value;
  things "owns:car", "owns:phone", "owns:laptop", "tool:editor", "tool:os",
  "tool:browser", "tool:programming language"; plans the head noun of what is planned
  ("plan:marathon"); preferences the liked thing ("preference:jazz", value "likes jazz").
Each fact is a slot of its subject, so a change uses the slot it changes: "I moved to
Munich" is ("user", "home") like "I live in Berlin"; "I switched to VS Code" is ("user",
"tool:editor") like "I prefer vim as my editor". "No longer", "not ... anymore", "quit",
"sold", "gave up on" keep the slot with value "not <old value>" (or "sold honda",
"left acme"). Allergies accumulate: one slot per allergen. Compound sentences give every
fact they hold ("My name is Dana and I lead the Atlas project" gives two).
Not facts: questions, hypotheticals and wishes ("if I lived in Paris", "I wish", "I'd
love to"), negated wishes, quoted words, and anything marked as sarcasm ("yeah right",
"/s", "Not!").
"""


def build_messages(turn: TurnInput) -> list[dict]:
    parts = [f"Event time: {fmt_time(turn.at)}", f"Stream: {turn.stream}"]
    subject = project_subject(turn.stream)
    if subject:
        parts.append(f"Stream subject: {subject}")
    parts.append(f"Speaker (user side): {turn.speaker or 'none given: the user'}")
    if turn.assistant_speaker:
        parts.append(f"Speaker (assistant side): {turn.assistant_speaker}")
    if turn.referent:
        parts.append(f'"He" or "she" opening a user sentence means: {turn.referent}')
    if turn.page_context:
        parts.append(tagged("page_context", turn.page_context))
    parts.append(tagged("user", turn.user or "(empty)"))
    if turn.assistant:
        parts.append(tagged("assistant", turn.assistant))
    return messages(SYSTEM, "\n".join(parts))


def _speaker_key(turn: TurnInput | None) -> str:
    return norm_key(turn.speaker) if turn and turn.speaker else "user"


def _check_stream_id(subject: str, turn: TurnInput | None) -> None:
    """A chat's id ('8812' of chat:8812) names nothing; as a subject it is a garbled fact."""
    if turn is None or project_subject(turn.stream) or ":" not in turn.stream:
        return
    if subject == norm_key(turn.stream.split(":", 1)[1]):
        raise InvalidAnswer(f"the stream id {turn.stream!r} used as a subject")


def to_result(response: Response, turn: TurnInput | None = None) -> list[ExtractedFact]:
    """The facts with normalized keys, exact duplicates dropped. A first-person subject
    ("I", "speaker") becomes the turn's speaker."""
    facts: list[ExtractedFact] = []
    seen: set[tuple[str, str, str]] = set()
    for fact in response.facts:
        subject, slot = norm_key(fact.subject), norm_key(fact.slot)
        if subject in _FIRST_PERSON:
            subject = _speaker_key(turn)
        if not (subject and slot and fact.value.strip() and fact.text.strip()):
            raise InvalidAnswer(f"blank text, subject, slot or value in {fact.text!r}")
        _check_stream_id(subject, turn)
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
