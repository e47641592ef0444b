"""roll_up: one summary for a week or a month, from the session summaries inside it."""

from collections.abc import Sequence

from pydantic import BaseModel, Field

from threefold.models.base import DatedSummary
from threefold.models.prompts import check_length, clean_text, fmt_period, messages, tagged

TASK = "roll_up"


class Response(BaseModel):
    text: str = Field(min_length=1)


SYSTEM = """\
You write the summary of one week or one month of a conversation stream for an assistant's
long-term memory, from the session summaries inside that period. Answer with one JSON
object: {"text": "..."}.

- About the number of tokens asked for (a token is about three quarters of a word).
- Say what was decided, delivered, changed and learned, in chronological order where the
  order matters, with dates as YYYY-MM-DD. Merge repeats.
- End with what was still open at the end of the period.
- Keep names, numbers, ids and dates. Invent nothing.
"""


def build_messages(summaries: Sequence[DatedSummary], target_tokens: int) -> list[dict]:
    ordered = sorted(summaries, key=lambda summary: summary.period.start)
    parts = [f"Target length: about {target_tokens} tokens."]
    if ordered:
        start = ordered[0].period.start
        end = max(summary.period.end for summary in ordered)
        parts.append(f"Period: {fmt_period(start, end)}")
    for summary in ordered:
        period = fmt_period(summary.period.start, summary.period.end)
        parts.append(tagged("session_summary", summary.text, period=period))
    return messages(SYSTEM, "\n".join(parts))


def to_result(response: Response, target_tokens: int = 0) -> str:
    """The roll-up; more than twice the target (plus 50 tokens) is refused."""
    return check_length(clean_text(response.text, "roll-up"), target_tokens, 2.0)
