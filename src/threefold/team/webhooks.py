"""Telling a rule's webhook about a new action: one JSON POST, guarded like page fetches.

Settings name the URL, but its host's DNS may say 127.0.0.1: the host is resolved once,
refused if any address is not public (unless team.webhook_allow_networks lists it), and
the request goes to the very address that was checked. Redirects are not followed.
"""

import logging
from typing import Any

import httpx

from threefold.errors import InvalidInput
from threefold.sources import web

log = logging.getLogger("threefold.team")


def post(
    url: str, payload: dict[str, Any], *, allow_networks: tuple[str, ...], timeout: float
) -> bool:
    """POST `payload`; True when the receiver answered 2xx. Failures are logged, not raised:
    an action stands whether or not its webhook heard of it."""
    target = httpx.URL(url)
    try:
        # The fetcher's own checks: a resolved address must be public or allowed.
        addresses = web._checked_addresses(target.host, target.port, web._networks(allow_networks))
    except (InvalidInput, web.FetchError) as exc:
        log.warning("webhook %s refused: %s", url, exc)
        return False
    headers = {"Host": target.netloc.decode("ascii"), "Content-Type": "application/json"}
    extensions = {"sni_hostname": target.host} if target.scheme == "https" else {}
    with httpx.Client(follow_redirects=False, timeout=timeout) as client:
        for address in addresses:
            request = client.build_request(
                "POST",
                target.copy_with(host=str(address)),
                json=payload,
                headers=headers,
                extensions=extensions,
            )
            try:
                response = client.send(request)
            except httpx.HTTPError as exc:
                log.warning("webhook %s failed: %s", url, exc)
                continue
            if response.is_success:
                return True
            log.warning("webhook %s answered %d", url, response.status_code)
            return False
    return False
