"""An import returns when its text is searchable, with what it left for the workers
counted: the backlog, its drain rate, the worker held while an import stores, and the day
files' descriptors all closed."""

import os
import time
from pathlib import Path

import pytest

from tests.sources.exports import msg, write_export
from threefold.pipeline.backlog import Backlog, BacklogWatch
from threefold.pipeline.jobs import DIGEST, EMBED

T0 = 1772442000  # 2026-03-02 09:00 UTC


def day(n: int, words: str) -> list[dict]:
    return [
        msg(f"{T0 + n * 86400 + m * 60}.000100", f"{words} note {m} about the harbour crane", "U1")
        for m in range(5)
    ]


@pytest.fixture
def export(tmp_path: Path) -> Path:
    days = {f"2026-03-0{n + 2}": day(n, f"day {n}") for n in range(4)}
    return write_export(
        tmp_path / "export", {"general": days, "random": {"2026-03-02": day(9, "x")}}
    )


def test_an_import_leaves_its_vectors_and_digests_counted(open_memory, export) -> None:
    mem = open_memory(embed={"kind": "hashing"})
    report = mem.import_slack(export, process=False)
    backlog = mem.backlog()
    assert report.kept == 25
    # Every message is searchable now, before any vector: the last one by a word of its own.
    hits = mem.search("harbour crane", kinds=["record"], limit=50, preset="keywords")
    assert len(hits) == 25
    assert backlog.undigested == 25
    assert backlog.unembedded == report.unembedded == 25
    assert backlog.jobs == {DIGEST: 1}
    assert not backlog.empty
    mem.process_pending()
    done = mem.backlog()
    assert (done.unembedded, done.undigested, done.jobs, done.inbox) == (0, 0, {}, 0)
    assert done.empty


def test_a_tenant_sees_only_its_own_backlog(open_memory, export) -> None:
    mem = open_memory(embed={"kind": "hashing"})
    mem.import_slack(export, process=False)
    other = mem.backlog(tenant="someone-else")
    assert (other.unembedded, other.undigested, other.jobs) == (0, 0, {})


def test_the_worker_starts_no_job_while_an_import_stores(open_memory, export) -> None:
    mem = open_memory(embed={"kind": "hashing"}, worker=True)
    mem.add_turn("chat:a", "The crane inspection is on Thursday afternoon.", "Noted.")
    deadline = time.monotonic() + 20
    while mem.backlog(tenant="default").jobs and time.monotonic() < deadline:
        time.sleep(0.05)
    seen_pending: list[int] = []

    def progress(done: int, total: int) -> None:
        if not seen_pending:  # a job made due mid-import, and the worker woken for it
            mem.store.enqueue("default", "chat:a", EMBED, {})
            mem._wake()
            time.sleep(0.5)
            seen_pending.append(mem.backlog().jobs.get(EMBED, 0))

    mem.import_slack(export, process=False, progress=progress)
    assert seen_pending == [1]
    while mem.backlog().jobs.get(EMBED) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert EMBED not in mem.backlog().jobs  # run once the import let go


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="counts /proc/self/fd")
def test_an_import_leaves_no_file_open(open_memory, export) -> None:
    mem = open_memory(embed={"kind": "none"})
    mem.import_slack(export, process=False)  # the store's own files are open from here on
    before = len(os.listdir("/proc/self/fd"))
    mem.import_slack(export, process=False)
    assert len(os.listdir("/proc/self/fd")) == before


def test_the_drain_rate_is_the_drop_over_the_samples_kept() -> None:
    watch = BacklogWatch(window=10)
    first = watch.add(Backlog(unembedded=1000, undigested=300, at=100.0))
    assert (first.vectors_per_s, first.digests_per_s) == (None, None)
    assert first.eta(Backlog(unembedded=5, undigested=0)) is None
    drain = watch.add(Backlog(unembedded=800, undigested=200, at=104.0))
    assert (drain.vectors_per_s, drain.digests_per_s, drain.seconds) == (50.0, 25.0, 4.0)
    assert drain.eta(Backlog(unembedded=800, undigested=200)) == 16.0
    # Samples older than the window go; the rate is then the recent one.
    later = watch.add(Backlog(unembedded=790, undigested=200, at=115.0))
    assert later.seconds == 11.0
    assert later.vectors_per_s == pytest.approx(10 / 11)
    assert later.eta(Backlog(unembedded=0, undigested=0)) == 0.0
    grew = watch.add(Backlog(unembedded=900, undigested=200, at=116.0))
    assert grew.vectors_per_s is not None and grew.vectors_per_s < 0
    assert grew.eta(Backlog(unembedded=900, undigested=200)) is None  # no progress


@pytest.mark.parametrize("window", [0, -1.0])
def test_a_watch_needs_a_positive_window(window: float) -> None:
    with pytest.raises(ValueError, match="window must be positive"):
        BacklogWatch(window=window)


def test_an_export_of_more_channels_than_folders_held_open_reads_them_all(
    open_memory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threefold.sources.slack as slack

    monkeypatch.setattr(slack, "_HELD_FOLDERS", 2)
    channels = {f"team-{n}": {"2026-03-02": day(n, f"team {n}")} for n in range(6)}
    export = write_export(tmp_path / "many", channels, channels=[])
    mem = open_memory(embed={"kind": "none"})
    report = mem.import_slack(export, process=False)
    assert (report.read, report.kept, report.problems) == (30, 30, ())
