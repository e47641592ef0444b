"""Every error leaves as `{"error": {"code": ..., "message": ...}}` with a stable code.

| status | code | when |
|---|---|---|
| 400 | invalid_json | the body is not well-formed JSON (or not UTF-8) |
| 400 | bad_request | another malformed request, e.g. an unreadable multipart body |
| 401 | unauthorized | no key, an unknown key or a revoked key |
| 403 | forbidden | a public key writing, or a trust above the key's own |
| 404 | not_found | no such id for this tenant, or no such path |
| 405 | method_not_allowed | the path exists, the method does not |
| 413 | payload_too_large | the body is over http.max_body_bytes |
| 415 | unsupported_media_type | a JSON endpoint got a body without Content-Type: application/json |
| 422 | invalid_input | well-formed but invalid: bad field, stream name, budget, Slack ts |
| 429 | too_many_imports | too many imports are queued or running already |
| 503 | store_unavailable | the storage backend failed: busy, locked, closed, an I/O error |
| 503 | store_full | the disk or the database's size limit is full; nothing was written |
| 503 | store_read_only | the database cannot be written; reads still work |
| 503 | store_corrupt | the database file is damaged |
| 503 | shutting_down | an upload arrived while the server was stopping |
| 500 | internal | anything else; details go to the server log only |

Malformed JSON is a 400 (the request cannot be read at all); JSON that parses but does not
fit the schema is a 422. No response ever carries a traceback. An import that fails in the
background is not an HTTP error: its status says "failed", with the reason in `error`.
"""

import logging
from collections.abc import Mapping

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from threefold.errors import (
    Busy,
    InvalidInput,
    NotFound,
    SourceError,
    StoreError,
    ThreefoldError,
)
from threefold.faces.http.schemas import Error, ErrorDetail, ErrorResponse

log = logging.getLogger("threefold.faces.http")

STATUS_CODES: dict[int, str] = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    415: "unsupported_media_type",
    422: "invalid_input",
    429: "too_many_requests",
    501: "not_implemented",
    503: "store_unavailable",
}


class ApiError(StarletteHTTPException):
    """An HTTP error with our stable code; raise it from endpoints and dependencies."""

    def __init__(
        self, status: int, code: str, message: str, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(status_code=status, detail=message, headers=headers)
        self.code = code


def error_response(
    status: int,
    code: str,
    message: str,
    *,
    details: list[ErrorDetail] | None = None,
    headers: Mapping[str, str] | None = None,
) -> JSONResponse:
    body = ErrorResponse(error=Error(code=code, message=message, details=details))
    return JSONResponse(
        body.model_dump(mode="json", exclude_none=True), status_code=status, headers=headers
    )


def install(app: FastAPI) -> None:
    """Register the handlers that give every error the one shape."""
    app.add_exception_handler(StarletteHTTPException, _http_error)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, _validation_error)  # type: ignore[arg-type]
    app.add_exception_handler(InvalidInput, _invalid_input)  # type: ignore[arg-type]
    app.add_exception_handler(NotFound, _not_found)  # type: ignore[arg-type]
    app.add_exception_handler(Busy, _busy)  # type: ignore[arg-type]
    app.add_exception_handler(StoreError, _store_error)  # type: ignore[arg-type]
    app.add_exception_handler(SourceError, _source_error)  # type: ignore[arg-type]
    app.add_exception_handler(ThreefoldError, _internal)


async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
    code = getattr(exc, "code", None) or STATUS_CODES.get(exc.status_code, "http_error")
    message = exc.detail if isinstance(exc.detail, str) else str(exc.status_code)
    if exc.status_code == 400 and not isinstance(exc, ApiError) and _is_json(request):
        code, message = "invalid_json", _unparsed_body(exc.__cause__)
    if exc.status_code == 404 and not isinstance(exc, ApiError):
        message = f"no such path: {request.method} {request.url.path}"
    return error_response(exc.status_code, code, message, headers=exc.headers)


def _unparsed_body(cause: BaseException | None) -> str:
    """Why FastAPI could not parse a JSON body: it says only "error parsing the body", and
    keeps what json.loads raised as the cause."""
    if isinstance(cause, RecursionError):
        return "the request body's JSON is nested too deeply"
    if isinstance(cause, UnicodeDecodeError):
        return "the request body is not UTF-8 text"
    return "the request body is not valid UTF-8 JSON"


async def _validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
    errors = list(exc.errors())
    details = [
        ErrorDetail(
            loc=[str(p) if not isinstance(p, int) else p for p in e.get("loc", ())],
            msg=str(e.get("msg", "")),
            type=str(e.get("type", "")),
        )
        for e in errors
    ]
    if any(d.type == "json_invalid" for d in details):
        return error_response(
            400, "invalid_json", "the request body is not valid JSON", details=details
        )
    if not _is_json(request) and any(
        d.loc == ["body"] and d.type == "model_attributes_type" for d in details
    ):
        message = "send the body as JSON, with Content-Type: application/json"
        return error_response(415, "unsupported_media_type", message)
    summary = "; ".join(f"{'.'.join(str(p) for p in d.loc)}: {d.msg}" for d in details)
    return error_response(422, "invalid_input", summary or "invalid request", details=details)


async def _invalid_input(request: Request, exc: InvalidInput) -> JSONResponse:
    return error_response(422, "invalid_input", str(exc))


async def _busy(request: Request, exc: Busy) -> JSONResponse:
    return error_response(409, "busy", str(exc))


async def _source_error(request: Request, exc: SourceError) -> JSONResponse:
    return error_response(502, "source_failed", str(exc))


async def _not_found(request: Request, exc: NotFound) -> JSONResponse:
    return error_response(404, "not_found", str(exc) or "not found")


_STORE_MESSAGES = {
    "store_full": "the memory store is full; nothing was written",
    "store_read_only": "the memory store is read-only; nothing was written",
    "store_corrupt": "the memory store is damaged",
}
"""What a caller is told; the path and SQLite's own words go to the server log only."""


def store_error_response(exc: StoreError, method: str, path: str) -> JSONResponse:
    log.error("store error on %s %s: %s", method, path, exc)
    message = _STORE_MESSAGES.get(exc.code, "the memory store failed; try again")
    return error_response(503, exc.code, message)


async def _store_error(request: Request, exc: StoreError) -> JSONResponse:
    return store_error_response(exc, request.method, request.url.path)


async def _internal(request: Request, exc: Exception) -> JSONResponse:
    log.error("error on %s %s", request.method, request.url.path, exc_info=exc)
    return error_response(500, "internal", "internal server error")


class CatchAllMiddleware:
    """The last net: an unexpected error becomes a plain 500 (a 503 for the store), logged
    here with its traceback; the connection stays open for the client's next request."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def sending(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception as exc:
            if started:
                raise
            path = scope.get("path", "")
            if isinstance(exc, StoreError):
                response = store_error_response(exc, scope.get("method", ""), path)
            else:
                log.error("error on %s %s", scope.get("method"), path, exc_info=exc)
                response = error_response(500, "internal", "internal server error")
            await response(scope, receive, send)


def _is_json(request: Request) -> bool:
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    return kind == "application/json" or kind.endswith("+json")
