"""route: the stream a message belongs to."""

from collections.abc import Sequence

from pydantic import BaseModel, Field

from threefold.domain import GLOBAL_STREAM
from threefold.models.base import RouteDecision
from threefold.models.prompts import InvalidAnswer, bullet_list, messages, tagged

TASK = "route"


class Response(BaseModel):
    stream: str = Field(min_length=1)
    confidence: float = Field(ge=0.0, le=1.0)
    reason: str = ""


SYSTEM = f"""\
You file an incoming message into one memory stream of an assistant. Streams are named
kind:id, such as project:alpha, chat:8812 or user:42. Answer with one JSON object:
{{"stream": "...", "confidence": 0.0-1.0, "reason": "..."}}.

- stream: exactly one of the offered stream names, or "{GLOBAL_STREAM}" when the message
  concerns none of them in particular or several at once.
- confidence: 0.9 or more when the message names the stream's subject; about 0.6 when you
  infer it; below 0.5 when guessing (then prefer "{GLOBAL_STREAM}").
- reason: a few words.
"""


def build_messages(text: str, streams: Sequence[str]) -> list[dict]:
    parts = [
        "Streams:\n" + bullet_list([*streams, GLOBAL_STREAM]),
        tagged("message", text),
    ]
    return messages(SYSTEM, "\n".join(parts))


def to_result(response: Response, streams: Sequence[str]) -> RouteDecision:
    """The decision, with the stream spelled as offered; an unknown stream is refused."""
    offered = {stream.lower(): stream for stream in [*streams, GLOBAL_STREAM]}
    stream = offered.get(response.stream.strip().lower())
    if stream is None:
        raise InvalidAnswer(f"stream {response.stream!r} was not offered")
    return RouteDecision(
        stream=stream, confidence=response.confidence, reason=response.reason.strip()
    )
