"""API keys: every /v1 request names one, which fixes its tenant and its trust.

The key is resolved in middleware, before the body is read or parsed, so an anonymous
request gets a 401 whatever it sends. Endpoints take the resolved key as a dependency.
"""

from typing import Annotated

import anyio
from fastapi import Depends, Request, Security
from fastapi.security import APIKeyHeader, HTTPBearer
from starlette.types import ASGIApp, Receive, Scope, Send

from memstrata import access
from memstrata.http.errors import ApiError, error_response
from memstrata.memory import Memory
from memstrata.types import ApiKey, Trust, Visibility

SCOPE_KEY = "memstrata.api_key"
PROTECTED_PREFIX = "/v1"
_CHALLENGE = {"WWW-Authenticate": "Bearer"}

TRUST_ORDER = (Trust.FULL, Trust.INNER, Trust.FAMILIAR, Trust.PUBLIC)
"""Most trusted first."""

DEFAULT_VISIBILITY = {
    Trust.FULL: Visibility.PRIVATE,
    Trust.INNER: Visibility.SHARED,
    Trust.FAMILIAR: Visibility.SOCIAL,
    Trust.PUBLIC: Visibility.SOCIAL,
}
"""What a key writes when it names no visibility: the most private level it can read back."""


class AuthMiddleware:
    """Resolve the key of every request under /v1; answer 401 without one."""

    def __init__(self, app: ASGIApp, memory: Memory, lane: anyio.CapacityLimiter) -> None:
        self.app = app
        self.memory = memory
        self.lane = lane

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not _protected(scope["path"]):
            await self.app(scope, receive, send)
            return
        secret = presented_secret(scope)
        if secret is None:
            response = error_response(
                401,
                "unauthorized",
                access.NO_KEY,
                headers=_CHALLENGE,
            )
            await response(scope, receive, send)
            return
        key = await anyio.to_thread.run_sync(self.memory.api_key, secret, limiter=self.lane)
        if key is None:
            response = error_response(401, "unauthorized", access.BAD_KEY, headers=_CHALLENGE)
            await response(scope, receive, send)
            return
        scope[SCOPE_KEY] = key
        await self.app(scope, receive, send)


def _protected(path: str) -> bool:
    return path == PROTECTED_PREFIX or path.startswith(PROTECTED_PREFIX + "/")


def presented_secret(scope: Scope) -> str | None:
    """The key from 'Authorization: Bearer <key>', else from 'X-API-Key'; None if neither."""
    return access.presented_secret(scope.get("headers", ()))


# Declared for the OpenAPI page only (its Authorize button); the middleware does the work.
# The dependencies are async because they do no I/O: a sync one costs a threadpool hop.
_bearer = HTTPBearer(auto_error=False, description="Authorization: Bearer <key>")
_header = APIKeyHeader(name="X-API-Key", auto_error=False, description="the key itself")


async def current_key(
    request: Request,
    _b: Annotated[object, Security(_bearer)] = None,
    _h: Annotated[object, Security(_header)] = None,
) -> ApiKey:
    key = request.scope.get(SCOPE_KEY)
    if not isinstance(key, ApiKey):  # only if the middleware was left out
        raise ApiError(401, "unauthorized", "an API key is required", headers=_CHALLENGE)
    return key


async def writer_key(key: Annotated[ApiKey, Depends(current_key)]) -> ApiKey:
    if key.trust is Trust.PUBLIC:
        raise ApiError(403, "forbidden", "a public key can read but not write")
    return key


async def owner_key(key: Annotated[ApiKey, Depends(current_key)]) -> ApiKey:
    # Forgetting and erasing are the owner's; sources are recorded at the owner's trust,
    # with a visibility their channels decide, which a lower-trust writer could neither
    # be capped into nor read back.
    if key.trust is not Trust.FULL:
        raise ApiError(
            403,
            "forbidden",
            f"this needs a key of trust 'full' (the owner's); this key has trust "
            f"{key.trust.value!r}",
        )
    return key


Caller = Annotated[ApiKey, Depends(current_key)]
Writer = Annotated[ApiKey, Depends(writer_key)]
Owner = Annotated[ApiKey, Depends(owner_key)]
"""A key of trust full: the user's own, which alone may forget, erase and import."""


def read_trust(key: ApiKey, requested: Trust | None) -> Trust:
    """The trust to read with: the key's own, or a lower one it asks for; never higher."""
    if requested is None:
        return key.trust
    if TRUST_ORDER.index(requested) < TRUST_ORDER.index(key.trust):
        raise ApiError(
            403,
            "forbidden",
            f"this key has trust {key.trust.value!r}; it can ask for that or lower, "
            f"not {requested.value!r}",
        )
    return requested


def write_visibility(key: ApiKey, requested: Visibility | None) -> Visibility:
    return DEFAULT_VISIBILITY[key.trust] if requested is None else requested
