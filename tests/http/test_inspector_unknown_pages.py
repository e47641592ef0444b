"""An unknown path under /ui is the inspector's "Not found" page, as a browser expects,
while unknown API paths stay JSON."""

import httpx

from tests.http.conftest import Live


def test_an_unknown_ui_path_is_the_not_found_page(live: Live, client: httpx.Client) -> None:
    for path in ("/ui/streams/user:tom", "/ui/nonsense", "/ui/facts/1/nothing"):
        response = client.get(path, headers=live.headers("a"))

        assert response.status_code == 404, path
        assert response.headers["content-type"].startswith("text/html"), path
        assert "<h1>Not found</h1>" in response.text and f"no page {path}" in response.text
        assert response.headers["x-frame-options"] == "DENY"


def test_known_pages_assets_and_api_paths_are_unchanged(live: Live, client: httpx.Client) -> None:
    signed_out = client.get("/ui/streams", follow_redirects=False)
    asset = client.get("/ui/static/nothing.css")
    api = client.get("/v1/nothing", headers=live.headers("a"))

    assert signed_out.status_code == 303 and "/ui/signin" in signed_out.headers["location"]
    assert asset.status_code == 404
    assert api.status_code == 404 and api.json()["error"]["code"] == "not_found"
