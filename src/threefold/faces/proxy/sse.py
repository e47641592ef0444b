"""Reading the assistant's answer out of an OpenAI server-sent event stream."""

import codecs
import json
from typing import Any


class StreamAnswer:
    """Fed the raw bytes of a chat completion stream, chunk by chunk, as they pass.

    Collects `choices[0].delta.content`; the answer is `complete` once the stream sent
    `data: [DONE]`, or ended normally after a finish_reason. An error event marks it
    `failed`.
    """

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._pending = ""
        self._data: list[str] = []
        self._parts: list[str] = []
        self.done = False
        self.finished = False
        self.failed = False

    @property
    def text(self) -> str:
        return "".join(self._parts)

    @property
    def complete(self) -> bool:
        return (self.done or self.finished) and not self.failed

    def feed(self, chunk: bytes) -> None:
        self._pending += self._decoder.decode(chunk)
        *lines, self._pending = self._pending.split("\n")
        for line in lines:
            self._line(line.rstrip("\r"))

    def end(self) -> None:
        """The stream ended: read what is left."""
        self._pending += self._decoder.decode(b"", final=True)
        if self._pending:
            self._line(self._pending.rstrip("\r"))
            self._pending = ""
        self._dispatch()

    def _line(self, line: str) -> None:
        if not line:
            self._dispatch()
        elif line.startswith("data:"):
            value = line[5:]
            self._data.append(value[1:] if value.startswith(" ") else value)

    def _dispatch(self) -> None:
        if not self._data:
            return
        data = "\n".join(self._data)
        self._data = []
        if data.strip() == "[DONE]":
            self.done = True
            return
        try:
            event = json.loads(data)
        except ValueError:
            return
        if isinstance(event, dict):
            self._event(event)

    def _event(self, event: dict[str, Any]) -> None:
        if event.get("error"):
            self.failed = True
            return
        for choice in event.get("choices") or ():
            if not isinstance(choice, dict) or choice.get("index", 0) != 0:
                continue
            delta = choice.get("delta")
            content = delta.get("content") if isinstance(delta, dict) else None
            if isinstance(content, str):
                self._parts.append(content)
            if choice.get("finish_reason"):
                self.finished = True


def json_answer(content: bytes) -> str:
    """The assistant text of a non-streaming chat completion body; "" if it has none."""
    try:
        body = json.loads(content)
    except ValueError:
        return ""
    choices = body.get("choices") if isinstance(body, dict) else None
    for choice in choices or ():
        if isinstance(choice, dict) and choice.get("index", 0) == 0:
            message = choice.get("message")
            text = message.get("content") if isinstance(message, dict) else None
            return text if isinstance(text, str) else ""
    return ""
