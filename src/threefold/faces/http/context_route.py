"""/v1/context, the hot path: the answer itself, and a shortcut to it past FastAPI's routing.

A context request is most of a server's traffic, and FastAPI's route matching, dependency
solving and middleware cost about a quarter of a millisecond of CPU per request beside it.
:class:`ContextShortcut` answers a well-formed request itself, with the same validation
(:class:`ContextIn`), the same answer (:func:`context_response`) and the same exception
handlers as the route. Anything it does not read the way FastAPI would (a repeated query
parameter, another JSON media type, a body that does not validate) goes on to the route,
whose errors stay the one source of truth; the route also keeps the OpenAPI document.
"""

from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any
from urllib.parse import parse_qsl

import anyio
from fastapi import Request, Response
from pydantic import ValidationError
from starlette.datastructures import State
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from threefold.domain import ApiKey, Context
from threefold.faces.http.auth import SCOPE_KEY, read_trust, still_live
from threefold.faces.http.schemas import ContextIn
from threefold.faces.json_body import BadJson, parse_json
from threefold.memory import Memory

PATH = "/v1/context"
_JSON = "application/json"


async def context_response(state: State, params: ContextIn, key: ApiKey, scope: Scope) -> Response:
    """The context `params` ask for, read with `key`, as JSON: one trip to the memory's lane
    (the key's check rides along), and the context serialized once, as it is (FastAPI would
    validate the finished Context again and hop threads to do it), the same bytes as
    Context.model_dump_json()."""
    trust = read_trust(key, params.trust)
    mem: Memory = state.memory
    if params.query and mem.query_embedding_is_slow:
        # The model runs beside the lane, on the other core, while another request reads.
        prepare = partial(mem.prepare_query, params.query, tenant=key.tenant)
        await anyio.to_thread.run_sync(prepare, limiter=state.model_lane)

    def build() -> Context:
        still_live(mem, state.known_keys, scope)
        return mem.context(
            params.stream,
            params.query,
            params.budget,
            trust=trust,
            tenant=key.tenant,
            timezone=params.timezone,
        )

    built = await state.memory_lane.run(build)
    # The serializer's bytes as they are: model_dump_json() would decode them to a str,
    # and the response encode that again (a context is tens of kilobytes).
    return Response(Context.__pydantic_serializer__.to_json(built), media_type=_JSON)


class ContextShortcut:
    """Answer plain GET and POST /v1/context requests without FastAPI's routing.

    It sits inside the auth and body-limit middlewares: the key is resolved and the body
    whole by the time it looks at a request.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        key = scope.get(SCOPE_KEY)
        if scope["type"] != "http" or scope["path"] != PATH or not isinstance(key, ApiKey):
            await self.app(scope, receive, send)
            return
        body, receive = await _read_body(receive)
        params = _params(scope, body)
        if params is None:
            await self.app(scope, receive, send)
            return
        app = scope["app"]
        try:
            response = await context_response(app.state, params, key, scope)
        except Exception as exc:
            handler = _handler(app.exception_handlers, exc)
            if handler is None:
                raise
            response = await handler(Request(scope, receive), exc)
        await response(scope, receive, send)


def _params(scope: Scope, body: bytes) -> ContextIn | None:
    """The request's parameters, when FastAPI would read them the same way; else None."""
    if scope["method"] == "GET":
        fields = _query_fields(scope["query_string"])
    elif scope["method"] == "POST":
        fields = _json_fields(scope, body)
    else:
        return None
    if fields is None:
        return None
    try:
        return ContextIn.model_validate(fields)
    except ValidationError:
        return None


def _query_fields(query_string: bytes) -> dict[str, str] | None:
    # Decoded as Starlette does; a name given twice is left to FastAPI's own rule.
    pairs = parse_qsl(query_string.decode("latin-1"), keep_blank_values=True)
    fields = dict(pairs)
    return fields if len(fields) == len(pairs) else None


def _json_fields(scope: Scope, body: bytes) -> Any:
    if _media_type(scope) != _JSON:
        return None
    try:
        return parse_json(body)  # as Starlette's Request.json() reads it
    except BadJson:
        return None  # the route answers it, as it answers every route's bad JSON


def _media_type(scope: Scope) -> str | None:
    for name, value in scope["headers"]:
        if name == b"content-type":
            return value.decode("latin-1").split(";", 1)[0].strip().lower()
    return None


async def _read_body(receive: Receive) -> tuple[bytes, Receive]:
    """The whole body, and a receive that gives it again to whoever reads the request next."""
    chunks: list[bytes] = []
    messages: list[Message] = []
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            break
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break

    async def replay() -> Message:
        return messages.pop(0) if messages else await receive()

    return b"".join(chunks), replay


Handler = Callable[[Request, Exception], Awaitable[Response]]


def _handler(handlers: dict[Any, Handler], exc: Exception) -> Handler | None:
    """The app's handler for `exc`, found as Starlette finds it: by the nearest class."""
    for cls in type(exc).__mro__:
        if cls in handlers:
            return handlers[cls]
    return None
