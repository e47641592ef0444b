"""Kill tests beyond the writer's: `threefold serve` SIGKILLed while it takes turns over
HTTP, and a worker SIGKILLed while it summarizes and compacts. Nothing acknowledged is
lost, and what the dead process left half done is finished by the next one."""

import os
import random
import signal
import socket
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest

from tests.test_kill import checks
from threefold import Memory, load_settings
from threefold.domain import SummaryKind
from threefold.trust.keys import create_key

# slow: see pyproject.toml; reliability: the CI profile of issue 40 (`make reliability`)
pytestmark = [pytest.mark.slow, pytest.mark.reliability]

STREAM = "chat:kill"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _serve(db: Path, port: int) -> subprocess.Popen:
    env = {**os.environ, "THREEFOLD_EMBED__KIND": "none"}
    command = [
        sys.executable,
        "-c",
        "from threefold.faces.cli import app; app()",
        "--db",
        str(db),
        "serve",
        "--port",
        str(port),
    ]
    return subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _wait_up(client: httpx.Client, server: subprocess.Popen) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert server.poll() is None, f"threefold serve exited with {server.returncode}"
        try:
            client.get("/health")
            return
        except httpx.TransportError:
            time.sleep(0.1)
    raise AssertionError("threefold serve did not start")


def test_a_sigkilled_server_loses_no_acknowledged_turn(tmp_path: Path) -> None:
    # Hostile event: SIGKILL of the HTTP server between requests, then a restart.
    db = tmp_path / "memory.db"
    with Memory.open(db, settings=load_settings(embed={"kind": "none"})) as mem:
        _, secret = create_key(mem.store, "default", "full", label="kill")
    headers = {"Authorization": f"Bearer {secret}"}
    acknowledged: list[str] = []
    for round_ in range(2):
        port = _free_port()
        server = _serve(db, port)
        try:
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
                _wait_up(client, server)
                for n in range(random.randint(5, 20)):
                    text = f"round {round_} turn {n}: the release moved to Friday"
                    answer = client.post(
                        "/v1/turns", headers=headers, json={"stream": STREAM, "user": text}
                    )
                    assert answer.status_code == 201, answer.text
                    acknowledged.append(text)
        finally:
            os.kill(server.pid, signal.SIGKILL)
            server.wait()
    with Memory.open(db, settings=load_settings(embed={"kind": "none"})) as mem:
        stored = {t.user for t in mem.turns(STREAM)}
    assert set(acknowledged) <= stored
    assert checks(db)[0] == "ok"


WORKER = """
import sys
from threefold import Memory, load_settings


settings = load_settings(embed={"kind": "none"}, session_turns=5, summary_max_tokens=150,
                         stream_lease_seconds=2)
mem = Memory.open(sys.argv[1], settings=settings, background_worker=False)
print("working", flush=True)
mem.process_pending()
print("done", flush=True)
"""


def test_a_worker_killed_mid_compaction_leaves_one_summary_and_no_lost_work(
    tmp_path: Path,
) -> None:
    # Hostile event: SIGKILL of a worker while it extracts, summarizes and compacts.
    db = tmp_path / "memory.db"
    settings = load_settings(
        embed={"kind": "none"}, session_turns=5, summary_max_tokens=150, stream_lease_seconds=2
    )
    t0 = datetime(2026, 3, 2, 9, tzinfo=UTC)
    with Memory.open(db, settings=settings, background_worker=False) as mem:
        for n in range(120):
            mem.add_turn(
                STREAM,
                f"Session note {n}: we reviewed invoice batch {n} and the vendor portal issue {n}.",
                at=t0 + timedelta(hours=n),
            )
    with subprocess.Popen(
        [sys.executable, "-c", WORKER, str(db)], stdout=subprocess.PIPE, text=True
    ) as child:
        assert child.stdout is not None and child.stdout.readline().strip() == "working"
        time.sleep(random.uniform(0.5, 2.0))
        os.kill(child.pid, signal.SIGKILL)
    time.sleep(2.5)  # the dead worker's stream lease runs out
    with Memory.open(db, settings=settings, background_worker=False) as mem:
        mem.process_pending()
        assert mem.store.jobs(status="pending") == []
        assert mem.store.jobs(status="failed") == []
        assert len(mem.summaries(STREAM, SummaryKind.ACTIVE)) == 1
        assert len(mem.turns(STREAM)) == 120
        state = mem.streams()[0]
        assert state.last_summarized_turn == 120
    assert checks(db)[0] == "ok"
