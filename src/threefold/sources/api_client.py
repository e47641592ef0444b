"""Calls to outside APIs (Slack's Web API, Google Drive) that wait out rate limits.

A 429 (or a 503) with Retry-After is waited out, up to `max_waits` answers in a row and
never longer than `max_wait_seconds` each; past that, or on a network failure, the call
raises SourceError, and what the caller stored before it stays stored.
"""

import logging
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import httpx

from threefold.errors import SourceError

log = logging.getLogger("threefold.sources")

_WAITED_STATUSES = frozenset({429, 503})
_DEFAULT_WAIT = 1.0
"""Seconds waited when a 429 gives no Retry-After."""


class TooLarge(SourceError):
    """A download over its byte limit; nothing of it was kept."""


class ApiClient:
    """One service's HTTP calls: its base URL, its token, and its rate limits."""

    def __init__(
        self,
        client: httpx.Client,
        *,
        service: str,
        base_url: str,
        token: str,
        max_waits: int,
        max_wait_seconds: float,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.client, self.service, self.base_url = client, service, base_url.rstrip("/")
        self._headers = {"Authorization": f"Bearer {token}"}
        self.max_waits, self.max_wait_seconds, self._sleep = max_waits, max_wait_seconds, sleep
        self.waits = 0
        """Rate-limit answers waited out over this client's life."""

    def get(self, path: str, params: Mapping[str, str | int] | None = None) -> httpx.Response:
        """GET base_url/path, waiting out rate limits; raises SourceError past them."""
        with self._stream(path, params) as response:
            response.read()
            return response

    def download(self, path: str, params: Mapping[str, str | int] | None, limit: int) -> bytes:
        """The body of GET base_url/path, read no further than `limit` bytes: TooLarge
        beyond it, whatever Content-Length claimed."""
        with self._stream(path, params) as response:
            if response.status_code >= 400:
                response.read()
                raise self.failed(response)
            body = bytearray()
            for chunk in response.iter_bytes():
                body += chunk
                if len(body) > limit:
                    raise TooLarge(f"over the limit of {limit:,} bytes; skipped")
            return bytes(body)

    def post(self, path: str, body: Mapping[str, Any]) -> httpx.Response:
        """POST `body` as JSON to base_url/path, waiting out rate limits like get()."""
        with self._stream(path, None, body) as response:
            response.read()
            return response

    @contextmanager
    def _stream(
        self,
        path: str,
        params: Mapping[str, str | int] | None,
        body: Mapping[str, Any] | None = None,
    ) -> Iterator[httpx.Response]:
        url = f"{self.base_url}/{path.lstrip('/')}"
        method = "GET" if body is None else "POST"
        sent = None if body is None else dict(body)
        waits = 0
        while True:
            try:
                with self.client.stream(
                    method, url, params=dict(params or {}), headers=self._headers, json=sent
                ) as response:
                    if response.status_code not in _WAITED_STATUSES:
                        yield response
                        return
                    wait = self._wait_for(response, waits)
            except httpx.HTTPError as exc:
                raise SourceError(f"{self.service} could not be reached: {exc}") from exc
            waits += 1
            self.waits += 1
            log.info("%s asked to wait %.1f s (%s)", self.service, wait, path)
            self._sleep(wait)

    def _wait_for(self, response: httpx.Response, waits: int) -> float:
        """How long a rate-limit answer asks to wait; SourceError past the limits."""
        header = response.headers.get("Retry-After", "")
        try:
            wait = max(0.0, float(header)) if header else _DEFAULT_WAIT
        except ValueError:
            wait = _DEFAULT_WAIT  # an HTTP date, or garbage: a short wait is safest
        if waits >= self.max_waits:
            raise SourceError(
                f"{self.service} answered {response.status_code} {waits + 1} times in a row;"
                " stopped, and what was read so far is kept: run again later to go on"
            )
        if wait > self.max_wait_seconds:
            raise SourceError(
                f"{self.service} asked to wait {wait:,.0f} s, longer than the"
                f" {self.max_wait_seconds:,.0f} s allowed; what was read so far is kept"
            )
        return wait

    def failed(self, response: httpx.Response) -> SourceError:
        """The error for an answer of 400 or more, with what the service said."""
        said = response.text[:300].strip()
        return SourceError(
            f"{self.service} answered {response.status_code} to {response.request.url.path}:"
            f" {said or response.reason_phrase}"
        )
