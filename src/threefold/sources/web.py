"""Links in messages, and fetching the pages they point to when the operator allows it.

Fetching is off unless hosts are allow-listed: a memory fed by chat messages must not become a
way to make the server request arbitrary (internal) URLs.

An allowed name is not enough: its DNS may say 127.0.0.1. So every hop resolves its host
once, refuses it if any address is loopback, private, link-local or otherwise not public
(unless `allow_networks` lists it), and connects to the very address it checked, so a
second lookup cannot answer differently (DNS rebinding).
"""

import codecs
import ipaddress
import re
import socket
import time
from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import NamedTuple
from urllib.parse import urlsplit

import httpx
from pydantic import BaseModel, ConfigDict

from threefold.domain import utcnow
from threefold.errors import InvalidInput, ThreefoldError

MAX_REDIRECTS = 5
DEFAULT_MAX_CHARS = 20_000

# The lookbehind keeps "nohttps://x" and "javascript:http://x" from yielding a link.
_URL_RE = re.compile(r"(?<![\w:/.+-])https?://[^\s<>\"`]+", re.IGNORECASE)
_TRAILING_PUNCT = ".,;:!?'\""
_PAIRS = {")": "(", "]": "[", "}": "{"}

_REDIRECTS = {301, 302, 303, 307, 308}
_TEXT_TYPES = {"text/html", "text/plain", "application/xhtml+xml"}
_HTML_TYPES = {"text/html", "application/xhtml+xml"}
# Page chrome and executable content: none of it is what a reader came for.
_NOISE_TAGS = [
    "head",
    "script",
    "style",
    "noscript",
    "template",
    "svg",
    "canvas",
    "iframe",
    "object",
    "embed",
    "nav",
    "aside",
    "footer",
    "form",
]
_BLOCK_TAGS = [
    "p",
    "div",
    "section",
    "article",
    "main",
    "header",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "li",
    "ul",
    "ol",
    "dl",
    "dt",
    "dd",
    "tr",
    "table",
    "pre",
    "blockquote",
    "figure",
    "figcaption",
    "hr",
    "address",
    "details",
    "summary",
]
_SPACES_RE = re.compile(r"[^\S\n]+")
_BLANK_LINES_RE = re.compile(r"\n{3,}")


class FetchError(ThreefoldError):
    """A page could not be fetched: network failure, timeout, bad status or content type."""


class Page(BaseModel):
    """The readable text of one fetched page."""

    model_config = ConfigDict(frozen=True)

    url: str
    title: str
    text: str
    content_type: str
    fetched_at: datetime
    truncated: bool


def extract_urls(text: str) -> list[str]:
    """The http(s) links in `text`, in order of first appearance, without trailing punctuation."""
    found: dict[str, None] = {}
    for match in _URL_RE.finditer(text):
        url = _strip_trailing(match.group())
        if urlsplit(url).hostname:
            found.setdefault(url)
    return list(found)


def _strip_trailing(url: str) -> str:
    # Prose wraps links in punctuation, but URLs like wiki/Foo_(bar) legitimately end in ")".
    while url and (url[-1] in _TRAILING_PUNCT or _unbalanced_closer(url)):
        url = url[:-1]
    return url


def _unbalanced_closer(url: str) -> bool:
    last = url[-1]
    return last in _PAIRS and url.count(_PAIRS[last]) < url.count(last)


def host_allowed(url: str, allow_hosts: Sequence[str]) -> bool:
    """Whether `url` is http(s) and its host is listed, exactly or as "*.domain" for subdomains."""
    host = _host_of(url)
    if host is None:
        return False
    for entry in allow_hosts:
        pattern = _normalise_pattern(entry)
        if pattern.startswith("*."):
            # The leading dot stays in the suffix so "*.example.com" rejects "evilexample.com".
            if host.endswith(pattern[1:]) and len(host) > len(pattern) - 1:
                return True
        elif pattern and host == pattern:
            return True
    return False


