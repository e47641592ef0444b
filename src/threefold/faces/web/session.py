"""Sign-in for the inspector: the API key lives in an HttpOnly, SameSite=Strict cookie and
is resolved on every request by the same machinery as the HTTP API's keys.

Forms that change data carry a CSRF token derived from the key itself (an HMAC), so the
server keeps no session state and a page from another site cannot forge one.
"""

import hashlib
import hmac
from dataclasses import dataclass

from fastapi import Request
from starlette.responses import Response

from threefold.domain import READABLE, ApiKey, Trust, Visibility
from threefold.memory import Memory

COOKIE = "threefold_ui_key"
COOKIE_PATH = "/ui"
_CSRF_CONTEXT = b"threefold-ui-csrf-v1"


class SignInNeeded(Exception):
    """No key, or one that is unknown or revoked: the page sends the browser to sign in."""


class Forbidden(Exception):
    """The key's trust is too low for this action."""


@dataclass(frozen=True)
class Viewer:
    """Who is looking: their key (tenant and trust) and their forms' CSRF token."""

    key: ApiKey
    csrf: str

    @property
    def trust(self) -> Trust:
        return Trust(self.key.trust)

    @property
    def tenant(self) -> str:
        return self.key.tenant

    @property
    def is_owner(self) -> bool:
        return self.trust is Trust.FULL

    @property
    def can_write(self) -> bool:
        return self.trust is not Trust.PUBLIC

    def reads(self, visibility: Visibility) -> bool:
        return visibility in READABLE[self.trust]


def csrf_token(secret: str) -> str:
    return hmac.new(secret.encode(), _CSRF_CONTEXT, hashlib.sha256).hexdigest()


def resolve_viewer(memory: Memory, request: Request) -> Viewer:
    secret = request.cookies.get(COOKIE, "")
    key = memory.api_key(secret) if secret else None
    if key is None:
        raise SignInNeeded
    return Viewer(key=key, csrf=csrf_token(secret))


def check_csrf(viewer: Viewer, presented: str | None) -> None:
    if not presented or not hmac.compare_digest(presented, viewer.csrf):
        raise Forbidden("this form has no valid CSRF token; reload the page and try again")


def require_owner(viewer: Viewer) -> None:
    if not viewer.is_owner:
        raise Forbidden("only a key of trust 'full' can change or erase memories")


def require_writer(viewer: Viewer) -> None:
    if not viewer.can_write:
        raise Forbidden("a public key can read but not write")


def keep_key(response: Response, request: Request, secret: str) -> None:
    response.set_cookie(
        COOKIE,
        secret,
        path=COOKIE_PATH,
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
    )


def drop_key(response: Response) -> None:
    response.delete_cookie(COOKIE, path=COOKIE_PATH, httponly=True, samesite="strict")
