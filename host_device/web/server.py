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
import queue
import threading
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from importlib import resources
from typing import Any

from engine import HostDeviceError
from hardware.events import HOST_KEYS, HostKey, Press, TypedLine
from host_device.runtime.loop import Runtime
from host_device.screens.public import Event, PublicStream, public_state
from host_device.screens.views import CONSOLE_KEYS, Console, console_view, seat_view
from host_device.web.access import Access

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


@dataclass(frozen=True)
class WebNotice:
    """Something the host should know about the phones (a seat's phone
    connected, or replaced by another), put in the runtime's inbox."""

    text: str  # English, for the log
    russian: str  # for the host's screen or console


@dataclass
class Private:
    """The private pages' side: who may use them, the host's console, and
    the runtime's inbox that their inputs go into (like the panel's)."""

    access: Access
    console: Console
    inbox: queue.Queue[Any]


class Publisher:
    """What the pages read: the last public state snapshot and the private
    views (the console's, each seat's), all taken on the runtime's thread;
    the public events and changed views are fanned out to the sockets."""

    def __init__(self, stream: PublicStream, speed: float = 1.0, private: Private | None = None) -> None:
        self.stream = stream
        self.speed = speed
        self.private = private
        self.loop: asyncio.AbstractEventLoop | None = None
        self.watchers: dict[str, set[asyncio.Queue[str | None]]] = {}  # channel -> its sockets' queues
        self.phones: dict[int, asyncio.Queue[str | None]] = {}  # the one phone of each seat
        self.views: dict[str, str] = {}  # channel ("host", "seat:4") -> its last view
        self.state = self._snapshot()
        stream.listeners.append(self.publish)
        self._due = False
        if private is not None:  # every change the runtime makes: an LED, a step, a message
            stream.runtime.recorders.append(lambda entry: self._changed())
            stream.runtime.observers.append(lambda outputs: self._changed())
        self.refresh()

    def _snapshot(self) -> str:
        return json.dumps({**public_state(self.stream), "speed": self.speed}, ensure_ascii=False)

    def publish(self, event: Event) -> None:
        """On the runtime's thread: a new snapshot, and the event to every public socket."""
        self.state = self._snapshot()
        self._send("public", json.dumps(event, ensure_ascii=False))

    def _changed(self) -> None:
        """The runtime is changing something: the views are taken once it has
        finished (the next turn of its scheduler), never half-way through."""
        if not self._due:
            self._due = True
            sched = self.stream.runtime.sched
            sched.at(sched.now, self.refresh)

    def refresh(self) -> None:
        """On the runtime's thread: the private views taken again; a changed one is sent."""
        self._due = False
        if self.private is None:
            return
        rt = self.stream.runtime
        views = {"host": console_view(self.private.console)}
        views.update((f"seat:{seat}", seat_view(rt, seat)) for seat in self.private.access.seats)
        for channel, view in views.items():
            text = json.dumps({"type": "view", **view, "speed": self.speed}, ensure_ascii=False)
            if self.views.get(channel) != text:
                self.views[channel] = text
                self._send(channel, text)

    def put(self, item: Any) -> None:
        """An input from a page, into the runtime's inbox (any thread)."""
        assert self.private is not None
        self.private.inbox.put(item)

    def _send(self, channel: str, text: str) -> None:
        loop = self.loop
        if loop is not None and self.watchers.get(channel):
            loop.call_soon_threadsafe(self.fan_out, channel, text)

    def fan_out(self, channel: str, text: str) -> None:
        queues = self.watchers.get(channel, set())
        for queue_ in list(queues):
            if queue_.qsize() >= QUEUE_LIMIT:
                queue_.put_nowait(None)  # too slow: closed, and it reconnects
                queues.discard(queue_)
            else:
                queue_.put_nowait(text)

    def watch(self, channel: str) -> asyncio.Queue[str | None]:
        """On the server's loop: a socket's queue for a channel."""
        queue_: asyncio.Queue[str | None] = asyncio.Queue()
        self.watchers.setdefault(channel, set()).add(queue_)
        return queue_

    def unwatch(self, channel: str, queue_: asyncio.Queue[str | None]) -> None:
        self.watchers.get(channel, set()).discard(queue_)

    def phones_text(self) -> str:
        """The console's list of the seats played with phones, and which of them have one now."""
        seats = sorted(self.private.access.seats) if self.private is not None else []
        return json.dumps({"type": "phones", "seats": seats, "connected": sorted(self.phones)})


