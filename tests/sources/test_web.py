"""Links in messages: extracting URLs, the fetch allow-list, and fetching pages safely."""

import socket
import time
from collections.abc import Callable
from datetime import UTC

import httpx
import pytest
from pydantic import ValidationError

from tests.sources.conftest import ALLOW, LOOPBACK
from threefold.errors import InvalidInput, ThreefoldError
from threefold.sources.web import FetchError, Page, extract_urls, fetch_page, host_allowed


@pytest.fixture
def fetch(base_url: str) -> Callable[..., Page]:
    def run(path: str, **kwargs: object) -> Page:
        kwargs.setdefault("allow_hosts", ALLOW)
        kwargs.setdefault("allow_networks", LOOPBACK)
        kwargs.setdefault("timeout", 5.0)
        return fetch_page(base_url + path, **kwargs)  # type: ignore[arg-type]

    return run


# --- extract_urls -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("see the spec (https://x.io/a)", ["https://x.io/a"]),
        ("https://x.io/a?b=1&c=2", ["https://x.io/a?b=1&c=2"]),
        ("ftp://x.io/a and javascript:alert(1)", []),
        ("javascript:http://x.io/a", []),
        ("nohttps://x.io/a", []),
        ("Visit https://x.io/a.", ["https://x.io/a"]),
        ("links: https://a.io, http://b.io; done!", ["https://a.io", "http://b.io"]),
        ("really? https://x.io/a?!", ["https://x.io/a"]),
        ('he said "https://x.io/q"', ["https://x.io/q"]),
        ("'https://x.io/q'", ["https://x.io/q"]),
        ("<https://x.io/a>", ["https://x.io/a"]),
        (
            "wiki https://en.wikipedia.org/wiki/Foo_(bar) ok",
            ["https://en.wikipedia.org/wiki/Foo_(bar)"],
        ),
        (
            "(see https://en.wikipedia.org/wiki/Foo_(bar)).",
            ["https://en.wikipedia.org/wiki/Foo_(bar)"],
        ),
        ("https://x.io https://y.io https://x.io", ["https://x.io", "https://y.io"]),
        ("HTTPS://X.io/A", ["HTTPS://X.io/A"]),
        ("http://127.0.0.1:8080/path#frag", ["http://127.0.0.1:8080/path#frag"]),
        ("just https:// alone", []),
        ("", []),
    ],
)
def test_extract_urls(text: str, expected: list[str]) -> None:
    assert extract_urls(text) == expected


# --- host_allowed -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "allow", "expected"),
    [
        ("http://example.com/a", ["example.com"], True),
        ("https://EXAMPLE.com/", ["Example.COM"], True),
        ("http://example.com:8080/", ["example.com"], True),
        ("http://example.com/", ["example.com:443"], True),
        ("http://example.com./", ["example.com"], True),
        ("http://a.example.com/", ["example.com"], False),
        ("http://a.example.com/", ["*.example.com"], True),
        ("http://a.b.example.com/", ["*.Example.com"], True),
        ("http://example.com/", ["*.example.com"], False),
        ("http://evilexample.com/", ["*.example.com"], False),
        ("http://example.com.evil.io/", ["example.com"], False),
        ("http://example.com@evil.io/", ["example.com"], False),
        ("http://evil.io/?u=example.com", ["example.com"], False),
        ("ftp://example.com/", ["example.com"], False),
        ("javascript:alert(1)", ["example.com"], False),
        ("http://example.com/", [], False),
        ("http:///nohost", ["example.com"], False),
        ("not a url", ["example.com"], False),
        ("http://127.0.0.1:5000/x", ["127.0.0.1"], True),
        ("http://[::1]:8000/", ["::1"], True),
        ("http://[::1]:8000/", ["[::1]:9000"], True),
        ("http://b.io/", ["a.io", "  b.io  "], True),
    ],
)
def test_host_allowed(url: str, allow: list[str], expected: bool) -> None:
    assert host_allowed(url, allow) is expected


# --- fetch_page -------------------------------------------------------------------------------


def test_html_page_becomes_readable_text(fetch: Callable[..., Page], base_url: str) -> None:
    page = fetch("/html")
    assert page.url == base_url + "/html"
    assert page.title == "The Spec"
    assert page.content_type == "text/html"
    assert page.truncated is False
    assert page.fetched_at.tzinfo == UTC
    assert "First paragraph with bold text." in page.text
    assert "First paragraph with bold text.\n\nSecond paragraph." in page.text
    for noise in ("secret", "color", "Home", "comment", "enable js", "copyright", "The Spec"):
        assert noise not in page.text
    assert page.text.startswith("Design")


def test_xhtml_is_accepted(fetch: Callable[..., Page]) -> None:
    page = fetch("/xhtml")
    assert (page.content_type, page.text) == ("application/xhtml+xml", "x")


def test_plain_text_whitespace_is_collapsed(fetch: Callable[..., Page]) -> None:
    page = fetch("/plain")
    assert page.title == ""
    assert page.content_type == "text/plain"
    assert page.text == "line one\n\nline two"


