"""Google Drive documents into streams, against a local server that speaks Drive API v3:
pages, exports, downloads, size limits, unknown types, rate limits and a wrong token."""

from collections.abc import Iterator

import httpx
import pytest

from tests.sources.drive_fake import FakeDrive
from threefold.errors import SettingsError, SourceError
from threefold.sources.drive import drive_api, history_stream

TOKEN = "ya29.test-token"
ALPHA = "project:alpha"
DOC = "application/vnd.google-apps.document"
LIMIT = 100_000
DESIGN = (
    "Alpha design notes.\n\nWe decided to use Postgres for the event store. "
    "Raj owns the migration and will finish it by Friday."
)


def endless(chunk: int = 64 * 1024) -> Iterator[bytes]:
    """An export that never ends, as a document far over any limit would stream."""
    while True:
        yield b"y" * chunk


@pytest.fixture
def drive() -> Iterator[FakeDrive]:
    with FakeDrive(token=TOKEN, page_size=2) as fake:
        fake.add("F1", "d1", "Alpha design", DOC, DESIGN.encode())
        fake.add("F1", "d2", "Runbook.md", "text/markdown", b"# Runbook\n\nRestart the ALPHA api.")
        fake.add("F1", "d3", "Archive", "application/vnd.google-apps.folder", b"")
        fake.add("F1", "d4", "Logo.png", "image/png", b"\x89PNG", size=4)
        fake.add("F1", "d5", "Dump.txt", "text/plain", b"z" * 10, size=50 * 1024 * 1024)
        fake.add("F1", "d6", "Huge spec", DOC, endless())
        fake.add("F2", "e1", "Elsewhere", "text/plain", b"not a folder of settings")
        yield fake


@pytest.fixture
def client() -> Iterator[httpx.Client]:
    with httpx.Client(timeout=10) as http:
        yield http


def settings_for(drive: FakeDrive, **extra: object) -> dict[str, object]:
    return {
        "embed": {"kind": "hashing"},
        "drive": {
            "token": TOKEN,
            "api_base": drive.url,
            "folders": [{"folder_id": "F1", "stream": ALPHA}],
            "max_file_bytes": LIMIT,
            **extra,
        },
    }


def test_a_sync_reads_docs_and_text_files_and_says_what_it_skipped(open_memory, drive, client):
    mem = open_memory(**settings_for(drive))
    report = mem.sync_drive(drive_api(mem.settings, client))
    assert report.kept == 2
    assert report.skipped == {"folder": 1, "unknown type": 1, "too large": 2}
    problems = {p.path: p.error for p in report.problems}
    assert "image/png has no text" in problems["Logo.png (d4)"]
    assert "52,428,800 bytes, over drive.max_file_bytes" in problems["Dump.txt (d5)"]
    assert "over the limit of 100,000 bytes" in problems["Huge spec (d6)"]
    # The 50 MB file was refused from its listing, without a download.
    assert "files/d5" not in drive.paths()
    records = {r.channel: r for r in mem.records(ALPHA)}
    link = "https://docs.example.com/d1/view"
    assert records["d1"].text.startswith(f"Alpha design ({link})\n\nAlpha design notes.")
    [data] = mem.store.record_data(mem.tenant, "drive", "d1")
    assert (data["link"], data["folder_id"]) == (link, "F1")
    assert records["d2"].text.endswith("Restart the ALPHA api.")
    # The folder's listing was read page by page.
    tokens = [p.get("pageToken") for path, p in drive.calls if path == "files"]
    assert tokens == [None, "2", "4"]


def test_documents_are_digested_and_found_with_their_link(open_memory, drive, client):
    mem = open_memory(**settings_for(drive))
    mem.sync_drive(drive_api(mem.settings, client))
    mem.process_pending()
    assert all(r.processed for r in mem.records(ALPHA))
    hits = mem.search("event store Postgres", stream=ALPHA)
    assert any("Postgres" in hit.text for hit in hits)
    facts = mem.facts(ALPHA)
    assert any(f.source.kind == "drive.document" for f in facts)


def test_a_second_sync_asks_only_what_changed(open_memory, drive, client):
    mem = open_memory(**settings_for(drive))
    mem.sync_drive(drive_api(mem.settings, client))
    drive.calls.clear()
    again = mem.sync_drive(drive_api(mem.settings, client))
    assert (again.read, again.kept) == (0, 0)
    assert drive.paths() == ["changes"]  # no listing, no download
    drive.touch("d1", b"Alpha design notes, v2: we moved to SQLite.", "2026-12-01T09:00:00.000Z")
    drive.touch("e1", b"changed, in a folder of no stream", "2026-12-01T09:00:00.000Z")
    changed = mem.sync_drive(drive_api(mem.settings, client))
    assert (changed.read, changed.kept) == (1, 1)
    [current] = [r for r in mem.records(ALPHA) if r.channel == "d1"]
    assert current.external_id == "2026-12-01T09:00:00.000Z"
    # The earlier version is history: kept and readable, out of the way of recall.
    [earlier] = mem.records(history_stream(ALPHA))
    assert (earlier.channel, earlier.external_id) == ("d1", "2026-11-30T10:00:00.000Z")
    hits = mem.search("event store Postgres SQLite design", stream=ALPHA, kinds=["record"])
    assert [hit.text for hit in hits if "design" in hit.text.lower()][0].endswith("SQLite.")
    assert not any("Postgres" in hit.text for hit in hits)


