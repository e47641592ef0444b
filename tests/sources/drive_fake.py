"""A real local HTTP server that speaks the Google Drive API v3 calls a sync makes.

    with FakeDrive(token="ya29.test", page_size=2) as drive:
        drive.add("F1", "doc1", "Design", "application/vnd.google-apps.document", b"text")
        drive.script(429)     # the next call answers 429 (Retry-After: 0)
        drive.calls           # [(path, params)], in order

- GET /drive/v3/files?q='<folder>' in parents and trashed = false&pageToken=...
  answers {"files": [...], "nextPageToken": ...} (no token on the last page);
- GET /drive/v3/files/<id>/export?mimeType=text/plain answers a Google format's text
  (403 exportSizeLimitExceeded-like errors can be scripted);
- GET /drive/v3/files/<id>?alt=media answers a plain file's bytes, streamed in chunks;
- GET /drive/v3/changes/startPageToken answers {"startPageToken": ...}, and
  GET /drive/v3/changes?pageToken=... the changes since, page by page, each with its file
  (parents, trashed) or `removed`, and `newStartPageToken` on the last page. `touch`,
  `trash`, `delete` and `move` change a file and note the change, as Drive does.

A wrong token gets Drive's 401 {"error": {"code": 401, "message": "Invalid Credentials"}}.
A file's declared `size` may differ from its body, to test a limit that trusts neither.
"""

from __future__ import annotations

import json
import re
import threading
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from tests.sources.local_server import LocalServer

_PARENT = re.compile(r"^'([^']+)' in parents and trashed = false$")
_CHUNK = 64 * 1024


@dataclass
class DriveFile:
    id: str
    folder: str
    name: str
    mime: str
    body: bytes | Iterable[bytes]
    modified: str = "2026-11-30T10:00:00.000Z"
    size: int | None = None
    """Declared in the listing (plain files only, as Drive does)."""
    trashed: bool = False


