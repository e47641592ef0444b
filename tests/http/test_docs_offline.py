"""/docs and /redoc render in a real browser that can reach nothing but the server."""

from urllib.parse import urlparse

import httpx
import pytest
from playwright.sync_api import Browser, Page, Route

from tests.http.conftest import Live
from tests.http.inspector_browser import browser, open_context

__all__ = ["browser"]  # a shared fixture, used as an argument


def offline_page(browser: Browser, live: Live, elsewhere: list[str]) -> Page:
    """A page whose requests to any host but the server are refused and listed."""
    server = urlparse(live.url).netloc
    context = open_context(browser, live)

    def only_the_server(route: Route) -> None:
        if urlparse(route.request.url).netloc == server:
            route.continue_()
        else:
            elsewhere.append(route.request.url)
            route.abort("internetdisconnected")

    context.route("**/*", only_the_server)
    return context.new_page()


def test_swagger_ui_renders_every_endpoint_offline(browser: Browser, live: Live) -> None:
    elsewhere: list[str] = []
    page = offline_page(browser, live, elsewhere)
    page.goto("/docs")
    page.locator(".swagger-ui .info .title").wait_for()
    assert "threefold" in page.locator(".swagger-ui .info .title").inner_text()
    paths = page.locator(".opblock-summary-path").all_inner_texts()
    assert "/v1/context" in {path.strip() for path in paths}
    assert len(paths) >= 10
    assert elsewhere == []
    page.context.close()


def test_redoc_renders_offline(browser: Browser, live: Live) -> None:
    elsewhere: list[str] = []
    page = offline_page(browser, live, elsewhere)
    page.goto("/redoc")
    page.locator("h1").first.wait_for()
    assert "threefold" in page.locator("h1").first.inner_text()
    page.get_by_text("/v1/context").first.wait_for(state="attached")
    assert elsewhere == []
    page.context.close()


@pytest.mark.parametrize(
    "path", ["/docs-assets/swagger-ui-bundle.js", "/docs-assets/redoc.standalone.js"]
)
def test_the_assets_need_no_key_and_the_api_still_does(live: Live, path: str) -> None:
    with httpx.Client(base_url=live.url) as client:
        asset = client.get(path)
        assert asset.status_code == 200
        assert len(asset.content) > 100_000
        assert "javascript" in asset.headers["content-type"]
        assert client.get("/docs-assets/../memory.db").status_code == 404
        assert client.get("/v1/facts/project:alpha").status_code == 401
