"""One real uvicorn server per test module, on a free loopback port, and keys to talk to it.

The server runs the app exactly as `threefold serve` builds it, in a background thread;
tests talk HTTP to it with httpx. Setup that is not under test (creating and revoking keys,
running queued jobs now) goes straight to the Memory.
"""

import os
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest
import uvicorn
from fastapi import FastAPI

from threefold import Memory, load_settings
from threefold.errors import StoreError
from threefold.faces.http import create_app
from threefold.trust.keys import create_key

MAX_BODY = 64 * 1024
PROJECT = {"stream": "project:apollo", "key": "APOLLO", "channels": ["apollo-eng"]}
"""Routing for the source tests: Slack's #apollo-eng and Jira's APOLLO-n go to project:apollo."""


@dataclass
class Live:
    """A running server: its base URL, its memory, and a key secret per name."""

    url: str
    memory: Memory
    keys: dict[str, str] = field(default_factory=dict)
    key_ids: dict[str, int] = field(default_factory=dict)

    def headers(self, name: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.keys[name]}"}

    def add_key(self, name: str, tenant: str, trust: str) -> str:
        key_id, secret = create_key(self.memory.store, tenant, trust, label=name)
        self.keys[name], self.key_ids[name] = secret, key_id
        return secret

    def settle(self) -> None:
        """Run every queued job now (facts, summaries, vectors), for every tenant."""
        self.memory.process_pending()


def _add_test_routes(app: FastAPI) -> None:
    """Routes that fail on purpose, to check what a 500 and a 503 look like."""

    def boom() -> None:
        raise RuntimeError("secret internal detail /home/app/db.sqlite")

    def store_down() -> None:
        raise StoreError("disk I/O error at /var/lib/threefold/memory.db")

    app.add_api_route("/v1/_test/boom", boom)
    app.add_api_route("/v1/_test/store-down", store_down)


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    with pytest.MonkeyPatch.context() as env:
        for key in list(os.environ):
            if key.startswith("THREEFOLD_"):
                env.delenv(key)
        tmp: Path = tmp_path_factory.mktemp("http")
        settings = load_settings(
            db=tmp / "memory.db",
            embed={"kind": "hashing"},
            http={"max_body_bytes": MAX_BODY},
            projects=[PROJECT],
        )
        memory = Memory.open(settings=settings, background_worker=True)
        app = create_app(memory, settings)
        _add_test_routes(app)
        with _ServerThread(app) as url:
            live = Live(url=url, memory=memory)
            live.add_key("a", "tenant-a", "full")
            live.add_key("a_inner", "tenant-a", "inner")
            live.add_key("a_public", "tenant-a", "public")
            live.add_key("b", "tenant-b", "full")
            yield live


@pytest.fixture(scope="module")
def client(live: Live) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=live.url, timeout=30.0) as client:
        yield client


class _ServerThread:
    """Serve `app` on a free loopback port in a thread; stop it, and its lifespan, on exit."""

    def __init__(self, app: FastAPI) -> None:
        config = uvicorn.Config(
            app, host="127.0.0.1", port=0, log_level="warning", ws="none", lifespan="on"
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> str:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                self.__exit__()
                raise RuntimeError("the test server did not start")
            time.sleep(0.01)
        host, port = self.server.servers[0].sockets[0].getsockname()[:2]
        return f"http://{host}:{port}"

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)
