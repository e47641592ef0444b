"""extract_from_messages: facts and observations in a batch of team messages."""

from collections.abc import Sequence

from pydantic import BaseModel, Field, model_validator

from threefold.domain import FactCategory
from threefold.models.base import ExtractedFact, MessageInput, TurnInput
from threefold.models.prompts import InvalidAnswer, fmt_time, lenient_facts, messages, tagged
from threefold.models.prompts import extract_facts as single

TASK = "extract_from_messages"


class MessageFact(ExtractedFact):
    message: int = Field(ge=1)
    """The 1-based number of the message that states it."""


class Response(BaseModel):
    facts: list[MessageFact]

    _mend = model_validator(mode="before")(lenient_facts)


_CATEGORIES = ", ".join(category.value for category in FactCategory)

SYSTEM = f"""\
You read a batch of numbered team chat messages (Slack) and extract what a project's
long-term memory should keep. Answer with one JSON object: {{"facts": [...]}}, possibly
empty. Skip greetings, questions, jokes and chit-chat.

Each fact has:
- message: the number of the message that states it.
- text: one self-contained sentence naming people and absolute dates, no pronouns. "I" is
  the message's author.
- category: one of {_CATEGORIES}. Use decision, assignment, deadline, role, blocker and
  commitment for what was settled; handoff when work changes hands; deadline_mention,
  risk_signal, mood_signal and status_update for observations. A bare link is no fact.
- subject, slot: the supersession key, lowercase; a later fact with the same key replaces
  the earlier one, so the key names the thing that changes, never its value:
  ("alpha-142", "status"), ("beta release", "deadline"), ("tech lead", "holder").
- value: the current value alone.
- confidence: how sure the message is: 0.9 or more for explicit statements, about 0.6
  for hedged or inferred ones. Questions are not statements.
- is_correction: true when the message corrects something said earlier.

Teams settle things in plain words, and those are facts too:
- a decision: "we'll go with a phased rollout", "let's go with Postgres", "going with
  option B", "we're dropping the beta" (subject: what was decided about; slot "choice");
- an assignment: "Anil is taking ALPHA-142", "Priya will own the billing migration",
  "assigning the docs to Sam", "Raj assigned to EL-5" (subject: the task or issue key,
  lowercase; slot "assignee"; value: the person).
A message from a bot (a GitHub, Jira or CI integration) that tells what a person did
("Anil pushed 3 commits") is about that person: name them, never the bot.

Resolve relative dates ("Friday", "next week") against each message's own time and write
them as YYYY-MM-DD in both text and value.
"""


def build_messages(batch: Sequence[MessageInput]) -> list[dict]:
    parts = [
        tagged(
            "message",
            m.text or "(empty)",
            n=str(n),
            author=m.author,
            time=fmt_time(m.at),
            channel=m.channel,
            **_thread(m),
        )
        for n, m in enumerate(batch, start=1)
    ]
    return messages(SYSTEM, "\n".join(parts))


_REPLYING_TO_CHARS = 300


def _thread(message: MessageInput) -> dict[str, str]:
    """What a thread reply answers, as an attribute: "I can take it" takes what the
    thread's first message asked for. Absent for other messages, so their prompt is as
    before."""
    said = " ".join(message.replying_to.split()).replace('"', "'")
    if not said:
        return {}
    cut = said if len(said) <= _REPLYING_TO_CHARS else said[: _REPLYING_TO_CHARS - 1] + "…"
    return {"replying_to": cut}


def to_result(response: Response, batch: Sequence[MessageInput]) -> list[list[ExtractedFact]]:
    """The facts grouped by message, keys normalized; a message number out of range is
    refused."""
    grouped: list[list[ExtractedFact]] = [[] for _ in batch]
    for fact in response.facts:
        if fact.message > len(batch):
            raise InvalidAnswer(f"message {fact.message} is not in a batch of {len(batch)}")
        plain = ExtractedFact.model_validate(fact.model_dump(exclude={"message"}))
        message = batch[fact.message - 1]
        # In a team message "I" is its author, as in the heuristic model.
        said = TurnInput(
            stream="", user=message.text, at=message.at, speaker=message.author or None
        )
        grouped[fact.message - 1] += single.keyed([plain], said)
    return grouped
