"""The FastAPI application: one Memory, API-key auth, a body limit and one error shape.

Imports run on the app's own worker thread (app.state.imports); its lifespan stops that
thread, and the maintenance loop if the app runs one, before it closes the memory.
"""

import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio
from fastapi import FastAPI

from threefold import __version__
from threefold.faces.http import errors
from threefold.faces.http.auth import AuthMiddleware, KnownKeys
from threefold.faces.http.context_route import ContextShortcut
from threefold.faces.http.docs import mount_docs
from threefold.faces.http.imports import Imports, remove_stale_uploads
from threefold.faces.http.lane import MemoryLane
from threefold.faces.http.limits import BodyLimitMiddleware
from threefold.faces.http.live_sources import router as live_sources
from threefold.faces.http.routes import router
from threefold.faces.http.schemas import Health
from threefold.faces.web import mount as mount_inspector
from threefold.memory import Memory
from threefold.settings import Settings

DESCRIPTION = """
Long-term memory for LLM assistants.

Every `/v1` request carries an API key (`Authorization: Bearer <key>` or `X-API-Key`),
made with `threefold keys create --tenant T --trust full`. The key fixes the tenant, and
the trust level it reads with; a `public` key cannot write. Errors are
`{"error": {"code": ..., "message": ...}}` with a stable `code`: malformed JSON is a 400
`invalid_json`, JSON that does not fit is a 422 `invalid_input`.

Imports (`POST /v1/imports`) run in the background, one at a time in each server process:
the answer is a 202 with a status URL to poll. Statuses are kept in the store, the most
recent 200; an import a restart cut short ends as "failed".
"""


class MemoryCloser:
    """Closes the memory once, from the app's shutdown or from whoever started it."""

    def __init__(self, memory: Memory) -> None:
        self._memory = memory
        self._lock = threading.Lock()
        self._closed = False

    def __call__(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self._memory.close()


def create_app(
    memory: Memory, settings: Settings, *, close_memory: bool = True, maintenance: bool = False
) -> FastAPI:
    """The HTTP API over `memory`. With `close_memory`, the app's shutdown closes it; with
    `maintenance`, the app runs the maintenance loop from its start to its shutdown."""
    closer = MemoryCloser(memory)
    imports = Imports(memory)
    lane = MemoryLane()
    receiver = MemoryLane("threefold-receiver")
    # Storage the memory cannot write is served for reading: nothing there to maintain.
    maintain = maintenance and not memory.read_only
    loop = memory.maintenance_loop(settings.maintenance_interval_seconds) if maintain else None

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Upload folders of a process killed mid-import; a live process's are locked.
        await anyio.to_thread.run_sync(remove_stale_uploads)
        if loop is not None:
            loop.start()
        try:
            yield
        finally:
            if loop is not None:
                await anyio.to_thread.run_sync(loop.stop)
            # Then the imports: the one running still writes to the memory; and the calls
            # still queued in the lane.
            await anyio.to_thread.run_sync(imports.close)
            await anyio.to_thread.run_sync(lane.close)
            await anyio.to_thread.run_sync(receiver.close)
            if close_memory:
                await anyio.to_thread.run_sync(closer)

    app = FastAPI(
        title="threefold",
        version=__version__,
        description=DESCRIPTION,
        lifespan=lifespan,
        docs_url=None,  # mount_docs serves both pages from local assets
        redoc_url=None,
    )
    app.state.memory = memory
    app.state.settings = settings
    app.state.memory_lane = lane  # contexts and key look-ups, one at a time (see lane.py)
    # Events a sender waits on (Slack's) are taken on a lane of their own: behind a
    # context build they would wait for it.
    app.state.receiver_lane = receiver
    # Query embeddings run beside it: the model releases the GIL and takes the other core.
    app.state.model_lane = anyio.CapacityLimiter(1)
    app.state.known_keys = KnownKeys()
    app.state.close_memory = closer
    app.state.imports = imports
    errors.install(app)
    # The last added runs first: errors are caught around everything, the key is checked
    # before any body byte is read, and context requests find their body whole.
    app.add_middleware(ContextShortcut)
    app.add_middleware(BodyLimitMiddleware, max_body_bytes=settings.http.max_body_bytes)
    app.add_middleware(
        AuthMiddleware, memory=memory, lane=app.state.memory_lane, known=app.state.known_keys
    )
    app.add_middleware(errors.CatchAllMiddleware)

    @app.get("/health", tags=["health"])
    async def health() -> Health:
        """Liveness; needs no key."""
        # Async, as it does no I/O: a plain def would cost two trips to the threadpool,
        # one to run it and one to check its answer.
        return Health(version=__version__)

    app.include_router(router)
    app.include_router(live_sources)
    mount_docs(app)  # Swagger UI at /docs, ReDoc at /redoc, with no CDN
    mount_inspector(app)  # the web inspector at /ui
    return app
