"""A real local HTTP server that speaks Slack's Web API for the methods a backfill calls.

    with FakeSlack(token="xoxb-1", page_size=2) as slack:
        slack.users = [{"id": "U1", "name": "ann", "profile": {"display_name": "Ann"}}]
        slack.channels = [{"id": "C1", "name": "proj-alpha", "is_member": True}]
        slack.history["C1"] = [...]            # messages, any order; served newest first
        slack.replies[("C1", "1.0")] = [...]    # a thread's replies, without its start
        slack.script(429, 429)                  # the next calls answer 429 (Retry-After: 0)
        ...
        slack.calls                             # [(method, params)], in order
        slack.posted                            # chat.postMessage bodies, in order

It answers like Slack: HTTP 200 with {"ok": true, ...} and `response_metadata.next_cursor`
("" on the last page), {"ok": false, "error": "invalid_auth"} for a wrong token, and HTTP
429 with Retry-After when rate limited. `history` honours `oldest` (exclusive) and `limit`.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from tests.sources.local_server import LocalServer

Answer = int | str | Callable[[str, dict[str, str]], Any]
"""A scripted answer: an HTTP status (429 with Retry-After: 0, or 500), a Slack error
code answered as {"ok": false}, or a callable returning either (or None: answer normally)."""


class FakeSlack(LocalServer):
    def __init__(self, token: str = "xoxb-test", page_size: int | None = None) -> None:
        self.token = token
        self.page_size = page_size
        """Overrides the client's `limit`, to make pages small."""
        self.users: list[dict[str, Any]] = []
        self.channels: list[dict[str, Any]] = []
        self.history: dict[str, list[dict[str, Any]]] = {}
        self.replies: dict[tuple[str, str], list[dict[str, Any]]] = {}
        self.calls: list[tuple[str, dict[str, str]]] = []
        self.posted: list[dict[str, Any]] = []
        self.retry_after = "0"
        self._script: deque[Answer] = deque()
        self._lock = threading.Lock()
        super().__init__("/api", posts=True)

    def script(self, *answers: Answer) -> None:
        """Answer the next calls so, one answer each, before answering normally again."""
        with self._lock:
            self._script.extend(answers)

    def methods(self) -> list[str]:
        return [method for method, _ in self.calls]

    # -- answering ------------------------------------------------------------------------

    def _answer(self, handler: BaseHTTPRequestHandler) -> None:
        parts = urlsplit(handler.path)
        method = parts.path.removeprefix("/api/")
        params = dict(parse_qsl(parts.query))
        if handler.command == "POST":
            size = int(handler.headers.get("Content-Length") or 0)
            try:
                body = json.loads(handler.rfile.read(size) or b"{}")
            except ValueError:
                self._send(handler, 200, {"ok": False, "error": "invalid_json"})
                return
            params.update({k: v for k, v in body.items() if isinstance(v, str)})
        with self._lock:
            self.calls.append((method, params))
            scripted = self._script.popleft() if self._script else None
        if callable(scripted):
            scripted = scripted(method, params)
        if isinstance(scripted, int):
            headers = {"Retry-After": self.retry_after} if scripted == 429 else {}
            self._send(handler, scripted, {"ok": False, "error": "ratelimited"}, headers)
            return
        if isinstance(scripted, str):
            self._send(handler, 200, {"ok": False, "error": scripted})
            return
        if handler.headers.get("Authorization") != f"Bearer {self.token}":
            self._send(handler, 200, {"ok": False, "error": "invalid_auth"})
            return
        body = self._method(method, params)
        self._send(handler, 200, body)

    def _method(self, method: str, params: dict[str, str]) -> dict[str, Any]:
        if method == "users.list":
            return self._page(self.users, "members", params)
        if method == "conversations.list":
            return self._page(self.channels, "channels", params)
        if method == "conversations.history":
            messages = self.history.get(params.get("channel", ""))
            if messages is None:
                return {"ok": False, "error": "channel_not_found"}
            oldest = float(params.get("oldest") or 0)
            newest_first = sorted(
                (m for m in messages if float(m["ts"]) > oldest),
                key=lambda m: float(m["ts"]),
                reverse=True,
            )
            return self._page(newest_first, "messages", params)
        if method == "conversations.replies":
            thread = (params.get("channel", ""), params.get("ts", ""))
            start = [m for m in self.history.get(thread[0], []) if m["ts"] == thread[1]]
            if not start:
                return {"ok": False, "error": "thread_not_found"}
            replies = sorted(self.replies.get(thread, []), key=lambda m: float(m["ts"]))
            page = self._page(replies, "messages", params)
            page["messages"] = start + page["messages"]  # every page starts with the parent
            return page
        if method == "chat.postMessage":
            wanted = params.get("channel", "")
            known = {c["id"] for c in self.channels} | {c.get("name") for c in self.channels}
            if wanted not in known:
                return {"ok": False, "error": "channel_not_found"}
            if not params.get("text"):
                return {"ok": False, "error": "no_text"}
            self.posted.append(dict(params))
            return {"ok": True, "channel": wanted, "ts": f"{len(self.posted)}.000100"}
        return {"ok": False, "error": "unknown_method"}

    def _page(
        self, items: list[dict[str, Any]], key: str, params: dict[str, str]
    ) -> dict[str, Any]:
        start = int(params.get("cursor") or 0)
        size = self.page_size or int(params.get("limit") or 100)
        page = items[start : start + size]
        following = str(start + size) if start + size < len(items) else ""
        return {
            "ok": True,
            key: page,
            "has_more": bool(following),
            "response_metadata": {"next_cursor": following},
        }

    @staticmethod
    def _send(
        handler: BaseHTTPRequestHandler,
        status: int,
        body: dict[str, Any],
        headers: dict[str, str] | None = None,
    ) -> None:
        data = json.dumps(body).encode()
        handler.send_response(status)
        handler.send_header("Content-Type", "application/json; charset=utf-8")
        handler.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            handler.send_header(name, value)
        handler.end_headers()
        handler.wfile.write(data)
