"""The device's own web pages (``--web [HOST:]PORT``): Starlette served by
uvicorn on a thread of its own, beside the scheduler, never blocking it.

The runtime's thread publishes (:mod:`host_device.web.publisher`); the
endpoints (:mod:`host_device.web.pages`, :mod:`host_device.web.sockets`)
read what it published. Here: the server's thread, its socket (bound here,
so that a refusal says why), and the addresses it prints when it starts
(with the host's console as a QR code). Its limits under load:
:mod:`host_device.web.guard`.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import socket
import threading
import time
from typing import Any

from host_device.base.errors import os_reason
from host_device.config import WebError
from host_device.runtime.clock import REAL, Clock
from host_device.runtime.loop import Runtime
from host_device.screens.public import PublicStream
from host_device.web.limits import LIMITS, Limits
from host_device.web.publisher import Private, Publisher

__all__ = ["WebServer", "lan_address", "start_web"]


class WebServer:
    """uvicorn on a daemon thread; :meth:`start` returns once it listens.
    ``publisher`` None: the club's pages of ``club`` alone (the box between games)."""

    def __init__(
        self, publisher: Publisher | None, host: str, port: int, limits: Limits = LIMITS, club: Any = None
    ) -> None:
        from host_device.web.app import make_app  # Starlette, only once pages are served
        from host_device.web.club_pages import club_app
        from host_device.web.guard import guarded_server
        from host_device.web.overlay import overlay_feed

        access = publisher.private.access if publisher is not None and publisher.private is not None else None
        self.overlay = None if publisher is None else overlay_feed(publisher)  # [stream]: the broadcast's
        app = club_app(club) if publisher is None else make_app(publisher, limits, club, self.overlay)
        self.publisher = publisher
        self.club = club
        self.address = (host, port)
        self.limits = limits
        self.server = guarded_server(app, host, limits, access)
        self.thread = threading.Thread(target=self._serve, name="web", daemon=True)
        self.socket: socket.socket | None = None

    def _serve(self) -> None:
        from host_device.web.guard import serve

        assert self.socket is not None
        with contextlib.suppress(SystemExit):
            asyncio.run(serve(self.server, self.socket, self.limits))

    def start(self, timeout: float = 10.0) -> tuple[str, int]:
        self.socket = listening_socket(*self.address)
        self.thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                self.socket.close()
                raise WebError("страницы не запустились (веб-сервер не поднялся)")
            time.sleep(0.02)
        host, port = self.socket.getsockname()[:2]
        return str(host), int(port)

    def stop(self) -> None:
        """Stopped, its socket closed (the address is free for the next server at once)."""
        self.server.should_exit = True
        self.thread.join(5)
        if self.socket is not None:
            self.socket.close()


def listening_socket(host: str, port: int) -> socket.socket:
    """The pages' socket, bound here so that a refusal says its real reason."""
    where = f"{host}:{port}"
    name = host.strip("[]")
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            name, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except socket.gaierror:
        raise WebError(f"--web {where}: «{name}» — не адрес и не имя машины, известное здесь") from None
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            why = "порт занят (другой host-device или сервер?); укажите другой: --web ПОРТ"
        elif exc.errno == errno.EADDRNOTAVAIL:
            why = (
                f"{name} — не адрес этой машины (её адрес в сети: {lan_address()}); "
                "укажите только порт (8000), чтобы слушать на всех сетях"
            )
        elif exc.errno == errno.EACCES:
            why = "порты ниже 1024 — только для root; возьмите 8000"
        else:
            why = f"не слушается: {os_reason(exc)}"
        raise WebError(f"--web {where}: {why}") from None
    return sock


def start_web(
    address: tuple[str, int],
    runtime: Runtime,
    text: Any,
    speed: float,
    write: Any,
    private: Private | None = None,
    clock: Clock = REAL,
    club: Any = None,
) -> WebServer:
    """The device's pages for this runtime (``--web``), on the wall ``clock``
    its scheduler follows; returns the running server. With ``private``
    (``run``): the host's console's address, with its token, printed and
    shown as a QR code, and the stream overlay's if ``[stream]`` is on.
    ``club``: the club's pages of the game's store
    (:class:`host_device.web.club_worker.ClubPages`; its worker starts on the
    first such page asked)."""
    from host_device.web.qr import qr_text

    host, port = address
    server = WebServer(Publisher(PublicStream(runtime, text), speed, private, clock), host, port, club=club)
    bound, port = server.start()
    shown = lan_address() if bound == "0.0.0.0" else bound
    base = f"http://{shown}:{port}"
    write(f"Стол в браузере: {base}/")
    if private is not None:
        console = f"{base}/host?t={private.access.host}"
        write(f"Пульт ведущего: {console}")
        write(qr_text(console))
        if private.console.whole_table:
            write(f"Весь стол на одном экране (для пробы): {base}/?t={private.access.host}")
        if private.access.seats:
            write("Телефоны мест: QR-коды на пульте ведущего")
        if server.overlay is not None:
            from host_device.web.overlay import addresses

            for line in addresses(base, private.access.stream, private.stream):
                write(line)
    return server


def lan_address() -> str:
    """This machine's address on the table's network (no packet is sent), else loopback."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"
