"""The OpenAI-compatible memory proxy: a Starlette app in front of any chat server.

Per request it picks a stream (header `X-Threefold-Stream`, else the request's `user`),
puts that stream's memory into the system message, forwards the request upstream, passes
the answer back as it arrives, and records the turn once the answer is complete.

Every request carries a threefold API key, which names the tenant and trust it acts as:
as `Authorization: Bearer <key>` (then the upstream gets the key in `proxy.api_key_env`), so
that an OpenAI client needs only its key and base URL changed; or in `X-API-Key` (then the
client's own `Authorization` goes upstream, else the `proxy.api_key_env` one). Under
--no-auth no key is read, and the client's `Authorization` goes upstream as in the second
case. The threefold key itself never leaves the proxy.
"""

import json
import logging
import os
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import anyio
import httpx
from starlette.applications import Starlette
from starlette.background import BackgroundTask
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from threefold import tracing
from threefold.domain import Trust
from threefold.errors import InvalidInput
from threefold.faces.json_body import BadJson, parse_json
from threefold.faces.proxy.inject import (
    STREAM_HEADER,
    has_history,
    memory_text,
    pick_stream,
    query_text,
    speaker_name,
    with_memory,
)
from threefold.faces.proxy.sse import StreamAnswer, json_answer
from threefold.memory import Memory
from threefold.settings import Settings
from threefold.trust import access
from threefold.trust.access import Caller

log = logging.getLogger("threefold.faces.proxy")

WARNING_HEADER = "X-Threefold-Warning"
FORWARDED_REQUEST_HEADERS = ("openai-organization", "openai-project", "openai-beta")
PASSED_RESPONSE_HEADERS = ("x-request-id", "openai-processing-ms", "openai-version")


@dataclass(frozen=True)
class _Turn:
    """What to record once the answer is complete."""

    stream: str
    query: str
    model: str | None
    caller: Caller
    speaker: str | None = None


