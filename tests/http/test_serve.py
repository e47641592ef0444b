"""`serve()` as `threefold serve` runs it: its own process(es), its own port, stopped by a
signal."""

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.http.test_sources import jira_csv, upload
from threefold import Memory, load_settings
from threefold.errors import SettingsError
from threefold.faces.http import serve
from threefold.sources.slack_events import sign
from threefold.trust.keys import create_key

pytestmark = pytest.mark.slow  # see the slow marker in pyproject.toml

SERVE = (
    "import sys; from threefold import load_settings; from threefold.faces.http import serve; "
    "serve(load_settings(), host='127.0.0.1', port=int(sys.argv[1]))"
)
CLI = "from threefold.faces.cli import app; app()"
STARTED = "Application startup complete"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class _Server:
    """A server process with its output read as it comes (the pipe must never fill)."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        args = [a.replace("{port}", str(self.port)) for a in args]
        self.proc = subprocess.Popen(
            [sys.executable, *args],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,  # uvicorn's access log goes to stdout
            text=True,
        )
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line)

    @property
    def log(self) -> str:
        return "".join(self.lines)

    def wait_until_up(self, processes: int = 1, seconds: float = 60.0) -> None:
        """Until `processes` have started their app and the port answers."""
        until(
            lambda: self.log.count(STARTED) >= processes and self._healthy(),
            seconds,
            lambda: f"serve did not come up: {self.log}",
        )

    def _healthy(self) -> bool:
        assert self.proc.poll() is None, f"serve exited with {self.proc.returncode}: {self.log}"
        try:
            return httpx.get(f"{self.url}/health", timeout=1.0).status_code == 200
        except httpx.TransportError:
            return False

    def stop(self) -> str:
        """SIGTERM, as a service manager stops it; returns everything it logged."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(timeout=60)
        self._reader.join(timeout=10)
        assert self.proc.stdout is not None
        self.proc.stdout.close()
        return self.log


def until(ready: Callable[[], bool], seconds: float, why: Callable[[], str]) -> None:
    deadline = time.monotonic() + seconds
    while not ready():
        assert time.monotonic() < deadline, why()
        time.sleep(0.05)


def _env(db: Path, **more: str) -> dict[str, str]:
    return {**os.environ, "THREEFOLD_DB": str(db), **more}


@contextmanager
def _running(args: list[str], env: dict[str, str], processes: int = 1) -> Iterator[_Server]:
    server = _Server(args, env)
    try:
        server.wait_until_up(processes)
        yield server
    finally:
        server.stop()


def test_serve_answers_and_stops_cleanly(tmp_path: Path) -> None:
    db = tmp_path / "serve.db"
    with Memory.open(db, settings=load_settings(), background_worker=False) as mem:
        _, secret = create_key(mem.store, "acme", "full")
    with _running(["-c", SERVE, "{port}"], _env(db)) as server:
        headers = {"Authorization": f"Bearer {secret}"}
        with httpx.Client(base_url=server.url, headers=headers, timeout=10.0) as client:
            added = client.post(
                "/v1/turns", json={"stream": "project:serve", "user": "Ada owns the API."}
            )
            assert added.status_code == 201, added.text
            question = {"stream": "project:serve", "query": "who owns the zebra API"}
            ctx = client.get("/v1/context", params=question)
            assert ctx.status_code == 200 and "Ada owns the API." in ctx.text
    err = server.log
    assert "Application shutdown complete" in err, err
    assert "Traceback" not in err, err
    # Where it listens and what it serves, before anything else.
    for said in (f"listening on {server.url}", str(db), f"{server.url}/v1 ", "/docs", "/ui"):
        assert said in err, (said, err)
    assert err.index("listening on") < err.index(STARTED)
    # No access log unless asked for: a GET's query string holds the user's question.
    assert "zebra" not in err and "/v1/context" not in err, err
    with Memory.open(db, settings=load_settings(), background_worker=False) as mem:
        turns = mem.turns("project:serve", tenant="acme")
    assert [t.user for t in turns] == ["Ada owns the API."]


def test_job_processes_take_the_work_out_of_the_server(tmp_path: Path) -> None:
    """With http.job_processes, a Slack event is answered by the server and stored by a
    job process: the server's process runs no job thread."""
    db, secret = tmp_path / "serve.db", "signing-secret"
    env = _env(
        db,
        THREEFOLD_HTTP__JOB_PROCESSES="1",
        THREEFOLD_SLACK__SIGNING_SECRET=secret,
        THREEFOLD_SLACK__TENANT="acme",
        THREEFOLD_EMBED__KIND="none",
    )
    event = {
        "type": "event_callback",
        "event_id": "Ev1",
        "event": {"type": "message", "channel": "C1", "user": "U1", "ts": "1790000000.000100"}
        | {"text": "The release moved to Friday."},
    }
    body = json.dumps(event).encode()
    stamp = str(int(time.time()))
    headers = {"X-Slack-Request-Timestamp": stamp, "X-Slack-Signature": sign(secret, stamp, body)}
    with _running(["-c", SERVE, "{port}"], env) as server:
        assert "in 1 process of their own" in server.log
        answer = httpx.post(f"{server.url}/v1/slack/events", content=body, headers=headers)
        assert (answer.status_code, answer.json()["outcome"]) == (200, "queued")

        def stored() -> bool:
            with Memory.open(db, settings=load_settings(), background_worker=False) as mem:
                return [r.text for r in mem.records("global", tenant="acme")] == [
                    "The release moved to Friday."
                ]

        until(stored, 60, lambda: f"the job process did not store the event: {server.log}")
    err = server.log
    assert "Application shutdown complete" in err and "Traceback" not in err, err


