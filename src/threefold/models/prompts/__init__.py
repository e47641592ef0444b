"""Prompts as code: one module per MemoryModel task.

Each module defines:

- ``Response``: the pydantic model the chat model must answer with (one JSON object);
- ``SYSTEM``: the system prompt;
- ``build_messages(...)``: the chat messages for the task's typed inputs;
- ``to_result(response, ...)``: the protocol's return value. Where the answer can be checked
  against the inputs cheaply (an offered id, an offered stream, a length), ``to_result`` also
  takes those inputs and raises :class:`InvalidAnswer` when the answer makes no sense.

The modules do no I/O; ``threefold.models.llm`` sends the messages and parses the answers.
"""

from collections.abc import Sequence
from datetime import UTC, datetime

from threefold.tokens import count_tokens


class InvalidAnswer(ValueError):
    """The answer parsed but does not fit the task's inputs (an unknown id, an empty text)."""


def fmt_time(moment: datetime) -> str:
    """An event time as the model should read it: ISO 8601 with offset, plus the weekday.

    Naive datetimes are taken to be UTC. The offset is kept, so "tomorrow" resolves in the
    speaker's own day.
    """
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return f"{moment.isoformat(timespec='minutes')} ({moment:%A %Y-%m-%d})"


def fmt_period(start: datetime, end: datetime) -> str:
    return f"{fmt_time(start)} to {fmt_time(end)}"


def tagged(tag: str, text: str, **attrs: str) -> str:
    """`text` inside <tag ...>...</tag>, so quoted material stays apart from instructions."""
    head = " ".join([tag, *(f'{key}="{value}"' for key, value in attrs.items())])
    return f"<{head}>\n{text.strip()}\n</{tag}>"


def messages(system: str, user: str) -> list[dict]:
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def bullet_list(items: Sequence[str], empty: str = "(none)") -> str:
    lines = [f"- {' '.join(item.split())}" for item in items if item.strip()]
    return "\n".join(lines) if lines else empty


def clean_text(text: str, what: str = "text") -> str:
    text = text.strip()
    if not text:
        raise InvalidAnswer(f"empty {what}")
    return text


def check_length(text: str, target_tokens: int, factor: float, slack: int = 50) -> str:
    """`text`, unless it overshoots `target_tokens` by more than `factor` (plus `slack`)."""
    tokens = count_tokens(text)
    limit = int(target_tokens * factor) + slack
    if target_tokens > 0 and tokens > limit:
        raise InvalidAnswer(f"{tokens} tokens where about {target_tokens} were asked for")
    return text


def norm_key(value: str) -> str:
    """A supersession key part: lowercase, single spaces."""
    return " ".join(value.lower().split())
