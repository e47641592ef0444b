"""Telling a rule's webhook about a new action: one JSON POST, guarded like page fetches;
or its Slack channel, by one chat.postMessage through the Web API.

Settings name the URL, but its host's DNS may say 127.0.0.1: the host is resolved once,
refused if any address is not public (unless team.webhook_allow_networks lists it), and
the request goes to the very address that was checked. Redirects are not followed.
"""

import logging
from typing import TYPE_CHECKING, Any

from threefold.errors import InvalidInput, SettingsError, SourceError

if TYPE_CHECKING:
    from threefold.settings import Settings
    from threefold.team.model import Action

log = logging.getLogger("threefold.team")


def post(
    url: str, payload: dict[str, Any], *, allow_networks: tuple[str, ...], timeout: float
) -> bool:
    """POST `payload`; True when the receiver answered 2xx. Failures are logged, not raised:
    an action stands whether or not its webhook heard of it."""
    import httpx  # here: only a rule with a webhook needs it, and a context none

    from threefold.sources import web

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


def to_slack(settings: "Settings", channel: str, action: "Action") -> bool:
    """Post `action` to a Slack channel; True when Slack accepted it. Failures (no token,
    a refused token, an unknown channel, Slack unreachable) are logged, not raised."""
    import httpx

    from threefold.sources.slack_api import slack_api

    try:
        with httpx.Client(timeout=settings.team.webhook_timeout_seconds) as client:
            slack_api(settings, client).post_message(channel, slack_text(action))
    except (SettingsError, SourceError) as exc:
        log.warning("Slack post to %s failed: %s", channel, exc)
        return False
    return True


def slack_text(action: "Action") -> str:
    """An action as one Slack message: what to do, who holds it, and where it was seen."""
    owner = f" (owner: {action.owner})" if action.owner else ""
    due = f", due {action.due}" if action.due else ""
    seen = ", ".join(e.label() for e in action.evidence[:3])
    return f"*{action.kind.replace('_', ' ')}*{owner}{due}: {action.title}" + (
        f"\nfrom {seen}" if seen else ""
    )
