"""Google Drive documents into streams, through the Drive API v3.

Each folder in settings (`drive.folders`) belongs to a stream. A sync lists the folder's
files page by page (files.list and its pageToken), reads Google Docs as plain text
(files.export) and plain files as they are (files.get with alt=media), and stores each
version of a document once, as a record of its stream: a document changed since the last
sync is stored again, and its earlier versions move to the stream's document history
(`drive-history:project/alpha` for project:alpha): recall finds the current text, and the
history stays readable. What cannot be read (a file over
`drive.max_file_bytes`, a type with no text, a download that fails) is skipped, and the
report says which and why; the rest of the folder is read all the same.
"""

import json
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import httpx

from threefold.domain import ImportProblem, ImportReport, Visibility
from threefold.errors import SettingsError, SourceError
from threefold.pipeline.jobs import DIGEST
from threefold.settings import DriveFolder, Settings
from threefold.sources.api_client import ApiClient, TooLarge
from threefold.store.base import NewRecord, Store
from threefold.tokens import count_tokens

__all__ = ["EXPORTED", "SOURCE", "DriveApi", "DriveSync", "drive_api", "history_stream"]

SOURCE = "drive"
FOLDER = "application/vnd.google-apps.folder"
EXPORTED: Mapping[str, str] = {
    "application/vnd.google-apps.document": "text/plain",
    "application/vnd.google-apps.presentation": "text/plain",
    "application/vnd.google-apps.spreadsheet": "text/csv",
}
"""Google's own formats, and the text type each is exported as."""
_TEXT_TYPES = frozenset({"application/json", "application/xml", "application/x-yaml"})
_VERSIONS = "versions:"
"""Source state: a file's stored versions (their modifiedTime), oldest first."""
_FIELDS = "nextPageToken, files(id, name, mimeType, modifiedTime, size, webViewLink)"


def _is_text(mime: str) -> bool:
    return (mime.startswith("text/") and mime != "text/html") or mime in _TEXT_TYPES


@dataclass(frozen=True, slots=True)
class DriveFile:
    id: str
    name: str
    mime: str
    modified: str
    size: int | None
    link: str

    @classmethod
    def read(cls, raw: Mapping[str, Any]) -> "DriveFile":
        size = raw.get("size")
        return cls(
            id=str(raw["id"]),
            name=str(raw.get("name") or raw["id"]),
            mime=str(raw.get("mimeType") or ""),
            modified=str(raw.get("modifiedTime") or ""),
            size=int(size) if isinstance(size, str | int) and str(size).isdigit() else None,
            link=str(raw.get("webViewLink") or f"https://drive.google.com/open?id={raw['id']}"),
        )


class DriveApi:
    """The three Drive v3 calls a sync makes."""

    def __init__(self, client: ApiClient) -> None:
        self.client = client

    def files(self, folder_id: str) -> Iterator[DriveFile]:
        token: str | None = None
        while True:
            params: dict[str, str | int] = {
                "q": f"'{folder_id}' in parents and trashed = false",
                "fields": _FIELDS,
                "pageSize": 100,
            }
            if token:
                params["pageToken"] = token
            body = self._json("files", params)
            for raw in body.get("files") or ():
                if isinstance(raw, dict) and isinstance(raw.get("id"), str):
                    yield DriveFile.read(raw)
            following = body.get("nextPageToken")
            if not isinstance(following, str) or not following:
                return
            token = following

    def text(self, file: DriveFile, limit: int) -> str:
        """The file's text: Google's formats exported, plain files downloaded."""
        if file.mime in EXPORTED:
            path, params = f"files/{file.id}/export", {"mimeType": EXPORTED[file.mime]}
        else:
            path, params = f"files/{file.id}", {"alt": "media"}
        return self.client.download(path, params, limit).decode("utf-8-sig", errors="replace")

    def _json(self, path: str, params: Mapping[str, str | int]) -> dict[str, Any]:
        response = self.client.get(path, params)
        if response.status_code >= 400:
            raise self.client.failed(response)
        try:
            body = response.json()
        except ValueError:
            raise SourceError("Google Drive answered something that is not JSON") from None
        if not isinstance(body, dict):
            raise SourceError("Google Drive answered JSON that is not an object")
        return body


@dataclass
class _Run:
    read: int = 0
    unchanged: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    routed: Counter[str] = field(default_factory=Counter)
    problems: list[ImportProblem] = field(default_factory=list)


