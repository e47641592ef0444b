"""One memory read through every face that renders a context, for the render-injection
tests: the Python API (text and system message), HTTP `POST /v1/context`, the MCP tool
`memory_context`, and the system message the proxy sends upstream.

Everything is real: a SQLite file, the FastAPI app behind TestClient, the MCP server behind
the SDK's in-process client, the proxy served by uvicorn on loopback in front of a fake
upstream.
"""

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import httpx
from fastapi.testclient import TestClient
from mcp import Client

from tests.proxy.servers import FakeUpstream, ServerThread
from threefold import Memory, load_settings
from threefold.context.assemble import TITLES
from threefold.domain import Trust
from threefold.faces.http import create_app
from threefold.faces.mcp import build_server
from threefold.faces.proxy import create_proxy_app
from threefold.models.base import MemoryModel
from threefold.trust.access import Caller
from threefold.trust.keys import create_key

OWN_HEADERS = frozenset(f"## {title}" for title in TITLES.values())
DAY_HEADER = re.compile(r"### (?:\d{1,2} [A-Z][a-z]+ \d{1,4}|\d{4}-\d{2}-\d{2}|undated)$")
"""A day's header of the context's own: "### 1 August 2023" (older contexts: ISO)."""


@dataclass
class Faces:
    memory: Memory
    http: TestClient
    keys: dict[Trust, str]
    upstream: FakeUpstream
    proxy_url: str

    def headers(self, trust: Trust) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.keys[trust]}"}

    def post(self, trust: Trust, path: str, body: dict[str, Any]) -> httpx.Response:
        return self.http.post(path, json=body, headers=self.headers(trust))

    def renderings(self, stream: str, query: str, budget: int = 4000) -> dict[str, str]:
        """The context for `query` as each face renders it to the owner."""
        built = self.memory.context(stream, query, budget)
        answer = self.post(
            Trust.FULL, "/v1/context", {"stream": stream, "query": query, "budget": budget}
        )
        assert answer.status_code == 200, answer.text
        return {
            "python text": built.text,
            "python system message": built.messages[0]["content"],
            "http": answer.json()["text"],
            "mcp": anyio.run(self._mcp_context, stream, query, budget),
            "proxy": self._proxied_system(stream, query),
        }

    async def _mcp_context(self, stream: str, query: str, budget: int) -> str:
        server = build_server(self.memory, self.memory.tenant, Trust.FULL)
        async with Client(server) as client:
            result = await client.call_tool(
                "memory_context", {"stream": stream, "query": query, "budget": budget}
            )
        assert not result.is_error, result
        text: str = json.loads(result.content[0].text)["text"]  # one compact JSON copy
        return text

    def _proxied_system(self, stream: str, query: str) -> str:
        seen = len(self.upstream.requests)
        body = {"model": "m", "messages": [{"role": "user", "content": query}]}
        with httpx.Client(base_url=self.proxy_url, timeout=10.0) as client:
            answer = client.post(
                "/chat/completions", json=body, headers={"X-Threefold-Stream": stream}
            )
        answer.raise_for_status()
        content: str = self.upstream.requests[seen]["messages"][0]["content"]
        return content


@contextmanager
def faces(folder: Path, model: MemoryModel | None = None, **settings: Any) -> Iterator[Faces]:
    """A memory on a SQLite file in `folder` and every face over it, with a key per trust."""
    settings = load_settings(db=folder / "faces.db", embed={"kind": "hashing"}, **settings)
    memory = Memory.open(settings=settings, model=model, background_worker=False)
    try:
        with FakeUpstream() as upstream:
            proxy_settings = settings.model_copy(
                update={
                    "proxy": settings.proxy.model_copy(
                        update={"upstream": upstream.url, "timeout_seconds": 5.0}
                    )
                }
            )
            proxy = create_proxy_app(
                memory, proxy_settings, open_as=Caller(memory.tenant, Trust.FULL)
            )
            with (
                ServerThread(proxy) as served,
                TestClient(create_app(memory, settings, close_memory=False)) as client,
            ):
                keys = {
                    trust: create_key(memory.store, memory.tenant, trust, trust)[1]
                    for trust in Trust
                }
                yield Faces(memory, client, keys, upstream, f"{served.url}/v1")
    finally:
        memory.close()


def forged_lines(text: str, payload_start: str) -> list[str]:
    """Lines of a rendering that pose as its structure: a header of the context's own
    level that it did not write, or a line that starts with the payload of an attack."""

    def header(line: str) -> bool:
        return line.startswith("#") and line not in OWN_HEADERS and not DAY_HEADER.match(line)

    def payload(line: str) -> bool:
        return line.lstrip("-*+> ").lower().startswith(payload_start.lower())

    return [line for line in text.splitlines() if header(line) or payload(line)]
