"""The API's own documentation pages, served without the internet.

FastAPI's default /docs and /redoc load Swagger UI and ReDoc from a CDN, so they are blank
pages on a machine that cannot reach it. Here the scripts and styles come from the
``fastapi-offline`` wheel (a dependency of the ``server`` extra), served by the app under
:data:`ASSETS`; the pages make no request to another host.
"""

from importlib import resources

from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

__all__ = ["ASSETS", "mount_docs"]

ASSETS = "/docs-assets"

SAME_ORIGIN_ONLY = "; ".join(
    [
        "default-src 'self'",
        # Both pages start their viewer with an inline script, and style it inline.
        "script-src 'self' 'unsafe-inline' blob:",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "font-src 'self' data:",
        "worker-src 'self' blob:",
        "connect-src 'self'",
    ]
)
"""ReDoc shows a logo from its CDN (and hides it when that fails); this policy keeps it,
and anything else, from contacting another host."""


def mount_docs(app: FastAPI) -> None:
    """Swagger UI at /docs and ReDoc at /redoc, for an app made with docs_url=None and
    redoc_url=None."""
    folder = resources.files("fastapi_offline") / "static"
    app.mount(ASSETS, StaticFiles(directory=str(folder)), name="docs-assets")
    title = f"{app.title} API"

    @app.get("/docs", include_in_schema=False)
    def swagger_ui(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        page = get_swagger_ui_html(
            openapi_url=root + (app.openapi_url or "/openapi.json"),
            title=title,
            swagger_js_url=f"{root}{ASSETS}/swagger-ui-bundle.js",
            swagger_css_url=f"{root}{ASSETS}/swagger-ui.css",
            swagger_favicon_url=f"{root}{ASSETS}/favicon.png",
            # Swagger UI would send the whole spec to its public validator otherwise.
            swagger_ui_parameters={"validatorUrl": None},
        )
        return _same_origin_only(page)

    @app.get("/redoc", include_in_schema=False)
    def redoc(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        page = get_redoc_html(
            openapi_url=root + (app.openapi_url or "/openapi.json"),
            title=title,
            redoc_js_url=f"{root}{ASSETS}/redoc.standalone.js",
            redoc_favicon_url=f"{root}{ASSETS}/favicon.png",
            with_google_fonts=False,
        )
        return _same_origin_only(page)


def _same_origin_only(page: HTMLResponse) -> HTMLResponse:
    page.headers["Content-Security-Policy"] = SAME_ORIGIN_ONLY
    return page
