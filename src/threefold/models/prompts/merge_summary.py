"""merge_summary: fold a new summary into a stream's active summary."""

from collections.abc import Sequence

from pydantic import BaseModel, Field

from threefold.models.base import DatedSummary
from threefold.models.prompts import bullet_list, clean_text, fmt_period, messages, tagged

TASK = "merge_summary"


class Response(BaseModel):
    text: str = Field(min_length=1)


SYSTEM = """\
You maintain the running summary of one conversation stream in an assistant's long-term
memory. Fold the new summary into the running summary. Answer with one JSON object:
{"text": "..."}.

- Keep chronological order, oldest period first, and start each period with its dates
  ("2024-05-01 to 2024-05-03: ...").
- Where the new summary changes something, keep the newer value and say briefly what
  changed ("deadline moved from 2024-06-01 to 2024-06-14").
- Keep every open item listed unless the new summary says it was resolved.
- Keep names, numbers, ids and dates. Drop nothing else of substance from either side and
  invent nothing. When there is no running summary yet, write it from the new summary.
"""


def build_messages(
    active: DatedSummary | None, new: DatedSummary, open_items: Sequence[str]
) -> list[dict]:
    parts = []
    if active is None:
        parts.append("Running summary: (none yet)")
    else:
        period = fmt_period(active.period.start, active.period.end)
        parts.append(tagged("running_summary", active.text, period=period))
    period = fmt_period(new.period.start, new.period.end)
    parts.append(tagged("new_summary", new.text, period=period))
    parts.append("Open items to keep:\n" + bullet_list(open_items))
    return messages(SYSTEM, "\n".join(parts))


def to_result(response: Response) -> str:
    return clean_text(response.text, "merged summary")
