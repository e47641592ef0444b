"""A real local HTTP server that speaks the OpenAI chat API with scripted answers.

    with FakeOpenAIServer(['{"facts": []}', Status(500), Delay(2.0)]) as server:
        client = server.client(timeout=0.3)      # closed with the server
        ...
        assert server.requests[0]["model"] == "test-model"

Each request to ``POST /v1/chat/completions`` takes the next script entry:

- a ``str``: the assistant message content (valid JSON or not), HTTP 200;
- :class:`Status`: an HTTP error with an OpenAI-shaped error body;
- :class:`Delay`: wait, then answer with its ``then`` entry (to trigger client timeouts);
- :class:`Reply`: content with a chosen finish_reason, or no choices at all;
- a callable taking the request JSON and returning any of the above.

Requests beyond the script get ``default`` if set, else HTTP 500 "script exhausted", and
are counted in ``exhausted``; the ``openai_server`` fixture fails the test on such requests.
Every request body is recorded in ``requests`` (parsed JSON) and its headers in
``headers`` (names lowercased). ``GET /v1/models`` lists one model. Streaming is not supported.

``POST /v1/embeddings`` answers from its own script, filled with ``add_embeddings`` (the
``embeddings=`` argument sets its default, e.g. ``text_vectors(8)``). Each entry is

- a list of vectors (lists of floats): sent as the ``data`` list, index 0, 1, ...;
- :class:`Status` or :class:`Delay`, as above;
- a callable taking the request JSON and returning any of the above.

The answer is OpenAI-shaped (``{"object": "list", "data": [{"object": "embedding",
"index": i, "embedding": [...]}], "model": ..., "usage": ...}``), with each vector as
base64 float32 when the request asks ``encoding_format="base64"``. Embedding requests are
recorded in ``embedding_requests`` and ``embedding_headers``, apart from the chat ones; a
request beyond the embedding script with no default is a 500 counted in ``exhausted``.
"""

from __future__ import annotations

import base64
import hashlib
import itertools
import json
import struct
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

try:
    import pytest
except ImportError:  # usable outside pytest, e.g. by benchmarks
    pytest = None


@dataclass(frozen=True)
class Status:
    """An HTTP error answer. `body` replaces the OpenAI-shaped error body if given."""

    code: int
    message: str = "scripted error"
    type: str = "invalid_request_error"
    param: str | None = None
    body: Any = None
    headers: tuple[tuple[str, str], ...] = ()
    """Extra response headers, e.g. (("Retry-After", "1"),)."""


@dataclass(frozen=True)
class Delay:
    """Wait `seconds` (cut short when the server closes), then answer with `then`."""

    seconds: float
    then: Entry = '{"error": "late answer"}'


@dataclass(frozen=True)
class Reply:
    """Content with a chosen finish_reason; `content=None` with `choices=False` sends none."""

    content: str | None
    finish_reason: str = "stop"
    choices: bool = True


@dataclass(frozen=True)
class Cut:
    """A 200 whose body stops after `fraction` of its bytes and whose connection then
    closes: a server or proxy dying in the middle of an answer."""

    content: str
    fraction: float = 0.5


Entry = str | Status | Delay | Reply | Cut | Callable[[dict], Any]
EmbeddingEntry = list | Status | Delay | Callable[[dict], Any]


def embedding_inputs(body: dict) -> list[str]:
    """The texts of an embeddings request (``input`` may be one string or a list)."""
    texts = body.get("input")
    return [texts] if isinstance(texts, str) else list(texts or [])


def text_vectors(dim: int = 8) -> Callable[[dict], list[list[float]]]:
    """An embeddings entry giving each input text a fixed pseudo-random vector of `dim`."""

    def answer(body: dict) -> list[list[float]]:
        vectors = []
        for text in embedding_inputs(body):
            seed = hashlib.blake2b(str(text).encode("utf-8", "surrogatepass")).digest()
            stream = hashlib.shake_256(seed).digest(4 * dim)
            vectors.append([(byte - 127.5) / 127.5 for byte in stream[::4]])
        return vectors

    return answer


_ids = itertools.count(1)