def make_app(publisher: Publisher) -> Any:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import FileResponse, PlainTextResponse, Response
    from starlette.routing import Mount, Route, WebSocketRoute
    from starlette.staticfiles import StaticFiles
    from starlette.websockets import WebSocket, WebSocketDisconnect

    private = publisher.private

    def page(name: str) -> FileResponse:
        return FileResponse(str(STATIC / name), media_type="text/html; charset=utf-8")

    def refused(text: str, status: int = 403) -> PlainTextResponse:
        return PlainTextResponse(text, status_code=status)

    async def table(request: Request) -> FileResponse:
        return page("table.html")

    async def state(request: Request) -> Response:
        return Response(publisher.state, media_type="application/json; charset=utf-8")

    async def host(request: Request) -> Response:
        if private is None:
            return refused("Пульт ведущего есть только в host-device run", 404)
        if not private.access.is_host(request.query_params.get("t")):
            return refused(FORBIDDEN_HOST)
        return page("host.html")

    async def seat(request: Request) -> Response:
        why = _seat_refusal(private, request.path_params["seat"], request.query_params.get("t"))
        return page("seat.html") if why is None else refused(*why)

    async def seat_qr(request: Request) -> Response:
        number = request.path_params["seat"]
        if private is None or not private.access.is_host(request.query_params.get("t")):
            return refused(FORBIDDEN_HOST)
        if number not in private.access.seats:
            return refused(f"Место {number} играет кнопкой стола", 404)
        url = f"{str(request.base_url).rstrip('/')}/seat/{number}?t={private.access.seats[number]}"
        return Response(qr_svg(url), media_type="image/svg+xml")

    async def pump(socket: WebSocket, queue_: asyncio.Queue[str | None], read: Any) -> None:
        """Send the queue's texts while ``read`` takes the page's messages; either ending ends both."""

        async def reader() -> None:
            try:
                while True:
                    await read(await socket.receive_text())
            except (WebSocketDisconnect, RuntimeError, KeyError):
                pass
            finally:
                queue_.put_nowait(None)

        task = asyncio.create_task(reader())
        try:
            while (text := await queue_.get()) is not None:
                if text == REPLACED:
                    await socket.send_text(json.dumps({"type": "replaced"}))
                    await socket.close(code=4000)
                    break
                await socket.send_text(text)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            task.cancel()

    async def events(socket: WebSocket) -> None:
        await socket.accept()
        publisher.loop = asyncio.get_running_loop()
        queue_ = publisher.watch("public")
        try:
            await pump(socket, queue_, _ignore)
        finally:
            publisher.unwatch("public", queue_)

    async def host_socket(socket: WebSocket) -> None:
        if private is None or not private.access.is_host(socket.query_params.get("t")):
            await socket.close(code=1008)  # before accepting: the handshake gets 403
            return
        await socket.accept()
        publisher.loop = asyncio.get_running_loop()
        queue_ = publisher.watch("host")
        queue_.put_nowait(publisher.views.get("host", "{}"))
        queue_.put_nowait(publisher.phones_text())

        async def read(text: str) -> None:
            error = console_input(publisher, text)
            if error is not None:
                await socket.send_text(json.dumps({"type": "error", "text": error}, ensure_ascii=False))

        try:
            await pump(socket, queue_, read)
        finally:
            publisher.unwatch("host", queue_)

    async def seat_socket(socket: WebSocket) -> None:
        number = socket.path_params["seat"]
        if _seat_refusal(private, number, socket.query_params.get("t")) is not None:
            await socket.close(code=1008)
            return
        await socket.accept()
        publisher.loop = asyncio.get_running_loop()
        channel = f"seat:{number}"
        queue_ = publisher.watch(channel)
        queue_.put_nowait(publisher.views.get(channel, "{}"))
        before = publisher.phones.get(number)
        publisher.phones[number] = queue_
        if before is not None:  # one phone per seat: the newest takes over, and the host is told
            before.put_nowait(REPLACED)
            publisher.unwatch(channel, before)
            publisher.put(
                WebNotice(
                    f"seat {number}: another phone took over",
                    f"место {number}: подключён другой телефон, прежний отключён",
                )
            )
        else:
            publisher.put(
                WebNotice(f"seat {number}: a phone connected", f"место {number}: телефон подключён")
            )
        publisher.fan_out("host", publisher.phones_text())

        async def read(text: str) -> None:
            publisher.put(Press(key=number, at=time.monotonic()))  # any message is the button

        try:
            await pump(socket, queue_, read)
        finally:
            publisher.unwatch(channel, queue_)
            if publisher.phones.get(number) is queue_:
                del publisher.phones[number]
                publisher.fan_out("host", publisher.phones_text())

    @contextlib.asynccontextmanager
    async def lifespan(app: Any) -> AsyncIterator[None]:
        publisher.loop = asyncio.get_running_loop()
        yield

    return Starlette(
        routes=[
            Route("/", table),
            Route("/host", host),
            Route("/seat/{seat:int}", seat),
            Route("/api/state", state),
            Route("/api/qr/{seat:int}.svg", seat_qr),
            WebSocketRoute("/api/events", events),
            WebSocketRoute("/api/host", host_socket),
            WebSocketRoute("/api/seat/{seat:int}", seat_socket),
            Mount("/static", StaticFiles(directory=str(STATIC))),
        ],
        lifespan=lifespan,
    )