def _host_of(url: str) -> str | None:
    """The lower-case host of an http(s) URL, or None for anything else."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        return None
    return parts.hostname.lower().rstrip(".") or None


def _normalise_pattern(entry: str) -> str:
    # Operators may write "host:8080" or "[::1]"; ports never take part in matching.
    pattern = entry.strip().lower()
    if pattern.startswith("["):
        pattern = pattern[1:].partition("]")[0]
    elif pattern.count(":") == 1:
        pattern = pattern.partition(":")[0]
    return pattern.rstrip(".")


def fetch_page(
    url: str,
    *,
    allow_hosts: Sequence[str],
    allow_networks: Sequence[str] = (),
    timeout: float = 10.0,
    max_bytes: int = 2_000_000,
    max_chars: int = DEFAULT_MAX_CHARS,
    client: httpx.Client | None = None,
) -> Page:
    """Fetch an allow-listed HTML or plain-text page and return its readable text.

    Raises InvalidInput for URLs (including redirect targets) outside `allow_hosts`, or
    whose host resolves to a non-public address outside `allow_networks` ('10.0.0.0/8'),
    and FetchError when the page cannot be fetched within `timeout` seconds or is not text.
    """
    limits = _Limits(timeout, max_bytes, max_chars)
    networks = _networks(allow_networks)
    if client is not None:
        return _fetch(url, allow_hosts, networks, limits, client)
    with httpx.Client(follow_redirects=False) as own_client:
        return _fetch(url, allow_hosts, networks, limits, own_client)


class _Limits(NamedTuple):
    timeout: float
    max_bytes: int
    max_chars: int


_Network = ipaddress.IPv4Network | ipaddress.IPv6Network
_Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def _networks(allowed: Sequence[str]) -> list[_Network]:
    try:
        return [ipaddress.ip_network(n, strict=False) for n in allowed]
    except ValueError as exc:
        raise InvalidInput(f"allow_networks: {exc}") from None


def _fetch(
    url: str,
    allow_hosts: Sequence[str],
    networks: list[_Network],
    limits: _Limits,
    client: httpx.Client,
) -> Page:
    deadline = time.monotonic() + limits.timeout
    current = url
    for _ in range(MAX_REDIRECTS + 1):
        _check_allowed(current, allow_hosts)
        target = httpx.URL(current)
        addresses = _checked_addresses(target.host, target.port, networks)
        try:
            response = _send(client, target, addresses, _time_left(deadline, current, limits))
            try:
                location = _redirect_target(response, target)
                if location is None:
                    return _read_page(response, current, deadline, limits)
            finally:
                response.close()
        except httpx.TimeoutException as exc:
            raise FetchError(f"timed out after {limits.timeout:g}s fetching {current}") from exc
        except httpx.HTTPError as exc:
            raise FetchError(f"could not fetch {current}: {exc}") from exc
        except httpx.InvalidURL as exc:
            raise InvalidInput(f"cannot fetch {current!r}: {exc}") from exc
        current = location
    raise FetchError(f"too many redirects (more than {MAX_REDIRECTS}) fetching {url}")


def _send(
    client: httpx.Client, url: httpx.URL, addresses: list[_Address], timeout: float
) -> httpx.Response:
    """GET `url` from the first of its checked addresses that takes the connection. The URL
    names the address, so httpx does not look the name up again; Host and TLS (SNI and the
    certificate check) still use the name."""
    headers = {
        "Host": url.netloc.decode("ascii"),
        "Accept": "text/html, text/plain;q=0.9",
        "Accept-Encoding": "identity",
    }
    extensions = {"sni_hostname": url.host} if url.scheme == "https" else {}
    refused: httpx.ConnectError | None = None
    for address in addresses:
        request = client.build_request(
            "GET",
            url.copy_with(host=str(address)),
            headers=headers,
            extensions=extensions,
            timeout=timeout,
        )
        try:
            return client.send(request, stream=True, follow_redirects=False)
        except httpx.ConnectError as exc:
            refused = exc
    assert refused is not None  # _checked_addresses never returns an empty list
    raise refused


def _checked_addresses(host: str, port: int | None, networks: list[_Network]) -> list[_Address]:
    """Every address `host` resolves to, once each is known to be allowed: one bad address
    refuses the host, as DNS may hand out any of them."""
    addresses = _resolve(host, port)
    for address in addresses:
        if not _address_allowed(address, networks):
            raise InvalidInput(
                f"host {host} resolves to {address}, a {_kind_of(address)} address; fetching "
                "it is refused unless sources.fetch_allow_networks allows it"
            )
    return addresses


def _resolve(host: str, port: int | None) -> list[_Address]:
    try:
        return [ipaddress.ip_address(host)]
    except ValueError:
        pass
    try:
        found = socket.getaddrinfo(host, port or 80, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise FetchError(f"cannot resolve host {host}: {exc}") from exc
    # Scope ids ("fe80::1%eth0") are not part of the address.
    addresses = [ipaddress.ip_address(str(info[4][0]).partition("%")[0]) for info in found]
    if not addresses:
        raise FetchError(f"host {host} has no address")
    return list(dict.fromkeys(addresses))


def _unmapped(address: _Address) -> _Address:
    """::ffff:127.0.0.1 is 127.0.0.1, and must be judged as such."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def _address_allowed(address: _Address, networks: list[_Network]) -> bool:
    address = _unmapped(address)
    if any(address in network for network in networks):
        return True
    return address.is_global and not address.is_multicast


