"""Who is calling a served face: the same API keys for the HTTP API, the proxy and MCP
over HTTP, each naming one tenant and one trust level.

`--no-auth` serves without keys, as one fixed caller, and only on a loopback address: a
memory holds what people told their assistant, and a flag meant for a developer's laptop
must not become a server anyone on the network can read.
"""

import ipaddress
import sys
from collections.abc import Iterable
from dataclasses import dataclass

from threefold.domain import ApiKey, Trust
from threefold.errors import SettingsError

NO_KEY = "an API key is required: send 'Authorization: Bearer <key>' or 'X-API-Key: <key>'"
BAD_KEY = "the API key is unknown or revoked"


@dataclass(frozen=True)
class Caller:
    """The tenant and trust a request acts as, and the key that says so (None: --no-auth)."""

    tenant: str
    trust: Trust
    key_id: int | None = None

    @classmethod
    def of(cls, key: ApiKey) -> "Caller":
        return cls(key.tenant, Trust(key.trust), key.id)


def presented_secret(headers: Iterable[tuple[bytes, bytes]]) -> str | None:
    """The key from 'Authorization: Bearer <key>', else from 'X-API-Key'; None if neither."""
    found = {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in headers}
    if "authorization" in found:
        return bearer(found["authorization"])
    return found.get("x-api-key", "").strip() or None


def bearer(authorization: str | None) -> str | None:
    """The credentials of an 'Authorization: Bearer <key>' header; None for another scheme."""
    scheme, _, value = (authorization or "").strip().partition(" ")
    return (value.strip() or None) if scheme.lower() == "bearer" else None


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:  # a name other than localhost may resolve anywhere
        return False


def check_no_auth(face: str, host: str, caller: Caller) -> None:
    """Refuse --no-auth on an address other machines can reach; else say loudly that the
    face is open, and as whom it acts."""
    if not is_loopback(host):
        raise SettingsError(
            f"{face}: --no-auth serves memory to anyone who can connect, so it listens only "
            f"on a loopback address (127.0.0.1, ::1, localhost), not {host!r}; create a key "
            "with `threefold keys create --tenant T` instead"
        )
    said = f"tenant {caller.tenant!r} at trust {caller.trust.value!r}"
    print(f"{face}: NO AUTHENTICATION (--no-auth): every request acts as {said}", file=sys.stderr)
