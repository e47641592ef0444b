"""Real servers for the proxy tests: uvicorn in a thread, and a fake upstream that streams.

    with FakeUpstream([Reply(["Hel", "lo"], delay=0.2), Fail(500), Hang()]) as upstream:
        upstream.url              # http://127.0.0.1:PORT/v1
        upstream.requests[0]      # the parsed JSON body of the first chat request

Each ``POST /v1/chat/completions`` takes the next script entry:

- :class:`Reply`: the answer's tokens; as server-sent events, one chunk per token after
  ``delay`` seconds each, when the request asks ``stream: true``, else one JSON completion.
  ``stall_after`` stops a stream after that many tokens until the server closes;
- :class:`Fail`: an HTTP error with an OpenAI-shaped body;
- :class:`Hang`: no answer until the server closes (or ``seconds`` pass).

With the script used up it answers ``Reply(["ok"])``. The time each streamed token was
written is kept in ``sent_at`` (one list per request, ``time.monotonic()``).
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route


class ServerThread:
    """An ASGI app served by uvicorn on a free loopback port, in a background thread."""

    def __init__(self, app: Any) -> None:
        config = uvicorn.Config(
            app,
            host="127.0.0.1",
            port=0,
            log_config=None,
            log_level="warning",
            lifespan="on",
            timeout_graceful_shutdown=3,
        )
        self.server = uvicorn.Server(config)
        self._socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._socket.bind(("127.0.0.1", 0))
        self.port = self._socket.getsockname()[1]
        self._thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self._socket]}, daemon=True
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ServerThread:
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.close()
                raise RuntimeError("the test server did not start")
            time.sleep(0.01)
        return self

    def close(self) -> None:
        self.server.should_exit = True
        if self._thread.is_alive():
            self._thread.join(15)
        self._socket.close()

    def __enter__(self) -> ServerThread:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.close()


@dataclass(frozen=True)
class Reply:
    tokens: tuple[str, ...] | list[str]
    delay: float = 0.0
    stall_after: int | None = None


@dataclass(frozen=True)
class Fail:
    status: int
    message: str = "scripted failure"


@dataclass(frozen=True)
class Hang:
    seconds: float = 30.0


Entry = Reply | Fail | Hang


class FakeUpstream:
    """An OpenAI-compatible chat server on loopback answering from a script; see the module."""

    model = "fake-upstream-model"

    def __init__(self, script: Iterable[Entry] = ()) -> None:
        self.requests: list[dict] = []
        self.raw: list[bytes] = []
        self.headers: list[dict[str, str]] = []
        self.sent_at: list[list[float]] = []
        self.finished_at: list[float] = []
        self._script: deque[Entry] = deque(script)
        self._lock = threading.Lock()
        self._release = threading.Event()
        app = Starlette(
            routes=[
                Route("/v1/chat/completions", self._chat, methods=["POST"]),
                Route("/v1/models", self._models, methods=["GET"]),
            ]
        )
        self._server = ServerThread(app)

    @property
    def url(self) -> str:
        return f"{self._server.url}/v1"

    def add(self, *entries: Entry) -> FakeUpstream:
        with self._lock:
            self._script.extend(entries)
        return self

    # -- handlers -------------------------------------------------------------------

    async def _chat(self, request: Request) -> Response:
        raw = await request.body()
        body = json.loads(raw)
        with self._lock:
            self.raw.append(raw)
            self.requests.append(body)
            self.headers.append(dict(request.headers))
            times: list[float] = []
            self.sent_at.append(times)
            entry = self._script.popleft() if self._script else Reply(["ok"])
        if isinstance(entry, Hang):
            await self._wait(entry.seconds)
            return _failure(Fail(500, "hung too long"))
        if isinstance(entry, Fail):
            return _failure(entry)
        if body.get("stream"):
            return StreamingResponse(
                self._events(entry, body, times), media_type="text/event-stream"
            )
        self.finished_at.append(time.monotonic())
        return JSONResponse(completion(entry, body))

    async def _events(self, reply: Reply, body: dict, times: list[float]) -> AsyncIterator[bytes]:
        yield _event(_chunk(body, {"role": "assistant", "content": ""}))
        for count, token in enumerate(reply.tokens):
            if reply.stall_after is not None and count >= reply.stall_after:
                await self._wait(30)
                return
            await asyncio.sleep(reply.delay)
            times.append(time.monotonic())
            yield _event(_chunk(body, {"content": token}))
        yield _event(_chunk(body, {}, finish_reason="stop"))
        yield b"data: [DONE]\n\n"
        self.finished_at.append(time.monotonic())

    async def _models(self, request: Request) -> Response:
        with self._lock:
            self.headers.append(dict(request.headers))
        data = [{"id": self.model, "object": "model", "created": 0, "owned_by": "fake"}]
        return JSONResponse({"object": "list", "data": data}, headers={"x-request-id": "req-1"})

    async def _wait(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while not self._release.is_set() and time.monotonic() < deadline:
            await asyncio.sleep(0.02)

    # -- lifecycle ------------------------------------------------------------------

    def start(self) -> FakeUpstream:
        self._server.start()
        return self

    def close(self) -> None:
        self._release.set()
        self._server.close()

    def __enter__(self) -> FakeUpstream:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def completion(reply: Reply, body: dict) -> dict:
    text = "".join(reply.tokens)
    return {
        "id": "chatcmpl-upstream-1",
        "object": "chat.completion",
        "created": 1700000000,
        "model": body.get("model") or FakeUpstream.model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": text, "refusal": None},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 3, "completion_tokens": len(reply.tokens), "total_tokens": 9},
    }


def _chunk(body: dict, delta: dict, finish_reason: str | None = None) -> dict:
    return {
        "id": "chatcmpl-upstream-1",
        "object": "chat.completion.chunk",
        "created": 1700000000,
        "model": body.get("model") or FakeUpstream.model,
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}],
    }


def _event(payload: dict) -> bytes:
    return f"data: {json.dumps(payload)}\n\n".encode()


def _failure(fail: Fail) -> JSONResponse:
    error = {"message": fail.message, "type": "server_error", "param": None, "code": None}
    return JSONResponse({"error": error}, status_code=fail.status)
