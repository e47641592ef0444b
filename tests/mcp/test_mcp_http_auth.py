"""MCP over HTTP takes the HTTP API's keys: a real server process on a loopback port."""

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from tests.mcp.test_mcp_transports import _free_port, _wait_for_port
from threefold import Memory, load_settings

pytestmark = pytest.mark.anyio

INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "probe", "version": "0"},
    },
}
ACCEPT = {"Accept": "application/json, text/event-stream"}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("mcp-auth")


@pytest.fixture(scope="module")
def keys(folder: Path) -> dict[str, str]:
    """acme's full key, its revoked one, and globex's full key; acme has one fact."""
    settings = load_settings(embed={"kind": "hashing"})
    with Memory.open(folder / "mcp.db", settings=settings) as mem:
        mem.write_fact("project:alpha", "Raj is the Lead Architect.", tenant="acme")
        acme_id, acme = mem.create_key("acme", "full")
        revoked_id, revoked = mem.create_key("acme", "full")
        mem.revoke_key(revoked_id)
        globex = mem.create_key("globex", "full")[1]
    return {"acme": acme, "acme_id": str(acme_id), "revoked": revoked, "globex": globex}


@pytest.fixture(scope="module")
def server(folder: Path, keys: dict[str, str]) -> Iterator[tuple[str, Path]]:
    """One server process for the module: each test asks it something else."""
    port = _free_port()
    log = folder / "mcp.log"
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("THREEFOLD_")},
        "THREEFOLD_DB": str(folder / "mcp.db"),
        "THREEFOLD_EMBED__KIND": "hashing",
    }
    with log.open("wb") as err:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "threefold.faces.mcp",
                "--transport",
                "http",
                "--port",
                str(port),
            ],
            env=env,
            cwd=folder,
            stdout=subprocess.DEVNULL,
            stderr=err,
        )
    try:
        _wait_for_port(port, process)
        yield f"http://127.0.0.1:{port}/mcp", log
    finally:
        process.terminate()
        process.wait(timeout=30)


async def search(url: str, secret: str) -> list[str]:
    """memory_search through the SDK's own client, sending `secret` as a Bearer key."""
    headers = {"Authorization": f"Bearer {secret}"}
    async with httpx2.AsyncClient(headers=headers, timeout=60) as http:
        transport = streamable_http_client(url, http_client=http)
        async with Client(transport, read_timeout_seconds=60) as session:
            found = await session.call_tool("memory_search", {"query": "Raj architect"})
    return [hit["text"] for hit in json.loads(found.content[0].text)["hits"]]


@pytest.mark.slow
async def test_the_url_is_printed_at_start(server: tuple[str, Path]) -> None:
    url, log = server
    assert f"serving MCP at {url}" in log.read_text()


async def test_no_key_and_a_revoked_key_are_refused(
    server: tuple[str, Path], keys: dict[str, str]
) -> None:
    url, _ = server
    with httpx.Client(timeout=30) as http:
        for headers in (
            {},
            {"Authorization": f"Bearer {keys['revoked']}"},
            {"X-API-Key": "tf_made-up"},
        ):
            refused = http.post(url, json=INIT, headers={**ACCEPT, **headers})
            assert refused.status_code == 401, headers
            assert refused.json()["error"]["code"] == "unauthorized"
        accepted = http.post(url, json=INIT, headers={**ACCEPT, "X-API-Key": keys["acme"]})
    assert accepted.status_code == 200


async def test_each_key_reads_only_its_own_tenant(
    server: tuple[str, Path], keys: dict[str, str]
) -> None:
    url, _ = server
    assert await search(url, keys["acme"]) == ["Raj is the Lead Architect."]
    assert await search(url, keys["globex"]) == []


async def test_a_session_begun_with_one_tenants_key_is_unknown_to_anothers(
    server: tuple[str, Path], keys: dict[str, str]
) -> None:
    url, _ = server
    with httpx.Client(timeout=30) as http:
        opened = http.post(url, json=INIT, headers={**ACCEPT, "X-API-Key": keys["acme"]})
        session = {"Mcp-Session-Id": opened.headers["mcp-session-id"]}
        call = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
        hijack = http.post(
            url, json=call, headers={**ACCEPT, **session, "X-API-Key": keys["globex"]}
        )
    assert hijack.status_code in (400, 404)
    assert "Raj" not in hijack.text


@pytest.mark.slow
async def test_no_auth_refuses_an_address_other_machines_reach(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "threefold.faces.mcp",
            "--transport",
            "http",
            "--host",
            "0.0.0.0",
            "--no-auth",
        ],
        env={**os.environ, "THREEFOLD_DB": str(tmp_path / "mcp.db")},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "loopback" in done.stderr
    assert not (tmp_path / "mcp.db").exists()


@pytest.mark.slow
async def test_a_fact_written_through_a_key_names_that_key(
    server: tuple[str, Path], keys: dict[str, str], folder: Path
) -> None:
    url, _ = server
    headers = {"Authorization": f"Bearer {keys['acme']}"}
    async with httpx2.AsyncClient(headers=headers, timeout=60) as http:
        transport = streamable_http_client(url, http_client=http)
        async with Client(transport, read_timeout_seconds=60) as session:
            written = await session.call_tool(
                "memory_write", {"stream": "project:alpha", "text": "The demo is on Friday."}
            )
    fact_id = json.loads(written.content[0].text)["id"]
    with Memory.open(folder / "mcp.db", settings=load_settings(embed={"kind": "hashing"})) as mem:
        fact = mem.fact(fact_id, tenant="acme")
    assert fact.writer_key == int(keys["acme_id"])
