"""`serve()` as `memstrata serve` runs it: its own process, its own port, stopped by a signal."""

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from memstrata import Memory, load_settings
from memstrata.keys import create_key

SERVE = (
    "import sys; from memstrata import load_settings; from memstrata.http import serve; "
    "serve(load_settings(), host='127.0.0.1', port=int(sys.argv[1]))"
)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_until_up(url: str, proc: subprocess.Popen, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"serve exited with {proc.returncode}")
        try:
            if httpx.get(f"{url}/health", timeout=1.0).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.05)
    raise AssertionError("serve did not come up")


def test_serve_answers_and_stops_cleanly(tmp_path: Path) -> None:
    db = tmp_path / "serve.db"
    with Memory.open(db, settings=load_settings(), background_worker=False) as mem:
        _, secret = create_key(mem.store, "acme", "full")
    port = _free_port()
    env = {**os.environ, "MEMSTRATA_DB": str(db)}
    proc = subprocess.Popen(
        [sys.executable, "-c", SERVE, str(port)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(url, proc)
        headers = {"Authorization": f"Bearer {secret}"}
        with httpx.Client(base_url=url, headers=headers, timeout=10.0) as client:
            added = client.post(
                "/v1/turns", json={"stream": "project:serve", "user": "Ada owns the API."}
            )
            assert added.status_code == 201, added.text
            ctx = client.get("/v1/context", params={"stream": "project:serve"})
            assert ctx.status_code == 200 and "Ada owns the API." in ctx.text
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    assert "Application shutdown complete" in err, err
    assert "Traceback" not in err, err
    with Memory.open(db, settings=load_settings(), background_worker=False) as mem:
        turns = mem.turns("project:serve", tenant="acme")
    assert [t.user for t in turns] == ["Ada owns the API."]