def test_documents_deleted_trashed_or_moved_away_become_history(open_memory, drive, client):
    mem = open_memory(**settings_for(drive))
    mem.sync_drive(drive_api(mem.settings, client))
    drive.touch("d1", b"Alpha design, v2.", "2026-12-01T09:00:00.000Z")
    mem.sync_drive(drive_api(mem.settings, client))
    drive.delete("d1")
    drive.trash("d2")
    report = mem.sync_drive(drive_api(mem.settings, client))
    assert report.skipped == {"removed": 2}
    assert mem.records(ALPHA) == []
    history = sorted((r.channel, r.external_id) for r in mem.records(history_stream(ALPHA)))
    assert history == [
        ("d1", "2026-11-30T10:00:00.000Z"),
        ("d1", "2026-12-01T09:00:00.000Z"),
        ("d2", "2026-11-30T10:00:00.000Z"),
    ]
    assert mem.search("Runbook restart", stream=ALPHA, kinds=["record"]) == []
    # Taken out of the trash unchanged, it is back where it was.
    drive.files["d2"].trashed = False
    drive.changed.append("d2")
    mem.sync_drive(drive_api(mem.settings, client))
    assert [r.channel for r in mem.records(ALPHA)] == ["d2"]


def test_a_folder_added_to_settings_is_listed_whole_once(open_memory, drive, client):
    mem = open_memory(**settings_for(drive))
    mem.sync_drive(drive_api(mem.settings, client))
    beta = {"folder_id": "F2", "stream": "project:beta"}
    both = open_memory(
        name="memory.db",
        **settings_for(drive, folders=[*settings_for(drive)["drive"]["folders"], beta]),
    )
    drive.calls.clear()
    report = both.sync_drive(drive_api(both.settings, client))
    assert report.routed == {"project:beta": 1}
    assert [p["q"] for path, p in drive.calls if path == "files"] == [
        "'F2' in parents and trashed = false"
    ]
    drive.calls.clear()
    both.sync_drive(drive_api(both.settings, client))
    assert drive.paths() == ["changes"]


def test_a_sync_stopped_midway_goes_on_from_its_page(open_memory, drive, client):
    mem = open_memory(**settings_for(drive))
    mem.sync_drive(drive_api(mem.settings, client))
    for n in range(5):  # three pages of changes, two to a page
        drive.add("F1", f"n{n}", f"Note {n}", "text/plain", f"ALPHA note {n}".encode())
        drive.changed.append(f"n{n}")
    drive.expire_after(3)  # the first page and its two downloads; then the token expires
    with pytest.raises(SourceError, match="401"):
        mem.sync_drive(drive_api(mem.settings, client))
    assert sorted(r.channel for r in mem.records(ALPHA) if r.channel[0] == "n") == ["n0", "n1"]
    drive.expire_after(None)
    drive.calls.clear()
    report = mem.sync_drive(drive_api(mem.settings, client))
    assert report.kept == 3
    assert [p["pageToken"] for path, p in drive.calls if path == "changes"] == ["2", "4"]


def test_rate_limits_are_waited_out(open_memory, drive, client):
    mem = open_memory(**settings_for(drive))
    drive.script(429, 429)
    assert mem.sync_drive(drive_api(mem.settings, client)).kept == 2


def test_a_wrong_token_is_refused_clearly(open_memory, drive, client):
    mem = open_memory(**settings_for(drive, token="ya29.wrong"))
    with pytest.raises(SourceError, match="Google Drive answered 401.*Invalid Credentials"):
        mem.sync_drive(drive_api(mem.settings, client))
    assert mem.records(ALPHA) == []


def test_a_download_that_fails_skips_that_file_only(open_memory, drive, client):
    mem = open_memory(**settings_for(drive))
    drive.broken.add("d2")
    report = mem.sync_drive(drive_api(mem.settings, client))
    assert report.kept == 1
    assert report.skipped["unreadable"] == 1
    problems = {p.path: p.error for p in report.problems}
    assert "answered 500" in problems["Runbook.md (d2)"]
    drive.broken.clear()
    assert mem.sync_drive(drive_api(mem.settings, client)).kept == 1  # read the next time


def test_a_sync_needs_its_settings(open_memory, client):
    mem = open_memory(embed={"kind": "none"})
    with pytest.raises(SettingsError, match="drive.token"):
        drive_api(mem.settings, client)
    folderless = open_memory(name="f.db", embed={"kind": "none"}, drive={"token": "t"})
    with pytest.raises(SettingsError, match="drive.folders"):
        drive_api(folderless.settings, client)
