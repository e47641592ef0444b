"""compact_summary: cut a summary down to a token target without losing open items."""

from collections.abc import Sequence

from pydantic import BaseModel, Field

from threefold.models.prompts import bullet_list, check_length, clean_text, messages, tagged

TASK = "compact_summary"


class Response(BaseModel):
    text: str = Field(min_length=1)


SYSTEM = """\
You compact the running summary of one conversation stream in an assistant's long-term
memory. Answer with one JSON object: {"text": "..."}.

- Rewrite the summary in about the number of tokens asked for (a token is about three
  quarters of a word).
- Squeeze older periods harder than recent ones; keep the latest period's detail. Keep the
  period dates and the chronological order.
- Never drop an open item: unresolved concerns, blockers, open questions, pending actions.
- Drop what the known facts already say: they are kept elsewhere. Keep context they do not
  cover.
- Keep names, numbers, ids and dates. Invent nothing.
"""


def build_messages(text: str, known_facts: Sequence[str], target_tokens: int) -> list[dict]:
    parts = [
        f"Target length: about {target_tokens} tokens.",
        "Known facts (do not repeat):\n" + bullet_list(known_facts),
        tagged("summary", text),
    ]
    return messages(SYSTEM, "\n".join(parts))


def to_result(response: Response, target_tokens: int = 0) -> str:
    """The compacted text; more than 1.5 times the target (plus 50 tokens) is refused."""
    return check_length(clean_text(response.text, "compacted summary"), target_tokens, 1.5)
