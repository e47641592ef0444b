"""API keys: each maps to one tenant and one trust level. Only a hash is kept at rest."""

import hashlib
import secrets

from threefold.domain import ApiKey, Trust, check_tenant
from threefold.store.base import Store

PREFIX = "tf_"
OLD_PREFIXES = ("ms_",)
"""Keys made before the rename (memstrata's) keep working: only their hash is stored."""


def _hash(secret: str) -> str:
    # Keys are 256 random bits, so a plain SHA-256 cannot be brute-forced back.
    return hashlib.sha256(secret.encode()).hexdigest()


def create_key(store: Store, tenant: str, trust: Trust | str, label: str = "") -> tuple[int, str]:
    """A new key for `tenant` at `trust`; returns (key id, secret). The secret is shown once."""
    secret = PREFIX + secrets.token_urlsafe(32)
    key_id = store.insert_api_key(check_tenant(tenant), Trust(trust).value, label, _hash(secret))
    return key_id, secret


def resolve_key(store: Store, secret: str) -> ApiKey | None:
    """The live key this secret belongs to, or None."""
    if not secret or not secret.startswith((PREFIX, *OLD_PREFIXES)):
        return None
    return store.api_key(_hash(secret))
