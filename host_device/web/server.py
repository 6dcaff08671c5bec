"""The device's own web pages (``--web [HOST:]PORT``): Starlette served by
uvicorn on a thread of its own, beside the scheduler, never blocking it.

The runtime's thread publishes (:mod:`host_device.web.publisher`); the
endpoints (:mod:`host_device.web.pages`, :mod:`host_device.web.sockets`)
read what it published. Here: the server's thread, and the addresses it
prints when it starts (with the host's console as a QR code).
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from typing import Any

from host_device.config import WebError
from host_device.runtime.loop import Runtime
from host_device.screens.public import PublicStream
from host_device.web.publisher import Private, Publisher

__all__ = ["WebServer", "lan_address", "start_web"]


class WebServer:
    """uvicorn on a daemon thread; :meth:`start` returns once it listens."""

    def __init__(self, publisher: Publisher, host: str, port: int) -> None:
        import uvicorn

        from host_device.web.app import make_app  # Starlette, only once pages are served

        config = uvicorn.Config(
            make_app(publisher),
            host=host,
            port=port,
            log_level="critical",
            lifespan="on",
            ws="websockets-sansio",
        )
        self.publisher = publisher
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self._serve, name="web", daemon=True)

    def _serve(self) -> None:
        with contextlib.suppress(SystemExit):  # uvicorn exits when it cannot listen: start() says why
            self.server.run()

    def start(self, timeout: float = 10.0) -> tuple[str, int]:
        self.thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise WebError("the web server did not start (is the port in use? try another --web PORT)")
            time.sleep(0.02)
        host, port = self.server.servers[0].sockets[0].getsockname()[:2]
        return str(host), int(port)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(5)


def start_web(
    address: tuple[str, int],
    runtime: Runtime,
    text: Any,
    speed: float,
    write: Any,
    private: Private | None = None,
) -> WebServer:
    """The device's pages for this runtime (``--web``); returns the running
    server. With ``private`` (``run``): the host's console's address, with
    its token, printed and shown as a QR code."""
    from host_device.web.qr import qr_text

    host, port = address
    server = WebServer(Publisher(PublicStream(runtime, text), speed, private), host, port)
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
    return server


def lan_address() -> str:
    """This machine's address on the table's network (no packet is sent), else loopback."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"
