"""Which names the pages answer to: a request whose ``Host`` is not this
device's is refused (DNS rebinding: a site on the internet whose name is
made to point at the device would otherwise read its pages and sockets as
its own), and so is a socket opened from another site's page (its
``Origin``).

Allowed: an IP address of this machine (the one it listens on, its address
on the table's Wi-Fi — the QR codes' —, 127.0.0.1, ::1: a rebinding always
comes by a name, and an address is no name), ``localhost``, the machine's
name and ``NAME.local``, and the name ``--web`` was given. A request
without ``Host`` (HTTP/1.0: no browser, no club's client) gets 400. A
socket's ``Origin`` must be the very address it came to — scheme, host and
port, as a browser compares them: another server on the box's address is
another site; a socket without ``Origin`` (not a browser) is let in."""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send

FOREIGN = (
    "Чужое имя в адресе: страницы host-device открываются по адресу устройства "
    "(его IP, как в QR-коде, или имя устройства), не через другой сайт"
)
NO_HOST = "Запрос без заголовка Host: откройте страницу в браузере по адресу устройства"
POLICY_VIOLATION = 1008
ADDRESSES_KEPT = 64  # the answers of «is this address this machine's?» kept


class Hosts:
    """The names and addresses this device answers to (see the module's text)."""

    def __init__(self, listen: str = "") -> None:
        own = socket.gethostname().lower().rstrip(".")
        short = own.split(".")[0]
        self.names = {"localhost", own, short, f"{own}.local", f"{short}.local"}
        listen = listen.strip("[]").lower().rstrip(".")
        if listen and not _is_address(listen):
            self.names.add(listen)
        self._addresses: dict[str, bool] = {}

    def allows(self, host: str) -> bool:
        """Whether a ``Host`` header's value (``name:port``, ``[::1]:8000``) is this device's."""
        name = _name_of(host)
        if name is None:
            return False
        if _is_address(name):
            return self._own(name)
        return name in self.names

    def _own(self, address: str) -> bool:
        """An address of this machine: one a socket can be bound to here."""
        known = self._addresses.get(address)
        if known is not None:
            return known
        ip = ipaddress.ip_address(address)
        family = socket.AF_INET6 if ip.version == 6 else socket.AF_INET
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as probe:
                probe.bind((address, 0))
            mine = True
        except OSError:
            mine = False
        if len(self._addresses) < ADDRESSES_KEPT:
            self._addresses[address] = mine
        return mine


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def _name_of(host: str) -> str | None:
    """``Host``'s name without its port, lower-case; None for one that does not read."""
    host = host.strip().lower()
    if host.startswith("["):
        end = host.find("]")
        return host[1:end] if end > 1 else None
    if host.count(":") == 1:
        host, port = host.split(":")
        if not port.isdigit():
            return None
    name = host.rstrip(".")
    return name or None


def _origin_of(scheme: str, netloc: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an address's parts, the port filled in; None if they do not read."""
    try:
        parts = urlsplit(f"{scheme}://{netloc}")
        port = parts.port
    except ValueError:
        return None
    if parts.hostname is None or parts.username is not None or parts.password is not None:
        return None
    default = {"http": 80, "https": 443}.get(parts.scheme)
    if default is None:
        return None
    return parts.scheme, parts.hostname.rstrip("."), default if port is None else port


def same_origin(origin: str, host: str, secure: bool = False) -> bool:
    """Whether ``Origin`` (``http://10.0.0.5:8000``) is the address a request came to: its
    ``Host`` on this server's scheme (``secure``: HTTPS), compared whole (scheme, host, port)."""
    scheme, sep, rest = origin.strip().partition("://")
    if not sep or not host or any(c in rest for c in "/?#"):
        return False
    own = _origin_of("https" if secure else "http", host.strip())
    return own is not None and _origin_of(scheme.lower(), rest) == own


class HostCheck:
    """The app behind the check: a request with a foreign ``Host`` gets 403
    (none: 400), a socket with a foreign ``Host`` or ``Origin`` is refused
    before it is accepted (its handshake gets 403)."""

    def __init__(self, app: ASGIApp, hosts: Hosts) -> None:
        self.app, self.hosts = app, hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        why = self._refusal(scope) if scope["type"] in ("http", "websocket") else None
        if why is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": POLICY_VIOLATION, "reason": ""})
        else:
            await PlainTextResponse(*why, headers={"Connection": "close"})(scope, receive, send)

    def _refusal(self, scope: Scope) -> tuple[str, int] | None:
        headers = dict(scope.get("headers", []))
        host = headers.get(b"host")
        if host is None:
            return NO_HOST, 400
        if not self.hosts.allows(host.decode("latin-1")):
            return FOREIGN, 403
        origin = headers.get(b"origin")
        if scope["type"] != "websocket" or origin is None:
            return None
        secure = scope.get("scheme") == "wss"
        same = same_origin(origin.decode("latin-1"), host.decode("latin-1"), secure)
        return None if same else (FOREIGN, 403)
