"""The device's own web pages (``--web [HOST:]PORT``): Starlette served by
uvicorn on a thread of its own, beside the scheduler, never blocking it.

The runtime's thread publishes: after each public event the public state is
taken there (a snapshot, so the server never reads the game while it
changes) and the event is handed to the server's loop, which sends it to
every connected ``/api/events`` socket. ``GET /api/state`` returns the last
snapshot. All assets are the device's own files (no CDN).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections.abc import AsyncIterator
from importlib import resources
from typing import Any

from engine import HostDeviceError
from host_device.web.public import Event, PublicStream, public_state

STATIC = resources.files("host_device") / "web" / "static"
QUEUE_LIMIT = 1000  # events waiting for one slow socket; past it the socket is closed (it reconnects)


class WebError(HostDeviceError):
    pass


def parse_address(text: str) -> tuple[str, int]:
    """``8000`` (every interface: the table's Wi-Fi) or ``HOST:PORT``."""
    host, _, port = text.rpartition(":")
    try:
        number = int(port)
    except ValueError:
        number = -1
    if not 0 <= number <= 65535:
        raise WebError(f"--web {text!r}: give a port (8000) or HOST:PORT (127.0.0.1:8000)")
    return host or "0.0.0.0", number


class Publisher:
    """What the pages read: the last state snapshot, and the events fanned out to the sockets."""

    def __init__(self, stream: PublicStream, speed: float = 1.0) -> None:
        self.stream = stream
        self.speed = speed
        self.loop: asyncio.AbstractEventLoop | None = None
        self.sockets: set[asyncio.Queue[str | None]] = set()
        self.state = self._snapshot()
        stream.listeners.append(self.publish)

    def _snapshot(self) -> str:
        return json.dumps({**public_state(self.stream), "speed": self.speed}, ensure_ascii=False)

    def publish(self, event: Event) -> None:
        """On the runtime's thread: a new snapshot, and the event to every socket."""
        self.state = self._snapshot()
        loop = self.loop
        if loop is not None and self.sockets:
            loop.call_soon_threadsafe(self._fan_out, json.dumps(event, ensure_ascii=False))

    def _fan_out(self, text: str) -> None:
        for queue in list(self.sockets):
            if queue.qsize() >= QUEUE_LIMIT:
                queue.put_nowait(None)  # too slow: closed, and it reconnects
                self.sockets.discard(queue)
            else:
                queue.put_nowait(text)


def make_app(publisher: Publisher) -> Any:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import FileResponse, Response
    from starlette.routing import Mount, Route, WebSocketRoute
    from starlette.staticfiles import StaticFiles
    from starlette.websockets import WebSocket, WebSocketDisconnect

    async def table(request: Request) -> FileResponse:
        return FileResponse(str(STATIC / "table.html"), media_type="text/html; charset=utf-8")

    async def state(request: Request) -> Response:
        return Response(publisher.state, media_type="application/json; charset=utf-8")

    async def events(socket: WebSocket) -> None:
        await socket.accept()
        publisher.loop = asyncio.get_running_loop()
        queue: asyncio.Queue[str | None] = asyncio.Queue()
        publisher.sockets.add(queue)
        try:
            while True:
                text = await queue.get()
                if text is None:
                    break
                await socket.send_text(text)
        except WebSocketDisconnect:
            pass
        finally:
            publisher.sockets.discard(queue)

    @contextlib.asynccontextmanager
    async def lifespan(app: Any) -> AsyncIterator[None]:
        publisher.loop = asyncio.get_running_loop()
        yield

    return Starlette(
        routes=[
            Route("/", table),
            Route("/api/state", state),
            WebSocketRoute("/api/events", events),
            Mount("/static", StaticFiles(directory=str(STATIC))),
        ],
        lifespan=lifespan,
    )


class WebServer:
    """uvicorn on a daemon thread; :meth:`start` returns once it listens."""

    def __init__(self, publisher: Publisher, host: str, port: int) -> None:
        import uvicorn

        config = uvicorn.Config(
            make_app(publisher),
            host=host,
            port=port,
            log_level="critical",
            lifespan="on",
            ws="websockets-sansio",
        )
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