class _Handler(BaseHTTPRequestHandler):
    server: _HTTPServer
    timeout = 10  # seconds a connection may sit idle before the handler gives up

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass

    def do_GET(self) -> None:  # noqa: N802
        if self.path.rstrip("/").endswith("/models"):
            fake = self.server.fake
            data = [{"id": fake.model, "object": "model", "created": 0, "owned_by": "fake"}]
            self._send_json(200, {"object": "list", "data": data})
        else:
            self._send_error(Status(404, f"no route GET {self.path}", "not_found_error"))

    def do_POST(self) -> None:  # noqa: N802
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if self.path.rstrip("/").endswith("/embeddings"):
            self._embeddings(raw)
            return
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self._send_error(Status(404, f"no route POST {self.path}", "not_found_error"))
            return
        try:
            body = json.loads(raw or b"null")
        except ValueError:
            self._send_error(Status(400, "request body is not JSON"))
            return
        headers = {key.lower(): value for key, value in self.headers.items()}
        entry = self.server.fake._take(body, headers)
        self._answer(entry, body)

    def _answer(self, entry: Any, body: dict) -> None:
        fake = self.server.fake
        while True:
            if isinstance(entry, Delay):
                fake._stop.wait(entry.seconds)
                entry = entry.then
            elif callable(entry) and not isinstance(entry, Status | Reply | Cut | str):
                entry = entry(body)
            else:
                break
        if isinstance(entry, Status):
            self._send_error(entry)
            return
        cut = entry.fraction if isinstance(entry, Cut) else None
        if isinstance(entry, Cut):
            entry = Reply(entry.content)
        if isinstance(entry, str):
            entry = Reply(entry)
        if not isinstance(entry, Reply):
            raise TypeError(f"openai_fake: bad script entry {entry!r}")
        choices = []
        if entry.choices:
            message = {"role": "assistant", "content": entry.content, "refusal": None}
            choices = [{"index": 0, "message": message, "finish_reason": entry.finish_reason}]
        completion_tokens = len((entry.content or "").split())
        prompt_tokens = sum(
            len(str(message.get("content", "")).split()) for message in body.get("messages", [])
        )
        self._send_json(
            200,
            {
                "id": f"chatcmpl-fake-{next(_ids)}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": body.get("model") or fake.model,
                "choices": choices,
                "usage": {
                    "prompt_tokens": prompt_tokens,
                    "completion_tokens": completion_tokens,
                    "total_tokens": prompt_tokens + completion_tokens,
                },
            },
            cut=cut,
        )

    def _embeddings(self, raw: bytes) -> None:
        fake = self.server.fake
        try:
            body = json.loads(raw or b"null")
        except ValueError:
            self._send_error(Status(400, "request body is not JSON"))
            return
        if not isinstance(body, dict):
            self._send_error(Status(400, "request body is not a JSON object"))
            return
        headers = {key.lower(): value for key, value in self.headers.items()}
        entry = fake._take_embedding(body, headers)
        while True:
            if isinstance(entry, Delay):
                fake._stop.wait(entry.seconds)
                entry = entry.then
            elif callable(entry) and not isinstance(entry, Status):
                entry = entry(body)
            else:
                break
        if isinstance(entry, Status):
            self._send_error(entry)
            return
        if not isinstance(entry, list):
            raise TypeError(f"openai_fake: bad embeddings script entry {entry!r}")
        as_base64 = body.get("encoding_format") == "base64"
        data = []
        for index, vector in enumerate(entry):
            if as_base64:
                packed = struct.pack(f"<{len(vector)}f", *vector)
                vector = base64.b64encode(packed).decode("ascii")
            data.append({"object": "embedding", "index": index, "embedding": vector})
        tokens = sum(len(str(text).split()) for text in embedding_inputs(body))
        self._send_json(
            200,
            {
                "object": "list",
                "data": data,
                "model": body.get("model") or fake.model,
                "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
            },
        )

    def _send_error(self, status: Status) -> None:
        body = status.body
        if body is None:
            body = {
                "error": {
                    "message": status.message,
                    "type": status.type,
                    "param": status.param,
                    "code": None,
                }
            }
        self._send_json(status.code, body, status.headers)

    def _send_json(
        self,
        code: int,
        payload: Any,
        headers: tuple[tuple[str, str], ...] = (),
        cut: float | None = None,
    ) -> None:
        """Send `payload`; with `cut`, announce all of it but send only that fraction."""
        data = json.dumps(payload).encode()
        sent = data if cut is None else data[: int(len(data) * cut)]
        try:
            self.send_response(code)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(sent)
            if cut is not None:
                self.wfile.flush()
                self.close_connection = True
        except OSError:  # the client gave up (timeout) and closed the connection
            self.close_connection = True


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = False
    block_on_close = True  # server_close() joins the handler threads
    fake: FakeOpenAIServer