FORBIDDEN_HOST = "Нет доступа: откройте пульт по ссылке с токеном, которую напечатал host-device run"
REPLACED = "\x00replaced"  # to a seat's socket whose seat another phone took
TEXT_LIMIT = 300  # characters of typed speech


async def _ignore(text: str) -> None:
    pass


def _seat_refusal(private: Private | None, seat: int, token: str | None) -> tuple[str, int] | None:
    if private is None:
        return "Телефоны мест есть только в host-device run", 404
    if seat not in private.access.seats:
        return f"Место {seat} не играет с телефона (его кнопка на столе)", 404
    if not private.access.is_seat(seat, token):
        return "Нет доступа: откройте страницу места по его QR-коду на пульте ведущего", 403
    return None


def console_input(publisher: Publisher, text: str) -> str | None:
    """A message from the host's console, into the inbox: ``{"key": "next"}``
    (a host key), ``{"seat": 3}`` (a seat key of the host's: "foul" then 3),
    ``{"press": 3}`` (seat 3's own button, on the whole-table view), ``{"text":
    "…"}`` (the speaker's words typed). Returns what is wrong with it, or None."""
    assert publisher.private is not None
    seats = publisher.stream.runtime.game.preset.seats
    try:
        message = json.loads(text)
    except ValueError:
        message = None
    if not isinstance(message, dict) or len(message) != 1:
        return 'не понято: ожидается {"key": …}, {"seat": N}, {"press": N} или {"text": …}'
    ((kind, value),) = message.items()
    now = time.monotonic()
    if kind == "key" and value in CONSOLE_KEYS + HOST_KEYS:
        publisher.put(HostKey(Press(key=value, at=now)))
    elif kind in ("seat", "press") and _seat_number(value, seats):
        if kind == "press" and not publisher.private.console.whole_table:
            return "кнопки мест с пульта — только при --panel web"
        press = Press(key=value, at=now)
        publisher.put(HostKey(press) if kind == "seat" else press)
    elif kind == "text" and isinstance(value, str) and 0 < len(value.strip()) <= TEXT_LIMIT:
        publisher.put(TypedLine(text=value.strip(), at=now))
    else:
        return f"не понято: {text[:80]}"
    return None


def _seat_number(value: Any, seats: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= seats


def qr_svg(url: str) -> bytes:
    import qrcode  # type: ignore[import-untyped]
    from qrcode.image.svg import SvgPathImage  # type: ignore[import-untyped]

    image = qrcode.make(url, image_factory=SvgPathImage, border=2)
    return bytes(image.to_string())


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
    host, port = address
    server = WebServer(Publisher(PublicStream(runtime, text), speed, private), host, port)
    bound, port = server.start()
    shown = _lan_address() if bound == "0.0.0.0" else bound
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


def qr_text(url: str) -> str:
    """A QR code in text for a dark terminal: its dark squares are the terminal's background."""
    import io

    import qrcode

    code = qrcode.QRCode(border=2)
    code.add_data(url)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue().rstrip("\n")


def _lan_address() -> str:
    """This machine's address on the table's network (no packet is sent), else loopback."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"