class _Proxy:
    def __init__(
        self,
        memory: Memory,
        settings: Settings,
        http_client: httpx.AsyncClient | None,
        open_as: Caller | None,
    ) -> None:
        self.memory = memory
        self.open_as = open_as
        """The caller of every request under --no-auth; None: each request's key says."""
        self.settings = settings
        self.upstream = settings.proxy.upstream.rstrip("/")
        if not self.upstream.startswith(("http://", "https://")):
            raise InvalidInput(f"proxy.upstream must be an http(s) URL, got {self.upstream!r}")
        self.timeout = httpx.Timeout(settings.proxy.timeout_seconds)
        self._client = http_client
        self._owns_client = http_client is None

    @asynccontextmanager
    async def lifespan(self, app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            if self._owns_client and self._client is not None:
                await self._client.aclose()
                self._client = None

    def client(self) -> httpx.AsyncClient:
        if self._client is None:
            self._client = httpx.AsyncClient(timeout=self.timeout)
        return self._client

    # -- routes ---------------------------------------------------------------

    async def chat(self, request: Request) -> Response:
        caller, keyed = await self._caller(request)
        if caller is None:
            return _unauthorized(keyed)
        raw = await request.body()
        try:
            body = parse_json(raw)
        except BadJson as exc:
            return _error(400, f"request body is not valid JSON ({exc})", code="invalid_json")
        if not isinstance(body, dict):
            return _error(400, "request body must be a JSON object", code="invalid_json")
        try:
            stream, param = pick_stream(request.headers.get(STREAM_HEADER), body.get("user"))
        except InvalidInput as exc:
            param = STREAM_HEADER if request.headers.get(STREAM_HEADER) else "user"
            return _error(422, str(exc), param=param, code="invalid_stream")
        headers = self._upstream_headers(request, keyed)
        if stream is None:
            log.warning("a request named no stream: %s", NO_STREAM)
            return await self._forward(raw, headers, None, {WARNING_HEADER: NO_STREAM})
        messages = body.get("messages")
        query = query_text(messages)
        extra = {"X-Threefold-Stream": stream}
        text, warning = await self._memory(stream, query, messages, caller)
        if caller.trust is Trust.PUBLIC:
            warning = "; ".join(filter(None, [warning, NOT_RECORDED]))
        if warning:
            extra[WARNING_HEADER] = warning
        if text and isinstance(messages, list):
            raw = json.dumps({**body, "messages": with_memory(messages, text)}).encode()
        model = body.get("model") if isinstance(body.get("model"), str) else None
        tracing.event("proxy", stream=stream, source=param, memory_chars=len(text), warning=warning)
        turn = _Turn(stream, query, model, caller, speaker_name(messages))
        recorded = turn if caller.trust is not Trust.PUBLIC else None
        return await self._forward(raw, headers, recorded, extra)

    async def models(self, request: Request) -> Response:
        caller, keyed = await self._caller(request)
        if caller is None:
            return _unauthorized(keyed)
        path = request.url.path.removeprefix("/v1")
        client = self.client()
        upstream = client.build_request(
            "GET",
            self.upstream + path,
            headers=self._upstream_headers(request, keyed),
            timeout=self.timeout,
        )
        try:
            response = await client.send(upstream)
        except httpx.HTTPError as exc:
            return _upstream_failed(exc, self.settings.proxy.timeout_seconds)
        return _relay(response, response.content, {})

    # -- inside ---------------------------------------------------------------

    async def _caller(self, request: Request) -> tuple[Caller | None, str | None]:
        """Who the request acts as, and where its key came from: 'x-api-key',
        'authorization', or None if it sent none. No caller: the key is missing or bad."""
        if self.open_as is not None:
            return self.open_as, None
        secret: str | None = request.headers.get("x-api-key", "").strip()
        source = "x-api-key"
        if not secret:
            source, secret = "authorization", access.bearer(request.headers.get("authorization"))
        if not secret:
            return None, None
        key = await run_in_threadpool(self.memory.api_key, secret)
        return (Caller.of(key) if key is not None else None), source

    async def _memory(
        self, stream: str, query: str, messages: Any, caller: Caller
    ) -> tuple[str, str | None]:
        """The memory text for the system message, and a warning if memory failed."""
        try:
            context = await run_in_threadpool(
                self.memory.context,
                stream,
                query,
                self.settings.proxy.budget,
                trust=caller.trust,
                tenant=caller.tenant,
            )
        except Exception as exc:  # the request goes on without memory
            log.warning("memory unavailable for %s: %s", stream, _reason(exc))
            return "", f"memory unavailable: {_reason(exc)}"
        return memory_text(context, with_turns=not has_history(messages)), None

    async def _forward(
        self, raw: bytes, headers: dict[str, str], turn: _Turn | None, extra: dict[str, str]
    ) -> Response:
        client = self.client()
        upstream = client.build_request(
            "POST",
            f"{self.upstream}/chat/completions",
            content=raw,
            headers=headers,
            timeout=self.timeout,
        )
        try:
            response = await client.send(upstream, stream=True)
        except httpx.HTTPError as exc:
            return _upstream_failed(exc, self.settings.proxy.timeout_seconds)
        is_sse = response.headers.get("content-type", "").startswith("text/event-stream")
        if response.is_success and is_sse:
            return self._streaming(response, turn, extra)
        try:
            content = await response.aread()
        except httpx.HTTPError as exc:
            return _upstream_failed(exc, self.settings.proxy.timeout_seconds)
        finally:
            await response.aclose()
        if response.status_code >= 500:
            return _upstream_status(response, content, extra)
        if response.status_code in REFUSED and "Authorization" not in headers:
            warnings = [extra.get(WARNING_HEADER), self._no_upstream_key()]
            extra = {**extra, WARNING_HEADER: "; ".join(filter(None, warnings))}
        answer = json_answer(content) if response.is_success and turn else ""
        if turn and answer:
            # Stored before the client has the answer, so its next request sees this turn
            # and turns keep the order in which they were asked.
            await run_in_threadpool(self._record, turn, answer)
        return _relay(response, content, extra)

    def _streaming(
        self, response: httpx.Response, turn: _Turn | None, extra: dict[str, str]
    ) -> StreamingResponse:
        answer = StreamAnswer()
        timeout = self.settings.proxy.timeout_seconds

        async def relay() -> AsyncIterator[bytes]:
            # [DONE] is held back until the turn is stored: a client that sends its next
            # message on [DONE] finds this turn in memory, and in its place.
            held = b""
            try:
                async for chunk in response.aiter_bytes():
                    answer.feed(chunk)
                    if answer.done:
                        held += chunk
                    else:
                        yield chunk
                answer.end()
                if turn is not None and answer.complete and answer.text:
                    with anyio.CancelScope(shield=True):
                        await run_in_threadpool(self._record, turn, answer.text)
                if held:
                    yield held
            except httpx.HTTPError as exc:  # headers are sent: end with an error event
                answer.failed = True
                log.warning("upstream stream broke off: %s", _reason(exc))
                yield held + _sse_error(exc, timeout)
            finally:
                with anyio.CancelScope(shield=True):
                    await response.aclose()

        async def after() -> None:
            with anyio.CancelScope(shield=True):
                await response.aclose()

        headers = {**_passed_headers(response), **extra, "Cache-Control": "no-cache"}
        return StreamingResponse(
            relay(),
            status_code=response.status_code,
            headers=headers,
            media_type="text/event-stream",
            background=BackgroundTask(after),
        )

    def _record(self, turn: _Turn, answer: str) -> None:
        """Store the finished turn; its post-turn work runs in memory's worker."""
        started = time.perf_counter()
        try:
            self.memory.add_turn(
                turn.stream,
                user=turn.query,
                assistant=answer,
                model_variant=turn.model,
                speaker=turn.speaker,
                tenant=turn.caller.tenant,
                trust=turn.caller.trust,
                key_id=turn.caller.key_id,
            )
        except Exception as exc:  # the answer is out already; nothing to tell the client
            log.warning("could not record the turn in %s: %s", turn.stream, _reason(exc))
            return
        tracing.event(
            "proxy_record", stream=turn.stream, ms=round((time.perf_counter() - started) * 1000, 2)
        )

    def _no_upstream_key(self) -> str:
        """Why an upstream that refused the request got no key: the likely cause."""
        variable = self.settings.proxy.api_key_env
        log.warning("the upstream refused a request that carried no key; %s is unset", variable)
        return NO_UPSTREAM_KEY.format(variable=variable)

    def _upstream_headers(self, request: Request, keyed: str | None) -> dict[str, str]:
        """The headers for the upstream: never the threefold key; the client's own
        Authorization unless it carried that key."""
        headers = {"Accept-Encoding": "identity", "Content-Type": "application/json"}
        auth = request.headers.get("authorization") if keyed != "authorization" else None
        if not auth:
            key = os.environ.get(self.settings.proxy.api_key_env)
            auth = f"Bearer {key}" if key else None
        if auth:
            headers["Authorization"] = auth
        for name in FORWARDED_REQUEST_HEADERS:
            if value := request.headers.get(name):
                headers[name] = value
        return headers


def create_proxy_app(
    memory: Memory,
    settings: Settings,
    *,
    http_client: httpx.AsyncClient | None = None,
    open_as: Caller | None = None,
) -> Starlette:
    """The proxy as an ASGI app over `memory`, forwarding to `settings.proxy.upstream`.

    Each request's API key names its tenant and trust; with `open_as`, no key is asked
    for and every request acts as that caller (--no-auth). A given `http_client` stays
    open (its owner closes it); without one the app makes its own and closes it at
    shutdown.
    """
    proxy = _Proxy(memory, settings, http_client, open_as)
    routes = [
        Route("/v1/chat/completions", proxy.chat, methods=["POST"]),
        Route("/v1/models", proxy.models, methods=["GET"]),
        Route("/v1/models/{model:path}", proxy.models, methods=["GET"]),
    ]
    return Starlette(routes=routes, lifespan=proxy.lifespan)


# -- responses ----------------------------------------------------------------

NO_STREAM = (
    "no stream named: send the X-Threefold-Stream header or the request's user; this "
    "request got no memory and is not recorded"
)
NO_UPSTREAM_KEY = (
    "the upstream refused the request, and the proxy sent it no key: set {variable} "
    "(proxy.api_key_env) where the proxy runs, or send the threefold key in X-API-Key and "
    "the upstream's in Authorization"
)
REFUSED = (401, 403)
"""Upstream statuses that may mean it wanted a key."""
NOT_RECORDED = "this key has trust 'public', which may not write: the turn is not recorded"


def _unauthorized(keyed: str | None) -> JSONResponse:
    """401 in OpenAI's shape, which clients show as a bad API key."""
    message = access.BAD_KEY if keyed else access.NO_KEY
    return _error(401, message, code="invalid_api_key", headers={"WWW-Authenticate": "Bearer"})


def _error(
    status: int,
    message: str,
    *,
    kind: str = "invalid_request_error",
    param: str | None = None,
    code: str | None = None,
    headers: dict[str, str] | None = None,
) -> JSONResponse:
    """An error in OpenAI's shape."""
    body = {"error": {"message": message, "type": kind, "param": param, "code": code}}
    return JSONResponse(body, status_code=status, headers=headers)


def _upstream_failed(exc: httpx.HTTPError, timeout: float) -> JSONResponse:
    if isinstance(exc, httpx.TimeoutException):
        message = f"upstream did not answer within {timeout:g} seconds"
        return _error(504, message, kind="upstream_error", code="upstream_timeout")
    message = f"upstream unreachable: {_reason(exc)}"
    return _error(502, message, kind="upstream_error", code="upstream_unavailable")


def _upstream_status(
    response: httpx.Response, content: bytes, extra: dict[str, str]
) -> JSONResponse:
    detail = content[:300].decode("utf-8", "replace").strip()
    message = f"upstream answered {response.status_code}" + (f": {detail}" if detail else "")
    return _error(502, message, kind="upstream_error", code="upstream_error", headers=extra)


def _relay(
    response: httpx.Response,
    content: bytes,
    extra: dict[str, str],
) -> Response:
    """The upstream's answer as it is."""
    headers = {**_passed_headers(response), **extra}
    media_type = response.headers.get("content-type", "application/json")
    return Response(
        content,
        status_code=response.status_code,
        headers=headers,
        media_type=media_type,
    )


def _passed_headers(response: httpx.Response) -> dict[str, str]:
    return {
        name: value
        for name, value in response.headers.items()
        if name in PASSED_RESPONSE_HEADERS or name.startswith("x-ratelimit-")
    }


def _sse_error(exc: httpx.HTTPError, timeout: float) -> bytes:
    if isinstance(exc, httpx.TimeoutException):
        message = f"upstream stalled for {timeout:g} seconds mid-answer"
    else:
        message = f"upstream stream broke off: {_reason(exc)}"
    error = {"message": message, "type": "upstream_error", "param": None, "code": "upstream_error"}
    return f"data: {json.dumps({'error': error})}\n\n".encode()


def _reason(exc: BaseException) -> str:
    """A short, single-line, header-safe description of `exc`."""
    text = " ".join(str(exc).split()) or "no detail"
    text = f"{type(exc).__name__}: {text}"[:160]
    return text.encode("ascii", "replace").decode("ascii")
