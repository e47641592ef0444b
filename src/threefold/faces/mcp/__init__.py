"""The MCP face: `threefold mcp` serves memory tools over stdio or streamable HTTP.

`build_server(memory, tenant, trust)` makes the SDK server; `run_mcp(settings)` opens a
Memory from settings and serves it: over stdio as `settings.mcp.tenant` at
`settings.mcp.trust`, over HTTP as each request's API key says (`threefold.faces.mcp.http`).
"""

import sys
from typing import TYPE_CHECKING, Any

from threefold.domain import Trust
from threefold.extras import extra_needed
from threefold.settings import Settings
from threefold.trust.access import Caller, check_no_auth

if TYPE_CHECKING:  # the SDK is imported on first use: see __getattr__
    from threefold.faces.mcp.server import TOOL_NAMES, build_server
    from threefold.memory import Memory

TRANSPORTS = ("stdio", "http", "streamable-http")
"""'http' is short for the SDK's 'streamable-http'."""


def run_mcp(
    settings: Settings,
    transport: str = "stdio",
    host: str = "127.0.0.1",
    port: int = 8422,
    *,
    no_auth: bool = False,
) -> None:
    """Serve the memory that `settings` name until the client goes away (stdio) or the
    process is stopped (streamable HTTP at http://host:port/mcp).

    Over stdio the session acts as `settings.mcp.tenant` at `settings.mcp.trust`: whoever
    starts the process owns it. Over HTTP each request needs an API key and acts as its
    tenant and trust; with `no_auth`, as the settings' tenant and trust, on loopback only.
    """
    from threefold.errors import InvalidInput
    from threefold.memory import Memory

    if transport not in TRANSPORTS:
        raise InvalidInput(f"unknown MCP transport {transport!r}; use stdio or http")
    with extra_needed("mcp", "the MCP server"):
        from threefold.faces.mcp.server import build_server

    configured = Caller(settings.mcp.tenant, Trust(settings.mcp.trust))
    if transport != "stdio" and no_auth:
        check_no_auth("threefold mcp", host, configured)
    with Memory.open(settings=settings, tenant=settings.mcp.tenant) as memory:
        if transport == "stdio":
            build_server(memory, configured.tenant, configured.trust).run("stdio")
        else:
            _serve_http(memory, host, port, configured if no_auth else None)


def _serve_http(memory: "Memory", host: str, port: int, open_as: Caller | None) -> None:
    import uvicorn

    with extra_needed("mcp", "the MCP server"):
        from threefold.faces.mcp.http import PATH, mcp_http_app

    shown = f"[{host}]" if ":" in host else host
    keys = "no key needed (--no-auth)" if open_as else "send an API key as 'Authorization: Bearer'"
    print(f"threefold mcp: serving MCP at http://{shown}:{port}{PATH} ({keys})", file=sys.stderr)
    uvicorn.run(mcp_http_app(memory, host=host, open_as=open_as), host=host, port=port)


def __getattr__(name: str) -> Any:
    # The SDK is imported on first use, so that `python -m threefold.faces.mcp` without the
    # extra reaches its own one-line error.
    if name in {"TOOL_NAMES", "build_server"}:
        with extra_needed("mcp", "the MCP server"):
            from threefold.faces.mcp import server

        return getattr(server, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["TOOL_NAMES", "TRANSPORTS", "build_server", "run_mcp"]
