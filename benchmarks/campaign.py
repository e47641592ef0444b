"""The reliability campaign at full size: kills, bombs, hostile CSVs, full and read-only stores,
SSRF. The test suite runs the same checks small; this prints one table of what happened.

    python benchmarks/campaign.py [--kills 100] [--takeovers 3] [--bomb-gib 1] [--quick]

Every check uses real processes and real files: writers and workers are killed with SIGKILL,
the bomb is imported by a fresh process whose peak RSS is read from the kernel. Asserts
nothing; the last column says whether each goal was met.
"""

import argparse
import json
import os
import random
import resource
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from rich.console import Console
from rich.table import Table

from threefold import Memory, load_settings
from threefold.errors import InvalidInput, StoreFull, StoreReadOnly
from threefold.settings import Settings
from threefold.sources.web import fetch_page
from threefold.store.sqlite.store import SQLiteStore

MIB = 1024 * 1024


class Row(NamedTuple):
    check: str
    size: str
    result: str
    goal: str
    met: bool


WRITER = """
import sys
from threefold import Memory, load_settings
settings = load_settings(embed={"kind": "none"}, session_turns=5)
mem = Memory.open(sys.argv[1], settings=settings, background_worker=True)
n = int(sys.argv[2])
while True:
    mem.add_turn("chat:kill", f"write {n}: the release moved to Friday", "Noted.")
    print(n, flush=True)
    n += 1
"""


def writer_kills(base: Path, kills: int) -> Row:
    """SIGKILL a writer (its job worker running too) `kills` times on one database."""
    db, acknowledged = base / "kills.db", []
    for _ in range(kills):
        first = max(acknowledged, default=-1) + 1
        with subprocess.Popen(
            [sys.executable, "-c", WRITER, str(db), str(first)], stdout=subprocess.PIPE, text=True
        ) as child:
            assert child.stdout is not None
            for _ in range(random.randint(5, 200)):
                acknowledged.append(int(child.stdout.readline()))
            os.kill(child.pid, signal.SIGKILL)
    store = SQLiteStore(db)
    try:
        stored = {int(t.user.split(":")[0].split()[1]) for t in store.turns("default", "chat:kill")}
    finally:
        store.close()
    lost = len(set(acknowledged) - stored)
    integrity = _integrity(db)
    return Row(
        "writer SIGKILL mid-writes",
        f"{kills} kills, {len(acknowledged):,} acked writes",
        f"{lost} lost; integrity {integrity}",
        "0 lost, integrity ok",
        lost == 0 and integrity == "ok",
    )


