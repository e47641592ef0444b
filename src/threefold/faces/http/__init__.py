"""The HTTP API face: FastAPI under uvicorn, over a Memory built from settings.

    threefold serve --host 127.0.0.1 --port 8420 --workers 2   # docs at /docs

Endpoints live under /v1 and need an API key; /health and the docs do not.
"""

from threefold.extras import extra_needed

with extra_needed("server", "the HTTP API"):
    from threefold.faces.http.app import create_app
    from threefold.faces.http.server import serve

__all__ = ["create_app", "serve"]