def test_the_access_log_is_written_when_asked_for(tmp_path: Path) -> None:
    db = tmp_path / "serve.db"
    env = _env(db, THREEFOLD_HTTP__ACCESS_LOG="true")
    with _running(["-c", SERVE, "{port}"], env) as server:
        assert httpx.get(f"{server.url}/v1/turns", params={"stream": "x:y"}).status_code == 401
        until(
            lambda: '"GET /v1/turns?stream=x%3Ay HTTP/1.1" 401' in server.log,
            10.0,
            lambda: f"no access line: {server.log}",
        )


# -- several worker processes ---------------------------------------------------


def test_a_worker_count_out_of_range_is_a_settings_error(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="workers"):
        serve(load_settings(db=tmp_path / "serve.db"), port=0, workers=0)
    assert not (tmp_path / "serve.db").exists()  # refused before anything was opened


def _events(trace: Path, name: str) -> list[dict[str, Any]]:
    if not trace.exists():
        return []
    events = [json.loads(line) for line in trace.read_text().splitlines() if line]
    return [e for e in events if e["event"] == name]


def _one_client_per_process(
    url: str, headers: dict[str, str], trace: Path, stack: ExitStack, processes: int = 2
) -> list[httpx.Client]:
    """Keep-alive clients until each server process holds one's connection. A context
    request is traced with the pid of the process that built it, and requests go one
    at a time, so the newest context event names the process behind a connection."""
    found: dict[int, httpx.Client] = {}
    for _ in range(100):
        client = stack.enter_context(httpx.Client(base_url=url, headers=headers, timeout=30))
        assert client.get("/v1/context", params={"stream": "project:serve"}).status_code == 200
        found.setdefault(_events(trace, "context")[-1]["pid"], client)
        if len(found) == processes:
            return list(found.values())
    raise AssertionError(f"only {len(found)} of {processes} processes took a connection")


def _keys(db: Path) -> tuple[dict[str, str], dict[str, str]]:
    with Memory.open(db, settings=load_settings(), background_worker=False) as mem:
        _, acme = create_key(mem.store, "acme", "full")
        _, globex = create_key(mem.store, "globex", "full")
    return {"Authorization": f"Bearer {acme}"}, {"Authorization": f"Bearer {globex}"}


def test_two_worker_processes_serve_one_memory(tmp_path: Path) -> None:
    db, trace = tmp_path / "serve.db", tmp_path / "trace.jsonl"
    acme, globex = _keys(db)
    env = _env(db, THREEFOLD_EMBED__KIND="hashing", THREEFOLD_TRACE_FILE=str(trace))
    args = ["-c", CLI, "serve", "--port", "{port}", "--workers", "2"]
    with _running(args, env, processes=2) as server, ExitStack() as stack:
        first, second = _one_client_per_process(server.url, acme, trace, stack)
        _a_turn_written_in_one_is_read_in_the_other(first, second)
        _an_import_is_polled_in_both(first, second, globex, tmp_path)
        _maintenance_ran_once(trace)
    err = server.stop()
    assert err.count("Application shutdown complete") == 2, err
    assert "Traceback" not in err, err


def _a_turn_written_in_one_is_read_in_the_other(first: httpx.Client, second: httpx.Client) -> None:
    added = first.post("/v1/turns", json={"stream": "project:serve", "user": "Ada owns the API."})
    assert added.status_code == 201, added.text
    ctx = second.get("/v1/context", params={"stream": "project:serve"})
    assert ctx.status_code == 200 and "Ada owns the API." in ctx.text


def _an_import_is_polled_in_both(
    first: httpx.Client, second: httpx.Client, globex: dict[str, str], tmp_path: Path
) -> None:
    started = upload(first, {}, "jira", jira_csv(tmp_path / "issues.csv"))
    assert started.status_code == 202, started.text
    url = started.json()["status_url"]
    seen: list[dict[str, Any]] = []

    def ended() -> bool:
        for client in (second, first):
            answer = client.get(url)
            assert answer.status_code == 200, answer.text
            seen.append(answer.json())
            # Another tenant's key finds no such import, whichever process it asks.
            assert client.get(url, headers=globex).status_code == 404
        return seen[-1]["status"] in ("done", "failed")

    until(ended, 60, lambda: f"the import did not end: {seen[-1]}")
    here, there = (client.get(url).json() for client in (first, second))
    assert here == there and here["status"] == "done" and here["report"]["kept"] > 0, here


def _maintenance_ran_once(trace: Path) -> None:
    """Both processes tried for the maintenance lease; one got it and ran, once."""
    until(
        lambda: len(_events(trace, "maintenance_lease")) == 2,
        60,
        lambda: f"leases tried: {_events(trace, 'maintenance_lease')}",
    )
    tries = _events(trace, "maintenance_lease")
    assert len({t["pid"] for t in tries}) == 2
    assert sorted(t["held"] for t in tries) == [False, True]
    until(lambda: bool(_events(trace, "maintenance")), 60, lambda: "maintenance never ran")
    runs = [e for e in _events(trace, "maintenance") if e["stage"] == "retention"]
    assert [r["pid"] for r in runs] == [next(t["pid"] for t in tries if t["held"])]
