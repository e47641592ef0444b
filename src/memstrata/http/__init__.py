"""The HTTP API face: FastAPI under uvicorn, over one Memory built from settings.

    memstrata serve --host 127.0.0.1 --port 8420      # docs at /docs

Endpoints live under /v1 and need an API key; /health and the docs do not.
"""

from memstrata.http.app import create_app
from memstrata.memory import Memory
from memstrata.settings import Settings

__all__ = ["create_app", "serve"]


def serve(settings: Settings, host: str | None = None, port: int | None = None) -> None:
    """Open the memory of `settings` (with its background worker) and serve it until stopped."""
    import uvicorn

    from memstrata.maintenance import MaintenanceLoop

    memory = Memory.open(settings=settings, background_worker=True)
    app = create_app(memory, settings)
    loop = MaintenanceLoop(memory, settings.maintenance_interval_seconds)
    loop.start()
    try:
        config = uvicorn.Config(
            app,
            host=host or settings.http.host,
            port=settings.http.port if port is None else port,
            log_level="info",
        )
        uvicorn.Server(config).run()
    finally:
        loop.stop()
        app.state.imports.close()  # already done if the lifespan ran; before the memory closes
        app.state.close_memory()