def _integrity(db: Path) -> str:
    with sqlite3.connect(db) as raw:
        result = raw.execute("PRAGMA integrity_check").fetchone()[0]
        fts = [r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE sql LIKE '%fts5%'")]
        try:
            for table in fts:
                raw.execute(f"INSERT INTO {table}({table}) VALUES ('integrity-check')")
        except sqlite3.DatabaseError as exc:
            return f"FTS: {exc}"
    return result


HOLDER = """
import sys, threading
from threefold.pipeline.jobs import JobRunner
from threefold.store.sqlite.store import SQLiteStore

def hang(job):
    print("running", flush=True)
    threading.Event().wait()

JobRunner(SQLiteStore(sys.argv[1]), {"work": hang}, attempts=3, backoff=0, backoff_max=0,
          lease_seconds=float(sys.argv[2])).run_pending(wait=False)
"""


def takeovers(base: Path, rounds: int) -> Row:
    """Kill a worker mid-job; time until a worker polling like the background one (each
    second) has run the job, with the default lease."""
    from threefold.pipeline.jobs import JobRunner

    lease = Settings().stream_lease_seconds
    worst = 0.0
    for n in range(rounds):
        store = SQLiteStore(base / f"takeover{n}.db")
        store.enqueue("t", "chat:1", "work", {})
        with subprocess.Popen(
            [sys.executable, "-c", HOLDER, str(store.path), str(lease)],
            stdout=subprocess.PIPE,
            text=True,
        ) as child:
            assert child.stdout is not None and child.stdout.readline().strip() == "running"
            os.kill(child.pid, signal.SIGKILL)
        killed, done = time.monotonic(), []
        taker = JobRunner(
            store,
            {"work": lambda job, done=done: lambda: done.append(job.id)},
            attempts=3,
            backoff=0,
            backoff_max=0,
            lease_seconds=lease,
        )
        while not done and time.monotonic() - killed < 120:
            taker.run_pending(wait=False)
            time.sleep(1.0)
        worst = max(worst, time.monotonic() - killed)
        store.close()
    return Row(
        "worker SIGKILL mid-job",
        f"{rounds} kills, lease {lease:g} s",
        f"taken over after {worst:.1f} s at worst",
        "within 15 s",
        worst <= 15,
    )


def close_under_load(base: Path, jobs: int) -> Row:
    settings = load_settings(db=base / "close.db", embed={"kind": "none"})
    mem = Memory.open(settings=settings, background_worker=True)
    for _ in range(jobs):
        mem.store.enqueue("default", "chat:1", "refresh", {})
    mem._wake()
    time.sleep(0.5)
    started = time.perf_counter()
    try:
        mem.close()
        error = "none"
    except Exception as exc:  # what the campaign looks for
        error = type(exc).__name__
    took = time.perf_counter() - started
    store = SQLiteStore(settings.db)
    leases = store._rows("SELECT count(*) AS n FROM stream_leases")[0]["n"]
    pending = len(store.jobs(status="pending"))
    store.close()
    return Row(
        "close() with jobs queued",
        f"{jobs:,} jobs",
        f"{took:.2f} s, error {error}, {leases} leases left, {pending:,} jobs kept queued",
        "no error, no lease left",
        error == "none" and leases == 0,
    )


BOMB_IMPORT = """
import json, resource, sys
from threefold import Memory, load_settings
mem = Memory.open(sys.argv[1], settings=load_settings(embed={"kind": "none"}),
                  background_worker=False)
report = mem.import_slack(sys.argv[2], process=False)
print(json.dumps({"rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "kept": report.kept, "problems": [p.error for p in report.problems]}))
"""


def zip_bomb(base: Path, gib: float) -> Row:
    archive = base / "bomb.zip"
    size = int(gib * 1024 * MIB)
    _write_bomb(archive, size)
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", BOMB_IMPORT, str(base / "bomb.db"), str(archive)],
        capture_output=True,
        text=True,
        check=False,
    )
    took = time.perf_counter() - started
    if done.returncode:
        return Row("zip bomb import", f"{gib:g} GiB", done.stderr[-200:], "refused", False)
    result = json.loads(done.stdout.splitlines()[-1])
    refused = any("refused" in p for p in result["problems"])
    return Row(
        "zip bomb import",
        f"{archive.stat().st_size / MIB:.1f} MiB zip -> {gib:g} GiB member",
        f"{'refused' if refused else 'NOT refused'} in {took:.1f} s, peak RSS "
        f"{result['rss_mb']:.0f} MB, {result['kept']} good messages kept",
        "refused, under 400 MB",
        refused and result["rss_mb"] < 400,
    )


