"""The MCP face: `memstrata mcp` serves memory tools over stdio or streamable HTTP.

`build_server(memory, tenant, trust)` makes the SDK server; `run_mcp(settings)` opens a
Memory from settings and serves it as `settings.mcp.tenant` at `settings.mcp.trust`.
"""

from typing import Any

from memstrata.extras import extra_needed
from memstrata.settings import Settings
from memstrata.types import Trust

TYPE_CHECKING = False
if TYPE_CHECKING:  # imported on first use: see __getattr__
    from memstrata.mcp.server import TOOL_NAMES, build_server

TRANSPORTS = ("stdio", "http", "streamable-http")
"""'http' is short for the SDK's 'streamable-http'."""


def run_mcp(
    settings: Settings, transport: str = "stdio", host: str = "127.0.0.1", port: int = 8422
) -> None:
    """Serve the memory that `settings` name until the client goes away (stdio) or the
    process is stopped (streamable HTTP at http://host:port/mcp)."""
    from memstrata.errors import InvalidInput
    from memstrata.memory import Memory

    if transport not in TRANSPORTS:
        raise InvalidInput(f"unknown MCP transport {transport!r}; use stdio or http")
    with extra_needed("mcp", "the MCP server"):
        from memstrata.mcp.server import build_server

    with Memory.open(settings=settings, tenant=settings.mcp.tenant) as memory:
        server = build_server(memory, settings.mcp.tenant, Trust(settings.mcp.trust))
        if transport == "stdio":
            server.run("stdio")
        else:
            server.run("streamable-http", host=host, port=port)


def __getattr__(name: str) -> Any:
    # The SDK is imported on first use, so that `python -m memstrata.mcp` without the
    # extra reaches its own one-line error.
    if name in {"TOOL_NAMES", "build_server"}:
        with extra_needed("mcp", "the MCP server"):
            from memstrata.mcp import server

        return getattr(server, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["TOOL_NAMES", "TRANSPORTS", "build_server", "run_mcp"]
