"""An import killed with SIGKILL midway, then run again: nothing lost, nothing twice, and
the queue of digests and vectors drains to nothing."""

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.sources.exports import msg, write_export
from threefold import Memory, load_settings

# slow: see pyproject.toml; reliability: the CI profile of issue 40 (`make reliability`)
pytestmark = [pytest.mark.slow, pytest.mark.reliability]

PROJECTS = [{"stream": "project:alpha", "key": "ALPHA", "channels": ["proj-alpha"]}]
CHANNELS = [
    {"id": "C1", "name": "proj-alpha", "members": ["U1", "U2"]},
    {"id": "C2", "name": "general", "members": ["U1", "U2"]},
]
USERS = [
    {"id": "U1", "name": "ann", "profile": {"display_name": "Ann"}},
    {"id": "U2", "name": "raj", "profile": {"display_name": "Raj"}},
]
T0 = 1772442000  # 2026-03-02 09:00 UTC
IMPORTER = """
import sys
from threefold import Memory, load_settings

settings = load_settings(db=sys.argv[1], embed={"kind": "hashing"}, projects=%r)
with Memory.open(settings=settings, background_worker=False) as mem:
    mem.import_slack(sys.argv[2])
"""


def export(root: Path, days: int = 30, per_day: int = 40) -> Path:
    lines = (
        "We decided to ship build {n} on Friday.",
        "Raj will review the migration guide for step {n}.",
        "The load test {n} is blocked on staging access.",
        "Standup {n} moved to 9:30.",
    )
    by_channel: dict[str, dict[str, list[dict]]] = {"proj-alpha": {}, "general": {}}
    for day in range(days):
        for channel, offset in (("proj-alpha", 0), ("general", 1)):
            stamp = T0 + day * 86_400
            date = time.strftime("%Y-%m-%d", time.gmtime(stamp))
            by_channel[channel][date] = [
                msg(
                    f"{stamp + 60 * n + offset}.000100",
                    lines[n % len(lines)].format(n=day * per_day + n),
                    "U1" if n % 2 else "U2",
                )
                for n in range(per_day)
            ]
    return write_export(root, by_channel, users=USERS, channels=CHANNELS)


def records(db: Path) -> int:
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as raw:
            return raw.execute("SELECT count(*) FROM records").fetchone()[0]
    except sqlite3.OperationalError:  # not made yet, or mid-migration
        return 0


def kill_import_midway(db: Path, source: Path) -> int:
    """Start an import in another process and SIGKILL it once some records are stored;
    returns how many were stored then."""
    code = IMPORTER % (PROJECTS,)
    with subprocess.Popen([sys.executable, "-c", code, str(db), str(source)]) as child:
        deadline = time.monotonic() + 120
        while records(db) < 200 and child.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        os.kill(child.pid, signal.SIGKILL)
    return records(db)


def test_a_killed_import_run_again_loses_and_duplicates_nothing(tmp_path: Path) -> None:
    source = export(tmp_path / "export")
    db = tmp_path / "memory.db"
    stored_when_killed = kill_import_midway(db, source)
    assert 0 < stored_when_killed < 2400  # killed midway, not before or after

    settings = load_settings(db=db, embed={"kind": "hashing"}, projects=PROJECTS)
    with Memory.open(settings=settings, background_worker=False) as mem:
        again = mem.import_slack(source)
        assert again.kept + again.duplicates == 2400
        assert again.duplicates >= stored_when_killed
        assert again.unembedded == 0  # it digested and embedded before it said done
        stored = [r for stream in mem.streams() for r in mem.records(stream.name)]
        keys = [(r.channel, r.external_id) for r in stored]
        assert len(keys) == len(set(keys)) == 2400
        assert all(r.processed for r in stored)
        assert mem.job_counts()["pending"] == 0
        assert mem.store.count_unembedded() == 0
        hits = mem.search("Who reviews the migration guide for step 1161?")
        assert hits and "1161" in hits[0].text
        facts = mem.count_facts()

    clean_settings = settings.model_copy(update={"db": tmp_path / "clean.db"})
    with Memory.open(settings=clean_settings, background_worker=False) as clean:
        clean.import_slack(source)
        assert clean.count_facts() == facts
