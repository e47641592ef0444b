"""`threefold serve`: the HTTP API under uvicorn, in one process or several.

Each worker process opens its own Memory on the same database and serves the same port
(uvicorn's own workers: the parent binds the socket, starts, watches and stops them).
They keep out of each other's way through the store: SQLite's locks, the stream leases
for jobs, a lease for the maintenance loop, and the import statuses kept in the store.
"""

import os

from fastapi import FastAPI
from pydantic import ValidationError

from threefold.errors import SettingsError
from threefold.faces.http.app import create_app
from threefold.faces.http.imports import fail_unfinished
from threefold.memory import Memory
from threefold.settings import HttpSettings, Settings, load_settings

_SETTINGS_ENV = "THREEFOLD_SERVE_SETTINGS"
"""How serve() hands its settings to the worker processes, which uvicorn spawns afresh."""


def serve(
    settings: Settings,
    host: str | None = None,
    port: int | None = None,
    workers: int | None = None,
) -> None:
    """Serve the memory of `settings` until stopped, in `workers` processes (default:
    settings.http.workers), each with its background worker."""
    import uvicorn

    if workers is not None:
        settings = settings.model_copy(update={"http": _with_workers(settings.http, workers)})
    _prepare(settings)
    os.environ[_SETTINGS_ENV] = settings.model_dump_json()
    try:
        uvicorn.run(
            f"{__name__}:worker_app",
            factory=True,
            host=host or settings.http.host,
            port=settings.http.port if port is None else port,
            workers=settings.http.workers,
            log_level="info",
            access_log=settings.http.access_log,
        )
    finally:
        os.environ.pop(_SETTINGS_ENV, None)


def worker_app() -> FastAPI:
    """The app of one server process, over its own Memory, with the settings of serve()
    (or, under `uvicorn --factory threefold.faces.http.server:worker_app`, load_settings())."""
    given = os.environ.get(_SETTINGS_ENV)
    settings = Settings.model_validate_json(given) if given else load_settings()
    memory = Memory.open(settings=settings, background_worker=True)
    return create_app(memory, settings, maintenance=True)


def _with_workers(http: HttpSettings, workers: int) -> HttpSettings:
    try:
        return HttpSettings.model_validate({**http.model_dump(), "workers": workers})
    except ValidationError as exc:
        raise SettingsError(f"workers: {exc.errors()[0]['msg']} (got {workers!r})") from None


def _prepare(settings: Settings) -> None:
    """Open the memory once before any worker does: a bad setting or a foreign embedding
    model is one clear error here, not a failure in every worker; the migrations run
    once; and the imports a stopped server left unfinished are marked failed."""
    with Memory.open(settings=settings, background_worker=False) as memory:
        fail_unfinished(memory)
