"""What the proxy reads from a chat request, and how it puts memory into it."""

from typing import Any

from threefold.domain import GLOBAL_STREAM, Context, check_stream
from threefold.errors import InvalidInput

STREAM_HEADER = "X-Threefold-Stream"
CONVERSATION_SECTIONS = frozenset({"recent_turns", "query"})
"""Sections the client's own messages carry already, unless it sends no history."""
SYSTEM_ROLES = ("system", "developer")


def pick_stream(header: str | None, user: Any) -> tuple[str | None, str]:
    """The stream for a request and where it came from ("header" or "user").

    The header is taken as a stream name as it is. The request's `user` is used as is
    when it is a `kind:id` name, and becomes `user:<value>` otherwise (so a user called
    "global" does not write to the global stream). Raises InvalidInput when either is not
    a valid stream name. No header and no `user`: (None, "").
    """
    if header is not None and header.strip():
        return check_stream(header.strip()), "header"
    if user is None or user == "":
        return None, ""
    if not isinstance(user, str):
        raise InvalidInput(
            f"user names the memory stream and must be a string, not {type(user).__name__}"
        )
    if user != GLOBAL_STREAM and _valid(user):
        return user, "user"
    return check_stream(f"user:{user}"), "user"


def query_text(messages: Any) -> str:
    """The text of the last user message: its string content, or its text parts."""
    if not isinstance(messages, list):
        return ""
    for message in reversed(messages):
        if isinstance(message, dict) and message.get("role") == "user":
            return content_text(message.get("content"))
    return ""


def speaker_name(messages: Any) -> str | None:
    """The `name` OpenAI lets the last user message carry (a person in a group chat)."""
    if not isinstance(messages, list):
        return None
    for message in reversed(messages):
        if isinstance(message, dict) and message.get("role") == "user":
            name = message.get("name")
            return name.strip() or None if isinstance(name, str) else None
    return None


def content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = [
            part["text"]
            for part in content
            if isinstance(part, dict)
            and part.get("type") == "text"
            and isinstance(part.get("text"), str)
        ]
        return "\n".join(texts)
    return ""


def has_history(messages: Any) -> bool:
    """Whether the client sends earlier turns itself (any assistant message)."""
    return isinstance(messages, list) and any(
        isinstance(m, dict) and m.get("role") == "assistant" for m in messages
    )


def memory_text(context: Context, *, with_turns: bool = False) -> str:
    """The memory sections of `context` as one block; "" when it holds no memory.

    The query is never included (it is the client's own last message); the recent turns
    only when `with_turns`, for clients that send no history of their own.
    """
    skip = {"query"} if with_turns else CONVERSATION_SECTIONS
    sections = [s for s in context.sections if s.name not in skip and s.items]
    if all(s.name == "system" for s in sections):
        return ""  # only the preamble: nothing remembered yet
    return "\n\n".join(
        "\n".join([f"## {s.title}", *(item.text for item in s.items)]) for s in sections
    )


def with_memory(messages: list[Any], text: str) -> list[Any]:
    """`messages` with `text` in the system message.

    A first system (or developer) message gets the memory in front of its own text, so
    the client's instructions come last and read as the final word; otherwise a new
    system message is put first.
    """
    first = messages[0] if messages else None
    if isinstance(first, dict) and first.get("role") in SYSTEM_ROLES:
        content = first.get("content")
        if content is None or isinstance(content, str):
            merged = f"{text}\n\n{content}" if content else text
            return [{**first, "content": merged}, *messages[1:]]
        if isinstance(content, list):
            return [{**first, "content": [{"type": "text", "text": text}, *content]}, *messages[1:]]
    return [{"role": "system", "content": text}, *messages]


def _valid(name: str) -> bool:
    try:
        check_stream(name)
    except InvalidInput:
        return False
    return True
