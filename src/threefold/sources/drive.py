"""Google Drive documents into streams, through the Drive API v3.

Each folder in settings (`drive.folders`) belongs to a stream. The first sync of a folder
lists its files page by page (files.list and its pageToken); after that a sync asks only
what changed since the last one (changes.list, from the page token Drive gave then, kept
in the store after every page, so that a sync stopped midway goes on from its page).
Reading Google Docs as plain text
(files.export) and plain files as they are (files.get with alt=media), and stores each
version of a document once, as a record of its stream: a document changed since the last
sync is stored again, and its earlier versions move to the stream's document history
(`drive-history:project/alpha` for project:alpha): recall finds the current text, and the
history stays readable; a document deleted, trashed or moved out of the folders goes to
the history whole. What cannot be read (a file over
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
_FILE_FIELDS = "id, name, mimeType, modifiedTime, size, webViewLink, parents, trashed"
_FIELDS = f"nextPageToken, files({_FILE_FIELDS})"
_CHANGE_FIELDS = f"nextPageToken, newStartPageToken, changes(fileId, removed, file({_FILE_FIELDS}))"
_CHANGES = "changes"
"""Source state: where the next sync reads changes from, and the folders listed whole."""


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
    parents: tuple[str, ...] = ()
    trashed: bool = False

    @classmethod
    def read(cls, raw: Mapping[str, Any]) -> "DriveFile":
        size = raw.get("size")
        parents = raw.get("parents")
        return cls(
            id=str(raw["id"]),
            name=str(raw.get("name") or raw["id"]),
            mime=str(raw.get("mimeType") or ""),
            modified=str(raw.get("modifiedTime") or ""),
            size=int(size) if isinstance(size, str | int) and str(size).isdigit() else None,
            link=str(raw.get("webViewLink") or f"https://drive.google.com/open?id={raw['id']}"),
            parents=tuple(p for p in parents if isinstance(p, str))
            if isinstance(parents, list)
            else (),
            trashed=raw.get("trashed") is True,
        )


@dataclass(frozen=True, slots=True)
class Change:
    """One entry of changes.list: a file changed, or gone (`file` None)."""

    file_id: str
    file: DriveFile | None


@dataclass(frozen=True, slots=True)
class ChangePage:
    changes: list[Change]
    following: str | None
    """The next page's token; None on the last page."""
    start: str | None
    """On the last page: where the next sync starts."""


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

    def start_token(self) -> str:
        """Where changes made from now on will be listed (changes.getStartPageToken)."""
        token = self._json("changes/startPageToken", {}).get("startPageToken")
        if not isinstance(token, str) or not token:
            raise SourceError("Google Drive answered no startPageToken")
        return token

    def changes(self, token: str) -> Iterator[ChangePage]:
        """The changes since `token`, page by page (changes.list)."""
        while True:
            params: dict[str, str | int] = {
                "pageToken": token,
                "pageSize": 100,
                "fields": _CHANGE_FIELDS,
                "includeRemoved": "true",
            }
            body = self._json("changes", params)
            found = []
            for raw in body.get("changes") or ():
                if not isinstance(raw, dict) or not isinstance(raw.get("fileId"), str):
                    continue
                file = raw.get("file")
                if raw.get("removed") is True or not isinstance(file, dict):
                    found.append(Change(raw["fileId"], None))
                else:
                    found.append(
                        Change(raw["fileId"], DriveFile.read({"id": raw["fileId"], **file}))
                    )
            following, start = body.get("nextPageToken"), body.get("newStartPageToken")
            if not isinstance(following, str) or not following:
                following = None
                if not isinstance(start, str) or not start:
                    raise SourceError("Google Drive ended its changes without a newStartPageToken")
            yield ChangePage(found, following, start if isinstance(start, str) else None)
            if following is None:
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
    retired: int = 0
    retry: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Files whose download failed, by id: their folder and listing, to try next time."""
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
        state = json.loads(self.store.source_state(self.tenant, SOURCE, _CHANGES) or "{}")
        listed = set(state.get("folders") or ()) if state.get("token") else set()
        # The token is taken before a folder is listed, so that nothing changed during
        # the listing is missed; a change read twice is a version already stored.
        token = state.get("token") or self.api.start_token()
        for done, folder in enumerate(folders, 1):
            if folder.folder_id not in listed:
                for file in self.api.files(folder.folder_id):
                    self._file(folder, file, run, now)
                listed.add(folder.folder_id)
                self._keep(token, listed, run.retry)
            if self.progress:
                self.progress(done, len(folders) + 1)
        if state.get("token"):
            self._retry(state.get("retry") or {}, run, now)
            self._changes(token, listed, run, now)
        self._keep(self._token(), listed, run.retry)
        if self.progress:
            self.progress(len(folders) + 1, len(folders) + 1)
        for stream in run.routed:
            self.store.schedule(self.tenant, stream, DIGEST, 0.0)
        skipped = dict(run.skipped)
        if run.retired:
            skipped["removed"] = run.retired
        return ImportReport(
            source=SOURCE,
            read=run.read,
            kept=sum(run.routed.values()),
            duplicates=run.unchanged,
            skipped=skipped,
            routed=dict(run.routed.most_common()),
            problems=tuple(run.problems),
        )

    def _keep(self, token: str, listed: set[str], retry: dict[str, dict[str, Any]]) -> None:
        value = json.dumps({"token": token, "folders": sorted(listed), "retry": retry})
        self.store.set_source_state(self.tenant, SOURCE, {_CHANGES: value})

    def _token(self) -> str:
        state = json.loads(self.store.source_state(self.tenant, SOURCE, _CHANGES) or "{}")
        return str(state["token"])

    def _retry(
        self, failed: dict[str, dict[str, Any]], run: _Run, now: Callable[[], datetime]
    ) -> None:
        """Try again the files whose download failed last time: no change lists them."""
        by_id = {folder.folder_id: folder for folder in self.settings.drive.folders}
        for entry in failed.values():
            folder = by_id.get(entry.get("folder", ""))
            if folder is not None and isinstance(entry.get("file"), dict):
                self._file(folder, DriveFile.read(entry["file"]), run, now)

    def _changes(
        self, token: str, listed: set[str], run: _Run, now: Callable[[], datetime]
    ) -> None:
        """Read what changed since `token`; after each page, keep where the next starts."""
        by_id = {folder.folder_id: folder for folder in self.settings.drive.folders}
        for page in self.api.changes(token):
            for change in page.changes:
                file = change.file
                folder = (
                    next((by_id[p] for p in file.parents if p in by_id), None) if file else None
                )
                if file is None or file.trashed or folder is None:
                    run.retired += self._retire(change.file_id)
                else:
                    self._file(folder, file, run, now)
            self._keep(page.following or page.start or token, listed, run.retry)

    def _restore(self, stored: int, folder: DriveFolder, file: DriveFile) -> None:
        """A version retired with its file (trashed, moved away) and back unchanged
        returns to its stream."""
        stream = self.store.record_stream(self.tenant, SOURCE, file.id, file.modified)
        if stream is not None and stream.startswith(_HISTORY):
            with self.store.transaction():
                self.store.move_record(
                    self.tenant, stored, folder.stream, "folder", 1.0, (), digest=False
                )

    def _retire(self, file_id: str) -> int:
        """Move a file gone from the folders (deleted, trashed, moved away) to the history
        of its stream, every version; 1 if there was one here, else 0."""
        name = _VERSIONS + file_id
        versions = json.loads(self.store.source_state(self.tenant, SOURCE, name) or "[]")
        moved = 0
        with self.store.transaction():
            for modified in versions:
                found = self.store.record_id(self.tenant, SOURCE, file_id, modified)
                stream = self.store.record_stream(self.tenant, SOURCE, file_id, modified)
                if found is None or stream is None or stream.startswith(_HISTORY):
                    continue
                self.store.move_record(
                    self.tenant, found, history_stream(stream), "removed", 1.0, (), digest=False
                )
                moved = 1
        return moved

    def _file(
        self, folder: DriveFolder, file: DriveFile, run: _Run, now: Callable[[], datetime]
    ) -> None:
        if file.mime == FOLDER:
            run.skipped["folder"] += 1
            return
        run.read += 1
        stored = self.store.record_id(self.tenant, SOURCE, file.id, file.modified)
        if stored is not None:
            run.unchanged += 1
            self._restore(stored, folder, file)
            return
        problem = self._refusal(file)
        if problem is None:
            try:
                text = self.api.text(file, self.settings.drive.max_file_bytes)
            except TooLarge as exc:
                problem = ("too large", str(exc))
            except SourceError as exc:
                problem = ("unreadable", str(exc))
                run.retry[file.id] = {"folder": folder.folder_id, "file": _listing(file)}
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


_HISTORY = "drive-history:"


def history_stream(stream: str) -> str:
    """Where the earlier versions of a stream's documents are kept."""
    return _HISTORY + stream.replace(":", "/")


def _listing(file: DriveFile) -> dict[str, Any]:
    """The file as Drive listed it, for DriveFile.read."""
    return {
        "id": file.id,
        "name": file.name,
        "mimeType": file.mime,
        "modifiedTime": file.modified,
        "size": file.size,
        "webViewLink": file.link,
        "parents": list(file.parents),
    }


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