def _kind_of(address: _Address) -> str:
    address = _unmapped(address)
    for kind in ("unspecified", "loopback", "link_local", "multicast", "private", "reserved"):
        if getattr(address, f"is_{kind}"):
            return kind.replace("_", "-")
    return "non-public"


def _check_allowed(url: str, allow_hosts: Sequence[str]) -> None:
    host = _host_of(url)
    if host is None:
        raise InvalidInput(f"only http and https URLs can be fetched, not {url!r}")
    if not host_allowed(url, allow_hosts):
        raise InvalidInput(f"host {host} is not in the fetch allow-list")


def _time_left(deadline: float, url: str, limits: _Limits) -> float:
    left = deadline - time.monotonic()
    if left <= 0:
        raise FetchError(f"timed out after {limits.timeout:g}s fetching {url}")
    return left


def _redirect_target(response: httpx.Response, url: httpx.URL) -> str | None:
    """The absolute URL a redirect points to, or None when the response is not a redirect.
    Relative to `url` as named, not to the address it was fetched from."""
    if response.status_code not in _REDIRECTS:
        return None
    location = response.headers.get("location")
    if not location:
        raise FetchError(f"{url} redirected (HTTP {response.status_code}) nowhere")
    return str(url.join(location))


def _read_page(response: httpx.Response, url: str, deadline: float, limits: _Limits) -> Page:
    timeout, max_bytes, max_chars = limits
    if response.status_code != 200:
        raise FetchError(f"{url} answered HTTP {response.status_code}")
    content_type = response.headers.get("content-type", "").partition(";")[0].strip().lower()
    if content_type not in _TEXT_TYPES:
        shown = content_type or "no content type"
        raise FetchError(f"{url} is {shown}, not an HTML or plain-text page")
    body, cut = _read_capped(response.iter_bytes(), deadline, url, timeout, max_bytes)
    decoded = _decode(body, response.charset_encoding, final=not cut)
    if content_type in _HTML_TYPES:
        title, text = _html_to_text(decoded)
    else:
        title, text = "", _collapse(decoded)
    return Page(
        url=url,
        title=title,
        text=text[:max_chars],
        content_type=content_type,
        fetched_at=utcnow(),
        truncated=cut or len(text) > max_chars,
    )


def _read_capped(
    chunks: Iterator[bytes], deadline: float, url: str, timeout: float, max_bytes: int
) -> tuple[bytes, bool]:
    """Up to max_bytes of the body, and whether more was on offer.

    Each socket wait is already capped by the time left when the request started; checking
    the deadline between chunks stops a server that trickles bytes from holding us forever.
    """
    buffer = bytearray()
    for chunk in chunks:
        buffer += chunk
        if len(buffer) > max_bytes:
            return bytes(buffer[:max_bytes]), True
        if time.monotonic() > deadline:
            raise FetchError(f"timed out after {timeout:g}s fetching {url}")
    return bytes(buffer), False


def _decode(body: bytes, charset: str | None, *, final: bool) -> str:
    try:
        encoding = codecs.lookup(charset).name if charset else "utf-8"
    except LookupError:
        encoding = "utf-8"
    # A cut body may end mid-character; a non-final decode drops that fragment quietly.
    decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
    return decoder.decode(body, final=final)


def _html_to_text(html: str) -> tuple[str, str]:
    # Imported here: every process that opens a memory imports this module, and most
    # never fetch a page (bs4 was a tenth of a worker's start-up).
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, "html.parser")
    title_tag = soup.title or soup.find("h1")
    title = " ".join(title_tag.get_text().split()) if title_tag else ""
    for tag in soup.find_all(_NOISE_TAGS):
        tag.decompose()
    for br in soup.find_all("br"):
        br.replace_with("\n")
    # Separate blocks so "<p>a</p><p>b</p>" reads as two lines, not "ab".
    for tag in soup.find_all(_BLOCK_TAGS):
        tag.insert_before("\n")
        tag.insert_after("\n")
    return title, _collapse(soup.get_text())


def _collapse(text: str) -> str:
    """Single spaces within lines, at most one blank line between paragraphs."""
    lines = (_SPACES_RE.sub(" ", line).strip() for line in text.splitlines())
    return _BLANK_LINES_RE.sub("\n\n", "\n".join(lines)).strip()
