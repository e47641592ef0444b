"""The HTTP API face: FastAPI under uvicorn, over a Memory built from settings.

    memstrata serve --host 127.0.0.1 --port 8420 --workers 2   # docs at /docs

Endpoints live under /v1 and need an API key; /health and the docs do not.
"""

from memstrata.extras import extra_needed

with extra_needed("server", "the HTTP API"):
    from memstrata.http.app import create_app
    from memstrata.http.server import serve

__all__ = ["create_app", "serve"]
