"""Request size limit: a body over http.max_body_bytes is a 413, declared or streamed.

A Content-Length over the limit is refused before any byte is read. A chunked body (or one
that lies about its length) is counted while it is read, and refused as soon as it passes
the limit; the application never sees a partial body.
"""

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from threefold.faces.http.errors import error_response


class BodyLimitMiddleware:
    def __init__(self, app: ASGIApp, max_body_bytes: int) -> None:
        self.app = app
        self.limit = max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.limit:
            await self._refuse(scope, receive, send, f"{declared:,} bytes")
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                await self.app(scope, _replay([message], receive), send)
                return
            body = message.get("body", b"")
            size += len(body)
            if size > self.limit:
                await self._refuse(scope, receive, send, f"more than {self.limit:,} bytes")
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        whole: Message = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        await self.app(scope, _replay([whole], receive), send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, size: str) -> None:
        response = error_response(
            413,
            "payload_too_large",
            f"the request body is {size}; the limit is {self.limit:,} bytes (http.max_body_bytes)",
        )
        await response(scope, receive, send)


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


def _replay(messages: list[Message], receive: Receive) -> Receive:
    """A receive that yields `messages`, then hands over to the real one (for disconnects)."""
    pending = list(messages)

    async def replay() -> Message:
        if pending:
            return pending.pop(0)
        return await receive()

    return replay
