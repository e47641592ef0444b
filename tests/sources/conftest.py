"""A local web server with fixed pages, for the link and page tests."""

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

ALLOW = ["127.0.0.1"]
LOOPBACK = ["127.0.0.0/8"]
"""The test server is on loopback, which fetching refuses unless a setting allows it."""
HANG_SECONDS = 30.0

HTML = b"""<!doctype html>
<html><head><title>  The   Spec </title>
<style>body { color: red }</style>
<script>var secret = "do not index";</script></head>
<body>
<nav><a href="/">Home</a> | <a href="/about">About</a></nav>
<h1>Design</h1>
<p>First   paragraph with <b>bold</b> text.</p><p>Second paragraph.</p>
<!-- a comment -->
<noscript>enable js</noscript>
<ul><li>one</li><li>two</li></ul>
<footer>copyright</footer>
</body></html>"""


class _Handler(BaseHTTPRequestHandler):
    """Serves the fixed routes the tests need; `release` lets hanging handlers finish."""

    release: threading.Event

    def do_GET(self) -> None:
        route = self.path.partition("?")[0]
        port = self.server.server_address[1]
        if route == "/html":
            self._send(200, "text/html; charset=utf-8", HTML)
        elif route == "/xhtml":
            self._send(200, "application/xhtml+xml", b"<html><body><p>x</p></body></html>")
        elif route == "/plain":
            self._send(200, "text/plain", b"line  one\n\n\n\nline\ttwo  \n")
        elif route == "/latin1":
            self._send(200, "text/plain; charset=iso-8859-1", "café".encode("latin-1"))
        elif route == "/bad-utf8":
            self._send(200, "text/plain", b"ok \xff\xfe end")
        elif route == "/binary":
            self._send(200, "application/octet-stream", b"\x00\x01\x02")
        elif route == "/no-type":
            self._send(200, None, b"mystery")
        elif route == "/missing":
            self._send(404, "text/plain", b"not here")
        elif route == "/broken":
            self._send(500, "text/plain", b"boom")
        elif route == "/big":
            self._send(200, "text/plain", b"x" * 50_000)
        elif route == "/big-utf8":
            self._send(200, "text/plain; charset=utf-8", "é".encode() * 1_000)
        elif route == "/redirect":
            self._redirect("/html")
        elif route == "/redirect-abs":
            self._redirect(f"http://127.0.0.1:{port}/plain")
        elif route == "/redirect-away":
            self._redirect(f"http://localhost:{port}/html")
        elif route == "/redirect-other-loopback":
            self._redirect(f"http://127.0.0.2:{port}/html")
        elif route == "/redirect-metadata":
            self._redirect("http://169.254.169.254/latest/meta-data/")
        elif route == "/redirect-ftp":
            self._redirect("ftp://127.0.0.1/file")
        elif route.startswith("/chain/"):
            hops = int(route.rsplit("/", 1)[1])
            self._redirect(f"/chain/{hops - 1}" if hops > 0 else "/plain")
        elif route == "/hang":
            # Wakes as soon as the server shuts down, so no handler thread outlives the test.
            self.release.wait(HANG_SECONDS)
        elif route == "/trickle":
            self._trickle()
        else:
            self._send(404, "text/plain", b"unknown route")

    def _send(self, status: int, content_type: str | None, body: bytes) -> None:
        self.send_response(status)
        if content_type:
            self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self._write(body)

    def _redirect(self, location: str) -> None:
        self.send_response(302)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def _trickle(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.end_headers()
        while not self.release.wait(0.05):
            if not self._write(b"drip "):
                return

    def _write(self, data: bytes) -> bool:
        # The client hanging up early is expected here, not a server error worth a traceback.
        try:
            self.wfile.write(data)
            self.wfile.flush()
        except OSError:
            return False
        return True

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def base_url() -> Iterator[str]:
    release = threading.Event()
    handler = type("Handler", (_Handler,), {"release": release})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    # Non-daemon handler threads are joined by server_close, so none leak past the test.
    server.daemon_threads = False
    # A short poll interval keeps shutdown, and so every teardown, fast.
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        release.set()
        server.shutdown()
        server.server_close()
        thread.join(5)
