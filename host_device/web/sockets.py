"""The WebSocket endpoints: the table's public events (``/api/events``), the
host's console (``/api/host``) and a seat's phone (``/api/seat/N``). Each
socket reads its channel's queue from the publisher and sends it, while what
the page sends goes through :mod:`host_device.web.inputs` into the runtime's
inbox. A private socket without its token is closed before it is accepted
(the handshake gets 403)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable

from starlette.websockets import WebSocket, WebSocketDisconnect

from host_device.web.inputs import console_input, phone_notice, seat_press
from host_device.web.limits import Presses
from host_device.web.pages import publisher_of, seat_refusal
from host_device.web.publisher import REPLACED, Publisher

Reader = Callable[[str], Awaitable[None]]
POLICY_VIOLATION = 1008
REPLACED_CODE = 4000  # the close code of a seat's socket whose seat another phone took


async def pump(socket: WebSocket, queue_: asyncio.Queue[str | None], read: Reader) -> None:
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
                await socket.close(code=REPLACED_CODE)
                break
            await socket.send_text(text)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        task.cancel()


async def _accept(socket: WebSocket) -> Publisher:
    await socket.accept()
    publisher = publisher_of(socket)
    publisher.loop = asyncio.get_running_loop()
    return publisher


async def _ignore(text: str) -> None:
    pass


async def events(socket: WebSocket) -> None:
    publisher = await _accept(socket)
    queue_ = publisher.watch("public")
    try:
        await pump(socket, queue_, _ignore)
    finally:
        publisher.unwatch("public", queue_)


async def host_socket(socket: WebSocket) -> None:
    private = publisher_of(socket).private
    if private is None or not private.access.is_host(socket.query_params.get("t")):
        await socket.close(code=POLICY_VIOLATION)  # before accepting: the handshake gets 403
        return
    publisher = await _accept(socket)
    queue_ = publisher.watch("host")
    queue_.put_nowait(publisher.views.get("host", "{}"))
    queue_.put_nowait(publisher.phones_text())

    async def read(text: str) -> None:
        error = console_input(publisher, text, queue_)
        if error is not None:
            await socket.send_text(json.dumps({"type": "error", "text": error}, ensure_ascii=False))

    try:
        await pump(socket, queue_, read)
    finally:
        publisher.unwatch_console(queue_)


async def seat_socket(socket: WebSocket) -> None:
    number = socket.path_params["seat"]
    if seat_refusal(publisher_of(socket).private, number, socket.query_params.get("t")) is not None:
        await socket.close(code=POLICY_VIOLATION)
        return
    publisher = await _accept(socket)
    channel = f"seat:{number}"
    queue_ = publisher.watch(channel)
    queue_.put_nowait(publisher.views.get(channel, "{}"))
    _take_seat(publisher, number, queue_)
    presses = Presses(socket.app.state.limits, f"seat {number}'s phone")

    async def read(text: str) -> None:
        if presses.allow():
            publisher.put(seat_press(number))

    try:
        await pump(socket, queue_, read)
    finally:
        publisher.unwatch(channel, queue_)
        presses.report()
        if publisher.phones.get(number) is queue_:
            del publisher.phones[number]
            publisher.tell_console(publisher.phones_text())


def _take_seat(publisher: Publisher, number: int, queue_: asyncio.Queue[str | None]) -> None:
    """One phone per seat: the newest takes over, the one before is closed, and the host is told."""
    before = publisher.phones.get(number)
    publisher.phones[number] = queue_
    if before is not None:
        before.put_nowait(REPLACED)
        publisher.unwatch(f"seat:{number}", before)
    publisher.put(phone_notice(number, replaced=before is not None))
    publisher.tell_console(publisher.phones_text())
