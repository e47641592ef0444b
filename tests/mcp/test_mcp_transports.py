"""`python -m threefold.faces.mcp` as a real process: stdio, and streamable HTTP on loopback."""

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters

from threefold import Memory
from threefold.faces.mcp import TOOL_NAMES

pytestmark = [pytest.mark.anyio, pytest.mark.slow]  # slow: see pyproject.toml


def _env(tmp_path: Path, trust: str) -> dict[str, str]:
    return {
        "THREEFOLD_DB": str(tmp_path / "mcp.db"),
        "THREEFOLD_EMBED__KIND": "hashing",
        "THREEFOLD_MCP__TENANT": "acme",
        "THREEFOLD_MCP__TRUST": trust,
    }


async def test_stdio_subprocess(tmp_path: Path) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "threefold.faces.mcp"],
        env=_env(tmp_path, "full"),
        cwd=str(tmp_path),
    )
    async with Client(params, read_timeout_seconds=60) as client:
        names = {t.name for t in (await client.list_tools()).tools}
        written = await client.call_tool(
            "memory_write", {"stream": "project:alpha", "text": "Raj is the Lead Architect."}
        )
        got = await client.call_tool(
            "memory_get", {"fact_id": json.loads(written.content[0].text)["id"]}
        )
        bad = await client.call_tool("memory_timeline", {"entity": "project:no good"})
    assert names == set(TOOL_NAMES)
    assert not written.is_error
    assert json.loads(got.content[0].text)["text"] == "Raj is the Lead Architect."
    assert bad.is_error and "invalid stream name 'project:no good'" in bad.content[0].text
    # Results leave the session's tenant out; the fact is the configured tenant's.
    with Memory.open(tmp_path / "mcp.db", embedder=None, background_worker=False) as memory:
        fact_id = json.loads(written.content[0].text)["id"]
        assert memory.fact(fact_id, tenant="acme").text == "Raj is the Lead Architect."


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_for_port(port: int, process: subprocess.Popen[bytes], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"the MCP server exited with {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"the MCP server did not listen on {port} within {timeout}s")


async def test_streamable_http_subprocess(tmp_path: Path) -> None:
    port = _free_port()
    env = {**os.environ, **_env(tmp_path, "public")}
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "threefold.faces.mcp",
            "--transport",
            "http",
            "--port",
            str(port),
            "--no-auth",
        ],
        env=env,
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_for_port(port, process)
        async with Client(f"http://127.0.0.1:{port}/mcp", read_timeout_seconds=60) as client:
            names = {t.name for t in (await client.list_tools()).tools}
            write = await client.call_tool(
                "memory_write", {"stream": "project:alpha", "text": "Eve is the CEO."}
            )
            listed = await client.call_tool(
                "memory_sessions", {"stream": "project:alpha", "action": "list"}
            )
    finally:
        process.terminate()
        process.wait(timeout=30)
    assert names == set(TOOL_NAMES)
    assert write.is_error and "trust 'public'" in write.content[0].text
    assert not listed.is_error and json.loads(listed.content[0].text)["summaries"] == []