class FakeDrive(LocalServer):
    def __init__(self, token: str = "ya29.test", page_size: int = 100) -> None:
        self.token, self.page_size = token, page_size
        self.files: dict[str, DriveFile] = {}
        self.calls: list[tuple[str, dict[str, str]]] = []
        self.changed: list[str] = []
        """Ids of the files changed, in order: a page token is a position in it."""
        self.broken: set[str] = set()
        """Ids of files whose content answers 500 (listed all the same)."""
        self._script: deque[int] = deque()
        self._expiring: int | None = None
        self._lock = threading.Lock()
        super().__init__("/drive/v3", keep_alive=True)

    def add(self, folder: str, file_id: str, name: str, mime: str, body: Any, **extra: Any) -> None:
        self.files[file_id] = DriveFile(file_id, folder, name, mime, body, **extra)

    def touch(self, file_id: str, body: bytes, modified: str) -> None:
        """A new version of a file."""
        file = self.files[file_id]
        file.body, file.modified = body, modified
        self.changed.append(file_id)

    def trash(self, file_id: str) -> None:
        self.files[file_id].trashed = True
        self.changed.append(file_id)

    def delete(self, file_id: str) -> None:
        del self.files[file_id]
        self.changed.append(file_id)

    def move(self, file_id: str, folder: str) -> None:
        self.files[file_id].folder = folder
        self.changed.append(file_id)

    def expire_after(self, calls: int | None) -> None:
        """The token expires after `calls` more calls (None: it never does)."""
        self._expiring = calls

    def script(self, *statuses: int) -> None:
        with self._lock:
            self._script.extend(statuses)

    def paths(self) -> list[str]:
        return [path for path, _ in self.calls]

    # -- answering ------------------------------------------------------------------------

    def _answer(self, handler: BaseHTTPRequestHandler) -> None:
        parts = urlsplit(handler.path)
        path = parts.path.removeprefix("/drive/v3/")
        params = dict(parse_qsl(parts.query))
        with self._lock:
            self.calls.append((path, params))
            scripted = self._script.popleft() if self._script else None
            expired = self._expiring is not None and self._expiring <= 0
            if self._expiring is not None:
                self._expiring -= 1
        if expired:
            self._error(handler, 401, "Request had invalid authentication credentials.")
        elif scripted is not None:
            headers = {"Retry-After": "0"} if scripted == 429 else {}
            self._error(handler, scripted, "rateLimitExceeded", headers)
        elif handler.headers.get("Authorization") != f"Bearer {self.token}":
            self._error(handler, 401, "Invalid Credentials")
        elif path == "files":
            self._list(handler, params)
        elif path == "changes/startPageToken":
            body = json.dumps({"startPageToken": str(len(self.changed))}).encode()
            self._send(handler, 200, "application/json", [body])
        elif path == "changes":
            self._changes(handler, params)
        elif path.removesuffix("/export").removeprefix("files/") in self.broken:
            self._error(handler, 500, "Internal Error")
        elif (match := re.fullmatch(r"files/([^/]+)/export", path)) and match[1] in self.files:
            self._export(handler, self.files[match[1]], params)
        elif (match := re.fullmatch(r"files/([^/]+)", path)) and match[1] in self.files:
            self._media(handler, self.files[match[1]], params)
        else:
            self._error(handler, 404, f"File not found: {path}")

    def _list(self, handler: BaseHTTPRequestHandler, params: dict[str, str]) -> None:
        match = _PARENT.match(params.get("q", ""))
        if match is None:
            self._error(handler, 400, f"Invalid Value: q={params.get('q')!r}")
            return
        listed = [f for f in self.files.values() if f.folder == match[1] and not f.trashed]
        start = int(params.get("pageToken") or 0)
        size = min(self.page_size, int(params.get("pageSize") or 100))
        page = listed[start : start + size]
        body: dict[str, Any] = {"kind": "drive#fileList", "files": [self._meta(f) for f in page]}
        if start + size < len(listed):
            body["nextPageToken"] = str(start + size)
        self._send(handler, 200, "application/json", [json.dumps(body).encode()])

    def _changes(self, handler: BaseHTTPRequestHandler, params: dict[str, str]) -> None:
        token = params.get("pageToken", "")
        if not token.isdigit() or int(token) > len(self.changed):
            self._error(handler, 400, f"Invalid Value: pageToken={token!r}")
            return
        start = int(token)
        size = min(self.page_size, int(params.get("pageSize") or 100))
        changes = []
        for file_id in self.changed[start : start + size]:
            file = self.files.get(file_id)
            change: dict[str, Any] = {"kind": "drive#change", "fileId": file_id}
            if file is None:
                change["removed"] = True
            else:
                change |= {"removed": False, "file": self._meta(file)}
            changes.append(change)
        body: dict[str, Any] = {"kind": "drive#changeList", "changes": changes}
        if start + size < len(self.changed):
            body["nextPageToken"] = str(start + size)
        else:
            body["newStartPageToken"] = str(len(self.changed))
        self._send(handler, 200, "application/json", [json.dumps(body).encode()])

    def _meta(self, file: DriveFile) -> dict[str, Any]:
        meta = {
            "id": file.id,
            "name": file.name,
            "mimeType": file.mime,
            "modifiedTime": file.modified,
            "webViewLink": f"https://docs.example.com/{file.id}/view",
            "parents": [file.folder],
            "trashed": file.trashed,
        }
        if file.size is not None:
            meta["size"] = str(file.size)
        return meta

    def _export(
        self, handler: BaseHTTPRequestHandler, file: DriveFile, params: dict[str, str]
    ) -> None:
        if not file.mime.startswith("application/vnd.google-apps."):
            self._error(handler, 403, "Export only supports Docs Editors files.")
            return
        self._send(handler, 200, params.get("mimeType", "text/plain"), self._chunks(file))

    def _media(
        self, handler: BaseHTTPRequestHandler, file: DriveFile, params: dict[str, str]
    ) -> None:
        if params.get("alt") != "media":
            self._send(handler, 200, "application/json", [json.dumps(self._meta(file)).encode()])
        elif file.mime.startswith("application/vnd.google-apps."):
            self._error(handler, 403, "Only files with binary content can be downloaded.")
        else:
            self._send(handler, 200, file.mime, self._chunks(file))

    @staticmethod
    def _chunks(file: DriveFile) -> Iterable[bytes]:
        if isinstance(file.body, bytes):
            return [file.body[i : i + _CHUNK] for i in range(0, len(file.body), _CHUNK)] or [b""]
        return file.body

    def _error(
        self,
        handler: BaseHTTPRequestHandler,
        status: int,
        message: str,
        headers: dict[str, str] | None = None,
    ) -> None:
        body = json.dumps({"error": {"code": status, "message": message}}).encode()
        self._send(handler, status, "application/json", [body], headers)

    @staticmethod
    def _send(
        handler: BaseHTTPRequestHandler,
        status: int,
        content_type: str,
        chunks: Iterable[bytes],
        headers: dict[str, str] | None = None,
    ) -> None:
        """Chunked, so a body can be longer than anything declared, and stop midway when
        the client hangs up."""
        handler.send_response(status)
        handler.send_header("Content-Type", content_type)
        handler.send_header("Transfer-Encoding", "chunked")
        for name, value in (headers or {}).items():
            handler.send_header(name, value)
        handler.end_headers()
        try:
            for chunk in chunks:
                if chunk:
                    handler.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            handler.wfile.write(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            handler.close_connection = True