class FakeOpenAIServer:
    """An OpenAI-compatible server on 127.0.0.1, answering from a script. See the module doc."""

    def __init__(
        self,
        script: Iterable[Entry] = (),
        *,
        default: Entry | None = None,
        model: str = "fake-model",
        embeddings: EmbeddingEntry | None = None,
    ) -> None:
        self.model = model
        self.default = default
        self.embeddings_default = embeddings
        self.requests: list[dict] = []
        self.headers: list[dict[str, str]] = []
        self.embedding_requests: list[dict] = []
        self.embedding_headers: list[dict[str, str]] = []
        self.exhausted = 0
        self._script: deque[Entry] = deque(script)
        self._embedding_script: deque[EmbeddingEntry] = deque()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._clients: list[Any] = []
        self._httpd: _HTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- script -----------------------------------------------------------------------

    def add(self, *entries: Entry) -> FakeOpenAIServer:
        """Append entries to the script."""
        with self._lock:
            self._script.extend(entries)
        return self

    def reply_json(self, *payloads: Any) -> FakeOpenAIServer:
        """Append answers whose content is each payload dumped as JSON."""
        return self.add(*(json.dumps(payload) for payload in payloads))

    def add_embeddings(self, *entries: EmbeddingEntry) -> FakeOpenAIServer:
        """Append entries to the embeddings script."""
        with self._lock:
            self._embedding_script.extend(entries)
        return self

    @property
    def pending(self) -> int:
        """Script entries not used yet."""
        with self._lock:
            return len(self._script)

    def _take(self, body: Any, headers: dict[str, str]) -> Entry:
        with self._lock:
            self.requests.append(body)
            self.headers.append(headers)
            if self._script:
                return self._script.popleft()
            if self.default is not None:
                return self.default
            self.exhausted += 1
            return Status(500, "openai_fake: script exhausted", "server_error")

    def _take_embedding(self, body: dict, headers: dict[str, str]) -> EmbeddingEntry:
        with self._lock:
            self.embedding_requests.append(body)
            self.embedding_headers.append(headers)
            if self._embedding_script:
                return self._embedding_script.popleft()
            if self.embeddings_default is not None:
                return self.embeddings_default
            self.exhausted += 1
            return Status(500, "openai_fake: embeddings script exhausted", "server_error")

    # -- lifecycle --------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        if self._httpd is None:
            raise RuntimeError("server not started")
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    def start(self) -> FakeOpenAIServer:
        if self._httpd is None:
            self._httpd = _HTTPServer(("127.0.0.1", 0), _Handler)
            self._httpd.fake = self
            self._thread = threading.Thread(
                target=self._httpd.serve_forever,
                kwargs={"poll_interval": 0.05},
                name="openai-fake",
                daemon=True,
            )
            self._thread.start()
        return self

    def client(self, timeout: float = 5.0, api_key: str = "sk-fake-key", **options: Any):
        """An ``openai.OpenAI`` client for this server, without retries, closed with it."""
        import openai

        client = openai.OpenAI(
            base_url=self.base_url,
            api_key=api_key,
            timeout=timeout,
            max_retries=0,
            **options,
        )
        self._clients.append(client)
        return client

    def close(self) -> None:
        for client in self._clients:
            client.close()
        self._clients.clear()
        self._stop.set()  # wake handlers sitting in a Delay
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def __enter__(self) -> FakeOpenAIServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.close()


if pytest is not None:

    @pytest.fixture
    def openai_server() -> Iterator[FakeOpenAIServer]:
        """A started FakeOpenAIServer with an empty script, closed after the test.

        Fails the test if a request arrived after the script ran out.
        """
        with FakeOpenAIServer() as server:
            yield server
            if server.exhausted:
                pytest.fail(
                    f"openai_fake: {server.exhausted} request(s) arrived after the script ran out"
                )