class DriveSync:
    """Reads every folder of settings into its stream; each document version once."""

    def __init__(
        self,
        api: DriveApi,
        store: Store,
        settings: Settings,
        tenant: str,
        progress: Callable[[int, int], None] | None = None,
    ) -> None:
        self.api, self.store, self.settings, self.tenant = api, store, settings, tenant
        self.progress = progress

    def run(self, now: Callable[[], datetime]) -> ImportReport:
        run = _Run()
        folders = self.settings.drive.folders
        for done, folder in enumerate(folders, 1):
            for file in self.api.files(folder.folder_id):
                self._file(folder, file, run, now)
            if self.progress:
                self.progress(done, len(folders))
        for stream in run.routed:
            self.store.schedule(self.tenant, stream, DIGEST, 0.0)
        return ImportReport(
            source=SOURCE,
            read=run.read,
            kept=sum(run.routed.values()),
            duplicates=run.unchanged,
            skipped=dict(run.skipped),
            routed=dict(run.routed.most_common()),
            problems=tuple(run.problems),
        )

    def _file(
        self, folder: DriveFolder, file: DriveFile, run: _Run, now: Callable[[], datetime]
    ) -> None:
        if file.mime == FOLDER:
            run.skipped["folder"] += 1
            return
        run.read += 1
        if self.store.record_id(self.tenant, SOURCE, file.id, file.modified) is not None:
            run.unchanged += 1
            return
        problem = self._refusal(file)
        if problem is None:
            try:
                text = self.api.text(file, self.settings.drive.max_file_bytes)
            except TooLarge as exc:
                problem = ("too large", str(exc))
            except SourceError as exc:
                problem = ("unreadable", str(exc))
        if problem is not None:
            run.skipped[problem[0]] += 1
            run.problems.append(ImportProblem(path=f"{file.name} ({file.id})", error=problem[1]))
            return
        record = self._record(folder, file, text, now())
        with self.store.transaction():
            if self.store.insert_record(record) is not None:
                run.routed[record.stream] += 1
                self._supersede(record, file)

    def _supersede(self, record: NewRecord, file: DriveFile) -> None:
        """Move the file's earlier versions out of the way of recall, into the stream's
        document history, where they stay readable."""
        name = _VERSIONS + file.id
        versions = json.loads(self.store.source_state(self.tenant, SOURCE, name) or "[]")
        history = history_stream(record.stream)
        for modified in versions:
            old = self.store.record_id(self.tenant, SOURCE, file.id, modified)
            if old is not None:
                self.store.move_record(
                    self.tenant, old, history, "superseded", 1.0, (), digest=False
                )
        versions.append(record.external_id)
        self.store.set_source_state(self.tenant, SOURCE, {name: json.dumps(versions)})

    def _refusal(self, file: DriveFile) -> tuple[str, str] | None:
        limit = self.settings.drive.max_file_bytes
        if file.mime not in EXPORTED and not _is_text(file.mime):
            return ("unknown type", f"{file.mime or 'no type'} has no text to read; skipped")
        if file.size is not None and file.size > limit:
            return (
                "too large",
                f"{file.size:,} bytes, over drive.max_file_bytes ({limit:,}); skipped",
            )
        return None

    def _record(self, folder: DriveFolder, file: DriveFile, text: str, now: datetime) -> NewRecord:
        # The name and link head the text, so that a search hit or a context names its source.
        body = f"{file.name} ({file.link})\n\n{text.strip()}"[: self.settings.max_turn_chars]
        at = _time(file.modified) or now
        return NewRecord(
            tenant=self.tenant,
            stream=folder.stream,
            source=SOURCE,
            channel=file.id,
            external_id=file.modified or at.isoformat(),
            author="drive",
            text=body,
            kind="document",
            at=at,
            route_method="folder",
            route_confidence=1.0,
            visibility=Visibility.SHARED,
            tokens=count_tokens(body),
            entities=(folder.stream,),
            data={
                "name": file.name,
                "mime": file.mime,
                "link": file.link,
                "folder_id": folder.folder_id,
                "file_id": file.id,
            },
        )


def history_stream(stream: str) -> str:
    """Where the earlier versions of a stream's documents are kept."""
    return "drive-history:" + stream.replace(":", "/")


def _time(value: str) -> datetime | None:
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00")) if value else None
    except ValueError:
        return None


def drive_api(settings: Settings, client: httpx.Client) -> DriveApi:
    """Drive as settings.drive describe it, over `client` (the caller closes it)."""
    drive = settings.drive
    if drive.token is None:
        raise SettingsError(
            "a Drive sync needs drive.token (THREEFOLD_DRIVE__TOKEN), an OAuth access token"
            " with the drive.readonly scope"
        )
    if not drive.folders:
        raise SettingsError("a Drive sync needs drive.folders: each folder_id and its stream")
    calls = ApiClient(
        client,
        service="Google Drive",
        base_url=drive.api_base,
        token=drive.token.get_secret_value(),
        max_waits=drive.max_rate_limit_waits,
        max_wait_seconds=drive.max_retry_after_seconds,
    )
    return DriveApi(calls)
