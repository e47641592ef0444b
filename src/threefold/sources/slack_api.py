"""Slack's Web API: the names of users and channels, and a channel's history and threads,
page by page through its cursors.

Slack answers HTTP 200 with `{"ok": false, "error": ...}` for most failures; those become
SourceError naming Slack's error (an expired or revoked token among them). Rate limits
are waited out by ApiClient.
"""

from collections.abc import Iterator, Mapping
from typing import Any

import httpx

from threefold.errors import SettingsError, SourceError
from threefold.settings import Settings
from threefold.sources.api_client import ApiClient
from threefold.sources.slack import ChannelKind, display_name

__all__ = ["AUTH_ERRORS", "SlackApi", "SlackChannel", "slack_api"]

AUTH_ERRORS = frozenset(
    {"invalid_auth", "not_authed", "token_expired", "token_revoked", "account_inactive"}
)
_TYPES = "public_channel,private_channel,mpim,im"


class SlackChannel:
    """A conversation as conversations.list gives it."""

    __slots__ = ("id", "is_member", "kind", "name")

    def __init__(self, raw: Mapping[str, Any]) -> None:
        self.id: str = str(raw["id"])
        self.kind = _kind(raw)
        name = raw.get("name")
        self.name: str = name if isinstance(name, str) and name else self.id
        # DMs have no is_member: the bot is in every DM it can list.
        self.is_member: bool = bool(raw.get("is_member", self.kind is ChannelKind.DM))


def _kind(raw: Mapping[str, Any]) -> ChannelKind:
    if raw.get("is_im"):
        return ChannelKind.DM
    if raw.get("is_mpim"):
        return ChannelKind.MPIM
    if raw.get("is_private") or raw.get("is_group"):
        return ChannelKind.PRIVATE
    return ChannelKind.PUBLIC


class SlackApi:
    """The few Web API methods a backfill reads."""

    def __init__(self, client: ApiClient, page_size: int = 200) -> None:
        self.client, self.page_size = client, page_size

    def call(self, method: str, params: Mapping[str, str | int]) -> dict[str, Any]:
        """One call; SourceError for an HTTP error or Slack's ok=false."""
        return self._answer(method, self.client.get(method, params))

    def post_message(self, channel: str, text: str) -> dict[str, Any]:
        """chat.postMessage: `text` to `channel` (an id, or a name the bot may post in)."""
        return self._answer(
            "chat.postMessage",
            self.client.post("chat.postMessage", {"channel": channel, "text": text}),
        )

    def _answer(self, method: str, response: httpx.Response) -> dict[str, Any]:
        if response.status_code >= 400:
            raise self.client.failed(response)
        try:
            body = response.json()
        except ValueError:
            raise SourceError(f"Slack's {method} answered something that is not JSON") from None
        if not isinstance(body, dict):
            raise SourceError(f"Slack's {method} answered JSON that is not an object")
        if body.get("ok") is not True:
            error = str(body.get("error") or "no error given")
            if error in AUTH_ERRORS:
                raise SourceError(
                    f"Slack refused the bot token ({error}) during {method}; give"
                    " slack.bot_token a valid token and run again: it goes on from there"
                )
            raise SourceError(f"Slack's {method} failed: {error}")
        return body

    def pages(
        self, method: str, key: str, params: Mapping[str, str | int], cursor: str | None = None
    ) -> Iterator[tuple[list[dict[str, Any]], str | None]]:
        """Each page's `key` list and the cursor of the page after it (None: the last),
        starting at `cursor`."""
        while True:
            query = {**params, "limit": self.page_size}
            if cursor:
                query["cursor"] = cursor
            body = self.call(method, query)
            items = body.get(key)
            page = (
                [item for item in items if isinstance(item, dict)]
                if isinstance(items, list)
                else []
            )
            meta = body.get("response_metadata")
            following = meta.get("next_cursor") if isinstance(meta, dict) else None
            cursor = following if isinstance(following, str) and following else None
            yield page, cursor
            if cursor is None:
                return

    def users(self) -> dict[str, str]:
        """Every user's id and the name people see."""
        names: dict[str, str] = {}
        for page, _ in self.pages("users.list", "members", {}):
            for user in page:
                user_id = user.get("id")
                if isinstance(user_id, str) and user_id:
                    names[user_id] = display_name(user) or user_id
        return names

    def channels(self) -> list[SlackChannel]:
        found: list[SlackChannel] = []
        params = {"types": _TYPES, "exclude_archived": "false"}
        for page, _ in self.pages("conversations.list", "channels", params):
            found.extend(SlackChannel(raw) for raw in page if isinstance(raw.get("id"), str))
        return found


def slack_api(settings: Settings, client: httpx.Client) -> SlackApi:
    """The Web API as settings.slack describe it, over `client` (the caller closes it)."""
    slack = settings.slack
    if slack.bot_token is None:
        raise SettingsError(
            "a Slack backfill needs slack.bot_token (THREEFOLD_SLACK__BOT_TOKEN), a bot token"
            " with channels:history, channels:read and users:read"
        )
    calls = ApiClient(
        client,
        service="Slack",
        base_url=slack.api_base,
        token=slack.bot_token.get_secret_value(),
        max_waits=slack.max_rate_limit_waits,
        max_wait_seconds=slack.max_retry_after_seconds,
    )
    return SlackApi(calls, slack.page_size)
