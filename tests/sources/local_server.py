"""A fake service's HTTP server on a free loopback port, run in a thread while the fake is
entered: the part the Slack and Drive fakes share. A subclass answers in `_answer`."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Self


class LocalServer:
    def __init__(self, base_path: str, *, posts: bool = False, keep_alive: bool = False) -> None:
        """`base_path` ends `url`; `posts` answers POST as well as GET (otherwise 501);
        `keep_alive` speaks HTTP/1.1, keeping connections open as the real service does."""
        self._base_path = base_path
        fake = self

        class Handler(BaseHTTPRequestHandler):
            if keep_alive:
                protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:
                fake._answer(self)

            if posts:

                def do_POST(self) -> None:
                    fake._answer(self)

            def log_message(self, *args: object) -> None:
                """Quiet."""

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}{self._base_path}"

    def _answer(self, handler: BaseHTTPRequestHandler) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()
