"""`threefold serve`: the HTTP API under uvicorn, in one process or several.

Each worker process opens its own Memory on the same database and serves the same port
(uvicorn's own workers: the parent binds the socket, starts, watches and stops them).
They keep out of each other's way through the store: SQLite's locks, the stream leases
for jobs, a lease for the maintenance loop, and the import statuses kept in the store.
"""

import os
import sys
from contextlib import AbstractContextManager, nullcontext

from fastapi import FastAPI
from pydantic import ValidationError

from threefold.errors import SettingsError
from threefold.faces.http.app import create_app
from threefold.faces.http.imports import fail_unfinished
from threefold.locations import shown_location
from threefold.memory import Memory
from threefold.settings import REVEAL_SECRETS, HttpSettings, Settings, load_settings

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
    if settings.http.job_processes is None:
        http = settings.http.model_copy(update={"job_processes": DEFAULT_JOB_PROCESSES})
        settings = settings.model_copy(update={"http": http})
    _prepare(settings)
    host = host or settings.http.host
    port = settings.http.port if port is None else port
    print(banner(settings, host, port), file=sys.stderr, flush=True)
    # Secrets written out: the workers are this process's own, and need the real ones.
    os.environ[_SETTINGS_ENV] = settings.model_dump_json(context={REVEAL_SECRETS: True})
    try:
        with _job_processes(settings):
            uvicorn.run(
                f"{__name__}:worker_app",
                factory=True,
                host=host,
                port=port,
                workers=settings.http.workers,
                log_level="info",
                access_log=settings.http.access_log,
            )
    finally:
        os.environ.pop(_SETTINGS_ENV, None)


def banner(settings: Settings, host: str, port: int) -> str:
    """Where the server listens and what it serves there, for the person who started it."""
    base = f"http://{f'[{host}]' if ':' in host else host}:{port}"
    workers = settings.http.workers
    lines = [
        f"threefold serve: listening on {base} ({workers} process{'es' if workers > 1 else ''})",
        f"  database   {shown_location(settings.db)}",
        f"  API        {base}/v1  (each request sends an API key: threefold keys create)",
        f"  API docs   {base}/docs",
        f"  inspector  {base}/ui",
        "  MCP        not here: threefold mcp --transport http serves it on its own port",
        f"  jobs       {_jobs_where(settings.http.job_processes or 0)}",
    ]
    return "\n".join(lines)


def _jobs_where(processes: int) -> str:
    if processes == 0:
        return "in a thread of each server process (http.job_processes: 0)"
    plural = "es" if processes > 1 else ""
    return f"in {processes} process{plural} of their own, at a lower priority"


def worker_app() -> FastAPI:
    """The app of one server process, over its own Memory, with the settings of serve()
    (or, under `uvicorn --factory threefold.faces.http.server:worker_app`, load_settings())."""
    given = os.environ.get(_SETTINGS_ENV)
    settings = Settings.model_validate_json(given) if given else load_settings()
    # With job processes of their own, a server process only answers.
    in_thread = not settings.http.job_processes
    memory = Memory.open(settings=settings, background_worker=in_thread)
    return create_app(memory, settings, maintenance=True)


DEFAULT_JOB_PROCESSES = 1
"""Job processes `serve` starts when http.job_processes is unset. Measured with
benchmarks/slack_events.py at 50 events/s on 2 cores (load about 20, back to back): jobs
in a thread of the server, p95 1,444-1,587 ms and 5.0-5.6 ms of the server's CPU an
event; in a process of their own, p95 440-560 ms and 1.8 ms."""

JOB_NICENESS = 10
"""How far below the server processes the job processes run: a digest waits for a core,
an answer does not."""


def _job_processes(settings: Settings) -> AbstractContextManager[object]:
    """settings.http.job_processes processes running the jobs beside the server, or
    nothing (each server process then runs them in a thread)."""
    count = settings.http.job_processes or 0
    if count == 0:
        return nullcontext()
    from threefold.pipeline.workers import Workers

    return Workers(settings, count=count, nice=JOB_NICENESS)


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
