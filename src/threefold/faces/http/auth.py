"""API keys: every /v1 request names one, which fixes its tenant and its trust.

The key is resolved in middleware, before the body is read or parsed, so an anonymous
request gets a 401 whatever it sends. Endpoints take the resolved key as a dependency.

A context request is the hot path, and a lookup on the memory's thread costs it a thread
hop of its own. So the middleware remembers the keys it has resolved, and for the paths
in `CHECKED_IN_HANDLER` takes a remembered key without a hop: those handlers look the key
up again inside the one hop they make anyway (:func:`still_live`), so a key revoked a
moment ago, by this process or another, is refused at once.
"""

import hashlib
import threading
from collections import OrderedDict
from typing import Annotated

from fastapi import Depends, Request, Security
from fastapi.security import APIKeyHeader, HTTPBearer
from starlette.types import ASGIApp, Receive, Scope, Send

from threefold.domain import ApiKey, Trust, Visibility
from threefold.faces.http.errors import ApiError, error_response
from threefold.faces.http.lane import MemoryLane
from threefold.memory import Memory
from threefold.trust import access

SCOPE_KEY = "threefold.api_key"
SCOPE_SECRET = "threefold.api_secret"
"""The secret of a remembered key, for the handler to look up again; absent otherwise."""
CHECKED_IN_HANDLER = frozenset({"/v1/context"})
"""Paths whose handlers call :func:`still_live` inside their own trip to the memory."""
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


class KnownKeys:
    """Keys resolved lately, by a digest of their secret (no secret outlives its request):
    at most `size`, the least recently used dropped."""

    def __init__(self, size: int = 1024) -> None:
        self._size = size
        self._keys: OrderedDict[bytes, ApiKey] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, secret: str) -> ApiKey | None:
        digest = _digest(secret)
        with self._lock:
            key = self._keys.get(digest)
            if key is not None:
                self._keys.move_to_end(digest)
            return key

    def put(self, secret: str, key: ApiKey) -> None:
        digest = _digest(secret)
        with self._lock:
            self._keys[digest] = key
            self._keys.move_to_end(digest)
            while len(self._keys) > self._size:
                self._keys.popitem(last=False)

    def drop(self, secret: str) -> None:
        with self._lock:
            self._keys.pop(_digest(secret), None)


def _digest(secret: str) -> bytes:
    return hashlib.blake2b(secret.encode("utf-8", "surrogatepass"), digest_size=16).digest()


class AuthMiddleware:
    """Resolve the key of every request under /v1; answer 401 without one."""

    def __init__(self, app: ASGIApp, memory: Memory, lane: MemoryLane, known: KnownKeys) -> None:
        self.app = app
        self.memory = memory
        self.lane = lane
        self.known = known

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
        key = self.known.get(secret) if scope["path"] in CHECKED_IN_HANDLER else None
        if key is not None:
            scope[SCOPE_SECRET] = secret
        else:
            key = await self.lane.run(self.memory.api_key, secret)
        if key is None:
            self.known.drop(secret)
            response = error_response(401, "unauthorized", access.BAD_KEY, headers=_CHALLENGE)
            await response(scope, receive, send)
            return
        self.known.put(secret, key)
        scope[SCOPE_KEY] = key
        await self.app(scope, receive, send)


def still_live(memory: Memory, known: KnownKeys, scope: Scope) -> None:
    """For a request whose key came from memory: an :class:`ApiError` 401 unless the key is
    still live. Call it on the memory's thread, in the same trip as the work."""
    secret = scope.get(SCOPE_SECRET)
    if secret is None:  # looked up by the middleware for this very request
        return
    key = memory.api_key(secret)
    if key is None or key != scope.get(SCOPE_KEY):
        known.drop(secret)
        raise ApiError(401, "unauthorized", access.BAD_KEY, headers=_CHALLENGE)


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