def test_declared_charset_is_used(fetch: Callable[..., Page]) -> None:
    assert fetch("/latin1").text == "café"


def test_undecodable_bytes_are_replaced(fetch: Callable[..., Page]) -> None:
    assert fetch("/bad-utf8").text == "ok \ufffd\ufffd end"


def test_page_is_frozen(fetch: Callable[..., Page]) -> None:
    page = fetch("/plain")
    with pytest.raises(ValidationError):
        page.title = "changed"  # type: ignore[misc]


def test_relative_redirect_is_followed(fetch: Callable[..., Page], base_url: str) -> None:
    page = fetch("/redirect")
    assert page.url == base_url + "/html"
    assert page.title == "The Spec"


def test_absolute_redirect_is_followed(fetch: Callable[..., Page], base_url: str) -> None:
    assert fetch("/redirect-abs").url == base_url + "/plain"


def test_redirect_to_disallowed_host_is_refused(fetch: Callable[..., Page]) -> None:
    with pytest.raises(InvalidInput, match="host localhost is not in the fetch allow-list"):
        fetch("/redirect-away")


def test_redirect_to_other_scheme_is_refused(fetch: Callable[..., Page]) -> None:
    with pytest.raises(InvalidInput, match="only http and https"):
        fetch("/redirect-ftp")


def test_five_redirects_are_followed(fetch: Callable[..., Page], base_url: str) -> None:
    assert fetch("/chain/4").url == base_url + "/plain"


def test_too_many_redirects(fetch: Callable[..., Page]) -> None:
    with pytest.raises(FetchError, match="too many redirects"):
        fetch("/chain/5")


def test_disallowed_start_url_is_refused_before_any_request(base_url: str) -> None:
    with pytest.raises(InvalidInput, match="host 127.0.0.1 is not in the fetch allow-list"):
        fetch_page(base_url + "/html", allow_hosts=["example.com"])
    with pytest.raises(InvalidInput, match="allow-list"):
        fetch_page(base_url + "/html", allow_hosts=[])


def test_non_http_url_is_refused() -> None:
    with pytest.raises(InvalidInput, match="only http and https"):
        fetch_page("file:///etc/passwd", allow_hosts=ALLOW)


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("/binary", "is application/octet-stream, not an HTML or plain-text page"),
        ("/no-type", "is no content type"),
        ("/missing", "answered HTTP 404"),
        ("/broken", "answered HTTP 500"),
    ],
)
def test_unusable_responses_raise_fetch_error(
    fetch: Callable[..., Page], base_url: str, path: str, message: str
) -> None:
    with pytest.raises(FetchError, match=message) as caught:
        fetch(path)
    assert base_url + path in str(caught.value)
    assert isinstance(caught.value, ThreefoldError)


def test_oversized_body_is_truncated(fetch: Callable[..., Page]) -> None:
    page = fetch("/big", max_bytes=10_000, max_chars=100_000)
    assert page.truncated is True
    assert page.text == "x" * 10_000


def test_body_exactly_at_limit_is_not_truncated(fetch: Callable[..., Page]) -> None:
    page = fetch("/big", max_bytes=50_000, max_chars=100_000)
    assert page.truncated is False
    assert len(page.text) == 50_000


def test_cut_in_the_middle_of_a_character_drops_the_fragment(fetch: Callable[..., Page]) -> None:
    page = fetch("/big-utf8", max_bytes=11)
    assert (page.text, page.truncated) == ("é" * 5, True)


def test_text_is_capped_at_max_chars(fetch: Callable[..., Page]) -> None:
    page = fetch("/big", max_chars=100)
    assert (len(page.text), page.truncated) == (100, True)


def test_hanging_server_times_out(fetch: Callable[..., Page], base_url: str) -> None:
    started = time.monotonic()
    with pytest.raises(FetchError, match=r"timed out after 0.5s fetching .*/hang"):
        fetch("/hang", timeout=0.5)
    assert time.monotonic() - started < 2.0


def test_trickling_server_is_cut_off_at_the_deadline(fetch: Callable[..., Page]) -> None:
    started = time.monotonic()
    with pytest.raises(FetchError, match="timed out after 0.5s"):
        fetch("/trickle", timeout=0.5)
    assert time.monotonic() - started < 2.0


def test_connection_refused_raises_fetch_error() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = f"http://127.0.0.1:{port}/x"
    with pytest.raises(FetchError, match=f"could not fetch {url}"):
        fetch_page(url, allow_hosts=ALLOW, allow_networks=LOOPBACK, timeout=2.0)


def test_caller_client_is_used_and_left_open(base_url: str) -> None:
    with httpx.Client() as client:
        page = fetch_page(
            base_url + "/redirect", allow_hosts=ALLOW, allow_networks=LOOPBACK, client=client
        )
        assert page.title == "The Spec"
        assert not client.is_closed
        # Our own redirect handling must win over a client that follows redirects itself.
        with httpx.Client(follow_redirects=True) as following, pytest.raises(InvalidInput):
            fetch_page(
                base_url + "/redirect-away",
                allow_hosts=ALLOW,
                allow_networks=LOOPBACK,
                client=following,
            )
