"""MCP over streamable HTTP, with the HTTP API's keys.

Each request carries a key ('Authorization: Bearer <key>' or 'X-API-Key'), resolved
before the SDK sees the request, so a revoked key is refused at once. The request then
goes to the MCP server of the key's tenant and trust, built on first use: each has its
own tools, bound to that tenant and trust, and its own sessions, so a session begun with
one tenant's key is unknown to a request with another's.
"""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio
from anyio.abc import TaskGroup, TaskStatus
from mcp.server.mcpserver import MCPServer
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from threefold.faces.mcp.server import build_server
from threefold.memory import Memory
from threefold.trust import access
from threefold.trust.access import Caller

PATH = "/mcp"


class _Servers:
    """The MCP servers of the callers seen so far, one per key (tenant, trust and key id),
    so that what a session writes names the key that wrote it."""

    def __init__(self, memory: Memory, host: str) -> None:
        self._memory = memory
        self._host = host
        self._apps: dict[tuple[str, str, int | None], ASGIApp] = {}
        self._lock = anyio.Lock()
        self._group: TaskGroup | None = None

    @asynccontextmanager
    async def running(self, app: Starlette) -> AsyncIterator[None]:
        """Each server's sessions live in a task of this group until shutdown."""
        async with anyio.create_task_group() as group:
            self._group = group
            try:
                yield
            finally:
                self._group = None
                group.cancel_scope.cancel()

    async def app_for(self, caller: Caller) -> ASGIApp:
        who = (caller.tenant, caller.trust.value, caller.key_id)
        async with self._lock:
            if who not in self._apps:
                if self._group is None:
                    raise RuntimeError("the MCP app serves only while its lifespan runs")
                server = build_server(
                    self._memory, caller.tenant, caller.trust, key_id=caller.key_id
                )
                app = server.streamable_http_app(streamable_http_path=PATH, host=self._host)
                await self._group.start(_serve, server)
                self._apps[who] = app
            return self._apps[who]


async def _serve(server: MCPServer, *, task_status: TaskStatus[None]) -> None:
    async with server.session_manager.run():
        task_status.started()
        await anyio.sleep_forever()


class _KeyGate:
    """Resolves each HTTP request's key and hands the request to its caller's server."""

    def __init__(
        self, app: ASGIApp, servers: _Servers, memory: Memory, open_as: Caller | None
    ) -> None:
        self.app = app  # Starlette's router: it runs the lifespan
        self.servers = servers
        self.memory = memory
        self.open_as = open_as

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        caller = self.open_as
        if caller is None:
            secret = access.presented_secret(scope.get("headers", ()))
            key = await run_in_threadpool(self.memory.api_key, secret) if secret else None
            if key is None:
                await _unauthorized(access.BAD_KEY if secret else access.NO_KEY)(
                    scope, receive, send
                )
                return
            caller = Caller.of(key)
        app = await self.servers.app_for(caller)
        await app(scope, receive, send)


def _unauthorized(message: str) -> JSONResponse:
    body = {"error": {"code": "unauthorized", "message": message}}
    return JSONResponse(body, status_code=401, headers={"WWW-Authenticate": "Bearer"})


def mcp_http_app(
    memory: Memory, *, host: str = "127.0.0.1", open_as: Caller | None = None
) -> Starlette:
    """MCP over streamable HTTP at /mcp, as an ASGI app: each request acts as its key's
    tenant and trust, or, with `open_as` (--no-auth), every request acts as that caller.
    `host` is where it listens: on loopback the SDK refuses DNS-rebound requests."""
    servers = _Servers(memory, host)
    gate = Middleware(_KeyGate, servers=servers, memory=memory, open_as=open_as)
    return Starlette(lifespan=servers.running, middleware=[gate])
