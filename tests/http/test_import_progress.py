"""An import's progress over HTTP: while it runs, its status says which step it is on,
how far it has come of how much, and a percentage that only grows; once done, 100."""

import time
from pathlib import Path
from typing import Any

import httpx

from tests.http.conftest import MAX_BODY, Live
from tests.http.import_files import long_slack_zip
from tests.http.test_sources import upload


def _watch(client: httpx.Client, headers: dict[str, str], url: str) -> list[dict[str, Any]]:
    """Every status the import reports, as fast as we can ask, until it ends."""
    seen, deadline = [], time.monotonic() + 120
    while time.monotonic() < deadline:
        status = client.get(url, headers=headers)
        assert status.status_code == 200, status.text
        seen.append(status.json())
        if seen[-1]["status"] in ("done", "failed"):
            return seen
        time.sleep(0.02)
    raise AssertionError("the import did not end in 120 s")


def test_a_running_import_reports_counts_and_a_growing_percentage(
    live: Live, client: httpx.Client, tmp_path: Path
) -> None:
    export = long_slack_zip(tmp_path / "long.zip")
    assert export.stat().st_size < MAX_BODY
    started = upload(client, live.headers("a"), "slack", export)
    assert started.status_code == 202, started.text
    seen = _watch(client, live.headers("a"), started.json()["status_url"])

    final = seen[-1]
    assert final["status"] == "done", final
    assert final["percent"] == 100 and final["progress"] is None
    running = [s for s in seen if s["status"] == "running" and s["progress"]]
    assert running, "no progress was reported while the import ran"
    reading = [s for s in running if s["progress"]["step"] == "reading"]
    for status in running:
        progress = status["progress"]
        assert 0 <= progress["done"] <= progress["total"]
        assert status["percent"] == progress["done"] * 100 // progress["total"]
    if reading:
        assert {s["progress"]["total"] for s in reading} == {120}  # day files
        percents = [s["percent"] for s in reading]
        assert percents == sorted(percents)


def test_another_tenant_cannot_read_an_imports_progress(
    live: Live, client: httpx.Client, tmp_path: Path
) -> None:
    started = upload(client, live.headers("a"), "slack", long_slack_zip(tmp_path / "l.zip", 4))
    url = started.json()["status_url"]
    assert client.get(url, headers=live.headers("b")).status_code == 404
    assert _watch(client, live.headers("a"), url)[-1]["status"] == "done"
