"""DNS rebinding and other sites' sockets: a request whose ``Host`` is not
this device's gets 403, a socket from another site's page is refused; the
device's own addresses and names (its IP as in the QR codes, localhost,
its name and NAME.local) are served. On a real server on loopback."""

import socket
import urllib.error
import urllib.request

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from host_device.web.origin import Hosts, same_origin
from host_device.web.server import lan_address
from tests.helpers.web import on_loopback

NAME = socket.gethostname().lower()


@pytest.mark.parametrize(
    "host",
    [
        "127.0.0.1",
        "127.0.0.1:8000",
        "localhost:8000",
        "LOCALHOST",
        "[::1]:8000",
        NAME,
        f"{NAME}.local:80",
        f"{lan_address()}:8000",
        "tv.example:80",
    ],
)
def test_the_devices_own_names_and_addresses_are_allowed(host):
    assert Hosts("tv.example").allows(host)


@pytest.mark.parametrize(
    "host",
    [
        "evil.example",
        "evil.example:8000",
        f"{NAME}.evil.example",
        "localhost.evil.example",
        "8.8.8.8",
        "203.0.113.7:8000",
        "",
        ":8000",
        "127.0.0.1:port",
        "[::1",
    ],
)
def test_a_foreign_name_or_address_is_refused(host):
    assert not Hosts("0.0.0.0").allows(host)


def get(port, host):
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/state", headers={"Host": host})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode()


def test_a_request_with_a_foreign_host_is_refused(builtin_pack):
    with on_loopback() as (port, access, _):
        assert get(port, f"127.0.0.1:{port}")[0] == 200
        assert get(port, f"localhost:{port}")[0] == 200
        assert get(port, f"{NAME}.local:{port}")[0] == 200
        status, text = get(port, f"rebound.example:{port}")
        assert status == 403 and "Чужое имя в адресе" in text and '"phase"' not in text
        status, _ = get(port, f"rebound.example:{port}")
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/host?t={access.host}", headers={"Host": "rebound.example"}
        )
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        assert refused.value.code == 403  # the console's page too, token or not


def test_a_socket_from_another_sites_page_is_refused(builtin_pack):
    with on_loopback() as (port, access, _):
        own = f"http://127.0.0.1:{port}"
        with connect(f"ws://127.0.0.1:{port}/api/events", origin=own, open_timeout=10):
            pass
        with connect(f"ws://127.0.0.1:{port}/api/events", open_timeout=10):
            pass  # no Origin: not a browser
        for origin in ("http://rebound.example", "null", f"http://evil.example:{port}"):
            with pytest.raises(InvalidStatus) as refused:
                connect(f"ws://127.0.0.1:{port}/api/host?t={access.host}", origin=origin, open_timeout=10)
            assert refused.value.response.status_code == 403
        with pytest.raises(InvalidStatus):
            connect(
                f"ws://127.0.0.1:{port}/api/events",
                additional_headers={"Host": "rebound.example"},
                open_timeout=10,
            )


def test_a_socket_from_another_port_or_scheme_of_the_devices_address_is_refused(builtin_pack):
    """The Origin is compared whole (scheme, host, port) with the address the socket came to:
    another server on the box's address (another port) is another site (issue 46 item 8)."""
    with on_loopback() as (port, access, _):
        for own in (f"http://127.0.0.1:{port}", f"HTTP://127.0.0.1:{port}"):
            with connect(f"ws://127.0.0.1:{port}/api/events", origin=own, open_timeout=10):
                pass
        for origin in (
            f"http://127.0.0.1:{port + 1}",
            "http://127.0.0.1",
            f"https://127.0.0.1:{port}",
            f"http://localhost:{port}",  # the box's, but not the address this socket came to
            f"http://127.0.0.1:{port}0",
            "http://127.0.0.1:99999999999",
            f"ftp://127.0.0.1:{port}",
        ):
            with pytest.raises(InvalidStatus) as refused:
                connect(f"ws://127.0.0.1:{port}/api/host?t={access.host}", origin=origin, open_timeout=10)
            assert refused.value.response.status_code == 403, origin


@pytest.mark.parametrize(
    ("origin", "host", "same"),
    [
        ("http://localhost", "localhost:80", True),  # port 80 said or left out: the same
        ("http://localhost:80", "LOCALHOST", True),
        ("http://[::1]:8000", "[::1]:8000", True),
        ("http://[::1]:8001", "[::1]:8000", False),
        ("http://localhost:8000", "localhost", False),
        ("http://127.0.0.1:8000", "localhost:8000", False),
        ("https://localhost:8000", "localhost:8000", False),
        ("http://localhost:8000", "", False),
        ("http://user@localhost:8000", "localhost:8000", False),
        ("http://localhost:8000/path", "localhost:8000", False),
        ("null", "localhost:8000", False),
    ],
)
def test_an_origin_is_the_same_only_in_scheme_host_and_port(origin, host, same):
    assert same_origin(origin, host) is same


def raw(port: int, request: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request)
        got = b""
        while chunk := sock.recv(65536):
            got += chunk
    return got


def test_a_request_without_a_host_is_refused(builtin_pack):
    """HTTP/1.0 without ``Host``: no browser, no club's client: 400, whatever the page."""
    with on_loopback() as (port, access, _):
        assert raw(port, b"GET /api/state HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n").startswith(b"HTTP/1.1 200 ")
        for path in ("/api/state", f"/host?t={access.host}", "/club"):
            got = raw(port, f"GET {path} HTTP/1.0\r\n\r\n".encode())
            assert got.startswith(b"HTTP/1.1 400 ") and "без заголовка Host".encode() in got, got[:200]
            assert b'"phase"' not in got
