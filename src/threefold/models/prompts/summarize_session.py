"""summarize_session: a summary of consecutive turns of one stream."""

from collections.abc import Sequence

from pydantic import BaseModel, Field

from threefold.models.base import SessionDigest, TurnInput
from threefold.models.prompts import check_length, clean_text, fmt_time, messages, tagged

TASK = "summarize_session"


class Response(BaseModel):
    text: str = Field(min_length=1)
    open_items: list[str] = Field(default_factory=list)
    # The session's record; optional, so that a terse answer still parses.
    intent: str = ""
    key_facts: list[str] = Field(default_factory=list)
    decisions: list[str] = Field(default_factory=list)
    open_questions: list[str] = Field(default_factory=list)


SYSTEM = """\
You summarize consecutive turns of one conversation stream for an assistant's long-term
memory. Answer with one JSON object: {"text": "...", "open_items": ["...", ...],
"intent": "...", "key_facts": ["...", ...], "decisions": ["...", ...],
"open_questions": ["...", ...]}.

text: a dense summary in the third person and past tense, in about the number of tokens
asked for (a token is about three quarters of a word). Say who decided, asked for,
committed to or changed what. Keep names, numbers, ids and dates; write dates as
YYYY-MM-DD, resolving relative ones ("tomorrow", "next week") against the time of the turn
they occur in. Leave out greetings, filler and generic advice. Do not invent anything.
open_items: every concern, blocker, open question and pending action that is still
unresolved at the end of these turns, one short line each; [] when there are none.
intent: what the user wanted from these turns, in one short line.
key_facts, decisions: the facts stated and the decisions taken, one short line each.
open_questions: questions asked and not answered in these turns: the data still missing.
"""


def build_messages(turns: Sequence[TurnInput], target_tokens: int) -> list[dict]:
    parts = [f"Target length: about {target_tokens} tokens."]
    if turns:
        parts.append(f"Stream: {turns[0].stream}")
    for turn in turns:
        # A side is labelled with its writer's name where it has one: in a group chat or a
        # project stream "User:" would lose who said, decided or took what.
        body = [f"{turn.speaker or 'User'}: {turn.user.strip()}"]
        if turn.assistant.strip():
            body.append(f"{turn.assistant_speaker or 'Assistant'}: {turn.assistant.strip()}")
        if turn.page_context:
            body.insert(0, f"(Page context: {' '.join(turn.page_context.split())})")
        parts.append(tagged("turn", "\n".join(body), at=fmt_time(turn.at)))
    return messages(SYSTEM, "\n".join(parts))


def to_result(response: Response, target_tokens: int = 0) -> SessionDigest:
    """The digest; a summary more than twice the target (plus 50 tokens) is refused."""
    text = check_length(clean_text(response.text, "summary"), target_tokens, 2.0)
    return SessionDigest(
        text=text,
        open_items=_lines(response.open_items),
        intent=" ".join(response.intent.split()),
        key_facts=_lines(response.key_facts),
        decisions=_lines(response.decisions),
        open_questions=_lines(response.open_questions),
    )


def _lines(items: list[str]) -> tuple[str, ...]:
    return tuple(" ".join(item.split()) for item in items if item.strip())
