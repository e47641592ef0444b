"""Slack's Events API: telling a request Slack signed from a forged one, and reading what
its events ask of the memory.

Pure code: nothing here touches a store or the network. Slack signs each request with the
app's signing secret: `X-Slack-Signature` is "v0=" and the hex HMAC-SHA256 of
"v0:<X-Slack-Request-Timestamp>:<raw body>". The timestamp is signed too, so a request
recorded and sent again later is refused once it is older than the replay window.
"""

import hashlib
import hmac
import json
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from threefold.errors import InvalidInput, ThreefoldError
from threefold.sources.slack import Channel, ChannelKind, read_message

__all__ = [
    "EventAction",
    "LiveEvent",
    "Unsigned",
    "read_envelope",
    "read_event",
    "sign",
    "verify",
]

VERSION = "v0"


class Unsigned(ThreefoldError):
    """A request that cannot be shown to come from Slack; `code` says why, for the answer."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def sign(secret: str, timestamp: str, body: bytes) -> str:
    """The signature Slack sends for `body` at `timestamp` (also what tests sign with)."""
    base = f"{VERSION}:{timestamp}:".encode() + body
    digest = hmac.new(secret.encode(), base, hashlib.sha256).hexdigest()
    return f"{VERSION}={digest}"


def verify(
    secret: str,
    timestamp: str | None,
    signature: str | None,
    body: bytes,
    *,
    now: float,
    window_seconds: float,
) -> None:
    """Raise Unsigned unless `signature` is Slack's for `body`, signed within the window
    of `now` (either way: a clock ahead is as suspect as one behind)."""
    if not timestamp or not signature:
        raise Unsigned(
            "unsigned", "X-Slack-Request-Timestamp and X-Slack-Signature are both required"
        )
    try:
        sent = int(timestamp)
    except ValueError:
        message = f"X-Slack-Request-Timestamp is not seconds: {timestamp!r}"
        raise Unsigned("bad_timestamp", message) from None
    skew = now - sent
    if abs(skew) > window_seconds:
        when = f"{skew:,.0f} s ago" if skew > 0 else f"{-skew:,.0f} s ahead"
        raise Unsigned(
            "stale_request",
            f"signed {when}, outside the replay window of {window_seconds:,.0f} s",
        )
    if not hmac.compare_digest(sign(secret, timestamp, body), signature):
        raise Unsigned("bad_signature", "the signature does not match the signing secret")


def read_envelope(body: bytes) -> dict[str, Any]:
    """The request's JSON object; InvalidInput if it is not one."""
    try:
        value = json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise InvalidInput("the request body is not valid UTF-8 JSON") from None
    if not isinstance(value, dict):
        raise InvalidInput("an Events API request is a JSON object")
    return value


class EventAction(StrEnum):
    STORE = "store"
    EDIT = "edit"
    DELETE = "delete"
    IGNORE = "ignore"


@dataclass(frozen=True, slots=True)
class LiveEvent:
    """What one event asks: store a message, replace one (`ts`), erase one, or nothing."""

    action: EventAction
    channel_id: str = ""
    channel_kind: ChannelKind = ChannelKind.PUBLIC
    message: Mapping[str, Any] | None = None
    """For STORE and EDIT: the message as Slack's APIs give it."""
    ts: str = ""
    """For EDIT and DELETE: the ts of the message changed."""
    reason: str = ""
    """For IGNORE: why nothing is done."""


_CHANNEL_TYPES = {
    "channel": ChannelKind.PUBLIC,
    "group": ChannelKind.PRIVATE,
    "im": ChannelKind.DM,
    "mpim": ChannelKind.MPIM,
}


def read_event(event: object) -> LiveEvent:
    """The action an event_callback's `event` asks for. Events other than messages are
    acknowledged and ignored, with the reason; a malformed message is InvalidInput, found
    here rather than by the worker, so that the sender hears of it."""
    found = _action(event)
    if found.message is not None:
        channel = Channel(id=found.channel_id, name=found.channel_id, kind=found.channel_kind)
        read_message(found.message, channel, {}, {}, "events")
    return found


def _action(event: object) -> LiveEvent:
    if not isinstance(event, dict):
        raise InvalidInput("an event_callback needs its event object")
    kind = event.get("type")
    if kind != "message":
        return LiveEvent(EventAction.IGNORE, reason=f"events of type {kind!r} are not read")
    channel = event.get("channel")
    if not isinstance(channel, str) or not channel:
        raise InvalidInput("a message event needs its channel")
    channel_kind = _CHANNEL_TYPES.get(str(event.get("channel_type")), ChannelKind.PUBLIC)
    subtype = event.get("subtype")
    if subtype == "message_changed":
        message = event.get("message")
        if not isinstance(message, dict) or not isinstance(message.get("ts"), str):
            raise InvalidInput("a message_changed event needs the message with its ts")
        return LiveEvent(EventAction.EDIT, channel, channel_kind, message, ts=message["ts"])
    if subtype == "message_deleted":
        deleted = event.get("deleted_ts")
        if not isinstance(deleted, str):
            raise InvalidInput("a message_deleted event needs its deleted_ts")
        return LiveEvent(EventAction.DELETE, channel, channel_kind, ts=deleted)
    return LiveEvent(EventAction.STORE, channel, channel_kind, event)