def dense_json(base: Path) -> Row:
    """A day file right at max_file_bytes made of millions of empty objects: the worst
    ratio of Python memory to file size that an export within its limits can ask for."""
    limit = Settings().imports.max_file_bytes
    export = base / "dense"
    (export / "general").mkdir(parents=True)
    (export / "channels.json").write_text(json.dumps([{"id": "C1", "name": "general"}]))
    count = limit // 3
    (export / "general" / "2017-03-21.json").write_bytes(b"[" + b"{}," * (count - 1) + b"{}]")
    done = subprocess.run(
        [sys.executable, "-c", BOMB_IMPORT, str(base / "dense.db"), str(export)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        return Row("dense JSON at the limit", f"{count:,} objects", done.stderr[-200:], "", False)
    result = json.loads(done.stdout.splitlines()[-1])
    return Row(
        "dense JSON at the file limit",
        f"{limit / MIB:g} MiB, {count:,} empty objects",
        f"peak RSS {result['rss_mb']:.0f} MB, {len(result['problems'])} problems listed",
        "under 400 MB",
        result["rss_mb"] < 400,
    )


def _write_bomb(target: Path, size: int) -> None:
    day = json.dumps([{"type": "message", "ts": "1490000000.000100", "user": "U1", "text": "hi"}])
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        archive.writestr("channels.json", json.dumps([{"id": "C1", "name": "general"}]))
        archive.writestr("general/2017-03-20.json", day)
        with archive.open("general/2017-03-21.json", "w", force_zip64=True) as member:
            block = b" " * (16 * MIB)
            for _ in range(size // len(block)):
                member.write(block)


def hostile_csv(base: Path) -> Row:
    path = base / "jira.csv"
    with path.open("w", encoding="utf-8") as handle:
        handle.write("Issue key,Summary,Description\n")
        for n in range(1, 1001):
            description = "line\n" * 40_000 if n == 600 else "ok"
            if n == 700:
                description = "y" * (5 * MIB)
            handle.write(f'ALPHA-{n},task {n},"{description}"\n')
    settings = load_settings(db=base / "jira.db", embed={"kind": "none"})
    with Memory.open(settings=settings, background_worker=False) as mem:
        report = mem.import_jira(path)
    return Row(
        "hostile Jira CSV",
        "1,000 rows: a 200k-char cell, a 5 MiB row",
        f"{report.kept} kept, {len(report.problems)} problems: "
        + "; ".join(f"{p.path}" for p in report.problems),
        "998 kept, 2 reported",
        report.kept == 998 and len(report.problems) == 2,
    )


def store_errors(base: Path) -> Row:
    settings = load_settings(db=base / "full.db", embed={"kind": "none"})
    outcomes = []
    with Memory.open(settings=settings, background_worker=False) as mem:
        pages = mem.store._db.execute("PRAGMA page_count").fetchone()[0]
        mem.store._db.execute(f"PRAGMA max_page_count = {pages}")
        outcomes.append(_raised(lambda: mem.add_turn("chat:1", "x" * 500_000), StoreFull))
    with Memory.open(settings=settings.model_copy(update={"db": base / "ro.db"})) as mem:
        mem.add_turn("chat:1", "before")
    (base / "ro.db").chmod(0o444)
    immutable = os.geteuid() == 0 and _chattr("+i", base / "ro.db")
    try:
        with Memory.open(settings=settings.model_copy(update={"db": base / "ro.db"})) as mem:
            outcomes.append(_raised(lambda: mem.add_turn("chat:1", "after"), StoreReadOnly))
    finally:
        if immutable:
            _chattr("-i", base / "ro.db")
    return Row(
        "full / read-only store",
        "max_page_count; chmod 444 (+ chattr +i as root)",
        ", ".join(outcomes),
        "StoreFull, StoreReadOnly",
        outcomes == ["StoreFull", "StoreReadOnly"],
    )


def _raised(action: Callable[[], object], expected: type[Exception]) -> str:
    try:
        action()
    except expected as exc:
        return type(exc).__name__
    except Exception as exc:  # reported, not hidden
        return f"{type(exc).__name__} (expected {expected.__name__})"
    return "nothing raised"


def _chattr(flag: str, path: Path) -> bool:
    return subprocess.run(["chattr", flag, str(path)], capture_output=True).returncode == 0


def ssrf() -> Row:
    tried = ["localhost", "127.0.0.1", "169.254.169.254", "10.0.0.1", "[::1]", "[::ffff:7f00:1]"]
    refused = 0
    for host in tried:
        try:
            fetch_page(f"http://{host}:9/", allow_hosts=[host.strip("[]")], timeout=2)
        except InvalidInput:
            refused += 1
        except Exception:  # a fetch that got as far as the network was not refused
            pass
    return Row(
        "SSRF: allowed host, internal address",
        f"{len(tried)} hosts",
        f"{refused} of {len(tried)} refused before connecting",
        "all refused",
        refused == len(tried),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--kills", type=int, default=100, help="writer SIGKILLs")
    parser.add_argument("--takeovers", type=int, default=3, help="worker SIGKILLs mid-job")
    parser.add_argument("--bomb-gib", type=float, default=1.0, help="the bomb member's size")
    parser.add_argument("--close-jobs", type=int, default=8000, help="jobs queued at close()")
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    args = parser.parse_args()
    if args.quick:
        args.kills, args.takeovers, args.bomb_gib, args.close_jobs = 3, 1, 0.0625, 500
    console = Console(width=200)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        checks: list[Callable[[], Row]] = [
            lambda: writer_kills(base, args.kills),
            lambda: takeovers(base, args.takeovers),
            lambda: close_under_load(base, args.close_jobs),
            lambda: zip_bomb(base, args.bomb_gib),
            lambda: dense_json(base),
            lambda: hostile_csv(base),
            lambda: store_errors(base),
            ssrf,
        ]
        for check in checks:
            rows.append(check())
            console.print(f"[dim]{rows[-1].check}: {rows[-1].result}[/dim]")
    table = Table("check", "size", "result", "goal", "met", title="threefold reliability campaign")
    for row in rows:
        table.add_row(row.check, row.size, row.result, row.goal, "yes" if row.met else "[red]NO")
    console.print(table)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    console.print(f"[dim]largest child peak RSS: {peak:.0f} MB[/dim]")


if __name__ == "__main__":
    main()
