"""SSRF: a host on the fetch allow-list is fetched only when the address it resolves to is
public, or in sources.fetch_allow_networks; each redirect hop is checked again. Each test
names the internal address it tried to reach; the local test server stands for the target."""

import pytest

from threefold.errors import InvalidInput
from threefold.sources.web import fetch_page

INTERNAL = [
    ("127.0.0.1", "loopback"),
    ("10.1.2.3", "private"),
    ("192.168.0.10", "private"),
    ("169.254.169.254", "link-local"),  # the cloud metadata service
    ("100.64.0.1", "non-public"),  # carrier-grade NAT, shared address space
    ("0.0.0.0", "unspecified"),
    ("::1", "loopback"),
    ("fe80::1", "link-local"),
    ("fd00::1", "private"),
    ("::ffff:127.0.0.1", "loopback"),  # IPv4 loopback dressed as IPv6
]


@pytest.mark.parametrize(("address", "kind"), INTERNAL)
def test_allowed_host_with_an_internal_address_is_refused(address: str, kind: str) -> None:
    # Attack: the allow-list names an internal address outright (or a mapped form of it).
    host = f"[{address}]" if ":" in address else address
    with pytest.raises(InvalidInput, match=f"resolves to .*, a {kind} address"):
        fetch_page(f"http://{host}:9/x", allow_hosts=[address], timeout=2.0)


def test_allowed_name_resolving_to_loopback_is_refused(base_url: str) -> None:
    # Attack: the operator allowed "localhost"-like names; DNS answers 127.0.0.1 (or ::1).
    port = base_url.rsplit(":", 1)[1]
    with pytest.raises(InvalidInput, match="resolves to .* loopback address"):
        fetch_page(f"http://localhost:{port}/html", allow_hosts=["localhost"], timeout=2.0)


def test_allow_networks_lets_an_intranet_host_through(base_url: str) -> None:
    port = base_url.rsplit(":", 1)[1]
    page = fetch_page(
        f"http://localhost:{port}/html",
        allow_hosts=["localhost"],
        allow_networks=["127.0.0.0/8", "::1/128"],
        timeout=2.0,
    )
    # Fetched from the checked address, but named and reported by the host name.
    assert page.title == "The Spec" and page.url == f"http://localhost:{port}/html"


@pytest.mark.parametrize(
    ("path", "reached"),
    [("/redirect-other-loopback", "127.0.0.2"), ("/redirect-metadata", "169.254.169.254")],
)
def test_each_redirect_hop_is_checked(base_url: str, path: str, reached: str) -> None:
    # Attack: an allowed, allowed-network page redirects to another internal address.
    with pytest.raises(InvalidInput, match=f"resolves to {reached}"):
        fetch_page(
            base_url + path,
            allow_hosts=["127.0.0.1", reached],
            allow_networks=["127.0.0.1/32"],
            timeout=2.0,
        )


def test_a_bad_network_setting_is_refused() -> None:
    with pytest.raises(InvalidInput, match="allow_networks"):
        fetch_page("http://example.com/", allow_hosts=["example.com"], allow_networks=["nope"])
